/// An ordered list of view models that records its own edits, so that whoever shows it (the C
/// layer's list properties, a GListModel) hears each change as the splices it is made of,
/// GListModel's `items-changed(position, removed, added)`, without comparing the whole list:
/// an append, an insert, a removal or a move of one row costs that row, whatever the length.
///
/// A view model keeps one in a `let` and edits it with the methods below (its `@Published`
/// alternative, a plain array, is compared with the one before at each change). Reading is a
/// `RandomAccessCollection`. Not thread-safe: like the view model that owns it, it is used on
/// its loop.
///
/// ```swift
/// final class TodoList: ObservableObject {
///     let items = SpliceList<TodoItem>()
///     func add(_ title: String) { items.append(TodoItem(title)) }
/// }
/// // Exports.register(TodoList.self) { c in c.list("items", \.items) }
/// ```
public final class SpliceList<Element: AnyObject>: RandomAccessCollection {
    public private(set) var elements: [Element]
    /// Called before each edit, as `@Published` calls `objectWillChange`: set it to the owner's
    /// `objectWillChange.send` when computed properties of the owner read the list.
    public var willChange: (() -> Void)?
    /// Who records the edits (the C layer, while someone watches the list).
    private var observers: [SpliceListObserver] = []

    public init(_ elements: [Element] = []) { self.elements = elements }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }

    /// Makes room for `capacity` items, as `Array.reserveCapacity` does; no change to announce.
    public func reserveCapacity(_ capacity: Int) { elements.reserveCapacity(capacity) }

    // MARK: Edits

    public func append(_ element: Element) { replaceSubrange(elements.count..<elements.count, with: [element]) }

    public func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        replaceSubrange(elements.count..<elements.count, with: Array(newElements))
    }

    public func insert(_ element: Element, at index: Int) { replaceSubrange(index..<index, with: [element]) }

    @discardableResult
    public func remove(at index: Int) -> Element {
        let element = elements[index]
        replaceSubrange(index..<index + 1, with: [])
        return element
    }

    public func removeSubrange(_ range: Range<Int>) { replaceSubrange(range, with: []) }

    /// Moves the element at `from` so that it ends at index `to` (of the list without it, as
    /// `insert(remove(at: from), at: to)` does).
    public func move(from: Int, to: Int) {
        guard from != to else { return }
        let element = elements[from]
        willChange?()
        record(at: from, removing: 1, inserting: 0)
        elements.remove(at: from)
        record(at: to, removing: 0, inserting: 1)
        elements.insert(element, at: to)
    }

    /// Removes every element that `shouldBeRemoved` selects, as one change: one pass over the
    /// list, each run of removed elements one splice.
    public func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        var runs: [Range<Int>] = []
        for (index, element) in elements.enumerated() where try shouldBeRemoved(element) {
            if let last = runs.last, last.upperBound == index {
                runs[runs.count - 1] = last.lowerBound..<index + 1
            } else {
                runs.append(index..<index + 1)
            }
        }
        guard !runs.isEmpty else { return }
        willChange?()
        // From the end, so each run's indices stay those of the list as it is.
        for run in runs.reversed() {
            record(at: run.lowerBound, removing: run.count, inserting: 0)
            elements.removeSubrange(run)
        }
    }

    /// Replaces `range` with `newElements`: one splice.
    public func replaceSubrange(_ range: Range<Int>, with newElements: [Element]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= elements.count, "SpliceList: range out of bounds")
        guard !range.isEmpty || !newElements.isEmpty else { return }
        willChange?()
        record(at: range.lowerBound, removing: range.count, inserting: newElements.count)
        elements.replaceSubrange(range, with: newElements)
    }

    /// Replaces every element: the fewest splices that turn the list into `newElements` (the
    /// elements both hold keep their places), found by comparing the two, as an array property
    /// would be. For a filter that changed, or a reorder.
    public func replaceAll(with newElements: [Element]) {
        let old = elements.map(ObjectIdentifier.init)
        let new = newElements.map(ObjectIdentifier.init)
        guard old != new else { return }
        willChange?()
        // Applied splice by splice, so that each is recorded as the list stands.
        for splice in ListDifference.splices(from: old, to: new) {
            let inserted = Array(newElements[splice.index..<splice.index + splice.inserted])
            record(at: splice.index, removing: splice.removed, inserting: splice.inserted)
            elements.replaceSubrange(splice.index..<splice.index + splice.removed, with: inserted)
        }
    }

    // MARK: Observers

    /// Starts telling `observer` of each edit, from now on.
    public func addObserver(_ observer: SpliceListObserver) { observers.append(observer) }

    public func removeObserver(_ observer: SpliceListObserver) { observers.removeAll { $0 === observer } }

    /// Tells the observers of an edit about to be made (the elements it removes still there).
    private func record(at index: Int, removing removed: Int, inserting inserted: Int) {
        guard !observers.isEmpty else { return }
        // Upcast one by one: an array cast would check each element's class at run time.
        let removedElements: [AnyObject] = removed == 0 ? [] : elements[index..<index + removed].map { $0 }
        for observer in observers { observer.listWillSplice(at: index, removing: removedElements, inserting: inserted) }
    }
}

/// Hears a ``SpliceList``'s edits, each before it is made: at `index`, `removed` go and
/// `inserted` new elements come.
public protocol SpliceListObserver: AnyObject {
    func listWillSplice(at index: Int, removing removed: [AnyObject], inserting inserted: Int)
}
