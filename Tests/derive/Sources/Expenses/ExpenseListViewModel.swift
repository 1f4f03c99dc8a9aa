// The expense list screen: Combine state, computed totals, rows, a summary child, events.
import Foundation
import MVVMCombine           // where Apple's code says `import Combine`

/// The expenses of a trip, filtered by category and searched by title.
public final class ExpenseListViewModel: ObservableObject {
    /// Every expense, in the order they were added.
    @Published public private(set) var expenses: [Expense] = []
    /// Which category the list shows; none shows all.
    @Published public var filter: Category? { didSet { refreshRows() } }
    /// What the search field holds.
    @Published public var searchText = "" { didSet { refreshRows() } }
    /// Whether a sync is under way.
    @Published public private(set) var isSyncing = false
    /// The last error, for a banner.
    @Published public var errorMessage: String?
    /// The selected expense.
    @Published public var selection: UUID?
    /// The rows the list shows.
    @Published public private(set) var rows: [ExpenseRowViewModel] = []
    /// The totals above the list.
    public let summary = SummaryViewModel()
    /// Sent with each expense added.
    public let expenseAdded = PassthroughSubject<Expense, Never>()
    /// Lines for a toast.
    public let statusMessages: AnyPublisher<String, Never>
    /// Called with the id of each expense deleted.
    public var onDelete: ((UUID) -> Void)?
    /// The total of the expenses shown.
    public var total: Decimal { visibleExpenses.reduce(0) { $0 + $1.amount } }
    /// How many expenses the list shows.
    public var visibleCount: Int { visibleExpenses.count }
    /// The totals of each category, for a chart.
    public var totalsByCategory: [Category: Decimal] {
        Dictionary(grouping: expenses, by: \.category).mapValues { $0.reduce(0) { $0 + $1.amount } }
    }
    let dateFormatter = DateFormatter()

    private let status = PassthroughSubject<String, Never>()
    private var nextID = 1
    private var visibleExpenses: [Expense] {
        expenses.filter { expense in
            (filter == nil || expense.category == filter)
                && (searchText.isEmpty || expense.title.localizedCaseInsensitiveContains(searchText))
        }
    }
    private var subscriptions: Set<AnyCancellable> = []

    public init() {
        statusMessages = status.eraseToAnyPublisher()
    }

    public convenience init(expenses: [Expense]) {
        self.init()
        self.expenses = expenses
        refreshRows()
    }

    /// Adds an expense and gives it; a blank title is refused.
    @discardableResult
    public func add(title: String, amount: Decimal, category: Category, on date: Date) throws -> Expense {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw ExpenseError.emptyTitle }
        let expense = Expense(id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", nextID))!,
                              title: title, amount: amount, date: date, category: category)
        nextID += 1
        expenses.append(expense)
        refreshRows()
        expenseAdded.send(expense)
        return expense
    }

    /// Removes the expense `id`.
    public func delete(id: UUID) throws {
        guard let index = expenses.firstIndex(where: { $0.id == id }) else { throw ExpenseError.notFound(id) }
        expenses.remove(at: index)
        if selection == id { selection = nil }
        refreshRows()
        onDelete?(id)
    }

    /// Sends the expenses to the server; gives how many it sent.
    public func sync() async throws -> Int {
        isSyncing = true
        defer { isSyncing = false }
        await Task.yield()
        guard searchText != "offline" else {
            errorMessage = ExpenseError.offline.description
            throw ExpenseError.offline
        }
        errorMessage = nil
        status.send("synced \(expenses.count)")
        return expenses.count
    }

    /// The expenses sorted by any of their fields.
    public func sorted<Key: Comparable>(by key: KeyPath<Expense, Key>) -> [Expense] {
        expenses.sorted { $0[keyPath: key] < $1[keyPath: key] }
    }

    /// Runs `body` when an expense is next added.
    public func whenAdded(_ body: @escaping (Expense) -> Void) {
        expenseAdded.first().sink(receiveValue: body).store(in: &subscriptions)
    }

    private func refreshRows() {
        let shown = visibleExpenses
        rows = shown.map { expense in
            let row = rows.first { $0.id == expense.id } ?? ExpenseRowViewModel(expense: expense)
            row.onDeleteTapped = { [weak self] in try? self?.delete(id: expense.id) }
            return row
        }
        summary.update(spent: expenses.reduce(0) { $0 + $1.amount })
    }
}
