//
//  Publishers.Merge5.swift
//  MVVMRuntime
//
//  `Merge5` for OpenCombine 0.14.0, which ships without it. Generated, with
//  `Merge` … `Merge8`, by generate_merges.py: edit that and run it, not this file.
//

@preconcurrency import OpenCombine

extension Publisher {

    /// Combines elements from this publisher with those from four other publishers, delivering
    /// an interleaved sequence of elements.
    ///
    /// Use `merge(with:_:_:_:)` when you want to receive a new element whenever any of the
    /// upstream publishers emits an element. To receive tuples of the most-recent value
    /// from all the upstream publishers whenever any of them emit a value, use
    /// `combineLatest`. To combine elements from multiple upstream publishers, use `zip`.
    ///
    /// In this example, as `merge(with:_:_:_:)` receives input from the upstream
    /// publishers, it republishes the interleaved elements to the downstream:
    ///
    ///     let pubA = PassthroughSubject<Int, Never>()
    ///     let pubB = PassthroughSubject<Int, Never>()
    ///     let pubC = PassthroughSubject<Int, Never>()
    ///     let pubD = PassthroughSubject<Int, Never>()
    ///     let pubE = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pubA
    ///         .merge(with: pubB, pubC, pubD, pubE)
    ///         .sink { print("\($0)", terminator: " ") }
    ///
    ///     pubA.send(1)
    ///     pubB.send(2)
    ///     pubC.send(3)
    ///     pubD.send(4)
    ///     pubE.send(5)
    ///     pubA.send(6)
    ///     pubB.send(7)
    ///     pubC.send(8)
    ///     pubD.send(9)
    ///     pubE.send(10)
    ///
    ///     // Prints: "1 2 3 4 5 6 7 8 9 10"
    ///
    /// The merged publisher continues to emit elements until all upstream publishers
    /// finish. If an upstream publisher produces an error, the merged publisher fails
    /// with that error and cancels every upstream publisher. Demand behaves as
    /// described for `merge(with:)`.
    ///
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an
    ///   event.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
        where Failure == B.Failure, Output == B.Output,
              B.Failure == C.Failure, B.Output == C.Output,
              C.Failure == D.Failure, C.Output == D.Output,
              D.Failure == E.Failure, D.Output == E.Output
    {
        return .init(self, b, c, d, e)
    }
}

extension Publishers {

    /// A publisher created by applying the merge function to five upstream publishers.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
        where A.Failure == B.Failure, A.Output == B.Output,
              B.Failure == C.Failure, B.Output == C.Output,
              C.Failure == D.Failure, C.Output == D.Output,
              D.Failure == E.Failure, D.Output == E.Output
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

        /// A third publisher to merge.
        public let c: C

        /// A fourth publisher to merge.
        public let d: D

        /// A fifth publisher to merge.
        public let e: E

        /// Creates a publisher created by applying the merge function to five upstream
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        ///   - d: A fourth publisher to merge.
        ///   - e: A fifth publisher to merge.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
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
            let inner = MergeInner(downstream: subscriber, upstreamCount: 5)
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
            inner.attach(c, at: 2)
            inner.attach(d, at: 3)
            inner.attach(e, at: 4)
        }

        /// Combines elements from this publisher’s upstream publishers with those from
        /// another publisher, delivering an interleaved sequence of elements.
        ///
        /// - Parameter other: Another publisher.
        /// - Returns: A publisher that emits an event when any upstream publisher emits
        ///   an event.
        public func merge<P: Publisher>(
            with other: P
        ) -> Publishers.Merge6<A, B, C, D, E, P>
            where E.Failure == P.Failure, E.Output == P.Output
        {
            return .init(a, b, c, d, e, other)
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
        ) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
            where E.Failure == Z.Failure, E.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output
        {
            return .init(a, b, c, d, e, z, y)
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
        ) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
            where E.Failure == Z.Failure, E.Output == Z.Output,
                  Z.Failure == Y.Failure, Z.Output == Y.Output,
                  Y.Failure == X.Failure, Y.Output == X.Output
        {
            return .init(a, b, c, d, e, z, y, x)
        }
    }
}

extension Publishers.Merge5: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
