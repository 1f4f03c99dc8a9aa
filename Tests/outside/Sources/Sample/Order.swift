// Foundation's everyday values (issue 41): UUID, Date, URL and Decimal in properties, command,
// async command and constructor arguments, results, record fields, arrays and optionals. Their
// conformances are MVVMFoundation's (Exports.swift imports it).
import Foundation
import MVVMExport
@preconcurrency import OpenCombine

/// An order's line: a record of each kind (Codable, as most records are).
public struct LineItem: ExportableRecord, Equatable, Sendable {
    public var id: UUID
    public var at: Date
    public var link: URL
    public var price: Decimal
    public var due: Date?
}

public final class Order: ObservableObject {
    @Published public var id: UUID
    @Published public var placed = Date(timeIntervalSince1970: 0)
    @Published public var link = URL(string: "https://example.com/")!
    @Published public var cost = Decimal(0)
    @Published public var due: Date?
    @Published public var related: [UUID] = []
    @Published public var line: LineItem?

    public init(id: UUID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!) { self.id = id }

    /// A line of these values, each handed back as given (a round trip of each kind).
    public func makeLine(id: UUID, at: Date, link: URL, price: Decimal) -> LineItem {
        LineItem(id: id, at: at, link: link, price: price, due: nil)
    }

    /// Sets `due` and gives the one before.
    public func postpone(to date: Date) async -> Date? {
        defer { due = date }
        return due
    }
}
