//
//  MergeInner.swift
//  MVVMRuntime
//
//  The subscription of `Merge`, `Merge3` … `Merge8` and `MergeMany`: one class for every
//  arity, its upstreams told apart by index, as Apple's shares one among them.
//

@preconcurrency import OpenCombine

/// The subscription every merge publisher gives its subscriber.
///
/// Demand, as Apple's: each upstream is asked for one value as soon as it subscribes (for an
/// unlimited number once the downstream's demand is unlimited), and asked for the next one
/// each time a value of it is sent downstream with limited demand. A request of the downstream
/// asks upstreams only for that (the next value of each whose held value it let through) or,
/// once demand is unlimited, for an unlimited number. A value that arrives while the downstream
/// has no demand is held, one per upstream (an upstream that sends more than it was asked for
/// replaces its held value), and held values are sent in upstream order as demand arrives. A
/// request for no values is ignored. It finishes once every upstream has finished and no value
/// is held; it fails with the first failure, after cancelling every upstream subscription, the
/// failed one's included. Demand that becomes unlimited from inside the downstream (a request,
/// or its answer to a value) reaches every upstream too, once the downstream returns.
///
/// Where Apple's breaks the Publisher rules, this keeps them: nothing is sent after a
/// completion, and a finished upstream's later values and completions are ignored.
///
/// Locking: `lock` guards the state and is never held while calling out. `downstreamLock`
/// (recursive) is held while an event is taken in and while the downstream is called, so
/// upstreams on different threads take turns and the downstream is never called concurrently.
/// A call from inside the downstream (a request, a value or a completion it caused) only
/// updates the state; the delivery running further up the stack sends what it allows once
/// the downstream returns, in order.
final class MergeInner<Downstream: Subscriber>
    : Subscription,
      CustomStringConvertible,
      CustomReflectable,
      CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let lock = InlineLock()
    private let downstreamLock = InlineRecursiveLock()

    // All of the following is guarded by `lock`.
    private var subscriptions: [Subscription?]
    private var finished: [Bool]
    private var unfinishedCount: Int
    /// Per upstream, the latest value it sent while the downstream had no demand.
    private var held: [Input?]
    private var heldCount = 0
    /// Values taken against demand while the downstream was being called, in arrival order.
    private var queued: [Input] = []
    /// Upstreams whose held value was sent during this delivery: each is asked for the next.
    private var askAgain: [Int] = []
    private var demand = Subscribers.Demand.none
    /// Whether every upstream was asked for an unlimited number of values.
    private var isUnlimitedForwarded = false
    private var failure: Failure?
    private var isDelivering = false
    private var isTerminated = false

    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: upstreamCount)
        finished = Array(repeating: false, count: upstreamCount)
        held = Array(repeating: nil, count: upstreamCount)
        unfinishedCount = upstreamCount
    }

    /// Subscribes to `upstream` as upstream number `index`.
    func attach<Upstream: Publisher>(_ upstream: Upstream, at index: Int)
        where Upstream.Output == Input, Upstream.Failure == Failure
    {
        upstream.subscribe(Side(index: index, inner: self))
    }

    // MARK: - Subscription

    func request(_ demand: Subscribers.Demand) {
        // Apple's ignores it; `Demand`'s own arithmetic would not mind either.
        guard demand > 0 else { return }
        _ = deliver {
            if lockedIsOpen, self.demand != .unlimited {
                self.demand += demand
            }
            return .none
        }
    }

    func cancel() {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        isTerminated = true
        lockedDropValues()
        let subscriptions = self.subscriptions
        self.subscriptions = Array(repeating: nil, count: subscriptions.count)
        lock.unlock()
        subscriptions.forEach { $0?.cancel() }
    }

    var description: String { return "Merge" }

    var customMirror: Mirror { return Mirror(self, children: EmptyCollection()) }

    var playgroundDescription: Any { return description }

    // MARK: - Upstream events

    private var lockedIsOpen: Bool { return !isTerminated && failure == nil }

    private func lockedDropValues() {
        held = Array(repeating: nil, count: held.count)
        heldCount = 0
        queued = []
    }

    fileprivate func receive(subscription: Subscription, at index: Int) {
        lock.lock()
        guard lockedIsOpen, !finished[index], subscriptions[index] == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        let demand: Subscribers.Demand = self.demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(demand)
    }

    fileprivate func receive(_ value: Input, at index: Int) -> Subscribers.Demand {
        return deliver(returningDemandFor: index) {
            guard lockedIsOpen, !finished[index] else { return .none }
            guard demand > 0 else {
                if held[index] == nil {
                    heldCount += 1
                }
                held[index] = value
                return .none
            }
            let isLimited = demand != .unlimited
            demand -= 1
            queued.append(value)
            return isLimited ? .max(1) : .none
        }
    }

    fileprivate func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard lockedIsOpen, !finished[index] else {
            lock.unlock()
            return
        }
        finished[index] = true
        unfinishedCount -= 1
        var subscriptionsToCancel: [Subscription?] = []
        if case .failure(let error) = completion {
            failure = error
            lockedDropValues()
            subscriptionsToCancel = subscriptions
            subscriptions = Array(repeating: nil, count: subscriptions.count)
        } else {
            subscriptions[index] = nil
        }
        lock.unlock()
        subscriptionsToCancel.forEach { $0?.cancel() }
        _ = deliver { .none }
    }

    // MARK: - Delivery

    private enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Applies `lockedUpdate`, sends the downstream everything the state then allows, and asks
    /// upstreams for what their sent values made room for. Returns what `lockedUpdate` returned
    /// plus what upstream `index` is to be asked: an upstream's `receive(_:)` hands that back
    /// instead of calling into the upstream that is calling it.
    private func deliver(
        returningDemandFor index: Int = -1,
        _ lockedUpdate: () -> Subscribers.Demand
    ) -> Subscribers.Demand {
        downstreamLock.lock()
        lock.lock()
        var ownDemand = lockedUpdate()
        if isDelivering {
            lock.unlock()
            downstreamLock.unlock()
            return ownDemand
        }
        isDelivering = true
        while let event = lockedNextEvent() {
            lock.unlock()
            switch event {
            case .value(let value):
                let additionalDemand = downstream.receive(value)
                lock.lock()
                if !isTerminated {
                    demand += additionalDemand
                }
            case .completion(let completion):
                downstream.receive(completion: completion)
                lock.lock()
            }
        }
        isDelivering = false
        var requests: [(subscription: Subscription, demand: Subscribers.Demand)] = []
        if lockedIsOpen {
            if demand == .unlimited && !isUnlimitedForwarded {
                // However it became unlimited (a request, even from inside the downstream, or
                // the downstream's answer to a value), every upstream is told at once.
                isUnlimitedForwarded = true
                askAgain = Array(subscriptions.indices)
            }
            let ask: Subscribers.Demand = isUnlimitedForwarded ? .unlimited : .max(1)
            for upstream in askAgain {
                if upstream == index {
                    ownDemand += ask
                } else if let subscription = subscriptions[upstream] {
                    requests.append((subscription, ask))
                }
            }
        }
        askAgain.removeAll(keepingCapacity: true)
        lock.unlock()
        downstreamLock.unlock()
        for request in requests {
            request.subscription.request(request.demand)
        }
        return ownDemand
    }

    /// The next event for the downstream, with the state updated as if it was sent.
    private func lockedNextEvent() -> Event? {
        if isTerminated {
            return nil
        }
        if let failure = failure {
            isTerminated = true
            return .completion(.failure(failure))
        }
        if !queued.isEmpty {
            return .value(queued.removeFirst())
        }
        if demand > 0 && heldCount > 0, let upstream = held.firstIndex(where: { $0 != nil }) {
            let value = held[upstream]!
            held[upstream] = nil
            heldCount -= 1
            demand -= 1
            askAgain.append(upstream)
            return .value(value)
        }
        if unfinishedCount == 0 && heldCount == 0 {
            isTerminated = true
            return .completion(.finished)
        }
        return nil
    }
}

extension MergeInner {
    /// The subscriber given to upstream number `index`.
    fileprivate struct Side
        : Subscriber,
          CustomStringConvertible,
          CustomReflectable,
          CustomPlaygroundDisplayConvertible
    {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let index: Int
        let inner: MergeInner

        let combineIdentifier = CombineIdentifier()

        func receive(subscription: Subscription) {
            inner.receive(subscription: subscription, at: index)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            return inner.receive(input, at: index)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receive(completion: completion, at: index)
        }

        var description: String { return "Merge" }

        var customMirror: Mirror {
            return Mirror(self, children: ["parentSubscription": inner.combineIdentifier])
        }

        var playgroundDescription: Any { return description }
    }
}
