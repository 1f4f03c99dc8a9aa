import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

@Suite("Merge")
struct MergeTests {

    private typealias TestError = OperatorTestError

    private typealias Subject = PassthroughSubject<Int, TestError>

    // MARK: - Values and completion

    @Test func interleavesValuesInArrivalOrder() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(subscriber)

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
        a.merge(with: b).subscribe(subscriber)

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
        cancellations.track(a, "a").merge(with: cancellations.track(b, "b"))
            .subscribe(subscriber)

        a.send(1)
        a.send(completion: .failure(.boom))
        b.send(2)
        b.send(completion: .finished)

        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.failure(.boom)])
        #expect(cancellations.names == ["b"])
    }

    @Test func mergesSynchronousPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.merge(with: [4, 5].publisher).subscribe(subscriber)

        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func isEquatableWhenItsUpstreamsAre() {
        #expect(Just(1).merge(with: Just(2)) == Just(1).merge(with: Just(2)))
        #expect(Just(1).merge(with: Just(2)) != Just(1).merge(with: Just(3)))
    }

    // MARK: - Demand

    @Test func neverSendsMoreThanRequested() {
        let a = Subject()
        let b = Subject()
        let subscriber = TestSubscriber<Int, TestError>(demand: .max(1))
        a.merge(with: b).subscribe(subscriber)

        a.send(1)
        b.send(10)
        a.send(2)
        #expect(subscriber.values == [1])

        // `10` was requested from `b` before the demand ran out, so it waits.
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 10])

        subscriber.request(.max(1))
        b.send(11)
        a.send(3)
        #expect(subscriber.values == [1, 10, 11])
    }

    @Test func asksUpstreamsForOneElementAtATimeUnlessDemandIsUnlimited() {
        let bounded = DemandRecorder()
        let limited = TestSubscriber<Int, Never>(demand: .max(5))
        bounded.track(PassthroughSubject<Int, Never>(), "a")
            .merge(with: bounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(limited)

        let unbounded = DemandRecorder()
        let unlimited = TestSubscriber<Int, Never>(demand: .unlimited)
        unbounded.track(PassthroughSubject<Int, Never>(), "a")
            .merge(with: unbounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(unlimited)

        #expect(bounded.demands == ["a": [.max(1)], "b": [.max(1)]])
        #expect(unbounded.demands == ["a": [.unlimited], "b": [.unlimited]])
    }

    @Test func followsDemandWithSynchronousPublishers() {
        let subscriber = TestSubscriber<Int, Never>(demand: .max(2))
        [1, 2, 3].publisher.merge(with: [4, 5].publisher).subscribe(subscriber)
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
        a.merge(with: b).subscribe(subscriber)

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

    // MARK: - Cancellation and reentrancy

    @Test func cancelStopsDeliveryAndIsIdempotent() {
        let a = Subject()
        let b = Subject()
        let cancellations = CancellationCounter()
        let subscriber = TestSubscriber<Int, TestError>()
        cancellations.track(a, "a").merge(with: cancellations.track(b, "b"))
            .subscribe(subscriber)
        a.send(1)

        subscriber.cancel()
        subscriber.cancel()
        a.send(2)
        b.send(3)
        b.send(completion: .finished)

        #expect(subscriber.values == [1])
        #expect(subscriber.completions.isEmpty)
        #expect(cancellations.names.sorted() == ["a", "b"])
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
        cancellations.track(a, "a").merge(with: cancellations.track(b, "b"))
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
        subscriber.onValue = { [unowned subscriber] _ in
            subscriber.request(.max(1))
            return .none
        }
        a.merge(with: b).subscribe(subscriber)

        a.send(1)
        b.send(2)
        a.send(3)
        a.send(4)

        #expect(subscriber.values == [1, 2, 3, 4])
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
        a.merge(with: b).subscribe(subscriber)

        a.send(1)
        a.send(3)

        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.overlappingCalls == 0)
    }

    // MARK: - Concurrency

    @Test func upstreamsOnDifferentThreadsDeliverEveryValueOnce() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        subjects[0].merge(with: subjects[1])
            .merge(with: subjects[2].merge(with: subjects[3]))
            .subscribe(subscriber)
        let count = 1_000

        DispatchQueue.concurrentPerform(iterations: subjects.count) { index in
            for value in 0..<count {
                subjects[index].send(index * count + value)
            }
            subjects[index].send(completion: .finished)
        }

        let values = subscriber.values
        #expect(subscriber.overlappingCalls == 0)
        #expect(subscriber.completions == [.finished])
        #expect(values.count == subjects.count * count)
        #expect(Set(values) == Set(0..<subjects.count * count))
        for index in subjects.indices {
            let fromSubject = values.filter { $0 / count == index }
            #expect(fromSubject == fromSubject.sorted())
        }
    }
}
