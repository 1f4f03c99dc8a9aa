// `@Published` as Apple's Combine declares it, for view models on Linux, that keeps its value
// inline and makes nothing until something listens: no subject, subscription or lock per
// property. It reaches its object on each set (Swift's enclosing-instance subscript) and tells the
// object's one record (``PublishedRecord``): `objectWillChange`, the subjects of the `$x`
// publishers the app's code asked for, and the engine, which watches it there.
@preconcurrency import OpenCombine
import Synchronization

/// A property that publishes each new value, in `willSet` (a sink reading the property sees the
/// old value), to its `$x` publisher, and tells its object's `objectWillChange` first. Only for
/// properties of classes.
@propertyWrapper
public struct Published<Value> {
    @usableFromInline var value: Value
    /// The object's record, once one exists and a set or a `$x` found it.
    @usableFromInline var record: PublishedRecord?
    /// This property's place among its object's @Published properties, given by the record at
    /// its first use; -1 until then.
    @usableFromInline var slot: Int32 = -1
    /// The record generation when this property last looked for its object's record and found
    /// none (``PublishedRecord/generation``): it looks again only once a record was made.
    @usableFromInline var lookedAt: UInt32 = 0
    /// The subscription of `assign(to: &$x)`, ended with the property (with its object).
    @usableFromInline var assignment: AnyCancellable?

    public init(wrappedValue: Value) { value = wrappedValue }

    public init(initialValue: Value) { value = initialValue }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") } // swiftlint:disable:this unused_setter_value
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var projectedValue: Publisher {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") } // swiftlint:disable:this unused_setter_value
    }

    /// The property's place in its object, from its key path: one projection. A class
    /// instance does not move, so the place stays valid while the object lives; reached through
    /// it, a set calls out (to `objectWillChange`, the `$x` subscribers) with no access to the
    /// property open, so a subscriber may read the property, as Combine allows.
    @inline(__always) @usableFromInline
    static func place<EnclosingSelf: AnyObject>(
        of object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> UnsafeMutablePointer<Published<Value>> {
        withUnsafeMutablePointer(to: &object[keyPath: storageKeyPath]) { $0 }
    }

    /// The record of `object` at `place`, its slot given; nil while the object has none (then
    /// nothing listens to it, and a set costs one look at a generation).
    @inline(__always) @usableFromInline
    static func foundRecord(of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>) -> PublishedRecord? {
        if let record = place.pointee.record { return record }
        let generation = PublishedRecord.generation.load(ordering: .relaxed)
        guard place.pointee.lookedAt != generation else { return nil }
        place.pointee.lookedAt = generation
        guard let found = PublishedRecord.of(object, making: false) else { return nil }
        adopt(found, at: place)
        return found
    }

    /// The record of `object` at `place`, made now if it has none.
    @inline(__always) @usableFromInline
    static func madeRecord(of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>) -> PublishedRecord {
        if let record = place.pointee.record { return record }
        let made = PublishedRecord.of(object, making: true)!
        adopt(made, at: place)
        return made
    }

    @usableFromInline
    static func adopt(_ found: PublishedRecord, at place: UnsafeMutablePointer<Published<Value>>) {
        place.pointee.record = found
        if place.pointee.slot < 0 { place.pointee.slot = found.newSlot() }
    }

    /// A set of the property at `place` in `object`: its record, if it has one, told before and
    /// after the value is stored.
    @inline(__always) @usableFromInline
    static func set(_ newValue: Value, of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>) {
        guard let record = foundRecord(of: object, at: place) else {
            place.pointee.value = newValue
            return
        }
        let slot = place.pointee.slot
        record.willSet(slot, to: newValue)
        place.pointee.value = newValue
        record.didSet(slot)
    }

    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        @inline(__always) get { object[keyPath: storageKeyPath].value }
        @inline(__always) set { set(newValue, of: object, at: place(of: object, storageKeyPath)) }
    }

    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            let place = place(of: object, storageKeyPath)
            let record = madeRecord(of: object, at: place)
            let slot = place.pointee.slot
            // The engine reads the publisher only for its record and slot: no subject for it.
            if PublishedProbe.isProbing { return Publisher(record: record, slot: slot, subject: nil) }
            return Publisher(record: record, slot: slot, subject: record.subject(slot, current: place.pointee.value))
        }
        set {
            // `assign(to: &$x)` handed its subscription over: it writes through the property's
            // place, so that every set is told, and ends with the property.
            guard let assignment = newValue.assignment else { return }
            let place = place(of: object, storageKeyPath)
            let offset = UnsafeMutableRawPointer(place) - Unmanaged.passUnretained(object).toOpaque()
            place.pointee.assignment = assignment.start { [unowned object] value in
                withExtendedLifetime(object) {
                    let base = Unmanaged.passUnretained(object).toOpaque()
                    set(value, of: object, at: (base + offset).assumingMemoryBound(to: Published<Value>.self))
                }
            }
        }
    }

    /// The publisher of a @Published property (`$x`): it gives the current value to each new
    /// subscriber, then each new value as it is set (in `willSet`).
    public struct Publisher: OpenCombine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        /// The record and slot of its property, which the engine watches (``PublishedProbe``).
        public let record: PublishedRecord
        public let slot: Int32
        @usableFromInline let subject: CurrentValueSubject<Value, Never>?
        /// Set by `assign(to:)`, taken by the property's projected setter.
        @usableFromInline var assignment: PublishedAssignment<Value>?

        @usableFromInline
        init(record: PublishedRecord, slot: Int32, subject: CurrentValueSubject<Value, Never>?) {
            self.record = record
            self.slot = slot
            self.subject = subject
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            // A probe's publisher is never subscribed to; one that is would hear nothing.
            guard let subject else { return subscriber.receive(subscription: Subscriptions.empty) }
            subject.receive(subscriber: subscriber)
        }
    }
}

extension OpenCombine.Publisher where Failure == Never {
    /// Republishes each value to the @Published property of `published` (`assign(to: &$x)`),
    /// until that property goes, with its object: no cancellable to keep, and no cycle however
    /// the upstream reaches the object.
    public func assign(to published: inout Published<Output>.Publisher) {
        let assignment = PublishedAssignment<Output>()
        published.assignment = assignment
        subscribe(assignment)
    }
}

/// `assign(to:)`'s subscriber: values that arrive before the property takes it over (an upstream
/// that sends at once) are kept, the latest only, and written when it does.
public final class PublishedAssignment<Value>: Subscriber, Cancellable, @unchecked Sendable {
    public typealias Input = Value
    public typealias Failure = Never

    private var subscription: Subscription?
    private var write: ((Value) -> Void)?
    private var pending: Value?

    @usableFromInline init() {}

    /// Writes each value with `write` from now on (the latest kept one first); the cancellable
    /// that ends it.
    @usableFromInline
    func start(_ write: @escaping (Value) -> Void) -> AnyCancellable {
        self.write = write
        if let value = pending.take() { write(value) }
        return AnyCancellable(self)
    }

    public func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    public func receive(_ input: Value) -> Subscribers.Demand {
        if let write { write(input) } else { pending = input }
        return .none
    }

    public func receive(completion: Subscribers.Completion<Never>) {}

    public func cancel() {
        subscription?.cancel()
        subscription = nil
        write = nil
    }
}
