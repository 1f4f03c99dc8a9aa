import CMVVM
import MVVMRuntime
import Synchronization

/// A handle of the host's callback on one object (a subscription, an asynchronous call): the
/// callback's user data, and its destroy function, which runs at most once.
class ObjectCallback: Handled, @unchecked Sendable {
    /// Strong, and set before the handle is issued: a weak reference would give the object a side
    /// table, which makes every reference count of it slow (a dozen per call). The object lets
    /// go of its callbacks when it is released, and the handle of an ended one is gone, so this
    /// holds nothing alive for long.
    let object: ExportedObject
    let userData: UnsafeMutableRawPointer?
    private var destroy: mvvm_destroy_fn?

    init(kind: HandleKind, object: ExportedObject, userData: UnsafeMutableRawPointer?, destroy: mvvm_destroy_fn?) {
        self.object = object
        self.userData = userData
        self.destroy = destroy
        super.init(kind: kind)
    }

    override var owningContext: LoopContext? { object.context }

    /// Runs the destroy function, the first time only.
    final func runDestroy() {
        let destroy = self.destroy
        self.destroy = nil
        destroy?(userData)
    }

    /// Drops the destroy function unrun: the caller runs it.
    final func dropDestroy() { destroy = nil }
}

/// A subscription: a C callback on one object's properties and signals.
final class Subscription: ObjectCallback, @unchecked Sendable {
    let selector: ExportedClass.Selector?
    private let callback: mvvm_callback
    /// Cleared when it ends, or as soon as its end is asked for from another thread (a
    /// main-actor object's subscription, ended later on the main loop): no call starts after.
    private let delivering = Atomic<Bool>(true)
    private var hasEnded = false
    var isActive: Bool { delivering.load(ordering: .sequentiallyConsistent) }

    init(object: ExportedObject, selector: ExportedClass.Selector?, callback: @escaping mvvm_callback,
         userData: UnsafeMutableRawPointer?, destroy: mvvm_destroy_fn?) {
        self.selector = selector
        self.callback = callback
        super.init(kind: .subscription, object: object, userData: userData, destroy: destroy)
    }

    func deliver(source: mvvm_handle, kind: mvvm_event_kind, name: UnsafePointer<CChar>, value: Value) {
        value.withCValue { cValue in
            var event = mvvm_event(kind: kind, name: name, value: cValue, index: 0, removed: 0, inserted: 0)
            callback(source, &event, userData)
        }
    }

    func deliver(source: mvvm_handle, name: CName, splice: ListSplice) {
        var event = mvvm_event(kind: MVVM_EVENT_SPLICE, name: name.pointer,
                               value: mvvm_value(type: MVVM_TYPE_NONE, boolean: false, integer: 0, number: 0,
                                                 string: nil, object: 0),
                               index: Int64(splice.index), removed: Int64(splice.removed), inserted: Int64(splice.inserted))
        callback(source, &event, userData)
    }

    override func releaseHandle() throws(ExportError) { try unsubscribe(self) }

    /// No call starts after this returns, whichever thread asks; `end` follows on the loop.
    func stopDelivering() { delivering.store(false, ordering: .sequentiallyConsistent) }

    /// Ends the subscription: no more calls, and the destroy function runs, exactly once.
    func end() {
        guard !hasEnded else { return }
        hasEnded = true
        stopDelivering()
        HandleTable.shared.remove(handle)
        runDestroy()
    }
}

/// An object's subscriptions, in the order they were made: the first kept inline, the others in
/// an array made only for a second (most objects have one subscriber, their view). Iterated as a
/// copy, so a callback that subscribes or unsubscribes changes the next delivery, not this one.
struct Subscribers: Sequence {
    private var first: Subscription?
    private var rest: [Subscription] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ subscription: Subscription) {
        if first == nil { first = subscription } else { rest.append(subscription) }
    }

    mutating func remove(_ subscription: Subscription) {
        if first === subscription {
            first = rest.isEmpty ? nil : rest.removeFirst()
        } else {
            rest.removeAll { $0 === subscription }
        }
    }

    /// The subscribers now, for an announcement: a copy, which holds the array of the second
    /// and later ones only when there are any (the usual one subscriber costs one reference
    /// count, not two).
    @inline(__always)
    var asAnnouncementBegins: Hearers { Hearers(first: first, rest: rest.isEmpty ? nil : rest) }

    /// The subscribers an announcement began with.
    struct Hearers {
        fileprivate let first: Subscription?
        fileprivate let rest: [Subscription]?

        /// Calls `body` with each subscription, in order, until it returns false; each borrowed
        /// from this copy, which holds it (no reference counting per subscription).
        @inline(__always)
        func forEachBorrowed(_ body: (Subscription) -> Bool) {
            guard let first else { return }
            guard Borrowed(first).use(body), let rest else { return }
            rest.withUnsafeBufferPointer { subscriptions in
                for index in subscriptions.indices {
                    guard Borrowed(subscriptions[index]).use(body) else { return }
                }
            }
        }
    }

    struct Iterator: IteratorProtocol {
        fileprivate var first: Subscription?
        fileprivate var rest: IndexingIterator<[Subscription]>

        mutating func next() -> Subscription? {
            if let subscription = first {
                first = nil
                return subscription
            }
            return rest.next()
        }
    }

    func makeIterator() -> Iterator { Iterator(first: first, rest: rest.makeIterator()) }
}
