// What a @Published property keeps once something listens to it: its box, which holds the value
// from then on (the property and each `$x` publisher share it, as Combine's subject) and the
// listeners told of each set. Made at the first `$x`, or when the object's `objectWillChange` is
// in use; a property nobody listens to has none.
import CMVVMSystem
@preconcurrency import OpenCombine

/// One of those told of a box's sets: the object's `objectWillChange` (its record), a derivation
/// or an assignment, the subject of generic `$x` subscribers, the engine's watch. Non-generic, so
/// a box calls each through its class, with no generic metadata.
open class PublishedListener: @unchecked Sendable {
    public init() {}

    /// Before `box` holds its new value, which `value` points to (a value of the box's type): in
    /// `willSet`, where a reader of the property still sees the old one, as Combine publishes.
    open func publishedWillSet(_ box: PublishedBoxBase, _ value: UnsafeRawPointer) {}

    /// After `box` stored its new value.
    open func publishedDidSet(_ box: PublishedBoxBase) {}

    /// After `box` stored its new value, told to the box's watcher (``PublishedBoxBase/addOwnWatcher(_:tag:)``)
    /// with the tag it was added with, read with the watcher: one watcher can watch many boxes.
    open func publishedDidSet(_ box: PublishedBoxBase, watcherTag: UInt32) { publishedDidSet(box) }

    /// `box` is going: nothing holds it any more (its property went with its object, and no `$x`
    /// publisher is kept). Listeners `box` held end here.
    open func publishedBoxGone(_ box: PublishedBoxBase) {}

    /// Whether the listener is this one, or holds it among others (``PublishedFanOut``).
    func contains(_ listener: PublishedListener) -> Bool { self === listener }

    /// The listener that stands for this one and `listener` together.
    func adding(_ listener: PublishedListener, first: Bool) -> PublishedListener {
        PublishedFanOut(first ? [listener, self] : [self, listener])
    }

    /// What stands for this one without `listener`: nil when it was the one.
    func removing(_ listener: PublishedListener) -> PublishedListener? { self === listener ? nil : self }
}

/// Several listeners of one box, in order. Never changed once made: a box swaps it for another,
/// so that a set tells the listeners it found, with no lock held.
final class PublishedFanOut: PublishedListener, @unchecked Sendable {
    let listeners: [PublishedListener]

    init(_ listeners: [PublishedListener]) { self.listeners = listeners }

    override func publishedWillSet(_ box: PublishedBoxBase, _ value: UnsafeRawPointer) {
        for listener in listeners { listener.publishedWillSet(box, value) }
    }

    override func publishedDidSet(_ box: PublishedBoxBase) {
        for listener in listeners { listener.publishedDidSet(box) }
    }

    override func publishedBoxGone(_ box: PublishedBoxBase) {
        for listener in listeners { listener.publishedBoxGone(box) }
    }

    override func contains(_ listener: PublishedListener) -> Bool { listeners.contains { $0 === listener } }

    override func adding(_ listener: PublishedListener, first: Bool) -> PublishedListener {
        PublishedFanOut(first ? [listener] + listeners : listeners + [listener])
    }

    override func removing(_ listener: PublishedListener) -> PublishedListener? {
        let kept = listeners.filter { $0 !== listener }
        return kept.count == 1 ? kept[0] : PublishedFanOut(kept)
    }
}

/// The box of a @Published property, whatever its value's type: its listeners. Guarded, with the
/// value, by the lock its address chooses (``PublishedLock``), which nothing holds while calling
/// out.
public class PublishedBoxBase: @unchecked Sendable {
    @usableFromInline final var links: PublishedListener?
    /// The engine's watch, told after the others: a field of its own, so that watching a property
    /// that something else listens to (a derivation, `$x`'s subscribers) makes no fan-out, nor
    /// does its end. A second watch goes among the others.
    @usableFromInline final var watcher: PublishedListener?
    /// What the watcher was added with: what it needs to tell which box was set (the engine's
    /// one watcher per object keeps the property's place there). Four bytes, in the padding a
    /// one-byte value leaves (a box of a `Bool` is no larger for it).
    @usableFromInline final var watcherTag: UInt32 = 0

    @usableFromInline init() {}

    deinit {
        // Nothing else can reach the box now: no lock.
        links?.publishedBoxGone(self)
        watcher?.publishedBoxGone(self)
    }

    /// Its listeners now, to be told with no lock held.
    @inlinable @inline(__always)
    final var listeners: PublishedListener? {
        let lock = PublishedLock(self)
        let links = self.links
        lock.unlock()
        return links
    }

    /// `listener` is told of each set from now on (`first`: before those already listening, as
    /// `objectWillChange` must be) until ``removeListener(_:)``.
    public final func addListener(_ listener: PublishedListener, first: Bool = false) {
        let lock = PublishedLock(self)
        links = links.map { $0.adding(listener, first: first) } ?? listener
        lock.unlock()
    }

    /// `watcher` (the engine's watch) is told after each set, after the other listeners, until
    /// ``removeWatcher(_:)``.
    public final func addWatcher(_ watcher: PublishedListener) {
        let lock = PublishedLock(self)
        if self.watcher == nil {
            self.watcher = watcher
            lock.unlock()
            return
        }
        links = links.map { $0.adding(watcher, first: false) } ?? watcher
        lock.unlock()
    }

    /// `watcher` becomes the box's watcher, told after each set, after the other listeners,
    /// with `tag` (``PublishedListener/publishedDidSet(_:watcherTag:)``), if the box has none:
    /// whether it did. One watcher can so watch many boxes, each tagged, until
    /// ``removeOwnWatcher()``.
    public final func addOwnWatcher(_ watcher: PublishedListener, tag: UInt32) -> Bool {
        let lock = PublishedLock(self)
        guard self.watcher == nil else {
            lock.unlock()
            return false
        }
        self.watcher = watcher
        watcherTag = tag
        lock.unlock()
        return true
    }

    /// Lets go of the watcher in the box's own field, whichever it is: for the one that took it
    /// (``addOwnWatcher(_:tag:)`` returned true), which alone may end it so, and has not since.
    public final func removeOwnWatcher() {
        let lock = PublishedLock(self)
        let was = watcher.take()
        lock.unlock()
        withExtendedLifetime(was) {}
    }

    public final func removeWatcher(_ watcher: PublishedListener) {
        let lock = PublishedLock(self)
        if self.watcher === watcher {
            let was = self.watcher.take()
            lock.unlock()
            withExtendedLifetime(was) {}
            return
        }
        lock.unlock()
        removeListener(watcher)
    }

    public final func removeListener(_ listener: PublishedListener) {
        let lock = PublishedLock(self)
        let was = links
        links = was?.removing(listener)
        lock.unlock()
        // A fan-out let go of is released here, with no lock held.
        withExtendedLifetime(was) {}
    }

    /// Whether `listener` listens.
    final func isListening(_ listener: PublishedListener) -> Bool {
        let lock = PublishedLock(self)
        let found = links?.contains(listener) ?? false
        lock.unlock()
        return found
    }
}

/// A box with its property's value (see the file's comment).
public final class PublishedBox<Value>: PublishedBoxBase, @unchecked Sendable {
    @usableFromInline var value: Value

    @inlinable init(_ value: Value) {
        self.value = value
        super.init()
        assert(!Self.isWord || withUnsafeMutablePointer(to: &self.value) { UnsafeMutableRawPointer($0) } == wordAddress,
               "a box's value is not where its word is read")
    }

    /// Where a word value is: after the object's header, the base's two references and its
    /// watcher's tag, at the value's alignment. Reached by address, not as the property (an
    /// `inout` access would be a Swift access that the thread sanitizer reports against a set on
    /// another thread).
    @inlinable @inline(__always)
    var wordAddress: UnsafeMutableRawPointer {
        let alignment = MemoryLayout<Value>.alignment
        let offset = (4 * MemoryLayout<UInt>.size + MemoryLayout<UInt32>.size + alignment - 1) & ~(alignment - 1)
        return Unmanaged.passUnretained(self).toOpaque() + offset
    }

    /// Whether the value is a word (1, 2, 4 or 8 bytes, aligned, with no references): read and
    /// written with relaxed atomics, no lock. Known when the box's type is specialised.
    @inlinable @inline(__always)
    static var isWord: Bool {
        let size = MemoryLayout<Value>.size
        return _isPOD(Value.self) && (size == 1 || size == 2 || size == 4 || size == 8)
            && MemoryLayout<Value>.alignment == size
    }

    /// The value: a set on another thread is never seen half done (a word is read atomically,
    /// anything else under the box's lock).
    @inlinable @inline(__always)
    public var current: Value {
        if Self.isWord {
            // One aligned load, which a set (an atomic store) never tears.
            return UnsafeRawPointer(wordAddress).load(as: Value.self)
        }
        let lock = PublishedLock(self)
        let value = self.value
        lock.unlock()
        return value
    }

    /// Stores `newValue`, with the lock held.
    @inlinable @inline(__always)
    func store(_ newValue: Value) {
        guard Self.isWord else { return value = newValue }
        var copy = newValue
        withUnsafeMutablePointer(to: &copy) { cmvvm_published_word_copy(wordAddress, $0, MemoryLayout<Value>.size) }
    }

    /// Stores `newValue`, telling the listeners before (with the value) and after.
    @inlinable
    public func set(_ newValue: Value) {
        if let before = listeners {
            withUnsafePointer(to: newValue) { before.publishedWillSet(self, UnsafeRawPointer($0)) }
        }
        let lock = PublishedLock(self)
        store(newValue)
        let after = links
        let watcher = self.watcher
        let tag = watcherTag
        lock.unlock()
        after?.publishedDidSet(self)
        watcher?.publishedDidSet(self, watcherTag: tag)
    }

    /// The subject that generic `$x` subscribers hear (a `CurrentValueSubject` with the value),
    /// made at the first one.
    @usableFromInline
    func subject() -> CurrentValueSubject<Value, Never> {
        let lock = PublishedLock(self)
        if let found = links.flatMap({ Self.subjectListener(in: $0) }) {
            lock.unlock()
            return found.subject
        }
        let made = PublishedSubjectListener<Value>(CurrentValueSubject(value))
        links = links.map { $0.adding(made, first: false) } ?? made
        lock.unlock()
        return made.subject
    }

    private static func subjectListener(in links: PublishedListener) -> PublishedSubjectListener<Value>? {
        if let fanOut = links as? PublishedFanOut {
            return fanOut.listeners.lazy.compactMap { $0 as? PublishedSubjectListener<Value> }.first
        }
        return links as? PublishedSubjectListener<Value>
    }
}

/// The `CurrentValueSubject` of a box's generic subscribers, sent each new value in `willSet`.
final class PublishedSubjectListener<Value>: PublishedListener, @unchecked Sendable {
    let subject: CurrentValueSubject<Value, Never>

    init(_ subject: CurrentValueSubject<Value, Never>) { self.subject = subject }

    override func publishedWillSet(_ box: PublishedBoxBase, _ value: UnsafeRawPointer) {
        subject.send(value.assumingMemoryBound(to: Value.self).pointee)
    }
}

/// The lock of an object (CMVVMSystem's `cmvvm_published_lock`), taken when made.
@usableFromInline
struct PublishedLock {
    @usableFromInline let word: UnsafeMutablePointer<cmvvm_word_lock>

    @inlinable @inline(__always)
    init(_ object: AnyObject) {
        word = cmvvm_published_lock(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
        cmvvm_word_lock_take(word)
    }

    @inlinable @inline(__always)
    func unlock() { cmvvm_word_lock_give(word) }
}
