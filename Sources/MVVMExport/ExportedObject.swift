import CMVVM
@preconcurrency import OpenCombine
import MVVMRuntime

/// The export side of one loop: its objects, and the changes waiting to be announced.
/// Everything here is touched only under the loop's work lock.
final class LoopContext: Handled, @unchecked Sendable {
    let loop: Loop
    private(set) var isReleased = false
    private var objects: [ObjectIdentifier: ExportedObject] = [:]
    private var dirty: [ExportedObject] = []
    /// Objects with `@Observable` properties whose watches are not armed (they changed lately,
    /// or were just subscribed to): read after each operation until found quiet, then armed
    /// (`checkChanging`). Arming `withObservationTracking` is most of what a change or a
    /// subscription costs, and a property that keeps changing, or an object released soon
    /// after, need not pay it each time.
    private var changing: [ExportedObject] = []
    /// Objects that became changing during the current operation (read just now, or just
    /// subscribed to): they join `changing` when it ends, so are first read after the next.
    private var joining: [ExportedObject] = []
    private var turnObserver: AnyCancellable?
    private var nextSerial: UInt64 = 0
    /// How many calls into host code (callbacks, request functions) are running, nested.
    private var hostCallDepth = 0
    /// Asynchronous calls that ended: their completions run once the changes are announced.
    private var ended: [AsyncCall] = []

    init(loop: Loop) {
        self.loop = loop
        super.init(kind: .loop)
        // A turn of due work is one operation: announce its changes when it is complete.
        turnObserver = loop.addTurnObserver { [unowned self] in self.flush() }
    }

    /// Runs a host call on this loop: serialised with the loop's work, and announcing the
    /// changes it made before it returns. Only a `reading` call may run at the deepest nesting.
    func operation<T>(reading: Bool = false, _ body: () throws(ExportError) -> T) throws(ExportError) -> T {
        try loop.perform { () throws(ExportError) -> T in
            guard !isReleased else { throw ExportError(MVVM_ERR_LOOP_RELEASED, "the object's loop was released") }
            guard !loop.isInheritedAcrossFork else {
                throw ExportError(MVVM_ERR_LOOP_RELEASED, "the object's loop was inherited from the parent process "
                                  + "by fork(): only the parent can use it; the child may only release it")
            }
            // Each level costs stack: a runaway feedback loop must end in a status, not a crash.
            guard reading || hostCallDepth < MVVM_MAX_NESTED_CALLS else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "callbacks and request functions are nested "
                                  + "\(MVVM_MAX_NESTED_CALLS) deep on this loop: one keeps causing the change "
                                  + "it is told about (only reads, release and unsubscribe work this deep)")
            }
            let result: T
            do throws(ExportError) {
                result = try body()
            } catch {
                // A failed command may have changed things before it threw: they are announced.
                if !dirty.isEmpty || !changing.isEmpty || !joining.isEmpty || !ended.isEmpty { flush() }
                throw error
            }
            if !dirty.isEmpty || !changing.isEmpty || !joining.isEmpty || !ended.isEmpty { flush() }
            return result
        }
    }

    /// Calls host code; calls it makes into the library nest one level deeper.
    @inline(__always)
    func callingHost<T>(_ body: () -> T) -> T {
        hostCallDepth += 1
        defer { hostCallDepth -= 1 }
        return body()
    }

    func adopt(_ object: ExportedObject) {
        nextSerial += 1
        object.serial = nextSerial
        objects[ObjectIdentifier(object)] = object
    }

    func forget(_ object: ExportedObject) {
        objects[ObjectIdentifier(object)] = nil
        if object.isChanging {
            object.isChanging = false
            changing.removeAll { $0 === object }
            joining.removeAll { $0 === object }
        }
    }

    /// Reads `object`'s unarmed `@Observable` properties after each operation from the next
    /// one on, instead of arming their watches now.
    func keepChecking(_ object: ExportedObject) {
        guard !object.isChanging else { return }
        object.isChanging = true
        joining.append(object)
    }

    /// Each changing object whose properties changed again is marked dirty and stays; one
    /// found quiet has its watches armed and leaves.
    private func checkChanging() {
        // Compacted in place (a check reads properties and calls no host code): no copy of
        // the array per operation.
        var kept = 0
        for index in changing.indices {
            let object = changing[index]
            if object.checkUnarmedProperties() {
                changing[kept] = object
                kept += 1
            } else {
                object.isChanging = false
            }
        }
        changing.removeLast(changing.count - kept)
    }

    /// An asynchronous call ended: its completion runs at the end of this operation or turn.
    func completed(_ call: AsyncCall) { ended.append(call) }

    func markDirty(_ object: ExportedObject) {
        guard !object.isDirty else { return }
        object.isDirty = true
        dirty.append(object)
    }

    /// Announces every pending change; changes made by callbacks are announced too, before
    /// this returns. Objects announce in the order they were created: the order in which they
    /// became dirty follows OpenCombine's subscriber sets, which are hash-ordered and differ
    /// from run to run.
    func flush() {
        if !changing.isEmpty { checkChanging() }
        repeat {
            announceDirty()
            // The completions of the calls that ended, after the changes they made; a
            // completion that changes more is announced in turn.
            while !ended.isEmpty {
                let call = ended.removeFirst()
                call.deliver()
                announceDirty()
            }
        } while !dirty.isEmpty
        if !joining.isEmpty {
            changing.append(contentsOf: joining)
            joining.removeAll(keepingCapacity: true)
        }
    }

    private func announceDirty() {
        while !dirty.isEmpty {
            if dirty.count == 1 {
                // The usual case, taken without copying the array: a copy would make the next
                // change allocate a new buffer for `dirty` (swapping the buffer out and back
                // instead, for every count, measured 170 instructions more per change).
                let object = dirty.removeLast()
                object.isDirty = false
                object.deliverChanges()
                continue
            }
            var batch = dirty
            dirty.removeAll(keepingCapacity: true)
            if batch.count > 1 { batch.sort { $0.serial < $1.serial } }
            for object in batch {
                object.isDirty = false
                object.deliverChanges()
            }
        }
    }

    /// Releasing the loop: its objects end their subscriptions and refuse further calls, then
    /// the loop stops.
    func release() {
        loop.perform {
            isReleased = true
            let detached = objects.values
            objects = [:]
            dirty = []
            for object in changing + joining { object.isChanging = false }
            changing = []
            joining = []
            ended = []
            for object in detached { object.detach() }
        }
        turnObserver = nil
        loop.stop()
        // The tasks of cancelled calls, left on the stopped loop, end now rather than leak.
        loop.perform { loop.executor.drain() }
    }
}

/// A subscription: a C callback on one object's properties and signals.
final class Subscription: Handled, @unchecked Sendable {
    let selector: ExportedClass.Selector?
    private let callback: mvvm_callback
    private let userData: UnsafeMutableRawPointer?
    private var destroy: mvvm_destroy_fn?
    private(set) var isActive = true
    /// The object subscribed to. Strong, and set before the handle is issued: a weak reference
    /// would give the object a side table, which makes every reference count of it slow (a
    /// dozen per call). The object lets go of its subscriptions when it is released, and the
    /// handle of an ended subscription is gone, so this holds nothing alive for long.
    let object: ExportedObject

    init(object: ExportedObject, selector: ExportedClass.Selector?, callback: @escaping mvvm_callback,
         userData: UnsafeMutableRawPointer?, destroy: mvvm_destroy_fn?) {
        self.object = object
        self.selector = selector
        self.callback = callback
        self.userData = userData
        self.destroy = destroy
        super.init(kind: .subscription)
    }

    func deliver(source: mvvm_handle, kind: mvvm_event_kind, name: CName, value: Value) {
        value.withCValue { cValue in
            var event = mvvm_event(kind: kind, name: name.pointer, value: cValue, index: 0, removed: 0, inserted: 0)
            callback(source, &event, userData)
        }
    }

    func deliver(source: mvvm_handle, name: CName, splice: Splice) {
        var event = mvvm_event(kind: MVVM_EVENT_SPLICE, name: name.pointer,
                               value: mvvm_value(type: MVVM_TYPE_NONE, boolean: false, integer: 0, number: 0,
                                                 string: nil, object: 0),
                               index: splice.index, removed: splice.removed, inserted: splice.inserted)
        callback(source, &event, userData)
    }

    /// Ends the subscription: no more calls, and the destroy function runs, exactly once.
    func end() {
        guard isActive else { return }
        isActive = false
        HandleTable.shared.remove(handle)
        let destroy = self.destroy
        self.destroy = nil
        destroy?(userData)
    }
}

/// What an exported object keeps of one property someone subscribed to.
struct PropertyState {
    /// The property's index in its class.
    let property: Int
    /// The subscription to its own publisher, or its Observation watch.
    var watch: PropertyWatch?
    var announced: Value?
    /// The newest value, or the announced one standing for "changed, read it when delivering"
    /// (`latestUnread`: a watch that cannot tell the value, as Observation's); nil when unchanged.
    var latest: Value?
    var latestUnread = false
    /// Bumped at each announcement, so that a callback's nested announcement supersedes an
    /// outer one.
    var stamp: UInt64 = 0
}

/// A model or view model the C side holds a handle to.
final class ExportedObject: Handled, @unchecked Sendable {
    let exportedClass: ExportedClass
    let target: AnyObject
    let context: LoopContext
    /// What must outlive this handle: the parent of a child view model, a host service.
    private let keepAlive: [AnyObject]
    private var subscriptions: [Subscription] = []
    /// Per watched property, in the order they were first subscribed to: a state keeps its slot
    /// for the object's life, so its watch can name it. Only what someone subscribed to costs
    /// anything (a child or a list item nobody subscribes to keeps nothing per property).
    private var states: [PropertyState] = []
    private var pendingSignals: [(index: Int, payload: Value)] = []
    /// Lists: the identities of the items last announced, the splices of the change being
    /// announced, and the lists whose splices are being delivered (a change made meanwhile, by a
    /// callback, waits until every subscriber has had them: splices are deltas).
    private var announcedItems: [Int: [ObjectIdentifier]] = [:]
    private var pendingSplices: [Int: [Splice]] = [:]
    private var deliveringLists: Set<Int> = []
    private var connections: [AnyCancellable] = []
    /// Runs when the object is released or detached from its released loop.
    private var cleanups: [() -> Void] = []
    /// Its asynchronous calls still running: cancelled when it is released.
    private var calls: [AsyncCall] = []
    fileprivate(set) var isDirty = false
    fileprivate(set) var isChanging = false
    /// Creation order on its loop, which orders announcements across objects.
    fileprivate(set) var serial: UInt64 = 0
    private(set) var isReleased = false

    init(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext, keepAlive: [AnyObject] = []) {
        self.exportedClass = exportedClass
        self.target = target
        self.context = context
        self.keepAlive = keepAlive
        super.init(kind: .object)
    }

    /// Registers the object under a new handle and connects its signals; on its loop.
    static func register(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext,
                         keepAlive: [AnyObject] = []) -> ExportedObject {
        let object = ExportedObject(exportedClass, target: target, context: context, keepAlive: keepAlive)
        for (index, signal) in exportedClass.signals.enumerated() {
            object.connections.append(signal.connect(target) { [unowned object] payload in
                guard !object.subscriptions.isEmpty else { return }
                object.pendingSignals.append((index, payload))
                object.context.markDirty(object)
            })
        }
        _ = HandleTable.shared.insert(object)
        context.adopt(object)
        return object
    }

    func addCleanup(_ cleanup: @escaping () -> Void) { cleanups.append(cleanup) }

    func remember(_ call: AsyncCall) { calls.append(call) }
    func forget(_ call: AsyncCall) { calls.removeAll { $0 === call } }

    func subscribe(_ subscription: Subscription) {
        switch subscription.selector {
        case let .property(index)?: watch(index)
        case .signal?: break
        case nil:
            states.reserveCapacity(exportedClass.properties.count)
            exportedClass.properties.indices.forEach(watch)
        }
        subscriptions.append(subscription)
    }

    /// Watches a property from now on: only properties someone subscribed to cost anything.
    private func watch(_ index: Int) {
        guard !isReleased, !states.contains(where: { $0.property == index }) else { return }
        // The value now is the value already announced.
        let property = exportedClass.properties[index]
        let slot = states.count
        states.append(PropertyState(property: index, announced: property.get(target)))
        if let items = property.items { announcedItems[index] = items(target).map { ObjectIdentifier($0) } }
        let watch = property.watch(target, WatchedSlot(object: self, slot: slot))
        states[slot].watch = watch
        // An `@Observable` property is read after the next operation, and armed if quiet then;
        // a list is compared item by item when delivered, so its watch is armed now.
        if isReadAfterOperations(slot) {
            context.keepChecking(self)
        } else {
            watch.rearm()
        }
    }

    /// What a property's watch tells: its new value, or nil for "read it once the operation is
    /// complete".
    func propertyChanged(_ slot: Int, _ value: Value?) {
        if let value {
            states[slot].latest = value
            states[slot].latestUnread = false
        } else {
            states[slot].latest = states[slot].announced
            states[slot].latestUnread = true
        }
        context.markDirty(self)
    }

    func unsubscribe(_ subscription: Subscription) {
        subscriptions.removeAll { $0 === subscription }
        subscription.end()
    }

    /// Announces each property whose newest value differs from the last announced one, then
    /// each pending signal, to the subscribers in the order they subscribed. The newest value is
    /// what the property's publisher last sent: by now the operation has stored it.
    func deliverChanges() {
        guard !isReleased else { return }
        // At most one entry per property, on the stack: this runs for every change.
        withUnsafeTemporaryAllocation(of: (slot: Int, stamp: UInt64).self, capacity: states.count) { changed in
            var changedCount = 0
            for slot in states.indices {
                guard var value = states[slot].latest else { continue }
                let index = states[slot].property
                if let items = exportedClass.properties[index].items {
                    guard !deliveringLists.contains(index) else { continue }
                    states[slot].latest = nil
                    states[slot].latestUnread = false
                    states[slot].watch?.rearm()
                    let old = announcedItems[index] ?? []
                    let new = items(target).map { ObjectIdentifier($0) }
                    guard new != old else { continue }
                    announcedItems[index] = new
                    pendingSplices[index] = Splice.between(old, new)
                    states[slot].stamp &+= 1
                    changed[changedCount] = (slot, states[slot].stamp)
                    changedCount += 1
                    continue
                }
                states[slot].latest = nil
                if states[slot].latestUnread {
                    states[slot].latestUnread = false
                    value = exportedClass.properties[index].get(target)
                    // Armed again once quiet: re-arming after every change is what costs.
                    context.keepChecking(self)
                }
                if value != states[slot].announced {
                    states[slot].announced = value
                    states[slot].stamp &+= 1
                    changed[changedCount] = (slot, states[slot].stamp)
                    changedCount += 1
                }
            }
            // Announced in the order the class lists its properties.
            if changedCount > 1 {
                var changedNow = UnsafeMutableBufferPointer(rebasing: changed[..<changedCount])
                changedNow.sort { states[$0.slot].property < states[$1.slot].property }
            }
            guard !subscriptions.isEmpty else {
                pendingSignals = []
                pendingSplices = [:]
                return
            }
            // Different signals of one operation come in the order the class lists them: the
            // order they were emitted in follows OpenCombine's hash-ordered subscriber sets.
            let signals = pendingSignals.isEmpty ? [] : pendingSignals.enumerated()
                .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
                .map(\.element)
            if !signals.isEmpty { pendingSignals = [] }
            for (slot, stamp) in changed[..<changedCount] {
                let index = states[slot].property
                if !pendingSplices.isEmpty, let splices = pendingSplices.removeValue(forKey: index) {
                    announceSplices(slot, splices)
                    continue
                }
                // A callback may already have caused a newer announcement of this property.
                guard !isReleased, states[slot].stamp == stamp else { continue }
                announce(.property(index), kind: MVVM_EVENT_PROPERTY, name: exportedClass.properties[index].name,
                         value: states[slot].announced!, stamp: (slot, stamp))
            }
            for signal in signals where !isReleased {
                announce(.signal(signal.index), kind: MVVM_EVENT_SIGNAL,
                         name: exportedClass.signals[signal.index].name, value: signal.payload)
            }
        }
    }

    /// After an operation, while this object is changing: reads each property whose watch is
    /// unarmed, and whether any differs from what was announced (it is then marked dirty, its
    /// new value ready). When none does, the watches are armed again.
    fileprivate func checkUnarmedProperties() -> Bool {
        guard !isReleased else { return false }
        var changed = false
        for slot in states.indices where isReadAfterOperations(slot) {
            if states[slot].latest != nil {
                changed = true
                continue
            }
            let value = exportedClass.properties[states[slot].property].get(target)
            if value != states[slot].announced {
                states[slot].latest = value
                changed = true
            }
        }
        if changed {
            context.markDirty(self)
        } else {
            for slot in states.indices where isReadAfterOperations(slot) { states[slot].watch?.rearm() }
        }
        return changed
    }

    /// Whether the property in `slot` is one the loop reads after its operations: not a list,
    /// and its watch unarmed (an `@Observable` property just subscribed to or lately changed).
    /// Takes the slot, not the state: a copy of the state would retain what it holds.
    private func isReadAfterOperations(_ slot: Int) -> Bool {
        guard let watch = states[slot].watch, !watch.isArmed else { return false }
        return exportedClass.properties[states[slot].property].items == nil
    }

    /// Each splice to every subscriber of the list, in order; a change a callback makes to the
    /// list meanwhile is announced after them.
    private func announceSplices(_ slot: Int, _ splices: [Splice]) {
        guard !isReleased else { return }
        let index = states[slot].property
        let name = exportedClass.properties[index].name
        deliveringLists.insert(index)
        defer {
            deliveringLists.remove(index)
            if !isReleased, states[slot].latest != nil { context.markDirty(self) }
        }
        for splice in splices {
            for subscription in subscriptions where subscription.isActive {
                if let wanted = subscription.selector, wanted != .property(index) { continue }
                context.callingHost { subscription.deliver(source: handle, name: name, splice: splice) }
                if isReleased { return }
            }
        }
    }

    /// The current items of a list property, and their class.
    func listItems(_ property: ExportedProperty) -> [AnyObject] { property.items?(target) ?? [] }

    /// `stamp`: a property's slot and the stamp of this announcement of it.
    private func announce(_ selector: ExportedClass.Selector, kind: mvvm_event_kind, name: CName, value: Value,
                          stamp: (slot: Int, stamp: UInt64)? = nil) {
        for subscription in subscriptions where subscription.isActive {
            if let wanted = subscription.selector, wanted != selector { continue }
            context.callingHost { subscription.deliver(source: handle, kind: kind, name: name, value: value) }
            if isReleased { return }
            // A callback caused a newer announcement of this property, which every subscriber
            // has had by now: the rest must not get this older value after it.
            if let stamp, states[stamp.slot].stamp != stamp.stamp { return }
        }
    }

    /// Ends the subscriptions and host requests, and cuts the object off from its model; the
    /// handle stays, refusing calls, until it is released.
    func detach() {
        guard !isReleased else { return }
        isReleased = true
        // Released from inside its own delivery (a host service's request, a callback), the
        // chains must not be cancelled mid-way; their closures reference this object unowned.
        context.loop.keepUntilWorkEnds([self, connections, states.compactMap(\.watch)] as [Any])
        connections = []
        // An armed Observation watch may outlive this object (until its target next changes):
        // cancelled, it tells nobody. Every object is detached before it is freed (its loop's
        // table holds it until `release` or the loop's release detaches it).
        for index in states.indices {
            states[index].watch?.cancel()
            states[index].watch = nil
        }
        // Its calls end as cancelled, each completion once, before its subscriptions end.
        for call in calls { call.cancel("its object was released") }
        calls = []
        let ending = subscriptions
        subscriptions = []
        for subscription in ending { subscription.end() }
        let cleanups = self.cleanups
        self.cleanups = []
        for cleanup in cleanups { cleanup() }
    }

    /// `mvvm_release`: frees the handle, then detaches. The handle goes first, so a destroy
    /// function or a cancelled request that releases the object again gets INVALID_HANDLE: one
    /// release, one OK.
    func release() {
        HandleTable.shared.remove(handle)
        detach()
        context.forget(self)
    }

    /// Each property's value; a list as its items' identities (`mvvm_object_id`).
    var snapshotJSON: String {
        JSON.object(exportedClass.properties.map { property in
            if let items = property.items {
                return (property.name.string, JSON.array(items(target).map { String(ObjectIdentity.shared.id(of: $0)) }))
            }
            return (property.name.string, property.get(target).json)
        })
    }
}
