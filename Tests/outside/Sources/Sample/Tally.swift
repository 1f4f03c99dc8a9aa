// An @Observable view model (the Observation module): stored and computed properties, watched
// with withObservationTracking by the export layer.
import Observation

@Observable
public final class Tally {
    /// The running total.
    public private(set) var total: Int
    /// What add() adds; the view binds it.
    public var step = 1
    /// A label the view may edit.
    public var title = "Tally"
    /// Whether total is even: computed, so its changes follow total's.
    public var isEven: Bool { total % 2 == 0 }

    public init(start: Int = 0) { total = start }

    public func add() { total += step }

    /// Adds step `times` times: one operation, so subscribers hear total once, with the sum.
    public func addMany(_ times: Int) {
        for _ in 0..<max(0, times) { total += step }
    }

    public func reset() { total = 0 }
}
