// Lists of child view models: how a change becomes splices, the identities that tell items
// apart, and the C entry points that read a list.
import CMVVM
import MVVMRuntime

/// GListModel's items-changed(position, removed, added): at `index`, `removed` items went and
/// `inserted` came.
struct Splice: Equatable {
    let index: Int64
    let removed: Int64
    let inserted: Int64

    /// The fewest splices that turn `old` into `new`, in ascending order, each counted in the list
    /// as the ones before it left it, so the items a splice inserts are at their final indices.
    ///
    /// Items are identities, each at most once in a list, so the smallest edit keeps the longest
    /// run of items common to both in the same order (a longest increasing subsequence, found in
    /// O(n log n)), and removes and inserts the rest: what `CollectionDifference` finds, without
    /// its O(n·d) search on a filter change of thousands of items. A list holding an item twice
    /// falls back to `CollectionDifference`.
    static func between(_ old: [ObjectIdentifier], _ new: [ObjectIdentifier]) -> [Splice] {
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
                : [Splice(index: Int64(start), removed: Int64(oldEnd - start), inserted: Int64(newEnd - start))]
        }
        return middle(Array(old[start..<oldEnd]), Array(new[start..<newEnd])).map {
            Splice(index: $0.index + Int64(start), removed: $0.removed, inserted: $0.inserted)
        }
    }

    /// The splices between two lists that differ at both ends.
    private static func middle(_ old: [ObjectIdentifier], _ new: [ObjectIdentifier]) -> [Splice] {
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

    private static func fromDifference(_ old: [ObjectIdentifier], _ new: [ObjectIdentifier]) -> [Splice] {
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
    private static func walk(_ removed: [Bool], _ inserted: [Bool]) -> [Splice] {
        var splices: [Splice] = []
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
            splices.append(Splice(index: Int64(new), removed: Int64(removedCount), inserted: Int64(insertedCount)))
            old += removedCount
            new += insertedCount
        }
        return splices
    }
}

/// One int64 per Swift object for its whole life (`mvvm_object_id`), never reused: an
/// `ObjectIdentifier` is, once its object is gone, so each entry remembers its object weakly.
final class ObjectIdentity: @unchecked Sendable {
    static let shared = ObjectIdentity()

    private final class Entry {
        weak var object: AnyObject?
        let id: Int64
        init(_ object: AnyObject, _ id: Int64) {
            self.object = object
            self.id = id
        }
    }

    private let lock = PThreadLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextID: Int64 = 1
    private var sweepAt = 1024

    func id(of object: AnyObject) -> Int64 {
        lock.withLock {
            let key = ObjectIdentifier(object)
            if let entry = entries[key], entry.object === object { return entry.id }
            let id = nextID
            nextID += 1
            entries[key] = Entry(object, id)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.object != nil }
                sweepAt = max(1024, entries.count * 2)
            }
            return id
        }
    }
}

// MARK: - C entry points

private func listProperty(of object: ExportedObject, _ name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedProperty {
    let property = try object.exportedClass.property(named: name)
    guard property.items != nil else {
        throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(object.exportedClass.name.string).\(property.name.string) is "
                          + "of type \(property.type.name), not a list")
    }
    return property
}

@_cdecl("mvvm_list_count")
public func mvvm_list_count(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { object throws(ExportError) -> Int64 in
            Int64(object.listItems(try listProperty(of: object, name)).count)
        }, to: out)
    }
}

@_cdecl("mvvm_list_item")
public func mvvm_list_item(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ index: Int64,
                           _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object) { object throws(ExportError) -> mvvm_handle in
            let property = try listProperty(of: object, name)
            let items = object.listItems(property)
            guard index >= 0, index < Int64(items.count) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(object.exportedClass.name.string).\(property.name.string) "
                                  + "has \(items.count) item\(items.count == 1 ? "" : "s"): no index \(index)")
            }
            let item = items[Int(index)]
            guard let itemClass = Registry.shared.exportedClass(for: ObjectIdentifier(type(of: item)))
                ?? property.itemType.flatMap({ Registry.shared.exportedClass(for: $0) }) else {
                throw ExportError(MVVM_ERR_INTERNAL, "\(object.exportedClass.name.string).\(property.name.string) holds a "
                                  + "\(type(of: item)), which no package registers")
            }
            return ExportedObject.register(itemClass, target: item, context: object.context,
                                           keepAlive: [object.target]).handle
        }, to: out)
    }
}

@_cdecl("mvvm_object_id")
public func mvvm_object_id(_ object: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { ObjectIdentity.shared.id(of: $0.target) }, to: out)
    }
}
