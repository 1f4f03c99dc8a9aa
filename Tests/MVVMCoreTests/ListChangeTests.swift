import MVVMRuntime
import Testing

/// An item of a test list: its identity is all that matters.
private final class Item: CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { name }
}

/// Applies splices, in order, to a copy of `old`, taking inserted items from `new` (where a
/// splice's inserted items are, since each is counted in the list as the ones before left it).
private func apply(_ splices: [ListSplice], to old: [Item], inserting new: [Item]) -> [Item] {
    var list = old
    for splice in splices {
        list.replaceSubrange(splice.index..<splice.index + splice.removed,
                             with: new[splice.index..<splice.index + splice.inserted])
    }
    return list
}

/// Splices that are ascending and apart (none touches the next): what a change is told as.
private func isAscendingAndApart(_ splices: [ListSplice]) -> Bool {
    zip(splices, splices.dropFirst()).allSatisfy { $0.index + $0.inserted < $1.index }
}

/// A deterministic generator, so that a failing case repeats.
private struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct ListDifferenceTests {
    @Test func anEditInOnePlaceIsOneSplice() {
        let items = (0..<6).map { Item("\($0)") }
        let ids = items.map(ObjectIdentifier.init)
        let appended = ids + [ObjectIdentifier(Item("x"))]
        #expect(ListDifference.splices(from: ids, to: appended) == [ListSplice(index: 6, removed: 0, inserted: 1)])
        var removed = ids
        removed.remove(at: 2)
        #expect(ListDifference.splices(from: ids, to: removed) == [ListSplice(index: 2, removed: 1, inserted: 0)])
        #expect(ListDifference.splices(from: ids, to: ids).isEmpty)
    }

    @Test func aReorderIsTheFewestSplicesAndRebuildsTheList() {
        var generator = Generator(state: 7)
        for _ in 0..<200 {
            let old = (0..<Int.random(in: 0..<30, using: &generator)).map { Item("\($0)") }
            var new = old.filter { _ in Bool.random(using: &generator) }
            new.shuffle(using: &generator)
            new.insert(contentsOf: (0..<Int.random(in: 0..<4, using: &generator)).map { Item("n\($0)") },
                       at: Int.random(in: 0...new.count, using: &generator))
            let changes = ListDifference.changes(from: old.map(ObjectIdentifier.init), to: new.map(ObjectIdentifier.init))
            let splices = changes.map(\.splice)
            #expect(apply(splices, to: old, inserting: new).map(ObjectIdentifier.init) == new.map(ObjectIdentifier.init))
            #expect(isAscendingAndApart(splices))
            // Each splice's old start names the old items it removes, in the old list.
            var shift = 0
            for change in changes {
                #expect(change.oldStart == change.splice.index - shift)
                shift += change.splice.inserted - change.splice.removed
            }
        }
    }
}

@Suite struct ListChangeRecorderTests {
    /// Random edits of a list, recorded as they are made: the recorder's splices turn the list as
    /// it was into the list as it is, ascending and apart, each with the old items it removes.
    @Test func editsComposeIntoTheChangeTheyAmountTo() {
        var generator = Generator(state: 42)
        for round in 0..<500 {
            let original = (0..<Int.random(in: 0..<12, using: &generator)).map { Item("o\($0)") }
            var list = original
            var recorder = ListChangeRecorder()
            for edit in 0..<Int.random(in: 1..<8, using: &generator) {
                let index = Int.random(in: 0...list.count, using: &generator)
                let removed = Int.random(in: 0...min(3, list.count - index), using: &generator)
                let inserted = (0..<Int.random(in: 0..<3, using: &generator)).map { Item("r\(round)e\(edit)i\($0)") }
                recorder.record(at: index, removing: Array(list[index..<index + removed]), inserting: inserted.count)
                list.replaceSubrange(index..<index + removed, with: inserted)
            }
            let change = recorder.take()
            let splices = change.map(\.splice)
            #expect(apply(splices, to: original, inserting: list).map(ObjectIdentifier.init) == list.map(ObjectIdentifier.init))
            #expect(isAscendingAndApart(splices))
            #expect(recorder.isEmpty)
            // The removed items are the old ones at each splice's place.
            var shift = 0
            for (splice, removed) in change {
                let oldStart = splice.index - shift
                #expect(removed.map(ObjectIdentifier.init) == original[oldStart..<oldStart + splice.removed].map(ObjectIdentifier.init))
                shift += splice.inserted - splice.removed
            }
        }
    }

    @Test func anItemInsertedAndRemovedInOneChangeIsNoChange() {
        let items = (0..<4).map { Item("\($0)") }
        let list = SpliceList(items)
        let observer = Recording()
        list.addObserver(observer)
        list.append(Item("x"))
        list.remove(at: 4)
        #expect(observer.recorder.take().isEmpty)
    }

    @Test func aSpliceListRecordsItsEditsAsOneSplicePerPlace() {
        let items = (0..<10).map { Item("\($0)") }
        let list = SpliceList(items)
        let observer = Recording()
        list.addObserver(observer)
        list.append(Item("a"))
        list.insert(Item("b"), at: 0)
        list.move(from: 5, to: 6)
        list.removeAll { $0.name == "8" || $0.name == "9" }
        // The move is two splices ("5" stays between them); the append and the removal that ends
        // where it begins are one.
        #expect(observer.recorder.take().map(\.splice) == [
            ListSplice(index: 0, removed: 0, inserted: 1),
            ListSplice(index: 5, removed: 1, inserted: 0),
            ListSplice(index: 6, removed: 0, inserted: 1),
            ListSplice(index: 9, removed: 2, inserted: 1),
        ])
        #expect(list.map(\.name) == ["b", "0", "1", "2", "3", "5", "4", "6", "7", "a"])
    }

    private final class Recording: SpliceListObserver {
        var recorder = ListChangeRecorder()
        func listWillSplice(at index: Int, removing removed: [AnyObject], inserting inserted: Int) {
            recorder.record(at: index, removing: removed, inserting: inserted)
        }
    }
}
