// `@Published` as Apple's Combine declares it, for view models on Linux, that keeps its value
// inline and makes nothing until something listens: no subject, subscription or lock per
// property. It reaches its object on each set (Swift's enclosing-instance subscript). The first
// `$x` (or the object's `objectWillChange` in use) gives it a box (PublishedBox.swift), which holds
// the value from then on and tells its listeners of each set, as Combine's subject does.
@preconcurrency import OpenCombine
import CMVVMSystem
import Synchronization

/// A property that publishes each new value, in `willSet` (a sink reading the property sees the
/// old value), to its `$x` publisher, and tells its object's `objectWillChange` first. Only for
/// properties of classes.
@propertyWrapper
public struct Published<Value> {
    @usableFromInline enum Storage {
        case value(Value)
        case box(PublishedBox<Value>)
    }

    @usableFromInline var storage: Storage
    /// The record generation when this property last looked for its object's record
    /// (``PublishedRecord/generation``): it looks again only once a record was made somewhere.
    @usableFromInline var lookedAt: UInt32 = 0

    public init(wrappedValue: Value) { storage = .value(wrappedValue) }

    public init(initialValue: Value) { storage = .value(initialValue) }

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

    /// The property's place in its object, from its key path: one projection (folded into a
    /// field's address where the key path is a literal, as in the accessors Swift writes). A
    /// class instance does not move, so the place stays valid while the object lives.
    @inline(__always) @usableFromInline
    static func place<EnclosingSelf: AnyObject>(
        of object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> UnsafeMutablePointer<Published<Value>> {
        withUnsafeMutablePointer(to: &object[keyPath: storageKeyPath]) { $0 }
    }

    /// The value, inline or in the box.
    @inlinable
    var current: Value {
        @inline(__always) get {
            switch storage {
            case let .value(value): return value
            case let .box(box): return box.current
            }
        }
    }

    /// The property's box, made now if it has none: the value moves into it.
    @usableFromInline
    static func box(at place: UnsafeMutablePointer<Published<Value>>) -> PublishedBox<Value> {
        switch place.pointee.storage {
        case let .box(box): return box
        case let .value(value):
            let box = PublishedBox(value)
            place.pointee.storage = .box(box)
            return box
        }
    }

    /// A record was made since this property last looked: the object's, if it has one, becomes
    /// its box's first listener (the property is boxed for it).
    @usableFromInline
    static func lookForRecord(of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>, _ generation: UInt32) {
        place.pointee.lookedAt = generation
        guard let record = PublishedRecord.existing(PublishedRecord.key(of: object)) else { return }
        PublishedRecord.attach(record, to: box(at: place))
    }

    /// A set of the property at `place` in `object`.
    @inline(__always) @usableFromInline
    static func set(_ newValue: Value, of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>) {
        let generation = PublishedRecord.generation.load(ordering: .relaxed)
        if place.pointee.lookedAt != generation { lookForRecord(of: object, at: place, generation) }
        if case let .box(box) = place.pointee.storage {
            box.set(newValue)
        } else {
            place.pointee.storage = .value(newValue)
        }
    }

    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        @inline(__always) get { object[keyPath: storageKeyPath].current }
        @inline(__always) set { set(newValue, of: object, at: place(of: object, storageKeyPath)) }
    }

    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        @inline(__always) get { publisher(of: object, at: place(of: object, storageKeyPath)) }
        @inline(__always) set { assigned(newValue, of: object) }
    }

    /// `$x`: the property's publisher, over its box.
    @usableFromInline
    static func publisher(of object: AnyObject, at place: UnsafeMutablePointer<Published<Value>>) -> Publisher {
        let generation = PublishedRecord.generation.load(ordering: .relaxed)
        if place.pointee.lookedAt != generation { lookForRecord(of: object, at: place, generation) }
        return Publisher(box: box(at: place))
    }

    /// `$x = publisher`, which only `assign(to: &$x)` writes: the assignment it made learns the
    /// object the property is in (for the object's `objectWillChange`).
    @usableFromInline
    static func assigned(_ publisher: Publisher, of object: AnyObject) {
        guard let pending = cmvvm_published_pending_take() else { return }
        let assignment = Unmanaged<PublishedAssignmentBase>.fromOpaque(pending).takeRetainedValue()
        if assignment.target === publisher.box { assignment.setOwner(object) }
    }

    /// The publisher of a @Published property (`$x`): it gives the current value to each new
    /// subscriber, then each new value as it is set (in `willSet`).
    public struct Publisher: OpenCombine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        /// The property's box, which the engine watches and derivations read.
        public let box: PublishedBox<Value>

        @inlinable init(box: PublishedBox<Value>) { self.box = box }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.subject().receive(subscriber: subscriber)
        }
    }
}

/// Hands an assignment over to the projected setter that `assign(to: &$x)` runs next.
@inlinable @inline(__always)
func handOver(_ assignment: PublishedAssignmentBase) {
    let was = cmvvm_published_pending_swap(Unmanaged.passRetained(assignment).toOpaque())
    if let was { Unmanaged<PublishedAssignmentBase>.fromOpaque(was).release() }
}

extension OpenCombine.Publisher where Failure == Never {
    /// Republishes each value to the @Published property of `published` (`assign(to: &$x)`), for
    /// as long as that property's publisher lives (with its object, or longer if a `$x` of it is
    /// kept): no cancellable to keep, and no cycle however the upstream reaches the object.
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        let assignment = PublishedAssignment(self, target: published.box)
        assignment.attach()
        assignment.subscribe()
        handOver(assignment)
    }
}
