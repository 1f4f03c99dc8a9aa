// The todos and the filter, kept in memory or in a JSON file written atomically after every
// change. Knows nothing of view models.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Why a store could not open its file.
public struct TodoStoreError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The todos, in creation order, and the filter. Every method that changes them saves them
/// (when the store has a file) before it returns.
public final class TodoStore {
    /// The file, or nil for a store in memory.
    public let path: String?
    public private(set) var todos: [Todo] = []
    public var filter: TodoFilter = .all {
        didSet { if filter != oldValue { save() } }
    }
    /// The last save's failure (a full disk, a directory gone), nil once a save succeeds.
    public private(set) var saveError: String?

    private var nextID = 1
    private var positions: [Int: Int] = [:]   // id -> index in todos

    /// A store in memory.
    public init() { path = nil }

    /// The store of the file at `path`: a missing file is an empty store; an unreadable or
    /// corrupt one throws, and is left as it is.
    public init(path: String) throws(TodoStoreError) {
        self.path = path
        guard let contents = try TodoFile.load(path) else { return }
        let saved: TodoFile.Contents
        do {
            saved = try JSONDecoder().decode(TodoFile.Contents.self, from: contents)
        } catch {
            throw TodoStoreError("\(path) is not a todo list (corrupt JSON: \(TodoFile.reason(error)))")
        }
        var seen = Set<Int>()
        for todo in saved.todos where !seen.insert(todo.id).inserted || todo.id < 1 {
            throw TodoStoreError("\(path) is not a todo list (todo id \(todo.id) is \(todo.id < 1 ? "not positive" : "repeated"))")
        }
        todos = saved.todos
        filter = saved.filter
        nextID = max(saved.nextID ?? 1, (todos.map(\.id).max() ?? 0) + 1)
        reindex()
        completedCount = todos.reduce(0) { $0 + ($1.completed ? 1 : 0) }
    }

    public var activeCount: Int { todos.count - completedCount }
    /// Kept as the todos change, so the counter costs nothing per change.
    public private(set) var completedCount = 0

    public func todo(id: Int) -> Todo? { positions[id].map { todos[$0] } }

    /// Appends a todo titled `title` (as given: trimming is the view model's business).
    @discardableResult
    public func add(_ title: String) -> Todo {
        let todo = Todo(id: nextID, title: title)
        nextID += 1
        positions[todo.id] = todos.count
        todos.append(todo)
        save()
        return todo
    }

    /// Whether anything changed.
    @discardableResult
    public func setCompleted(_ completed: Bool, id: Int) -> Bool {
        guard let index = positions[id], todos[index].completed != completed else { return false }
        todos[index].completed = completed
        completedCount += completed ? 1 : -1
        save()
        return true
    }

    @discardableResult
    public func setTitle(_ title: String, id: Int) -> Bool {
        guard let index = positions[id], todos[index].title != title else { return false }
        todos[index].title = title
        save()
        return true
    }

    @discardableResult
    public func remove(id: Int) -> Bool {
        guard let index = positions[id] else { return false }
        if todos[index].completed { completedCount -= 1 }
        todos.remove(at: index)
        reindex()
        save()
        return true
    }

    /// Marks every todo completed or not, as one change (one save).
    @discardableResult
    public func markAll(completed: Bool) -> Bool {
        guard todos.contains(where: { $0.completed != completed }) else { return false }
        for index in todos.indices { todos[index].completed = completed }
        completedCount = completed ? todos.count : 0
        save()
        return true
    }

    /// Removes every completed todo, as one change.
    @discardableResult
    public func clearCompleted() -> Bool {
        let before = todos.count
        todos.removeAll(where: \.completed)
        guard todos.count != before else { return false }
        completedCount = 0
        reindex()
        save()
        return true
    }

    private func reindex() {
        positions.removeAll(keepingCapacity: true)
        for (index, todo) in todos.enumerated() { positions[todo.id] = index }
    }

    private func save() {
        guard let path else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var data = try encoder.encode(TodoFile.Contents(filter: filter, nextID: nextID, todos: todos))
            data.append(0x0A)
            try TodoFile.writeAtomically(data, to: path)
            saveError = nil
        } catch {
            saveError = "\(error)"
        }
    }
}

/// The file: `{"filter": "all", "next_id": 3, "todos": [{"completed": false, "id": 1, "title": "…"}]}`.
enum TodoFile {
    struct Contents: Codable {
        var filter: TodoFilter
        var nextID: Int?
        var todos: [Todo]
        enum CodingKeys: String, CodingKey {
            case filter, todos
            case nextID = "next_id"
        }
    }

    /// The file's bytes; nil when there is no file.
    static func load(_ path: String) throws(TodoStoreError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw TodoStoreError("cannot read \(path): \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TodoStoreError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Writes a temporary file beside `path`, syncs it, renames it over `path` and syncs the
    /// directory: a crash at any moment leaves the old file or the new one, whole.
    static func writeAtomically(_ data: Data, to path: String) throws(TodoStoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        let ok = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
        if !ok || fsync(fd) != 0 {
            let error = failure("cannot write \(temporary)")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
        let directoryFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func failure(_ what: String) -> TodoStoreError {
        TodoStoreError("\(what): \(String(cString: strerror(errno)))")
    }

    static func reason(_ error: Error) -> String {
        switch error as? DecodingError {
        case let .dataCorrupted(context)?: return context.debugDescription
        case let .keyNotFound(key, _)?: return "no \"\(key.stringValue)\""
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?:
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
