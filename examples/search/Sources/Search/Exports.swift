// The package's one registration.
import MVVMExport

/// The host's service as the view model's catalog: each search is one request, its answer the
/// books (an array of book records, or of maps of their fields).
struct HostCatalog: BookCatalog {
    let requester: HostRequester

    func books(matching query: String) async throws -> [Book] {
        try await requester.ask(.string(query), as: [Book].self)
    }
}

@_cdecl("libmvvm_register_package")
public func registerSearch() {
    Exports.record(Book.self, doc: "A book of the catalog.")
    Exports.register(SearchViewModel.self, doc: "A search screen: a query, an async search, results, a selection.") { c in
        c.binding("query", \.query, \.$query, doc: "What to search for.")
        c.output("results", \.results, \.$results, doc: "The books the last search found.")
        c.binding("selection", \.selection, \.$selection, doc: "The selected book, or none.")
        c.output("is_searching", \.isSearching, \.$isSearching)
        c.output("last_error", \.lastError, \.$lastError, doc: "Why the last search failed, or none.")
        c.output("summary", \.summary, doc: "What the screen's status line says (computed).")
        c.asyncCommand("search", doc: "Searches the catalog for the query; gives how many books it found.") {
            try await $0.search()
        }
        c.command("select", doc: "Selects the result at `index`.", .value("index")) { (screen, index: Int) in
            try screen.select(index)
        }
        c.constructor(doc: "Over the host's catalog: each search asks it with the query and expects an array of books.",
                      .service("catalog", request: .string, result: .array)) { (_, catalog: HostRequester) in
            SearchViewModel(catalog: HostCatalog(requester: catalog))
        }
    }
}
