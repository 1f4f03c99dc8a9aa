//
//  Publishers.CombineLatest.swift
//  MVVMRuntime
//
//  `CombineLatest`, `CombineLatest3` and `CombineLatest4` for OpenCombine 0.14.0,
//  which ships without them. The three arities share one subscription that keeps
//  the latest value of each upstream in a typed slot (no `Any`, no casts); everything
//  that does not depend on the value types (locks, demand, completion) lives in a
//  non-generic base class, so the generic code an event runs is small.
//


@preconcurrency import OpenCombine

// swiftlint:disable large_tuple

extension Publisher {

    /// Subscribes to an additional publisher and publishes a tuple upon receiving output
    /// from either publisher.
    ///
    /// Use `combineLatest(_:)` when you want the downstream subscriber to receive
    /// a tuple of the most-recent element from multiple publishers when any of them emit
    /// a value. To pair elements from multiple publishers, use `zip(_:)` instead.
    /// To receive just the most-recent element from multiple publishers rather than
    /// tuples, use `merge(with:)`.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// The combined publisher passes every request for demand to all of its upstream
    /// publishers, including a request the subscriber makes while it receives an element,
    /// and never sends more elements downstream than requested. It sends a tuple only when
    /// an upstream element completes one while the subscriber has outstanding demand; an
    /// element that arrives without demand becomes its publisher’s most-recent element,
    /// and the tuple it would have made is never sent, not even once demand arrives.
    /// Receiving an element asks its publisher for nothing more, except the demand the
    /// subscriber returns for a tuple, which goes back to the publisher whose element
    /// completed that tuple.
    ///
    /// An element that an upstream publisher sends while the subscriber is receiving a
    /// tuple (from inside its `receive(_:)`) becomes that publisher’s most-recent element,
    /// but produces no tuple of its own.
    ///
    /// In this example, `PassthroughSubject` `pub1` and also `pub2` emit values; as
    /// `combineLatest(_:)` receives input from either upstream publisher, it combines
    /// the latest value from each publisher into a tuple and publishes it.
    ///
    ///     let pub1 = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub1
    ///         .combineLatest(pub2)
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub1.send(1)
    ///     pub1.send(2)
    ///     pub2.send(2)
    ///     pub1.send(3)
    ///     pub1.send(45)
    ///     pub2.send(22)
    ///
    ///     // Prints:
    ///     //    Result: (2, 2).    // pub1 latest = 2, pub2 latest = 2
    ///     //    Result: (3, 2).    // pub1 latest = 3, pub2 latest = 2
    ///     //    Result: (45, 2).   // pub1 latest = 45, pub2 latest = 2
    ///     //    Result: (45, 22).  // pub1 latest = 45, pub2 latest = 22
    ///
    /// All upstream publishers need to finish for the combined publisher to finish,
    /// even when one of them finished without publishing an element, so that no tuple
    /// can ever be produced. If any upstream publisher fails with an error, the combined
    /// publisher fails with that error and cancels the other upstream publishers.
    ///
    /// - Parameter other: Another publisher to combine with this one.
    /// - Returns: A publisher that receives and combines elements from this and another
    ///   publisher.
    public func combineLatest<P: Publisher>(
        _ other: P
    ) -> Publishers.CombineLatest<Self, P> where Failure == P.Failure {
        return .init(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output
    /// from either publisher.
    ///
    /// Use `combineLatest(_:_:)` to combine the current and one additional publisher and
    /// transform them using a closure you specify to publish a new value to the
    /// downstream.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// In the example below, `combineLatest(_:_:)` receives the most-recent values
    /// published by the two publishers, it multiplies them together, and republishes
    /// the result:
    ///
    ///     let pub1 = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub1
    ///         .combineLatest(pub2) { (first, second) in
    ///             return first * second
    ///         }
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub1.send(1)
    ///     pub1.send(2)
    ///     pub2.send(2)
    ///     pub1.send(9)
    ///     pub1.send(3)
    ///     pub2.send(12)
    ///     pub1.send(13)
    ///
    ///     // Prints:
    ///     //    Result: 4.    (pub1 latest = 2, pub2 latest = 2)
    ///     //    Result: 18.   (pub1 latest = 9, pub2 latest = 2)
    ///     //    Result: 6.    (pub1 latest = 3, pub2 latest = 2)
    ///     //    Result: 36.   (pub1 latest = 3, pub2 latest = 12)
    ///     //    Result: 156.  (pub1 latest = 13, pub2 latest = 12)
    ///
    /// Completion, failure and demand behave as described for `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - other: Another publisher to combine with this one.
    ///   - transform: A closure that receives the most-recent value from each publisher
    ///     and returns a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this and another
    ///   publisher.
    public func combineLatest<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        return Publishers.CombineLatest(self, other).map(transform)
    }

    /// Subscribes to two additional publishers and publishes a tuple upon receiving
    /// output from any of the publishers.
    ///
    /// Use `combineLatest(_:_:)` when you want the downstream subscriber to receive
    /// a tuple of the most-recent element from multiple publishers when any of them emit
    /// a value.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// In this example, three instances of `PassthroughSubject` emit values; as
    /// `combineLatest(_:_:)` receives input from any of the upstream publishers, it
    /// combines the latest value from each publisher into a tuple and publishes it:
    ///
    ///     let pub = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///     let pub3 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub
    ///         .combineLatest(pub2, pub3)
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub.send(1)
    ///     pub.send(2)
    ///     pub2.send(2)
    ///     pub3.send(9)
    ///
    ///     pub.send(3)
    ///     pub2.send(12)
    ///     pub.send(13)
    ///     pub3.send(19)
    ///
    ///     // Prints:
    ///     //  Result: (2, 2, 9).
    ///     //  Result: (3, 2, 9).
    ///     //  Result: (3, 12, 9).
    ///     //  Result: (13, 12, 9).
    ///     //  Result: (13, 12, 19).
    ///
    /// Completion, failure and demand behave as described for `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    /// - Returns: A publisher that receives and combines elements from this publisher
    ///   and two other publishers.
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P,
        _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q>
        where Failure == P.Failure, P.Failure == Q.Failure
    {
        return .init(self, publisher1, publisher2)
    }

    /// Subscribes to two additional publishers and invokes a closure upon receiving
    /// output from any of the publishers.
    ///
    /// Use `combineLatest(_:_:_:)` to combine the current and two additional publishers
    /// and transform them using a closure you specify to publish a new value to the
    /// downstream.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// In the example below, `combineLatest()` receives input from any of the
    /// publishers, combines the latest value from each publisher into a tuple, applies
    /// the closure and publishes the result:
    ///
    ///     let pub = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///     let pub3 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub
    ///         .combineLatest(pub2, pub3) { firstValue, secondValue, thirdValue in
    ///             return firstValue * secondValue * thirdValue
    ///         }
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub.send(1)
    ///     pub.send(2)
    ///     pub2.send(2)
    ///     pub3.send(10)
    ///
    ///     pub.send(9)
    ///     pub3.send(4)
    ///     pub2.send(12)
    ///
    ///     // Prints:
    ///     //  Result: 40.     // pub = 2, pub2 = 2, pub3 = 10
    ///     //  Result: 180.    // pub = 9, pub2 = 2, pub3 = 10
    ///     //  Result: 72.     // pub = 9, pub2 = 2, pub3 = 4
    ///     //  Result: 432.    // pub = 9, pub2 = 12, pub3 = 4
    ///
    /// Completion, failure and demand behave as described for `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - transform: A closure that receives the most-recent value from each publisher
    ///     and returns a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this publisher
    ///   and two other publishers.
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
        where Failure == P.Failure, P.Failure == Q.Failure
    {
        return Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// Subscribes to three additional publishers and publishes a tuple upon receiving
    /// output from any of the publishers.
    ///
    /// Use `combineLatest(_:_:_:)` when you want the downstream subscriber to receive
    /// a tuple of the most-recent element from multiple publishers when any of them emit
    /// a value.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// In the example below, `combineLatest(_:_:_:)` receives input from any of the
    /// publishers, combines the latest value from each publisher into a tuple and
    /// publishes it:
    ///
    ///     let pub = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///     let pub3 = PassthroughSubject<Int, Never>()
    ///     let pub4 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub
    ///         .combineLatest(pub2, pub3, pub4)
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub.send(1)
    ///     pub.send(2)
    ///     pub2.send(2)
    ///     pub3.send(9)
    ///     pub4.send(1)
    ///
    ///     pub.send(3)
    ///     pub2.send(12)
    ///     pub.send(13)
    ///     pub3.send(19)
    ///
    ///     // Prints:
    ///     //  Result: (2, 2, 9, 1).
    ///     //  Result: (3, 2, 9, 1).
    ///     //  Result: (3, 12, 9, 1).
    ///     //  Result: (13, 12, 9, 1).
    ///     //  Result: (13, 12, 19, 1).
    ///
    /// Completion, failure and demand behave as described for `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - publisher3: A fourth publisher to combine with the first publisher.
    /// - Returns: A publisher that receives and combines elements from this publisher
    ///   and three other publishers.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P,
        _ publisher2: Q,
        _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
        where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure
    {
        return .init(self, publisher1, publisher2, publisher3)
    }

    /// Subscribes to three additional publishers and invokes a closure upon receiving
    /// output from any of the publishers.
    ///
    /// Use `combineLatest(_:_:_:_:)` when you need to combine the current and three
    /// additional publishers and transform the values using a closure in which you
    /// specify the published elements, to publish a new element.
    ///
    /// The combined publisher doesn’t produce elements until each of its upstream
    /// publishers publishes at least one element.
    ///
    /// In the example below, as `combineLatest(_:_:_:_:)` receives input from any of
    /// the publishers, it uses the closure to multiply the latest values together and
    /// publishes the result:
    ///
    ///     let pub = PassthroughSubject<Int, Never>()
    ///     let pub2 = PassthroughSubject<Int, Never>()
    ///     let pub3 = PassthroughSubject<Int, Never>()
    ///     let pub4 = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pub
    ///         .combineLatest(pub2, pub3, pub4) { first, second, third, fourth in
    ///             return first * second * third * fourth
    ///         }
    ///         .sink { print("Result: \($0).") }
    ///
    ///     pub.send(1)
    ///     pub.send(2)
    ///     pub2.send(2)
    ///     pub3.send(9)
    ///     pub4.send(1)
    ///
    ///     pub.send(3)
    ///     pub2.send(12)
    ///     pub.send(13)
    ///     pub3.send(19)
    ///
    ///     // Prints:
    ///     //  Result: 36.     // pub = 2,  pub2 = 2,   pub3 = 9,  pub4 = 1
    ///     //  Result: 54.     // pub = 3,  pub2 = 2,   pub3 = 9,  pub4 = 1
    ///     //  Result: 324.    // pub = 3,  pub2 = 12,  pub3 = 9,  pub4 = 1
    ///     //  Result: 1404.   // pub = 13, pub2 = 12,  pub3 = 9,  pub4 = 1
    ///     //  Result: 2964.   // pub = 13, pub2 = 12,  pub3 = 19, pub4 = 1
    ///
    /// Completion, failure and demand behave as described for `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - publisher3: A fourth publisher to combine with the first publisher.
    ///   - transform: A closure that receives the most-recent value from each publisher
    ///     and returns a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this publisher
    ///   and three other publishers.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P,
        _ publisher2: Q,
        _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
        where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure
    {
        return Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
            .map(transform)
    }
}

extension Publishers {

    /// A publisher that receives and combines the latest elements from two publishers.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
        where A.Failure == B.Failure
    {
        /// The kind of values published by this publisher.
        ///
        /// This publisher produces two-element tuples of the upstream publishers’
        /// output types.
        public typealias Output = (A.Output, B.Output)

        /// The kind of errors this publisher might publish.
        ///
        /// This publisher produces the failure type shared by its upstream publishers.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// Another publisher to combine.
        public let b: B

        /// Creates a publisher that receives and combines the latest elements from two
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to combine.
        ///   - b: Another publisher to combine.
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
            let inner = CombineLatestInner<Downstream, A.Output, B.Output, Void, Void>(
                downstream: subscriber, upstreamCount: 2, c: (), d: ()
            ) { a, b, _, _ in (a, b) }
            subscriber.receive(subscription: inner)
            a.subscribe(CombineLatestInner.SideA(inner: inner))
            b.subscribe(CombineLatestInner.SideB(inner: inner))
        }
    }

    /// A publisher that receives and combines the latest elements from three publishers.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
        where A.Failure == B.Failure, B.Failure == C.Failure
    {
        /// The kind of values published by this publisher.
        ///
        /// This publisher produces three-element tuples of the upstream publishers’
        /// output types.
        public typealias Output = (A.Output, B.Output, C.Output)

        /// The kind of errors this publisher might publish.
        ///
        /// This publisher produces the failure type shared by its upstream publishers.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// Creates a publisher that receives and combines the latest elements from three
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to combine.
        ///   - b: A second publisher to combine.
        ///   - c: A third publisher to combine.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
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
            let inner = CombineLatestInner<Downstream, A.Output, B.Output, C.Output, Void>(
                downstream: subscriber, upstreamCount: 3, d: ()
            ) { a, b, c, _ in (a, b, c) }
            subscriber.receive(subscription: inner)
            a.subscribe(CombineLatestInner.SideA(inner: inner))
            b.subscribe(CombineLatestInner.SideB(inner: inner))
            c.subscribe(CombineLatestInner.SideC(inner: inner))
        }
    }

    /// A publisher that receives and combines the latest elements from four publishers.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>
        : Publisher
        where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure
    {
        /// The kind of values published by this publisher.
        ///
        /// This publisher produces four-element tuples of the upstream publishers’
        /// output types.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)

        /// The kind of errors this publisher might publish.
        ///
        /// This publisher produces the failure type shared by its upstream publishers.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// A fourth publisher to combine.
        public let d: D

        /// Creates a publisher that receives and combines the latest elements from four
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to combine.
        ///   - b: A second publisher to combine.
        ///   - c: A third publisher to combine.
        ///   - d: A fourth publisher to combine.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
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
            let inner = CombineLatestInner<Downstream, A.Output, B.Output, C.Output, D.Output>(
                downstream: subscriber, upstreamCount: 4
            ) { a, b, c, d in (a, b, c, d) }
            subscriber.receive(subscription: inner)
            a.subscribe(CombineLatestInner.SideA(inner: inner))
            b.subscribe(CombineLatestInner.SideB(inner: inner))
            c.subscribe(CombineLatestInner.SideC(inner: inner))
            d.subscribe(CombineLatestInner.SideD(inner: inner))
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest3: Equatable
    where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.CombineLatest4: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// What a CombineLatest subscription keeps that does not depend on the types of its values:
/// the locks, the upstream subscriptions, demand, and which upstreams have a value or have
/// finished (bit masks, one bit per upstream). Not generic, so none of it looks up generic
/// metadata at run time; `CombineLatestInner` adds the typed slots and the downstream.
///
/// Demand, as Apple's: every request is passed on at once, in full, to every upstream, even
/// one made from inside the downstream. A value makes a combination only if it completes a
/// full set while the downstream has demand; otherwise it only becomes its upstream's latest
/// value. Receiving a value asks for nothing more, except the demand the downstream returns
/// for a combination, which goes back to the upstream whose value made it.
///
/// Locking: `lock` guards the state and is never held while calling out. `downstreamLock`
/// (recursive) is held while a value is stored and while the downstream is called, so values
/// from upstreams on different threads take turns, each combined and none lost, and the
/// downstream is never called concurrently. A value or a completion from inside the
/// downstream (the same thread, holding `downstreamLock`) finds `isDelivering` set: the value
/// is stored and makes no combination (Apple drops it too); the completion is delivered once
/// the downstream returns. Requests and cancellation take only `lock`.
private class CombineLatestCore {
    enum PendingCompletion {
        case nothing
        case finished
        case failure
    }

    static let allUpstreams: UInt8 = 0b1111

    final let lock = InlineLock()
    final let downstreamLock = InlineRecursiveLock()

    // All of the following is guarded by `lock`.
    final var subscriptions: [Subscription?]
    /// Bit i: upstream i has sent a value (slots an arity does not use are set from the start).
    final var valueMask: UInt8
    /// Bit i: upstream i has finished (slots an arity does not use count as finished).
    final var finishedMask: UInt8
    final var demand = Subscribers.Demand.none
    /// A completion waiting to be delivered once the downstream returns (the error is in the
    /// subclass).
    final var pendingCompletion = PendingCompletion.nothing
    final var isDelivering = false
    final var isTerminated = false

    init(upstreamCount: Int) {
        subscriptions = Array(repeating: nil, count: upstreamCount)
        let unused = Self.allUpstreams & ~UInt8((1 << upstreamCount) - 1)
        valueMask = unused
        finishedMask = unused
    }

    final func lockedIsLive(_ index: Int) -> Bool {
        return !isTerminated && pendingCompletion == .nothing && finishedMask & (1 << index) == 0
    }

    /// After upstream `index` stored a value: whether it makes a combination to send now, which
    /// then uses one unit of demand.
    final func lockedTakesCombination(storedAt index: Int) -> Bool {
        valueMask |= 1 << index
        guard !isDelivering, demand > 0, valueMask == Self.allUpstreams else { return false }
        demand -= 1
        return true
    }

    final func receive(subscription: Subscription, at index: Int) {
        lock.lock()
        guard lockedIsLive(index), subscriptions[index] == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        // The others already got every request made so far; so does a late one. (Apple's
        // subscribes its upstreams before giving the downstream its subscription, so that
        // none is late; ours gives it first, and so hands the demand on here.)
        let demand = self.demand
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    /// Upstream `index` completed (under `lock`): the subscriptions to cancel. A failure
    /// cancels the others; a finished upstream ends nothing until all have finished, even if
    /// it never sent a value.
    final func lockedComplete(at index: Int, failed: Bool) -> [Subscription?] {
        finishedMask |= 1 << index
        subscriptions[index] = nil
        if !failed {
            if finishedMask == Self.allUpstreams {
                pendingCompletion = .finished
            }
            return []
        }
        pendingCompletion = .failure
        let subscriptionsToCancel = subscriptions
        subscriptions = Array(repeating: nil, count: subscriptions.count)
        return subscriptionsToCancel
    }

    // MARK: - Subscription

    final func request(_ demand: Subscribers.Demand) {
        // Apple's traps too.
        precondition(demand > 0, "Demand must be positive")
        lock.lock()
        guard !isTerminated, pendingCompletion == .nothing else {
            lock.unlock()
            return
        }
        self.demand += demand
        let subscriptions = self.subscriptions
        lock.unlock()
        for subscription in subscriptions {
            subscription?.request(demand)
        }
    }

    final func cancel() {
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        isTerminated = true
        let subscriptions = self.subscriptions
        self.subscriptions = Array(repeating: nil, count: subscriptions.count)
        lock.unlock()
        subscriptions.forEach { $0?.cancel() }
    }

    /// Releases both locks; what a value that makes no combination returns.
    final func unlockReturningNoDemand() -> Subscribers.Demand {
        lock.unlock()
        downstreamLock.unlock()
        return .none
    }
}

/// The subscription of `CombineLatest`, `CombineLatest3` and `CombineLatest4`: the latest value
/// of each upstream in a slot of its own type (arities below four fill the rest with `()`).
private final class CombineLatestInner<Downstream: Subscriber, A, B, C, D>
    : CombineLatestCore,
      Subscription,
      CustomStringConvertible,
      CustomReflectable,
      CustomPlaygroundDisplayConvertible
{
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let combine: (A, B, C, D) -> Downstream.Input

    // Guarded by `lock`. Each upstream's latest value, in memory of its own type, initialised
    // once the upstream's bit of `valueMask` is set (an arity below four sets the unused bits at
    // once and fills their slots with `()`). Not optionals: this code runs unspecialised
    // (OpenCombine subscribes it from its own generic code), where touching an `Optional<A>`
    // asks the runtime for its metadata, about 400 instructions, five times per value.
    // The four share one allocation.
    private let slots: UnsafeMutableRawPointer
    private let a: UnsafeMutablePointer<A>
    private let b: UnsafeMutablePointer<B>
    private let c: UnsafeMutablePointer<C>
    private let d: UnsafeMutablePointer<D>
    private var failure: Failure?

    init(downstream: Downstream,
         upstreamCount: Int,
         c: C? = nil,
         d: D? = nil,
         combine: @escaping (A, B, C, D) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        func after(_ offset: Int, size: Int, alignedTo alignment: Int) -> Int {
            (offset + size + alignment - 1) / alignment * alignment
        }
        let offsetB = after(0, size: MemoryLayout<A>.size, alignedTo: MemoryLayout<B>.alignment)
        let offsetC = after(offsetB, size: MemoryLayout<B>.size, alignedTo: MemoryLayout<C>.alignment)
        let offsetD = after(offsetC, size: MemoryLayout<C>.size, alignedTo: MemoryLayout<D>.alignment)
        let alignment = max(MemoryLayout<A>.alignment, MemoryLayout<B>.alignment,
                            MemoryLayout<C>.alignment, MemoryLayout<D>.alignment)
        slots = .allocate(byteCount: max(offsetD + MemoryLayout<D>.size, 1), alignment: alignment)
        a = slots.bindMemory(to: A.self, capacity: 1)
        b = (slots + offsetB).bindMemory(to: B.self, capacity: 1)
        self.c = (slots + offsetC).bindMemory(to: C.self, capacity: 1)
        self.d = (slots + offsetD).bindMemory(to: D.self, capacity: 1)
        super.init(upstreamCount: upstreamCount)
        if let c { self.c.initialize(to: c) }
        if let d { self.d.initialize(to: d) }
        precondition((c != nil) == (valueMask & 0b0100 != 0) && (d != nil) == (valueMask & 0b1000 != 0),
                     "CombineLatest: the slots an arity does not use are given values, and only they")
    }

    deinit {
        if valueMask & 0b0001 != 0 { a.deinitialize(count: 1) }
        if valueMask & 0b0010 != 0 { b.deinitialize(count: 1) }
        if valueMask & 0b0100 != 0 { c.deinitialize(count: 1) }
        if valueMask & 0b1000 != 0 { d.deinitialize(count: 1) }
        slots.deallocate()
    }

    var description: String { return "CombineLatest" }

    var customMirror: Mirror { return Mirror(self, children: EmptyCollection()) }

    var playgroundDescription: Any { return description }

    // MARK: - Upstream events

    fileprivate func receiveA(_ value: A) -> Subscribers.Demand { return receive(value, in: a, at: 0) }

    fileprivate func receiveB(_ value: B) -> Subscribers.Demand { return receive(value, in: b, at: 1) }

    fileprivate func receiveC(_ value: C) -> Subscribers.Demand { return receive(value, in: c, at: 2) }

    fileprivate func receiveD(_ value: D) -> Subscribers.Demand { return receive(value, in: d, at: 3) }

    /// Stores upstream `index`'s value in its slot and sends the combination it makes, if any.
    @inline(__always)
    private func receive<T>(_ value: T, in slot: UnsafeMutablePointer<T>, at index: Int)
        -> Subscribers.Demand
    {
        downstreamLock.lock()
        lock.lock()
        guard lockedIsLive(index) else { return unlockReturningNoDemand() }
        if valueMask & (1 << index) != 0 {
            slot.pointee = value
        } else {
            slot.initialize(to: value)
        }
        guard lockedTakesCombination(storedAt: index) else { return unlockReturningNoDemand() }
        // Every slot holds a value once a combination is taken.
        let combination = combine(a.pointee, b.pointee, c.pointee, d.pointee)
        isDelivering = true
        lock.unlock()
        let additionalDemand = downstream.receive(combination)
        lock.lock()
        isDelivering = false
        demand += additionalDemand
        if pendingCompletion != .nothing && !isTerminated {
            isTerminated = true
            lockedDeliverCompletion()
        }
        lock.unlock()
        downstreamLock.unlock()
        return additionalDemand
    }

    fileprivate func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        downstreamLock.lock()
        lock.lock()
        guard lockedIsLive(index) else {
            _ = unlockReturningNoDemand()
            return
        }
        var failed = false
        if case .failure(let error) = completion {
            failure = error
            failed = true
        }
        let subscriptionsToCancel = lockedComplete(at: index, failed: failed)
        // From inside the downstream, the value being delivered delivers it once it returns.
        let deliversNow = pendingCompletion != .nothing && !isDelivering
        if deliversNow {
            isTerminated = true
        }
        lock.unlock()
        subscriptionsToCancel.forEach { $0?.cancel() }
        if deliversNow {
            downstream.receive(completion: completion)
        }
        downstreamLock.unlock()
    }

    /// Delivers the pending completion (called and returning under `lock`, released meanwhile).
    /// Apart from `receive`, which runs for every value: a function that makes a
    /// `Subscribers.Completion` or reads the `Optional` failure asks the runtime for their
    /// generic metadata each time it runs (hundreds of instructions), whichever way it goes.
    @inline(never)
    private func lockedDeliverCompletion() {
        let completion: Subscribers.Completion<Failure> = failure.map { .failure($0) } ?? .finished
        lock.unlock()
        downstream.receive(completion: completion)
        lock.lock()
    }
}

/// What the four sides of a CombineLatest subscription describe alike.
private protocol CombineLatestSide
    : CustomStringConvertible,
      CustomReflectable,
      CustomPlaygroundDisplayConvertible
{
    var parent: AnyObject { get }
}

extension CombineLatestSide {
    var description: String { return "CombineLatest" }

    var customMirror: Mirror {
        return Mirror(self, children: ["parentSubscription": CombineIdentifier(parent)])
    }

    var playgroundDescription: Any { return description }
}

extension CombineLatestInner {
    struct SideA: Subscriber, CombineLatestSide {
        typealias Input = A
        typealias Failure = Downstream.Failure

        let inner: CombineLatestInner
        let combineIdentifier = CombineIdentifier()
        var parent: AnyObject { return inner }

        func receive(subscription: Subscription) { inner.receive(subscription: subscription, at: 0) }
        func receive(_ input: A) -> Subscribers.Demand { return inner.receiveA(input) }
        func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion: completion, at: 0) }
    }

    struct SideB: Subscriber, CombineLatestSide {
        typealias Input = B
        typealias Failure = Downstream.Failure

        let inner: CombineLatestInner
        let combineIdentifier = CombineIdentifier()
        var parent: AnyObject { return inner }

        func receive(subscription: Subscription) { inner.receive(subscription: subscription, at: 1) }
        func receive(_ input: B) -> Subscribers.Demand { return inner.receiveB(input) }
        func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion: completion, at: 1) }
    }

    struct SideC: Subscriber, CombineLatestSide {
        typealias Input = C
        typealias Failure = Downstream.Failure

        let inner: CombineLatestInner
        let combineIdentifier = CombineIdentifier()
        var parent: AnyObject { return inner }

        func receive(subscription: Subscription) { inner.receive(subscription: subscription, at: 2) }
        func receive(_ input: C) -> Subscribers.Demand { return inner.receiveC(input) }
        func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion: completion, at: 2) }
    }

    struct SideD: Subscriber, CombineLatestSide {
        typealias Input = D
        typealias Failure = Downstream.Failure

        let inner: CombineLatestInner
        let combineIdentifier = CombineIdentifier()
        var parent: AnyObject { return inner }

        func receive(subscription: Subscription) { inner.receive(subscription: subscription, at: 3) }
        func receive(_ input: D) -> Subscribers.Demand { return inner.receiveD(input) }
        func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion: completion, at: 3) }
    }
}
