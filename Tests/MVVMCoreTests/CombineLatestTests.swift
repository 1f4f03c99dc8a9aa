import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

@Suite("CombineLatest")
struct CombineLatestTests {

    private typealias TestError = OperatorTestError

    private typealias Subject = PassthroughSubject<Int, TestError>

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

    @Test func finishesAtOnceWhenAnUpstreamFinishesWithoutAValue() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = PairSubscriber()
        cancellations.track(a, "a").combineLatest(cancellations.track(b, "b"))
            .subscribe(subscriber)

        a.send(1)
        b.send(completion: .finished)

        #expect(subscriber.completions == [.finished])
        #expect(cancellations.names == ["a"])
        a.send(2)
        #expect(subscriber.values.isEmpty)
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
        a.send(3)
        #expect(subscriber.pairs == [[1, 10]])

        // `2` is kept as pending; `20` and `3` were never asked of the subjects,
        // which drop them.
        subscriber.request(.max(1))
        #expect(subscriber.pairs == [[1, 10], [2, 10]])
    }

    @Test func deliversOnlyTheLatestCombinationOnceDemandArrives() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber(demand: .max(2))
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        b.send(20)
        // No demand left: these only replace the pending combination.
        a.send(2)
        a.send(3)
        #expect(subscriber.pairs == [[1, 10], [1, 20]])

        subscriber.request(.max(5))
        #expect(subscriber.pairs == [[1, 10], [1, 20], [3, 20]])

        b.send(30)
        #expect(subscriber.pairs.last == [3, 30])
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
        subscriber.onValue = { [unowned subscriber] _ in
            subscriber.request(.max(1))
            return .none
        }
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        b.send(20)

        #expect(subscriber.pairs == [[1, 10], [2, 10], [2, 20]])
    }

    @Test func valueSentFromInsideReceiveIsDeliveredAfterItReturns() {
        let a = Subject()
        let b = Subject()
        let subscriber = PairSubscriber()
        subscriber.onValue = { value in
            if value.0 == 1 {
                a.send(2)
            }
            return .none
        }
        a.combineLatest(b).subscribe(subscriber)

        a.send(1)
        b.send(10)

        #expect(subscriber.pairs == [[1, 10], [2, 10]])
        #expect(subscriber.overlappingCalls == 0)
    }

    // MARK: - Concurrency

    @Test func upstreamsOnDifferentThreadsNeverOverlapDownstream() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<(Int, Int, Int, Int), Never>()
        subjects[0].combineLatest(subjects[1], subjects[2], subjects[3])
            .subscribe(subscriber)
        let count = 1_000

        DispatchQueue.concurrentPerform(iterations: subjects.count) { index in
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
}
