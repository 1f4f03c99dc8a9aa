import CMVVM
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_subscribe
import func MVVMExport.mvvm_set_int
import func MVVMExport.mvvm_get_int
import Observation
import Testing
@testable import MVVMExport

/// An `@Observable` thermostat: a set of `target` changes `target` alone, or `target` and
/// `isHeating` together (declared after it), so one set takes the fast path and another the
/// general way.
@Observable final class Thermostat {
    var room = 18
    var target = 20
    var isHeating: Bool { target > room }
}

private let registeredThermostat: Void = {
    Exports.register(Thermostat.self) { c in
        c.binding("target", \.target)
        c.output("is_heating", \.isHeating)
        c.binding("room", \.room)
        c.constructor { _ in Thermostat() }
    }
}()

/// What the subscribers of one thermostat heard, "name=value" in order, and what a callback
/// does when it hears an event.
final class ThermostatHearing: @unchecked Sendable {
    var events: [String] = []
    var onEvent: (String) -> Void = { _ in }
}

private let hearThermostat: mvvm_callback = { _, event, userData in
    let hearing = Unmanaged<ThermostatHearing>.fromOpaque(userData!).takeUnretainedValue()
    let event = event!.pointee
    let text = "\(String(cString: event.name))=" + (event.value.type == MVVM_TYPE_BOOL ? "\(event.value.boolean)" : "\(event.value.integer)")
    hearing.events.append(text)
    hearing.onEvent(text)
}

private func makeThermostat(on loop: mvvm_handle) -> mvvm_handle {
    _ = registeredThermostat
    var thermostat: mvvm_handle = 0
    #expect(mvvm_new(loop, "thermostat", nil, 0, &thermostat) == MVVM_OK)
    return thermostat
}

private func subscribe(_ object: mvvm_handle, _ hearing: ThermostatHearing, to property: String? = nil) {
    var subscription: mvvm_handle = 0
    #expect(mvvm_subscribe(object, property, hearThermostat, Unmanaged.passUnretained(hearing).toOpaque(), nil,
                           &subscription) == MVVM_OK)
}

private func virtualLoop() -> mvvm_handle {
    var loop: mvvm_handle = 0
    _ = mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop)
    return loop
}

// Nested in ObservationTrackingTests, which is serialized with everything nested in it: its
// objects arm Observation trackings, which those tests count process-wide.
extension ObservationTrackingTests {
    /// The common operation, a set on one object whose `@Observable` values are read after
    /// operations, announces its one change at once (`checkUnarmedProperties(alone:)`); everything
    /// else goes the general way. Both must be heard alike: each change once, in the order the class
    /// lists its properties, nested changes after what caused them.
    @Suite(.serialized) struct FastPathTests {
        @Test func aLoneChangeAndAChangeOfTwoValuesAreHeardAlike() {
            let loop = virtualLoop()
            let thermostat = makeThermostat(on: loop)
            let hearing = ThermostatHearing()
            subscribe(thermostat, hearing)
            // Subscribed to, the object is read after each operation until quiet: a set changing one
            // value takes the fast path, one changing two the general way, which announces them in
            // the order the class lists them.
            #expect(mvvm_set_int(thermostat, "target", 21) == MVVM_OK)
            #expect(mvvm_set_int(thermostat, "target", 22) == MVVM_OK)
            #expect(mvvm_set_int(thermostat, "room", 25) == MVVM_OK)
            #expect(mvvm_set_int(thermostat, "room", 24) == MVVM_OK)
            #expect(mvvm_set_int(thermostat, "target", 30) == MVVM_OK)
            #expect(hearing.events == ["target=21", "target=22", "is_heating=false", "room=25", "room=24",
                                       "target=30", "is_heating=true"])
            // A set that changes nothing announces nothing.
            #expect(mvvm_set_int(thermostat, "target", 30) == MVVM_OK)
            #expect(hearing.events.count == 7)
            var target: Int64 = 0
            #expect(mvvm_get_int(thermostat, "target", &target) == MVVM_OK && target == 30)
            _ = mvvm_release(thermostat)
            _ = mvvm_release(loop)
        }

        @Test func aSetMadeByTheCallbackOfAFastAnnouncementIsHeardAfterIt() {
            let loop = virtualLoop()
            let thermostat = makeThermostat(on: loop)
            let hearing = ThermostatHearing()
            subscribe(thermostat, hearing, to: "target")
            #expect(mvvm_set_int(thermostat, "target", 21) == MVVM_OK)
            // The callback of the fast path's announcement sets the value again, nested.
            hearing.onEvent = { event in
                if event == "target=22" { #expect(mvvm_set_int(thermostat, "target", 23) == MVVM_OK) }
            }
            #expect(mvvm_set_int(thermostat, "target", 22) == MVVM_OK)
            #expect(hearing.events == ["target=21", "target=22", "target=23"])
            hearing.onEvent = { _ in }
            #expect(mvvm_set_int(thermostat, "target", 23) == MVVM_OK)
            #expect(hearing.events.count == 3)
            _ = mvvm_release(thermostat)
            _ = mvvm_release(loop)
        }

        @Test func aCallbackThatReleasesTheObjectEndsAFastAnnouncement() {
            let loop = virtualLoop()
            let thermostat = makeThermostat(on: loop)
            let first = ThermostatHearing(), second = ThermostatHearing()
            subscribe(thermostat, first, to: "target")
            subscribe(thermostat, second, to: "target")
            #expect(mvvm_set_int(thermostat, "target", 21) == MVVM_OK)
            first.onEvent = { _ in #expect(mvvm_release(thermostat) == MVVM_OK) }
            #expect(mvvm_set_int(thermostat, "target", 22) == MVVM_OK)
            // The second subscriber heard nothing after the release, and the handle is gone.
            #expect(first.events == ["target=21", "target=22"])
            #expect(second.events == ["target=21"])
            #expect(mvvm_set_int(thermostat, "target", 23) == MVVM_ERR_INVALID_HANDLE)
            _ = mvvm_release(loop)
        }

        @Test func twoObjectsChangedInOneOperationAreHeardInCreationOrder() throws {
            let loop = virtualLoop()
            let first = makeThermostat(on: loop), second = makeThermostat(on: loop)
            let hearing = ThermostatHearing()
            subscribe(second, hearing, to: "target")
            subscribe(first, hearing, to: "target")
            #expect(mvvm_set_int(first, "target", 21) == MVVM_OK)
            #expect(mvvm_set_int(second, "target", 31) == MVVM_OK)
            // Both are read after operations now; one operation changes both, the second first: the
            // general way, which announces them in the order they were made.
            let firstObject = try #require(HandleTable.shared.lookup(first) as? ExportedObject)
            let secondObject = try #require(HandleTable.shared.lookup(second) as? ExportedObject)
            try firstObject.context.operation { () throws(ExportError) in
                (secondObject.target as! Thermostat).target = 32
                (firstObject.target as! Thermostat).target = 22
            }
            #expect(hearing.events == ["target=21", "target=31", "target=22", "target=32"])
            _ = mvvm_release(first)
            _ = mvvm_release(second)
            _ = mvvm_release(loop)
        }
    }
}
