// The todo app's registration: derived from its view models' code (Exports.derived.swift, by
// `python3 -m mvvm_gen derive --target TodoViewModels --output Sources/TodoExport/Exports.derived.swift`),
// with what derivation cannot know in mvvm-derive.json: the titles a host types cross as TitleText.
//
// The view models' changing methods throw TodoStoreError when a save fails (the change is not
// shown, and the list's storage_error says why): the commands fail with
// MVVM_ERR_COMMAND_FAILED and the error's text; a binding cannot fail, so a set whose save fails
// says so only through storage_error.
#if MVVM_WITH_CATALOG
import MVVMCatalog
#endif
import MVVMExport

/// The text of a field that becomes a title (new_todo_title, edit_text): a string, which a host
/// can give holding NUL (as bytes). A title holding NUL would be saved cut short at it (the store
/// refuses it), so the field refuses such a value at once: MVVM_ERR_INVALID_ARGUMENT, the field
/// unchanged.
struct TitleText: ExportableNarrowing {
    let base: String
    init(_ base: String) { self.base = base }
    static var exportedShape: ValueShape { .string(allowed: nil) }
    init?(exportedValue value: MVVMValue) {
        guard case let .string(text) = value, !text.utf8.contains(0) else { return nil }
        base = text
    }
    var exportedValue: MVVMValue { .string(base) }
}

@_cdecl("libmvvm_register_package")
public func registerTodo() {
#if MVVM_WITH_CATALOG
    Catalog.register()  // the fuzzers' build (Package.swift): the catalog composed in
#endif
    registerTodoViewModelsExports()
}
