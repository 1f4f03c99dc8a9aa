// One row of the todo list: its title and state, and the editing of its title.
@preconcurrency import OpenCombine
import TodoModels

public final class TodoItemViewModel: ObservableObject {
    /// The todo's id in the store.
    @Published public private(set) var id: Int
    @Published public private(set) var title: String
    /// The row's checkbox; the view binds it.
    @Published public var completed: Bool {
        didSet { if completed != oldValue { list?.itemCompletedChanged(self) } }
    }
    /// Whether the row shows its editor (after beginEdit, until commitEdit or cancelEdit).
    @Published public private(set) var isEditing = false
    /// The editor's text; the view binds it.
    @Published public var editText = ""

    weak var list: TodoListViewModel?

    init(_ todo: Todo, list: TodoListViewModel) {
        id = todo.id
        title = todo.title
        completed = todo.completed
        self.list = list
    }

    /// Follows the store's todo (after a change made elsewhere: mark all, say).
    func update(from todo: Todo) {
        if title != todo.title { title = todo.title }
        if completed != todo.completed { completed = todo.completed }
    }

    public func beginEdit() {
        editText = title
        isEditing = true
    }

    /// Saves the edited title, trimmed; an empty one destroys the todo.
    public func commitEdit() {
        guard isEditing else { return }
        let text = editText.trimmingCharacters(in: .whitespacesAndNewlines)
        isEditing = false
        editText = ""
        if text.isEmpty { list?.remove(self) } else { list?.rename(self, to: text) }
    }

    /// Leaves the title as it was.
    public func cancelEdit() {
        guard isEditing else { return }
        isEditing = false
        editText = ""
    }

    public func destroy() { list?.remove(self) }
}
