import Glibc
@preconcurrency import OpenCombine
import Testing
import MVVMRuntime

@Suite struct VirtualLoopTests {
    @Test func runsWorkInTimeOrderThenSchedulingOrder() throws {
        let loop = try Loop(kind: .virtual)
        var log: [String] = []
        loop.schedule(after: LoopTime(nanoseconds: 2_000_000)) { log.append("b@2") }
        loop.schedule(after: LoopTime(nanoseconds: 1_000_000)) { log.append("a@1") }
        loop.schedule(after: LoopTime(nanoseconds: 2_000_000)) { log.append("c@2") }
        loop.schedule { log.append("now") }
        #expect(try loop.advance(byMilliseconds: 0) == 1)
        #expect(log == ["now"])
        #expect(try loop.advance(byMilliseconds: 5) == 3)
        #expect(log == ["now", "a@1", "b@2", "c@2"])
        #expect(loop.now == LoopTime(nanoseconds: 5_000_000))
    }

    @Test func nowIsTheDueTimeWhileWorkRuns() throws {
        let loop = try Loop(kind: .virtual)
        var seen: [Int64] = []
        loop.schedule(after: LoopTime(nanoseconds: 1_500_000)) { seen.append(loop.now.nanoseconds) }
        try loop.advance(byMilliseconds: 3)
        #expect(seen == [1_500_000])
        #expect(loop.now.milliseconds == 3)
    }

    @Test func repeatingWorkTicksExactlyAndStopsWhenCancelled() throws {
        let loop = try Loop(kind: .virtual)
        var ticks: [Int64] = []
        let timer = loop.schedule(after: loop.now.advanced(by: .milliseconds(10)), interval: .milliseconds(10)) {
            ticks.append(loop.now.milliseconds)
        }
        try loop.advance(byMilliseconds: 35)
        #expect(ticks == [10, 20, 30])
        timer.cancel()
        try loop.advance(byMilliseconds: 100)
        #expect(ticks == [10, 20, 30])
        #expect(loop.nextTimeoutMilliseconds == nil)
    }

    @Test func workScheduledByWorkForTheSameInstantRunsInTheSameAdvance() throws {
        let loop = try Loop(kind: .virtual)
        var log: [Int] = []
        loop.schedule {
            log.append(1)
            loop.schedule { log.append(2) }
        }
        try loop.advance(byMilliseconds: 0)
        #expect(log == [1, 2])
    }

    @Test func turnObserversRunOncePerInstant() throws {
        let loop = try Loop(kind: .virtual)
        var events: [String] = []
        let observer = loop.addTurnObserver { events.append("turn@\(loop.now.milliseconds)") }
        loop.schedule(after: LoopTime(nanoseconds: 1_000_000)) { events.append("a") }
        loop.schedule(after: LoopTime(nanoseconds: 1_000_000)) { events.append("b") }
        loop.schedule(after: LoopTime(nanoseconds: 2_000_000)) { events.append("c") }
        try loop.advance(byMilliseconds: 2)
        #expect(events == ["a", "b", "turn@1", "c", "turn@2"])
        observer.cancel()
    }

    @Test func refusesOperationsOfOtherKindsAndNegativeTime() throws {
        let loop = try Loop(kind: .virtual)
        #expect(throws: LoopError.wrongKind(operation: "dispatch", kind: .virtual)) { try loop.dispatch() }
        #expect(throws: LoopError.wrongKind(operation: "fd", kind: .virtual)) { _ = try loop.fileDescriptor }
        #expect(throws: LoopError.negativeDuration(operation: "advance", milliseconds: -1)) {
            try loop.advance(byMilliseconds: -1)
        }
        let manual = try Loop(kind: .manual)
        #expect(throws: LoopError.wrongKind(operation: "advance", kind: .manual)) { try manual.advance(byMilliseconds: 1) }
    }

    @Test func timeStopsAtItsLimitAndSchedulingNearItCannotOverflow() throws {
        let loop = try Loop(kind: .virtual)
        let limitMs = LoopTime.limit.milliseconds
        #expect(throws: LoopError.beyondTimeLimit(operation: "advance", milliseconds: limitMs + 1)) {
            try loop.advance(byMilliseconds: limitMs + 1)
        }
        #expect(throws: LoopError.beyondTimeLimit(operation: "advance", milliseconds: .max)) {
            try loop.advance(byMilliseconds: .max)
        }
        #expect(loop.now == .zero)
        var ran = 0
        loop.schedule(after: loop.now.advanced(by: .seconds(1))) { ran += 1 }
        #expect(try loop.advance(byMilliseconds: limitMs - 1) == 1)
        #expect(throws: LoopError.beyondTimeLimit(operation: "advance", milliseconds: 2)) {
            try loop.advance(byMilliseconds: 2)
        }
        #expect(loop.now.milliseconds == limitMs - 1)
        try loop.advance(byMilliseconds: 1)
        #expect(loop.now.milliseconds == limitMs)
        // At the limit, a repeating timer can still be scheduled; it never comes due.
        let timer = loop.schedule(after: loop.now.advanced(by: .seconds(1)), interval: .seconds(1)) { ran += 1 }
        #expect(try loop.advance(byMilliseconds: 0) == 0)
        #expect(ran == 1)
        // Time arithmetic past Int64 saturates instead of trapping.
        #expect(loop.now.advanced(by: LoopTime.Stride(nanoseconds: .max)).nanoseconds == .max)
        timer.cancel()
    }

    @Test func refusesReentrantAdvance() throws {
        let loop = try Loop(kind: .virtual)
        var inner: Result<Int, LoopError>?
        loop.schedule { inner = Result { () throws(LoopError) -> Int in try loop.advance(byMilliseconds: 1) } }
        try loop.advance(byMilliseconds: 0)
        #expect(inner == .failure(.reentrantDispatch(operation: "advance")))
    }

    @Test func refusesAdvanceFromInsidePerform() throws {
        let loop = try Loop(kind: .virtual)
        var ran = false
        loop.schedule { ran = true }
        let inner = loop.perform { Result { () throws(LoopError) -> Int in try loop.advance(byMilliseconds: 1) } }
        #expect(inner == .failure(.reentrantDispatch(operation: "advance")))
        #expect(!ran)
        #expect(try loop.advance(byMilliseconds: 0) == 1)
    }

    @Test func whatIsKeptUntilWorkEndsIsLetGoOfWhenTheOutermostWorkEnds() throws {
        final class Tracked {
            let onEnd: () -> Void
            init(_ onEnd: @escaping () -> Void) { self.onEnd = onEnd }
            deinit { onEnd() }
        }
        let loop = try Loop(kind: .virtual)
        var ended: [String] = []
        loop.perform {
            // An object, objects, and a value that is not an object (an array of them).
            loop.keepUntilWorkEnds(Tracked { ended.append("object") })
            loop.keepUntilWorkEnds(contentsOf: [Tracked { ended.append("first") }, Tracked { ended.append("second") }])
            loop.keepUntilWorkEnds([Tracked { ended.append("in an array") }])
            loop.perform { loop.keepUntilWorkEnds(Tracked { ended.append("nested") }) }
            #expect(ended.isEmpty)
        }
        #expect(ended == ["object", "first", "second", "in an array", "nested"])
        // Outside any work, nothing is kept.
        loop.keepUntilWorkEnds(Tracked { ended.append("outside") })
        #expect(ended.last == "outside")
    }

    @Test func stoppedLoopDropsWorkAndRefusesToRun() throws {
        let loop = try Loop(kind: .virtual)
        var ran = false
        loop.schedule { ran = true }
        loop.stop()
        loop.schedule { ran = true }
        #expect(throws: LoopError.stopped(operation: "advance")) { try loop.advance(byMilliseconds: 1) }
        #expect(!ran)
        #expect(loop.isStopped)
    }

    @Test func operatorsRunOnVirtualTime() throws {
        let loop = try Loop(kind: .virtual)
        let subject = PassthroughSubject<Int, Never>()
        var delayed: [Int64] = [], debounced: [Int] = []
        let a = subject.delay(for: .milliseconds(100), scheduler: loop).sink { _ in delayed.append(loop.now.milliseconds) }
        let b = subject.debounce(for: .milliseconds(50), scheduler: loop).sink { debounced.append($0) }
        subject.send(1)
        try loop.advance(byMilliseconds: 20)
        subject.send(2)
        try loop.advance(byMilliseconds: 200)
        #expect(delayed == [100, 120])
        #expect(debounced == [2])
        _ = (a, b)
    }

    @Test func timerPublisherTicksEveryIntervalAndStopsOnCancel() throws {
        let loop = try Loop(kind: .virtual)
        var ticks: [Int64] = []
        let subscription = loop.timerPublisher(every: .seconds(1)).sink { ticks.append($0.milliseconds) }
        try loop.advance(byMilliseconds: 3_500)
        #expect(ticks == [1_000, 2_000, 3_000])
        subscription.cancel()
        try loop.advance(byMilliseconds: 3_000)
        #expect(ticks == [1_000, 2_000, 3_000])
    }
}

/// Real time, with generous bounds so a loaded machine never makes these flake.
@Suite struct RealTimeLoopTests {
    private func isReadable(_ fd: Int32, waitingMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, waitingMilliseconds) == 1
    }

    @Test func manualLoopFileDescriptorSignalsDueWork() throws {
        let loop = try Loop(kind: .manual)
        let fd = try loop.fileDescriptor
        #expect(!isReadable(fd, waitingMilliseconds: 0))
        #expect(loop.nextTimeoutMilliseconds == nil)
        var ran = 0
        loop.schedule(after: loop.now.advanced(by: .milliseconds(30))) { ran += 1 }
        let timeout = try #require(loop.nextTimeoutMilliseconds)
        #expect(timeout > 0 && timeout <= 30)
        #expect(try loop.dispatch() == 0)
        #expect(isReadable(fd, waitingMilliseconds: 5_000))
        #expect(try loop.dispatch() == 1)
        #expect(ran == 1)
        #expect(!isReadable(fd, waitingMilliseconds: 0))
        loop.schedule { ran += 1 }
        #expect(isReadable(fd, waitingMilliseconds: 5_000))
        #expect(loop.nextTimeoutMilliseconds == 0)
        #expect(try loop.dispatch() == 1)
        #expect(ran == 2)
    }

    @Test func manualLoopRunForDispatchesOnTheCallingThread() throws {
        let loop = try Loop(kind: .manual)
        var ticks = 0
        let timer = loop.schedule(after: loop.now, interval: .milliseconds(5)) { ticks += 1 }
        let ran = try loop.run(forMilliseconds: 60)
        #expect(ran == ticks)
        #expect(ticks >= 2)
        timer.cancel()
    }

    @Test func threadLoopRunsWorkOnItsOwnThreadAndStops() throws {
        let loop = try Loop(kind: .thread)
        let done = PThreadLock()
        let caller = pthread_self()
        nonisolated(unsafe) var onOtherThread = false
        nonisolated(unsafe) var ticks = 0
        let timer = loop.schedule(after: loop.now, interval: .milliseconds(2)) {
            done.withLock {
                onOtherThread = pthread_equal(pthread_self(), caller) == 0
                ticks += 1
            }
        }
        for _ in 0..<500 where done.withLock({ ticks < 3 }) { usleep(10_000) }
        #expect(done.withLock { ticks } >= 3)
        #expect(done.withLock { onOtherThread })
        #expect(throws: LoopError.wrongKind(operation: "dispatch", kind: .thread)) { try loop.dispatch() }
        loop.stop()
        let afterStop = done.withLock { ticks }
        usleep(30_000)
        #expect(done.withLock { ticks } == afterStop)
        timer.cancel()
    }

    /// A host that releases its loops and then unloads the library, or checks for leaks at exit,
    /// needs the thread gone, thread-specific data and all. The probe's destructor runs as the
    /// thread ends: before `stop` returns if `stop` joins the thread, usually after it otherwise.
    @Test func stopReturnsOnceTheThreadHasEnded() throws {
        for _ in 0..<50 {
            let loop = try Loop(kind: .thread)
            let probe = ThreadEndProbe()
            let armed = PThreadLock()
            nonisolated(unsafe) var isArmed = false
            loop.schedule {
                probe.arm()
                armed.withLock { isArmed = true }
            }
            for _ in 0..<1000 where !armed.withLock({ isArmed }) { usleep(1_000) }
            #expect(armed.withLock { isArmed })
            loop.stop()
            #expect(probe.threadEnded)
        }
    }
}

/// Tells when a thread that armed it has ended: a thread-specific value's destructor runs at
/// the thread's end.
final class ThreadEndProbe: @unchecked Sendable {
    private var key = pthread_key_t()
    private let lock = PThreadLock()
    private var ended = false

    init() {
        pthread_key_create(&key) { probe in
            Unmanaged<ThreadEndProbe>.fromOpaque(probe!).takeRetainedValue().markEnded()
        }
    }

    deinit { pthread_key_delete(key) }

    /// Called on the thread to watch.
    func arm() { pthread_setspecific(key, Unmanaged.passRetained(self).toOpaque()) }

    private func markEnded() { lock.withLock { ended = true } }

    var threadEnded: Bool { lock.withLock { ended } }
}
