// The todo list screen (TodoMVC): the new-todo field, the rows the filter shows, the counter,
// mark all, the filters and clear completed.
@preconcurrency import OpenCombine
import Foundation
import TodoModels

public final class TodoListViewModel: ObservableObject {
    /// The new-todo field; the view binds it.
    @Published public var newTodoTitle = ""
    /// The rows the filter shows, in creation order.
    @Published public private(set) var items: [TodoItemViewModel] = []
    /// Which rows show; the view binds it. Saved with the todos.
    @Published public var filter: TodoFilter {
        didSet {
            guard filter != oldValue else { return }
            store.filter = filter
            refresh()
        }
    }
    @Published public private(set) var activeCount = 0
    @Published public private(set) var completedCount = 0
    /// "1 item left", "2 items left".
    @Published public private(set) var itemsLeft = "0 items left"
    /// Whether every todo is completed (and there is one); see ``setAllCompleted(_:)``.
    @Published public private(set) var allCompleted = false
    @Published public private(set) var hasTodos = false
    @Published public private(set) var isClearCompletedVisible = false

    private let store: TodoStore
    private var rows: [Int: TodoItemViewModel] = [:]   // by todo id, shown or not
    private var cancellables = Set<AnyCancellable>()

    public init(store: TodoStore = TodoStore()) {
        self.store = store
        filter = store.filter
        $activeCount.map { "\($0) item\($0 == 1 ? "" : "s") left" }
            .sink { [unowned self] in if itemsLeft != $0 { itemsLeft = $0 } }
            .store(in: &cancellables)
        $completedCount.map { $0 > 0 }
            .sink { [unowned self] in if isClearCompletedVisible != $0 { isClearCompletedVisible = $0 } }
            .store(in: &cancellables)
        refresh()
    }

    /// Adds a todo titled newTodoTitle, trimmed, and clears the field; a blank title adds nothing.
    public func add() {
        let title = newTodoTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return }
        let todo = store.add(title)
        newTodoTitle = ""
        // Only the new row changes: appended when the filter shows it.
        let row = TodoItemViewModel(todo, list: self)
        rows[todo.id] = row
        if filter.shows(todo) { items.append(row) }
        updateCounts()
    }

    public func clearCompleted() {
        let gone = store.todos.filter(\.completed).map(\.id)
        guard store.clearCompleted() else { return }
        for id in gone { rows[id]?.list = nil; rows[id] = nil }
        refresh()
    }

    /// Marks every todo completed, or every one active (the mark-all checkbox).
    public func setAllCompleted(_ completed: Bool) {
        if store.markAll(completed: completed) { refresh() }
    }

    // MARK: From the rows

    func itemCompletedChanged(_ item: TodoItemViewModel) {
        guard store.setCompleted(item.completed, id: item.id) else { return }
        // Under "all" the row stays: only the counts change.
        if filter == .all { updateCounts() } else { refresh() }
    }

    func rename(_ item: TodoItemViewModel, to title: String) {
        if store.setTitle(title, id: item.id) { refresh() }
    }

    func remove(_ item: TodoItemViewModel) {
        guard store.remove(id: item.id) else { return }
        rows[item.id] = nil
        item.list = nil
        refresh()
    }

    // MARK: Outputs from the store

    private func refresh() {
        var shown: [TodoItemViewModel] = []
        shown.reserveCapacity(store.todos.count)
        for todo in store.todos {
            let row: TodoItemViewModel
            if let existing = rows[todo.id] {
                row = existing
                row.update(from: todo)
            } else {
                row = TodoItemViewModel(todo, list: self)
                rows[todo.id] = row
            }
            if filter.shows(todo) { shown.append(row) }
        }
        if !shown.elementsEqual(items, by: ===) { items = shown }
        updateCounts()
    }

    private func updateCounts() {
        let total = store.todos.count, completed = store.completedCount
        if activeCount != total - completed { activeCount = total - completed }
        if completedCount != completed { completedCount = completed }
        if hasTodos != (total > 0) { hasTodos = total > 0 }
        if allCompleted != (total > 0 && completed == total) { allCompleted = total > 0 && completed == total }
    }
}
