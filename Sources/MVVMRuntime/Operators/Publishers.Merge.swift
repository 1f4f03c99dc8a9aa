//
//  Publishers.Merge.swift
//  MVVMRuntime
//
//  `Merge` for OpenCombine 0.14.0, which ships without it. Generated, with
//  `Merge` … `Merge8`, by generate_merges.py: edit that and run it, not this file.
//

@preconcurrency import OpenCombine

extension Publisher {

    /// Combines elements from this publisher with those from another publisher, delivering
    /// an interleaved sequence of elements.
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
    /// with that error and cancels every upstream publisher.
    ///
    /// The merged publisher asks each upstream publisher for one element as soon as it
    /// subscribes to it, and for the next each time it sends one of that publisher’s
    /// elements downstream; once the subscriber’s demand is unlimited, it asks each
    /// upstream publisher for an unlimited number. An element that arrives while the
    /// subscriber has no outstanding demand is held, the latest one of each upstream
    /// publisher (one that sends more than it was asked for replaces its held element),
    /// and held elements are sent in the order of the upstream publishers as demand
    /// arrives; the merged publisher finishes only after sending them. A request for
    /// no elements is ignored.
    ///
    /// Two publishers of the same type make a `Publishers.MergeMany`, which behaves the
    /// same.
    ///
    /// - Parameter other: Another publisher.
    /// - Returns: A publisher that emits an event when either upstream publisher emits
    ///   an event.
    public func merge<P: Publisher>(
        with other: P
    ) -> Publishers.Merge<Self, P>
        where Failure == P.Failure, Output == P.Output
    {
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
            let inner = MergeInner(downstream: subscriber, upstreamCount: 2)
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// another publisher, delivering an interleaved sequence of elements.
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge3<A, B, P>
            where B.Failure == P.Failure, B.Output == P.Output
        {
            return .init(a, b, other)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// two other publishers, delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: A further publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge4<A, B, Z, Y>
            where B.Failure == Z.Failure, B.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output
        {
            return .init(a, b, z, y)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// three other publishers, delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: A further publisher.
        ///   - x: A further publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge5<A, B, Z, Y, X>
            where B.Failure == Z.Failure, B.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output,
                  Y.Failure == X.Failure, Y.Output == X.Output
        {
            return .init(a, b, z, y, x)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// four other publishers, delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: A further publisher.
        ///   - x: A further publisher.
        ///   - w: A further publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        ) -> Publishers.Merge6<A, B, Z, Y, X, W>
            where B.Failure == Z.Failure, B.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output,
                  Y.Failure == X.Failure, Y.Output == X.Output,
                  X.Failure == W.Failure, X.Output == W.Output
        {
            return .init(a, b, z, y, x, w)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// five other publishers, delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: A further publisher.
        ///   - x: A further publisher.
        ///   - w: A further publisher.
        ///   - v: A further publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
            where B.Failure == Z.Failure, B.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output,
                  Y.Failure == X.Failure, Y.Output == X.Output,
                  X.Failure == W.Failure, X.Output == W.Output,
                  W.Failure == V.Failure, W.Output == V.Output
        {
            return .init(a, b, z, y, x, w, v)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// six other publishers, delivering an interleaved sequence of elements.
        ///
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: A further publisher.
        ///   - x: A further publisher.
        ///   - w: A further publisher.
        ///   - v: A further publisher.
        ///   - u: A further publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
        ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
            where B.Failure == Z.Failure, B.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output,
                  Y.Failure == X.Failure, Y.Output == X.Output,
                  X.Failure == W.Failure, X.Output == W.Output,
                  W.Failure == V.Failure, W.Output == V.Output,
                  V.Failure == U.Failure, V.Output == U.Output
        {
            return .init(a, b, z, y, x, w, v, u)
        }
    }
}

extension Publishers.Merge: Equatable
    where A: Equatable, B: Equatable {}
