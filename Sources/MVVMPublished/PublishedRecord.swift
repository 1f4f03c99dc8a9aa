// What an ObservableObject's @Published properties tell, kept once per object: its
// `objectWillChange`, the subjects of the `$x` publishers the app's code asked for, and the
// watches of whoever observes the object without subscribing (the engine). Made at the first need
// of one of them, never for an object that nobody observes.
import CMVVMSystem
import Glibc
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
    /// What `objectWillChange` subscribers hear, made at its first use; and the publisher last
    /// handed out for it (weak: a publisher keeps its record, not the reverse).
    private var willChangeSubject: PassthroughSubject<Void, Never>?
    private weak var willChangePublisher: ObservableObjectPublisher?
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

    /// Before the property in `slot` holds `value`: the engine's change watches,
    /// `objectWillChange`, then the property's own subject, as Combine publishes in `willSet`.
    /// Inlined where the property is, so the subject's type is known there.
    @inlinable
    func willSet<Value>(_ slot: Int32, to value: Value) {
        guard isListened else { return }
        guard let subject = listenersBeforeSet(slot) else { return }
        unsafeDowncast(subject, to: CurrentValueSubject<Value, Never>.self).send(value)
    }

    @usableFromInline
    var isListened: Bool { listened.load(ordering: .relaxed) }

    /// Tells the change watches and `objectWillChange`; gives the subject of `slot`, if it has one.
    @usableFromInline
    func listenersBeforeSet(_ slot: Int32) -> AnyObject? {
        let (willChange, observers, subject) = lock.withLock { _ -> (PassthroughSubject<Void, Never>?, [PublishedObserver], AnyObject?) in
            (willChangeSubject, changeWatchers, Int(slot) < subjects.count ? subjects[Int(slot)] : nil)
        }
        for observer in observers { observer.objectWillChange() }
        willChange?.send()
        return subject
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

    /// `objectWillChange`'s publisher: the one handed out last while it lives, or a new one.
    func objectWillChangePublisher() -> ObservableObjectPublisher {
        lock.withLock { _ in
            if let willChangePublisher { return willChangePublisher }
            let made = ObservableObjectPublisher(record: self)
            willChangePublisher = made
            return made
        }
    }

    /// The subject `objectWillChange`'s subscribers hear, made now if it has none.
    func objectWillChangeSubject() -> PassthroughSubject<Void, Never> {
        lock.withLock { _ in
            if let willChangeSubject { return willChangeSubject }
            let made = PassthroughSubject<Void, Never>()
            willChangeSubject = made
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

    /// The app's `objectWillChange.send()`: the engine's change watches, then the subscribers.
    func objectWillChangeSent() {
        let (observers, subject) = lock.withLock { _ in (changeWatchers, willChangeSubject) }
        for observer in observers { observer.objectWillChange() }
        subject?.send()
    }

    // MARK: The table

    /// The record of each object that has one, by identity. An entry holds its object unowned,
    /// which keeps the object's memory (not the object) until the entry goes, so its identity
    /// cannot be another object's meanwhile; and its record weakly: the record goes when nothing
    /// holds it (the object's properties, the engine's watches, `objectWillChange`'s
    /// subscribers), and takes its entry with it. No weak reference to the object: that would
    /// give it a side table and slow every reference count of it.
    private final class Entry {
        unowned let object: AnyObject
        weak var record: PublishedRecord?
        init(_ object: AnyObject, _ record: PublishedRecord) {
            self.object = object
            self.record = record
        }
    }

    /// Guarded by `tableLock`, taken and given back without a closure (a closure here met a
    /// compiler crash under cross-module optimization).
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]
    nonisolated(unsafe) private static var tableLock = pthread_mutex_t()
    /// Bumped whenever a record is made: a property that looked for its object's record and found
    /// none looks again only after a record was made somewhere.
    @usableFromInline static let generation = Atomic<UInt32>(1)
    /// Its object's identity, for its entry's removal.
    private var key: ObjectIdentifier?

    deinit {
        guard let key else { return }
        pthread_mutex_lock(&Self.tableLock)
        if let entry = Self.table[key], entry.record == nil { Self.table[key] = nil }
        pthread_mutex_unlock(&Self.tableLock)
    }

    /// The record of `object`, made now if it has none: how the engine watches an object's
    /// `objectWillChange` without subscribing to it.
    public static func record(of object: AnyObject) -> PublishedRecord { of(object, making: true)! }

    /// The record of `object`, made now when `making` and it has none.
    @usableFromInline
    static func of(_ object: AnyObject, making: Bool) -> PublishedRecord? {
        let key = ObjectIdentifier(object)
        pthread_mutex_lock(&tableLock)
        defer { pthread_mutex_unlock(&tableLock) }
        if let record = table[key]?.record { return record }
        guard making else { return nil }
        let record = PublishedRecord()
        record.key = key
        table[key] = Entry(object, record)
        generation.add(1, ordering: .relaxed)
        return record
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
