import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

@Suite("Merge")
struct MergeTests {

    private enum TestError: Error, Equatable {
        case boom
    }

    private typealias Subject = PassthroughSubject<Int, TestError>

    // MARK: - Values and completion

    @Test func interleavesValuesInArrivalOrder() {
        let a = Subject()
        let b = Subject()
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, Never>()
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
        let subscriber = MergeTestSubscriber<Int, TestError>(demand: .max(1))
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
        let limited = MergeTestSubscriber<Int, Never>(demand: .max(5))
        bounded.track(PassthroughSubject<Int, Never>(), "a")
            .merge(with: bounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(limited)

        let unbounded = DemandRecorder()
        let unlimited = MergeTestSubscriber<Int, Never>(demand: .unlimited)
        unbounded.track(PassthroughSubject<Int, Never>(), "a")
            .merge(with: unbounded.track(PassthroughSubject<Int, Never>(), "b"))
            .subscribe(unlimited)

        #expect(bounded.demands == ["a": [.max(1)], "b": [.max(1)]])
        #expect(unbounded.demands == ["a": [.unlimited], "b": [.unlimited]])
    }

    @Test func followsDemandWithSynchronousPublishers() {
        let subscriber = MergeTestSubscriber<Int, Never>(demand: .max(2))
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
        let subscriber = MergeTestSubscriber<Int, TestError>(demand: .max(1))
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
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, TestError>(demand: .max(1))
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
        let subscriber = MergeTestSubscriber<Int, TestError>()
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
        let subscriber = MergeTestSubscriber<Int, Never>()
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

// MARK: - Helpers

/// Records what a publisher sends, lets the test control demand, and counts calls
/// that overlap one another.
private final class MergeTestSubscriber<Input, Failure: Error>
    : Subscriber, @unchecked Sendable
{
    let combineIdentifier = CombineIdentifier()

    /// Called for each value; returns the additional demand.
    var onValue: (Input) -> Subscribers.Demand = { _ in .none }

    private let initialDemand: Subscribers.Demand
    private let lock = NSLock()
    private var subscription: Subscription?
    private var recordedValues: [Input] = []
    private var recordedCompletions: [Subscribers.Completion<Failure>] = []
    private var isInCall = false
    private var overlaps = 0

    init(demand: Subscribers.Demand = .unlimited) {
        initialDemand = demand
    }

    var values: [Input] { return lock.withLock { recordedValues } }

    var completions: [Subscribers.Completion<Failure>] {
        return lock.withLock { recordedCompletions }
    }

    var overlappingCalls: Int { return lock.withLock { overlaps } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(initialDemand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        lock.withLock { recordedValues.append(input) }
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        defer { leave() }
        lock.withLock { recordedCompletions.append(completion) }
    }

    private func enter() {
        lock.withLock {
            if isInCall { overlaps += 1 }
            isInCall = true
        }
    }

    private func leave() {
        lock.withLock { isInCall = false }
    }
}

extension MergeTests {
    /// Names the upstreams that got cancelled.
    private final class CancellationCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled: [String] = []

        var names: [String] { return lock.withLock { cancelled } }

        func track<P: Publisher>(_ publisher: P, _ name: String)
            -> Publishers.HandleEvents<P>
        {
            return publisher.handleEvents(receiveCancel: {
                self.lock.withLock { self.cancelled.append(name) }
            })
        }
    }

    /// Records the demand each upstream is asked for.
    private final class DemandRecorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [String: [Subscribers.Demand]] = [:]

        var demands: [String: [Subscribers.Demand]] { return lock.withLock { recorded } }

        func track<P: Publisher>(_ publisher: P, _ name: String)
            -> Publishers.HandleEvents<P>
        {
            return publisher.handleEvents(receiveRequest: { demand in
                self.lock.withLock { self.recorded[name, default: []].append(demand) }
            })
        }
    }
}
