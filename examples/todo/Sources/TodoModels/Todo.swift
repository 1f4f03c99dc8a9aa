// The todo app's model values: a todo, and which todos a view shows.

/// One todo. `id` is the store's, unique for the store's life (never reused, across reloads and
/// across the objects and processes sharing one database too); ids ascend in creation order.
public struct Todo: Equatable, Sendable {
    public let id: Int
    public var title: String
    public var completed: Bool

    public init(id: Int, title: String, completed: Bool = false) {
        self.id = id
        self.title = title
        self.completed = completed
    }
}

/// Which todos a list shows (TodoMVC's #/, #/active, #/completed).
public enum TodoFilter: String, CaseIterable, Sendable {
    case all, active, completed

    public func shows(_ todo: Todo) -> Bool { shows(completed: todo.completed) }

    /// Whether a todo that is `completed` or not shows.
    public func shows(completed: Bool) -> Bool {
        switch self {
        case .all: return true
        case .active: return !completed
        case .completed: return completed
        }
    }
}
