import CMVVM
import CMVVMSystem
import Glibc
import MVVMPublished
import MVVMRuntime

/// What a handle names; kept in the handle's top byte, so even a stale handle tells what it was.
enum HandleKind: UInt8 {
    case loop = 1, object, subscription, request, service, call

    var name: String {
        switch self {
        case .loop: return "a loop"
        case .object: return "a model or view model"
        case .subscription: return "a subscription"
        case .request: return "a request"
        case .service: return "a service"
        case .call: return "an asynchronous call"
        }
    }
}

/// Anything a handle can name. A listener of `@Published` boxes (a class with no fields): so that
/// an exported object is itself the watcher of its properties' boxes (`ExportedObject.watchPublished`).
class Handled: PublishedListener, @unchecked Sendable {
    // The two one-byte fields together, before the handle: in the padding the handle's alignment
    // leaves, not after it (a subscription 16 bytes smaller).
    let kind: HandleKind
    /// Whether its end is decided (a release, an unsubscribe, a cancel, an answer, an async
    /// call's own end): set once, under the table's lock, so that of two threads ending it at
    /// once exactly one wins (`HandleTable.claim`). Only those paths read it: lookups do not.
    fileprivate(set) var isClaimed = false
    /// Set once, when the table issues the handle.
    var handle: mvvm_handle = 0

    init(kind: HandleKind) { self.kind = kind }

    /// The loop whose work this belongs to, if any: what a fork's child inherited is only
    /// forgotten when released (see `mvvm_release`).
    var owningContext: LoopContext? { nil }

    /// `mvvm_release` of this handle, each kind as it ends (the handle is live).
    func releaseHandle() throws(ExportError) {
        throw ExportError(MVVM_ERR_INTERNAL, "\(HandleTable.describe(handle)) names nothing releasable")
    }
}

/// Every live handle: a slot and a generation, so a released, stale or forged handle is refused
/// and never reaches another object; and this library's tag, so a handle of another copy of
/// libmvvm loaded in the process is refused too.
///
/// Layout: kind (8 bits) | library tag (8) | generation (24) | slot + 1 (24). A slot's generation
/// goes up by one at each release; a slot whose generations are spent is retired, never reused,
/// so a generation never wraps back to a handle that was issued before (retiring costs one table
/// entry per 2^24 releases of one slot). 24 bits of slot allow 16,777,215 slots, live or retired:
/// far more handles than fit in memory at once (each names an object of its own).
final class HandleTable: @unchecked Sendable {
    static let shared = HandleTable()

    private struct Slot {
        var generation: UInt32 = 1
        /// The kinds of handle this slot has issued (bit per `HandleKind`), so that a request
        /// handle never issued is told from one answered already.
        var issuedKinds: UInt8 = 0
        var target: Handled?
    }

    static let slotBits = 24
    static let slotMask: UInt64 = (1 << UInt64(slotBits)) - 1
    static let generationBits = 24
    static let generationMask: UInt64 = (1 << UInt64(generationBits)) - 1
    /// This library's tag, in every handle it issues (bits 48 to 55). An instance's `let`: a
    /// static one would be checked for its lazy set-up on each use.
    let tag = UInt64(libmvvm_own_tag()) << 48

    /// Taken by every call into the library: a word lock.
    private let lock = WordLock()
    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []
    /// The last generation a slot may use, 2^24 - 1. Tests may make it tiny, so that retiring a
    /// slot is seen in a few releases, through `MVVM_TESTING_HANDLE_GENERATION_BITS` (1 to 24),
    /// read once, when the table is first used. Not for production: no host needs it.
    private let lastGeneration: UInt32
    /// Slots retired because their generations are spent.
    private(set) var retiredSlots = 0
    /// In a fork's child: what was released there but inherited from the parent. Kept for good,
    /// since deinitialising it could run code on objects another thread was changing at the fork.
    private var abandoned: [Handled] = []

    private init() {
        var bits = Self.generationBits
        if let text = getenv("MVVM_TESTING_HANDLE_GENERATION_BITS"), let asked = Int(String(cString: text)),
           (1...Self.generationBits).contains(asked) {
            bits = asked
        }
        lastGeneration = UInt32((UInt64(1) << UInt64(bits)) - 1)
        // The child of a fork has only the forking thread, which is not inside the table: a
        // holder the child lacks would keep the lock for good.
        _ = ForkSafety.inChild { [lock] in lock.resetInForkChild() }
    }

    func insert(_ target: Handled) -> mvvm_handle {
        lock.withLock {
            let index: UInt32
            if let reused = freeSlots.popLast() {
                index = reused
            } else {
                // Unreachable in practice: 16 million live objects need gigabytes. A trap with
                // a message beats handing out a handle that could name another object.
                precondition(UInt64(slots.count) < Self.slotMask, "libmvvm: the handle table is full (16,777,215 slots)")
                index = UInt32(slots.count)
                slots.append(Slot())
            }
            slots[Int(index)].target = target
            slots[Int(index)].issuedKinds |= 1 << target.kind.rawValue
            let handle = UInt64(target.kind.rawValue) << 56 | tag
                | UInt64(slots[Int(index)].generation) << UInt64(Self.slotBits)
                | UInt64(index + 1)
            target.handle = handle
            return handle
        }
    }

    private static func parts(_ handle: mvvm_handle) -> (index: Int, generation: UInt32) {
        (Int(truncatingIfNeeded: handle & slotMask) - 1,
         UInt32(truncatingIfNeeded: (handle >> UInt64(slotBits)) & generationMask))
    }

    /// Whether `handle` carries another library's tag: a handle of another copy of libmvvm.
    static func isForeign(_ handle: mvvm_handle) -> Bool {
        handle != 0 && handle & (0xFF << 48) != shared.tag
    }

    /// The live target of `handle`, or nil.
    func lookup(_ handle: mvvm_handle) -> Handled? {
        let (index, generation) = Self.parts(handle)
        return lock.withLock {
            guard index >= 0, index < slots.count, slots[index].generation == generation,
                  let target = slots[index].target, target.handle == handle else { return nil }
            return target
        }
    }

    /// Whether `handle` was issued once and has been released since (answered, for a request);
    /// false for a live handle and for one never issued. A forged value whose slot, generation
    /// and kind all match a handle issued before is taken for that handle.
    func wasReleased(_ handle: mvvm_handle) -> Bool {
        let (index, generation) = Self.parts(handle)
        guard let kind = Self.kind(of: handle) else { return false }
        return lock.withLock {
            guard index >= 0, index < slots.count, generation >= 1, generation <= lastGeneration,
                  slots[index].issuedKinds & (1 << kind.rawValue) != 0 else { return false }
            // Generations below the slot's current one were each issued once; a retired slot
            // (generation 0) issued all of them.
            let current = slots[index].generation
            return current == 0 || generation < current
        }
    }

    /// Decides the end of the live, unclaimed `handle`'s target for the caller: the target for
    /// exactly one caller, nil for every other (and for a handle not live).
    func claim(_ handle: mvvm_handle) -> Handled? {
        let (index, generation) = Self.parts(handle)
        return lock.withLock {
            guard index >= 0, index < slots.count, slots[index].generation == generation,
                  let target = slots[index].target, target.handle == handle, !target.isClaimed else { return nil }
            target.isClaimed = true
            return target
        }
    }

    /// `claim` of a target in hand: true for exactly one caller while its handle is live.
    func claim(_ target: Handled) -> Bool { claim(target.handle) != nil }

    /// Whether `target`'s end is decided already (see `claim`).
    func isClaimed(_ target: Handled) -> Bool { lock.withLock { target.isClaimed } }

    /// Frees the handle's slot for reuse under a new generation, or retires it when its
    /// generations are spent; false if it was not live. `abandoning` keeps the target alive for
    /// good (see `abandoned`).
    @discardableResult
    func remove(_ handle: mvvm_handle, abandoning: Bool = false) -> Bool {
        let (index, _) = Self.parts(handle)
        return lock.withLock {
            guard index >= 0, index < slots.count, let target = slots[index].target,
                  target.handle == handle else { return false }
            if abandoning { abandoned.append(target) }
            slots[index].target = nil
            if slots[index].generation >= lastGeneration {
                // Generation 0 is never issued: the retired slot matches no handle ever again.
                slots[index].generation = 0
                retiredSlots += 1
            } else {
                slots[index].generation += 1
                freeSlots.append(UInt32(index))
            }
            return true
        }
    }

    static func kind(of handle: mvvm_handle) -> HandleKind? {
        HandleKind(rawValue: UInt8(truncatingIfNeeded: handle >> 56))
    }

    /// The error for a handle of another library.
    static func foreign(_ handle: mvvm_handle, _ role: String) -> ExportError {
        ExportError(MVVM_ERR_INVALID_HANDLE, "\(role) \(describe(handle)) is a handle of another libmvvm library "
                    + "loaded in this process (tag \((handle >> 48) & 0xFF); this one's is \(shared.tag >> 48)): each library "
                    + "takes its own handles only")
    }

    static func describe(_ handle: mvvm_handle) -> String {
        "handle 0x" + String(handle, radix: 16)
    }

    /// The live target of `handle` as `T`, or the error the C caller gets.
    func resolve<T: Handled>(_ handle: mvvm_handle, as type: T.Type, expecting kind: HandleKind,
                             _ role: String) throws(ExportError) -> T {
        guard handle != 0 else { throw ExportError(MVVM_ERR_INVALID_HANDLE, "\(role) is handle 0, which is never valid") }
        guard handle & (0xFF << 48) == tag else { throw Self.foreign(handle, role) }
        guard let target = lookup(handle) else {
            throw ExportError(MVVM_ERR_INVALID_HANDLE,
                              "\(role) \(Self.describe(handle)) is not a live handle (released, stale or never issued)")
        }
        guard target.kind == kind, let typed = target as? T else {
            throw ExportError(MVVM_ERR_WRONG_TYPE, "\(role) \(Self.describe(handle)) is \(target.kind.name), not \(kind.name)")
        }
        return typed
    }
}
