// What an exported object keeps of each property someone subscribed to, and what each kind of
// property does with its changes: a value's state and a list's each take a change when their
// watch tells it and again when the operation is delivered, in methods of their own. The object
// keeps the states and delivers what they took (`ExportedObject.deliverChanges`): the delivery
// is one path for both kinds, and tells each change by its kind.
import CMVVM
import MVVMRuntime

/// A watched property's state. The object keeps its states of each kind in an array of their
/// own, in the order they were first subscribed to; a state keeps its slot there for the
/// object's life, so its watch can name it (``WatchedSlot``).
protocol MemberState {
    /// Which of the object's arrays keeps states of this type.
    static var kind: MemberKind { get }
    /// Its property's index in its class, among the class's properties of its kind.
    var property: Int { get }
    /// Lets its watch go: the object is detached.
    mutating func endWatch()
    /// Its watch, when it is a publisher chain, which may still run while the current work
    /// unwinds after the object is detached (`ExportedObject.detach` keeps it until then).
    var publisherChain: AnyObject? { get }
}

/// The kinds of watched property: a value (``ValueState``) or a list (``ListState``).
enum MemberKind: UInt8 {
    case value
    case list
}

/// One change to announce: a state of one kind in its slot, its property's place in its class
/// (announcements go in the order the class lists its properties), and its stamp when it was
/// taken.
struct MemberChange {
    let kind: MemberKind
    let slot: Int32
    let position: Int32
    let stamp: UInt64

    init(kind: MemberKind, slot: Int, position: Int, stamp: UInt64) {
        self.kind = kind
        self.slot = Int32(truncatingIfNeeded: slot)
        self.position = Int32(truncatingIfNeeded: position)
        self.stamp = stamp
    }
}

/// A watched value property. Its fields are declared so that they pack into 72 bytes, not 88:
/// each object keeps one per watched value.
struct ValueState {
    var announced: Value
    /// Read by its object's Observation tracking, and whether the live tracking reads it.
    var isObserved = false
    var isTracked = false
    /// `latest` is the announced value standing for "changed, read it when delivering" (a
    /// watch that cannot tell the value).
    var latestUnread = false
    /// The property's index in its class, in four bytes.
    private let propertyIndex: Int32
    /// The subscription to its own publisher, or its objectWillChange watch; nil for an
    /// `@Observable` value, which its object's one tracking reads (``ObservationRelay``).
    var watch: PropertyWatch?
    /// The newest value, or the announced one (see `latestUnread`); nil when unchanged.
    var latest: Value?
    /// Bumped at each announcement, so that a callback's nested announcement supersedes an
    /// outer one.
    var stamp: UInt64 = 0

    init(property: Int, announced: Value) {
        propertyIndex = Int32(truncatingIfNeeded: property)
        self.announced = announced
    }

    /// The property's index among its class's value properties.
    var property: Int { Int(propertyIndex) }
}

extension ValueState: MemberState {
    static var kind: MemberKind { .value }

    /// Its watch told of a change, on a thread that holds the loop: the new value, or nil for
    /// "changed, read it once the operation is complete".
    mutating func changed(_ value: Value?) {
        if let value {
            latest = value
            latestUnread = false
        } else {
            latest = announced
            latestUnread = true
        }
    }

    /// Once the operation is complete: the newest value, when it differs from the announced
    /// one, taken as announced (``take(_:)``); nil when there is nothing to announce. A value
    /// its watch could not tell is read now with `read`, the operation being complete.
    mutating func takeChange(reading read: () -> Value) -> UInt64? {
        guard var value = latest.take() else { return nil }
        if latestUnread {
            latestUnread = false
            value = read()
        }
        guard !value.isSame(as: announced) else { return nil }
        return take(value)
    }

    /// `value`, known to differ from the announced one, is announced from now: the stamp of its
    /// announcement.
    mutating func take(_ value: consuming Value) -> UInt64 {
        announced = value
        stamp &+= 1
        return stamp
    }

    mutating func endWatch() {
        watch?.cancel()
        watch = nil
    }

    var publisherChain: AnyObject? { watch as? PublisherWatch }
}

/// A watched list property.
struct ListState {
    /// The list's index among its class's lists.
    let property: Int
    var watch: ListWatch?
    /// The items as last announced: what the next change starts from.
    var announced: ListItems
    /// Changed since it was last announced.
    var changed = false
    /// How deep host calls were nested when it last changed while its own splices were being
    /// delivered: its next announcement is made as deep (see `LoopContext.nested(atLeast:)`).
    var changedAtDepth = 0
    /// From when its change is taken until its splices are delivered, what reads of the list see.
    var delivery: ListDelivery?
}

extension ListState: MemberState {
    static var kind: MemberKind { .list }

    /// Its watch told of a change, on a thread that holds the loop, where host calls are nested
    /// `depth` deep: the list tells no value, its items are read when its change is taken.
    mutating func changed(depth: Int) {
        changed = true
        if delivery != nil { changedAtDepth = depth }
    }

    /// Once the operation is complete: whether its change, with its splices, is to be announced
    /// now, unless it is being delivered already: a change a callback makes meanwhile waits
    /// until every subscriber has had the splices, which are deltas. A change `take` took before
    /// (see `ExportedObject.takeListChanges`) is taken now. Raises `depth` to how deep host calls
    /// were nested when the change was made: it is announced as deep.
    mutating func takeChange(depth: inout Int, reading items: () -> ListItems) -> Bool {
        if delivery == nil {
            guard changed, take(reading: items) else { return false }
        } else if delivery!.announcing {
            return false
        }
        delivery!.announcing = true
        depth = max(depth, delivery!.depth)
        return true
    }

    /// The list's change, its items now read with `items`, compared or recorded, as a delivery;
    /// whether it has any splice.
    mutating func take(reading items: () -> ListItems) -> Bool {
        changed = false
        // An Observation watch tells of one change at a time.
        watch?.rearm()
        let depth = changedAtDepth
        changedAtDepth = 0
        let now = items()
        let splices = watch?.takeChange(from: announced, to: now) ?? []
        if watch?.comparesWithAnnounced ?? true { announced = now }
        guard !splices.isEmpty else { return false }
        delivery = ListDelivery(splices: splices, final: now, depth: depth)
        return true
    }

    /// Its splice at `index` is being announced: reads of the list see it applied.
    mutating func announcing(splice index: Int) { delivery!.current = index }

    /// Its delivery is over (or dropped: nobody subscribes); whether it changed meanwhile, when
    /// that change is to be delivered in turn.
    mutating func endDelivery() -> Bool {
        delivery = nil
        return changed
    }

    mutating func endWatch() {
        watch?.cancel()
        watch = nil
    }

    var publisherChain: AnyObject? { watch as? PublisherWatch }
}

/// A list change being delivered, splice by splice: what `mvvm_list_count` and `mvvm_list_item`
/// read meanwhile is the list as the splices delivered so far leave it — as before the operation
/// until its first splice is delivered (while other properties of the operation are) — whatever
/// a callback does to the list itself (its change waits until this one is delivered). Reads are
/// answered from the splices and the final items the delivery holds anyway: no copy is made.
struct ListDelivery {
    let splices: [(splice: ListSplice, removed: [AnyObject])]
    /// The list as the whole change leaves it.
    let final: ListItems
    /// How deep host calls were nested when the list last changed (see `ListState.changedAtDepth`).
    let depth: Int
    /// The splice being delivered; -1 before the first.
    var current = -1
    /// Its splices are being delivered (or were), not only waiting for their turn.
    var announcing = false

    /// How many items the list has once the current splice is applied.
    var count: Int {
        var count = final.count
        for later in splices.dropFirst(current + 1) { count -= later.splice.inserted - later.splice.removed }
        return count
    }

    /// The item at `position` once the current splice is applied: an item the later splices
    /// keep is read from the final list at its place there; one they remove, from what they
    /// remove.
    func item(_ position: Int) -> AnyObject? {
        guard position >= 0, position < count else { return nil }
        var at = position
        for later in splices.dropFirst(current + 1) {
            let splice = later.splice
            if at < splice.index { break }
            if at < splice.index + splice.removed { return later.removed[at - splice.index] }
            at += splice.inserted - splice.removed
        }
        return at < final.count ? final.item(at) : nil
    }
}
