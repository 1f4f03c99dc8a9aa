// Unsigned 64-bit values (UInt64), handed out as MVVM_TYPE_UINT: every binding reads one above
// INT64_MAX as the same non-negative number. Registered with a display name of its own.
@preconcurrency import OpenCombine

public final class Meter: ObservableObject {
    /// 2^63, the first reading no int64_t holds.
    public static let start: UInt64 = 1 << 63

    /// The reading; the view binds it.
    @Published public var reading: UInt64

    public init(reading: UInt64 = Meter.start) { self.reading = reading }

    /// The reading `steps` further on, wrapping past UInt64.max as an odometer does.
    public func ahead(_ steps: UInt64) -> UInt64 { reading &+ steps }
}
