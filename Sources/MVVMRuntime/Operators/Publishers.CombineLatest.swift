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
    /// publishers, but never sends more elements downstream than requested. While the
    /// subscriber has no outstanding demand, it keeps only the most-recent element of
    /// each upstream publisher and sends the latest combination once demand arrives.
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
    /// If any upstream publisher finishes, the combined publisher continues until all
    /// finish, and then finishes after sending any combination still waiting for
    /// demand. If an upstream publisher finishes without having published an element,
    /// no combination can ever be produced, so the combined publisher finishes at once
    /// and cancels the others. If any upstream publisher fails with an error, the
    /// combined publisher fails with that error and cancels the others.
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

/// The subscription shared by `CombineLatest`, `CombineLatest3` and `CombineLatest4`.
///
/// Each upstream owns one slot holding its latest value as `Any`; the publisher that
/// creates the subscription supplies `combine`, which turns a full set of `Slots` back
/// into its output tuple.
///
/// Demand: every request from the downstream is passed on, in full, to every upstream.
/// An upstream value that cannot lead to a new combination (some upstream has not
/// produced yet, or it replaces a combination that is still waiting for demand) is
/// replenished with one more element while the downstream still has demand. While the
/// downstream has no demand, only the latest combination is kept, and it is delivered
/// as soon as demand arrives, before finishing if every upstream has finished.
///
/// Locking: `lock` guards the state and is never held while calling out.
/// `downstreamLock` is held while a value is stored and while the downstream is
/// called, so upstreams on different threads take turns and the downstream is never
/// called concurrently. A call made from inside the downstream (a request, or an
/// upstream value the downstream triggered) only updates the state; the delivery loop
/// further up the stack delivers it once the downstream returns.
/// What a CombineLatest subscription keeps that does not depend on the types of its values:
/// the locks, the upstream subscriptions, demand, and which upstreams have a value or have
/// finished (bit masks, one bit per upstream). Not generic, so none of it looks up generic
/// metadata at run time; `CombineLatestInner` adds the typed slots and the downstream.
private class CombineLatestCore {
    enum Step {
        case idle
        case value
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
    final var demandToForward = Subscribers.Demand.none
    final var hasPendingCombination = false
    /// A completion waiting to be delivered: `.finished` or `.failure` (the error is in the subclass).
    final var pendingCompletion = Step.idle
    final var isDelivering = false
    final var isTerminated = false

    init(upstreamCount: Int) {
        subscriptions = Array(repeating: nil, count: upstreamCount)
        let unused = Self.allUpstreams & ~UInt8((1 << upstreamCount) - 1)
        valueMask = unused
        finishedMask = unused
    }

    final func lockedIsLive(_ index: Int) -> Bool {
        return !isTerminated && pendingCompletion == .idle && finishedMask & (1 << index) == 0
    }

    /// After upstream `index` stored a value: whether a combination is now due, and what to
    /// ask of that upstream instead when none came of it.
    final func lockedStored(at index: Int) -> Subscribers.Demand {
        valueMask |= 1 << index
        if !hasPendingCombination && valueMask == Self.allUpstreams {
            hasPendingCombination = true
            return .none
        }
        // No new combination came of this value: ask for another one instead.
        return demand > 0 ? .max(1) : .none
    }

    final func lockedNextStep() -> Step {
        if isTerminated {
            return .idle
        }
        if pendingCompletion != .idle {
            isTerminated = true
            return pendingCompletion
        }
        if hasPendingCombination && demand > 0 {
            hasPendingCombination = false
            demand -= 1
            return .value
        }
        if !hasPendingCombination && finishedMask == Self.allUpstreams {
            isTerminated = true
            return .finished
        }
        return .idle
    }

    final func receive(subscription: Subscription, at index: Int) {
        lock.lock()
        guard lockedIsLive(index), subscriptions[index] == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        // The others already got all the demand requested so far; so does a late one.
        let demand = self.demand
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    /// Upstream `index` completed (under `lock`): the subscriptions to cancel, if that ends
    /// everything. A failure ends everything, and so does an upstream that finished without
    /// a value: no combination can ever be produced.
    final func lockedComplete(at index: Int, failed: Bool) -> [Subscription?] {
        finishedMask |= 1 << index
        subscriptions[index] = nil
        if failed {
            pendingCompletion = .failure
        } else if valueMask & (1 << index) == 0 {
            pendingCompletion = .finished
        }
        guard pendingCompletion != .idle else { return [] }
        let subscriptionsToCancel = subscriptions
        subscriptions = Array(repeating: nil, count: subscriptions.count)
        return subscriptionsToCancel
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

    /// After a delivery (under `lock`, which it releases): the demand to forward upstream,
    /// except to `index`, whose share is returned to it as its receive's result.
    final func unlockForwardingDemand(except index: Int, adding ownDemand: Subscribers.Demand)
        -> Subscribers.Demand
    {
        isDelivering = false
        let forward = demandToForward
        demandToForward = .none
        guard !isTerminated, forward != .none else {
            lock.unlock()
            downstreamLock.unlock()
            return ownDemand
        }
        let subscriptions = self.subscriptions
        lock.unlock()
        downstreamLock.unlock()
        var ownDemand = ownDemand
        for (upstreamIndex, subscription) in subscriptions.enumerated() {
            if upstreamIndex == index {
                ownDemand += forward
            } else {
                subscription?.request(forward)
            }
        }
        return ownDemand
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

    /// Stores upstream `index`'s value in its slot (under `lock`), before `lockedStored`.
    @inline(__always)
    private func lockedStore<T>(_ value: T, in slot: UnsafeMutablePointer<T>, at index: Int) {
        if valueMask & (1 << index) != 0 {
            slot.pointee = value
        } else {
            slot.initialize(to: value)
        }
    }

    // MARK: - Subscription

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must be positive")
        _ = drain {
            if !isTerminated {
                self.demand += demand
                demandToForward += demand
            }
            return .none
        }
    }

    var description: String { return "CombineLatest" }

    var customMirror: Mirror { return Mirror(self, children: EmptyCollection()) }

    var playgroundDescription: Any { return description }

    // MARK: - Upstream events

    fileprivate func receiveA(_ value: A) -> Subscribers.Demand {
        return drain(returningDemandFor: 0) {
            guard lockedIsLive(0) else { return .none }
            lockedStore(value, in: a, at: 0)
            return lockedStored(at: 0)
        }
    }

    fileprivate func receiveB(_ value: B) -> Subscribers.Demand {
        return drain(returningDemandFor: 1) {
            guard lockedIsLive(1) else { return .none }
            lockedStore(value, in: b, at: 1)
            return lockedStored(at: 1)
        }
    }

    fileprivate func receiveC(_ value: C) -> Subscribers.Demand {
        return drain(returningDemandFor: 2) {
            guard lockedIsLive(2) else { return .none }
            lockedStore(value, in: c, at: 2)
            return lockedStored(at: 2)
        }
    }

    fileprivate func receiveD(_ value: D) -> Subscribers.Demand {
        return drain(returningDemandFor: 3) {
            guard lockedIsLive(3) else { return .none }
            lockedStore(value, in: d, at: 3)
            return lockedStored(at: 3)
        }
    }

    fileprivate func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard lockedIsLive(index) else {
            lock.unlock()
            return
        }
        var failed = false
        if case .failure(let error) = completion {
            failure = error
            failed = true
        }
        let subscriptionsToCancel = lockedComplete(at: index, failed: failed)
        lock.unlock()
        subscriptionsToCancel.forEach { $0?.cancel() }
        _ = drain { .none }
    }

    // MARK: - Delivery

    private func drain(
        returningDemandFor index: Int = -1,
        _ lockedUpdate: () -> Subscribers.Demand
    ) -> Subscribers.Demand {
        downstreamLock.lock()
        lock.lock()
        let ownDemand = lockedUpdate()
        if isDelivering {
            // Called from inside the downstream; the running loop will deliver.
            lock.unlock()
            downstreamLock.unlock()
            return ownDemand
        }
        isDelivering = true
        delivery: while true {
            switch lockedNextStep() {
            case .idle:
                break delivery
            case .value:
                // Every slot holds a value once a combination is pending.
                let value = combine(a.pointee, b.pointee, c.pointee, d.pointee)
                lock.unlock()
                let additionalDemand = downstream.receive(value)
                lock.lock()
                demand += additionalDemand
                demandToForward += additionalDemand
            case .finished, .failure:
                lockedDeliverCompletion()
            }
        }
        return unlockForwardingDemand(except: index, adding: ownDemand)
    }

    /// Delivers the completion (called and returning under `lock`, released meanwhile). Apart
    /// from `drain`, which runs for every value: a function that makes a
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
