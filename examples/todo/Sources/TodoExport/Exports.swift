// The todo app's one registration: each class once, each member in one line.
//
// The view models' changing methods throw TodoStoreError when a save fails (the change is not
// shown, and the list's storage_error says why): the commands fail with
// MVVM_ERR_COMMAND_FAILED and the error's text; a binding cannot fail, so a set whose save fails
// says so only through storage_error.
#if MVVM_WITH_CATALOG
import MVVMCatalog
#endif
import MVVMExport
import MVVMRuntime
import TodoModels
import TodoViewModels

/// The filter crosses as its raw value; descriptions list "all", "active", "completed".
extension TodoFilter: ExportableValue {}

/// The text of a field that becomes a title (new_todo_title, edit_text): a string, which a host
/// can give holding NUL (as bytes). A title holding NUL would be saved cut short at it (the store
/// refuses it), so the field refuses such a value at once: MVVM_ERR_INVALID_ARGUMENT, the field
/// unchanged.
struct TitleText: ExportableValue {
    let text: String
    init(_ text: String) { self.text = text }
    static var exportedShape: ValueShape { .string(allowed: nil) }
    init?(exportedValue value: MVVMValue) {
        guard case let .string(text) = value, !text.utf8.contains(0) else { return nil }
        self.text = text
    }
    var exportedValue: MVVMValue { .string(text) }
}

@_cdecl("libmvvm_register_package")
public func registerTodo() {
#if MVVM_WITH_CATALOG
    Catalog.register()  // the fuzzers' build (Package.swift): the catalog composed in
#endif
    Exports.register(TodoItemViewModel.self, doc: "One todo of a todo list: its title, its checkbox, its editor.") { c in
        // Plain properties of an ObservableObject: followed through its objectWillChange.
        c.output("id", \.id, doc: "The todo's id in its store.")
        c.output("title", \.title)
        c.binding("completed", get: \.completed, set: { $0.completed = $1 }, doc: "The checkbox.")
        c.output("is_editing", \.isEditing, doc: "Whether the editor shows (begin_edit until commit_edit or cancel_edit).")
        c.binding("edit_text", get: { TitleText($0.editText) }, set: { $0.editText = $1.text },
                  doc: "The editor's text (refused when it holds NUL).")
        c.command("begin_edit", doc: "Opens the editor with the title.") { $0.beginEdit() }
        c.command("commit_edit", doc: "Saves edit_text, trimmed, as the title; an empty one destroys the todo. "
                  + "When the save fails the editor stays open, and the command fails.") { try $0.commitEdit() }
        c.command("cancel_edit", doc: "Closes the editor, keeping the title.") { $0.cancelEdit() }
        c.command("destroy", doc: "Removes the todo; fails when that cannot be saved.") { try $0.destroy() }
    }
    Exports.register(TodoListViewModel.self, doc: "A TodoMVC todo list, saved in a SQLite database.") { c in
        // Plain and computed properties of an ObservableObject: followed through its objectWillChange.
        c.binding("new_todo_title", get: { TitleText($0.newTodoTitle) }, set: { $0.newTodoTitle = $1.text },
                  doc: "The new-todo field (refused when it holds NUL).")
        c.list("items", \.items, doc: "The todos the filter shows, in creation order.")
        c.binding("filter", get: \.filter, set: { $0.filter = $1 }, doc: "Which todos items shows.")
        c.output("active_count", \.activeCount)
        c.output("completed_count", \.completedCount)
        c.output("items_left", \.itemsLeft, doc: "\"1 item left\", \"2 items left\".")
        c.output("storage_error", \.storageError,
                 doc: "Why the last change could not be saved (it is not shown); \"\" once a change is saved.")
        c.binding("all_completed", get: \.allCompleted, set: { try? $0.setAllCompleted($1) },
                  doc: "True iff every todo is completed (and there is one); setting it marks every todo so.")
        c.output("has_todos", \.hasTodos)
        c.output("is_clear_completed_visible", \.isClearCompletedVisible)
        c.command("add", doc: "Adds new_todo_title, trimmed, and clears it; a blank title adds nothing. "
                  + "When the todo cannot be saved the title stays, and the command fails.") { try $0.add() }
        c.command("clear_completed", doc: "Removes the completed todos; fails when that cannot be saved.") {
            try $0.clearCompleted()
        }
        c.constructor(doc: "The todos of the SQLite database at `storage_path` (\"\": in memory only): where no file is, "
                      + "a new database is made; a path that is not a regular file, or a file that is not a todo "
                      + "database, is refused and left untouched.",
                      .value("storage_path")) { (_, path: String) throws(ExportFailure) in
            if path.isEmpty { return TodoListViewModel() }
            do throws(TodoStoreError) {
                return TodoListViewModel(store: try TodoStore(path: path))
            } catch {
                throw ExportFailure(error.description)
            }
        }
    }
}
