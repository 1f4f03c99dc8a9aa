import CMVVM
import MVVMRuntime
@preconcurrency import OpenCombine
import Observation
import Synchronization

/// A model or view model the C side holds a handle to: its subscriptions, what it keeps of the
/// properties someone watches, its pending signals and asynchronous calls; and the delivery of
/// each operation's changes to its subscribers.
final class ExportedObject: Handled, @unchecked Sendable {
    // The flags first: declared together, they fill the padding after the handle's own fields
    // rather than a word each among the references (an object 16 bytes smaller).
    /// Its class's ``ExportedClass/isMainActor``, beside what every call reads.
    let isMainActor: Bool
    var isDirty = false
    var isChanging = false
    private(set) var isReleased = false
    /// Set by a release from another thread of a main-actor object, which is detached later on
    /// the main loop: its subscribers hear nothing more from the moment the release returns.
    private let isSilenced = Atomic<Bool>(false)
    /// The constructor it was made with, by its place in its class (-1: none, a child or a
    /// list's item, which its parent made): two bytes beside the flags, not a string's sixteen.
    private let constructorIndex: Int16
    let exportedClass: ExportedClass
    let target: AnyObject
    let context: LoopContext
    /// Its loop's, for the check every change makes (``WatchedSlot/changed(_:)``).
    let loopIdentity: LoopIdentity
    /// Its place among its loop context's objects; -1 once forgotten. Beside `loopIdentity`,
    /// in the four bytes it leaves.
    var contextSlot: Int32 = -1
    /// What must outlive this handle: the parent of a child view model, a host service.
    private let keepAlive: [AnyObject]
    private(set) var subscriptions = Subscribers()
    /// Per watched value and list (``MemberState``), in the order they were first subscribed
    /// to: a state keeps its slot for the object's life, so its watch can name it. Only what
    /// someone subscribed to costs anything (a child or a list item nobody subscribes to keeps
    /// nothing).
    var values: [ValueState] = []
    /// Where its tracking of its watched `@Observable` values tells a change; made at its first
    /// arming.
    private var observationRelay: ObservationRelay?
    /// How many trackings of watched `@Observable` values have been made, by every object: how
    /// tests hold an object to one tracking, however many of its values are watched.
    static let observationTrackings = Atomic<Int>(0)
    /// What few objects have (lists, signals, calls, cleanups), made at its first use: one
    /// reference in every object instead of five arrays.
    private var extras: ObjectExtras?
    /// Creation order on its loop, which orders announcements across objects.
    var serial: UInt64 = 0

    /// `constructor`: the place among its class's constructors of the one that made it; -1 for
    /// none.
    init(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext, constructor: Int = -1,
         keepAlive: [AnyObject] = []) {
        self.exportedClass = exportedClass
        self.target = target
        self.context = context
        loopIdentity = context.loop.identity
        isMainActor = exportedClass.isMainActor
        constructorIndex = Int16(truncatingIfNeeded: constructor)
        self.keepAlive = keepAlive
        super.init(kind: .object)
    }

    /// The constructor it was made with (`mvvm_describe`'s "constructor"); nil for a child or a
    /// list's item, which its parent made.
    var constructor: String? { constructorIndex < 0 ? nil : exportedClass.constructors[Int(constructorIndex)].name }

    /// Only a main-actor object can be silenced; the others pay one test of a stored flag.
    @inline(__always)
    var isMainActorSilenced: Bool { isMainActor && isSilenced.load(ordering: .sequentiallyConsistent) }

    /// Registers the object under a new handle and connects its signals; on its loop.
    static func register(_ exportedClass: ExportedClass, target: AnyObject, context: LoopContext,
                         constructor: Int = -1, keepAlive: [AnyObject] = []) -> ExportedObject {
        let object = ExportedObject(exportedClass, target: target, context: context, constructor: constructor,
                                    keepAlive: keepAlive)
        for (index, signal) in exportedClass.signals.enumerated() {
            object.madeExtras.connections.append(signal.connect(target, context.loop) { [unowned object] payload in
                guard object.loopIdentity.isHeldByCurrentThread else { return object.signalElsewhere(index, payload) }
                guard !object.subscriptions.isEmpty else { return }
                object.madeExtras.pendingSignals.append((index, payload))
                object.context.markDirty(object)
            })
        }
        _ = HandleTable.shared.insert(object)
        context.adopt(object)
        return object
    }

    /// Its extras, made now if it has none.
    private var madeExtras: ObjectExtras {
        if let extras { return extras }
        let made = ObjectExtras()
        extras = made
        return made
    }

    /// The states of its watched lists (see `values`).
    var lists: [ListState] {
        _read {
            if let extras { yield extras.lists } else { yield [] }
        }
        _modify { yield &madeExtras.lists }
    }

    func addCleanup(_ cleanup: @escaping () -> Void) { madeExtras.cleanups.append(cleanup) }

    func remember(_ call: AsyncCall) { madeExtras.calls.append(call) }
    func forget(_ call: AsyncCall) { extras?.calls.removeAll { $0 === call } }

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
                if listCount > 0 { lists.reserveCapacity(listCount) }
            }
            exportedClass.properties.indices.forEach(watch)
        }
        subscriptions.append(subscription)
    }

    func unsubscribe(_ subscription: Subscription) {
        subscriptions.remove(subscription)
        subscription.end()
    }

    /// Watches a property from now on: only properties someone subscribed to cost anything.
    private func watch(_ index: Int) {
        guard !isReleased else { return }
        // Borrowed from the class, which outlives its objects: no reference counting per property.
        Unmanaged.passUnretained(exportedClass.properties[index])._withUnsafeGuaranteedRef { watch(index, $0) }
    }

    private func watch(_ index: Int, _ property: ExportedProperty) {
        if let list = property.list {
            guard !lists.contains(where: { $0.property == index }) else { return }
            // The items now are the items already announced.
            let slot = lists.count
            lists.append(ListState(property: index, announced: list.items(target)))
            let watch = list.watch(target, WatchedSlot<ListState>(object: self, slot: slot))
            lists[slot].watch = watch
            if !watch.comparesWithAnnounced { lists[slot].announced = .none }
            watch.rearm()
            return
        }
        guard !values.contains(where: { $0.property == index }) else { return }
        // The value now is the value already announced.
        let slot = values.count
        values.append(ValueState(property: index, announced: property.get(target)))
        switch property.watching {
        case let .own(start):
            values[slot].watch = start(target, WatchedSlot<ValueState>(object: self, slot: slot))
        case .observation:
            // Read after the next operation, and armed with the others if quiet then.
            values[slot].isObserved = true
            context.keepChecking(self)
        }
    }

    /// What a watch tells, on a thread that holds the loop: its property changed (see
    /// ``MemberState/changed(_:depth:)``).
    @inline(__always)
    func changed<State: MemberState>(_ slot: WatchedSlot<State>, _ value: Value?) {
        State[self, slot.slot].changed(value, depth: context.depth)
        context.markDirty(self)
    }

    /// A watched property changed on a thread that does not hold the loop (a `@Published`
    /// property set on a background queue, an `@Observable` one in a detached task): the change
    /// is the loop's work, due now, so a manual loop's fd becomes readable, a thread loop wakes,
    /// a virtual loop delivers it at its next advance, and the host need not call anything. A
    /// `$x` publisher carries its value. A watch without one is told in `willSet`, before the
    /// value is stored, and the loop may read before it is: it reads again a millisecond later,
    /// announcing only what differs from what it announced.
    func changedElsewhere<State: MemberState>(_ slot: WatchedSlot<State>, _ value: Value?, readingAgain: Bool = true,
                                              then rearm: (() -> Void)?) {
        carryToLoop({ [self] in
            rearm?()
            changed(slot, value)
        }, readingAgain: value != nil || !readingAgain ? nil : { [self] in changed(slot, nil) })
    }

    /// Runs `change` as the loop's work, due now, and `readAgain`, when given, a millisecond
    /// later (a change told in `willSet` may be read before the value is stored); neither once
    /// the object is released.
    private func carryToLoop(_ change: @escaping () -> Void, readingAgain readAgain: (() -> Void)?) {
        let loop = context.loop
        loop.schedule { [self] in
            guard !isReleased else { return }
            change()
        }
        guard let readAgain else { return }
        loop.schedule(after: loop.now.advanced(by: .milliseconds(1)), tolerance: .zero, options: nil) { [self] in
            guard !isReleased else { return }
            readAgain()
        }
    }

    // MARK: @Observable values, tracked together

    /// Arms every watched `@Observable` value in one tracking (``ObservationRelay``), which
    /// replaces any live one (a value subscribed to since is not in it); on the loop's thread.
    func armObservedValues() {
        Self.observationTrackings.add(1, ordering: .relaxed)
        let relay = observationRelay ?? ObservationRelay(self)
        observationRelay = relay
        withObservationTracking {
            for slot in values.indices where values[slot].isObserved {
                values[slot].isTracked = true
                _ = read(values[slot].property)
            }
        } onChange: { relay.changed() }
    }

    /// The tracking saw a change: every watched `@Observable` value is read once the operation
    /// is complete.
    func observedValuesChanged() {
        for slot in values.indices where values[slot].isObserved {
            values[slot].isTracked = false
            changed(WatchedSlot<ValueState>(object: self, slot: slot), nil)
        }
    }

    /// `observedValuesChanged`, told on a thread that does not hold the loop (see
    /// `changedElsewhere`): carried to the loop, and the values read again a millisecond later,
    /// Observation telling in `willSet`.
    func observedValuesChangedElsewhere() {
        carryToLoop({ [self] in observedValuesChanged() }, readingAgain: { [self] in
            for slot in values.indices where isReadAfterOperations(slot) {
                changed(WatchedSlot<ValueState>(object: self, slot: slot), nil)
            }
        })
    }

    /// A signal sent on a thread that does not hold the loop: delivered as the loop's work.
    private func signalElsewhere(_ index: Int, _ payload: Value) {
        context.loop.schedule { [self] in
            guard !isReleased, !subscriptions.isEmpty else { return }
            madeExtras.pendingSignals.append((index, payload))
            context.markDirty(self)
        }
    }

    // MARK: Delivery

    /// Announces each property whose change its state took (a value that differs from the last
    /// announced one, a list's splices), in the order the class lists them, then each pending
    /// signal, to the subscribers in the order they subscribed.
    func deliverChanges() {
        guard !isReleased else { return }
        if extras?.isQuiet ?? true, let slot = onlyChangedValue() {
            return deliverChange(ofValue: slot)
        }
        // At most one entry per watched property, on the stack: this runs for every change.
        withUnsafeTemporaryAllocation(of: MemberChange.self, capacity: values.count + lists.count) { changes in
            var depth = 0
            var count = takeChanges(ValueState.self, count: values.count, into: changes, from: 0, depth: &depth)
            count += takeChanges(ListState.self, count: lists.count, into: changes, from: count, depth: &depth)
            if count > 1 {
                var ordered = UnsafeMutableBufferPointer(rebasing: changes[..<count])
                ordered.sort { $0.property < $1.property }
            }
            guard !subscriptions.isEmpty else {
                extras?.pendingSignals = []
                for change in changes[..<count] { change.kind.drop(change, of: self) }
                return
            }
            let signals = takeSignals()
            // A change made by a callback of its own announcement is announced as deep as it
            // was made (rare: the usual delivery takes no closure).
            if depth > 0 {
                context.nested(atLeast: depth) { announce(changes[..<count], signals) }
            } else {
                announce(changes[..<count], signals)
            }
        }
    }

    /// The common operation's delivery: the slot of the one value that changed, when no other
    /// did; nil when none or several did (the general path, which orders them).
    @inline(__always)
    private func onlyChangedValue() -> Int? {
        var only: Int?
        for slot in values.indices where values[slot].latest != nil {
            guard only == nil else { return nil }
            only = slot
        }
        return only
    }

    /// The change of the value in `slot`, taken and announced: `deliverChanges` for one change,
    /// with nothing to collect or order.
    private func deliverChange(ofValue slot: Int) {
        var depth = 0
        guard let stamp = values[slot].takeChange(of: self, depth: &depth), !subscriptions.isEmpty else { return }
        ValueState.announce(MemberChange(kind: ValueState.self, slot: slot, property: values[slot].property, stamp: stamp),
                            of: self)
    }

    /// The changes the states of one kind take, from `start` on in `changes`; how many.
    @inline(__always)
    private func takeChanges<State: MemberState>(_: State.Type, count stateCount: Int,
                                                 into changes: UnsafeMutableBufferPointer<MemberChange>, from start: Int,
                                                 depth: inout Int) -> Int {
        var count = 0
        for slot in 0..<stateCount {
            guard let stamp = State[self, slot].takeChange(of: self, depth: &depth) else { continue }
            changes[start + count] = MemberChange(kind: State.self, slot: slot, property: State[self, slot].property, stamp: stamp)
            count += 1
        }
        return count
    }

    @inline(__always)
    private func announce(_ changes: UnsafeMutableBufferPointer<MemberChange>.SubSequence,
                          _ signals: [(index: Int, payload: Value)]) {
        for change in changes where !isReleased { change.kind.announce(change, of: self) }
        for signal in signals where !isReleased {
            announce(.signal(signal.index), kind: MVVM_EVENT_SIGNAL,
                     name: exportedClass.signals[signal.index].name.pointer, value: signal.payload)
        }
    }

    /// Takes the change of each changed list (that is not being delivered) now, to be announced
    /// by `deliverChanges`: when several objects announce one operation's changes, the lists of
    /// each read as before the operation until their own splices come, not as it left them.
    func takeListChanges() {
        guard !isReleased else { return }
        for slot in lists.indices where lists[slot].changed && lists[slot].delivery == nil { _ = lists[slot].take(of: self) }
    }

    var hasLists: Bool { !(extras?.lists.isEmpty ?? true) }

    /// The pending signals, different signals in the order the class lists them (the order of
    /// emission follows OpenCombine's hash-ordered subscriber sets), one signal's in the order
    /// emitted.
    @inline(__always)
    private func takeSignals() -> [(index: Int, payload: Value)] {
        guard let extras, !extras.pendingSignals.isEmpty else { return [] }
        defer { extras.pendingSignals = [] }
        return extras.pendingSignals.enumerated()
            .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
            .map(\.element)
    }

    /// `stamp`: a value's slot and the stamp of this announcement of it. Inlined: it runs for
    /// every change announced.
    @inline(__always)
    func announce(_ selector: ExportedClass.Selector, kind: mvvm_event_kind, name: UnsafePointer<CChar>, value: Value,
                  stamp: (slot: Int, stamp: UInt64)? = nil) {
        // The subscribers as the announcement began: a callback that subscribes or unsubscribes
        // changes the next one.
        let hearers = subscriptions.asAnnouncementBegins
        hearers.forEachBorrowed { subscription in
            guard subscription.isActive && !isMainActorSilenced else { return true }
            if let wanted = subscription.selector, wanted != selector { return true }
            context.callingHost { subscription.deliver(source: handle, kind: kind, name: name, value: value) }
            if isReleased { return false }
            // A callback caused a newer announcement of this property, which every subscriber
            // has had by now: the rest must not get this older value after it.
            if let stamp, values[stamp.slot].stamp != stamp.stamp { return false }
            return true
        }
    }

    // MARK: @Observable values read after operations

    /// After an operation, while this object is changing: reads each `@Observable` value the
    /// live tracking does not read, and whether any differs from what was announced (it is then
    /// marked dirty, its new value ready). When none does, they are armed again, together.
    ///
    /// `alone`: no other object changed in the operation (the common one: a set on one object).
    /// Then one value found changed, with nothing else of this object to announce, is announced
    /// at once, with nothing marked, kept or taken again: the fast path, whose general way is
    /// the dirty object's delivery (`deliverChanges`).
    func checkUnarmedProperties(alone: Bool = false) -> Bool {
        guard !isReleased else { return false }
        let mayAnnounce = alone && !isDirty && (extras?.isQuiet ?? true)
        var changes = 0, unarmed = false
        var only: (slot: Int, value: Value)?
        for slot in values.indices where isReadAfterOperations(slot) {
            unarmed = true
            if values[slot].latest != nil {
                changes += 1
                continue
            }
            let value = read(values[slot].property)
            guard !value.isSame(as: values[slot].announced) else { continue }
            changes += 1
            if mayAnnounce && changes == 1 { only = (slot, value) } else { values[slot].latest = value }
        }
        if let (slot, value) = only.take() {
            guard changes > 1 else {
                announce(value, ofValue: slot)
                return true
            }
            values[slot].latest = value
        }
        if changes > 0 {
            context.markDirty(self)
        } else if unarmed {
            armObservedValues()
        }
        return changes > 0
    }

    /// The fast path's announcement: `value`, the new value in `slot`, taken and announced now,
    /// from the value in hand.
    private func announce(_ value: consuming Value, ofValue slot: Int) {
        values[slot].announced = value
        values[slot].stamp &+= 1
        guard !subscriptions.isEmpty else { return }
        announce(value, ofValueIn: slot, stamp: values[slot].stamp)
    }

    /// Announces `value`, the value now announced in `slot`, to the subscribers; `stamp` is this
    /// announcement's (a newer one, made by a callback, stops it).
    @inline(__always)
    func announce(_ value: Value, ofValueIn slot: Int, stamp: UInt64) {
        let property = values[slot].property
        announce(.property(property), kind: MVVM_EVENT_PROPERTY, name: exportedClass.properties[property].name.pointer,
                 value: value, stamp: (slot, stamp))
    }

    /// The value of its property `index` now, its class's description of the property borrowed
    /// (no reference counting around the getter: it runs after every operation that changed a
    /// watched value).
    @inline(__always)
    func read(_ index: Int) -> Value {
        Unmanaged.passUnretained(exportedClass.properties[index])._withUnsafeGuaranteedRef { $0.get(target) }
    }

    /// Whether the value in `slot` is one the loop reads after its operations: an `@Observable`
    /// value the live tracking does not read (just subscribed to or lately changed). Takes the
    /// slot, not the state: a copy of the state would retain what it holds.
    private func isReadAfterOperations(_ slot: Int) -> Bool {
        values[slot].isObserved && !values[slot].isTracked
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
    /// unwinds; for most objects only itself, kept with no allocation and no existential box.
    private func keepChainsUntilWorkEnds() {
        var chains: [AnyObject] = []  // allocates only when something is appended
        for slot in values.indices { if let chain = values[slot].publisherChain { chains.append(chain) } }
        if let extras {
            for slot in extras.lists.indices { if let chain = extras.lists[slot].publisherChain { chains.append(chain) } }
            chains.append(contentsOf: extras.connections as [AnyObject])
        }
        // The chains let go of before the object, as they were made after it.
        if !chains.isEmpty { context.loop.keepUntilWorkEnds(contentsOf: chains) }
        context.loop.keepUntilWorkEnds(self)
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
        extras?.connections = []
        // An armed Observation watch may outlive this object (until its target next changes):
        // cancelled, it tells nobody. Every object is detached before it is freed (its loop's
        // table holds it until `release` or the loop's release detaches it).
        for slot in values.indices { values[slot].endWatch() }
        observationRelay?.object = nil
        if let extras {
            for slot in extras.lists.indices { extras.lists[slot].endWatch() }
            // Its calls end as cancelled, each completion once, before its subscriptions end.
            let calls = extras.calls
            extras.calls = []
            for call in calls { call.cancel("its object was released") }
        }
        let ending = subscriptions
        subscriptions = Subscribers()
        for subscription in ending { subscription.end() }
        guard let extras else { return }
        let cleanups = extras.cleanups
        extras.cleanups = []
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
            context.awaitCallbacksBegun()
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

/// What few objects have, made at its first use (``ExportedObject``'s `extras`): a class with
/// no list, signal, asynchronous call or host service pays one reference for all of it.
private final class ObjectExtras {
    var lists: [ListState] = []
    var pendingSignals: [(index: Int, payload: Value)] = []
    var connections: [AnyCancellable] = []
    /// Runs when the object is released or detached from its released loop.
    var cleanups: [() -> Void] = []
    /// Its asynchronous calls still running: cancelled when it is released.
    var calls: [AsyncCall] = []

    /// Nothing for a delivery but values: no list is watched and no signal is pending.
    var isQuiet: Bool { lists.isEmpty && pendingSignals.isEmpty }
}
