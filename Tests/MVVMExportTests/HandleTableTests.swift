import CMVVM
import Dispatch
import Synchronization
import Testing
@testable import MVVMExport

// The handle table on its own, not through C: what a handle carries, how a released or stale
// one is told from a live one, and that an end is decided once.

private final class Probe: Handled {
    init() { super.init(kind: .object) }
}

private func status(_ body: () throws(ExportError) -> Void) -> (mvvm_status, String) {
    do throws(ExportError) {
        try body()
        return (MVVM_OK, "")
    } catch {
        return (error.status, error.message)
    }
}

@Suite struct HandleTableTests {
    private let table = HandleTable.shared

    @Test func aHandleCarriesItsKindAndTheLibrarysTagAndNamesItsTarget() {
        let probe = Probe()
        let handle = table.insert(probe)
        defer { table.remove(handle) }
        #expect(HandleTable.kind(of: handle) == .object)
        #expect(handle & (0xFF << 48) == table.tag)
        #expect(!HandleTable.isForeign(handle))
        #expect(table.lookup(handle) === probe)
        #expect(probe.handle == handle)
    }

    @Test func resolveNamesWhatIsWrongWithAHandle() {
        let probe = Probe()
        let handle = table.insert(probe)
        #expect(status { () throws(ExportError) in _ = try table.resolve(handle, as: Probe.self, expecting: .object, "the probe") } == (MVVM_OK, ""))
        #expect(status { () throws(ExportError) in _ = try table.resolve(handle, as: Probe.self, expecting: .loop, "the loop") }
            == (MVVM_ERR_WRONG_TYPE, "the loop \(HandleTable.describe(handle)) is a model or view model, not a loop"))
        #expect(status { () throws(ExportError) in _ = try table.resolve(0, as: Probe.self, expecting: .object, "the probe") }
            == (MVVM_ERR_INVALID_HANDLE, "the probe is handle 0, which is never valid"))
        let foreign = handle ^ (1 << 48)
        let (foreignStatus, foreignMessage) = status { () throws(ExportError) in _ = try table.resolve(foreign, as: Probe.self, expecting: .object, "the probe") }
        #expect(foreignStatus == MVVM_ERR_INVALID_HANDLE)
        #expect(foreignMessage.contains("is a handle of another libmvvm library loaded in this process"))
        table.remove(handle)
        #expect(status { () throws(ExportError) in _ = try table.resolve(handle, as: Probe.self, expecting: .object, "the probe") }
            == (MVVM_ERR_INVALID_HANDLE,
                "the probe \(HandleTable.describe(handle)) is not a live handle (released, stale or never issued)"))
    }

    @Test func aReleasedHandleStaysDeadWhenItsSlotServesAnother() {
        let first = Probe()
        let handle = table.insert(first)
        #expect(table.remove(handle))
        #expect(!table.remove(handle))
        #expect(table.lookup(handle) == nil)
        #expect(table.wasReleased(handle))
        // The slot is reused under its next generation (the last one freed is the first taken,
        // unless a test running beside this one took it).
        let second = Probe()
        let next = table.insert(second)
        defer { table.remove(next) }
        #expect(next != handle)
        #expect(table.lookup(handle) == nil)
        #expect(table.lookup(next) === second)
        #expect(!table.wasReleased(next))
    }

    @Test func anEndIsClaimedOnceAndNeverAfterTheHandleIsGone() {
        let probe = Probe()
        let handle = table.insert(probe)
        #expect(!table.isClaimed(probe))
        #expect(table.claim(probe))
        #expect(table.isClaimed(probe))
        #expect(!table.claim(probe))
        #expect(table.claim(handle) == nil)
        table.remove(handle)
        let other = Probe()
        let otherHandle = table.insert(other)
        table.remove(otherHandle)
        #expect(!table.claim(other))
    }

    @Test func ofEightThreadsClaimingOneHandleExactlyOneWins() {
        let table = HandleTable.shared
        for _ in 0..<500 {
            let probe = Probe()
            let handle = table.insert(probe)
            let wins = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if table.claim(handle) != nil { wins.add(1, ordering: .relaxed) }
            }
            #expect(wins.load(ordering: .relaxed) == 1)
            table.remove(handle)
        }
    }
}
