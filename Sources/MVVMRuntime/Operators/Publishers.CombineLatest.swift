//
//  Publishers.CombineLatest.swift
//  MVVMRuntime
//
//  `CombineLatest`, `CombineLatest3` and `CombineLatest4` for OpenCombine 0.14.0,
//  which ships without them. The three arities share one subscription that keeps
//  the latest value of each upstream in a type-erased slot.
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
            let inner = CombineLatestInner(downstream: subscriber, upstreamCount: 2) {
                ($0[0], $0[1])
            }
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
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
            let inner = CombineLatestInner(downstream: subscriber, upstreamCount: 3) {
                ($0[0], $0[1], $0[2])
            }
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
            inner.attach(c, at: 2)
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
            let inner = CombineLatestInner(downstream: subscriber, upstreamCount: 4) {
                ($0[0], $0[1], $0[2], $0[3])
            }
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
            inner.attach(c, at: 2)
            inner.attach(d, at: 3)
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
private final class CombineLatestInner<Downstream: Subscriber>
    : Subscription,
      CustomStringConvertible,
      CustomReflectable,
      CustomPlaygroundDisplayConvertible
{
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let combine: (Slots) -> Downstream.Input
    private let lock = PThreadLock()
    private let downstreamLock = PThreadLock(recursive: true)

    // All of the following is guarded by `lock`.
    private var subscriptions: [Subscription?]
    private var values: [Any?]
    private var finished: [Bool]
    private var demand = Subscribers.Demand.none
    /// Demand the downstream asked for that has not been passed upstream yet.
    private var demandToForward = Subscribers.Demand.none
    /// Whether `values` hold a combination the downstream hasn't received yet.
    private var hasPendingCombination = false
    /// A completion decided by an upstream but not yet sent downstream.
    private var pendingCompletion: Subscribers.Completion<Failure>?
    private var isDelivering = false
    private var isTerminated = false

    init(downstream: Downstream,
         upstreamCount: Int,
         combine: @escaping (Slots) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        subscriptions = Array(repeating: nil, count: upstreamCount)
        values = Array(repeating: nil, count: upstreamCount)
        finished = Array(repeating: false, count: upstreamCount)
    }

    func attach<Upstream: Publisher>(_ upstream: Upstream, at index: Int)
        where Upstream.Failure == Failure
    {
        upstream.subscribe(Side<Upstream>(index: index, inner: self))
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

    func cancel() {
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

    var description: String { return "CombineLatest" }

    var customMirror: Mirror { return Mirror(self, children: EmptyCollection()) }

    var playgroundDescription: Any { return description }

    // MARK: - Upstream events

    private func lockedIsLive(_ index: Int) -> Bool {
        return !isTerminated && pendingCompletion == nil && !finished[index]
    }

    private func receive(subscription: Subscription, at index: Int) {
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

    private func receive(_ value: Any, at index: Int) -> Subscribers.Demand {
        return drain(returningDemandFor: index) {
            guard lockedIsLive(index) else { return .none }
            values[index] = value
            if !hasPendingCombination && !values.contains(where: { $0 == nil }) {
                hasPendingCombination = true
                return .none
            }
            // No new combination came of this value: ask for another one instead.
            return demand > 0 ? .max(1) : .none
        }
    }

    private func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard lockedIsLive(index) else {
            lock.unlock()
            return
        }
        finished[index] = true
        subscriptions[index] = nil
        // A failure ends everything, and so does an upstream that finished without
        // a value: no combination can ever be produced.
        if case .failure = completion {
            pendingCompletion = completion
        } else if values[index] == nil {
            pendingCompletion = .finished
        }
        var subscriptionsToCancel: [Subscription?] = []
        if pendingCompletion != nil {
            subscriptionsToCancel = subscriptions
            subscriptions = Array(repeating: nil, count: subscriptions.count)
        }
        lock.unlock()
        subscriptionsToCancel.forEach { $0?.cancel() }
        _ = drain { .none }
    }

    // MARK: - Delivery

    private enum Event {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Applies `lockedUpdate` to the state, sends the downstream everything the state
    /// then allows, and forwards new demand upstream.
    ///
    /// Returns the demand of `lockedUpdate` plus the share of the upstream at `index`,
    /// so that its `receive(_:)` hands it back instead of calling into that upstream.
    private func drain(
        returningDemandFor index: Int? = nil,
        _ lockedUpdate: () -> Subscribers.Demand
    ) -> Subscribers.Demand {
        downstreamLock.lock()
        lock.lock()
        var ownDemand = lockedUpdate()
        if isDelivering {
            // Called from inside the downstream; the running loop will deliver.
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
                demand += additionalDemand
                demandToForward += additionalDemand
            case .completion(let completion):
                downstream.receive(completion: completion)
                lock.lock()
            }
        }
        isDelivering = false
        let forward = demandToForward
        demandToForward = .none
        let subscriptions = isTerminated || forward == .none ? [] : self.subscriptions
        lock.unlock()
        downstreamLock.unlock()

        for (upstreamIndex, subscription) in subscriptions.enumerated() {
            if upstreamIndex == index {
                ownDemand += forward
            } else {
                subscription?.request(forward)
            }
        }
        return ownDemand
    }

    /// The next event for the downstream, with the state updated as if it was sent.
    private func lockedNextEvent() -> Event? {
        if isTerminated {
            return nil
        }
        if let completion = pendingCompletion {
            isTerminated = true
            return .completion(completion)
        }
        if hasPendingCombination && demand > 0 {
            hasPendingCombination = false
            demand -= 1
            return .value(combine(Slots(values: values)))
        }
        if !hasPendingCombination && !finished.contains(false) {
            isTerminated = true
            return .completion(.finished)
        }
        return nil
    }
}

extension CombineLatestInner {
    /// The latest value of every upstream, once each of them has produced one.
    struct Slots {
        fileprivate let values: [Any?]

        /// The latest value of the upstream at `index`, as its output type.
        subscript<Value>(index: Int) -> Value {
            return values[index] as! Value // swiftlint:disable:this force_cast
        }
    }

    private struct Side<Upstream: Publisher>
        : Subscriber,
          CustomStringConvertible,
          CustomReflectable,
          CustomPlaygroundDisplayConvertible
        where Upstream.Failure == Failure
    {
        typealias Input = Upstream.Output

        let index: Int
        let inner: CombineLatestInner

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

        var description: String { return "CombineLatest" }

        var customMirror: Mirror {
            return Mirror(self, children: ["parentSubscription": inner.combineIdentifier])
        }

        var playgroundDescription: Any { return description }
    }
}
