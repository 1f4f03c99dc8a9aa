// One row of the todo list: its title and state, and the editing of its title.
import Foundation
@preconcurrency import OpenCombine
import TodoModels

public final class TodoItemViewModel: ObservableObject {
    /// The todo's id in the store.
    @Published public private(set) var id: Int
    @Published public private(set) var title: String
    /// The row's checkbox; the view binds it. Setting it saves it; when the save fails it holds
    /// the stored value again (the list's `storageError` says why).
    @Published public var completed: Bool {
        didSet { if completed != oldValue && !following { list?.completedChanged(self) } }
    }
    /// Whether the row shows its editor (after beginEdit, until commitEdit or cancelEdit).
    @Published public private(set) var isEditing = false
    /// The editor's text; the view binds it.
    @Published public var editText = ""

    /// The list while the todo is in its store; nil once it is gone.
    weak var list: TodoListViewModel?
    /// Set while the row follows its stored todo: those changes are not the user's to save.
    private var following = false

    init(_ todo: Todo, list: TodoListViewModel) {
        id = todo.id
        title = todo.title
        completed = todo.completed
        self.list = list
    }

    /// Shows the stored todo (after a change made elsewhere, or a save that failed).
    func follow(_ todo: Todo) {
        following = true
        defer { following = false }
        if title != todo.title { title = todo.title }
        if completed != todo.completed { completed = todo.completed }
    }

    public func beginEdit() {
        editText = title
        isEditing = true
    }

    /// Saves the edited title, trimmed; an empty one destroys the todo. When the save fails the
    /// editor stays open with the text, and the error is thrown (and shown in `storageError`).
    public func commitEdit() throws(TodoStoreError) {
        guard isEditing else { return }
        let text = editText.trimmingCharacters(in: .whitespacesAndNewlines)
        if let list {
            if text.isEmpty { try list.remove(self) } else { try list.rename(self, to: text) }
        }
        isEditing = false
        editText = ""
    }

    /// Leaves the title as it was.
    public func cancelEdit() {
        guard isEditing else { return }
        isEditing = false
        editText = ""
    }

    public func destroy() throws(TodoStoreError) { try list?.remove(self) }
}
