//
//  Publishers.Merge8.swift
//  MVVMRuntime
//
//  `Merge8` for OpenCombine 0.14.0, which ships without it. Generated, with
//  `Merge` … `Merge8`, by generate_merges.py: edit that and run it, not this file.
//

@preconcurrency import OpenCombine

extension Publisher {

    /// Combines elements from this publisher with those from seven other publishers, delivering
    /// an interleaved sequence of elements.
    ///
    /// Use `merge(with:_:_:_:_:_:_:)` when you want to receive a new element whenever any of the
    /// upstream publishers emits an element. To receive tuples of the most-recent value
    /// from all the upstream publishers whenever any of them emit a value, use
    /// `combineLatest`. To combine elements from multiple upstream publishers, use `zip`.
    ///
    /// In this example, as `merge(with:_:_:_:_:_:_:)` receives input from the upstream
    /// publishers, it republishes the interleaved elements to the downstream:
    ///
    ///     let pubA = PassthroughSubject<Int, Never>()
    ///     let pubB = PassthroughSubject<Int, Never>()
    ///     let pubC = PassthroughSubject<Int, Never>()
    ///     let pubD = PassthroughSubject<Int, Never>()
    ///     let pubE = PassthroughSubject<Int, Never>()
    ///     let pubF = PassthroughSubject<Int, Never>()
    ///     let pubG = PassthroughSubject<Int, Never>()
    ///     let pubH = PassthroughSubject<Int, Never>()
    ///
    ///     cancellable = pubA
    ///         .merge(with: pubB, pubC, pubD, pubE, pubF, pubG, pubH)
    ///         .sink { print("\($0)", terminator: " ") }
    ///
    ///     pubA.send(1)
    ///     pubB.send(2)
    ///     pubC.send(3)
    ///     pubD.send(4)
    ///     pubE.send(5)
    ///     pubF.send(6)
    ///     pubG.send(7)
    ///     pubH.send(8)
    ///     pubA.send(9)
    ///     pubB.send(10)
    ///     pubC.send(11)
    ///     pubD.send(12)
    ///     pubE.send(13)
    ///     pubF.send(14)
    ///     pubG.send(15)
    ///     pubH.send(16)
    ///
    ///     // Prints: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
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
    ///   - f: A sixth publisher.
    ///   - g: A seventh publisher.
    ///   - h: An eighth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an
    ///   event.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
        where Failure == B.Failure, Output == B.Output,
              B.Failure == C.Failure, B.Output == C.Output,
              C.Failure == D.Failure, C.Output == D.Output,
              D.Failure == E.Failure, D.Output == E.Output,
              E.Failure == F.Failure, E.Output == F.Output,
              F.Failure == G.Failure, F.Output == G.Output,
              G.Failure == H.Failure, G.Output == H.Output
    {
        return .init(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {

    /// A publisher created by applying the merge function to eight upstream publishers.
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher
        where A.Failure == B.Failure, A.Output == B.Output,
              B.Failure == C.Failure, B.Output == C.Output,
              C.Failure == D.Failure, C.Output == D.Output,
              D.Failure == E.Failure, D.Output == E.Output,
              E.Failure == F.Failure, E.Output == F.Output,
              F.Failure == G.Failure, F.Output == G.Output,
              G.Failure == H.Failure, G.Output == H.Output
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

        /// A sixth publisher to merge.
        public let f: F

        /// A seventh publisher to merge.
        public let g: G

        /// An eighth publisher to merge.
        public let h: H

        /// Creates a publisher created by applying the merge function to eight upstream
        /// publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        ///   - d: A fourth publisher to merge.
        ///   - e: A fifth publisher to merge.
        ///   - f: A sixth publisher to merge.
        ///   - g: A seventh publisher to merge.
        ///   - h: An eighth publisher to merge.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
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
            let inner = MergeInner(downstream: subscriber, upstreamCount: 8)
            subscriber.receive(subscription: inner)
            inner.attach(a, at: 0)
            inner.attach(b, at: 1)
            inner.attach(c, at: 2)
            inner.attach(d, at: 3)
            inner.attach(e, at: 4)
            inner.attach(f, at: 5)
            inner.attach(g, at: 6)
            inner.attach(h, at: 7)
        }
    }
}

extension Publishers.Merge8: Equatable
    where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
