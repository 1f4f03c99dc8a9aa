import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

/// `Publishers.Merge`, the two-input merge. (`a.merge(with: b)` of two publishers of one type
/// makes a `MergeMany`, as Apple's does, so these tests name `Publishers.Merge`; its arities
/// and `MergeMany` share its subscription and have tests of their own, MergeArityTests.)
@Suite("Merge")
struct MergeTests {

    private typealias TestError = OperatorTestError

    private typealias Subject = PassthroughSubject<Int, TestError>

    private typealias Upstream = TestUpstream<Int, TestError>

    // MARK: - Values and completion

    @Test func interleavesValuesInArrivalOrder() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        b.send(20)
        b.send(21)

        #expect(subscriber.values == [1, 10, 2, 20, 21])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func finishesOnlyWhenBothUpstreamsHaveFinished() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)

        b.send(2)
        b.send(completion: .finished)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
    }

    @Test func failsAtOnceAndCancelsTheOtherUpstream() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Merge(cancellations.track(a, "a"), cancellations.track(b, "b"))
            .subscribe(subscriber)

        a.send(1)
        a.send(completion: .failure(.boom))
        b.send(2)
        b.send(completion: .finished)

        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.failure(.boom)])
        #expect(cancellations.names == ["b"])
    }

    // Issue 32, R9: as Apple's, a failure cancels every upstream subscription, the failed
    // upstream's included.
    @Test func aFailureCancelsTheFailedUpstreamsSubscriptionToo() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(completion: .failure(.boom))

        #expect(subscriber.completions == [.failure(.boom)])
        #expect(a.events == [.requested(.unlimited), .cancelled])
        #expect(b.events == [.requested(.unlimited), .cancelled])
    }

    @Test func mergesSynchronousPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.Merge([1, 2, 3].publisher, [4, 5].publisher).subscribe(subscriber)

        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func isEquatableWhenItsUpstreamsAre() {
        #expect(Just(1).merge(with: Empty()) == Just(1).merge(with: Empty<Int, Never>()))
        #expect(Publishers.Merge(Just(1), Just(2)) == Publishers.Merge(Just(1), Just(2)))
        #expect(Publishers.Merge(Just(1), Just(2)) != Publishers.Merge(Just(1), Just(3)))
    }

    // Where Apple's Merge breaks the Publisher rules, ours keeps them: an upstream that
    // finishes from inside the subscriber's receive(_:) and then sends anyway makes Apple's
    // deliver values after `.finished`.
    @Test func sendsNoValueFromAFinishedUpstreamNorAfterFinishing() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        subscriber.onValue = { _ in
            a.send(completion: .finished)
            return .none
        }
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        a.send(2)
        b.send(3)
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completions.isEmpty)

        b.send(completion: .finished)
        b.send(4)
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.valuesAfterCompletion == 0)
    }

    // MARK: - Demand

    // Issue 32, R6: as Apple's, each upstream is asked for one value as soon as it subscribes,
    // before the subscriber has asked for anything.
    @Test func asksEachUpstreamForOneValueAsItSubscribes() throws {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(demand: .none)
        Publishers.Merge(a, b).subscribe(subscriber)

        // Required: an upstream sending unasked is another test's subject (R8).
        try #require(a.events == [.requested(.max(1))])
        #expect(b.events == [.requested(.max(1))])

        // A value that comes before any demand waits for it.
        #expect(a.send(1) == .none)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        #expect(a.events == [.requested(.max(1)), .requested(.max(1))])

        subscriber.request(.unlimited)
        #expect(a.events.last == .requested(.unlimited))
        #expect(b.events == [.requested(.max(1)), .requested(.unlimited)])
    }

    @Test func asksUpstreamsForOneElementAtATimeUnlessDemandIsUnlimited() {
        let bounded = DemandRecorder()
        let limited = TestSubscriber<Int, Never>(demand: .max(5))
        Publishers.Merge(bounded.track(PassthroughSubject<Int, Never>(), "a"),
                         bounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(limited)

        let unbounded = DemandRecorder()
        let unlimited = TestSubscriber<Int, Never>(demand: .unlimited)
        Publishers.Merge(unbounded.track(PassthroughSubject<Int, Never>(), "a"),
                         unbounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(unlimited)

        #expect(bounded.demands == ["a": [.max(1)], "b": [.max(1)]])
        #expect(unbounded.demands == ["a": [.unlimited], "b": [.unlimited]])
    }

    @Test func aValueSentWithDemandAsksItsUpstreamForTheNext() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(2))
        Publishers.Merge(a, b).subscribe(subscriber)

        #expect(a.send(1) == .max(1))
        #expect(b.send(10) == .max(1))
        #expect(a.send(2) == .none)
        #expect(subscriber.values == [1, 10])

        let unlimited = TestSubscriber<Int, TestError>()
        let c = Upstream()
        Publishers.Merge(c, Upstream()).subscribe(unlimited)
        #expect(c.send(1) == .none)
    }

    @Test func neverSendsMoreThanRequested() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        a.send(3)
        #expect(subscriber.values == [1])

        // Each upstream holds one value while there is no demand; they go in upstream order.
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 10])

        subscriber.request(.max(1))
        b.send(11)
        a.send(4)
        #expect(subscriber.values == [1, 2, 10, 11])
    }

    @Test func followsDemandWithSynchronousPublishers() {
        let subscriber = TestSubscriber<Int, Never>(demand: .max(2))
        Publishers.Merge([1, 2, 3].publisher, [4, 5].publisher).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])

        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completions.isEmpty)

        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func finishesOnlyAfterAWaitingValueIsDelivered() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)

        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 10])
        #expect(subscriber.completions == [.finished])
    }

    // Issue 32, R7: as Apple's, a request for no values is ignored (ours trapped). In a child
    // process, so that a trap fails this test only.
    @Test func aRequestForNothingIsIgnored() async {
        await #expect(processExitsWith: .success) {
            let a = TestUpstream<Int, OperatorTestError>()
            let subscriber = TestSubscriber<Int, OperatorTestError>(demand: .none)
            Publishers.Merge(a, TestUpstream()).subscribe(subscriber)
            subscriber.request(.none)
            a.send(1)
            subscriber.request(.max(1))
            if subscriber.values != [1] { exit(EXIT_FAILURE) }
        }
    }

    // Issue 32, R8: as Apple's, an upstream that sends more than it was asked for is tolerated
    // (ours trapped): while there is no demand, it holds that upstream's latest value. In a
    // child process, so that a trap fails this test only.
    @Test func anUpstreamSendingMoreThanAskedIsTolerated() async {
        await #expect(processExitsWith: .success) {
            let a = TestUpstream<Int, OperatorTestError>()
            let b = TestUpstream<Int, OperatorTestError>()
            let subscriber = TestSubscriber<Int, OperatorTestError>(demand: .max(1))
            Publishers.Merge(a, b).subscribe(subscriber)
            a.send(100)
            b.send(1)
            a.send(200)
            a.send(300)
            b.send(2)
            b.send(3)
            if subscriber.values != [100] { exit(EXIT_FAILURE) }
            subscriber.request(.max(1))
            if subscriber.values != [100, 300] { exit(EXIT_FAILURE) }
            subscriber.request(.max(1))
            if subscriber.values != [100, 300, 3] { exit(EXIT_FAILURE) }
        }
    }

    // MARK: - Cancellation and reentrancy

    @Test func cancelStopsDeliveryAndIsIdempotent() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Merge(a, b).subscribe(subscriber)
        a.send(1)

        subscriber.cancel()
        subscriber.cancel()
        a.send(2)
        b.send(3)
        b.send(completion: .finished)

        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)
        #expect(a.events == [.requested(.unlimited), .cancelled])
        #expect(b.events == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = TestSubscriber<Int, TestError>()
        subscriber.onValue = { [unowned subscriber] _ in
            subscriber.cancel()
            return .none
        }
        Publishers.Merge(cancellations.track(a, "a"), cancellations.track(b, "b"))
            .subscribe(subscriber)

        a.send(1)
        b.send(2)

        #expect(subscriber.values == [1])
        #expect(cancellations.names.sorted() == ["a", "b"])
    }

    @Test func requestFromInsideReceiveKeepsValuesFlowing() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        subscriber.requestsInsideEachReceive(.max(1))
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        b.send(2)
        a.send(3)
        a.send(4)

        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func aRequestFromInsideReceiveAsksNoUpstream() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        subscriber.requestsInsideEachReceive(.max(5))
        Publishers.Merge(a, b).subscribe(subscriber)

        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        #expect(a.events == [.requested(.max(1))])
        #expect(b.events == [.requested(.max(1))])
    }

    // Demand made unlimited from inside the subscriber reaches every upstream once it returns,
    // so that none is left at one value at a time.
    @Test func demandMadeUnlimitedFromInsideReceiveReachesEveryUpstream() {
        let a = Upstream()
        let b = Upstream()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        subscriber.requestsInsideEachReceive(.unlimited)
        Publishers.Merge(a, b).subscribe(subscriber)

        #expect(a.send(1) == .unlimited)
        #expect(b.events == [.requested(.max(1)), .requested(.unlimited)])
        #expect(b.send(2) == .none)
        #expect(subscriber.values == [1, 2])
    }

    @Test func valueSentFromInsideReceiveIsDeliveredAfterItReturns() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        subscriber.onValue = { value in
            if value == 1 {
                b.send(2)
            }
            return .none
        }
        Publishers.Merge(a, b).subscribe(subscriber)

        a.send(1)
        a.send(3)

        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.overlappingCalls == 0)
    }

    // MARK: - Concurrency

    @Test func upstreamsOnDifferentThreadsDeliverEveryValueOnce() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.Merge(Publishers.Merge(subjects[0], subjects[1]),
                         Publishers.Merge(subjects[2], subjects[3]))
            .subscribe(subscriber)

        expectEachValueOnce(sending: 1_000, fromEachOf: subjects, concurrentlyTo: subscriber)
    }

    @Test func limitedDemandFromAnotherThreadWhileValuesArrive() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(demand: .none)
        Publishers.Merge(a, b).subscribe(subscriber)
        let count = 1_000

        performConcurrently(iterations: 3) { index in
            switch index {
            case 0: (1...count).forEach { a.send($0) }
            case 1: (1...count).forEach { b.send(-$0) }
            default: (0..<count).forEach { _ in subscriber.request(.max(1)) }
            }
        }

        let values = subscriber.values
        #expect(subscriber.overlappingCalls == 0)
        #expect(values.count <= count)
        let fromA = values.filter { $0 > 0 }
        let fromB = values.filter { $0 < 0 }.map { -$0 }
        #expect(fromA == fromA.sorted() && Set(fromA).count == fromA.count)
        #expect(fromB == fromB.sorted() && Set(fromB).count == fromB.count)
    }
}
