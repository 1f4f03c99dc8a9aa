// How a list's change is told: as splices, GListModel's items-changed(position, removed,
// added). A change is one or more splices in ascending order of position, each counted in the
// list as the splices before it left it: applying them in order to a copy of the old list gives
// the new one, and the items a splice inserts are at their final positions.

/// At `index`, `removed` items went and `inserted` came.
public struct ListSplice: Equatable, Sendable, CustomStringConvertible {
    public let index: Int
    public let removed: Int
    public let inserted: Int

    public init(index: Int, removed: Int, inserted: Int) {
        self.index = index
        self.removed = removed
        self.inserted = inserted
    }

    public var description: String { "(\(index), -\(removed), +\(inserted))" }
}

/// The fewest splices between two lists of identities, found by comparing them: for a list kept
/// as a plain array, and for ``SpliceList/replaceAll(with:)``.
public enum ListDifference {
    /// The fewest splices that turn `old` into `new`.
    ///
    /// Items are identities, each at most once in a list, so the smallest edit keeps the longest
    /// run of items common to both in the same order (a longest increasing subsequence, found in
    /// O(n log n)), and removes and inserts the rest: what `CollectionDifference` finds, without
    /// its O(n·d) search on a filter change of thousands of items. A list holding an item twice
    /// falls back to `CollectionDifference`.
    public static func splices(from old: [ObjectIdentifier], to new: [ObjectIdentifier]) -> [ListSplice] {
        changes(from: old, to: new).map(\.splice)
    }

    /// The same splices, each with the position in `old` of the first item it removes.
    public static func changes(from old: [ObjectIdentifier], to new: [ObjectIdentifier])
        -> [(splice: ListSplice, oldStart: Int)] {
        // The common start and end cost a comparison each: an append, a removal or an edit in
        // one place is found without hashing the whole list.
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var oldEnd = old.count, newEnd = new.count
        while oldEnd > start, newEnd > start, old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        if start == oldEnd || start == newEnd {
            return start == oldEnd && start == newEnd ? []
                : [(ListSplice(index: start, removed: oldEnd - start, inserted: newEnd - start), start)]
        }
        return middle(Array(old[start..<oldEnd]), Array(new[start..<newEnd])).map {
            (ListSplice(index: $0.splice.index + start, removed: $0.splice.removed, inserted: $0.splice.inserted),
             $0.oldStart + start)
        }
    }

    /// The splices between two lists that differ at both ends.
    private static func middle(_ old: [ObjectIdentifier], _ new: [ObjectIdentifier]) -> [(splice: ListSplice, oldStart: Int)] {
        var removed = [Bool](repeating: true, count: old.count)
        var inserted = [Bool](repeating: true, count: new.count)
        var newIndex: [ObjectIdentifier: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (index, item) in new.enumerated() { newIndex[item] = index }
        if newIndex.count != new.count || Set(old).count != old.count {
            return fromDifference(old, new)
        }
        // The old positions of items still there, by their new positions.
        var common: [(old: Int, new: Int)] = []
        for (index, item) in old.enumerated() {
            if let at = newIndex[item] { common.append((index, at)) }
        }
        for kept in longestIncreasingRun(common) {
            removed[kept.old] = false
            inserted[kept.new] = false
        }
        return walk(removed, inserted)
    }

    /// The subsequence of `pairs` (in old order) whose new positions increase, longest.
    private static func longestIncreasingRun(_ pairs: [(old: Int, new: Int)]) -> [(old: Int, new: Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []              // tails[k]: index in pairs ending a run of length k+1
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if pairs[tails[middle]].new < pair.new { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [(old: Int, new: Int)] = []
        var index = tails.last!
        while index >= 0 {
            run.append(pairs[index])
            index = previous[index]
        }
        return run.reversed()
    }

    private static func fromDifference(_ old: [ObjectIdentifier], _ new: [ObjectIdentifier])
        -> [(splice: ListSplice, oldStart: Int)] {
        var removed = [Bool](repeating: false, count: old.count)
        var inserted = [Bool](repeating: false, count: new.count)
        for change in new.difference(from: old) {
            switch change {
            case let .remove(offset, _, _): removed[offset] = true
            case let .insert(offset, _, _): inserted[offset] = true
            }
        }
        return walk(removed, inserted)
    }

    /// Walks both lists: a kept item advances both; a run of removals and the run of insertions
    /// at the same place make one splice.
    private static func walk(_ removed: [Bool], _ inserted: [Bool]) -> [(splice: ListSplice, oldStart: Int)] {
        var splices: [(splice: ListSplice, oldStart: Int)] = []
        var old = 0, new = 0
        while old < removed.count || new < inserted.count {
            let removes = old < removed.count && removed[old]
            let inserts = new < inserted.count && inserted[new]
            guard removes || inserts else {
                old += 1
                new += 1
                continue
            }
            var removedCount = 0, insertedCount = 0
            while old + removedCount < removed.count && removed[old + removedCount] { removedCount += 1 }
            while new + insertedCount < inserted.count && inserted[new + insertedCount] { insertedCount += 1 }
            splices.append((ListSplice(index: new, removed: removedCount, inserted: insertedCount), old))
            old += removedCount
            new += insertedCount
        }
        return splices
    }
}

/// Composes a list's edits, made one after another, into the one change they amount to: the
/// fewest ascending splices, each with the items it removes (of the list as it was before the
/// first edit). Each edit costs the number of splices recorded so far, not the list's length: an
/// edit in one place, the usual change, is one splice.
public struct ListChangeRecorder {
    /// A run of the new list that replaces a run of the old one.
    private struct Segment {
        /// Where the run starts in the list as it now is.
        var start: Int
        /// How many items of the new list it holds (all inserted), and which old items it
        /// replaced, in order.
        var inserted: Int
        var removed: [AnyObject]
    }

    /// Ascending, disjoint, never touching: two that touch are one.
    private var segments: [Segment] = []

    public init() {}

    public var isEmpty: Bool { segments.isEmpty }

    /// Records an edit of the list as it now is: at `index`, `removed` go and `inserted` come.
    public mutating func record(at index: Int, removing removed: [AnyObject], inserting inserted: Int) {
        let end = index + removed.count
        // The segments the edit touches: those ending at or after `index` and starting at or
        // before `end` (touching ones merge, so the result stays the fewest splices).
        var first = segments.count
        for (position, segment) in segments.enumerated() where segment.start + segment.inserted >= index {
            first = position
            break
        }
        var last = first
        while last < segments.count, segments[last].start <= end { last += 1 }
        let delta = inserted - removed.count
        guard first < last else {
            // Touches none: a segment of its own; those after it move.
            for position in first..<segments.count { segments[position].start += delta }
            segments.insert(Segment(start: index, inserted: inserted, removed: removed), at: first)
            dropIfEmpty(first)
            return
        }
        // Merged: from the first touched segment's start (or the edit's) to the last's end.
        var merged = Segment(start: min(index, segments[first].start), inserted: 0, removed: [])
        var cursor = merged.start            // position in the list as it now is
        var removing = 0                     // how far into `removed` the walk is
        for position in first..<last {
            let segment = segments[position]
            // The old items between the cursor and this segment: kept unless the edit removes them.
            while cursor < segment.start {
                if cursor >= index && cursor < end { merged.removed.append(removed[removing]); removing += 1 }
                else { merged.inserted += 1 } // an old item kept inside the merged run: replaced by itself
                cursor += 1
            }
            merged.removed += segment.removed
            // The segment's inserted items: those the edit removes are gone, the rest stay.
            for offset in 0..<segment.inserted {
                let at = segment.start + offset
                if at >= index && at < end { removing += 1 } else { merged.inserted += 1 }
            }
            cursor = segment.start + segment.inserted
        }
        // The edit's old items after the last segment.
        while cursor < end {
            merged.removed.append(removed[removing])
            removing += 1
            cursor += 1
        }
        merged.inserted += inserted
        segments.replaceSubrange(first..<last, with: [merged])
        for position in first + 1..<segments.count { segments[position].start += delta }
        dropIfEmpty(first)
    }

    private mutating func dropIfEmpty(_ position: Int) {
        if segments[position].inserted == 0 && segments[position].removed.isEmpty { segments.remove(at: position) }
    }

    /// The change recorded so far, and each splice's removed items; the recorder is empty after.
    public mutating func take() -> [(splice: ListSplice, removed: [AnyObject])] {
        defer { segments = [] }
        return segments.map { (ListSplice(index: $0.start, removed: $0.removed.count, inserted: $0.inserted), $0.removed) }
    }
}
