/// One piece of work scheduled on a loop: run once, or every `interval` until cancelled.
final class ScheduledWork: @unchecked Sendable {
    // The action is only ever run by the thread that holds the loop's work lock.
    let action: () -> Void
    let interval: Int64?
    // Guarded by the loop's state lock.
    var isCancelled = false

    init(action: @escaping () -> Void, interval: Int64?) {
        self.action = action
        self.interval = interval
    }
}

/// Work ordered by due time, then by the order it was scheduled, so work due at the same
/// instant runs in scheduling order.
struct WorkQueue {
    struct Entry {
        let due: Int64
        let sequence: UInt64
        let work: ScheduledWork

        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The entry that runs next, if any.
    var first: Entry? { heap.first }

    mutating func insert(_ work: ScheduledWork, due: Int64) {
        heap.append(Entry(due: due, sequence: nextSequence, work: work))
        nextSequence &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    /// Empties the queue, handing back the work so it is released outside any lock.
    mutating func removeAll() -> [Entry] {
        defer { heap = [] }
        return heap
    }
}
