import CMVVM
import MVVMPublished
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
        let handle = HandleTable.shared.insert(object)
        let loopIdentity = object.loopIdentity
        for (index, signal) in exportedClass.signals.enumerated() {
            object.madeExtras.connections.append(signal.connect(target, context.loop) { [unowned object] payload in
                // Elsewhere, the object is reached through its handle: the loop may be freeing it.
                guard loopIdentity.isHeldByCurrentThread else {
                    ExportedObject.reachedElsewhere(handle)?.signalElsewhere(index, payload)
                    return
                }
                guard !object.subscriptions.isEmpty else { return }
                object.madeExtras.pendingSignals.append((index, payload))
                object.context.markDirty(object)
            })
        }
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
        case let .property(index)?: watchValue(index)
        case let .list(index)?: watchList(index)
        case .signal?: break
        case nil:
            // Every property: the states' arrays made once, at their full size.
            if values.isEmpty && lists.isEmpty {
                values.reserveCapacity(exportedClass.properties.count)
                if !exportedClass.lists.isEmpty { lists.reserveCapacity(exportedClass.lists.count) }
                // None is watched yet: no need to look for each among those watched.
                for index in exportedClass.properties.indices { watchValue(index, isNew: true) }
            } else {
                exportedClass.properties.indices.forEach { watchValue($0) }
            }
            exportedClass.lists.indices.forEach(watchList)
        }
        subscriptions.append(subscription)
    }

    func unsubscribe(_ subscription: Subscription) {
        subscriptions.remove(subscription)
        subscription.end()
    }

    /// Watches a value property from now on: only properties someone subscribed to cost
    /// anything.
    /// `isNew`: known not to be watched yet.
    private func watchValue(_ index: Int, isNew: Bool = false) {
        guard !isReleased else { return }
        // Borrowed from the class, which holds its members for the process's life: no reference
        // counting per property.
        Borrowed(exportedClass.properties[index]).use { watchValue(index, $0, isNew: isNew) }
    }

    /// Watches a list property from now on.
    private func watchList(_ index: Int) {
        guard !isReleased, !lists.contains(where: { $0.property == index }) else { return }
        let list = exportedClass.lists[index]
        // The items now are the items already announced.
        let slot = lists.count
        lists.append(ListState(property: index, announced: list.items(target)))
        let watch = list.watch(target, WatchedSlot<ListState>(object: self, slot: slot))
        lists[slot].watch = watch
        if !watch.comparesWithAnnounced { lists[slot].announced = .none }
        watch.rearm()
    }

    private func watchValue(_ index: Int, _ property: ExportedProperty, isNew: Bool) {
        guard isNew || !values.contains(where: { $0.property == index }) else { return }
        // The value now is the value already announced.
        let slot = values.count
        values.append(ValueState(property: index, announced: property.get(target)))
        switch property.watching {
        case let .own(start):
            values[slot].watch = start(target, WatchedSlot<ValueState>(object: self, slot: slot))
        case let .published(box):
            values[slot].watch = watchPublished(box(target), inSlot: slot, index)
        case .observation:
            // Read after the next operation, and armed with the others if quiet then.
            values[slot].isObserved = true
            context.keepChecking(self)
        }
    }

    // MARK: @Published properties, watched through their boxes

    /// The watch of the `@Published` property `index`, whose box is `box`: the box itself, with
    /// this object as its watcher (told the property's place with each set: no object per
    /// property, see ``publishedDidSet(_:watcherTag:)``); a watch of its own when the box has a
    /// watcher already (another object's, or another property's of the same box). The box holds
    /// this object until the watch is cancelled, which `detach` does.
    private func watchPublished(_ box: PublishedBoxBase, inSlot slot: Int, _ index: Int) -> PropertyWatch {
        if slot <= 0xFFFF, index <= 0xFFFF,
           box.addOwnWatcher(self, tag: UInt32(truncatingIfNeeded: index) << 16 | UInt32(truncatingIfNeeded: slot)) {
            return box
        }
        return PublishedWatch(box, telling: WatchedSlot<ValueState>(object: self, slot: slot))
    }

    /// A watched `@Published` property was set, its value stored: read now, on the setting
    /// thread, as the app's code would, and told (as `WatchedSlot.changed(reading:)` does).
    /// `watcherTag`: its property's index (high half) and its slot (low half).
    override func publishedDidSet(_ box: PublishedBoxBase, watcherTag: UInt32) {
        let slot = Int(watcherTag & 0xFFFF), index = Int(watcherTag >> 16)
        guard loopIdentity.isHeldByCurrentThread else {
            // Reached through the handle: the loop may be freeing this object meanwhile.
            guard let reached = ExportedObject.reachedElsewhere(handle) else { return }
            return reached.changedElsewhere(WatchedSlot<ValueState>(object: reached, slot: slot), reached.read(index),
                                            then: nil)
        }
        values[slot].changed(read(index))
        context.markDirty(self)
    }

    /// What a watch tells, on a thread that holds the loop: its property changed (see
    /// ``ValueState/changed(_:)``, ``ListState/changed(depth:)``).
    @inline(__always)
    func changed<State: MemberState>(_ slot: WatchedSlot<State>, _ value: Value?) {
        switch State.kind {
        case .value: values[slot.slot].changed(value)
        case .list: lists[slot.slot].changed(depth: context.depth)
        }
        context.markDirty(self)
    }

    /// The object of `handle` for what is told on a thread that does not hold its loop: taken
    /// from the handle table, under its lock, as a counted reference, and nil once the handle
    /// is released. A borrow is never read there (see ``Borrowed``): the loop may be freeing
    /// the object meanwhile.
    static func reachedElsewhere(_ handle: mvvm_handle) -> ExportedObject? {
        HandleTable.shared.lookup(handle) as? ExportedObject
    }

    /// A watched property changed on a thread that does not hold the loop (a `@Published`
    /// property set on a background queue, an `@Observable` one in a detached task): the change
    /// is the loop's work, due now, so a manual loop's fd becomes readable, a thread loop wakes,
    /// a virtual loop delivers it at its next advance, and the host need not call anything. A
    /// `$x` publisher carries its value. A watch without one is told in `willSet`, before the
    /// value is stored, and the loop may read before it is: it reads again a millisecond later,
    /// announcing only what differs from what it announced. Called on an object reached through
    /// its handle (``reachedElsewhere(_:)``).
    func changedElsewhere<State: MemberState>(_ slot: WatchedSlot<State>, _ value: Value?, then rearm: (() -> Void)?) {
        carryToLoop({ [self] in
            rearm?()
            changed(slot, value)
        }, readingAgain: value != nil ? nil : { [self] in changed(slot, nil) })
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
            values[slot].changed(nil)
            context.markDirty(self)
        }
    }

    /// `observedValuesChanged`, told on a thread that does not hold the loop (see
    /// `changedElsewhere`): carried to the loop, and the values read again a millisecond later,
    /// Observation telling in `willSet`.
    func observedValuesChangedElsewhere() {
        carryToLoop({ [self] in observedValuesChanged() }, readingAgain: { [self] in
            for slot in values.indices where isReadAfterOperations(slot) {
                values[slot].changed(nil)
                context.markDirty(self)
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

    // MARK: Delivery: one path, and its shortcut

    /// The delivery of an operation's changes, the one path by which every change reaches the
    /// subscribers, in three steps:
    /// 1. *take*: each watched property's state takes its change (a value that differs from the
    ///    one announced: ``ValueState/takeChange(reading:)``; a list's splices:
    ///    ``ListState/takeChange(depth:reading:)``);
    /// 2. *order*: the changes go in the order the class lists its properties;
    /// 3. *announce*: each change to the subscribers, by its kind (``announce(_:_:)``), then each
    ///    pending signal, to the subscribers in the order they subscribed.
    ///
    /// **The shortcut.** When the only change is one value's (the common operation: a set),
    /// there is nothing to order: steps 1 and 3 run for that value alone, with no list of changes
    /// made (``deliverValueChange(inSlot:stamp:)``). `checkUnarmedProperties(alone:)` takes the
    /// same shortcut for a value it has just read, its step 1 done from the value in hand
    /// (``ValueState/take(_:)``). Either way the change is announced as the path announces it;
    /// `FastPathTests` hold both ways to the same announcements.
    func deliverChanges() {
        guard !isReleased else { return }
        if extras?.isQuiet ?? true, let slot = onlyChangedValue() {
            guard let stamp = takeValueChange(inSlot: slot) else { return }
            return deliverValueChange(inSlot: slot, stamp: stamp)
        }
        // At most one entry per watched property, on the stack: this runs for every change.
        withUnsafeTemporaryAllocation(of: MemberChange.self, capacity: values.count + lists.count) { changes in
            // 1. Take.
            var count = 0, depth = 0
            for slot in values.indices {
                guard let stamp = takeValueChange(inSlot: slot) else { continue }
                let position = exportedClass.properties[values[slot].property].position
                changes[count] = MemberChange(kind: .value, slot: slot, position: position, stamp: stamp)
                count += 1
            }
            for slot in lists.indices {
                guard takeListChange(inSlot: slot, depth: &depth) else { continue }
                let position = exportedClass.lists[lists[slot].property].position
                changes[count] = MemberChange(kind: .list, slot: slot, position: position, stamp: 0)
                count += 1
            }
            // 2. Order.
            if count > 1 {
                var ordered = UnsafeMutableBufferPointer(rebasing: changes[..<count])
                ordered.sort { $0.position < $1.position }
            }
            guard !subscriptions.isEmpty else {
                extras?.pendingSignals = []
                for change in changes[..<count] where change.kind == .list { _ = lists[Int(change.slot)].endDelivery() }
                return
            }
            // 3. Announce. A change made by a callback of its own announcement is announced as
            // deep as it was made (rare: the usual delivery takes no closure).
            let signals = takeSignals()
            if depth > 0 {
                context.nested(atLeast: depth) { announce(changes[..<count], signals) }
            } else {
                announce(changes[..<count], signals)
            }
        }
    }

    /// The shortcut's test: the slot of the one value that changed, when no other did; nil when
    /// none or several did (the whole path, which orders them).
    @inline(__always)
    private func onlyChangedValue() -> Int? {
        var only: Int?
        for slot in values.indices where values[slot].latest != nil {
            guard only == nil else { return nil }
            only = slot
        }
        return only
    }

    /// Step 1 for the value in `slot`: its stamp when it changed. A value its watch could not
    /// tell is read now; the object is then read after operations until quiet, when it is armed
    /// again (re-arming after every change is what costs).
    @inline(__always)
    private func takeValueChange(inSlot slot: Int) -> UInt64? {
        let property = values[slot].property
        return values[slot].takeChange { [self] in
            context.keepChecking(self)
            return read(property)
        }
    }

    /// Step 1 for the list in `slot` (see ``ListState/takeChange(depth:reading:)``).
    private func takeListChange(inSlot slot: Int, depth: inout Int) -> Bool {
        let list = lists[slot].property
        return lists[slot].takeChange(depth: &depth) { exportedClass.lists[list].items(target) }
    }

    /// The shortcut's step 3: the one value change, taken with `stamp`, announced as the path
    /// announces a value's.
    @inline(__always)
    private func deliverValueChange(inSlot slot: Int, stamp: UInt64) {
        guard !subscriptions.isEmpty else { return }
        announceValue(inSlot: slot, stamp: stamp)
    }

    /// Step 3: each change, in order, by its kind; then the signals.
    @inline(__always)
    private func announce(_ changes: UnsafeMutableBufferPointer<MemberChange>.SubSequence,
                          _ signals: [(index: Int, payload: Value)]) {
        for change in changes where !isReleased {
            switch change.kind {
            case .value: announceValue(inSlot: Int(change.slot), stamp: change.stamp)
            case .list: announceList(inSlot: Int(change.slot))
            }
        }
        for signal in signals where !isReleased {
            tellSubscribers(.signal(signal.index), kind: MVVM_EVENT_SIGNAL,
                            name: exportedClass.signals[signal.index].name.pointer, value: signal.payload)
        }
    }

    /// Step 3 for a value: the value announced in `slot`, to the subscribers, unless a callback
    /// has announced a newer one meanwhile (`stamp` is this announcement's).
    @inline(__always)
    private func announceValue(inSlot slot: Int, stamp: UInt64) {
        guard values[slot].stamp == stamp else { return }
        let property = values[slot].property
        tellSubscribers(.property(property), kind: MVVM_EVENT_PROPERTY,
                        name: exportedClass.properties[property].name.pointer, value: values[slot].announced,
                        stamp: (slot, stamp))
    }

    /// Step 3 for a list: each splice of its change to every subscriber of the list when the
    /// change began (one who subscribes meanwhile hears the next change), in order; reads
    /// meanwhile see the list as the splice being delivered leaves it (before, as before the
    /// operation).
    private func announceList(inSlot slot: Int) {
        let index = lists[slot].property
        let name = exportedClass.lists[index].name
        let hearers = subscriptions.asAnnouncementBegins
        defer {
            if !isReleased && lists[slot].endDelivery() { context.markDirty(self) }
        }
        let splices = lists[slot].delivery!.splices
        for (position, splice) in splices.enumerated() {
            lists[slot].announcing(splice: position)
            hearers.forEachBorrowed { subscription in
                guard subscription.isActive && !isMainActorSilenced else { return true }
                if let wanted = subscription.selector, wanted != .list(index) { return true }
                context.callingHost { subscription.deliver(source: handle, name: name, splice: splice.splice) }
                return !isReleased
            }
            if isReleased { return }
        }
    }

    /// Takes the change of each changed list (that is not being delivered) now, to be announced
    /// by `deliverChanges`: when several objects announce one operation's changes, the lists of
    /// each read as before the operation until their own splices come, not as it left them.
    func takeListChanges() {
        guard !isReleased else { return }
        for slot in lists.indices where lists[slot].changed && lists[slot].delivery == nil {
            let list = lists[slot].property
            _ = lists[slot].take { exportedClass.lists[list].items(target) }
        }
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

    /// Calls each subscriber that `selector` concerns with one event. `stamp`: a value's slot and
    /// the stamp of this announcement of it. Inlined: it runs for every change announced.
    @inline(__always)
    private func tellSubscribers(_ selector: ExportedClass.Selector, kind: mvvm_event_kind, name: UnsafePointer<CChar>,
                                 value: Value, stamp: (slot: Int, stamp: UInt64)? = nil) {
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
    /// Then one value found changed, with nothing else of this object to announce, takes the
    /// delivery's shortcut (see ``deliverChanges()``) at once: nothing is marked dirty, kept as
    /// the latest value, or taken and compared again.
    func checkUnarmedProperties(alone: Bool = false) -> Bool {
        guard !isReleased else { return false }
        let mayDeliver = alone && !isDirty && (extras?.isQuiet ?? true)
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
            if mayDeliver && changes == 1 { only = (slot, value) } else { values[slot].latest = value }
        }
        if let (slot, value) = only.take() {
            guard changes > 1 else {
                deliverValueChange(inSlot: slot, stamp: values[slot].take(value))
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

    /// The value of its property `index` now, its class's description of the property borrowed
    /// (no reference counting around the getter: it runs after every operation that changed a
    /// watched value).
    @inline(__always)
    func read(_ index: Int) -> Value {
        // Borrowed from the class, which holds its members for the process's life.
        Borrowed(exportedClass.properties[index]).use { $0.get(target) }
    }

    /// Whether the value in `slot` is one the loop reads after its operations: an `@Observable`
    /// value the live tracking does not read (just subscribed to or lately changed). Takes the
    /// slot, not the state: a copy of the state would retain what it holds.
    private func isReadAfterOperations(_ slot: Int) -> Bool {
        values[slot].isObserved && !values[slot].isTracked
    }

    // MARK: Lists

    /// How many items the list has: as the splices delivered so far leave it, while its change
    /// is delivered; otherwise now.
    func listCount(_ list: ExportedList) -> Int {
        if let delivery = delivery(of: list) { return delivery.count }
        return list.count(target)
    }

    /// The item at `index` of the list, read as `listCount` counts; nil out of range.
    func listItem(_ list: ExportedList, at index: Int) -> AnyObject? {
        if let delivery = delivery(of: list) { return delivery.item(index) }
        guard index >= 0, index < list.count(target) else { return nil }
        return list.item(target, index)
    }

    private func delivery(of list: ExportedList) -> ListDelivery? {
        guard !lists.isEmpty, let index = exportedClass.lists.firstIndex(where: { $0 === list }) else { return nil }
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
        observationRelay?.objectDetached()
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
        JSON.object(exportedClass.listedProperties.map { listed in
            switch listed {
            case let .value(property, _): return (property.name.string, property.get(target).json)
            case let .list(list, _):
                let items = list.items(target)
                return (list.name.string, JSON.array((0..<items.count).map { String(ObjectIdentity.shared.id(of: items.item($0))) }))
            }
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
