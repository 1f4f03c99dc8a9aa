// The same view models registered by hand, as docs/export-api.md writes a registration: what the
// derived one (Exports.derived.swift) must equal, member for member (libhand.so's hook calls it).
// A module declares a conformance once: the values' conformances are the derived file's.
import Foundation
import MVVMExport
import MVVMFoundation

public func registerExpensesByHand() {
    Exports.record(Expense.self, doc: "One expense of a trip: what, how much, when, of which kind.")
    Exports.record(Place.self, doc: "A place on the map.") { r in
        r.field("name", \.name)
        r.field("latitude", \.latitude)
        r.field("longitude", \.longitude)
        r.make { f in Place(name: try f.value("name"), latitude: try f.value("latitude"), longitude: try f.value("longitude")) }
    }
    Exports.record(ScanResult.self, doc: "What a receipt said.") { r in
        r.field("merchant", \.merchant)
        r.field("total", \.total)
        r.field("lines", \.lines)
        r.make { f in ScanResult(merchant: try f.value("merchant"), total: try f.value("total"), lines: try f.value("lines")) }
    }
    Exports.register(ExpenseListViewModel.self, doc: "The expenses of a trip, filtered by category and searched by title.") { c in
        c.output("expenses", \.expenses, \.$expenses, doc: "Every expense, in the order they were added.")
        c.binding("filter", \.filter, \.$filter, doc: "Which category the list shows; none shows all.")
        c.binding("search_text", \.searchText, \.$searchText, doc: "What the search field holds.")
        c.output("is_syncing", \.isSyncing, \.$isSyncing, doc: "Whether a sync is under way.")
        c.binding("error_message", \.errorMessage, \.$errorMessage, doc: "The last error, for a banner.")
        c.binding("selection", \.selection, \.$selection, doc: "The selected expense.")
        c.list("rows", \.rows, \.$rows, doc: "The rows the list shows.")
        c.child("summary", doc: "The totals above the list.") { $0.summary }
        c.signal("expense_added", doc: "Sent with each expense added.") { $0.expenseAdded }
        c.signal("status_messages", doc: "Lines for a toast.") { $0.statusMessages }
        c.signal("on_delete", \.onDelete, doc: "Called with the id of each expense deleted.")
        c.output("total", \.total, doc: "The total of the expenses shown.")
        c.output("visible_count", \.visibleCount, doc: "How many expenses the list shows.")
        c.command("add", doc: "Adds an expense and gives it; a blank title is refused.",
                  .value("title"), .value("amount"), .value("category"), .value("on")) {
            (list, title: String, amount: Decimal, category: Category, date: Date) in
            try list.add(title: title, amount: amount, category: category, on: date)
        }
        c.command("delete", doc: "Removes the expense `id`.", .value("id")) { (list, id: UUID) in try list.delete(id: id) }
        c.asyncCommand("sync", doc: "Sends the expenses to the server; gives how many it sent.") { try await $0.sync() }
        c.constructor { _ in ExpenseListViewModel() }
        c.constructor(suffix: "expenses", .value("expenses")) { (_, expenses: [Expense]) in
            ExpenseListViewModel(expenses: expenses)
        }
    }
    Exports.register(ExpenseRowViewModel.self, doc: "One row of the expense list.") { c in
        c.output("id", \.id, doc: "The expense's id.")
        c.output("title", \.title, \.$title, doc: "What the expense was.")
        c.output("amount_text", \.amountText, \.$amountText, doc: "The amount as the row shows it.")
        c.binding("is_flagged", \.isFlagged, \.$isFlagged, doc: "Flagged for a second look.")
        c.signal("on_delete_tapped", \.onDeleteTapped, doc: "Called when the row's delete button is tapped.")
        c.command("toggle_flag", doc: "Flags the row, or unflags it.") { $0.toggleFlag() }
        c.command("delete_tapped", doc: "The row's delete button.") { $0.deleteTapped() }
        c.constructor(.value("expense")) { (_, expense: Expense) in ExpenseRowViewModel(expense: expense) }
    }
    Exports.register(SummaryViewModel.self, doc: "How much was spent, against the budget.") { c in
        c.binding("budget", \.budget, \.$budget, doc: "The trip's budget.")
        c.output("spent", \.spent, \.$spent, doc: "What was spent so far.")
        c.output("remaining", \.remaining, doc: "What is left of the budget.")
        c.output("is_over_budget", \.isOverBudget, doc: "Whether spending went over the budget.")
        c.command("update", doc: "Shows a new total spent.", .value("spent")) { (summary, spent: Decimal) in
            summary.update(spent: spent)
        }
        c.constructor { _ in SummaryViewModel() }
    }
    Exports.register(ReceiptScannerViewModel.self, doc: "Reads a receipt's text into a result.") { c in
        c.output("progress", \.progress, \.$progress, doc: "How far the last scan got, from 0 to 1.")
        c.output("result", \.result, \.$result, doc: "What the last scan found.")
        c.command("scan", doc: "Scans `text`, a merchant on the first line and a total on the last; gives how many lines it read.",
                  .value("text")) { (scanner, text: String) in scanner.scan(text) }
        c.constructor { _ in ReceiptScannerViewModel() }
    }
    Exports.register(SettingsViewModel.self, doc: "The app's settings.", isolation: .mainActor) { c in
        c.binding("currency", \.currency, \.$currency, doc: "The currency amounts are shown in.")
        c.binding("reminders_enabled", \.remindersEnabled, \.$remindersEnabled, doc: "Whether reminders are on.")
        c.binding("reminder_priority", \.reminderPriority, \.$reminderPriority, doc: "Which expenses raise a reminder.")
        c.output("last_synced", \.lastSynced, \.$lastSynced, doc: "When the settings were last synced.")
        c.binding("server_url", \.serverURL, \.$serverURL, doc: "The server the app syncs with.")
        c.output("summary", \.summary, doc: "A line for the settings' header.")
        c.command("reset", doc: "Puts every setting back as it was.") { $0.reset() }
        c.asyncCommand("sync", doc: "Syncs the settings; gives whether the server had newer ones.") { await $0.sync() }
        c.constructor { _ in SettingsViewModel() }
    }
    Exports.register(TripPlannerViewModel.self, doc: "Plans a trip: where, when, for how long, for how much.") { c in
        c.output("id", \.id, doc: "The trip's id.")
        c.binding("destination", \.destination, doc: "Where the trip goes.")
        c.binding("start_date", \.startDate, doc: "The first day.")
        c.binding("nights", \.nights, doc: "How many nights.")
        c.binding("budget", \.budget, doc: "What the trip may cost.")
        c.binding("place", \.place, doc: "Where it is on the map, once chosen.")
        c.output("confirmations", \.confirmations, doc: "Bookings made so far.")
        c.output("is_valid", \.isValid, doc: "Whether the trip can be booked.")
        c.output("summary", \.summary, doc: "\"Lisbon, 3 nights\".")
        c.output("end_date", \.endDate, doc: "The day the trip ends.")
        c.command("add_night", doc: "One more night.") { $0.addNight() }
        c.asyncCommand("book", doc: "Books the trip; gives its confirmation.") { try await $0.book() }
        c.constructor { _ in TripPlannerViewModel() }
        c.constructor(suffix: "destination", doc: "A trip to `destination` of `nights` nights.",
                      .value("destination"), .value("nights")) { (_, destination: String, nights: Int) in
            TripPlannerViewModel(destination: destination, nights: nights)
        }
    }
}
