//
//  Publishers.Merge.swift
//  MVVMRuntime
//
//  `Merge` for OpenCombine 0.14.0, which ships without it.
//


@preconcurrency import OpenCombine

extension Publisher {

    /// Combines elements from this publisher with those from another publisher,
    /// delivering an interleaved sequence of elements.
    ///
    /// Use `merge(with:)` when you want to receive a new element whenever any of the
    /// upstream publishers emits an element. To receive tuples of the most-recent value
    /// from all the upstream publishers whenever any of them emit a value, use
    /// `combineLatest(_:)`. To combine elements from multiple upstream publishers, use
    /// `zip(_:)`.
    ///
    /// In this example, as `merge(with:)` receives input from either upstream
    /// publisher, it republishes it to the downstream:
    ///
    ///     let publisher = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = publisher
    ///         .merge(with: pub2)
    ///         .sink { print("\($0)", terminator: " " ) }
    ///
    ///     publisher.send(2)
    ///     pub2.send(2)
    ///     publisher.send(3)
    ///     pub2.send(22)
    ///     publisher.send(45)
    ///     pub2.send(22)
    ///     publisher.send(17)
    ///
    ///     // Prints: "2 2 3 22 45 22 17"
    ///
    /// The merged publisher continues to emit elements until all upstream publishers
    /// finish. If an upstream publisher produces an error, the merged publisher fails
    /// with that error and cancels the other upstream publisher.
    ///
    /// The merged publisher never sends more elements than the subscriber requested:
    /// it asks each upstream publisher for one element at a time (or for an unlimited
    /// number once the subscriber’s demand is unlimited), and holds at most one element
    /// per upstream publisher while the subscriber has no demand. It finishes only
    /// after sending such a held element.
    ///
    /// - Parameter other: Another publisher.
    /// - Returns: A publisher that emits an event when either upstream publisher emits
    ///   an event.
    public func merge<P: Publisher>(
        with other: P
    ) -> Publishers.Merge<Self, P> where Failure == P.Failure, Output == P.Output {
        return .init(self, other)
    }
}

extension Publishers {

    /// A publisher created by applying the merge function to two upstream publishers.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
        where A.Failure == B.Failure, A.Output == B.Output
    {
        /// The kind of values published by this publisher.
        ///
        /// This publisher uses its upstream publishers’ shared output type.
        public typealias Output = A.Output

        /// The kind of errors this publisher might publish.
        ///
        /// This publisher uses its upstream publishers’ shared failure type.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// Creates a publisher created by applying the merge function to two upstream
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// Implementations of `Publisher` must implement this method.
        ///
        /// The provided implementation of `Publisher.subscribe(_:)` calls this method.
        ///
        /// - Parameter subscriber: The subscriber to attach to this `Publisher`,
        ///   after which it can receive values.
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
            where Downstream.Failure == Failure, Downstream.Input == Output
        {
            let inner = Inner(downstream: subscriber, upstreamCount: 2)
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Merge {

    /// Demand: each upstream is asked for one element at a time, and asked again only
    /// once that element has been sent downstream and the downstream still has demand;
    /// when the downstream demand is unlimited, so is every upstream’s. An element that
    /// arrives while the downstream has no demand (or is being called on the same
    /// thread) waits in `buffer`; with limited demand that is at most one element per
    /// upstream.
    ///
    /// Locking: `lock` guards the state and is never held while calling out.
    /// `downstreamLock` is held while an element is taken in and while the downstream
    /// is called, so upstreams on different threads take turns and the downstream is
    /// never called concurrently. A call made from inside the downstream (a request, or
    /// an upstream element the downstream triggered) only updates the state; the
    /// delivery loop further up the stack delivers it once the downstream returns.
    fileprivate final class Inner<Downstream: Subscriber>
        : Subscription,
          CustomStringConvertible,
          CustomReflectable,
          CustomPlaygroundDisplayConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure
    {
        private typealias UpstreamRequest =
            (index: Int, subscription: Subscription, demand: Subscribers.Demand)

        private let downstream: Downstream
        private let lock = InlineLock()
        private let downstreamLock = InlineRecursiveLock()

        // All of the following is guarded by `lock`.
        private var subscriptions: [Subscription?]
        /// Elements requested from each upstream and not received yet.
        private var requested: [Subscribers.Demand]
        private var finished: [Bool]
        /// Received elements the downstream had no demand for, in arrival order.
        private var buffer: [(index: Int, value: Output)] = []
        private var demand = Subscribers.Demand.none
        private var failure: Failure?
        private var isDelivering = false
        private var isTerminated = false

        init(downstream: Downstream, upstreamCount: Int) {
            self.downstream = downstream
            subscriptions = Array(repeating: nil, count: upstreamCount)
            requested = Array(repeating: .none, count: upstreamCount)
            finished = Array(repeating: false, count: upstreamCount)
        }

        func attach<Upstream: Publisher>(_ upstream: Upstream, at index: Int)
            where Upstream.Output == Output, Upstream.Failure == Failure
        {
            upstream.subscribe(Side(index: index, inner: self))
        }

        // MARK: - Subscription

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must be positive")
            _ = drain {
                if !isTerminated {
                    self.demand += demand
                }
            }
        }

        func cancel() {
            lock.lock()
            guard !isTerminated else {
                lock.unlock()
                return
            }
            isTerminated = true
            buffer = []
            let subscriptions = self.subscriptions
            self.subscriptions = Array(repeating: nil, count: subscriptions.count)
            lock.unlock()
            subscriptions.forEach { $0?.cancel() }
        }

        var description: String { return "Merge" }

        var customMirror: Mirror { return Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { return description }

        // MARK: - Upstream events

        private func lockedIsLive(_ index: Int) -> Bool {
            return !isTerminated && failure == nil && !finished[index]
        }

        fileprivate func receive(subscription: Subscription, at index: Int) {
            lock.lock()
            guard lockedIsLive(index), subscriptions[index] == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            subscriptions[index] = subscription
            let requests = lockedUpstreamRequests()
            lock.unlock()
            requests.forEach { $0.subscription.request($0.demand) }
        }

        fileprivate func receive(_ value: Output, at index: Int) -> Subscribers.Demand {
            return drain(returningDemandFor: index) {
                guard lockedIsLive(index) else { return }
                requested[index] -= 1
                buffer.append((index, value))
            }
        }

        fileprivate func receive(completion: Subscribers.Completion<Failure>,
                                 at index: Int) {
            lock.lock()
            guard lockedIsLive(index) else {
                lock.unlock()
                return
            }
            finished[index] = true
            subscriptions[index] = nil
            var subscriptionsToCancel: [Subscription?] = []
            if case .failure(let error) = completion {
                failure = error
                buffer = []
                subscriptionsToCancel = subscriptions
                subscriptions = Array(repeating: nil, count: subscriptions.count)
            }
            lock.unlock()
            subscriptionsToCancel.forEach { $0?.cancel() }
            _ = drain {}
        }

        // MARK: - Delivery

        private enum Event {
            case value(Output)
            case completion(Subscribers.Completion<Failure>)
        }

        /// Applies `lockedUpdate` to the state, sends the downstream everything the
        /// state then allows, and asks idle upstreams for more.
        ///
        /// The request for the upstream at `index` is returned instead, so that its
        /// `receive(_:)` hands it back without calling into that upstream.
        private func drain(
            returningDemandFor index: Int? = nil,
            _ lockedUpdate: () -> Void
        ) -> Subscribers.Demand {
            downstreamLock.lock()
            lock.lock()
            lockedUpdate()
            if isDelivering {
                // Called from inside the downstream; the running loop will deliver.
                lock.unlock()
                downstreamLock.unlock()
                return .none
            }
            isDelivering = true
            while let event = lockedNextEvent() {
                lock.unlock()
                switch event {
                case .value(let value):
                    let additionalDemand = downstream.receive(value)
                    lock.lock()
                    demand += additionalDemand
                case .completion(let completion):
                    downstream.receive(completion: completion)
                    lock.lock()
                }
            }
            isDelivering = false
            let requests = lockedUpstreamRequests()
            lock.unlock()
            downstreamLock.unlock()

            var ownDemand = Subscribers.Demand.none
            for request in requests {
                if request.index == index {
                    ownDemand = request.demand
                } else {
                    request.subscription.request(request.demand)
                }
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
            if demand > 0 && !buffer.isEmpty {
                demand -= 1
                return .value(buffer.removeFirst().value)
            }
            if buffer.isEmpty && !finished.contains(false) {
                isTerminated = true
                return .completion(.finished)
            }
            return nil
        }

        /// Records and returns the requests that bring every idle upstream back to one
        /// outstanding element (or to unlimited), as far as the downstream has demand.
        private func lockedUpstreamRequests() -> [UpstreamRequest] {
            guard !isTerminated, failure == nil, demand > 0 else { return [] }
            let target: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
            var requests: [UpstreamRequest] = []
            for (index, subscription) in subscriptions.enumerated() {
                guard let subscription = subscription,
                      requested[index] < target,
                      !buffer.contains(where: { $0.index == index }) else { continue }
                requests.append((index, subscription, target - requested[index]))
                requested[index] = target
            }
            return requests
        }
    }
}

extension Publishers.Merge.Inner {
    fileprivate struct Side
        : Subscriber,
          CustomStringConvertible,
          CustomReflectable,
          CustomPlaygroundDisplayConvertible
    {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let index: Int
        let inner: Publishers.Merge<A, B>.Inner<Downstream>

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
