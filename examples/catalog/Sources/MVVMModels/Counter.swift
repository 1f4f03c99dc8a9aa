import MVVMCombine

/// Something that counts up and down and publishes its count.
public protocol Countable: AnyObject {
    /// What a view calls this kind of counter.
    var name: String { get }
    var count: Int { get }
    var countPublisher: AnyPublisher<Int, Never> { get }
    func increment()
    func decrement()
}

/// A counter.
public final class Counter: Countable, ObservableObject {
    @Published public private(set) var count = 0

    /// At 0.
    public init() {}

    public var name: String { "Counter" }
    public var countPublisher: AnyPublisher<Int, Never> { $count.eraseToAnyPublisher() }
    /// Increments (a random counter draws).
    public func increment() { count += 1 }
    /// Decrements (a random counter draws).
    public func decrement() { count -= 1 }
}

/// A counter whose increment and decrement draw a count from 1 to 10 out of a generator seeded
/// with `seed`: a seed always repeats its sequence.
public final class RandomCounter: Countable, ObservableObject {
    @Published public private(set) var count = 0
    private var generator: SeededGenerator

    /// Seeded with `seed`.
    public init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    public var name: String { "Random Counter" }
    public var countPublisher: AnyPublisher<Int, Never> { $count.eraseToAnyPublisher() }
    /// Increments (a random counter draws).
    public func increment() { count = Int.random(in: 1...10, using: &generator) }
    /// Decrements (a random counter draws).
    public func decrement() { count = Int.random(in: 1...10, using: &generator) }
}

/// SplitMix64: small, fast, and the same on every platform, which `SystemRandomNumberGenerator`
/// is not.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
