// The todo list screen (TodoMVC): the new-todo field, the rows the filter shows, the counter,
// mark all, the filters and clear completed.
//
// A change of one todo costs the change, not the list: the store's binary search by id, a binary
// search of `items` (ascending ids) when a row comes or goes, and the counters the store keeps.
// Only what changes every row walks them: mark all, clear completed, a filter switch, and changes
// another object or process committed to the database (taken in by the store before the next
// change).
//
// Its properties are plain stored and computed ones, announced through `objectWillChange` before
// each change, as SwiftUI's manual `ObservableObject`s are: the library reads the ones a host
// watches once an operation is complete. (`@Published` would cost more than the rest of an add:
// OpenCombine's setter projects key paths at run time, and the field is set twice per add.)
@preconcurrency import OpenCombine
import MVVMRuntime
import TodoModels

/// A TodoMVC todo list, saved in a SQLite database.
public final class TodoListViewModel: ObservableObject {
    public let objectWillChange = ObservableObjectPublisher()
    /// The new-todo field; the view binds it.
    public var newTodoTitle = "" { willSet { objectWillChange.send() } }
    // A list that records its own edits (ascending ids), so a row added, toggled out or destroyed
    // is announced as that splice alone.
    /// The todos the filter shows, in creation order.
    public let items = SpliceList<TodoItemViewModel>()
    // The view binds it. Saved with the todos; when the save fails it holds the stored filter again.
    /// Which todos items shows.
    public var filter: TodoFilter {
        willSet { objectWillChange.send() }
        didSet { if filter != oldValue && !following { filterChanged() } }
    }
    // The counters are the store's, computed when read: a change that moves them tells
    // objectWillChange (`countsChanged`).
    public var activeCount: Int { store.activeCount }
    public var completedCount: Int { store.completedCount }
    /// "1 item left", "2 items left".
    public var itemsLeft: String { "\(activeCount) item\(activeCount == 1 ? "" : "s") left" }
    // A change that fails is not shown: the view model holds what the store holds.
    /// Why the last change could not be saved (it is not shown); "" once a change is saved.
    public private(set) var storageError = "" { willSet { objectWillChange.send() } }
    // The mark-all checkbox; a set that cannot be saved changes nothing (storageError says why).
    /// True iff every todo is completed (and there is one); setting it marks every todo so.
    public var allCompleted: Bool {
        get { hasTodos && activeCount == 0 }
        set { try? setAllCompleted(newValue) }
    }
    public var hasTodos: Bool { store.count > 0 }
    public var isClearCompletedVisible: Bool { completedCount > 0 }

    private let store: TodoStore
    /// One row per todo, shown or not, in the store's order: `rows[i]` shows `store.todos[i]`.
    private var rows: [TodoItemViewModel] = []
    private var reloadsSeen: Int
    /// Set while the list follows the store: those changes are not the user's to save.
    private var following = false
    /// Rows the bookkeeping has read or compared (a row of the store or of `items`, the store's
    /// own look-ups included): tests hold one change to a count that does not follow the list's
    /// length.
    var rowsVisited: Int { visited + store.rowsSearched }
    private var visited = 0

    public init(store: TodoStore = TodoStore()) {
        self.store = store
        filter = store.filter
        reloadsSeen = store.reloads
        reconcile()
    }

    /// The todos of the SQLite database at `storage_path` ("": in memory only): where no file is,
    /// a new database is made; a path that is not a regular file, or a file that is not a todo
    /// database, is refused and left untouched.
    public convenience init(storagePath: String) throws(TodoStoreError) {
        if storagePath.isEmpty {
            self.init()
        } else {
            self.init(store: try TodoStore(path: storagePath))
        }
    }

    /// Adds new_todo_title, trimmed, and clears it; a blank title adds nothing. When the todo
    /// cannot be saved the title stays, and the command fails.
    public func add() throws(TodoStoreError) {
        let title = newTodoTitle.trimmingWhitespace()
        guard !title.isEmpty else { return }
        let todo = try save { () throws(TodoStoreError) in try store.add(title) }
        newTodoTitle = ""
        guard !caughtUp() else { return }
        // Only the new row changes: appended (its id is the highest) when the filter shows it.
        let row = TodoItemViewModel(todo, list: self)
        visited += 1
        if let last = rows.last, last.id > todo.id {
            rows.insert(row, at: store.index(of: todo.id)!)   // not reached: a new id is the highest
        } else {
            rows.append(row)
        }
        if filter.shows(todo) { items.append(row) }
        countsChanged()
    }

    /// Removes the completed todos; fails when that cannot be saved.
    public func clearCompleted() throws(TodoStoreError) {
        let removed = try save { () throws(TodoStoreError) in try store.clearCompleted() }
        guard !caughtUp(), !removed.isEmpty else { return }
        reconcile()
    }

    /// Marks every todo completed, or every one active (the mark-all checkbox), as one change.
    func setAllCompleted(_ completed: Bool) throws(TodoStoreError) {
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
        guard !caughtUp() else { return }
        guard changed else {
            // The todo is gone, or already was so: the row shows what the store holds.
            if let todo = store.todo(id: item.id) { item.follow(todo) }
            return
        }
        // Under "all" the row stays: only the counts change. Under a filter it leaves (or, for a
        // row the host still holds although the filter hid it, comes back).
        if filter != .all { place(item, showing: filter.shows(completed: completed)) }
        countsChanged()
    }

    func rename(_ item: TodoItemViewModel, to title: String) throws(TodoStoreError) {
        let changed = try save { () throws(TodoStoreError) in try store.setTitle(title, id: item.id) }
        guard !caughtUp(), changed else { return }
        item.follow(title: title)
    }

    func remove(_ item: TodoItemViewModel) throws(TodoStoreError) {
        let removedAt = try save { () throws(TodoStoreError) in try store.remove(id: item.id) }
        guard !caughtUp(), let removedAt else { return }
        visited += 1
        assert(rows[removedAt] === item, "rows[i] shows store.todos[i]")
        rows.remove(at: removedAt)
        item.list = nil
        place(item, showing: false)
        countsChanged()
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

    /// Rows for exactly the store's todos (new ones made, gone ones dropped), then `showStore`:
    /// one walk of both, in their common order (ascending ids).
    private func reconcile() {
        var kept: [TodoItemViewModel] = []
        kept.reserveCapacity(store.count)
        var old = rows.startIndex
        for todo in store.todos {
            visited += 1
            while old < rows.endIndex && rows[old].id < todo.id {
                rows[old].list = nil
                old += 1
            }
            if old < rows.endIndex && rows[old].id == todo.id {
                kept.append(rows[old])
                old += 1
            } else {
                kept.append(TodoItemViewModel(todo, list: self))
            }
        }
        for row in rows[old...] { row.list = nil }
        rows = kept
        showStore()
    }

    /// Every row follows its todo, `items` the filter, the counters the store: what changes
    /// every row (mark all, clear completed, a filter switch, a reload) pays this walk.
    private func showStore() {
        followFilter()
        var shown: [TodoItemViewModel] = []
        shown.reserveCapacity(store.count)
        let filter = self.filter
        for (todo, row) in zip(store.todos, rows) {
            visited += 1
            row.follow(todo)
            if filter.shows(todo) { shown.append(row) }
        }
        items.replaceAll(with: shown)
        countsChanged()
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
            visited += 1
            if items[middle].id < row.id { low = middle + 1 } else { high = middle }
        }
        let present = low < items.count && items[low] === row
        if showing && !present {
            items.insert(row, at: low)
        } else if !showing && present {
            items.remove(at: low)
        }
    }

    private func countsChanged() { objectWillChange.send() }
}
