// A change made on another thread while the loop's thread releases the object: what tells the
// change (an armed Observation tracking, a @Published property's watch, a publisher's sink) may
// run while the object is detached and freed, so it must reach the object through its handle,
// never through a borrowed reference (see `Borrowed`). Under ThreadSanitizer (`make
// test-sanitize-thread`) a read of the object, or of what the loop clears when detaching it, on
// the changing thread is reported as a race; in any build, no change reaches a released object.
import CMVVM
import Dispatch
import func MVVMExport.mvvm_get_int
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_loop_run_for
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_subscribe
import MVVMPublished
import Observation
import Synchronization
import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

/// A beacon whose `level` another thread keeps changing, written each way a view model is.
protocol RacingBeacon: AnyObject, Sendable {
    var level: Int { get set }
}

@Observable final class ObservedBeacon: RacingBeacon, @unchecked Sendable {
    var level = 0
}

final class PublishedBeacon: MVVMPublished.ObservableObject, RacingBeacon, @unchecked Sendable {
    @MVVMPublished.Published var level = 0
}

final class CombineBeacon: OpenCombine.ObservableObject, RacingBeacon, @unchecked Sendable {
    @OpenCombine.Published var level = 0
}

private let registeredBeacons: Void = {
    Exports.register(ObservedBeacon.self, as: "observed_beacon") { c in
        c.output("level", \.level)
        c.constructor { _ in ObservedBeacon() }
    }
    Exports.register(PublishedBeacon.self, as: "published_beacon") { c in
        c.output("level", \.level, \.$level)
        c.constructor { _ in PublishedBeacon() }
    }
    Exports.register(CombineBeacon.self, as: "combine_beacon") { c in
        c.output("level", \.level, \.$level)
        c.constructor { _ in CombineBeacon() }
    }
}()

/// How many events a subscription heard, and how many times its destroy function ran.
final class RaceHearing: Sendable {
    let events = Atomic<Int>(0)
    let destroyed = Atomic<Int>(0)
}

private let hearRace: mvvm_callback = { _, _, userData in
    Unmanaged<RaceHearing>.fromOpaque(userData!).takeUnretainedValue().events.add(1, ordering: .relaxed)
}

private let destroyRace: mvvm_destroy_fn = { userData in
    Unmanaged<RaceHearing>.fromOpaque(userData!).takeUnretainedValue().destroyed.add(1, ordering: .relaxed)
}

// Nested in ObservationTrackingTests, which is serialized with everything nested in it: its
// objects arm Observation trackings, which those tests count process-wide.
extension ObservationTrackingTests {
    @Suite(.serialized) struct ReleaseRaceTests {
        @Test(arguments: ["observed_beacon", "published_beacon", "combine_beacon"])
        func aChangeMadeElsewhereWhileTheObjectIsReleasedReachesNothing(_ className: String) {
            _ = registeredBeacons
            for _ in 0..<20 {
                var loop: mvvm_handle = 0, handle: mvvm_handle = 0, subscription: mvvm_handle = 0
                #expect(mvvm_loop_new(MVVM_LOOP_MANUAL, &loop) == MVVM_OK)
                #expect(mvvm_new(loop, className, nil, 0, &handle) == MVVM_OK)
                let hearing = RaceHearing()
                let userData = Unmanaged.passRetained(hearing).toOpaque()
                #expect(mvvm_subscribe(handle, "level", hearRace, userData, destroyRace, &subscription) == MVVM_OK)
                // Two operations: the first reads the subscribed @Observable value, the second
                // finds it quiet and arms its tracking, which then tells a change on the thread
                // that makes it.
                var level: Int64 = 0
                #expect(mvvm_get_int(handle, "level", &level) == MVVM_OK)
                #expect(mvvm_get_int(handle, "level", &level) == MVVM_OK)
                // The Swift object held here, so the other thread may keep setting it after the
                // release; the exported object not, so that the release frees it.
                let beacon = { () -> any RacingBeacon in
                    let object = HandleTable.shared.lookup(handle) as! ExportedObject
                    if className == "observed_beacon" { #expect(object.values[0].isTracked) }
                    return object.target as! any RacingBeacon
                }()
                let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    started.signal()
                    for value in 1...200 { beacon.level = value }
                    finished.signal()
                }
                started.wait()
                #expect(mvvm_release(handle) == MVVM_OK)
                finished.wait()
                // Whatever the changes carried to the loop (due now, and read again 1 ms later),
                // none reaches the released object's subscriber.
                #expect(mvvm_loop_run_for(loop, 5) == MVVM_OK)
                #expect(hearing.events.load(ordering: .relaxed) == 0)
                #expect(hearing.destroyed.load(ordering: .relaxed) == 1)
                #expect(mvvm_release(loop) == MVVM_OK)
                Unmanaged<RaceHearing>.fromOpaque(userData).release()
            }
        }
    }
}
