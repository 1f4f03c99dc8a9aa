import CMVVM
import CMVVMSystem
import MVVMRuntime
@preconcurrency import OpenCombine

/// The export side of one loop: its objects, and the changes waiting to be announced.
/// Everything here is touched only under the loop's work lock.
final class LoopContext: Handled, @unchecked Sendable {
    let loop: Loop
    private let isMainLoop: Bool
    private(set) var isReleased = false
    /// Each at its ``ExportedObject/contextSlot``: adopted and forgotten with no hashing.
    private var objects: [ExportedObject] = []
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
    /// Whether a turn is scheduled to check `changing` (see `checkSoon`).
    private var checkScheduled = false
    private var turnObserver: AnyCancellable?
    private var nextSerial: UInt64 = 0
    /// How many calls into host code (callbacks, request functions) are running, nested.
    private var hostCallDepth = 0
    /// Asynchronous calls that ended: their completions run once the changes are announced.
    private var ended: [AsyncCall] = []

    init(loop: Loop) {
        self.loop = loop
        isMainLoop = loop.kind == .main
        // A virtual loop never schedules the check (`checkSoon`): held as scheduled for good, so
        // that a flush does not call it after every change only to return.
        checkScheduled = loop.kind == .virtual
        super.init(kind: .loop)
        // A turn of due work is one operation: announce its changes when it is complete.
        turnObserver = loop.addTurnObserver { [unowned self] in
            self.flush()
            cmvvm_settings_note_work()
        }
    }

    override var owningContext: LoopContext? { self }

    /// `mvvm_release`: stops the loop; its objects end their subscriptions and refuse further calls.
    override func releaseHandle() throws(ExportError) {
        guard HandleTable.shared.remove(handle) else { return }
        release()
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
            cmvvm_settings_note_work()
            // A main loop runs the `RunLoop.main` work the call may have added (a `Timer`, a perform).
            if isMainLoop { loop.afterHostCall() }
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

    /// How deep host calls are nested now.
    var depth: Int { hostCallDepth }

    /// Runs `body` as if `depth` host calls were nested (when that is deeper than now): a change
    /// a callback made, delivered later, is delivered as deep as it was made, so that a feedback
    /// loop through deferred deliveries reaches the nesting limit as a direct one does.
    func nested<T>(atLeast depth: Int, _ body: () -> T) -> T {
        guard depth > hostCallDepth else { return body() }
        let saved = hostCallDepth
        hostCallDepth = depth
        defer { hostCallDepth = saved }
        return body()
    }

    /// Before making an object of a `@MainActor` class: the loop must serve the main actor and
    /// the caller be on its thread. A virtual loop made on the main thread starts draining the
    /// main queue at each advance.
    func requireMainActor(for exportedClass: ExportedClass) throws(ExportError) {
        guard loop.servesMainActor else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(exportedClass.name.string) is a @MainActor class: it lives "
                              + "on the main loop (MVVM_LOOP_MAIN, made on the main thread; for exact tests, a virtual "
                              + "loop made on the main thread), not on a \(loop.kind) loop")
        }
        guard loop.isOnMainActorThread else {
            throw ExportError(MVVM_ERR_WRONG_THREAD, "\(exportedClass.name.string) is a @MainActor class: it lives on "
                              + "the main loop and is made on the main thread only")
        }
        do throws(LoopError) { try loop.serveMainActor() } catch { throw loopError(error) }
    }

    func adopt(_ object: ExportedObject) {
        // Its library may have brought Foundation, and with it `RunLoop.main`, into the process.
        if loop.kind == .main { loop.objectAdded() }
        nextSerial += 1
        object.serial = nextSerial
        object.contextSlot = Int32(truncatingIfNeeded: objects.count)
        objects.append(object)
    }

    func forget(_ object: ExportedObject) {
        let slot = Int(object.contextSlot)
        if slot >= 0 {
            // The last object takes its slot.
            let last = objects.removeLast()
            if last !== object {
                objects[slot] = last
                last.contextSlot = Int32(truncatingIfNeeded: slot)
            }
            object.contextSlot = -1
        }
        if object.isChanging {
            object.isChanging = false
            // In one of them, once (keepChecking adds it only while it is not changing).
            if let index = changing.firstIndex(where: { $0 === object }) { changing.remove(at: index) }
            if let index = joining.firstIndex(where: { $0 === object }) { joining.remove(at: index) }
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
        // Compacted in place, no copy of the array and no reference counting per operation.
        var kept = 0
        for index in changing.indices {
            // Borrowed from `changing`, which holds it: a check reads properties and calls no
            // host code, so nothing here lets it go.
            let stays = Borrowed(changing[index]).use { object in
                if object.checkUnarmedProperties() { return true }
                object.isChanging = false
                return false
            }
            guard stays else { continue }
            if kept != index { changing.swapAt(kept, index) }
            kept += 1
        }
        changing.removeLast(changing.count - kept)
    }

    /// `checkChanging` for one changing object and no dirty one: what it finds may be announced
    /// at once (``ExportedObject/checkUnarmedProperties(alone:)``).
    private func checkAlone() {
        // Borrowed from `changing`, which holds it: an announcement calls host code, which may
        // release the object, but a released object is kept by its loop until the work ends
        // (`ExportedObject.keepChainsUntilWorkEnds`).
        let stays = Borrowed(changing[0]).use { $0.checkUnarmedProperties(alone: true) }
        guard !stays else { return }
        // Quiet, so nothing was announced and the array is as it was.
        changing[0].isChanging = false
        changing.removeAll(keepingCapacity: true)
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
        if !changing.isEmpty {
            // The common operation: a set on the one object whose values are read after
            // operations, no other object with anything to announce.
            if changing.count == 1 && dirty.isEmpty { checkAlone() } else { checkChanging() }
        }
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
            // Swapped when no object is changing yet: neither array is copied or made again.
            if changing.isEmpty {
                swap(&changing, &joining)
            } else {
                changing.append(contentsOf: joining)
                joining.removeAll(keepingCapacity: true)
            }
        }
        if !changing.isEmpty && !checkScheduled { checkSoon() }
    }

    /// Until its watches are armed, a changing object is read only after operations: with the
    /// host idle, a change made on another thread would go unheard. A turn of the loop's own
    /// (whose end flushes, so checks) comes shortly after, and again while any is changing.
    /// Not on a virtual loop, whose time and turns are the test's own.
    private func checkSoon() {
        guard loop.kind != .virtual else { return }
        checkScheduled = true
        loop.schedule(after: loop.now.advanced(by: .milliseconds(5)), tolerance: .zero, options: nil) { [weak self] in
            self?.checkScheduled = false
        }
    }

    @inline(__always)
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
            // Every list of the batch is taken before any object announces: one object's
            // callbacks then read another's list as before the operation until its splices come.
            for object in batch where object.hasLists { object.takeListChanges() }
            for object in batch {
                object.isDirty = false
                object.deliverChanges()
            }
        }
    }

    /// Called on another thread after a flag that every delivery checks (holding the work lock)
    /// has stopped a main-actor subscription or object: returns once any callback the loop's
    /// thread decided to call before the flag was set has started. Taking the work lock once is
    /// enough: a delivery holds it from its check until its callback starts, and the callback
    /// lets go of it only to wait for another loop, as any wait for a work lock does (no deadlock).
    func awaitCallbacksBegun() { loop.perform {} }

    /// Releasing the loop: its objects end their subscriptions and refuse further calls, then
    /// the loop stops.
    func release() {
        loop.perform {
            isReleased = true
            let detached = objects
            objects = []
            for object in detached { object.contextSlot = -1 }
            dirty = []
            for object in changing + joining { object.isChanging = false }
            changing = []
            joining = []
            ended = []
            for object in detached { object.detach() }
        }
        turnObserver = nil
        loop.stop()
        // What the loop's objects changed reaches disk with its release.
        cmvvm_settings_save_now()
        // The tasks of cancelled calls, left on the stopped loop, end now rather than leak.
        loop.perform { loop.executor.drain() }
    }
}
