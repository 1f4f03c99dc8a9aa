// The app's world on the main thread: libdispatch's main queue (where `@MainActor` jobs,
// `DispatchQueue.main.async` and `Task { @MainActor in }` run) and CoreFoundation's main run
// loop (Foundation `Timer`s, `RunLoop.main` schedulers), run as the work of a main loop, or of a
// virtual loop made on the main thread.

import CMVVMSystem
import Glibc

/// The main thread's work a loop runs besides its own. Touched only on its owner thread, holding
/// the loop's work lock.
final class MainThreadWork: @unchecked Sendable {
    /// The thread the main queue is bound to: the only one that may drain it.
    let owner: pthread_t
    /// libdispatch's eventfd: written by every push to the main queue. Not ours to close.
    private let queueFD: Int32
    /// Main loops: the epoll set the host waits on (the loop's timer, `queueFD`, `cfTimerFD`).
    let epollFD: Int32
    /// Main loops, once Foundation is loaded: armed for CoreFoundation's next timer in the main
    /// run loop's default mode, so that the epoll set is readable when it is due.
    private var cfTimerFD: Int32 = -1
    /// When the CoreFoundation pass is due (the loop's monotonic clock, absolute ns), or nil.
    private var cfDue: Int64?
    private let isMainLoop: Bool
    /// Guarded by `liveLock`.
    private var claimReleased = false

    /// Guards `mainLoopLive`.
    private static let liveLock = PThreadLock()
    nonisolated(unsafe) private static var mainLoopLive = false

    /// Why the calling thread cannot serve the main actor, or nil when it can.
    static var refusal: String? {
        guard !cmvvm_can_drain_main_queue() else { return nil }
        return "this thread is not the process's main thread with the main queue bound to it (a main loop, and a "
            + "virtual loop serving the main actor, is made and run only there, and never in a process that called "
            + "dispatch_main(), which gives the main queue to libdispatch)"
    }

    /// A main loop's (`loopTimerFD` in its epoll set), or a virtual loop's (`loopTimerFD` -1).
    init(loopTimerFD: Int32) throws(LoopError) {
        isMainLoop = loopTimerFD >= 0
        if let refusal = MainThreadWork.refusal {
            throw .notOnMainThread(operation: isMainLoop ? "a main loop" : "main-actor work", reason: refusal)
        }
        owner = pthread_self()
        queueFD = cmvvm_main_queue_fd()
        guard isMainLoop else {
            epollFD = -1
            return
        }
        let claimed = MainThreadWork.liveLock.withLock { () -> Bool in
            guard !MainThreadWork.mainLoopLive else { return false }
            MainThreadWork.mainLoopLive = true
            return true
        }
        guard claimed else { throw .mainLoopExists }
        epollFD = cmvvm_epoll_new()
        guard epollFD >= 0 else {
            let error = errno
            MainThreadWork.release()
            throw .system(call: "epoll_create1", errno: error)
        }
        for fd in [loopTimerFD, queueFD] where !watch(fd) {
            let error = errno
            Glibc.close(epollFD)
            MainThreadWork.release()
            throw .system(call: "epoll_ctl", errno: error)
        }
        bindRunLoop()
    }

    private static func release() { liveLock.withLock { mainLoopLive = false } }

    private func watch(_ fd: Int32) -> Bool {
        cmvvm_epoll_watch(epollFD, fd) == 0
    }

    /// Main loops: once the process has loaded Foundation, watches CoreFoundation's timers.
    /// Checked when the loop is made and when an object is made on it (Foundation comes with
    /// the library of a class that uses it).
    func bindRunLoop() {
        guard isMainLoop, cfTimerFD < 0, cmvvm_cf_bind() else { return }
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { return }
        cfTimerFD = fd
        if !watch(fd) {
            close(fd)
            cfTimerFD = -1
        }
        refreshRunLoopTimer()
    }

    /// Whether the calling thread may run this work.
    @inline(__always)
    var isOwnerThread: Bool { owner == pthread_self() }   // glibc's pthread_equal is ==, behind a call

    /// Runs the main queue's work and, when due, a pass of the main run loop; how many of the two
    /// ran. Call it on the owner thread holding the loop's work lock.
    func runDue() -> Int {
        var ran = 0
        // The counter first, then the drain: the drain runs what was pushed before it and writes
        // the eventfd again when more remains; the other order could lose a wake-up.
        if cmvvm_main_queue_take(queueFD) {
            cmvvm_main_queue_drain()
            ran += 1
        }
        // A pass when one is due, or after main-queue work, which may have added performs.
        if cfTimerFD >= 0, ran > 0 || (cfDue.map { $0 <= LoopCore.monotonicNanoseconds() } ?? false) {
            cmvvm_cf_run_pass()
            ran += 1
        }
        if ran > 0 { refreshRunLoopTimer() }
        return ran
    }

    /// Arms `cfTimerFD` for CoreFoundation's next timer. Called after work that may have added
    /// one on this thread: a dispatch, a pass. Costs nothing until Foundation is loaded.
    @inline(__always)
    func refreshRunLoopTimer() {
        guard cfTimerFD >= 0 else { return }
        armRunLoopTimer()
    }

    /// After a host call on the main thread: it may have added `RunLoop.main` work — a timer, or
    /// a perform (`receive(on: RunLoop.main)`), which writes no descriptor and has no fire date —
    /// so a pass is due now and the fd becomes readable. One system call at most until the next
    /// dispatch; nothing until Foundation is loaded.
    @inline(__always)
    func passSoon() {
        guard cfTimerFD >= 0 else { return }
        duePassNow()
    }

    /// `passSoon` for a host call made on this work's thread.
    func afterHostCall() {
        if isOwnerThread { passSoon() }
    }

    private func duePassNow() {
        let now = LoopCore.monotonicNanoseconds()
        if let cfDue, cfDue <= now { return }
        cfDue = now
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int(now / 1_000_000_000), tv_nsec: Int(now % 1_000_000_000))
        timerfd_settime(cfTimerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// After a dispatch's own work ran on the main thread: a pass now, for the `RunLoop.main`
    /// work it may have added (performs have no fire date).
    func passAfterWork() {
        guard cfTimerFD >= 0 else { return }
        cmvvm_cf_run_pass()
        armRunLoopTimer()
    }

    private func armRunLoopTimer() {
        let wait = cmvvm_cf_seconds_to_next_timer()
        let due: Int64? = wait < 0 ? nil : LoopCore.monotonicNanoseconds() + Int64(wait * 1e9)
        guard due != cfDue else { return }
        cfDue = due
        var spec = itimerspec()
        if let due {
            let absolute = max(due, 1)
            spec.it_value = timespec(tv_sec: Int(absolute / 1_000_000_000), tv_nsec: Int(absolute % 1_000_000_000))
        }
        timerfd_settime(cfTimerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Nanoseconds (the loop's monotonic clock, absolute) when a CoreFoundation pass is due.
    var runLoopDue: Int64? { cfDue }

    /// Whether main-queue work is waiting (a zero-timeout poll of its eventfd).
    var hasQueuedWork: Bool {
        var descriptor = pollfd(fd: queueFD, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Ends this main loop's claim: another may be made. Idempotent; called when the loop stops.
    func releaseClaim() {
        guard isMainLoop else { return }
        let first = MainThreadWork.liveLock.withLock { () -> Bool in
            defer { claimReleased = true }
            return !claimReleased
        }
        if first { MainThreadWork.release() }
    }

    deinit {
        releaseClaim()
        if epollFD >= 0 { Glibc.close(epollFD) }
        if cfTimerFD >= 0 { Glibc.close(cfTimerFD) }
    }
}
