//
//  Publishers.MergeMany.swift
//  MVVMRuntime
//
//  `MergeMany` for OpenCombine 0.14.0, which ships without it.
//

@preconcurrency import OpenCombine

extension Publisher {

    /// Combines elements from this publisher with those from another publisher of the same
    /// type, delivering an interleaved sequence of elements.
    ///
    /// The merged publisher continues to emit elements until all upstream publishers
    /// finish. If an upstream publisher produces an error, the merged publisher fails
    /// with that error and cancels every upstream publisher. Demand behaves as
    /// described for `merge(with:)`.
    ///
    /// - Parameter other: Another publisher of this publisher’s type.
    /// - Returns: A publisher that emits an event when either upstream publisher emits
    ///   an event.
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        return .init(self, other)
    }
}

extension Publishers {

    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    ///
    /// It emits an element whenever any of its upstream publishers does, and finishes once
    /// they all have (at once, when there are none, when first asked for elements). If an
    /// upstream publisher produces an error, it fails with that error and cancels every
    /// upstream publisher. Demand behaves as described for `merge(with:)`.
    public struct MergeMany<Upstream: Publisher>: Publisher {

        /// The kind of values published by this publisher.
        ///
        /// This publisher uses its upstream publishers’ common output type.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish.
        ///
        /// This publisher uses its upstream publishers’ common failure type.
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher created by applying the merge function to an arbitrary number
        /// of upstream publishers.
        /// - Parameter upstream: A variadic parameter containing zero or more publishers to
        ///   merge with this publisher.
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher created by applying the merge function to a sequence of
        /// upstream publishers.
        /// - Parameter upstream: A sequence containing zero or more publishers to merge with
        ///   this publisher.
        public init<Upstreams: Swift.Sequence>(_ upstream: Upstreams)
            where Upstreams.Element == Upstream
        {
            publishers = Array(upstream)
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
            let inner = MergeInner(downstream: subscriber, upstreamCount: publishers.count)
            subscriber.receive(subscription: inner)
            for (index, publisher) in publishers.enumerated() {
                inner.attach(publisher, at: index)
            }
        }

        /// Combines elements from this publisher with those from another publisher of the
        /// same type, delivering an interleaved sequence of elements.
        ///
        /// - Parameter other: Another publisher of this publisher’s upstream type.
        /// - Returns: A publisher that emits an event when any upstream publisher emits an
        ///   event.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            return .init(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
