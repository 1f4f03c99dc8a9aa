import CMVVM
import Dispatch
import Glibc
import func MVVMExport.mvvm_loop_dispatch
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_send
import func MVVMExport.mvvm_subscribe
import Testing
@testable import MVVMExport

// Callback properties exported as signals: `c.signal("finished", \.finishedAction)`.

final class Runner: @unchecked Sendable {
    var finishedAction: (() -> Void)?
    var scoredAction: ((Int) -> Void)?
    /// How often the app's own finishedAction, set before the engine's, ran.
    var ownCalls = 0

    init() { finishedAction = { [unowned self] in ownCalls += 1 } }
}

/// Registered once for the whole test process.
private let registered: Void = {
    Exports.register(Runner.self) { c in
        c.signal("finished", \.finishedAction)
        c.signal("scored", \.scoredAction)
        c.command("finish") { $0.finishedAction?() }
        c.command("score", .value("points")) { (runner, points: Int) in runner.scoredAction?(points) }
        c.command("take_over") { runner in runner.finishedAction = {} }
        c.constructor { _ in Runner() }
    }
}()

/// Each event heard: its name, its int payload (or nil), and whether it ran on the thread that
/// subscribed.
private final class Events: @unchecked Sendable {
    let thread = pthread_self()
    var heard: [(name: String, value: Int64?, onThatThread: Bool)] = []
}

private let hearEvent: mvvm_callback = { _, event, userData in
    let events = Unmanaged<Events>.fromOpaque(userData!).takeUnretainedValue()
    let event = event!.pointee
    events.heard.append((String(cString: event.name), event.value.type == MVVM_TYPE_INT ? event.value.integer : nil,
                         pthread_equal(pthread_self(), events.thread) != 0))
}

/// A runner on a loop of `kind`, subscribed to by `events`.
private func runner(on kind: mvvm_loop_kind, _ events: Events) -> (loop: mvvm_handle, runner: mvvm_handle) {
    _ = registered
    var loop: mvvm_handle = 0, runner: mvvm_handle = 0, subscription: mvvm_handle = 0
    _ = mvvm_loop_new(kind, &loop)
    _ = mvvm_new(loop, "runner", nil, 0, &runner)
    _ = mvvm_subscribe(runner, nil, hearEvent, Unmanaged.passUnretained(events).toOpaque(), nil, &subscription)
    return (loop, runner)
}

private func target(_ handle: mvvm_handle) -> Runner {
    (HandleTable.shared.lookup(handle) as! ExportedObject).target as! Runner
}

@Suite struct CallbackSignalTests {
    /// Each call is one event, delivered as the operation that made it ends; the app's own
    /// closure, set before, is kept and still called.
    @Test func eachCallIsAnEventAndTheAppsOwnClosureIsKept() {
        let events = Events()
        let (loop, handle) = runner(on: MVVM_LOOP_VIRTUAL, events)
        var points = mvvm_value()
        points.type = MVVM_TYPE_INT
        points.integer = 3
        #expect(mvvm_send(handle, "finish", nil) == MVVM_OK)
        #expect(mvvm_send(handle, "score", &points) == MVVM_OK)
        #expect(mvvm_send(handle, "finish", nil) == MVVM_OK)
        #expect(events.heard.map(\.name) == ["finished", "scored", "finished"])
        #expect(events.heard.map(\.value) == [nil, 3, nil])
        #expect(target(handle).ownCalls == 2)
        // The description gives them as signals, with their payloads.
        let description = Registry.shared.exportedClass(named: "runner")!.fullDescriptionJSON
        #expect(description.contains("\"signals\": [{\"name\": \"finished\", \"type\": \"none\""))
        #expect(description.contains("{\"name\": \"scored\", \"type\": \"int\""))
        _ = mvvm_release(handle)
        _ = mvvm_release(loop)
    }

    /// The app's own assignment replaces the engine's closure: the signal is disconnected.
    @Test func theAppsOwnAssignmentDisconnectsTheSignal() {
        let events = Events()
        let (loop, handle) = runner(on: MVVM_LOOP_VIRTUAL, events)
        #expect(mvvm_send(handle, "take_over", nil) == MVVM_OK)
        #expect(mvvm_send(handle, "finish", nil) == MVVM_OK)
        #expect(events.heard.isEmpty)
        _ = mvvm_release(handle)
        _ = mvvm_release(loop)
    }

    /// A call from another thread is the loop's work: delivered on the loop's thread (here the
    /// host's, at its next dispatch), never on the caller's.
    @Test func aCallFromAnotherThreadIsDeliveredOnTheLoopsThread() {
        let events = Events()
        let (loop, handle) = runner(on: MVVM_LOOP_MANUAL, events)
        let runner = target(handle)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "elsewhere").async {
            runner.scoredAction?(7)
            done.signal()
        }
        done.wait()
        #expect(events.heard.isEmpty)
        var ran: Int64 = 0
        #expect(mvvm_loop_dispatch(loop, &ran) == MVVM_OK)
        #expect(events.heard.count == 1)
        #expect(events.heard.first?.name == "scored" && events.heard.first?.value == 7)
        #expect(events.heard.first?.onThatThread == true)
        _ = mvvm_release(handle)
        _ = mvvm_release(loop)
    }

    /// Once the handle is released, a call sends nothing and does not crash; the app's own
    /// closure is still called.
    @Test func aCallAfterTheHandleIsReleasedSendsNothing() {
        let events = Events()
        let (loop, handle) = runner(on: MVVM_LOOP_MANUAL, events)
        let runner = target(handle)
        _ = mvvm_release(handle)
        runner.finishedAction?()
        DispatchQueue(label: "elsewhere").sync { runner.scoredAction?(1) }
        var ran: Int64 = 0
        #expect(mvvm_loop_dispatch(loop, &ran) == MVVM_OK)
        #expect(events.heard.isEmpty)
        #expect(runner.ownCalls == 1)
        _ = mvvm_release(loop)
    }
}
