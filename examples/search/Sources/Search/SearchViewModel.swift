// The search screen's view model, written as SwiftUI code is: @Published state, an async
// search, a computed summary. It knows nothing of C: the catalog service it asks is a
// `BookCatalog`, which the export layer backs with the host's service.
import MVVMExport
@preconcurrency import OpenCombine

/// A book of the catalog.
public struct Book: ExportableRecord, Equatable, Sendable {
    public var title: String
    public var author: String
    public var year: Int?
}

/// Why a command of the screen failed.
public struct SearchError: Error, CustomStringConvertible {
    public let description: String
}

/// Where books are found: the host's service.
public protocol BookCatalog {
    func books(matching query: String) async throws -> [Book]
}

/// A search screen: a query, an async search, results, a selection.
public final class SearchViewModel: ObservableObject {
    /// What to search for.
    @Published public var query = ""
    /// The books the last search found.
    @Published public private(set) var results: [Book] = []
    /// The selected book, or none.
    @Published public var selection: Book?
    @Published public private(set) var isSearching = false
    /// Why the last search failed, or none.
    @Published public private(set) var lastError: String?
    // Computed: no publisher of its own.
    /// What the screen's status line says (computed).
    public var summary: String {
        if isSearching { return "Searching…" }
        if results.isEmpty { return query.isEmpty ? "Type to search" : "No books for '\(query)'" }
        return "\(results.count) book\(results.count == 1 ? "" : "s") for '\(query)'"
    }

    private let catalog: BookCatalog

    public init(catalog: BookCatalog) { self.catalog = catalog }

    /// Searches the catalog for the query; gives how many books it found.
    public func search() async throws -> Int {
        let asked = query.trimmingCharacters
        guard !asked.isEmpty else { throw SearchError(description: "the query is empty") }
        isSearching = true
        lastError = nil
        defer { isSearching = false }
        do {
            results = try await catalog.books(matching: asked)
            if let selection, !results.contains(selection) { self.selection = nil }
            return results.count
        } catch is CancellationError {
            throw CancellationError()  // the screen stays as it was
        } catch {
            lastError = "\(error)"
            throw error
        }
    }

    // Throws when there is none.
    /// Selects the result at `index`.
    public func select(_ index: Int) throws {
        guard results.indices.contains(index) else {
            throw SearchError(description: "there is no result \(index) (there are \(results.count))")
        }
        selection = results[index]
    }
}

private extension String {
    var trimmingCharacters: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
