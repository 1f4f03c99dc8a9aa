// Callback properties as signals (`c.signal("done", \.doneAction)`): the engine's one closure in
// each object's property, and the handles it tells.
import MVVMRuntime
@preconcurrency import OpenCombine

/// The engine's end of one callback property of one object: the closure the engine installs in
/// the property calls ``send(_:)``, which tells every handle connected now. Installed once per
/// object and signal, whatever number of handles (a child's, a list item's, each `mvvm_child`
/// call makes one) reach the object over its life: a handle connects and disconnects, and the
/// property is never wrapped again, so a list scrolled over for ever keeps one closure, called
/// one level deep.
///
/// The installed closure stays for the object's life, sending to nobody once no handle is
/// connected: putting the app's closure back could undo an assignment the app made since, which
/// nothing can tell apart from the engine's own closure.
final class CallbackSignalHub: @unchecked Sendable {
    /// One registered callback signal (one per `c.signal` of a callback property): with the
    /// object, what finds its hub.
    final class Signal: Sendable {}

    /// The handles connected now, in the order they connected. Its own lock: the app's code
    /// may call the callback on any thread.
    private var connections: [CallbackConnection] = []
    private let lock = PThreadLock()

    /// Tells each connected handle (each delivers on its object's loop).
    func send(_ value: Value) {
        let current = lock.withLock { connections }
        for connection in current { connection.send(value) }
    }

    /// A handle's connection, which lasts until the returned cancellable is cancelled (the
    /// handle's release, or its loop's).
    func connect(loop: Loop, emit: @escaping (Value) -> Void) -> AnyCancellable {
        let connection = CallbackConnection(loop: loop, emit: emit)
        lock.withLock { connections.append(connection) }
        return AnyCancellable { [self] in
            connection.disconnect()
            lock.withLock { connections.removeAll { $0 === connection } }
        }
    }

    // MARK: The hubs of live objects

    /// An object's hub for one signal, remembered weakly (the object's property owns the
    /// installed closure, which owns the hub), by the object's identity, which is reused once
    /// the object is gone: each entry checks its object too.
    private struct Key: Hashable {
        let object: ObjectIdentifier
        let signal: ObjectIdentifier
    }

    private final class Entry {
        weak var object: AnyObject?
        weak var hub: CallbackSignalHub?
        init(_ object: AnyObject, _ hub: CallbackSignalHub) {
            self.object = object
            self.hub = hub
        }
    }

    private static let tableLock = PThreadLock()
    nonisolated(unsafe) private static var table: [Key: Entry] = [:]
    nonisolated(unsafe) private static var sweepAt = 1024

    /// The hub of `signal` in `object`: the one installed already, or a new one, which
    /// `install` puts in the object's property. On the object's loop (its work lock held).
    static func hub(of object: AnyObject, for signal: Signal, install: (CallbackSignalHub) -> Void) -> CallbackSignalHub {
        let key = Key(object: ObjectIdentifier(object), signal: ObjectIdentifier(signal))
        if let found = tableLock.withLock({ () -> CallbackSignalHub? in
            guard let entry = table[key], entry.object === object else { return nil }
            return entry.hub
        }) { return found }
        let hub = CallbackSignalHub()
        install(hub)
        tableLock.withLock {
            table[key] = Entry(object, hub)
            if table.count >= sweepAt {
                table = table.filter { $0.value.object != nil && $0.value.hub != nil }
                sweepAt = max(1024, table.count * 2)
            }
        }
        return hub
    }
}

/// One handle's connection to a callback property's hub: each call's event, delivered on the
/// object's loop as a subject's would be. `emit` is touched only under the loop's work lock.
final class CallbackConnection: @unchecked Sendable {
    private let loop: Loop
    private var emit: ((Value) -> Void)?

    init(loop: Loop, emit: @escaping (Value) -> Void) {
        self.loop = loop
        self.emit = emit
    }

    func send(_ value: Value) {
        // Called in an operation or the loop's work (a command, a timer, a task on the loop):
        // announced when it ends, as any change made there.
        if loop.isHeldByCurrentThread {
            emit?(value)
            return
        }
        // Called from another thread (a completion on a queue of its own): the loop's work takes
        // it, as mvvm_complete_soon's answer is taken, so it is delivered on the loop's thread
        // (a thread loop's, or the host's at its next dispatch), never on the caller's.
        loop.schedule { [self] in emit?(value) }
    }

    /// The object's handle was released: later calls send nothing. Under the work lock.
    func disconnect() { emit = nil }
}
