import CMVVM
import MVVMRuntime

/// What a handle names; kept in the handle's top byte, so even a stale handle tells what it was.
enum HandleKind: UInt8 {
    case loop = 1, object, subscription, request, service

    var name: String {
        switch self {
        case .loop: return "a loop"
        case .object: return "a model or view model"
        case .subscription: return "a subscription"
        case .request: return "a request"
        case .service: return "a service"
        }
    }
}

/// Anything a handle can name.
class Handled {
    let kind: HandleKind
    /// Set once, when the table issues the handle.
    var handle: mvvm_handle = 0

    init(kind: HandleKind) { self.kind = kind }
}

/// Every live handle: a slot and a generation, so a released, stale or forged handle is refused
/// and never reaches another object. Layout: kind (8 bits) | generation (24) | slot + 1 (32).
final class HandleTable: @unchecked Sendable {
    static let shared = HandleTable()

    private struct Slot {
        var generation: UInt32 = 1
        var target: Handled?
    }

    private let lock = PThreadLock()
    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []
    /// In a fork's child: what was released there but inherited from the parent. Kept for good,
    /// since deinitialising it could run code on objects another thread was changing at the fork.
    private var abandoned: [Handled] = []

    private init() {
        _ = ForkSafety.inChild { [lock] in lock.repairInForkChild() }
    }

    func insert(_ target: Handled) -> mvvm_handle {
        lock.withLock {
            let index: UInt32
            if let reused = freeSlots.popLast() {
                index = reused
            } else {
                index = UInt32(slots.count)
                slots.append(Slot())
            }
            slots[Int(index)].target = target
            let handle = UInt64(target.kind.rawValue) << 56
                | UInt64(slots[Int(index)].generation) << 32
                | UInt64(index + 1)
            target.handle = handle
            return handle
        }
    }

    /// The live target of `handle`, or nil.
    func lookup(_ handle: mvvm_handle) -> Handled? {
        let index = Int(truncatingIfNeeded: handle & 0xFFFF_FFFF) - 1
        let generation = UInt32(truncatingIfNeeded: handle >> 32) & 0xFF_FFFF
        return lock.withLock {
            guard index >= 0, index < slots.count, slots[index].generation == generation,
                  let target = slots[index].target, target.handle == handle else { return nil }
            return target
        }
    }

    /// Frees the handle's slot for reuse under a new generation; false if it was not live.
    /// `abandoning` keeps the target alive for good (see `abandoned`).
    @discardableResult
    func remove(_ handle: mvvm_handle, abandoning: Bool = false) -> Bool {
        let index = Int(truncatingIfNeeded: handle & 0xFFFF_FFFF) - 1
        return lock.withLock {
            guard index >= 0, index < slots.count, let target = slots[index].target,
                  target.handle == handle else { return false }
            if abandoning { abandoned.append(target) }
            slots[index].target = nil
            var next = (slots[index].generation + 1) & 0xFF_FFFF
            if next == 0 { next = 1 }
            slots[index].generation = next
            freeSlots.append(UInt32(index))
            return true
        }
    }

    static func kind(of handle: mvvm_handle) -> HandleKind? {
        HandleKind(rawValue: UInt8(truncatingIfNeeded: handle >> 56))
    }

    static func describe(_ handle: mvvm_handle) -> String {
        "handle 0x" + String(handle, radix: 16)
    }

    /// The live target of `handle` as `T`, or the error the C caller gets.
    func resolve<T: Handled>(_ handle: mvvm_handle, as type: T.Type, expecting kind: HandleKind,
                             _ role: String) throws(ExportError) -> T {
        guard handle != 0 else { throw ExportError(MVVM_ERR_INVALID_HANDLE, "\(role) is handle 0, which is never valid") }
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
