import Testing
@testable import MVVMExport

/// What every live object pays per watched value: its state packs into 72 bytes (two values,
/// a watch, a stamp, and the property's index and flags in the bytes a value leaves).
@Suite struct ObjectLayoutTests {
    @Test func aWatchedValuesStatePacksIntoSeventyTwoBytes() {
        #expect(MemoryLayout<ValueState>.stride <= 72)
    }

    @Test func aStateKeepsItsPropertysIndex() {
        let state = ValueState(property: 41, announced: .bool(true))
        #expect(state.property == 41)
        #expect(state.latest == nil && !state.isObserved && !state.isTracked && !state.latestUnread && state.stamp == 0)
    }
}
