// iExpense's model as Hacking with Swift writes it: an @Observable class that keeps its items in
// UserDefaults, encoded as JSON, reading them back when it is made. Its code calls neither
// synchronize() nor anything of libmvvm: the library saves the settings as the platform would.
import Foundation
import Observation

public struct ExpenseItem: Identifiable, Codable, Sendable {
    public var id = UUID()
    public let name: String
    public let type: String
    public let amount: Double
}

@Observable
public final class Expenses: @unchecked Sendable {
    public var items = [ExpenseItem]() {
        didSet {
            if let encoded = try? JSONEncoder().encode(items) {
                UserDefaults.standard.set(encoded, forKey: "Items")
            }
        }
    }

    public init() {
        if let savedItems = UserDefaults.standard.data(forKey: "Items") {
            if let decodedItems = try? JSONDecoder().decode([ExpenseItem].self, from: savedItems) {
                items = decodedItems
                return
            }
        }
        items = []
    }

    public func add(name: String, type: String, amount: Double) {
        items.append(ExpenseItem(name: name, type: type, amount: amount))
    }
}
