import Glibc

/// What the child of a `fork()` inherits from the library, made safe to leave alone.
///
/// `fork()` copies the memory of every loop but only the forking thread: a thread loop's
/// thread does not exist in the child, a lock held by another thread at the moment of the fork
/// stays held for good, and the objects that thread was working on may be half-way through a
/// change. So in the child every inherited loop is stopped and marked
/// ``Loop/isInheritedAcrossFork``, and the locks are repaired, so that the child can still let
/// go of what it inherited and create loops of its own without waiting for a thread that is gone.
/// Nothing inherited runs again: a manual loop's file descriptor is shared with the parent, and
/// touching its timer would move the parent's.
public enum ForkSafety {
    private static let registryLock = PThreadLock()
    nonisolated(unsafe) private static var childHandlers: [(id: Int, body: () -> Void)] = []
    nonisolated(unsafe) private static var nextID = 0

    /// Installs the `pthread_atfork` handlers once, on first use.
    private static let installed: Void = {
        pthread_atfork({ ForkSafety.registryLock.lock() },
                       { ForkSafety.registryLock.unlock() },
                       { ForkSafety.runChildHandlers() })
    }()

    /// Runs `body` in the child of every later `fork()`, in the forking thread, before `fork()`
    /// returns there; the child then has that one thread. Returns an id for ``remove(_:)``.
    /// `body` must not fork, and must not wait for a lock another thread may have held.
    public static func inChild(_ body: @escaping () -> Void) -> Int {
        _ = installed
        return registryLock.withLock {
            nextID += 1
            childHandlers.append((nextID, body))
            return nextID
        }
    }

    /// Stops running the handler registered under `id`.
    public static func remove(_ id: Int) {
        let removed = registryLock.withLock { () -> [(id: Int, body: () -> Void)] in
            let removed = childHandlers.filter { $0.id == id }
            childHandlers.removeAll { $0.id == id }
            return removed
        }
        _ = removed
    }

    /// In the child: the registry lock was taken by the prepare handler in the forking thread,
    /// which is this thread, so the registry is consistent.
    private static func runChildHandlers() {
        let handlers = childHandlers
        registryLock.unlock()
        for handler in handlers { handler.body() }
    }
}
