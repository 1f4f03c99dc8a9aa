import CMVVMSystem
import Glibc
import Synchronization

/// A pthread mutex on the heap, so its address never moves: for locks made rarely and taken
/// off the hot path (the registry, a loop's queue). Three kinds of lock live here:
/// `PThreadLock` (recursive if asked, repairable in a fork's child), `WordLock` (one word, for
/// the locks every call takes: the handle table's, a loop's work lock), and `InlineLock` /
/// `InlineRecursiveLock` (stored inside the object made per subscription, no allocation).
///
/// Each guards state its owner keeps, rather than owning a value as `Synchronization.Mutex`
/// does: the loop guards closures that are not `Sendable` (OpenCombine predates Sendable).
public final class PThreadLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let recursive: Bool

    /// - Parameter recursive: whether the owning thread may lock again, as callbacks that
    ///   call back into the library from inside loop work must.
    public init(recursive: Bool = false) {
        mutex = .allocate(capacity: 1)
        self.recursive = recursive
        initialiseMutex()
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the lock if that needs no wait; whether it did.
    public func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    /// In the child of a `fork()`: a lock that another thread held at the fork would stay held
    /// for good, since that thread is not in the child, so it is made anew. A lock this thread
    /// holds (only a recursive one can tell) is left as it is. Returns whether it was remade.
    @discardableResult
    public func repairInForkChild() -> Bool {
        if pthread_mutex_trylock(mutex) == 0 {
            pthread_mutex_unlock(mutex)
            return false
        }
        initialiseMutex()
        return true
    }

    private func initialiseMutex() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    @inline(__always)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A lock kept inside its owner's storage: no allocation, and taking and releasing it
/// uncontended is an atomic operation each (a futex on Linux). For the state of objects made
/// per subscription (operators' inner subscriptions), where a `PThreadLock` would cost two
/// allocations and a pthread call each way. Store it as a `let` of a class.
public struct InlineLock: ~Copyable, @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private let handOver = HandOver()

    public init() {}

    @inline(__always)
    public borrowing func lock() {
        mutex._unsafeLock()
        handOver.taken()
    }

    @inline(__always)
    public borrowing func unlock() {
        handOver.givingBack()
        mutex._unsafeUnlock()
    }

    @inline(__always)
    public borrowing func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// The order a lock's hand-over makes, stated to ThreadSanitizer. `Mutex` on Linux hands a
/// contended lock to its next holder inside the kernel (a priority-inheriting futex), where
/// ThreadSanitizer cannot see it, so it took two holders' accesses for a race. A release store
/// by the holder that gives the lock back, and an acquire load by the next one, make the same
/// order visible; on x86 and ARM they are plain stores and loads.
struct HandOver: ~Copyable {
    private let word = Atomic<UInt32>(0)

    @inline(__always)
    borrowing func taken() { _ = word.load(ordering: .acquiring) }

    @inline(__always)
    borrowing func givingBack() { word.store(0, ordering: .releasing) }
}

/// An `InlineLock` the thread holding it may take again: held while calling a downstream
/// subscriber, which may call back in on the same thread.
public struct InlineRecursiveLock: ~Copyable, @unchecked Sendable {
    private let base = InlineLock()
    /// The holding thread (`pthread_self`), or 0. Only the holder stores its own identity, so
    /// a thread reading its own identity here holds the lock.
    private let owner = Atomic<UInt>(0)
    /// How many times the holder took it; touched only by the holder.
    private let depth = Atomic<Int>(0)

    public init() {}

    @inline(__always)
    public borrowing func lock() {
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        if owner.load(ordering: .relaxed) == thread {
            depth.wrappingAdd(1, ordering: .relaxed)
            return
        }
        base.lock()
        owner.store(thread, ordering: .relaxed)
        depth.store(1, ordering: .relaxed)
    }

    @inline(__always)
    public borrowing func unlock() {
        guard depth.wrappingSubtract(1, ordering: .relaxed).newValue == 0 else { return }
        owner.store(0, ordering: .relaxed)
        base.unlock()
    }
}

/// A lock that is one word of memory of its own (`cmvvm_word_lock`, CMVVMSystem): one atomic
/// operation to take it and one to give it back, `futex(2)` only when contended. For the locks
/// every call into the library takes (the handle table's, a loop's work lock), where a pthread
/// mutex costs about a hundred instructions more. Not recursive. The word is ours, so the child
/// of a `fork()` can free it when a thread that is not in the child held it.
public final class WordLock: @unchecked Sendable {
    private let word: UnsafeMutablePointer<cmvvm_word_lock>

    public init() {
        word = .allocate(capacity: 1)
        word.initialize(to: cmvvm_word_lock(state: 0))
    }

    deinit { word.deallocate() }

    @inline(__always)
    public func lock() { cmvvm_word_lock_take(word) }

    @inline(__always)
    public func unlock() { cmvvm_word_lock_give(word) }

    /// Takes the lock if that needs no wait; whether it did.
    @inline(__always)
    public func tryLock() -> Bool { cmvvm_word_lock_try_take(word) != 0 }

    @inline(__always)
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Only in the child of a `fork()`, which has one thread: frees the lock whoever held it.
    public func resetInForkChild() { cmvvm_word_lock_reset(word) }
}
