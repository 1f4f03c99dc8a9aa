import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

@Suite("CombineLatest")
struct CombineLatestTests {

    private typealias TestError = OperatorTestError

    private typealias Subject = PassthroughSubject<Int, TestError>

    private typealias Upstream = TestUpstream<Int, TestError>

    private typealias PairSubscriber = TestSubscriber<(Int, Int), TestError>

    // MARK: - Values

    @Test func emitsOnlyAfterEveryUpstreamHasEmitted() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        a.send(2)
        #expect(subscriber.values.isEmpty)

        b.send(10)
        #expect(subscriber.pairs == [[2, 10]])
    }

    @Test func combinesTheLatestValuesInArrivalOrder() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        a.send(3)
        b.send(20)
        b.send(30)
        a.send(4)

        #expect(subscriber.pairs
                    == [[1, 10], [2, 10], [3, 10], [3, 20], [3, 30], [4, 30]])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func combinesCurrentValueSubjectsRightAway() {
        let a = CurrentValueSubject<Int, Never>(1)
        let b = CurrentValueSubject<String, Never>("x")
        let subscriber = TestSubscriber<(Int, String), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.value = 2

        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["1x", "2x"])
    }

    @Test func optionalNilIsAValue() {
        let a = PassthroughSubject<Int?, Never>()
        let b = PassthroughSubject<Int?, Never>()
        let subscriber = TestSubscriber<(Int?, Int?), Never>()
        a.combineLatest(b).subscribe(subscriber)

        a.send(nil)
        b.send(1)
        b.send(nil)

        #expect(subscriber.values.map { [$0.0, $0.1] } == [[nil, 1], [nil, nil]])
    }

    @Test func combineLatest3And4CombineEveryUpstream() {
        let a = Subject()
        let b = Subject()
        let c = Subject()
        let d = Subject()
        let three = TestSubscriber<(Int, Int, Int), TestError>()
        let four = TestSubscriber<(Int, Int, Int, Int), TestError>()
        a.combineLatest(b, c).subscribe(three)
        a.combineLatest(b, c, d).subscribe(four)

        a.send(1)
        b.send(2)
        c.send(3)
        d.send(4)
        c.send(30)
        a.send(10)

        #expect(three.values.map { [$0.0, $0.1, $0.2] }
                    == [[1, 2, 3], [1, 2, 30], [10, 2, 30]])
        #expect(four.values.map { [$0.0, $0.1, $0.2, $0.3] }
                    == [[1, 2, 3, 4], [1, 2, 30, 4], [10, 2, 30, 4]])
    }

    @Test func transformOverloadsApplyTheClosureToTheLatestValues() {
        let a = Subject()
        let b = Subject()
        let c = Subject()
        let d = Subject()
        let two = TestSubscriber<Int, TestError>()
        let three = TestSubscriber<Int, TestError>()
        let four = TestSubscriber<String, TestError>()
        a.combineLatest(b) { $0 * $1 }.subscribe(two)
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(three)
        a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }.subscribe(four)

        a.send(2)
        b.send(3)
        c.send(4)
        d.send(5)
        a.send(1)

        #expect(two.values == [6, 3])
        #expect(three.values == [9, 8])
        #expect(four.values == ["2345", "1345"])
    }

    @Test func isEquatableWhenItsUpstreamsAre() {
        #expect(Just(1).combineLatest(Just(2)) == Just(1).combineLatest(Just(2)))
        #expect(Just(1).combineLatest(Just(2)) != Just(1).combineLatest(Just(3)))
        #expect(Publishers.CombineLatest3(Just(1), Just(2), Just(3))
                    == Publishers.CombineLatest3(Just(1), Just(2), Just(3)))
        #expect(Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4))
                    != Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(0)))
    }

    // MARK: - Completion

    @Test func finishesOnlyWhenAllUpstreamsHaveFinished() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)

        b.send(20)
        #expect(subscriber.pairs == [[1, 10], [1, 20]])

        b.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    // Issue 32, R2: as Apple's, an upstream that finishes without a value ends nothing early.
    @Test func anUpstreamFinishingWithoutAValueWaitsForTheOthersToFinish() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = PairSubscriber()
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        #expect(a.events == [.requested(.unlimited)])

        a.send(2)
        #expect(subscriber.values.isEmpty)
        a.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
        #expect(a.events == [.requested(.unlimited)])
    }

    @Test func finishesWhenEveryUpstreamFinishedWithoutAValue() {
        let subscriber = TestSubscriber<(Int, Int, Int), TestError>()
        Empty<Int, TestError>().combineLatest(Empty(), Empty()).subscribe(subscriber)

        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func failsAtOnceAndCancelsTheOtherUpstreams() {
        let a = Subject()
        let b = Subject()
        let c = Subject()
        let cancellations = CancellationCounter()
        let subscriber = TestSubscriber<(Int, Int, Int), TestError>()
        cancellations.track(a, "a")
            .combineLatest(cancellations.track(b, "b"), cancellations.track(c, "c"))
            .subscribe(subscriber)

        a.send(1)
        b.send(2)
        c.send(3)
        b.send(completion: .failure(.boom))
        a.send(4)
        c.send(completion: .finished)

        #expect(subscriber.values.count == 1)
        #expect(subscriber.completions == [.failure(.boom)])
        #expect(cancellations.names.sorted() == ["a", "c"])
    }

    @Test func aFailureCancelsTheOthersButNotTheFailedUpstream() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = PairSubscriber()
        a.combineLatest(b).subscribe(subscriber)

        a.send(completion: .failure(.boom))

        #expect(subscriber.completions == [.failure(.boom)])
        #expect(a.events == [.requested(.unlimited)])
        #expect(b.events == [.requested(.unlimited), .cancelled])
    }

    // MARK: - Demand

    @Test func neverSendsMoreThanRequested() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber(demand: .max(1))
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        b.send(20)
        #expect(subscriber.pairs == [[1, 10]])

        // Each subject was asked for one value and sent it; the rest they dropped.
        subscriber.request(.max(1))
        #expect(subscriber.pairs == [[1, 10]])
        a.send(3)
        #expect(subscriber.pairs == [[1, 10], [3, 10]])
    }

    // Issue 32, R1: as Apple's, a value that makes no combination asks for nothing more; the
    // demand the subscriber returns for a combination goes back to the upstream whose value
    // made it, and to no other.
    @Test func receiveReturnsNoDemandOfItsOwn() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = PairSubscriber(demand: .max(5))
        subscriber.onValue = { _ in .max(2) }
        a.combineLatest(b).subscribe(subscriber)

        #expect(a.send(1) == .none)
        #expect(a.send(2) == .none)
        #expect(b.send(10) == .max(2))
        #expect(subscriber.pairs == [[2, 10]])
        #expect(a.events == [.requested(.max(5))])
        #expect(b.events == [.requested(.max(5))])
    }

    // Issue 32, R5: as Apple's, a combination formed while the subscriber has no demand is
    // never sent; the values it was made of stay the latest ones.
    @Test func aCombinationFormedWithoutDemandIsNotSentLater() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)

        a.send(100)
        b.send(1)
        #expect(subscriber.values == [101])

        a.send(200)
        a.send(300)
        b.send(2)
        subscriber.request(.max(1))
        #expect(subscriber.values == [101])

        b.send(3)
        #expect(subscriber.values == [101, 303])
    }

    @Test func passesDemandToEveryUpstream() {
        let requests = DemandRecorder()
        let subscriber = TestSubscriber<(Int, Int), Never>(demand: .max(2))
        requests.track(PassthroughSubject<Int, Never>(), "a")
            .combineLatest(requests.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(subscriber)
        subscriber.request(.max(3))

        #expect(requests.demands["a"] == [.max(2), .max(3)])
        #expect(requests.demands["b"] == [.max(2), .max(3)])
    }

    // MARK: - Cancellation and reentrancy

    @Test func cancelStopsDeliveryAndIsIdempotent() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = PairSubscriber()
        cancellations.track(a, "a").combineLatest(cancellations.track(b, "b"))
            .subscribe(subscriber)
        a.send(1)
        b.send(10)

        subscriber.cancel()
        subscriber.cancel()
        a.send(2)
        b.send(completion: .finished)

        #expect(subscriber.values.count == 1)
        #expect(subscriber.completions.isEmpty)
        #expect(cancellations.names.sorted() == ["a", "b"])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = PairSubscriber()
        subscriber.onValue = { [unowned subscriber] _ in
            subscriber.cancel()
            return .none
        }
        cancellations.track(a, "a").combineLatest(cancellations.track(b, "b"))
            .subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)

        #expect(subscriber.values.count == 1)
        #expect(cancellations.names.sorted() == ["a", "b"])
    }

    @Test func requestFromInsideReceiveKeepsValuesFlowing() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber(demand: .max(1))
        subscriber.requestsInsideEachReceive(.max(1))
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        b.send(20)

        #expect(subscriber.pairs == [[1, 10], [2, 10], [2, 20]])
    }

    // Issue 32, R4: as Apple's, a request made while a combination is being received goes to
    // every upstream at once.
    @Test func aRequestFromInsideReceiveGoesToEveryUpstream() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = PairSubscriber(demand: .max(1))
        subscriber.requestsInsideEachReceive(.max(3))
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        #expect(b.send(10) == .none)

        #expect(a.events == [.requested(.max(1)), .requested(.max(3))])
        #expect(b.events == [.requested(.max(1)), .requested(.max(3))])
    }

    // Issue 32, R3: as Apple's, a value sent from inside the subscriber's receive(_:) makes no
    // combination of its own (it becomes its upstream's latest value), so an upstream that
    // answers each combination with a value cannot make it loop.
    @Test func aValueSentFromInsideReceiveIsNotSentOnItsOwn() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        var answers = 0
        subscriber.onValue = { value in
            // Bounded, so that an operator that loops fails here instead of hanging.
            if answers < 100 {
                answers += 1
                a.send(value.0 + 1)
            }
            return .none
        }
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        #expect(subscriber.pairs == [[1, 10]])
        #expect(subscriber.overlappingCalls == 0)

        b.send(20)
        #expect(subscriber.pairs == [[1, 10], [2, 20]])
    }

    @Test func aCompletionSentFromInsideReceiveArrivesAfterItReturns() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        subscriber.onValue = { _ in
            a.send(completion: .finished)
            b.send(completion: .finished)
            return .none
        }
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)

        #expect(subscriber.pairs == [[1, 10]])
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.overlappingCalls == 0)
    }

    // MARK: - Concurrency

    @Test func upstreamsOnDifferentThreadsNeverOverlapDownstream() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<(Int, Int, Int, Int), Never>()
        subjects[0].combineLatest(subjects[1], subjects[2], subjects[3])
            .subscribe(subscriber)
        let count = 1_000

        performConcurrently(iterations: subjects.count) { index in
            for value in 1...count {
                subjects[index].send(value)
            }
            subjects[index].send(completion: .finished)
        }

        let sums = subscriber.values.map { $0.0 + $0.1 + $0.2 + $0.3 }
        #expect(subscriber.overlappingCalls == 0)
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.values.last.map { [$0.0, $0.1, $0.2, $0.3] }
                    == [count, count, count, count])
        // Each value after the first combination yields exactly one new combination.
        #expect(zip(sums, sums.dropFirst()).allSatisfy { $1 == $0 + 1 })
    }

    @Test func requestsFromAnotherThreadWhileValuesArriveNeverOverlapDownstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(demand: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        let count = 1_000

        performConcurrently(iterations: 3) { index in
            switch index {
            case 0: (1...count).forEach { a.send($0) }
            case 1: (1...count).forEach { b.send($0) }
            default: (0..<count).forEach { _ in subscriber.request(.max(1)) }
            }
        }

        let values = subscriber.values
        #expect(subscriber.overlappingCalls == 0)
        #expect(values.count <= count + 1)
        // Each combination holds each upstream's latest value, and those only go up.
        #expect(zip(values, values.dropFirst()).allSatisfy { $1.0 >= $0.0 && $1.1 >= $0.1 })
    }
}
