// A profile screen written as SwiftUI code is: optionals, arrays, records and bytes as
// @Published properties, a computed property, commands with arguments, results and errors.
import MVVMExport
import MVVMRuntime
import Observation
@preconcurrency import OpenCombine

/// A postal address: a record (a struct of exportable fields).
public struct Address: ExportableRecord, Equatable, Sendable {
    public var street: String
    public var city: String
    public var zipCode: String?

    public init(street: String, city: String, zipCode: String? = nil) {
        self.street = street
        self.city = city
        self.zipCode = zipCode
    }
}

/// A contact: a record holding a record and an array.
public struct Contact: ExportableRecord, Equatable, Sendable {
    public var name: String
    public var address: Address
    public var tags: [String]
}

/// Why a profile refused a command.
public struct ProfileError: Error, CustomStringConvertible {
    public let description: String
}

public final class Profile: ObservableObject {
    @Published public var first = ""
    @Published public var last = ""
    /// No limit until one is set.
    @Published public var limit: Int?
    @Published public var tags: [String] = []
    @Published public var scores: [Double] = []
    @Published public var address: Address?
    @Published public var avatar: [UInt8] = []
    @Published public private(set) var saves = 0
    /// Each contact saved.
    public let saved = PassthroughSubject<Contact, Never>()

    /// Computed, as SwiftUI code writes it: no publisher of its own.
    public var fullName: String { "\(first) \(last)".trimmingSpaces }

    /// The loop's clock, for the async commands.
    private let clock: LoopClock?

    public init(clock: LoopClock? = nil) { self.clock = clock }

    /// Adds `count` tags, one a second on the loop's clock; gives the tags. Fails at once for a
    /// negative count.
    public func load(count: Int) async throws -> [String] {
        guard count >= 0 else { throw ProfileError(description: "cannot load \(count) tags") }
        for index in 0..<count {
            try await clock?.sleep(for: .seconds(1))
            tags.append("t\(index)")
        }
        return tags
    }

    /// Ends without suspending: the number of saves.
    public func ping() async -> Int { saves }

    /// Moves a tag; throws when either index is out of range (after counting the attempt).
    public func moveTag(from: Int, to: Int) throws {
        saves += 1
        guard tags.indices.contains(from), tags.indices.contains(to) else {
            throw ProfileError(description: "no tag at \(tags.indices.contains(from) ? to : from) (there are \(tags.count))")
        }
        tags.insert(tags.remove(at: from), at: to)
    }

    /// A contact of this profile at an address.
    public func contact(name: String, street: String, city: String) -> Contact {
        Contact(name: name, address: Address(street: street, city: city), tags: tags)
    }

    /// Saves the contact of the profile's own address; throws when it has none.
    @discardableResult
    public func save() throws -> Contact {
        guard let address else { throw ProfileError(description: "the profile has no address") }
        let contact = Contact(name: fullName, address: address, tags: tags)
        saves += 1
        saved.send(contact)
        return contact
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

/// The same kinds on an @Observable class: a wishlist of optional prices.
@Observable public final class Wishlist {
    public var items: [String] = []
    public var prices: [Double?] = []
    public var budget: Double?
    public var home: Address?
    public var total: Double { prices.reduce(0) { $0 + ($1 ?? 0) } }

    public init() {}

    /// Adds an item, optionally priced; returns how many there are.
    public func add(_ item: String, price: Double?) -> Int {
        items.append(item)
        prices.append(price)
        return items.count
    }

    /// The item at `index`; throws when there is none.
    public func item(at index: Int) throws -> String {
        guard items.indices.contains(index) else { throw ProfileError(description: "no item \(index)") }
        return items[index]
    }
}

