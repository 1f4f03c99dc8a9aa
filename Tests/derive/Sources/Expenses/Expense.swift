// The values of a trip-expenses app, as its SwiftUI code declares them: Codable records with
// Foundation's UUID, Date and Decimal, String and Int enums, a plain struct. Nothing here knows
// libmvvm.
import Foundation

/// One expense of a trip: what, how much, when, of which kind.
public struct Expense: Codable, Identifiable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var amount: Decimal
    public var date: Date
    public var category: Category
    public var note: String?

    public init(id: UUID, title: String, amount: Decimal, date: Date, category: Category, note: String? = nil) {
        self.id = id
        self.title = title
        self.amount = amount
        self.date = date
        self.category = category
        self.note = note
    }
}

/// What an expense was for.
public enum Category: String, Codable, CaseIterable, Sendable {
    case food, travel, lodging, other
}

/// How much a reminder matters.
public enum Priority: Int, Codable, Sendable {
    case low, normal, high
}

/// A place on the map.
public struct Place: Equatable, Sendable {
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// What went wrong with an expense.
public enum ExpenseError: Error, CustomStringConvertible {
    case emptyTitle
    case notFound(UUID)
    case offline

    public var description: String {
        switch self {
        case .emptyTitle: return "an expense needs a title"
        case let .notFound(id): return "no expense \(id.uuidString)"
        case .offline: return "the server cannot be reached"
        }
    }
}
