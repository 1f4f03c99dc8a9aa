// What an exported object keeps of each property someone subscribed to, by kind: a value's
// announced and newest value, a list's announced items and the change being delivered.
import MVVMRuntime

/// A watched value property.
struct ValueState {
    /// The property's index in its class.
    let property: Int
    /// The subscription to its own publisher, or its Observation or objectWillChange watch.
    var watch: PropertyWatch?
    var announced: Value
    /// The newest value, or the announced one standing for "changed, read it when delivering"
    /// (`latestUnread`: a watch that cannot tell the value); nil when unchanged.
    var latest: Value?
    var latestUnread = false
    /// Bumped at each announcement, so that a callback's nested announcement supersedes an
    /// outer one.
    var stamp: UInt64 = 0
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
