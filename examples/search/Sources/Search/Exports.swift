// The package's registration: derived from the view model's code (Exports.derived.swift, by
// `python3 -m mvvm_gen derive --target Search`), with by hand only what derivation cannot know:
// the catalog the screen searches is the host's service.
import MVVMExport

/// The host's service as the view model's catalog: each search is one request, its answer the
/// books (an array of book records, or of maps of their fields).
struct HostCatalog: BookCatalog {
    let requester: HostRequester

    func books(matching query: String) async throws -> [Book] {
        try await requester.ask(.string(query), as: [Book].self)
    }
}

extension SearchViewModel {
    /// The members added by hand to the derived ones: the constructor over the host's catalog.
    static func exportByHand(_ c: inout ExportBuilder<SearchViewModel>) {
        c.constructor(doc: "Over the host's catalog: each search asks it with the query and expects an array of books.",
                      .service("catalog", request: .string, result: .array)) { (_, catalog: HostRequester) in
            SearchViewModel(catalog: HostCatalog(requester: catalog))
        }
    }
}

@_cdecl("libmvvm_register_package")
public func registerSearch() { registerSearchExports() }
