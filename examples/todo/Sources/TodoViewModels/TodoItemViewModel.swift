// One row of the todo list: its title and state, and the editing of its title.
//
// A list holds one row per todo, thousands of them, and a view shows a few: so a row keeps plain
// stored properties and announces their changes through an `objectWillChange` it makes only when
// something subscribes to it (the view showing the row). A row nobody watches costs its fields;
// five `@Published` would cost a box each, and a publisher each once set.
@preconcurrency import OpenCombine
import TodoModels

/// One todo of a todo list: its title, its checkbox, its editor.
public final class TodoItemViewModel: ObservableObject {
    /// The todo's id in its store.
    public let id: Int
    public private(set) var title: String { willSet { announce() } }
    // The view binds it. Setting it saves it; when the save fails it holds the stored value again
    // (the list's `storageError` says why).
    /// The checkbox.
    public var completed: Bool {
        get { isCompleted }
        set {
            guard newValue != isCompleted else { return }
            isCompleted = newValue
            list?.completedChanged(self)
        }
    }
    /// Whether the editor shows (begin_edit until commit_edit or cancel_edit).
    public private(set) var isEditing = false { willSet { announce() } }
    /// The editor's text; the view binds it.
    public var editText = "" { willSet { announce() } }

    /// Made when first asked for, by whoever subscribes to the row.
    public var objectWillChange: ObservableObjectPublisher {
        if let willChange { return willChange }
        let publisher = ObservableObjectPublisher()
        willChange = publisher
        return publisher
    }

    /// The list while the todo is in its store; nil once it is gone.
    weak var list: TodoListViewModel?
    /// What `completed` shows: set alone, it follows the store without saving anything.
    private var isCompleted: Bool { willSet { announce() } }
    private var willChange: ObservableObjectPublisher?

    init(_ todo: Todo, list: TodoListViewModel) {
        id = todo.id
        title = todo.title
        isCompleted = todo.completed
        self.list = list
    }

    private func announce() { willChange?.send() }

    /// Shows the stored todo (after a change made elsewhere, or a save that failed).
    func follow(_ todo: Todo) {
        if title != todo.title { title = todo.title }
        if isCompleted != todo.completed { isCompleted = todo.completed }
    }

    /// Shows a title the store has just saved.
    func follow(title: String) {
        if self.title != title { self.title = title }
    }

    /// Opens the editor with the title.
    public func beginEdit() {
        editText = title
        isEditing = true
    }

    // When the save fails the editor stays open with the text, and the error is thrown (and
    // shown in `storageError`).
    /// Saves edit_text, trimmed, as the title; an empty one destroys the todo. When the save fails
    /// the editor stays open, and the command fails.
    public func commitEdit() throws(TodoStoreError) {
        guard isEditing else { return }
        let text = editText.trimmingWhitespace()
        if let list {
            if text.isEmpty { try list.remove(self) } else { try list.rename(self, to: text) }
        }
        isEditing = false
        editText = ""
    }

    /// Closes the editor, keeping the title.
    public func cancelEdit() {
        guard isEditing else { return }
        isEditing = false
        editText = ""
    }

    /// Removes the todo; fails when that cannot be saved.
    public func destroy() throws(TodoStoreError) { try list?.remove(self) }
}

extension String {
    /// Without the white space and line ends at either end: Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, which costs a bridge to NSString and
    /// back for every title typed.
    func trimmingWhitespace() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            // ASCII's white space is tab to carriage return and the space; beyond it, Unicode's
            // White_Space, and U+200B, which Foundation's set counts as well.
            if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
            return scalar.properties.isWhitespace || scalar == "\u{200B}"
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return self }
        return String(scalars[first...last])
    }
}
