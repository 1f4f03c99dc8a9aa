// A @MainActor view model registered with one line per member, on a virtual loop made on the
// main thread: exact tests of main-actor code, each advance draining the main queue.
import CMVVM
import Dispatch
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_send
import func MVVMExport.mvvm_get_int
import func MVVMExport.mvvm_loop_advance
import func MVVMExport.mvvm_call_async
import func MVVMExport.mvvm_get_string
import func MVVMExport.mvvm_string_free
import func MVVMExport.mvvm_last_error
import MVVMExport
import XCTest
@preconcurrency import OpenCombine

@MainActor
final class Poll: ObservableObject {
    @Published private(set) var votes = 0
    @Published private(set) var note = ""
    init() {}
    func vote() { votes += 1 }
    func voteLater() { Task { @MainActor in votes += 1 } }
    func fetch() async -> Int {
        note = "fetching"
        await Task.yield()
        note = "fetched"
        return votes
    }
}

private let registeredPoll: Void = {
    Exports.register(Poll.self, isolation: .mainActor) { c in
        c.output("votes", \.votes, \.$votes)
        c.output("note") { $0.note }
        c.command("vote") { $0.vote() }
        c.command("vote_later") { $0.voteLater() }
        c.asyncCommand("fetch") { await $0.fetch() }
        c.constructor { _ in Poll() }
    }
}()

final class MainActorTests: XCTestCase {
    private func votes(_ poll: mvvm_handle) -> Int64 {
        var value: Int64 = -1
        XCTAssertEqual(mvvm_get_int(poll, "votes", &value), MVVM_OK)
        return value
    }

    func testAMainActorViewModelOnAVirtualLoopMadeOnTheMainThread() {
        _ = registeredPoll
        var loop: mvvm_handle = 0, poll: mvvm_handle = 0
        XCTAssertEqual(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK)
        defer { _ = mvvm_release(loop) }
        XCTAssertEqual(mvvm_new(loop, "poll", nil, 0, &poll), MVVM_OK)
        XCTAssertEqual(mvvm_send(poll, "vote", nil), MVVM_OK)
        XCTAssertEqual(votes(poll), 1)
        // Task { @MainActor in }: runs at the next advance, exactly then.
        XCTAssertEqual(mvvm_send(poll, "vote_later", nil), MVVM_OK)
        XCTAssertEqual(votes(poll), 1)
        XCTAssertEqual(mvvm_loop_advance(loop, 0), MVVM_OK)
        XCTAssertEqual(votes(poll), 2)
        _ = mvvm_release(poll)
    }

    func testAMainActorAsyncCommandRunsToItsFirstSuspensionInTheCallAndEnds() {
        _ = registeredPoll
        var loop: mvvm_handle = 0, poll: mvvm_handle = 0, call: mvvm_handle = 0
        XCTAssertEqual(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK)
        defer { _ = mvvm_release(loop) }
        XCTAssertEqual(mvvm_new(loop, "poll", nil, 0, &poll), MVVM_OK)
        final class Ended: @unchecked Sendable { var status: mvvm_status?; var result: Int64 = -1 }
        let ended = Ended()
        let done: mvvm_done_fn = { _, status, result, _, userData in
            let ended = Unmanaged<Ended>.fromOpaque(userData!).takeUnretainedValue()
            ended.status = status
            ended.result = result!.pointee.integer
        }
        XCTAssertEqual(mvvm_call_async(poll, "fetch", nil, nil, 0, done, Unmanaged.passUnretained(ended).toOpaque(), nil,
                                       &call), MVVM_OK)
        var note: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(mvvm_get_string(poll, "note", &note), MVVM_OK)
        XCTAssertEqual(note.map { String(cString: $0) }, "fetching")
        mvvm_string_free(note)
        XCTAssertNil(ended.status)
        XCTAssertEqual(mvvm_loop_advance(loop, 0), MVVM_OK)
        XCTAssertEqual(ended.status, MVVM_OK)
        XCTAssertEqual(ended.result, 0)
        _ = mvvm_release(poll)
    }

    func testAMainActorClassIsRefusedOffTheMainThreadAndOnOtherLoops() {
        _ = registeredPoll
        var manual: mvvm_handle = 0, poll: mvvm_handle = 0
        XCTAssertEqual(mvvm_loop_new(MVVM_LOOP_MANUAL, &manual), MVVM_OK)
        XCTAssertEqual(mvvm_new(manual, "poll", nil, 0, &poll), MVVM_ERR_INVALID_ARGUMENT)
        XCTAssertTrue(String(cString: mvvm_last_error()).contains("lives on the main loop"))
        _ = mvvm_release(manual)
        // A virtual loop made off the main thread cannot serve the main actor.
        let status = { () -> mvvm_status in
            nonisolated(unsafe) var status = MVVM_OK
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                var loop: mvvm_handle = 0, made: mvvm_handle = 0
                _ = mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop)
                status = mvvm_new(loop, "poll", nil, 0, &made)
                _ = mvvm_release(loop)
                done.signal()
            }
            done.wait()
            return status
        }()
        XCTAssertEqual(status, MVVM_ERR_INVALID_ARGUMENT)
    }
}
