// The engine's watch of MVVMCombine `@Published` properties through their boxes: the object is
// the watcher of each box (no watch object per property), and a box that has a watcher already
// gets a watch of its own; either way each set is announced, and the release lets go of all.
import CMVVM
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_loop_run_for
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_set_int
import func MVVMExport.mvvm_subscribe
import Testing
@testable import MVVMExport
@testable import MVVMPublished

final class TwiceWatchedBeacon: MVVMPublished.ObservableObject, @unchecked Sendable {
    @MVVMPublished.Published var level = 0
}

private let registeredTwiceWatched: Void = {
    Exports.register(TwiceWatchedBeacon.self, as: "twice_watched_beacon") { c in
        // Two properties over one box: the second finds the box watched.
        c.binding("level", \.level, \.$level)
        c.output("level_again", \.level, \.$level)
        c.constructor { _ in TwiceWatchedBeacon() }
    }
}()

/// The names of the properties announced, in order.
private final class Announced: @unchecked Sendable {
    var names: [String] = []
}

private let hearName: mvvm_callback = { _, event, userData in
    guard let event, let name = event.pointee.name else { return }
    Unmanaged<Announced>.fromOpaque(userData!).takeUnretainedValue().names.append(String(cString: name))
}

@Suite struct PublishedWatchTests {
    @Test func aBoxWatchedByTwoPropertiesTellsBothAndIsLetGoOf() throws {
        _ = registeredTwiceWatched
        var loop: mvvm_handle = 0, handle: mvvm_handle = 0, subscription: mvvm_handle = 0
        #expect(mvvm_loop_new(MVVM_LOOP_MANUAL, &loop) == MVVM_OK)
        #expect(mvvm_new(loop, "twice_watched_beacon", nil, 0, &handle) == MVVM_OK)
        let announced = Announced()
        let userData = Unmanaged.passRetained(announced).toOpaque()
        #expect(mvvm_subscribe(handle, nil, hearName, userData, nil, &subscription) == MVVM_OK)
        weak var beacon: TwiceWatchedBeacon?
        let box: PublishedBoxBase = try {
            let object = try #require(HandleTable.shared.lookup(handle) as? ExportedObject)
            let target = try #require(object.target as? TwiceWatchedBeacon)
            beacon = target
            // The first property's watch is the box (its watcher the object), the second's its own.
            #expect(object.values[0].watch === target.$level.box)
            #expect(object.values[1].watch is PublishedWatch)
            return target.$level.box
        }()
        #expect(mvvm_set_int(handle, "level", 7) == MVVM_OK)
        #expect(announced.names == ["level", "level_again"])
        #expect(mvvm_release(handle) == MVVM_OK)
        #expect(mvvm_loop_run_for(loop, 1) == MVVM_OK)
        // Neither watch is left on the box: nothing holds the object or its target any more.
        #expect(box.watcher == nil && box.links == nil)
        #expect(beacon == nil)
        #expect(mvvm_release(loop) == MVVM_OK)
        Unmanaged<Announced>.fromOpaque(userData).release()
    }
}
