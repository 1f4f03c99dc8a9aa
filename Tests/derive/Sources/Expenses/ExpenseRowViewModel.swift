// A row of the expense list, and the totals strip above it.
import Foundation
import MVVMCombine           // where Apple's code says `import Combine`

/// One row of the expense list.
public final class ExpenseRowViewModel: ObservableObject {
    /// The expense's id.
    public let id: UUID
    /// What the expense was.
    @Published public private(set) var title: String
    /// The amount as the row shows it.
    @Published public private(set) var amountText: String
    /// Flagged for a second look.
    @Published public var isFlagged = false
    /// Called when the row's delete button is tapped.
    public var onDeleteTapped: (() -> Void)?

    init(expense: Expense) {
        id = expense.id
        title = expense.title
        amountText = "\(expense.amount)"
    }

    /// Flags the row, or unflags it.
    public func toggleFlag() { isFlagged.toggle() }

    /// The row's delete button.
    public func deleteTapped() { onDeleteTapped?() }
}

/// How much was spent, against the budget.
public final class SummaryViewModel: ObservableObject {
    /// The trip's budget.
    @Published public var budget: Decimal = 500
    /// What was spent so far.
    @Published public private(set) var spent: Decimal = 0
    /// What is left of the budget.
    public var remaining: Decimal { budget - spent }
    /// Whether spending went over the budget.
    public var isOverBudget: Bool { spent > budget }

    public init() {}

    /// Shows a new total spent.
    func update(spent: Decimal) { self.spent = spent }
}
