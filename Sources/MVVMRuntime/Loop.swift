import CMVVMSystem
import Glibc
@preconcurrency import OpenCombine

/// Who moves a loop's time and runs its due work.
public enum LoopKind: Int32, Sendable, CaseIterable {
    /// The host runs due work with ``Loop/dispatch()`` on a thread of its own choosing; the
    /// loop's ``Loop/fileDescriptor`` becomes readable when work is due.
    case manual = 0
    /// The loop runs due work on a thread of its own until it stops.
    case thread = 1
    /// Time moves only with ``Loop/advance(byMilliseconds:)``: exact and deterministic.
    case virtual = 2
    /// A manual loop for the main actor, made and run only on the process's main thread, one
    /// at a time: its dispatch also runs the main queue's work (`@MainActor` jobs,
    /// `DispatchQueue.main`) and the main run loop's due timers, and its file descriptor is
    /// readable when they are due.
    case main = 3

    /// Whether the host runs its work (``Loop/dispatch()``, ``Loop/fileDescriptor``).
    var isManual: Bool { self == .manual || self == .main }
}

/// Why a loop refused a call.
public enum LoopError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call is for another kind of loop, such as `advance` on a manual loop.
    case wrongKind(operation: String, kind: LoopKind)
    /// `dispatch`, `advance` or `run(forMilliseconds:)` was called from work the loop is running,
    /// or from inside ``Loop/perform(_:)`` on the same loop.
    case reentrantDispatch(operation: String)
    /// A negative duration.
    case negativeDuration(operation: String, milliseconds: Int64)
    /// A duration that would take the loop's time past ``LoopTime/limit``.
    case beyondTimeLimit(operation: String, milliseconds: Int64)
    /// The loop was stopped.
    case stopped(operation: String)
    /// The operating system refused a resource the loop needs.
    case system(call: String, errno: Int32)
    /// A main loop was asked for off the main thread, or main-actor work run there.
    case notOnMainThread(operation: String, reason: String)
    /// A main loop was asked for while one is live.
    case mainLoopExists
    /// A main loop's work was run off the thread it serves.
    case wrongThread(operation: String)

    public var description: String {
        switch self {
        case let .wrongKind(operation, kind):
            return "\(operation) is not available on a \(kind) loop"
        case let .reentrantDispatch(operation):
            return "\(operation) was called from work the loop is already running"
        case let .negativeDuration(operation, milliseconds):
            return "\(operation) needs a duration of 0 ms or more, got \(milliseconds) ms"
        case let .beyondTimeLimit(operation, milliseconds):
            return "\(operation) by \(milliseconds) ms would take the loop's time past its limit of "
                + "\(LoopTime.limit.milliseconds) ms (about 146 years)"
        case let .stopped(operation):
            return "\(operation) on a loop that was stopped"
        case let .system(call, errno):
            return "\(call) failed: \(String(cString: strerror(errno)))"
        case let .notOnMainThread(operation, reason):
            return "\(operation) cannot be made here: \(reason)"
        case .mainLoopExists:
            return "a main loop is already live in this process (there is one main thread): release it first"
        case let .wrongThread(operation):
            return "\(operation) on the main loop is only for the process's main thread"
        }
    }
}

/// A run loop for view models: an OpenCombine `Scheduler` whose work the host runs, a thread
/// runs, or virtual time runs.
///
/// Every object lives on a loop. `throttle`, `debounce`, `delay`, `receive(on:)` and repeating
/// timers scheduled on it run when the loop runs due work, one piece at a time, in time order,
/// and work due at the same instant in the order it was scheduled.
///
/// Work on the objects of one loop is serialised: the loop holds its work lock while it runs
/// due work, and a host call takes the same lock with ``perform(_:)``. The thread holding it
/// may take it again (its holds are counted), so work may call back into the loop's objects.
/// A thread that holds one loop's work lock and
/// needs another's that is busy lets go of the ones it holds while it waits (see
/// ``HeldWorkLocks``), so two loops whose callbacks call each other's objects never deadlock.
public final class Loop: Scheduler, @unchecked Sendable {
    public typealias SchedulerTimeType = LoopTime
    public typealias SchedulerOptions = Never

    /// The kind of this loop.
    public let kind: LoopKind
    private let core: LoopCore
    /// Its Swift concurrency executor (see ``LoopExecutor``).
    public let executor = LoopExecutor()

    /// Creates a loop of the given kind; a thread loop starts its thread at once.
    public init(kind: LoopKind) throws(LoopError) {
        self.kind = kind
        core = try LoopCore(kind: kind)
        executor.attach(to: self)
    }

    /// Stops the loop (see ``stop()``); the file descriptor closes when the thread, if any, has ended.
    deinit { core.stop() }

    /// Whether this is the child of a `fork()` and the loop was inherited from the parent. Such a
    /// loop is stopped, and its objects must be left alone: the thread that may have been
    /// changing them is not in the child (see ``ForkSafety``).
    public var isInheritedAcrossFork: Bool { core.isInheritedAcrossFork }

    // MARK: Scheduler

    public var now: LoopTime { LoopTime(nanoseconds: core.now()) }

    public var minimumTolerance: LoopTime.Stride { .nanoseconds(0) }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        core.schedule(ScheduledWork(action: action, interval: nil), due: core.now())
    }

    public func schedule(after date: LoopTime, tolerance: LoopTime.Stride, options: Never?,
                         _ action: @escaping () -> Void) {
        core.schedule(ScheduledWork(action: action, interval: nil), due: date.nanoseconds)
    }

    public func schedule(after date: LoopTime, interval: LoopTime.Stride, tolerance: LoopTime.Stride,
                         options: Never?, _ action: @escaping () -> Void) -> Cancellable {
        // A zero interval would make one dispatch run forever.
        let work = ScheduledWork(action: action, interval: max(interval.nanoseconds, 1))
        core.schedule(work, due: date.nanoseconds)
        return AnyCancellable { [core] in core.cancel(work) }
    }

    // MARK: Running due work

    /// Manual loops: runs the work that is due now, on the calling thread.
    /// - Returns: how many pieces of work ran.
    @discardableResult
    public func dispatch() throws(LoopError) -> Int {
        try requireManual("dispatch")
        return try core.runDue(operation: "dispatch", limit: core.now())
    }

    /// Virtual loops: moves time forward by `milliseconds`, running everything due up to then
    /// in time order, with ``now`` at each piece's due time while it runs. `0` runs what is due
    /// now.
    /// - Returns: how many pieces of work ran.
    @discardableResult
    public func advance(byMilliseconds milliseconds: Int64) throws(LoopError) -> Int {
        try requireKind(.virtual, "advance")
        guard milliseconds >= 0 else { throw .negativeDuration(operation: "advance", milliseconds: milliseconds) }
        // The target is taken from the time found once the work lock is held, and time moves to
        // it before the lock is let go: two threads advancing at once each add their whole step.
        return try core.runDue(operation: "advance", limit: { () throws(LoopError) -> Int64 in
            try timeAfter(milliseconds, "advance")
        }, then: { target in core.moveVirtualTime(to: target) })
    }

    /// Manual loops: dispatches due work on the calling thread for `milliseconds`, sleeping in
    /// `poll` between pieces of work.
    /// - Returns: how many pieces of work ran.
    @discardableResult
    public func run(forMilliseconds milliseconds: Int64) throws(LoopError) -> Int {
        try requireManual("run_for")
        let deadline = try timeAfter(milliseconds, "run_for")
        var ran = 0
        while true {
            // Once the loop is stopped (released), this throws `.stopped`: the wake descriptor
            // below ends the sleep, so a release on another thread returns this promptly.
            ran += try core.runDue(operation: "run_for", limit: core.now())
            let now = core.now()
            guard now < deadline else { return ran }
            var wait = deadline - now
            if let due = core.nextDue() { wait = min(wait, max(due - now, 0)) }
            // Round up so we never wake just before the work is due and spin.
            var descriptors = [pollfd(fd: core.readableFD, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: core.wakeFD, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, Int32(clamping: (wait + 999_999) / 1_000_000))
        }
    }

    /// Manual loops: a file descriptor that is readable while work is due; add it to poll,
    /// epoll, asyncio, Tk or GLib and call ``dispatch()`` when it is readable. The loop owns it.
    public var fileDescriptor: Int32 {
        get throws(LoopError) {
            try requireKind(kind == .main ? .main : .manual, "fd")
            return core.readableFD
        }
    }

    /// Milliseconds until the next work is due (rounded up; 0 when some is due now), or `nil`
    /// when nothing is scheduled.
    public var nextTimeoutMilliseconds: Int64? {
        guard let due = core.nextDueIncludingMainThread() else { return nil }
        let wait = due - core.now()
        return wait <= 0 ? 0 : (wait + 999_999) / 1_000_000
    }

    /// Whether ``stop()`` has been called.
    public var isStopped: Bool { core.isStopped }

    /// Stops the loop: the turn in progress finishes, pending work is dropped, later work is
    /// ignored, and a thread loop's thread ends. No work runs after this returns. Idempotent.
    public func stop() { core.stop() }

    // MARK: Serialising host calls with loop work

    /// Runs `body` holding this loop's work lock, so it never interleaves with due work or with
    /// another thread's call on the same loop's objects.
    @inline(__always)
    public func perform<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try core.holdingWorkLock(body)
    }

    /// Whether the calling thread holds this loop's work lock: it is in a `perform` or runs the
    /// loop's work, so what it changes is announced when that work ends.
    public var isHeldByCurrentThread: Bool { HeldWorkLocks.holds(core) }

    /// Keeps `things` alive until the outermost work in progress on this loop ends (a turn of due
    /// work or a `perform`), then lets go of them still holding the work lock; at once when no
    /// work is in progress. Call it holding the work lock, from inside `perform` or loop work.
    ///
    /// Cancelling a subscription chain from inside its own delivery can strand work the chain
    /// is about to do: a `flatMap` that receives its inner publisher after being cancelled keeps
    /// that inner subscription for good. Letting go once the delivery has unwound avoids that.
    public func keepUntilWorkEnds(_ object: AnyObject) { core.keepUntilWorkEnds(object) }

    /// ``keepUntilWorkEnds(_:)`` for each of `objects`.
    public func keepUntilWorkEnds(contentsOf objects: [AnyObject]) { core.keepUntilWorkEnds(contentsOf: objects) }

    /// ``keepUntilWorkEnds(_:)`` for a value that is not an object (an array of cancellables):
    /// kept in a box of its own.
    public func keepUntilWorkEnds(_ things: Any) { core.keepUntilWorkEnds(KeptValue(things)) }

    /// What tells whether a thread holds this loop's work lock, without a reference to the loop.
    public var identity: LoopIdentity {
        LoopIdentity(address: Unmanaged.passUnretained(core).toOpaque(), key: core.heldWorkLocksKey)
    }

    /// Calls `observer` after each turn of due work (all work due at one instant), still holding
    /// the work lock: the point at which a turn's changes are complete and can be announced.
    public func addTurnObserver(_ observer: @escaping () -> Void) -> AnyCancellable {
        let id = core.addTurnObserver(observer)
        return AnyCancellable { [core] in core.removeTurnObserver(id) }
    }

    /// A publisher that emits the loop's time every `interval`, starting one interval after it
    /// is subscribed: the loop's counterpart of `Timer.publish(every:on:in:).autoconnect()`.
    public func timerPublisher(every interval: LoopTime.Stride) -> Publishers.LoopTimer {
        Publishers.LoopTimer(loop: self, interval: interval)
    }

    /// The loop's time `milliseconds` from now, in nanoseconds, within ``LoopTime/limit``.
    private func timeAfter(_ milliseconds: Int64, _ operation: String) throws(LoopError) -> Int64 {
        guard milliseconds >= 0 else { throw .negativeDuration(operation: operation, milliseconds: milliseconds) }
        let limit = LoopTime.limit.nanoseconds
        guard milliseconds <= limit / 1_000_000, core.now() <= limit - milliseconds * 1_000_000 else {
            throw .beyondTimeLimit(operation: operation, milliseconds: milliseconds)
        }
        return core.now() + milliseconds * 1_000_000
    }

    /// A manual or main loop; a main loop only on its thread.
    @inline(__always)
    private func requireManual(_ operation: String) throws(LoopError) {
        guard kind == .manual else {
            guard kind == .main else { throw .wrongKind(operation: operation, kind: kind) }
            guard core.isOnMainThreadWorkOwner else { throw .wrongThread(operation: operation) }
            return
        }
    }

    /// Main loops: after a host call on the loop's objects, makes a pass of `RunLoop.main` due,
    /// for the timers and performs it may have added (nothing before Foundation is loaded).
    /// Other loops: nothing.
    @inline(__always)
    public func afterHostCall() {
        guard kind == .main else { return }
        core.mainThread!.afterHostCall()
    }

    /// Main loops: an object was made on it, maybe of a library that brought Foundation in.
    public func objectAdded() {
        core.mainThread?.bindRunLoop()
    }

    /// Whether the loop runs the main queue's work (a main loop, or a virtual loop made on the
    /// main thread): main-actor objects may live on it.
    public var servesMainActor: Bool { core.mainThread != nil }

    /// Virtual loops made on the main thread: from now on each `advance` made on that thread
    /// runs the main queue's work (`@MainActor` jobs, `DispatchQueue.main`) each turn, so that a
    /// test of main-actor code is exact. Elsewhere it throws ``LoopError/notOnMainThread``.
    public func serveMainActor() throws(LoopError) {
        guard kind != .main else { return }
        try requireKind(.virtual, "serving the main actor")
        try core.holdingWorkLock { () throws(LoopError) in try core.serveMainActor() }
    }

    /// Runs the main queue's pending work now, on the thread that serves the main actor (nothing
    /// elsewhere). Call it holding the work lock, as part of an operation.
    public func drainMainQueue() {
        guard let mainThread = core.mainThread, mainThread.isOwnerThread else { return }
        if mainThread.runDue() > 0 { mainThread.refreshRunLoopTimer() }
    }

    /// Whether the calling thread is the one that runs the loop's main-actor work.
    public var isOnMainActorThread: Bool { core.mainThread?.isOwnerThread ?? false }

    private func requireKind(_ expected: LoopKind, _ operation: String) throws(LoopError) {
        guard kind == expected else { throw .wrongKind(operation: operation, kind: kind) }
    }
}

/// A loop as the threads that hold its work lock know it: whether the calling thread holds it,
/// asked for every change a watch hears (a change on a thread that does not hold the loop is
/// carried to it), so with no reference counting. Valid while the loop is.
public struct LoopIdentity: @unchecked Sendable {
    @usableFromInline let address: UnsafeMutableRawPointer
    let key: pthread_key_t

    /// Whether the calling thread holds the loop's work lock: it runs the loop's work or a host
    /// call on its objects, so may touch their state. One thread-local load when the thread
    /// holds that loop alone, or none.
    @inlinable
    public var isHeldByCurrentThread: Bool {
        guard let record = cmvvm_held_work_locks_get() else { return false }
        let outermost = HeldWorkLocks.outermost(of: record)
        return outermost == UnsafeMutableRawPointer(address) || (outermost != nil && holdsAmongOthers)
    }

    /// A thread that holds several loops.
    @usableFromInline
    var holdsAmongOthers: Bool { HeldWorkLocks.holds(address: address, key: key) }
}

/// The state and the thread behind a ``Loop``. A separate object so that a thread loop's thread
/// can keep it alive without keeping the public `Loop` alive: the loop stops when its last user
/// lets go of it.
/// What `Loop.keepUntilWorkEnds` keeps of a value that is not an object.
private final class KeptValue {
    let value: Any
    init(_ value: Any) { self.value = value }
}

final class LoopCore: @unchecked Sendable {
    let kind: LoopKind
    /// Serialises work on the loop's objects. Work may call back in: a thread takes the lock
    /// once, when it first holds the loop, and gives it back when it last lets go of it
    /// (``HeldWorkLocks`` counts its holds), so the lock itself need not be recursive.
    let workLock = WordLock()
    /// ``HeldWorkLocks/key``, copied here so that taking the work lock reads a field rather than
    /// checking a lazily made global.
    let heldWorkLocksKey = HeldWorkLocks.key
    /// Guards everything below; never held while running work.
    private let stateLock = PThreadLock()
    private var queue = WorkQueue()
    private var virtualNow: Int64 = 0
    private let origin: Int64
    private var stopped = false
    private var turnObservers: [(id: Int, body: () -> Void)] = []
    private var nextObserverID = 0
    /// Guarded by `workLock`: how deep its holder is in loop work or `perform`. Only the holder
    /// reads it, so a non-zero depth on entry means this very thread is already inside, and a
    /// dispatch from there would run timed work in the middle of another operation.
    private var workDepth = 0
    /// Guarded by `workLock`: what `keepUntilWorkEnds` keeps until `workDepth` is back to zero
    /// and no thread has work of this loop suspended (see `suspendedHolders`).
    /// Objects only: an existential box per thing kept would cost every release a copy.
    private var keptUntilWorkEnds: [AnyObject] = []
    /// The other buffer of `keptUntilWorkEnds`, empty, its storage kept for the next release.
    private var spareKept: [AnyObject] = []
    /// Guarded by `workLock`: how many threads let go of this loop's work lock in the middle of
    /// its work, to wait for another loop's (see ``HeldWorkLocks``). What was kept stays kept
    /// until they are back and done: their stacks may still be inside it.
    private var suspendedHolders = 0
    /// Manual, main and thread loops: armed for the earliest due work, so it is readable while work is due.
    let timerFD: Int32
    /// What the host waits on: `timerFD`, or a main loop's epoll set of it and the main thread's work.
    let readableFD: Int32
    /// Main loops, and virtual loops made on the main thread: the main queue's and main run
    /// loop's work (a virtual loop's runs once ``serveMainActor()`` turned it on).
    let mainThread: MainThreadWork?
    /// Set by `serveMainActor`, on the owner thread holding the work lock.
    private var mainThreadActive: Bool
    /// `mainThread`'s owner thread, kept here so that a dispatch checks it with no reference
    /// counting (0 when there is no `mainThread`).
    private let mainThreadOwner: pthread_t

    /// Whether the calling thread is `mainThread`'s owner (false when there is none). `==`:
    /// glibc's pthread_equal is that, behind a call, and every dispatch asks this.
    @inline(__always)
    var isOnMainThreadWorkOwner: Bool { mainThreadOwner != 0 && mainThreadOwner == pthread_self() }
    /// Manual and thread loops: written once, by `stop`, to wake the loop's thread or a
    /// `run(forMilliseconds:)` sleeping in `poll`; it stays readable from then on.
    let wakeFD: Int32
    private var thread: pthread_t?
    /// Set only in a fork's child, while it has a single thread.
    private(set) var isInheritedAcrossFork = false
    private var forkHandler = 0

    init(kind: LoopKind) throws(LoopError) {
        self.kind = kind
        origin = LoopCore.monotonicNanoseconds()
        if kind == .virtual {
            timerFD = -1
        } else {
            timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
            guard timerFD >= 0 else { throw .system(call: "timerfd_create", errno: errno) }
        }
        if kind != .virtual {
            wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
            guard wakeFD >= 0 else {
                let error = errno
                close(timerFD)
                throw .system(call: "eventfd", errno: error)
            }
        } else {
            wakeFD = -1
        }
        switch kind {
        case .main:
            do throws(LoopError) {
                mainThread = try MainThreadWork(loopTimerFD: timerFD)
            } catch {
                close(timerFD)
                close(wakeFD)
                throw error
            }
            mainThreadActive = true
        case .virtual:
            // Made on the main thread, it may serve the main actor, for exact tests.
            mainThread = MainThreadWork.refusal == nil ? (try? MainThreadWork(loopTimerFD: -1)) : nil
            mainThreadActive = false
        default:
            mainThread = nil
            mainThreadActive = false
        }
        mainThreadOwner = mainThread?.owner ?? 0
        let epollFD = mainThread?.epollFD ?? -1
        readableFD = epollFD >= 0 ? epollFD : timerFD
        if kind == .thread {
            let retained = Unmanaged.passRetained(self).toOpaque()
            var handle = pthread_t()
            let result = pthread_create(&handle, nil, { argument in
                let core = Unmanaged<LoopCore>.fromOpaque(argument!).takeRetainedValue()
                core.runThread()
                return nil
            }, retained)
            guard result == 0 else {
                Unmanaged<LoopCore>.fromOpaque(retained).release()
                close(timerFD)
                close(wakeFD)
                throw .system(call: "pthread_create", errno: result)
            }
            thread = handle
        }
        forkHandler = ForkSafety.inChild { [weak self] in self?.inheritAcrossFork() }
    }

    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    func now() -> Int64 {
        kind == .virtual
            ? stateLock.withLock { virtualNow }
            : LoopCore.monotonicNanoseconds() - origin
    }

    var isStopped: Bool { stateLock.withLock { stopped } }

    func nextDue() -> Int64? { stateLock.withLock { queue.first?.due } }

    /// `nextDue`, and on a main loop's thread its main-thread work: now when the main queue has
    /// work, the main run loop's next timer.
    func nextDueIncludingMainThread() -> Int64? {
        let own = nextDue()
        guard kind == .main, let mainThread, mainThread.isOwnerThread else { return own }
        if mainThread.hasQueuedWork { return now() }
        guard let runLoopDue = mainThread.runLoopDue.map({ $0 - origin }) else { return own }
        return min(own ?? runLoopDue, runLoopDue)
    }

    /// Virtual loops made on the main thread: from now on each `advance` on that thread drains
    /// the main queue, each turn. Call it on that thread holding the work lock.
    func serveMainActor() throws(LoopError) {
        guard let mainThread, mainThread.isOwnerThread else {
            throw .notOnMainThread(operation: "main-actor work on this loop",
                                   reason: MainThreadWork.refusal ?? "this loop was not made on the main thread")
        }
        mainThreadActive = true
    }

    func moveVirtualTime(to target: Int64) {
        stateLock.withLock { if target > virtualNow { virtualNow = target } }
    }

    func schedule(_ work: ScheduledWork, due: Int64) {
        let accepted = stateLock.withLock { () -> Bool in
            guard !stopped else { return false }
            let wasFirst = queue.first?.due
            queue.insert(work, due: due)
            if wasFirst.map({ due < $0 }) ?? true { armTimer() }
            return true
        }
        // Work scheduled on a stopped loop never runs; release it here, outside the lock.
        if !accepted { _ = work }
    }

    func cancel(_ work: ScheduledWork) {
        stateLock.withLock { work.isCancelled = true }
    }

    func addTurnObserver(_ body: @escaping () -> Void) -> Int {
        stateLock.withLock {
            nextObserverID += 1
            turnObservers.append((nextObserverID, body))
            return nextObserverID
        }
    }

    func removeTurnObserver(_ id: Int) {
        let removed = stateLock.withLock { () -> [(id: Int, body: () -> Void)] in
            let removed = turnObservers.filter { $0.id == id }
            turnObservers.removeAll { $0.id == id }
            return removed
        }
        _ = removed
    }

    /// Not inlined: its callers' closures then reach it as borrowed contexts, which spares
    /// every call into the library two or three reference counts on its objects.
    @inline(never)
    func holdingWorkLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let held = HeldWorkLocks.acquire(self)
        workDepth += 1
        defer {
            leaveWork()
            HeldWorkLocks.release(self, held)
        }
        return try body()
    }

    /// Called holding the work lock. What was kept goes before the depth reaches zero, so the
    /// deinitialisers it runs count as work too.
    @inline(__always)
    private func leaveWork() {
        if workDepth == 1 && suspendedHolders == 0 && !keptUntilWorkEnds.isEmpty { releaseKept() }
        workDepth -= 1
    }

    /// Called holding the work lock, before letting go of it in the middle of work: the next
    /// holder starts at depth zero. Returns what `resume` restores.
    func suspend() -> Int {
        let depth = workDepth
        workDepth = 0
        suspendedHolders += 1
        return depth
    }

    /// Called holding the work lock again, after `suspend`.
    func resume(depth: Int) {
        workDepth = depth
        suspendedHolders -= 1
    }

    /// Letting go may run deinitialisers that keep more: repeat until nothing is kept. The two
    /// buffers trade places, so neither is made again at every release; each is touched only in
    /// whole moves, as a deinitialiser may keep more, or end work and so come back here.
    private func releaseKept() {
        while !keptUntilWorkEnds.isEmpty {
            var kept = spareKept
            spareKept = []
            swap(&kept, &keptUntilWorkEnds)
            kept.removeAll(keepingCapacity: true)
            spareKept = kept
        }
    }

    func keepUntilWorkEnds(_ object: AnyObject) {
        guard workDepth > 0 else { return }
        keptUntilWorkEnds.append(object)
    }

    func keepUntilWorkEnds(contentsOf objects: [AnyObject]) {
        guard workDepth > 0 else { return }
        keptUntilWorkEnds.append(contentsOf: objects)
    }

    /// Runs work due at or before `limit` in time order, one turn (one due instant) at a time,
    /// calling the turn observers after each turn.
    func runDue(operation: String, limit: Int64) throws(LoopError) -> Int {
        try runDue(operation: operation, limit: { () throws(LoopError) -> Int64 in limit }, then: { _ in })
    }

    /// `runDue`, with the limit worked out and `then` run while the work lock is held.
    func runDue(operation: String, limit limitFunction: () throws(LoopError) -> Int64,
                then: (Int64) -> Void) throws(LoopError) -> Int {
        let held = HeldWorkLocks.acquire(self)
        defer { HeldWorkLocks.release(self, held) }
        return try { () throws(LoopError) -> Int in
            // Depth zero on a loop this thread suspended (from a callback of it that called
            // another loop) still means this thread is inside that loop's work.
            guard workDepth == 0, !HeldWorkLocks.hasSuspended(self) else {
                throw .reentrantDispatch(operation: operation)
            }
            guard !isStopped else { throw .stopped(operation: operation) }
            let limit = try limitFunction()
            workDepth += 1
            defer { leaveWork() }
            var ran = 0
            if mainThreadActive && isOnMainThreadWorkOwner {
                ran = runDueServingMainActor(limit: limit)
            } else {
                while let turnDue = startTurn(limit: limit) {
                    while let work = takeWork(dueAtOrBefore: turnDue) {
                        work.action()
                        ran += 1
                    }
                    for observer in stateLock.withLock({ turnObservers }) { observer.body() }
                }
            }
            stateLock.withLock { armTimer() }
            then(limit)
            return ran
        }()
    }

    /// `runDue`'s turns on a loop that serves the main actor (a main loop, or a virtual loop
    /// holding main-actor objects), on its thread: the main thread's work is a turn of its own,
    /// first; a virtual loop also runs it after each turn, and runs what is due now to the end
    /// (main-queue work that makes loop work, as a main-actor call returning to a task on the loop
    /// does, and the reverse; bounded, should they feed each other for ever).
    @inline(__always)
    private func runDueServingMainActor(limit: Int64) -> Int {
        let main = mainThread.unsafelyUnwrapped
        var ran = 0
        if main.runDue() > 0 {
            ran += 1
            for observer in stateLock.withLock({ turnObservers }) { observer.body() }
        }
        let ranBeforeTurns = ran
        for _ in 0..<(kind == .virtual ? 100 : 1) {
            while let turnDue = startTurn(limit: limit) {
                while let work = takeWork(dueAtOrBefore: turnDue) {
                    work.action()
                    ran += 1
                }
                if kind == .virtual { ran += main.runDue() }
                for observer in stateLock.withLock({ turnObservers }) { observer.body() }
            }
            guard kind == .virtual, main.runDue() > 0 else { break }
            ran += 1
            for observer in stateLock.withLock({ turnObservers }) { observer.body() }
        }
        // The loop's own work may have added `RunLoop.main` work (a perform has no fire date).
        if ran > ranBeforeTurns, kind == .main { main.passAfterWork() }
        return ran
    }

    /// The due time of the next turn, if one is due by `limit`; moves virtual time to it.
    private func startTurn(limit: Int64) -> Int64? {
        stateLock.withLock {
            while let head = queue.first, head.work.isCancelled { _ = queue.removeFirst() }
            guard !stopped, let head = queue.first, head.due <= limit else { return nil }
            if kind == .virtual, head.due > virtualNow { virtualNow = head.due }
            return head.due
        }
    }

    /// Takes the next live work due by `turnDue`, putting a repeating one back for its next time.
    private func takeWork(dueAtOrBefore turnDue: Int64) -> ScheduledWork? {
        stateLock.withLock {
            while let head = queue.first, head.due <= turnDue, !stopped {
                let entry = queue.removeFirst()!
                guard !entry.work.isCancelled else { continue }
                if let interval = entry.work.interval {
                    // Ticks missed while nobody dispatched are skipped, not run in a burst.
                    let reference = kind == .virtual ? virtualNow : LoopCore.monotonicNanoseconds() - origin
                    var next = entry.due + interval
                    if next <= reference { next += ((reference - next) / interval + 1) * interval }
                    queue.insert(entry.work, due: next)
                }
                return entry.work
            }
            return nil
        }
    }

    /// Arms the timerfd for the earliest due work: expired, and so readable, when work is due now.
    /// Called with the state lock held. Setting the timer also clears a past expiry.
    private func armTimer() {
        guard timerFD >= 0, !stopped else { return }
        var spec = itimerspec()
        if let due = queue.first?.due {
            let absolute = max(origin + due, 1)
            spec.it_value = timespec(tv_sec: Int(absolute / 1_000_000_000), tv_nsec: Int(absolute % 1_000_000_000))
        }
        timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func runThread() {
        var descriptors = [pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        while !isStopped {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno != EINTR { break }
            if isStopped { break }
            if descriptors[0].revents != 0 { _ = try? runDue(operation: "thread loop", limit: now()) }
        }
    }

    /// Stops the loop. Taking the work lock first means the turn in progress, if any, finishes
    /// before this returns, and no work runs after it. A thread loop's thread is joined when the
    /// caller holds no loop's work lock (the thread could be waiting for one), else detached.
    func stop() {
        let held = HeldWorkLocks.acquire(self)
        // A thread that let go of this loop in the middle of a turn is still inside it.
        let turnInProgress = suspendedHolders > 0
        let (dropped, observers) = {
            stateLock.withLock { () -> ([WorkQueue.Entry], [(id: Int, body: () -> Void)]) in
                guard !stopped else { return ([], []) }
                stopped = true
                if timerFD >= 0 {
                    var disarmed = itimerspec()
                    timerfd_settime(timerFD, 0, &disarmed, nil)
                }
                let observers = turnObservers
                turnObservers = []
                return (queue.removeAll(), observers)
            }
        }()
        HeldWorkLocks.release(self, held)
        // Another main loop may be made once this one is released.
        mainThread?.releaseClaim()
        let runner = stateLock.withLock { () -> pthread_t? in defer { thread = nil }; return thread }
        if wakeFD >= 0 {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
        if let runner {
            // Joined when nothing can keep it from ending: it then needs only the work lock,
            // which this thread no longer holds, and once joined its thread-specific data is
            // freed and no code of the library runs on it (a host may unload the library).
            // From a callback, the thread may be waiting for a lock the caller holds: detached.
            if pthread_equal(runner, pthread_self()) == 0 && !turnInProgress && !HeldWorkLocks.holdsAny {
                pthread_join(runner, nil)
            } else {
                pthread_detach(runner)
            }
        }
        // Released here, outside every lock: dropping work may run deinitialisers.
        _ = (dropped, observers)
    }

    /// In a fork's child, which has only the forking thread. The loop stops without touching its
    /// descriptors, which are shared with the parent; whatever it held is kept, never released,
    /// since releasing it could run code on objects another thread was changing at the fork.
    private func inheritAcrossFork() {
        // The forking thread keeps what it holds; a holder the child lacks would keep it for good.
        if !HeldWorkLocks.holds(self) {
            workLock.resetInForkChild()
            workDepth = 0
        }
        stateLock.repairInForkChild()
        isInheritedAcrossFork = true
        stopped = true
        thread = nil
    }

    deinit {
        ForkSafety.remove(forkHandler)
        if timerFD >= 0 { close(timerFD) }
        if wakeFD >= 0 { close(wakeFD) }
    }
}

/// The loops' work locks the calling thread holds, and the protocol that takes them without
/// deadlock.
///
/// Callbacks run holding their loop's work lock (the rules need it: a change is announced in a
/// consistent state, to subscribers in order, and a callback may call back in). A callback on
/// loop A that calls loop B's objects needs B's lock; if B's thread, delivering, calls A's
/// objects, each would wait for the other's lock for ever. So a thread never waits for a work
/// lock while it holds another: when it holds some and the one it needs is busy, it lets go of
/// all it holds (`LoopCore.suspend` keeps each loop's depth), waits for the one it needs, does
/// that call, and once it has let go of that one, takes its own back (`reacquire`) and carries
/// on where it was. Letting go happens only inside a call into the library made from host code
/// (a callback or a request function), where the loop's state is as complete as the callback
/// itself sees it; meanwhile another thread may run operations on that loop, as the callback
/// itself could have (a nested call), and they announce their own changes on their own thread.
/// A thread that holds no lock waits as usual, so the uncontended path is one compare-and-swap
/// of the loop's word lock plus this record; a thread takes each loop's lock once however deep
/// its holds nest (the counts here), so the lock is not recursive.
@usableFromInline
struct HeldWorkLocks {
    fileprivate struct Entry {
        let core: LoopCore
        var count: Int
    }

    /// The loop this thread took first and still holds, and how many times. Most threads hold
    /// one loop at a time: keeping it out of `inner` as a bare address (its holder is a method
    /// of that loop, which keeps it alive) spares every call an array update and the loop's
    /// reference counting, which is slow for an object others refer to weakly. Nil only when
    /// the thread holds no loop at all.
    private var outermost: UnsafeMutableRawPointer?
    private var outermostCount = 0
    /// Loops taken after `outermost`, innermost last.
    private var inner: [Entry] = []

    /// Every loop held, outermost first: the general protocol's view of `outermost` and `inner`.
    private var entries: [Entry] {
        get {
            guard let outermost else { return [] }
            let core = Unmanaged<LoopCore>.fromOpaque(outermost).takeUnretainedValue()
            return [Entry(core: core, count: outermostCount)] + inner
        }
        set {
            outermost = newValue.first.map { Unmanaged.passUnretained($0.core).toOpaque() }
            outermostCount = newValue.first?.count ?? 0
            inner = Array(newValue.dropFirst())
        }
    }
    /// Loops this thread let go of in the middle of their work, waiting to take them back.
    private var suspended: [ObjectIdentifier] = []

    /// What a thread let go of to take another lock: taken back after it.
    struct Suspended {
        fileprivate let entries: [Entry]
        fileprivate let depths: [Int]
    }

    /// The loop this thread took first and holds, from its record (``cmvvm_held_work_locks``).
    @usableFromInline @inline(__always)
    static func outermost(of record: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        record.assumingMemoryBound(to: HeldWorkLocks.self).pointee.outermost
    }

    /// Only for its destructor, which frees a thread's record when the thread exits.
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { record in
            guard let record = record?.assumingMemoryBound(to: HeldWorkLocks.self) else { return }
            // A later destructor that calls into the library makes a new record.
            cmvvm_held_work_locks_set(nil)
            record.deinitialize(count: 1)
            record.deallocate()
        }
        return key
    }()

    /// The calling thread's record, in memory of its own: reached through a pointer, it costs
    /// no reference counting.
    @inline(__always)
    private static var current: UnsafeMutablePointer<HeldWorkLocks> { record(key) }

    @inline(__always)
    private static func record(_ key: pthread_key_t) -> UnsafeMutablePointer<HeldWorkLocks> {
        if let record = cmvvm_held_work_locks_get() { return record.assumingMemoryBound(to: HeldWorkLocks.self) }
        return makeRecord(key)
    }

    @inline(never)
    private static func makeRecord(_ key: pthread_key_t) -> UnsafeMutablePointer<HeldWorkLocks> {
        let record = UnsafeMutablePointer<HeldWorkLocks>.allocate(capacity: 1)
        record.initialize(to: HeldWorkLocks())
        pthread_setspecific(key, record)
        cmvvm_held_work_locks_set(record)
        return record
    }

    /// What `acquire` gives `release`: the thread's record (looked up once per pair) and what
    /// the thread let go of to take the lock, if anything.
    struct Ticket {
        fileprivate let record: UnsafeMutablePointer<HeldWorkLocks>
        fileprivate let suspended: Suspended?
    }

    /// Takes `core`'s work lock for the calling thread.
    @inline(__always)
    static func acquire(_ core: LoopCore) -> Ticket {
        let held = record(core.heldWorkLocksKey)
        let address = Unmanaged.passUnretained(core).toOpaque()
        if held.pointee.outermost == nil {
            core.workLock.lock()
            held.pointee.outermost = address
            held.pointee.outermostCount = 1
            return Ticket(record: held, suspended: nil)
        }
        if held.pointee.outermost == address && held.pointee.inner.isEmpty {
            held.pointee.outermostCount += 1
            return Ticket(record: held, suspended: nil)
        }
        return Ticket(record: held, suspended: held.pointee.acquireHoldingOthers(core))
    }

    /// `acquire` for a thread that holds a loop other than `core`, or several.
    private mutating func acquireHoldingOthers(_ core: LoopCore) -> Suspended? {
        if let index = entries.lastIndex(where: { $0.core === core }) {
            entries[index].count += 1
            return nil
        }
        if core.workLock.tryLock() {
            entries.append(Entry(core: core, count: 1))
            return nil
        }
        // Busy, and this thread holds other loops: let go of them all, then wait.
        let letGo = entries
        var depths: [Int] = []
        for entry in letGo.reversed() {
            depths.append(entry.core.suspend())
            entry.core.workLock.unlock()
        }
        entries = []
        suspended += letGo.map { ObjectIdentifier($0.core) }
        core.workLock.lock()
        entries.append(Entry(core: core, count: 1))
        return Suspended(entries: letGo, depths: depths.reversed())
    }

    /// Lets go of `core`'s work lock once; then takes back what `acquire` let go of.
    @inline(__always)
    static func release(_ core: LoopCore, _ ticket: Ticket) {
        let held = ticket.record
        let suspended = ticket.suspended
        if suspended == nil && held.pointee.outermost == Unmanaged.passUnretained(core).toOpaque()
            && held.pointee.inner.isEmpty {
            held.pointee.outermostCount -= 1
            if held.pointee.outermostCount == 0 {
                held.pointee.outermost = nil
                core.workLock.unlock()
            }
            return
        }
        held.pointee.releaseInGeneral(core, resuming: suspended)
    }

    /// `release` when this thread holds more than `core`, or took back what it let go of.
    private mutating func releaseInGeneral(_ core: LoopCore, resuming suspended: Suspended?) {
        let index = entries.lastIndex { $0.core === core }!
        entries[index].count -= 1
        if entries[index].count == 0 {
            entries.remove(at: index)
            core.workLock.unlock()
        }
        if let suspended { reacquire(suspended) }
    }

    /// Whether the calling thread holds any loop's work lock.
    static var holdsAny: Bool { current.pointee.outermost != nil }

    /// Whether the calling thread holds `core`'s work lock.
    static func holds(_ core: LoopCore) -> Bool {
        current.pointee.entries.contains { $0.core === core }
    }

    /// `holds`, cheap in the usual cases (a thread holding only that loop, or none) and with no
    /// reference counting: by the loop core's address and ``key``.
    @inline(__always)
    static func holds(address: UnsafeMutableRawPointer, key: pthread_key_t) -> Bool {
        let held = record(key)
        guard let outermost = held.pointee.outermost else { return false }
        if outermost == address { return true }
        return held.pointee.inner.contains { Unmanaged.passUnretained($0.core).toOpaque() == address }
    }

    /// Whether this thread let go of `core` in the middle of its work and has not taken it back.
    static func hasSuspended(_ core: LoopCore) -> Bool {
        let held = current
        return !held.pointee.suspended.isEmpty && held.pointee.suspended.contains(ObjectIdentifier(core))
    }

    /// Takes back every lock of `suspended`, holding none of them while it waits for one: it
    /// waits for one, tries the others, and when one is busy lets go of all and waits for that one.
    private mutating func reacquire(_ suspended: Suspended) {
        let wanted = suspended.entries
        var first = 0
        while true {
            // Holds nothing of `wanted` here (locks this thread still holds beyond them, if
            // any, were taken after they were let go of, by this same protocol).
            wanted[first].core.workLock.lock()
            var taken = [first]
            var busy: Int?
            for index in wanted.indices where index != first {
                if wanted[index].core.workLock.tryLock() {
                    taken.append(index)
                } else {
                    busy = index
                    break
                }
            }
            guard let busy else { break }
            for index in taken { wanted[index].core.workLock.unlock() }
            first = busy
            sched_yield()
        }
        for (entry, depth) in zip(wanted, suspended.depths) {
            entry.core.resume(depth: depth)
        }
        entries = wanted + entries
        suspended.entries.forEach { entry in
            if let index = self.suspended.lastIndex(of: ObjectIdentifier(entry.core)) { self.suspended.remove(at: index) }
        }
    }
}
