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

/// An `@Observable` view model with several watched values, one of them computed.
@Observable final class Gauge {
    var level = 0
    var label = "fuel"
    var unit = "%"
    var isLow: Bool { level < 10 }
}

private let registeredGauge: Void = {
    Exports.register(Gauge.self) { c in
        c.binding("level", \.level)
        c.binding("label", \.label)
        c.binding("unit", \.unit)
        c.output("is_low", \.isLow)
        c.constructor { _ in Gauge() }
    }
}()

/// What a subscriber heard: "name=value", in order.
final class HeardGauge: @unchecked Sendable {
    var events: [String] = []
}

private let hearGauge: mvvm_callback = { _, event, userData in
    let heard = Unmanaged<HeardGauge>.fromOpaque(userData!).takeUnretainedValue()
    let event = event!.pointee
    let value = event.value
    let text = switch value.type {
    case MVVM_TYPE_INT: "\(value.integer)"
    case MVVM_TYPE_BOOL: "\(value.boolean)"
    default: String(cString: value.string)
    }
    heard.events.append("\(String(cString: event.name))=\(text)")
}

/// A gauge on a virtual loop, reached as a host reaches it.
private struct GaugeFixture {
    let loop: mvvm_handle
    let gauge: mvvm_handle
    let heard = HeardGauge()

    init() {
        _ = registeredGauge
        var loop: mvvm_handle = 0, gauge: mvvm_handle = 0
        _ = mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop)
        _ = mvvm_new(loop, "gauge", nil, 0, &gauge)
        self.loop = loop
        self.gauge = gauge
    }

    func subscribe(_ property: String?) {
        var subscription: mvvm_handle = 0
        _ = mvvm_subscribe(gauge, property, hearGauge, Unmanaged.passUnretained(heard).toOpaque(), nil, &subscription)
    }

    /// An operation that changes nothing: after it, a quiet object's values are armed.
    func read() {
        var level: Int64 = 0
        _ = mvvm_get_int(gauge, "level", &level)
    }

    var object: ExportedObject { HandleTable.shared.lookup(gauge) as! ExportedObject }

    /// Changes the Swift gauge as an operation of its loop (as a command would).
    func change(_ body: (Gauge) -> Void) {
        _ = try? object.context.operation { () throws(ExportError) in body(object.target as! Gauge) }
    }

    /// Whether the object's live tracking reads all its watched values.
    var allArmed: Bool { object.values.allSatisfy { $0.isObserved && $0.isTracked } }

    func release() {
        _ = mvvm_release(gauge)
        _ = mvvm_release(loop)
    }
}

/// An object's watched `@Observable` values are tracked together: one tracking however many are
/// watched, a change of one read and announced alone.
@Suite(.serialized) struct ObservationTrackingTests {
    @Test func everyWatchedValueIsArmedByOneTracking() {
        let fixture = GaugeFixture()
        fixture.subscribe(nil)
        let before = ExportedObject.observationTrackings.load(ordering: .relaxed)
        // Read after the next operation, then armed once quiet.
        fixture.read()
        fixture.read()
        #expect(ExportedObject.observationTrackings.load(ordering: .relaxed) - before == 1)
        #expect(fixture.object.values.count == 4)
        #expect(fixture.allArmed)
        fixture.release()
    }

    @Test func aChangeOfOneValueAnnouncesOnlyWhatDiffersAndArmsOnceWhenQuiet() {
        let fixture = GaugeFixture()
        fixture.subscribe(nil)
        fixture.read()
        fixture.read()
        let before = ExportedObject.observationTrackings.load(ordering: .relaxed)
        #expect(mvvm_set_int(fixture.gauge, "level", 50) == MVVM_OK)
        // Every watched value was read again; only those that differ were announced.
        #expect(fixture.heard.events == ["level=50", "is_low=false"])
        #expect(!fixture.allArmed)
        fixture.read()
        #expect(ExportedObject.observationTrackings.load(ordering: .relaxed) - before == 1)
        #expect(fixture.allArmed)
        // The new tracking hears the next change, of another value.
        fixture.change { $0.label = "oil" }
        #expect(!fixture.allArmed)
        #expect(fixture.heard.events == ["level=50", "is_low=false", "label=oil"])
        fixture.release()
    }

    @Test func aValueSubscribedToWhileArmedJoinsTheTrackingOnceQuiet() {
        let fixture = GaugeFixture()
        fixture.subscribe("level")
        fixture.read()
        fixture.read()
        #expect(fixture.allArmed)
        let before = ExportedObject.observationTrackings.load(ordering: .relaxed)
        fixture.subscribe("unit")
        #expect(!fixture.allArmed)
        fixture.read()
        fixture.read()
        // One new tracking of both values, which replaced the first.
        #expect(ExportedObject.observationTrackings.load(ordering: .relaxed) - before == 1)
        #expect(fixture.allArmed)
        fixture.change { $0.unit = "L" }
        fixture.change { $0.level = 3 }
        #expect(fixture.heard.events == ["unit=L", "level=3"])
        fixture.release()
    }

    @Test func aChangeSeenByAReplacedTrackingTooIsAnnouncedOnce() {
        let fixture = GaugeFixture()
        fixture.subscribe("level")
        fixture.read()
        fixture.read()
        fixture.subscribe("label")
        fixture.read()
        fixture.read()
        // The first tracking (of level alone) is still registered with the gauge until level
        // changes: a change of level fires both, and is announced once.
        #expect(mvvm_set_int(fixture.gauge, "level", 20) == MVVM_OK)
        #expect(fixture.heard.events == ["level=20"])
        fixture.read()
        #expect(fixture.allArmed)
        fixture.release()
    }
}
