// The todo view models' own bookkeeping costs the edit, not the list: one add, toggle, rename
// and destroy visit two binary searches' worth of rows (the store's look-up by id, and the place
// in `items`) at 1,000, 10,000 and 100,000 todos. Counted, not timed: `rowsVisited` counts each
// row of the store or of `items` the bookkeeping reads or compares, the store's look-ups included.
import Testing
import TodoModels
@testable import TodoViewModels

@Suite struct BookkeepingTests {
    @Test(arguments: [1_000, 10_000, 100_000])
    func oneChangeVisitsTwoBinarySearchesOfRows(count: Int) throws {
        let store = TodoStore()
        for n in 0..<count { try store.add("todo \(n)") }
        let list = TodoListViewModel(store: store)
        // Under "active" a toggle takes its row out of `items`: the most a single change does.
        list.filter = .active
        #expect(list.items.count == count)
        var log2 = 0
        while 1 << log2 < count { log2 += 1 }
        let bound = 2 * (log2 + 1) + 4
        func visits(_ change: () throws -> Void) rethrows -> Int {
            let before = list.rowsVisited
            try change()
            return list.rowsVisited - before
        }

        let added = try visits {
            list.newTodoTitle = "one more"
            try list.add()
        }
        let toggled = list.items[count / 2]
        let toggle = visits { toggled.completed = true }
        let renamed = list.items[count / 3]
        let rename = try visits {
            renamed.beginEdit()
            renamed.editText = "renamed"
            try renamed.commitEdit()
        }
        let destroyed = list.items[count / 4]
        let destroy = try visits { try destroyed.destroy() }
        #expect(added <= bound, "add visited \(added) rows of \(count)")
        #expect(toggle <= bound, "toggle visited \(toggle) rows of \(count)")
        #expect(rename <= bound, "rename visited \(rename) rows of \(count)")
        #expect(destroy <= bound, "destroy visited \(destroy) rows of \(count)")

        // And the list is what those changes make it.
        #expect(list.items.count == count - 1)
        #expect(!list.items.contains { $0 === toggled || $0 === destroyed })
        #expect(renamed.title == "renamed")
        #expect(list.items.last?.title == "one more")
        #expect(list.activeCount == count - 1 && list.completedCount == 1)
        #expect(zip(list.items, list.items.dropFirst()).allSatisfy { $0.id < $1.id })
    }
}
