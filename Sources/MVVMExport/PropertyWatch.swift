// How the engine hears that a property changed: one watch per watched property, of the kind
// its registration chose (a publisher, Observation, objectWillChange, a SpliceList's own edits).
import CMVVM
import MVVMRuntime
import Observation
import Synchronization
@preconcurrency import OpenCombine

/// Keeps a property watched until it is let go of.
protocol PropertyWatch: AnyObject {
    /// Whether the watch will tell of the next change by itself. An `@Observable` property's is
    /// not after a change, until `rearm`.
    var isArmed: Bool { get }
    func rearm()
    /// Tells no more changes, though something else may still hold the watch (Observation
    /// holds an armed one until the next change).
    func cancel()
}

/// A list's watch: it also says what changed, as splices with the items each removes.
protocol ListWatch: PropertyWatch {
    /// Whether `takeChange` compares with the items as last announced. A watch that records the
    /// list's own edits does not: the engine then keeps no copy of the items between changes,
    /// which would make the list's next edit copy its whole array.
    var comparesWithAnnounced: Bool { get }
    /// The change from `announced` (the items as last announced) to `now` (as they are).
    func takeChange(from announced: ListItems, to now: ListItems) -> [(splice: ListSplice, removed: [AnyObject])]
}

extension ListWatch {
    var comparesWithAnnounced: Bool { true }
}

/// Where a watch tells the changes of one property of one exported object: its state's kind
/// and slot (``MemberState``), a value, not a closure, so a watch keeps it inline.
struct WatchedSlot<State: MemberState> {
    /// Borrowed: the object owns the watch that holds this slot and cancels it when detached
    /// (`PropertyWatch.cancel`); a publisher's sink, kept until the loop's work ends, ends with
    /// the object (`detach` keeps both until then). Read only holding the object's loop.
    let object: Borrowed<ExportedObject>
    /// Its state's slot among the object's states of its kind.
    let slot: Int
    /// What a change told on another thread goes by, not the object: its handle and its loop.
    private let handle: mvvm_handle
    private let loopIdentity: LoopIdentity

    init(object: ExportedObject, slot: Int) {
        self.object = Borrowed(object)
        self.slot = slot
        handle = object.handle
        loopIdentity = object.loopIdentity
    }

    /// Whether the calling thread holds the object's loop, where the object may be touched.
    @inline(__always)
    var isOnLoop: Bool { loopIdentity.isHeldByCurrentThread }

    /// A new value, or nil: "changed, read it once the operation is complete". Told on
    /// another thread than the one running the loop's work (a background queue, a detached
    /// task), the change is carried to the loop (see `ExportedObject.changedElsewhere`).
    @inline(__always)
    func changed(_ value: Value?) {
        guard isOnLoop else { return changedElsewhere(value, then: nil) }
        changedHere(value)
    }

    /// `changed`, on a thread that holds the loop.
    @inline(__always)
    func changedHere(_ value: Value?) { object.use { $0.changed(self, value) } }

    /// `changed` with the value of the object's property `index` (a value property), read now on
    /// the telling thread, as the app's code that set it would read it.
    @inline(__always)
    func changed(reading index: Int) {
        guard isOnLoop else {
            guard let reached = ExportedObject.reachedElsewhere(handle) else { return }
            return reached.changedElsewhere(self, reached.read(index), then: nil)
        }
        object.use { $0.changed(self, $0.read(index)) }
    }

    /// `changed`, on a thread that does not hold the loop: carried there, with `rearm` run there
    /// first, if the object's handle is still live.
    func changedElsewhere(_ value: Value?, then rearm: (() -> Void)?) {
        ExportedObject.reachedElsewhere(handle)?.changedElsewhere(self, value, then: rearm)
    }
}

/// A publisher's subscription as a watch: it hears every change by itself.
final class PublisherWatch: ListWatch {
    let cancellable: AnyCancellable
    init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
    var isArmed: Bool { true }
    func rearm() {}
    /// Nothing now: the sink may be delivering; it ends when the watch is let go.
    func cancel() {}
}

/// Where an object's one Observation tracking of its watched `@Observable` values tells a change
/// (`ExportedObject.armObservedValues`). The values are read together: one
/// `withObservationTracking` reads them all, and its `onChange` marks them all to be read once
/// the operation is complete, as Observation does not say which changed (only those that differ
/// are announced). Arming is most of what a subscription costs, and Observation keeps state per
/// tracking and per object it reads, not per property read: one tracking of every watched value
/// costs far less than one each, and the values need no watch of their own. Observation tells of
/// one change, in `willSet`, before the value is stored. The tracking is armed only once the
/// object is quiet: while it keeps changing (or was just subscribed to) its loop reads its values
/// after each operation instead (`LoopContext.checkChanging`).
///
/// One per object, made at its first arming: the one reference each tracking's `onChange` holds
/// (the closure's context: no box), until the target next changes, which may be after the object
/// is gone. A tracking that a later arming replaced still tells a change of what it read; every
/// later tracking reads what it read and more (values are only added), so such a change is told by
/// the live one too, and marking the values again costs a second read at most.
///
/// A change is told on the thread that makes it, which may hold no loop while the loop's thread
/// detaches and frees the object: there the relay reads only what never changes (the object's
/// handle and loop), and reaches the object through the handle table, or not at all.
final class ObservationRelay: @unchecked Sendable {
    /// Borrowed: the object owns this relay and clears this when detached (`objectDetached`),
    /// holding its loop, where alone this is read. Nil once the object is detached.
    private var object: Borrowed<ExportedObject>?
    private let handle: mvvm_handle
    private let loopIdentity: LoopIdentity

    init(_ object: ExportedObject) {
        self.object = Borrowed(object)
        handle = object.handle
        loopIdentity = object.loopIdentity
    }

    /// The tracking saw a change, on the thread that made it (in `willSet`).
    func changed() {
        if loopIdentity.isHeldByCurrentThread {
            object?.use { $0.observedValuesChanged() }
        } else {
            ExportedObject.reachedElsewhere(handle)?.observedValuesChangedElsewhere()
        }
    }

    /// Its object is detached, holding its loop: nothing is told to it any more.
    func objectDetached() { object = nil }
}

/// Watches what `read` reads of an `@Observable` object for a list property: a tracking of
/// its own, armed again each time the list's change is taken (its items are compared then).
///
/// Allocates nothing but itself: it keeps the closure it is given and the slot it tells, and
/// while armed Observation holds it strongly (the one reference its `onChange` closure captures
/// is that closure's context, where a weak one would need a box and give the watch a side table).
final class ObservationWatch<Target: AnyObject, Read>: ListWatch, @unchecked Sendable {
    /// Borrowed, not held: the target's registrar keeps this watch while it is armed, so a strong
    /// reference would be a cycle. Only `rearm` reads it, and only the exported object that
    /// holds the target calls that, holding its loop, until it cancels this watch.
    private let target: Borrowed<Target>
    /// What the property reads (its getter, as registered): Observation tracks what it touches.
    private let read: (Target) -> Read
    /// The watch may outlive its exported object, until the target next changes: it tells
    /// nothing once cancelled. Read and written holding the loop; a change told elsewhere reaches
    /// the loop through the object's handle, which a detached object no longer answers to.
    private let slot: WatchedSlot<ListState>
    private var isCancelled = false
    /// The loop's, as `isCancelled`: set on its thread (off it, once the change reaches it).
    private var armed = false
    var isArmed: Bool { armed }

    /// Made unarmed: the exported object arms it (`rearm`) when it chooses.
    init(_ target: Target, read: @escaping (Target) -> Read, slot: WatchedSlot<ListState>) {
        self.target = Borrowed(target)
        self.read = read
        self.slot = slot
    }

    func rearm() {
        guard !armed, !isCancelled else { return }
        armed = true
        withObservationTracking { _ = target.use(read) } onChange: { [self] in
            guard slot.isOnLoop else { return slot.changedElsewhere(nil) { [self] in armed = false } }
            guard !isCancelled else { return }
            armed = false
            slot.changedHere(nil)
        }
    }

    func cancel() { isCancelled = true }
}

extension ListWatch {
    /// An array property's change: the new items compared with those announced.
    func takeChange(from announced: ListItems, to now: ListItems) -> [(splice: ListSplice, removed: [AnyObject])] {
        ListDifference.changes(from: announced.identities, to: now.identities).map { change in
            (change.splice, (change.oldStart..<change.oldStart + change.splice.removed).map(announced.item))
        }
    }
}

/// Watches a ``SpliceList``: it records the list's own edits, so a change is told as what it
/// did, with no comparison of the whole list.
final class SpliceListWatch<Element: AnyObject>: ListWatch, SpliceListObserver {
    private let list: SpliceList<Element>
    private var recorder = ListChangeRecorder()
    private var slot: WatchedSlot<ListState>?

    init(_ list: SpliceList<Element>, slot: WatchedSlot<ListState>) {
        self.list = list
        self.slot = slot
        list.addObserver(self)
    }

    var isArmed: Bool { true }
    var comparesWithAnnounced: Bool { false }
    func rearm() {}

    func cancel() {
        slot = nil
        list.removeObserver(self)
    }

    func listWillSplice(at index: Int, removing removed: [AnyObject], inserting inserted: Int) {
        recorder.record(at: index, removing: removed, inserting: inserted)
        slot?.changed(nil)
    }

    func takeChange(from announced: ListItems, to now: ListItems) -> [(splice: ListSplice, removed: [AnyObject])] {
        recorder.take()
    }
}

/// A list's items at one moment: its count and each item, read without copying the list (an
/// array kept as it was; a later change to the list makes its own copy).
struct ListItems {
    let count: Int
    let item: (Int) -> AnyObject

    /// How many items have been read from any list's items, in all: how tests hold an edit's
    /// cost to what it touches, whatever the list's length.
    static let reads = Atomic<Int>(0)

    /// No items: what the engine keeps for a list whose watch records its own edits.
    static var none: ListItems { ListItems(count: 0, item: { _ in fatalError("ListItems.none has no items") }) }

    init(count: Int, item: @escaping (Int) -> AnyObject) {
        self.count = count
        self.item = item
    }

    init<Item: AnyObject>(_ items: [Item]) {
        count = items.count
        item = { index in
            ListItems.reads.add(1, ordering: .relaxed)
            return items[index]
        }
    }

    /// Each item's identity, in order.
    var identities: [ObjectIdentifier] { (0..<count).map { ObjectIdentifier(item($0)) } }
}
