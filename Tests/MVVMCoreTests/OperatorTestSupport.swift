import Dispatch
import Foundation
@preconcurrency import OpenCombine
import Testing

// What the operator tests (CombineLatest, Merge and its arities) share: a subscriber that
// records, an upstream the test drives by hand, and recorders of cancellations and requests.

enum OperatorTestError: Error, Equatable {
    case boom
}

/// Records what a publisher sends, lets the test control demand, and counts calls that
/// overlap one another (a downstream must never be called concurrently or re-entered).
final class TestSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    let combineIdentifier = CombineIdentifier()

    /// Called for each value; returns the additional demand.
    var onValue: (Input) -> Subscribers.Demand = { _ in .none }

    private let initialDemand: Subscribers.Demand
    private let lock = NSLock()
    private var subscription: Subscription?
    private var recordedValues: [Input] = []
    private var recordedCompletions: [Subscribers.Completion<Failure>] = []
    private var lateValues = 0
    private var isInCall = false
    private var overlaps = 0

    /// - Parameter demand: what it requests when it gets its subscription (`.none`: nothing).
    init(demand: Subscribers.Demand = .unlimited) {
        initialDemand = demand
    }

    var values: [Input] { return lock.withLock { recordedValues } }

    var completions: [Subscribers.Completion<Failure>] {
        return lock.withLock { recordedCompletions }
    }

    /// Values received after a completion: a publisher must send none.
    var valuesAfterCompletion: Int { return lock.withLock { lateValues } }

    var overlappingCalls: Int { return lock.withLock { overlaps } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subscription }?.request(demand)
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    /// Makes it request `demand` from inside each `receive(_:)`, returning `.none`.
    func requestsInsideEachReceive(_ demand: Subscribers.Demand) {
        onValue = { [unowned self] _ in
            self.request(demand)
            return .none
        }
    }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if initialDemand != .none {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        lock.withLock {
            if !recordedCompletions.isEmpty { lateValues += 1 }
            recordedValues.append(input)
        }
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

extension TestSubscriber where Input == (Int, Int) {
    /// The values received so far, as arrays so that they can be compared.
    var pairs: [[Int]] { return values.map { [$0.0, $0.1] } }
}

/// An upstream the test drives by hand: it sends what the test says, with or without demand
/// (so it can play a publisher that breaks the rules), returns what its subscriber answers,
/// and records what its subscription is asked.
final class TestUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    enum Event: Equatable {
        case requested(Subscribers.Demand)
        case cancelled
    }

    private let lock = NSLock()
    private var subscriber: AnySubscriber<Output, Failure>?
    private var recorded: [Event] = []

    /// What its subscription was asked, in order.
    var events: [Event] { return lock.withLock { recorded } }

    func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure
    {
        lock.withLock { self.subscriber = AnySubscriber(subscriber) }
        subscriber.receive(subscription: TestUpstreamSubscription(self))
    }

    /// Sends `value` whatever the demand; returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        return lock.withLock { subscriber }?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { subscriber }?.receive(completion: completion)
    }

    fileprivate func record(_ event: Event) {
        lock.withLock { recorded.append(event) }
    }
}

private final class TestUpstreamSubscription<Output, Failure: Error>: Subscription, @unchecked Sendable {
    let combineIdentifier = CombineIdentifier()
    private let upstream: TestUpstream<Output, Failure>

    init(_ upstream: TestUpstream<Output, Failure>) {
        self.upstream = upstream
    }

    func request(_ demand: Subscribers.Demand) { upstream.record(.requested(demand)) }

    func cancel() { upstream.record(.cancelled) }
}

/// Names the upstreams that got cancelled.
final class CancellationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled: [String] = []

    var names: [String] { return lock.withLock { cancelled } }

    func track<P: Publisher>(_ publisher: P, _ name: String) -> Publishers.HandleEvents<P> {
        return publisher.handleEvents(receiveCancel: {
            self.lock.withLock { self.cancelled.append(name) }
        })
    }
}

/// Records the demand each upstream is asked for.
final class DemandRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String: [Subscribers.Demand]] = [:]

    var demands: [String: [Subscribers.Demand]] { return lock.withLock { recorded } }

    func track<P: Publisher>(_ publisher: P, _ name: String) -> Publishers.HandleEvents<P> {
        return publisher.handleEvents(receiveRequest: { demand in
            self.lock.withLock { self.recorded[name, default: []].append(demand) }
        })
    }
}

/// `DispatchQueue.concurrentPerform`, with its hand-offs made visible to ThreadSanitizer.
/// libdispatch orders the caller's work before each iteration and each iteration before the
/// return, but ThreadSanitizer does not see that ordering when an iteration runs on a worker
/// thread made earlier, and reports the test's own set-up (a subject made by the caller, used by
/// the iteration) as a race. A lock taken by the caller before and after, and by each iteration
/// first and last, states the same ordering in a form it sees; the iterations' bodies stay
/// unordered among themselves, so a race between them is still reported.
func performConcurrently(iterations: Int, _ work: @Sendable (Int) -> Void) {
    let handOff = NSLock()
    handOff.withLock {}
    DispatchQueue.concurrentPerform(iterations: iterations) { index in
        handOff.withLock {}
        work(index)
        handOff.withLock {}
    }
    handOff.withLock {}
}

/// Sends `count` values from each subject, each on a thread of its own, then finishes them all,
/// and expects the subscriber to have received every value once, each subject's in order, in
/// calls that never overlapped, then `.finished`.
func expectEachValueOnce(
    sending count: Int,
    fromEachOf subjects: [PassthroughSubject<Int, Never>],
    concurrentlyTo subscriber: TestSubscriber<Int, Never>,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    performConcurrently(iterations: subjects.count) { index in
        for value in 0..<count {
            subjects[index].send(index * count + value)
        }
        subjects[index].send(completion: .finished)
    }

    let values = subscriber.values
    #expect(subscriber.overlappingCalls == 0, sourceLocation: sourceLocation)
    #expect(subscriber.completions == [.finished], sourceLocation: sourceLocation)
    #expect(values.count == subjects.count * count, sourceLocation: sourceLocation)
    #expect(Set(values) == Set(0..<subjects.count * count), sourceLocation: sourceLocation)
    for index in subjects.indices {
        let fromSubject = values.filter { $0 / count == index }
        #expect(fromSubject == fromSubject.sorted(), sourceLocation: sourceLocation)
    }
}
