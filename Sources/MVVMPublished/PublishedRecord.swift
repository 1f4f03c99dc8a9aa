// What an ObservableObject's @Published properties tell, kept once per object: its
// `objectWillChange`, the subjects of the `$x` publishers the app's code asked for, and the
// watches of whoever observes the object without subscribing (the engine). Made at the first need
// of one of them, never for an object that nobody observes.
import CMVVMSystem
@preconcurrency import OpenCombine
import Synchronization

/// Whoever follows an object's @Published properties without subscribing to their publishers
/// (the engine): told after each set, and before each change of the object.
public protocol PublishedObserver: AnyObject {
    /// The property in `slot` (its place among the object's @Published properties, see
    /// ``Published``) was set; its new value is stored. On the thread that set it.
    func publishedDidSet(slot: Int32)
    /// The object is about to change: a @Published property is set, or the app sent
    /// `objectWillChange`. On the thread that changes it.
    func objectWillChange()
}

/// One object's record (see the file's comment). Found from the object through a table (its
/// identity and a weak reference to it) and kept by each @Published property that found it, so
/// that a set finds it again with no look-up.
public final class PublishedRecord: @unchecked Sendable {
    @usableFromInline let lock = Mutex<Void>(())
    /// Guarded by `lock`: the `$x` subjects by slot, the watches by slot, the watches of every
    /// change, the publisher `objectWillChange` gave.
    private var subjects: [AnyObject?] = []
    private var watchers: [[PublishedObserver]] = []
    private var changeWatchers: [PublishedObserver] = []
    private var willChange: ObservableObjectPublisher?
    /// Slots given out: each @Published property of the object takes one at its first use.
    private var slotCount: Int32 = 0
    /// Whether anything listens: a set of an object nobody follows takes no lock.
    private let listened = Atomic<Bool>(false)

    init() {}

    // MARK: Slots

    /// A new slot, for a property that had none.
    @usableFromInline
    func newSlot() -> Int32 {
        lock.withLock { _ in
            slotCount += 1
            return slotCount - 1
        }
    }

    // MARK: What a set tells

    /// Before the property in `slot` holds `value`: `objectWillChange`, the engine's change
    /// watches, then the property's own subject, as Combine publishes in `willSet`.
    @inlinable
    func willSet<Value>(_ slot: Int32, to value: Value) {
        guard isListened else { return }
        willSetListened(slot, to: value)
    }

    @usableFromInline
    var isListened: Bool { listened.load(ordering: .relaxed) }

    @usableFromInline
    func willSetListened<Value>(_ slot: Int32, to value: Value) {
        let (publisher, observers, subject) = lock.withLock { _ -> (ObservableObjectPublisher?, [PublishedObserver], AnyObject?) in
            (willChange, changeWatchers, Int(slot) < subjects.count ? subjects[Int(slot)] : nil)
        }
        for observer in observers { observer.objectWillChange() }
        publisher?.sendToSubscribers()
        if let subject { unsafeDowncast(subject, to: CurrentValueSubject<Value, Never>.self).send(value) }
    }

    /// After the property in `slot` was set: the engine's watches of it.
    @inlinable
    func didSet(_ slot: Int32) {
        guard isListened else { return }
        didSetListened(slot)
    }

    @usableFromInline
    func didSetListened(_ slot: Int32) {
        let observers = lock.withLock { _ in Int(slot) < watchers.count ? watchers[Int(slot)] : [] }
        for observer in observers { observer.publishedDidSet(slot: slot) }
    }

    // MARK: Listeners

    /// The subject of the property in `slot`, made now with `value` if it has none.
    @usableFromInline
    func subject<Value>(_ slot: Int32, current value: @autoclosure () -> Value) -> CurrentValueSubject<Value, Never> {
        lock.withLock { _ in
            while subjects.count <= Int(slot) { subjects.append(nil) }
            if let subject = subjects[Int(slot)] { return unsafeDowncast(subject, to: CurrentValueSubject<Value, Never>.self) }
            let made = CurrentValueSubject<Value, Never>(value())
            subjects[Int(slot)] = made
            listened.store(true, ordering: .relaxed)
            return made
        }
    }

    /// `objectWillChange`'s publisher, made at its first use.
    func objectWillChangePublisher() -> ObservableObjectPublisher {
        lock.withLock { _ in
            if let willChange { return willChange }
            let made = ObservableObjectPublisher(record: self)
            willChange = made
            listened.store(true, ordering: .relaxed)
            return made
        }
    }

    /// `observer` hears each set of the property in `slot` (`nil`: each change of the object)
    /// until `stopWatching`.
    public func watch(_ slot: Int32?, by observer: PublishedObserver) {
        lock.withLock { _ in
            if let slot {
                while watchers.count <= Int(slot) { watchers.append([]) }
                watchers[Int(slot)].append(observer)
            } else {
                changeWatchers.append(observer)
            }
            listened.store(true, ordering: .relaxed)
        }
    }

    public func stopWatching(_ slot: Int32?, by observer: PublishedObserver) {
        lock.withLock { _ in
            if let slot {
                if Int(slot) < watchers.count { watchers[Int(slot)].removeAll { $0 === observer } }
            } else {
                changeWatchers.removeAll { $0 === observer }
            }
        }
    }

    /// The app's `objectWillChange.send()`: the engine's change watches hear it too.
    func objectWillChangeSent() {
        let observers = lock.withLock { _ in changeWatchers }
        for observer in observers { observer.objectWillChange() }
    }

    // MARK: The table

    /// The record of each object that has one, by identity, each remembering its object weakly
    /// (an identity is reused once its object is gone). Swept as it grows.
    private final class Entry {
        weak var object: AnyObject?
        let record: PublishedRecord
        init(_ object: AnyObject, _ record: PublishedRecord) {
            self.object = object
            self.record = record
        }
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = 1024
    }

    /// Guarded by `tableLock`.
    nonisolated(unsafe) private static var table = Table()
    private static let tableLock = Mutex<Void>(())
    /// Bumped whenever a record is made: a property that looked for its object's record and found
    /// none looks again only after a record was made somewhere.
    @usableFromInline static let generation = Atomic<UInt32>(1)

    /// The record of `object`, made now if it has none: how the engine watches an object's
    /// `objectWillChange` without subscribing to it.
    public static func record(of object: AnyObject) -> PublishedRecord { of(object, making: true)! }

    /// The record of `object`, made now when `making` and it has none.
    @usableFromInline
    static func of(_ object: AnyObject, making: Bool) -> PublishedRecord? {
        let key = ObjectIdentifier(object)
        return tableLock.withLock { _ -> PublishedRecord? in
            if let entry = table.entries[key], entry.object === object { return entry.record }
            guard making else { return nil }
            let record = PublishedRecord()
            table.entries[key] = Entry(object, record)
            if table.entries.count >= table.sweepAt {
                table.entries = table.entries.filter { $0.value.object != nil }
                table.sweepAt = max(1024, table.entries.count * 2)
            }
            generation.add(1, ordering: .relaxed)
            return record
        }
    }
}

/// While set on a thread, a `$x` read there makes no subject: the engine reads a property's
/// publisher only to learn its record and slot (``Published/Publisher``).
public enum PublishedProbe {
    /// `body`'s result, with `$x` reads probing.
    public static func reading<T>(_ body: () throws -> T) rethrows -> T {
        let was = cmvvm_published_probing_get()
        cmvvm_published_probing_set(true)
        defer { cmvvm_published_probing_set(was) }
        return try body()
    }

    @usableFromInline
    static var isProbing: Bool { cmvvm_published_probing_get() }
}
