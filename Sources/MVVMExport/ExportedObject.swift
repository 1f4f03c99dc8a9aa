import CMVVM
import MVVMRuntime
@preconcurrency import OpenCombine
import Synchronization

/// A model or view model the C side holds a handle to: its subscriptions, what it keeps of the
/// properties someone watches, its pending signals and asynchronous calls; and the delivery of
/// each operation's changes to its subscribers.
final class ExportedObject: Handled, @unchecked Sendable {
    let exportedClass: ExportedClass
    let target: AnyObject
    let context: LoopContext
    /// Its loop's, for the check every change makes (``WatchedSlot/changed(_:then:)``).
    let loopIdentity: LoopIdentity
    /// Its class's ``ExportedClass/isMainActor``, beside what every call reads.
    let isMainActor: Bool
    /// The constructor it was made with (`mvvm_describe`'s "constructor"); nil for a child or a
    /// list's item, which its parent made.
    let constructor: String?
    /// What must outlive this handle: the parent of a child view model, a host service.
    private let keepAlive: [AnyObject]
    private var subscriptions: [Subscription] = []
    /// Per watched value and list, in the order they were first subscribed to: a state keeps
    /// its slot for the object's life, so its watch can name it. Only what someone subscribed
    /// to costs anything (a child or a list item nobody subscribes to keeps nothing).
    private var values: [ValueState] = []
    private var lists: [ListState] = []
    private var pendingSignals: [(index: Int, payload: Value)] = []
    private var connections: [AnyCancellable] = []
    /// Runs when the object is released or detached from its released loop.
    private var cleanups: [() -> Void] = []
    /// Its asynchronous calls still running: cancelled when it is released.
    private var calls: [AsyncCall] = []
    var isDirty = false
    var isChanging = false
    /// Creation order on its loop, which orders announcements across objects.
    var serial: UInt64 = 0
    private(set) var isReleased = false
    /// Set by a release from another thread of a main-actor object, which is detached later on
    /// the main loop: its subscribers hear nothing more from the moment the release returns.
    private let isSilenced = Atomic<Bool>(false)

    init(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext, constructor: String? = nil,
         keepAlive: [AnyObject] = []) {
        self.exportedClass = exportedClass
        self.target = target
        self.context = context
        loopIdentity = context.loop.identity
        isMainActor = exportedClass.isMainActor
        self.constructor = constructor
        self.keepAlive = keepAlive
        super.init(kind: .object)
    }

    /// Only a main-actor object can be silenced; the others pay one test of a stored flag.
    @inline(__always)
    private var isMainActorSilenced: Bool { isMainActor && isSilenced.load(ordering: .sequentiallyConsistent) }

    /// Registers the object under a new handle and connects its signals; on its loop.
    static func register(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext,
                         constructor: String? = nil, keepAlive: [AnyObject] = []) -> ExportedObject {
        let object = ExportedObject(exportedClass, target: target, context: context, constructor: constructor,
                                    keepAlive: keepAlive)
        for (index, signal) in exportedClass.signals.enumerated() {
            object.connections.append(signal.connect(target, context.loop) { [unowned object] payload in
                guard object.loopIdentity.isHeldByCurrentThread else { return object.signalElsewhere(index, payload) }
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

    // MARK: Subscriptions and watches

    func subscribe(_ subscription: Subscription) {
        switch subscription.selector {
        case let .property(index)?: watch(index)
        case .signal?: break
        case nil:
            // Every property: the states' arrays made once, at their full size.
            if values.isEmpty && lists.isEmpty {
                let listCount = exportedClass.properties.reduce(0) { $0 + ($1.list == nil ? 0 : 1) }
                values.reserveCapacity(exportedClass.properties.count - listCount)
                lists.reserveCapacity(listCount)
            }
            exportedClass.properties.indices.forEach(watch)
        }
        subscriptions.append(subscription)
    }

    func unsubscribe(_ subscription: Subscription) {
        subscriptions.removeAll { $0 === subscription }
        subscription.end()
    }

    /// Watches a property from now on: only properties someone subscribed to cost anything.
    private func watch(_ index: Int) {
        guard !isReleased else { return }
        let property = exportedClass.properties[index]
        if let list = property.list {
            guard !lists.contains(where: { $0.property == index }) else { return }
            // The items now are the items already announced.
            let slot = lists.count
            lists.append(ListState(property: index, announced: list.items(target)))
            let watch = list.watch(target, WatchedSlot(object: self, slot: slot, isList: true))
            lists[slot].watch = watch
            if !watch.comparesWithAnnounced { lists[slot].announced = .none }
            watch.rearm()
            return
        }
        guard !values.contains(where: { $0.property == index }) else { return }
        // The value now is the value already announced.
        let slot = values.count
        values.append(ValueState(property: index, announced: property.get(target)))
        let watch = property.watch(target, WatchedSlot(object: self, slot: slot, isList: false))
        values[slot].watch = watch
        // An `@Observable` property is read after the next operation, and armed if quiet then.
        if watch.isArmed { return }
        context.keepChecking(self)
    }

    /// What a value's watch tells: its new value, or nil for "read it once the operation is
    /// complete".
    /// A watched property changed on a thread that does not hold the loop (a `@Published`
    /// property set on a background queue, an `@Observable` one in a detached task): the change
    /// is the loop's work, due now, so a manual loop's fd becomes readable, a thread loop wakes,
    /// a virtual loop delivers it at its next advance, and the host need not call anything. A
    /// `$x` publisher carries its value. A watch without one is told in `willSet`, before the
    /// value is stored, and the loop may read before it is: it reads again a millisecond later,
    /// announcing only what differs from what it announced.
    func changedElsewhere(_ slot: Int, isList: Bool, _ value: Value?, then rearm: (() -> Void)?) {
        let loop = context.loop
        let apply = { [self] in
            guard !isReleased else { return }
            rearm?()
            if isList { listChanged(slot) } else { valueChanged(slot, value) }
        }
        loop.schedule(apply)
        if value == nil {
            loop.schedule(after: loop.now.advanced(by: .milliseconds(1)), tolerance: .zero, options: nil) { [self] in
                guard !isReleased else { return }
                if isList { listChanged(slot) } else { valueChanged(slot, nil) }
            }
        }
    }

    /// A signal sent on a thread that does not hold the loop: delivered as the loop's work.
    private func signalElsewhere(_ index: Int, _ payload: Value) {
        context.loop.schedule { [self] in
            guard !isReleased, !subscriptions.isEmpty else { return }
            pendingSignals.append((index, payload))
            context.markDirty(self)
        }
    }

    func valueChanged(_ slot: Int, _ value: Value?) {
        if let value {
            values[slot].latest = value
            values[slot].latestUnread = false
        } else {
            values[slot].latest = values[slot].announced
            values[slot].latestUnread = true
        }
        context.markDirty(self)
    }

    /// What a list's watch tells: it changed.
    func listChanged(_ slot: Int) {
        lists[slot].changed = true
        if lists[slot].delivery != nil { lists[slot].changedAtDepth = context.depth }
        context.markDirty(self)
    }

    // MARK: Delivery

    /// One change to announce: a value's or a list's slot, its property, its stamp then.
    private struct Change {
        let isList: Bool
        let slot: Int32
        let property: Int32
        let stamp: UInt64

        init(isList: Bool, slot: Int, stamp: UInt64, property: Int) {
            self.isList = isList
            self.slot = Int32(truncatingIfNeeded: slot)
            self.property = Int32(truncatingIfNeeded: property)
            self.stamp = stamp
        }
    }

    /// Announces each property whose newest value differs from the last announced one, in the
    /// order the class lists them, then each pending signal, to the subscribers in the order
    /// they subscribed.
    func deliverChanges() {
        guard !isReleased else { return }
        // At most one entry per watched property, on the stack: this runs for every change.
        withUnsafeTemporaryAllocation(of: Change.self, capacity: values.count + lists.count) { changes in
            var count = collectValueChanges(into: changes)
            var listDepth = 0
            if !lists.isEmpty { count += collectListChanges(into: changes, from: count, depth: &listDepth) }
            if count > 1 {
                var ordered = UnsafeMutableBufferPointer(rebasing: changes[..<count])
                ordered.sort { $0.property < $1.property }
            }
            guard !subscriptions.isEmpty else {
                pendingSignals = []
                for change in changes[..<count] where change.isList { lists[Int(change.slot)].delivery = nil }
                return
            }
            let signals = takeSignals()
            // A list changed by a callback of its own splices is announced as deep as it was
            // changed (rare: the usual delivery takes no closure).
            if listDepth > 0 {
                context.nested(atLeast: listDepth) { announce(changes[..<count], signals) }
            } else {
                announce(changes[..<count], signals)
            }
        }
    }

    @inline(__always)
    private func announce(_ changes: UnsafeMutableBufferPointer<Change>.SubSequence, _ signals: [(index: Int, payload: Value)]) {
        for change in changes where !isReleased {
            if change.isList { announceSplices(change) } else { announceValue(change) }
        }
        for signal in signals where !isReleased {
            announce(.signal(signal.index), kind: MVVM_EVENT_SIGNAL,
                     name: exportedClass.signals[signal.index].name, value: signal.payload)
        }
    }

    /// The values whose newest value differs from the announced one: now announced, each with
    /// a new stamp. A value its watch could not tell is read now, the operation being complete.
    @inline(__always)
    private func collectValueChanges(into changes: UnsafeMutableBufferPointer<Change>) -> Int {
        var count = 0
        for slot in values.indices {
            guard var value = values[slot].latest.take() else { continue }
            if values[slot].latestUnread {
                values[slot].latestUnread = false
                value = exportedClass.properties[values[slot].property].get(target)
                // Armed again once quiet: re-arming after every change is what costs.
                context.keepChecking(self)
            }
            guard !value.isSame(as: values[slot].announced) else { continue }
            values[slot].announced = value
            values[slot].stamp &+= 1
            changes[count] = Change(isList: false, slot: slot, stamp: values[slot].stamp, property: values[slot].property)
            count += 1
        }
        return count
    }

    /// The lists that changed (and are not being delivered already: a change a callback makes
    /// meanwhile waits until every subscriber has had the splices, which are deltas), each now
    /// with the splices to deliver, and those `takeListChanges` took before. `depth`: how deep
    /// the deepest of them was changed.
    private func collectListChanges(into changes: UnsafeMutableBufferPointer<Change>, from start: Int,
                                    depth: inout Int) -> Int {
        var count = 0
        for slot in lists.indices {
            if lists[slot].delivery == nil {
                guard lists[slot].changed, takeListChange(slot) else { continue }
            } else if lists[slot].delivery!.announcing {
                continue
            }
            lists[slot].delivery!.announcing = true
            depth = max(depth, lists[slot].delivery!.depth)
            changes[start + count] = Change(isList: true, slot: slot, stamp: 0, property: lists[slot].property)
            count += 1
        }
        return count
    }

    /// Takes the change of each changed list (that is not being delivered) now, to be announced
    /// by `deliverChanges`: when several objects announce one operation's changes, the lists of
    /// each read as before the operation until their own splices come, not as it left them.
    func takeListChanges() {
        guard !isReleased else { return }
        for slot in lists.indices where lists[slot].changed && lists[slot].delivery == nil { _ = takeListChange(slot) }
    }

    var hasLists: Bool { !lists.isEmpty }

    /// The change of the list in `slot`, compared or recorded, as a delivery; whether it has any
    /// splice.
    private func takeListChange(_ slot: Int) -> Bool {
        lists[slot].changed = false
        // An Observation watch tells of one change at a time.
        lists[slot].watch?.rearm()
        let depth = lists[slot].changedAtDepth
        lists[slot].changedAtDepth = 0
        let now = exportedClass.properties[lists[slot].property].list!.items(target)
        let splices = lists[slot].watch?.takeChange(from: lists[slot].announced, to: now) ?? []
        if lists[slot].watch?.comparesWithAnnounced ?? true { lists[slot].announced = now }
        guard !splices.isEmpty else { return false }
        lists[slot].delivery = ListDelivery(splices: splices, final: now, depth: depth)
        return true
    }

    /// The pending signals, different signals in the order the class lists them (the order of
    /// emission follows OpenCombine's hash-ordered subscriber sets), one signal's in the order
    /// emitted.
    @inline(__always)
    private func takeSignals() -> [(index: Int, payload: Value)] {
        guard !pendingSignals.isEmpty else { return [] }
        defer { pendingSignals = [] }
        return pendingSignals.enumerated()
            .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
            .map(\.element)
    }

    @inline(__always)
    private func announceValue(_ change: Change) {
        // A callback may already have caused a newer announcement of this property.
        let slot = Int(change.slot), property = Int(change.property)
        guard values[slot].stamp == change.stamp else { return }
        announce(.property(property), kind: MVVM_EVENT_PROPERTY, name: exportedClass.properties[property].name,
                 value: values[slot].announced, stamp: (slot, change.stamp))
    }

    /// Each splice of a list's change to every subscriber of the list when the change began
    /// (one who subscribes meanwhile hears the next change), in order; reads meanwhile see the
    /// list as the splice being delivered leaves it (before, as before the operation).
    private func announceSplices(_ change: Change) {
        let slot = Int(change.slot)
        let name = exportedClass.properties[Int(change.property)].name
        let hearers = subscriptions.filter { $0.selector == nil || $0.selector == .property(Int(change.property)) }
        defer {
            if !isReleased {
                lists[slot].delivery = nil
                if lists[slot].changed { context.markDirty(self) }
            }
        }
        let splices = lists[slot].delivery!.splices
        for (index, splice) in splices.enumerated() {
            lists[slot].delivery!.current = index
            for subscription in hearers where subscription.isActive && !isMainActorSilenced {
                context.callingHost { subscription.deliver(source: handle, name: name, splice: splice.splice) }
                if isReleased { return }
            }
        }
    }

    /// `stamp`: a value's slot and the stamp of this announcement of it. Inlined: it runs for
    /// every change announced.
    @inline(__always)
    private func announce(_ selector: ExportedClass.Selector, kind: mvvm_event_kind, name: CName, value: Value,
                          stamp: (slot: Int, stamp: UInt64)? = nil) {
        for subscription in subscriptions where subscription.isActive && !isMainActorSilenced {
            if let wanted = subscription.selector, wanted != selector { continue }
            context.callingHost { subscription.deliver(source: handle, kind: kind, name: name, value: value) }
            if isReleased { return }
            // A callback caused a newer announcement of this property, which every subscriber
            // has had by now: the rest must not get this older value after it.
            if let stamp, values[stamp.slot].stamp != stamp.stamp { return }
        }
    }

    // MARK: @Observable values read after operations

    /// After an operation, while this object is changing: reads each value whose watch is
    /// unarmed, and whether any differs from what was announced (it is then marked dirty, its
    /// new value ready). When none does, the watches are armed again.
    func checkUnarmedProperties() -> Bool {
        guard !isReleased else { return false }
        var changed = false
        for slot in values.indices where isReadAfterOperations(slot) {
            if values[slot].latest != nil {
                changed = true
                continue
            }
            let value = exportedClass.properties[values[slot].property].get(target)
            if !value.isSame(as: values[slot].announced) {
                values[slot].latest = value
                changed = true
            }
        }
        if changed {
            context.markDirty(self)
        } else {
            for slot in values.indices where isReadAfterOperations(slot) { values[slot].watch?.rearm() }
        }
        return changed
    }

    /// Whether the value in `slot` is one the loop reads after its operations: its watch
    /// unarmed (an `@Observable` property just subscribed to or lately changed). Takes the
    /// slot, not the state: a copy of the state would retain what it holds.
    private func isReadAfterOperations(_ slot: Int) -> Bool {
        guard let watch = values[slot].watch else { return false }
        return !watch.isArmed
    }

    // MARK: Lists

    /// How many items the list property has: as the splices delivered so far leave it, while
    /// its change is delivered; otherwise now.
    func listCount(_ property: ExportedProperty, _ list: ListMember) -> Int {
        if let delivery = delivery(of: property) { return delivery.count }
        return list.count(target)
    }

    /// The item at `index` of the list property, read as `listCount` counts; nil out of range.
    func listItem(_ property: ExportedProperty, _ list: ListMember, at index: Int) -> AnyObject? {
        if let delivery = delivery(of: property) { return delivery.item(index) }
        guard index >= 0, index < list.count(target) else { return nil }
        return list.item(target, index)
    }

    private func delivery(of property: ExportedProperty) -> ListDelivery? {
        guard !lists.isEmpty, let index = exportedClass.properties.firstIndex(where: { $0 === property }) else { return nil }
        return lists.first(where: { $0.property == index })?.delivery
    }

    // MARK: Ending

    /// This object, and what of it a publisher chain may still run in while the current work
    /// unwinds; for most objects only itself, kept with no allocation.
    private func keepChainsUntilWorkEnds() {
        var chains: [AnyObject] = []  // allocates only when something is appended
        for watch in values.lazy.compactMap(\.watch) where watch is PublisherWatch { chains.append(watch) }
        for watch in lists.lazy.compactMap(\.watch) where watch is PublisherWatch { chains.append(watch) }
        chains.append(contentsOf: connections as [AnyObject])
        guard !chains.isEmpty else { return context.loop.keepUntilWorkEnds(self) }
        chains.append(self)
        context.loop.keepUntilWorkEnds(chains)
    }

    /// Ends the subscriptions, calls and host requests, and cuts the object off from its model;
    /// the handle stays, refusing calls, until it is released.
    func detach() {
        guard !isReleased else { return }
        isReleased = true
        // Released from inside its own delivery (a host service's request, a callback), the
        // chains must not be cancelled mid-way; their closures reference this object unowned.
        // Only publisher chains (signals, publisher watches) go on after cancel: Observation's
        // and a SpliceList's watches tell nobody once cancelled, and need no keeping.
        keepChainsUntilWorkEnds()
        connections = []
        // An armed Observation watch may outlive this object (until its target next changes):
        // cancelled, it tells nobody. Every object is detached before it is freed (its loop's
        // table holds it until `release` or the loop's release detaches it).
        for slot in values.indices {
            values[slot].watch?.cancel()
            values[slot].watch = nil
        }
        for slot in lists.indices {
            lists[slot].watch?.cancel()
            lists[slot].watch = nil
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

    override var owningContext: LoopContext? { context }

    /// Not an operation: an object of a released loop must still be releasable.
    override func releaseHandle() throws(ExportError) {
        // A main-actor object's handle ends now, and the object on the main loop's thread (a
        // garbage collector runs finalizers on any thread): one release, one OK.
        if exportedClass.isMainActor && !context.loop.isOnMainActorThread {
            guard HandleTable.shared.remove(handle) else { return }
            isSilenced.store(true, ordering: .sequentiallyConsistent)
            return context.loop.schedule { [self] in
                detach()
                context.forget(self)
            }
        }
        context.loop.perform { release() }
    }

    /// A main-actor object's members are reached only on the thread that serves the main actor.
    @inline(never)
    func requireMainActorThread() throws(ExportError) {
        guard context.loop.isOnMainActorThread else {
            throw ExportError(MVVM_ERR_WRONG_THREAD, "\(HandleTable.describe(handle)) is a \(exportedClass.name.string), "
                              + "a @MainActor class: it is used only on the main thread, which runs its main loop")
        }
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
            if let list = property.list {
                let items = list.items(target)
                return (property.name.string, JSON.array((0..<items.count).map { String(ObjectIdentity.shared.id(of: items.item($0))) }))
            }
            return (property.name.string, property.get(target).json)
        })
    }
}
