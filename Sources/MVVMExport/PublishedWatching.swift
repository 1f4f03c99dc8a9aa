// The properties of view models written with MVVMCombine's `@Published` and `ObservableObject`
// (MVVMPublished), watched through their boxes: no subscription, conduit or lock per property.
import MVVMPublished
import MVVMRuntime
@preconcurrency import OpenCombine

/// A watched @Published property's box is its watch, when its watcher is the exported object
/// itself (`ExportedObject.watchPublished`): cancelling the watch lets go of the object.
extension PublishedBoxBase: PropertyWatch {
    var isArmed: Bool { true }
    func rearm() {}
    func cancel() { removeOwnWatcher() }
}

/// The engine's watch of one @Published property, when its box has a watcher already (another
/// exported object, or another property of the same object): a listener of its box, told after each set, with the value stored; it reads
/// it then (with the property's getter, on the setting thread, as the app's code would) and tells
/// it: nothing is read again later, nothing re-armed.
final class PublishedWatch: PublishedListener, PropertyWatch, @unchecked Sendable {
    private let box: PublishedBoxBase
    private let watched: WatchedSlot<ValueState>

    /// The property's place in its class: how the value is read.
    private let property: Int

    init(_ box: PublishedBoxBase, telling watched: WatchedSlot<ValueState>) {
        self.box = box
        self.watched = watched
        property = watched.object.use { $0.values[watched.slot].property }
        super.init()
        box.addWatcher(self)
    }

    var isArmed: Bool { true }
    func rearm() {}
    func cancel() { box.removeWatcher(self) }

    override func publishedDidSet(_ box: PublishedBoxBase) {
        watched.changed(reading: property)
    }
}

/// The engine's watch of a property with no publisher of its own, such as a computed one: every
/// change of the object, through its record, read once the operation is complete (as
/// `objectWillChange` tells before the change).
final class PublishedChangeWatch: PropertyWatch, PublishedObserver, @unchecked Sendable {
    private let record: PublishedRecord
    private let watched: WatchedSlot<ValueState>

    init(_ record: PublishedRecord, telling watched: WatchedSlot<ValueState>) {
        self.record = record
        self.watched = watched
        record.watch(by: self)
    }

    var isArmed: Bool { true }
    func rearm() {}
    func cancel() { record.stopWatching(by: self) }
    func objectWillChange() { watched.changed(nil) }
}

extension ExportBuilder {
    // MARK: @Published properties of MVVMCombine (MVVMPublished)

    /// A read-only `@Published` property of MVVMCombine: read with `get`, watched through the
    /// record of the object `publisher` (its `$property`) belongs to, with no subscription.
    public mutating func output<V: ExportableValue>(
        _ name: String, get: @escaping (Target) -> V, publisher: @escaping (Target) -> MVVMPublished.Published<V>.Publisher,
        doc: String = ""
    ) {
        addPublished(name, get: get, publisher: publisher, set: nil, doc: doc)
    }

    /// A `@Published` binding of MVVMCombine: read with `get`, written with `set`.
    public mutating func binding<V: ExportableValue>(
        _ name: String, get: @escaping (Target) -> V, set: @escaping (Target, V) -> Void,
        publisher: @escaping (Target) -> MVVMPublished.Published<V>.Publisher, doc: String = ""
    ) {
        addPublished(name, get: get, publisher: publisher, set: set, doc: doc)
    }

    /// `c.output("label", \.label, \.$label)` for MVVMCombine's `@Published`.
    public mutating func output<V: ExportableValue>(
        _ name: String, _ value: @escaping (Target) -> V, _ publisher: @escaping (Target) -> MVVMPublished.Published<V>.Publisher,
        doc: String = ""
    ) {
        addPublished(name, get: value, publisher: publisher, set: nil, doc: doc)
    }

    /// `c.binding("input", \.input, \.$input)` for MVVMCombine's `@Published`.
    public mutating func binding<V: ExportableValue>(
        _ name: String, _ value: ReferenceWritableKeyPath<Target, V>,
        _ publisher: KeyPath<Target, MVVMPublished.Published<V>.Publisher>, doc: String = ""
    ) {
        addPublished(name, get: { $0[keyPath: value] }, publisher: { $0[keyPath: publisher] },
                     set: { $0[keyPath: value] = $1 }, doc: doc)
    }

    private mutating func addPublished<V: ExportableValue>(
        _ name: String, get: @escaping (Target) -> V, publisher: @escaping (Target) -> MVVMPublished.Published<V>.Publisher,
        set: ((Target, V) -> Void)?, doc: String
    ) {
        addValueProperty(name, doc, get, set, watching: .published { publisher(Self.target($0)).box })
    }

    /// A list of child view models kept in MVVMCombine's `@Published` array:
    /// `c.list("items", \.items, \.$items)`. Each change is compared with the items last
    /// announced, and announced as the fewest splices.
    public mutating func list<Item: AnyObject>(
        _ name: String, _ items: @escaping (Target) -> [Item],
        _ publisher: @escaping (Target) -> MVVMPublished.Published<[Item]>.Publisher, doc: String = ""
    ) {
        addList(name, items, doc: doc) { object, slot in
            PublishedListWatch(publisher(Self.target(object)).box, telling: slot)
        }
    }
}

/// `PublishedWatch` for a list: its change is taken, compared with the items last announced.
final class PublishedListWatch: PublishedListener, ListWatch, @unchecked Sendable {
    private let box: PublishedBoxBase
    private let watched: WatchedSlot<ListState>

    init(_ box: PublishedBoxBase, telling watched: WatchedSlot<ListState>) {
        self.box = box
        self.watched = watched
        super.init()
        box.addWatcher(self)
    }

    var isArmed: Bool { true }
    func rearm() {}
    func cancel() { box.removeWatcher(self) }
    override func publishedDidSet(_ box: PublishedBoxBase) { watched.changed(nil) }
}

extension ExportBuilder where Target: MVVMPublished.ObservableObject {
    /// A property of an MVVMCombine `ObservableObject` with no publisher of its own, such as a
    /// computed one: read again once each operation that changed the object is complete, and
    /// announced only when its value changed (as for OpenCombine's, see ``output(_:_:doc:)``).
    public mutating func output<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V, doc: String = "") {
        addComputed(name, value, set: nil, doc: doc)
    }

    /// A computed binding, read as ``output(_:_:doc:)`` reads and written with `set`.
    public mutating func binding<V: ExportableValue>(_ name: String, get: @escaping (Target) -> V,
                                                    set: @escaping (Target, V) -> Void, doc: String = "") {
        addComputed(name, get, set: set, doc: doc)
    }

    private mutating func addComputed<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V,
                                                         set: ((Target, V) -> Void)?, doc: String) {
        // An object whose `objectWillChange` is its record's is watched there; one that makes its
        // own (merging its parts', say) through a subscription to it.
        let ownPublisher = Target.ObjectWillChangePublisher.self != MVVMPublished.ObservableObjectPublisher.self
        addValueProperty(name, doc, value, set, watching: .own { object, slot in
            let target = Self.target(object)
            if ownPublisher { return PublisherWatch(target.objectWillChange.sink { _ in slot.changed(nil) }) }
            return PublishedChangeWatch(PublishedRecord.record(of: target), telling: slot)
        })
    }
}
