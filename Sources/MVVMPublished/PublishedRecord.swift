// What an ObservableObject's @Published properties tell as a whole, kept once per object: its
// `objectWillChange`, and the watches of whoever observes the object without subscribing (the
// engine). Made at the first need of one of them, never for an object that nobody observes so.
// Each property whose object has one listens to it through its box (``PublishedBox``): the record
// is the box's first listener, told before each set.
import CMVVMSystem
import Glibc
@preconcurrency import OpenCombine
import Synchronization

/// Whoever follows an object's changes without subscribing to its `objectWillChange` (the
/// engine): told before each change of the object.
public protocol PublishedObserver: AnyObject {
    /// The object is about to change: a @Published property is set, or the app sent
    /// `objectWillChange`. On the thread that changes it.
    func objectWillChange()
}

/// One object's record (see the file's comment). Found from the object through a table (its
/// identity and an unowned reference to it) by each property of the object the next time it is
/// set or published after the record was made.
public final class PublishedRecord: PublishedListener, @unchecked Sendable {
    @usableFromInline let lock = Mutex<Void>(())
    /// Guarded by `lock`: the watches of every change; what `objectWillChange` subscribers hear,
    /// made at its first use; and the publisher last handed out for it (weak: a publisher keeps
    /// its record, not the reverse).
    private var changeWatchers: [PublishedObserver] = []
    private var willChangeSubject: PassthroughSubject<Void, Never>?
    private weak var willChangePublisher: ObservableObjectPublisher?

    override init() {}

    // MARK: What a set tells

    /// Before a property of the object is set: the change watches, then `objectWillChange`.
    override public func publishedWillSet(_ box: PublishedBoxBase, _ value: UnsafeRawPointer) { objectWillChangeSent() }

    /// The app's `objectWillChange.send()`, and a property's set: the engine's change watches,
    /// then the subscribers.
    func objectWillChangeSent() {
        let (observers, subject) = lock.withLock { _ in (changeWatchers, willChangeSubject) }
        for observer in observers { observer.objectWillChange() }
        subject?.send()
    }

    // MARK: Listeners

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
            return made
        }
    }

    /// `observer` hears each change of the object until ``stopWatching(by:)``.
    public func watch(by observer: PublishedObserver) {
        lock.withLock { _ in changeWatchers.append(observer) }
    }

    public func stopWatching(by observer: PublishedObserver) {
        lock.withLock { _ in changeWatchers.removeAll { $0 === observer } }
    }

    // MARK: The table

    /// The record of each object that has one, by identity. An entry holds its object unowned,
    /// which keeps the object's memory (not the object) until the entry goes, so its identity
    /// cannot be another object's meanwhile; and its record weakly: the record goes when nothing
    /// holds it (the object's boxes, the engine's watches, `objectWillChange`'s subscribers), and
    /// takes its entry with it. No weak reference to the object: that would give it a side table
    /// and slow every reference count of it.
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
    nonisolated(unsafe) private static var table: [UInt: Entry] = [:]
    nonisolated(unsafe) private static var tableLock = pthread_mutex_t()
    /// Bumped whenever a record is made: a property that looked for its object's record and found
    /// none looks again only after a record was made somewhere. From 0, as a new property's
    /// `lookedAt`: while no record was ever made, there is none to look for.
    @usableFromInline static let generation = Atomic<UInt32>(0)
    /// Its object's identity, for its entry's removal.
    private var key: UInt?

    deinit {
        guard let key else { return }
        pthread_mutex_lock(&Self.tableLock)
        if let entry = Self.table[key], entry.record == nil { Self.table[key] = nil }
        pthread_mutex_unlock(&Self.tableLock)
    }

    /// The record of `object`, made now if it has none: how the engine watches an object's
    /// `objectWillChange` without subscribing to it.
    public static func record(of object: AnyObject) -> PublishedRecord { of(key(of: object), object, making: true)! }

    /// An object's identity, as the table keys it.
    @inlinable @inline(__always)
    static func key(of object: AnyObject) -> UInt { UInt(bitPattern: Int(bitPattern: ObjectIdentifier(object))) }

    /// The record of the object `key` names, if it has one. The caller keeps that object's
    /// memory (an unowned or a strong reference), so that `key` is no other object's.
    @usableFromInline
    static func existing(_ key: UInt) -> PublishedRecord? { of(key, nil, making: false) }

    private static func of(_ key: UInt, _ object: AnyObject?, making: Bool) -> PublishedRecord? {
        pthread_mutex_lock(&tableLock)
        defer { pthread_mutex_unlock(&tableLock) }
        if let record = table[key]?.record { return record }
        guard making, let object else { return nil }
        let record = PublishedRecord()
        record.key = key
        table[key] = Entry(object, record)
        generation.add(1, ordering: .relaxed)
        return record
    }

    /// Makes `record` the first listener of `box`, unless it is one already.
    @usableFromInline
    static func attach(_ record: PublishedRecord, to box: PublishedBoxBase) {
        if !box.isListening(record) { box.addListener(record, first: true) }
    }
}
