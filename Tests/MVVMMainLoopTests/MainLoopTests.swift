// The main loop and a virtual loop serving the main actor. XCTest, not swift-testing: XCTest runs
// its tests on the process's main thread, the only one that may drain the main queue
// (swift-testing runs them on other threads, where the drain traps).
import Dispatch
import Foundation
import Glibc
import MVVMRuntime
import XCTest

/// Set by main-queue work, read by the test: both on the main thread.
nonisolated(unsafe) private var ranOnMain: [String] = []

final class MainLoopTests: XCTestCase {
    /// Waits on the loop's fd as a host's poll() would, then dispatches; until `done` or 5 s.
    /// Waits on the loop's fd and dispatches until `done`, for at most 5 s; returns how many
    /// waits ended by their timeout (`pollTimeout` ms) rather than by the fd.
    @discardableResult
    private func pump(_ loop: Loop, pollTimeout: Int32 = 100, until done: () -> Bool) throws -> Int {
        let fd = try loop.fileDescriptor
        let deadline = Date.now.addingTimeInterval(5)
        var timeouts = 0
        while !done() && Date.now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, pollTimeout) == 0 { timeouts += 1 }
            try loop.dispatch()
        }
        return timeouts
    }

    func testMainQueueWorkRunsWhenTheHostWaitsOnTheFd() throws {
        let loop = try Loop(kind: .main)
        defer { loop.stop() }
        ranOnMain = []
        DispatchQueue.global().async {
            DispatchQueue.main.async { MainActor.assertIsolated(); ranOnMain.append("main.async") }
        }
        Task.detached { await MainActor.run { ranOnMain.append("MainActor.run") } }
        Task { @MainActor in MainActor.assertIsolated(); ranOnMain.append("Task @MainActor") }
        try pump(loop) { ranOnMain.count == 3 }
        XCTAssertEqual(Set(ranOnMain), ["main.async", "MainActor.run", "Task @MainActor"])
    }

    func testAnIdleMainLoopsFdIsNotReadable() throws {
        let loop = try Loop(kind: .main)
        defer { loop.stop() }
        try loop.dispatch()
        var descriptor = pollfd(fd: try loop.fileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 50), 0)
        XCTAssertNil(loop.nextTimeoutMilliseconds)
        XCTAssertEqual(try loop.dispatch(), 0)
    }

    func testAFoundationTimerFiresWhileTheHostWaitsOnTheFd() throws {
        let loop = try Loop(kind: .main)
        defer { loop.stop() }
        ranOnMain = []
        nonisolated(unsafe) var ticks = 0
        nonisolated(unsafe) var timer: Timer?
        // Made by main-actor work, as an app's view model makes it; the loop notices it there.
        DispatchQueue.main.async {
            timer = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: true) { _ in ticks += 1 }
        }
        defer { timer?.invalidate() }
        try pump(loop) { timer != nil }
        XCTAssertNotNil(loop.nextTimeoutMilliseconds)
        // Every tick wakes the wait on the fd: a wait of 2 s (40 periods) that ends by its timeout
        // would be a missed wake-up. How late the ticks are is measured, not asserted here:
        // Tests/bench/main_loop_latency.c.
        let missedWakeUps = try pump(loop, pollTimeout: 2_000) { ticks == 3 }
        XCTAssertEqual(ticks, 3)
        XCTAssertEqual(missedWakeUps, 0)
    }

    func testRunForRunsMainQueueWork() throws {
        let loop = try Loop(kind: .main)
        defer { loop.stop() }
        ranOnMain = []
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
            DispatchQueue.main.async { ranOnMain.append("late") }
        }
        try loop.run(forMilliseconds: 1_000)
        XCTAssertEqual(ranOnMain, ["late"])
    }

    func testOneMainLoopAtATimeOnTheMainThreadOnly() throws {
        let loop = try Loop(kind: .main)
        XCTAssertThrowsError(try Loop(kind: .main)) { XCTAssertEqual($0 as? LoopError, .mainLoopExists) }
        // Dispatched and run only on the main thread.
        let refusals = onAnotherThread { () -> [LoopError?] in
            [Result { () throws(LoopError) in try loop.dispatch() }.error,
             Result { () throws(LoopError) in try loop.run(forMilliseconds: 1) }.error]
        }
        XCTAssertEqual(refusals, [.wrongThread(operation: "dispatch"), .wrongThread(operation: "run_for")])
        loop.stop()
        // Released, another may be made; never off the main thread.
        XCTAssertNoThrow(try Loop(kind: .main).stop())
        let offMain = onAnotherThread { Result { () throws(LoopError) in try Loop(kind: .main) }.error }
        guard case .notOnMainThread? = offMain else { return XCTFail("made off the main thread: \(String(describing: offMain))") }
    }

    func testAVirtualLoopServingTheMainActorDrainsTheMainQueueEachAdvance() throws {
        let loop = try Loop(kind: .virtual)
        defer { loop.stop() }
        ranOnMain = []
        try loop.serveMainActor()
        loop.schedule(after: loop.now.advanced(by: .milliseconds(10)), tolerance: .zero, options: nil) {
            Task { @MainActor in ranOnMain.append("from a turn") }
        }
        Task { @MainActor in ranOnMain.append("before") }
        try loop.advance(byMilliseconds: 0)
        XCTAssertEqual(ranOnMain, ["before"])
        try loop.advance(byMilliseconds: 10)
        XCTAssertEqual(ranOnMain, ["before", "from a turn"])
        // Off the main thread it cannot.
        let offMain = onAnotherThread { () -> LoopError? in
            let other = try! Loop(kind: .virtual)
            return Result { () throws(LoopError) in try other.serveMainActor() }.error
        }
        guard case .notOnMainThread? = offMain else { return XCTFail("served off the main thread") }
    }
}

/// Runs `body` on a thread of the global queue (`sync` would run it on this one) and waits.
private func onAnotherThread<T>(_ body: @escaping () -> T) -> T {
    nonisolated(unsafe) var result: T?
    nonisolated(unsafe) let work = body
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        result = work()
        done.signal()
    }
    done.wait()
    return result!
}

private extension Result {
    var error: Failure? { if case .failure(let error) = self { return error } else { return nil } }
}
