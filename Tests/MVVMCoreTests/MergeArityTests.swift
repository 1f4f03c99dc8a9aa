import Dispatch
import Foundation
import MVVMRuntime
@preconcurrency import OpenCombine
import Testing

/// `Merge3` … `Merge8` and `MergeMany`, and the `merge(with:…)` methods that make them: each
/// behaviour once per shape (the subscription is `Merge`'s, tested in depth in MergeTests).
@Suite("Merge arities")
struct MergeArityTests {

    typealias TestError = OperatorTestError

    typealias Upstream = TestUpstream<Int, TestError>

    /// Which merge publisher a test builds over its upstreams.
    enum Shape: Sendable, CustomTestStringConvertible {
        /// `Merge` (2) … `Merge8`, made by `merge(with:…)` on the first upstream.
        case arity(Int)
        /// `MergeMany` of that many upstreams.
        case many(Int)

        static let all: [Shape] = (2...8).map(Shape.arity) + [0, 1, 3, 10].map(Shape.many)

        static let withUpstreams = all.filter { $0.count > 0 }

        var count: Int {
            switch self {
            case .arity(let count), .many(let count): return count
            }
        }

        var testDescription: String {
            switch self {
            case .arity(2): return "Merge"
            case .arity(let count): return "Merge\(count)"
            case .many(let count): return "MergeMany of \(count)"
            }
        }

        func merge(_ u: [Upstream]) -> AnyPublisher<Int, TestError> {
            switch self {
            case .arity(2): return Publishers.Merge(u[0], u[1]).eraseToAnyPublisher()
            case .arity(3): return u[0].merge(with: u[1], u[2]).eraseToAnyPublisher()
            case .arity(4): return u[0].merge(with: u[1], u[2], u[3]).eraseToAnyPublisher()
            case .arity(5): return u[0].merge(with: u[1], u[2], u[3], u[4]).eraseToAnyPublisher()
            case .arity(6):
                return u[0].merge(with: u[1], u[2], u[3], u[4], u[5]).eraseToAnyPublisher()
            case .arity(7):
                return u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6]).eraseToAnyPublisher()
            case .arity(8):
                return u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6], u[7])
                    .eraseToAnyPublisher()
            case .arity(let count): fatalError("no Merge of \(count)")
            case .many: return Publishers.MergeMany(u).eraseToAnyPublisher()
            }
        }
    }

    /// Upstreams for `shape`, merged, and a subscriber to the merge that first asks for `demand`.
    private func subscribed(to shape: Shape, demand: Subscribers.Demand = .unlimited)
        -> ([Upstream], TestSubscriber<Int, TestError>)
    {
        let upstreams = (0..<shape.count).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(demand: demand)
        shape.merge(upstreams).subscribe(subscriber)
        return (upstreams, subscriber)
    }

    // MARK: - Values and completion

    @Test(arguments: Shape.all)
    func sendsEveryUpstreamsValuesAndFinishesWhenAllHaveFinished(_ shape: Shape) {
        let (upstreams, subscriber) = subscribed(to: shape)

        for (index, upstream) in upstreams.enumerated().reversed() {
            upstream.send(index)
        }
        for upstream in upstreams.dropLast() {
            upstream.send(completion: .finished)
        }
        #expect(subscriber.values == Array((0..<shape.count).reversed()))
        #expect(subscriber.completions == (shape.count == 0 ? [.finished] : []))

        upstreams.last?.send(completion: .finished)
        #expect(subscriber.completions == [.finished])
    }

    @Test(arguments: Shape.withUpstreams)
    func failsWithTheFirstFailureAndCancelsEveryUpstream(_ shape: Shape) {
        let (upstreams, subscriber) = subscribed(to: shape)

        upstreams.last?.send(1)
        upstreams.last?.send(completion: .failure(.boom))
        upstreams.first?.send(2)
        upstreams.first?.send(completion: .failure(.boom))

        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.failure(.boom)])
        for upstream in upstreams {
            #expect(upstream.events == [.requested(.unlimited), .cancelled])
        }
    }

    // MARK: - Demand

    @Test(arguments: Shape.withUpstreams)
    func asksOneValueOfEachUpstreamAndHoldsOneEachWithoutDemand(_ shape: Shape) throws {
        let (upstreams, subscriber) = subscribed(to: shape, demand: .none)
        for upstream in upstreams {
            try #require(upstream.events == [.requested(.max(1))])
        }

        for (index, upstream) in upstreams.enumerated().reversed() {
            #expect(upstream.send(index) == .none)
        }
        #expect(subscriber.values.isEmpty)

        // Held values go in upstream order, each upstream asked for the next one it sent.
        subscriber.request(.max(2))
        #expect(subscriber.values == Array((0..<shape.count).prefix(2)))
        for (index, upstream) in upstreams.enumerated() {
            let asked: [Upstream.Event] = index < 2 ? [.requested(.max(1))] : []
            #expect(upstream.events == [.requested(.max(1))] + asked)
        }

        subscriber.request(.unlimited)
        #expect(subscriber.values == Array(0..<shape.count))
        #expect(upstreams.allSatisfy { $0.events.last == .requested(.unlimited) })
    }

    @Test func anEmptyMergeManyFinishesWhenFirstAsked() {
        let subscriber = TestSubscriber<Int, TestError>(demand: .none)
        Publishers.MergeMany<Upstream>([]).subscribe(subscriber)
        #expect(subscriber.completions.isEmpty)

        subscriber.request(.max(1))
        #expect(subscriber.completions == [.finished])
    }

    // MARK: - Cancellation

    @Test(arguments: Shape.withUpstreams)
    func cancelCancelsEveryUpstreamOnce(_ shape: Shape) {
        let (upstreams, subscriber) = subscribed(to: shape)

        subscriber.cancel()
        subscriber.cancel()
        upstreams.forEach { $0.send(1) }

        #expect(subscriber.values.isEmpty)
        for upstream in upstreams {
            #expect(upstream.events == [.requested(.unlimited), .cancelled])
        }
    }

    // MARK: - Shapes

    @Test func mergeMethodsMakeApplesTypes() {
        typealias J = Just<Int>
        let p = Just(1)
        let m2: Publishers.Merge<J, Empty<Int, Never>> = p.merge(with: Empty())
        let m3: Publishers.Merge3<J, J, J> = p.merge(with: p, p)
        let m4: Publishers.Merge4<J, J, J, J> = p.merge(with: p, p, p)
        let m5: Publishers.Merge5<J, J, J, J, J> = p.merge(with: p, p, p, p)
        let m6: Publishers.Merge6<J, J, J, J, J, J> = p.merge(with: p, p, p, p, p)
        let m7: Publishers.Merge7<J, J, J, J, J, J, J> = p.merge(with: p, p, p, p, p, p)
        let m8: Publishers.Merge8<J, J, J, J, J, J, J, J> = p.merge(with: p, p, p, p, p, p, p)
        let many: Publishers.MergeMany<J> = p.merge(with: p)

        // Each merge widens by the publishers given, up to eight.
        let _: Publishers.Merge3<J, Empty<Int, Never>, J> = m2.merge(with: p)
        let _: Publishers.Merge8<J, Empty<Int, Never>, J, J, J, J, J, J> = m2.merge(with: p, p, p, p, p, p)
        let _: Publishers.Merge4<J, J, J, J> = m3.merge(with: p)
        let _: Publishers.Merge8<J, J, J, J, J, J, J, J> = m3.merge(with: p, p, p, p, p)
        let _: Publishers.Merge5<J, J, J, J, J> = m4.merge(with: p)
        let _: Publishers.Merge8<J, J, J, J, J, J, J, J> = m4.merge(with: p, p, p, p)
        let _: Publishers.Merge6<J, J, J, J, J, J> = m5.merge(with: p)
        let _: Publishers.Merge8<J, J, J, J, J, J, J, J> = m5.merge(with: p, p, p)
        let _: Publishers.Merge7<J, J, J, J, J, J, J> = m6.merge(with: p)
        let _: Publishers.Merge8<J, J, J, J, J, J, J, J> = m6.merge(with: p, p)
        let _: Publishers.Merge8<J, J, J, J, J, J, J, J> = m7.merge(with: p)
        let _: Publishers.MergeMany<J> = many.merge(with: p)

        #expect(many.merge(with: Just(2)).publishers == [p, p, Just(2)])
        #expect(Publishers.MergeMany(p, p) == many)
        #expect([m8.a, m8.b, m8.c, m8.d, m8.e, m8.f, m8.g, m8.h] == Array(repeating: p, count: 8))

        let subscriber = TestSubscriber<Int, Never>()
        m8.subscribe(subscriber)
        #expect(subscriber.values == Array(repeating: 1, count: 8))
        #expect(subscriber.completions == [.finished])
    }

    @Test func areEquatableWhenTheirUpstreamsAre() {
        let p = Just(1)
        let q = Just(2)
        #expect(p.merge(with: p, p) == p.merge(with: p, p))
        #expect(p.merge(with: p, p) != p.merge(with: p, q))
        #expect(p.merge(with: p, p, p) != p.merge(with: p, p, q))
        #expect(p.merge(with: p, p, p, p) != p.merge(with: p, p, p, q))
        #expect(p.merge(with: p, p, p, p, p) != p.merge(with: p, p, p, p, q))
        #expect(p.merge(with: p, p, p, p, p, p) != p.merge(with: p, p, p, p, p, q))
        #expect(p.merge(with: p, p, p, p, p, p, p) == p.merge(with: p, p, p, p, p, p, p))
        #expect(p.merge(with: p, p, p, p, p, p, p) != p.merge(with: p, p, p, p, p, p, q))
        #expect(Publishers.MergeMany(p, q) != Publishers.MergeMany(q, p))
    }

    // MARK: - Concurrency

    @Test func upstreamsOnEightThreadsDeliverEveryValueOnce() {
        let s = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6], s[7]).subscribe(subscriber)

        expectEachValueOnce(sending: 500, fromEachOf: s, concurrentlyTo: subscriber)
    }
}
