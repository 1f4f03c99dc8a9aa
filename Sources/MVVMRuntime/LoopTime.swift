@preconcurrency import OpenCombine

/// A point on a loop's clock: nanoseconds since the loop was created.
///
/// Integer nanoseconds keep virtual time exact: a countdown of five one-second ticks ends at
/// exactly 5 000 000 000, never at 4.999 999 s.
public struct LoopTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = LoopTime(nanoseconds: 0)

    /// The latest time a loop reaches: 2^62 ns, about 146 years after its start. `advance` and
    /// `run(forMilliseconds:)` refuse to go past it, so that adding any interval the library
    /// schedules stays far from `Int64` overflow.
    public static let limit = LoopTime(nanoseconds: 1 << 62)

    /// Whole milliseconds since the loop's start, rounded down.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    public func distance(to other: LoopTime) -> Stride {
        Stride(nanoseconds: other.nanoseconds - nanoseconds)
    }

    /// Saturates rather than overflowing: work scheduled that far out simply never comes due.
    public func advanced(by stride: Stride) -> LoopTime {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(stride.nanoseconds)
        return LoopTime(nanoseconds: overflow ? (stride.nanoseconds > 0 ? .max : .min) : sum)
    }

    public var description: String { "\(nanoseconds) ns" }

    /// A span of loop time, in nanoseconds; what `throttle(for:)`, `delay(for:)` and
    /// `debounce(for:)` take when they run on a ``Loop``.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable {
        public var nanoseconds: Int64

        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

        public init(integerLiteral value: Int64) { nanoseconds = value }

        public init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int64(exactly: source) else { return nil }
            nanoseconds = value
        }

        public var magnitude: UInt64 { nanoseconds.magnitude }

        public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: Int64(s) * 1_000_000_000) }
        public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int64((s * 1e9).rounded())) }
        public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: Int64(ms) * 1_000_000) }
        public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: Int64(us) * 1_000) }
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: Int64(ns)) }

        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds * rhs.nanoseconds) }
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }
}
