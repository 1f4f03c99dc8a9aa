// The todos and the filter, kept in memory or in a SQLite database (TodoDatabase): one row per
// todo, the filter in a settings row, one transaction per change. Knows nothing of view models.
import GRDB

/// Why a store could not open its database, or could not save a change.
public struct TodoStoreError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    static let noIDLeft = TodoStoreError("no todo id is left: every id up to \(Int.max) has been given")
    static let titleHoldsNUL = TodoStoreError("a title cannot hold a NUL character (SQLite would keep only the text before it)")
}

/// The todos, in creation order (ascending ids), and the filter.
///
/// Every method that changes them saves the change (when the store has a database) before it
/// returns, in one transaction, or throws and changes nothing: what the store holds in memory is
/// always what its database holds. Before each change the store takes in what other objects or
/// processes committed to the database since it last looked (`reloads` counts those times).
/// A single change costs the change: a binary search by id, and the statement. The todos are
/// one array in id order, the only copy in memory (no index beside it: a row costs its `Todo`).
public final class TodoStore {
    /// The database's path, or nil for a store in memory.
    public let path: String?
    public private(set) var filter: TodoFilter = .all
    /// Kept as the todos change, so the counters cost nothing per change.
    public private(set) var completedCount = 0
    /// How many times the store took in changes another connection had committed: after a call
    /// that bumps it, any of the todos may differ from before the call.
    public private(set) var reloads = 0
    /// How many todos the look-ups by id have read: tests hold one change's cost to a binary
    /// search, whatever the number of todos.
    public private(set) var rowsSearched = 0

    /// Ascending ids: creation order.
    public private(set) var todos: [Todo] = []
    private var lastMemoryID = 0
    private let database: TodoDatabase?

    /// A store in memory.
    public init() {
        path = nil
        database = nil
    }

    /// The store of the database at `path`: where no file is, a new database is made; a file
    /// that is not a todo database (or not a regular file) throws and is left as it is.
    public init(path: String) throws(TodoStoreError) {
        let (database, contents) = try TodoDatabase.open(path)
        self.path = path
        self.database = database
        take(contents)
    }

    public var count: Int { todos.count }
    public var activeCount: Int { todos.count - completedCount }

    public func todo(id: Int) -> Todo? { index(of: id).map { todos[$0] } }

    /// Where the todo `id` is in `todos`, or nil.
    public func index(of id: Int) -> Int? {
        let index = insertionIndex(of: id)
        return index < todos.count && todos[index].id == id ? index : nil
    }

    /// Appends a todo titled `title` (as given: trimming is the view model's business).
    @discardableResult
    public func add(_ title: String) throws(TodoStoreError) -> Todo {
        try Self.check(title)
        let id = try change { db throws -> Int in
            guard let db else {
                guard lastMemoryID < Int.max else { throw TodoStoreError.noIDLeft }
                return lastMemoryID + 1
            }
            return try TodoDatabase.insert(title, highest: todos.last?.id ?? 0, into: db)
        }
        lastMemoryID = max(lastMemoryID, id)
        let todo = Todo(id: id, title: title)
        if let last = todos.last, last.id > id {
            todos.insert(todo, at: insertionIndex(of: id))   // not reached: a new id is the highest
        } else {
            todos.append(todo)
        }
        return todo
    }

    /// Whether anything changed (false: no such todo, or it already was so).
    @discardableResult
    public func setCompleted(_ completed: Bool, id: Int) throws(TodoStoreError) -> Bool {
        let changed = try change { db throws -> Int? in
            guard let index = index(of: id), todos[index].completed != completed else { return nil }
            try run(db, "UPDATE todo SET completed = ? WHERE id = ?", [completed, id])
            return index
        }
        guard let changed else { return false }
        todos[changed].completed = completed
        completedCount += completed ? 1 : -1
        return true
    }

    @discardableResult
    public func setTitle(_ title: String, id: Int) throws(TodoStoreError) -> Bool {
        try Self.check(title)
        let changed = try change { db throws -> Int? in
            guard let index = index(of: id), todos[index].title != title else { return nil }
            try run(db, "UPDATE todo SET title = ? WHERE id = ?", [title, id])
            return index
        }
        guard let changed else { return false }
        todos[changed].title = title
        return true
    }

    /// Where the todo was in `todos`, or nil when there was no such todo.
    @discardableResult
    public func remove(id: Int) throws(TodoStoreError) -> Int? {
        let removed = try change { db throws -> Int? in
            guard let index = index(of: id) else { return nil }
            try run(db, "DELETE FROM todo WHERE id = ?", [id])
            return index
        }
        if let removed, todos.remove(at: removed).completed { completedCount -= 1 }
        return removed
    }

    /// Marks every todo completed or not, as one change (one transaction).
    @discardableResult
    public func markAll(completed: Bool) throws(TodoStoreError) -> Bool {
        let changed = try change { db throws -> Bool in
            guard completedCount != (completed ? todos.count : 0) else { return false }
            try run(db, "UPDATE todo SET completed = ? WHERE completed <> ?", [completed, completed])
            return true
        }
        if changed {
            for index in todos.indices { todos[index].completed = completed }
            completedCount = completed ? todos.count : 0
        }
        return changed
    }

    /// Removes every completed todo, as one change; the ids it removed, in creation order.
    @discardableResult
    public func clearCompleted() throws(TodoStoreError) -> [Int] {
        let removed = try change { db throws -> [Int] in
            guard completedCount > 0 else { return [] }
            try run(db, "DELETE FROM todo WHERE completed = 1")
            return todos.compactMap { $0.completed ? $0.id : nil }
        }
        guard !removed.isEmpty else { return [] }
        todos.removeAll(where: \.completed)
        completedCount = 0
        return removed
    }

    @discardableResult
    public func setFilter(_ filter: TodoFilter) throws(TodoStoreError) -> Bool {
        let changed = try change { db throws -> Bool in
            guard self.filter != filter else { return false }
            try run(db, "INSERT INTO settings (id, filter) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET filter = excluded.filter",
                    [filter.rawValue])
            return true
        }
        if changed { self.filter = filter }
        return changed
    }

    /// GRDB binds a string as text up to its first NUL: a title holding one would be saved cut
    /// short, and read back so. Refused, in memory too, so that both stores take the same titles.
    private static func check(_ title: String) throws(TodoStoreError) {
        guard !title.utf8.contains(0) else { throw TodoStoreError.titleHoldsNUL }
    }

    /// Runs `body` as one change: in memory, or in one transaction of the database that first
    /// takes in other connections' commits. `body` gets nil for a store in memory.
    private func change<T>(_ body: (Database?) throws -> T) throws(TodoStoreError) -> T {
        guard let database else {
            do {
                return try body(nil)
            } catch let error as TodoStoreError {
                throw error
            } catch {
                throw TodoStoreError("\(error)")
            }
        }
        return try database.write { db in
            if let contents = try database.contentsIfChanged(db) {
                take(contents)
                reloads += 1
            }
            return try body(db)
        }
    }

    /// Runs one statement of a change (prepared once per connection); nothing for a store in memory.
    private func run(_ db: Database?, _ sql: String, _ arguments: StatementArguments = []) throws {
        try db?.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    private func take(_ contents: TodoDatabase.Contents) {
        todos = contents.todos   // read in id order, each id once (its primary key)
        filter = contents.filter
        completedCount = contents.todos.reduce(0) { $0 + ($1.completed ? 1 : 0) }
    }

    /// Where `id` is in `todos`, or would go.
    private func insertionIndex(of id: Int) -> Int {
        var low = 0, high = todos.count
        while low < high {
            let middle = (low + high) / 2
            rowsSearched += 1
            if todos[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
