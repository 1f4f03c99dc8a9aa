// The todo list screen (TodoMVC): the new-todo field, the rows the filter shows, the counter,
// mark all, the filters and clear completed.
//
// A change of one todo costs the change, not the list: a look-up by id, a binary search of
// `items` (ascending ids) when a row comes or goes, and the counters the store keeps. Only what
// changes every row walks them: mark all, clear completed, a filter switch, and changes another
// object or process committed to the database (taken in by the store before the next change).
@preconcurrency import OpenCombine
import Foundation
import MVVMRuntime
import TodoModels

public final class TodoListViewModel: ObservableObject {
    /// The new-todo field; the view binds it.
    @Published public var newTodoTitle = ""
    /// The rows the filter shows, in creation order (ascending ids): a list that records its own
    /// edits, so a row added, toggled out or destroyed is announced as that splice alone.
    public let items = SpliceList<TodoItemViewModel>()
    /// Which rows show; the view binds it. Saved with the todos; when the save fails it holds
    /// the stored filter again.
    @Published public var filter: TodoFilter {
        didSet { if filter != oldValue && !following { filterChanged() } }
    }
    @Published public private(set) var activeCount = 0
    @Published public private(set) var completedCount = 0
    /// "1 item left", "2 items left".
    @Published public private(set) var itemsLeft = "0 items left"
    /// Whether every todo is completed (and there is one); see ``setAllCompleted(_:)``.
    @Published public private(set) var allCompleted = false
    @Published public private(set) var hasTodos = false
    @Published public private(set) var isClearCompletedVisible = false
    /// Why the last change could not be saved, "" once one is (or while none failed). A change
    /// that fails is not shown: the view model holds what the store holds.
    @Published public private(set) var storageError = ""

    private let store: TodoStore
    private var rows: [Int: TodoItemViewModel] = [:]   // by todo id, shown or not
    private var reloadsSeen: Int
    /// Set while the list follows the store: those changes are not the user's to save.
    private var following = false
    private var cancellables = Set<AnyCancellable>()
    /// Rows the bookkeeping has read or compared (a row of the store or of `items`): tests hold
    /// one change to a count that does not follow the list's length.
    private(set) var rowsVisited = 0

    public init(store: TodoStore = TodoStore()) {
        self.store = store
        filter = store.filter
        reloadsSeen = store.reloads
        $activeCount.map { "\($0) item\($0 == 1 ? "" : "s") left" }
            .sink { [unowned self] in if itemsLeft != $0 { itemsLeft = $0 } }
            .store(in: &cancellables)
        $completedCount.map { $0 > 0 }
            .sink { [unowned self] in if isClearCompletedVisible != $0 { isClearCompletedVisible = $0 } }
            .store(in: &cancellables)
        // Computed counts read the list: it tells objectWillChange of its edits, as @Published would.
        items.willChange = { [unowned self] in objectWillChange.send() }
        reconcile()
    }

    /// Adds a todo titled newTodoTitle, trimmed, and clears the field; a blank title adds
    /// nothing. When the save fails the field keeps the title.
    public func add() throws(TodoStoreError) {
        let title = newTodoTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return }
        let todo = try save { () throws(TodoStoreError) in try store.add(title) }
        newTodoTitle = ""
        guard !caughtUp() else { return }
        // Only the new row changes: appended (its id is the highest) when the filter shows it.
        let row = TodoItemViewModel(todo, list: self)
        rows[todo.id] = row
        rowsVisited += 1
        if filter.shows(todo) { items.append(row) }
        updateCounts()
    }

    /// Removes the completed todos, as one change.
    public func clearCompleted() throws(TodoStoreError) {
        let removed = try save { () throws(TodoStoreError) in try store.clearCompleted() }
        guard !caughtUp(), !removed.isEmpty else { return }
        for id in removed {
            rows[id]?.list = nil
            rows[id] = nil
        }
        showStore()
    }

    /// Marks every todo completed, or every one active (the mark-all checkbox), as one change.
    public func setAllCompleted(_ completed: Bool) throws(TodoStoreError) {
        let changed = try save { () throws(TodoStoreError) in try store.markAll(completed: completed) }
        guard !caughtUp(), changed else { return }
        showStore()
    }

    // MARK: From the rows and the filter

    func completedChanged(_ item: TodoItemViewModel) {
        let completed = item.completed
        let changed: Bool
        do {
            changed = try save { () throws(TodoStoreError) in try store.setCompleted(completed, id: item.id) }
        } catch {
            if let todo = store.todo(id: item.id) { item.follow(todo) }
            return
        }
        guard !caughtUp(), let todo = store.todo(id: item.id) else { return }
        rowsVisited += 1
        guard changed else {
            item.follow(todo)
            return
        }
        // Under "all" the row stays: only the counts change. Under a filter it leaves (or, for a
        // row the host still holds although the filter hid it, comes back).
        if filter != .all { place(item, showing: filter.shows(todo)) }
        updateCounts()
    }

    func rename(_ item: TodoItemViewModel, to title: String) throws(TodoStoreError) {
        let changed = try save { () throws(TodoStoreError) in try store.setTitle(title, id: item.id) }
        guard !caughtUp(), changed, let todo = store.todo(id: item.id) else { return }
        rowsVisited += 1
        item.follow(todo)
    }

    func remove(_ item: TodoItemViewModel) throws(TodoStoreError) {
        let changed = try save { () throws(TodoStoreError) in try store.remove(id: item.id) }
        guard !caughtUp(), changed else { return }
        rowsVisited += 1
        rows[item.id] = nil
        item.list = nil
        place(item, showing: false)
        updateCounts()
    }

    private func filterChanged() {
        let filter = self.filter
        do {
            _ = try save { () throws(TodoStoreError) in try store.setFilter(filter) }
        } catch {
            followFilter()
            return
        }
        guard !caughtUp() else { return }
        showStore()
    }

    // MARK: Outputs from the store

    /// Runs one change of the store. When it fails, the list shows what the store holds (with
    /// what other connections committed, if the store took that in first), `storageError` says
    /// why, and the error is rethrown; when it succeeds, `storageError` clears.
    private func save<T>(_ change: () throws(TodoStoreError) -> T) throws(TodoStoreError) -> T {
        do {
            let result = try change()
            if !storageError.isEmpty { storageError = "" }
            return result
        } catch {
            caughtUp()
            storageError = error.description
            throw error
        }
    }

    /// When the store took in other connections' commits, the whole list follows it (the
    /// host's copy follows by splices, as for any change); whether it did.
    @discardableResult
    private func caughtUp() -> Bool {
        guard store.reloads != reloadsSeen else { return false }
        reloadsSeen = store.reloads
        reconcile()
        return true
    }

    /// Rows for exactly the store's todos (new ones made, gone ones dropped), then `showStore`.
    private func reconcile() {
        var kept: [Int: TodoItemViewModel] = [:]
        kept.reserveCapacity(store.count)
        for todo in store.todos {
            rowsVisited += 1
            kept[todo.id] = rows.removeValue(forKey: todo.id) ?? TodoItemViewModel(todo, list: self)
        }
        for row in rows.values { row.list = nil }
        rows = kept
        showStore()
    }

    /// Every row follows its todo, `items` the filter, the counters the store: what changes
    /// every row (mark all, clear completed, a filter switch, a reload) pays this walk.
    private func showStore() {
        followFilter()
        var shown: [TodoItemViewModel] = []
        shown.reserveCapacity(store.count)
        for todo in store.todos {
            rowsVisited += 1
            guard let row = rows[todo.id] else { continue }
            row.follow(todo)
            if filter.shows(todo) { shown.append(row) }
        }
        items.replaceAll(with: shown)
        updateCounts()
    }

    private func followFilter() {
        following = true
        defer { following = false }
        if filter != store.filter { filter = store.filter }
    }

    /// Puts a row into `items` at its place (by id), or takes it out.
    private func place(_ row: TodoItemViewModel, showing: Bool) {
        var low = 0, high = items.count
        while low < high {
            let middle = (low + high) / 2
            rowsVisited += 1
            if items[middle].id < row.id { low = middle + 1 } else { high = middle }
        }
        let present = low < items.count && items[low] === row
        if showing && !present {
            items.insert(row, at: low)
        } else if !showing && present {
            items.remove(at: low)
        }
    }

    private func updateCounts() {
        let total = store.count, completed = store.completedCount
        if activeCount != total - completed { activeCount = total - completed }
        if completedCount != completed { completedCount = completed }
        if hasTodos != (total > 0) { hasTodos = total > 0 }
        if allCompleted != (total > 0 && completed == total) { allCompleted = total > 0 && completed == total }
    }
}
