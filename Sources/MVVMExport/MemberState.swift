// What an exported object keeps of each property someone subscribed to, and how each kind of
// property takes and announces its changes. The object delivers values and lists alike —
// collect what changed, order it as the class lists it, announce it (`deliverChanges`) — through
// the ``MemberState`` protocol; what differs between a value and a list is here.
import CMVVM
import MVVMRuntime

/// A watched property's state. The object keeps its states of each kind in an array of their
/// own, in the order they were first subscribed to; a state keeps its slot there for the
/// object's life, so its watch can name it (``WatchedSlot``).
protocol MemberState {
    /// The property's index in its class.
    var property: Int { get }
    /// The object's state of this kind in `slot`, changed in place.
    static subscript(_ object: ExportedObject, slot: Int) -> Self { get set }
    /// Its watch told of a change, on a thread that holds the loop: the new value, or nil for
    /// "changed, read it once the operation is complete". `depth`: how deep host calls are
    /// nested now.
    mutating func changed(_ value: Value?, depth: Int)
    /// Once the operation is complete: takes the change to announce, if any, and gives its
    /// stamp; nil when there is nothing to announce. Raises `depth` to how deep host calls were
    /// nested when the change was made, when it must be announced as deep.
    mutating func takeChange(of object: ExportedObject, depth: inout Int) -> UInt64?
    /// Announces the change `takeChange` took to the object's subscribers.
    static func announce(_ change: MemberChange, of object: ExportedObject)
    /// Forgets the change `takeChange` took: the object has no subscriber to announce it to.
    static func drop(_ change: MemberChange, of object: ExportedObject)
    /// Lets its watch go: the object is detached.
    mutating func endWatch()
    /// Its watch, when it is a publisher chain, which may still run while the current work
    /// unwinds after the object is detached (`ExportedObject.detach` keeps it until then).
    var publisherChain: AnyObject? { get }
}

/// One change to announce: a state of one kind in its slot, its property (announcements go in
/// the order the class lists its properties), and its stamp when it was taken.
struct MemberChange {
    let kind: any MemberState.Type
    let slot: Int32
    let property: Int32
    let stamp: UInt64

    init(kind: any MemberState.Type, slot: Int, property: Int, stamp: UInt64) {
        self.kind = kind
        self.slot = Int32(truncatingIfNeeded: slot)
        self.property = Int32(truncatingIfNeeded: property)
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

    /// The property's index in its class.
    var property: Int { Int(propertyIndex) }
}

extension ValueState: MemberState {
    static subscript(_ object: ExportedObject, slot: Int) -> ValueState {
        get { object.values[slot] }
        _modify { yield &object.values[slot] }
    }

    mutating func changed(_ value: Value?, depth: Int) {
        if let value {
            latest = value
            latestUnread = false
        } else {
            latest = announced
            latestUnread = true
        }
    }

    /// The newest value, when it differs from the announced one: now announced, with a new
    /// stamp. A value its watch could not tell is read now, the operation being complete.
    mutating func takeChange(of object: ExportedObject, depth: inout Int) -> UInt64? {
        guard var value = latest.take() else { return nil }
        if latestUnread {
            latestUnread = false
            value = object.read(property)
            // Armed again once quiet: re-arming after every change is what costs.
            object.context.keepChecking(object)
        }
        guard !value.isSame(as: announced) else { return nil }
        announced = value
        stamp &+= 1
        return stamp
    }

    static func announce(_ change: MemberChange, of object: ExportedObject) {
        // A callback may already have caused a newer announcement of this property.
        let slot = Int(change.slot)
        guard object.values[slot].stamp == change.stamp else { return }
        object.announce(object.values[slot].announced, ofValueIn: slot, stamp: change.stamp)
    }

    /// Nothing to forget: the value stays announced.
    static func drop(_ change: MemberChange, of object: ExportedObject) {}

    mutating func endWatch() {
        watch?.cancel()
        watch = nil
    }

    var publisherChain: AnyObject? { watch as? PublisherWatch }
}

/// A watched list property.
struct ListState {
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
    static subscript(_ object: ExportedObject, slot: Int) -> ListState {
        get { object.lists[slot] }
        _modify { yield &object.lists[slot] }
    }

    /// The list tells no value: its items are read when its change is taken.
    mutating func changed(_ value: Value?, depth: Int) {
        changed = true
        if delivery != nil { changedAtDepth = depth }
    }

    /// The list's change with its splices, unless it is being delivered already: a change a
    /// callback makes meanwhile waits until every subscriber has had the splices, which are
    /// deltas. A change `take` took before (see `ExportedObject.takeListChanges`) is taken now.
    mutating func takeChange(of object: ExportedObject, depth: inout Int) -> UInt64? {
        if delivery == nil {
            guard changed, take(of: object) else { return nil }
        } else if delivery!.announcing {
            return nil
        }
        delivery!.announcing = true
        depth = max(depth, delivery!.depth)
        return 0
    }

    /// The list's change, compared or recorded, as a delivery; whether it has any splice.
    mutating func take(of object: ExportedObject) -> Bool {
        changed = false
        // An Observation watch tells of one change at a time.
        watch?.rearm()
        let depth = changedAtDepth
        changedAtDepth = 0
        let now = object.exportedClass.properties[property].list!.items(object.target)
        let splices = watch?.takeChange(from: announced, to: now) ?? []
        if watch?.comparesWithAnnounced ?? true { announced = now }
        guard !splices.isEmpty else { return false }
        delivery = ListDelivery(splices: splices, final: now, depth: depth)
        return true
    }

    /// Each splice of the change to every subscriber of the list when the change began (one
    /// who subscribes meanwhile hears the next change), in order; reads meanwhile see the list
    /// as the splice being delivered leaves it (before, as before the operation).
    static func announce(_ change: MemberChange, of object: ExportedObject) {
        let slot = Int(change.slot), property = Int(change.property)
        let name = object.exportedClass.properties[property].name
        let hearers = object.subscriptions.filter { $0.selector == nil || $0.selector == .property(property) }
        defer {
            if !object.isReleased {
                object.lists[slot].delivery = nil
                if object.lists[slot].changed { object.context.markDirty(object) }
            }
        }
        let splices = object.lists[slot].delivery!.splices
        for (index, splice) in splices.enumerated() {
            object.lists[slot].delivery!.current = index
            for subscription in hearers where subscription.isActive && !object.isMainActorSilenced {
                object.context.callingHost { subscription.deliver(source: object.handle, name: name, splice: splice.splice) }
                if object.isReleased { return }
            }
        }
    }

    static func drop(_ change: MemberChange, of object: ExportedObject) {
        object.lists[Int(change.slot)].delivery = nil
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
