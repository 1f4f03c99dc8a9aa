// Changes made on other threads (a completion on a background queue, a detached task) reach the
// host with no host call: the object's loop hears of them, runs the delivery as its own work and
// announces on its own thread, coalesced like any other turn's changes.
import CMVVM
import Dispatch
import Glibc
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_subscribe
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_loop_fd
import func MVVMExport.mvvm_loop_dispatch
import func MVVMExport.mvvm_loop_advance
import MVVMRuntime
import Observation
import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

final class Forecast: ObservableObject, @unchecked Sendable {
    @Published var temperature = 0
}

@Observable final class Toast: @unchecked Sendable {
    var message = ""
}

private let registeredForWakeUps: Void = {
    Exports.register(Forecast.self) { c in
        c.output("temperature", \.temperature, \.$temperature)
        c.constructor { _ in Forecast() }
    }
    Exports.register(Toast.self) { c in
        c.output("message", \.message)
        c.constructor { _ in Toast() }
    }
}()

/// What a subscriber heard (values as text), and on which threads, under a lock: a thread
/// loop delivers on its own thread while the test reads.
final class Heard2: @unchecked Sendable {
    private let lock = PThreadLock()
    private var events: [String] = []
    private var threads: [pthread_t] = []
    func add(_ event: String) { lock.withLock { events.append(event); threads.append(pthread_self()) } }
    var all: [String] { lock.withLock { events } }
    var onThreads: [pthread_t] { lock.withLock { threads } }
}

private let hearValue: mvvm_callback = { _, event, userData in
    let heard = Unmanaged<Heard2>.fromOpaque(userData!).takeUnretainedValue()
    let value = event!.pointee.value
    heard.add(value.type == MVVM_TYPE_INT ? "\(value.integer)" : String(cString: value.string))
}

/// An object of `className` on a new loop of `kind`, its property subscribed to.
private struct WakeFixture {
    let loop: mvvm_handle
    let object: mvvm_handle
    let heard = Heard2()

    init(_ kind: mvvm_loop_kind, _ className: String) {
        _ = registeredForWakeUps
        var loop: mvvm_handle = 0, object: mvvm_handle = 0, subscription: mvvm_handle = 0
        _ = mvvm_loop_new(kind, &loop)
        _ = mvvm_new(loop, className, nil, 0, &object)
        self.loop = loop
        self.object = object
        _ = mvvm_subscribe(object, nil, hearValue, Unmanaged.passUnretained(heard).toOpaque(), nil, &subscription)
    }

    var target: AnyObject { (HandleTable.shared.lookup(object) as! ExportedObject).target }

    func release() {
        _ = mvvm_release(object)
        _ = mvvm_release(loop)
    }
}

/// Runs `body` on a thread of the global queue and waits for it.
private func onBackgroundThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    done.wait()
}

/// Polls the manual loop's fd and dispatches until `done` or 5 s; whether the fd was readable.
private func waitOnFd(_ loop: mvvm_handle, until done: () -> Bool) -> Bool {
    var fd: Int32 = -1
    _ = mvvm_loop_fd(loop, &fd)
    var woke = false
    let deadline = ContinuousClock.now + .seconds(5)
    while !done() && ContinuousClock.now < deadline {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, 100) > 0 { woke = true }
        _ = mvvm_loop_dispatch(loop, nil)
    }
    return woke
}

// Nested in ObservationTrackingTests, which is serialized with everything nested in it: its
// objects arm Observation trackings, which those tests count process-wide.
extension ObservationTrackingTests {
    @Suite(.serialized) struct WakeUpTests {
        @Test func aPublishedPropertySetOnABackgroundQueueMakesAManualLoopsFdReadable() {
            let fixture = WakeFixture(MVVM_LOOP_MANUAL, "forecast")
            let forecast = fixture.target as! Forecast
            onBackgroundThread { forecast.temperature = 21 }
            #expect(waitOnFd(fixture.loop) { fixture.heard.all == ["21"] })
            #expect(fixture.heard.all == ["21"])
            // Announced on the thread that dispatched.
            #expect(fixture.heard.onThreads.allSatisfy { pthread_equal($0, pthread_self()) != 0 })
            fixture.release()
        }

        @Test func anObservablePropertySetInADetachedTaskMakesAManualLoopsFdReadable() async {
            let fixture = WakeFixture(MVVM_LOOP_MANUAL, "toast")
            let toast = fixture.target as! Toast
            // Armed once quiet: an operation reads it, then arms it.
            _ = mvvm_loop_dispatch(fixture.loop, nil)
            await Task.detached { toast.message = "saved" }.value
            #expect(waitOnFd(fixture.loop) { fixture.heard.all == ["saved"] })
            #expect(fixture.heard.all == ["saved"])
            fixture.release()
        }

        @Test func aThreadLoopAnnouncesABackgroundChangeOnItsThreadWithNoHostCall() {
            let fixture = WakeFixture(MVVM_LOOP_THREAD, "forecast")
            let forecast = fixture.target as! Forecast
            onBackgroundThread { forecast.temperature = 7 }
            let deadline = ContinuousClock.now + .seconds(5)
            while fixture.heard.all.isEmpty && ContinuousClock.now < deadline { usleep(1_000) }
            #expect(fixture.heard.all == ["7"])
            #expect(fixture.heard.onThreads.allSatisfy { pthread_equal($0, pthread_self()) == 0 })
            fixture.release()
        }

        @Test func aVirtualLoopAnnouncesABackgroundChangeAtItsNextAdvance() {
            let fixture = WakeFixture(MVVM_LOOP_VIRTUAL, "forecast")
            let forecast = fixture.target as! Forecast
            onBackgroundThread { forecast.temperature = 3 }
            #expect(fixture.heard.all.isEmpty)
            _ = mvvm_loop_advance(fixture.loop, 0)
            #expect(fixture.heard.all == ["3"])
            fixture.release()
        }

        @Test func manyBackgroundChangesAreCoalescedInOrderEndingWithTheLast() {
            let fixture = WakeFixture(MVVM_LOOP_MANUAL, "forecast")
            let forecast = fixture.target as! Forecast
            onBackgroundThread { for value in 1...1_000 { forecast.temperature = value } }
            _ = waitOnFd(fixture.loop) { fixture.heard.all.last == "1000" }
            let values = fixture.heard.all.compactMap(Int.init)
            #expect(values.last == 1_000)
            // Each announced once at most, in the order set: never an older value after a newer.
            #expect(values == values.sorted() && Set(values).count == values.count)
            fixture.release()
        }
    }
}
