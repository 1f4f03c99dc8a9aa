// Planning a trip: an @Observable view model (the Observation module), as SwiftUI code of iOS 17
// writes them.
import Foundation
import Observation

/// Why a trip cannot be booked.
public struct TripError: Error, CustomStringConvertible {
    public let description: String
}

/// Plans a trip: where, when, for how long, for how much.
@Observable
public final class TripPlannerViewModel {
    /// The trip's id.
    public let id: UUID
    /// Where the trip goes.
    public var destination = ""
    /// The first day.
    public var startDate = Date(timeIntervalSince1970: 0)
    /// How many nights.
    public var nights = 1
    /// What the trip may cost.
    public var budget: Decimal = 0
    /// Where it is on the map, once chosen.
    public var place: Place?
    /// Bookings made so far.
    public private(set) var confirmations: [String] = []
    /// Whether the trip can be booked.
    public var isValid: Bool { !destination.isEmpty && nights > 0 }
    /// "Lisbon, 3 nights".
    public var summary: String { "\(destination), \(nights) night\(nights == 1 ? "" : "s")" }
    /// The day the trip ends.
    public var endDate: Date { startDate.addingTimeInterval(Double(nights) * 86_400) }

    public init() {
        id = UUID(uuidString: "00000000-0000-0000-0000-0000000000aa")!
    }

    /// A trip to `destination` of `nights` nights.
    public convenience init(destination: String, nights: Int) {
        self.init()
        self.destination = destination
        self.nights = nights
    }

    /// One more night.
    public func addNight() { nights += 1 }

    /// Books the trip; gives its confirmation.
    public func book() async throws -> String {
        guard isValid else { throw TripError(description: "a trip needs a destination and a night") }
        await Task.yield()
        let confirmation = "Booked \(summary)"
        confirmations.append(confirmation)
        return confirmation
    }
}
