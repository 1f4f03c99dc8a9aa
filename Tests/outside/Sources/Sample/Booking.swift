// A booking form whose values are narrower than their C types, as real models' are: a String
// enum that is not CaseIterable, a record whose init(from:) validates, an ID type with a
// failable init (as UUID's from a string), and Floats. Each refuses some values its C type holds.
import MVVMExport
@preconcurrency import OpenCombine

/// How urgent a booking is: not CaseIterable, so any string crosses, and the enum itself
/// refuses the others.
public enum Urgency: String, ExportableValue, Sendable {
    case low, high
}

/// Why a stay refused its fields.
public struct StayError: Error, CustomStringConvertible {
    public let description: String
}

/// A stay: a record whose init(from:) refuses a negative number of nights.
public struct Stay: ExportableRecord, Equatable, Sendable {
    public var nights: Int
    public var rate: Float

    public init(nights: Int, rate: Float) {
        self.nights = nights
        self.rate = rate
    }

    private enum CodingKeys: String, CodingKey { case nights, rate }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nights = try container.decode(Int.self, forKey: .nights)
        rate = try container.decode(Float.self, forKey: .rate)
        guard nights >= 0 else { throw StayError(description: "a stay of \(nights) nights") }
    }
}

/// A booking reference, "BK-" and four digits: crosses as a string, parsed as UUID(uuidString:)
/// parses (nil when malformed).
public struct Reference: ExportableValue, Equatable, Sendable {
    public let text: String

    public init?(_ text: String) {
        guard text.hasPrefix("BK-"), text.utf8.count == 7, text.utf8.dropFirst(3).allSatisfy({ (48...57).contains($0) }) else {
            return nil
        }
        self.text = text
    }

    public static var exportedShape: ValueShape { .string(allowed: nil) }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue else { return nil }
        self.init(text)
    }
    public var exportedValue: MVVMValue { .string(text) }
}

public final class Booking: ObservableObject {
    @Published public var urgency = Urgency.low
    @Published public var stay: Stay?
    @Published public var reference: Reference?
    @Published public var rate: Float = 0
    @Published public var rates: [Float] = []
    @Published public private(set) var booked = 0

    public init(reference: Reference? = nil) { self.reference = reference }

    /// Books the stay (after a turn of the loop); gives how many bookings there are.
    public func book(_ stay: Stay, urgency: Urgency) async -> Int {
        await Task.yield()
        self.stay = stay
        self.urgency = urgency
        booked += 1
        return booked
    }
}
