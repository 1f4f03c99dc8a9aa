// `ObservableObject` as Apple's Combine declares it, whose `objectWillChange` is made without
// reflection: the object's record (``PublishedRecord``) keeps it, and each @Published property
// tells the record when it is set.
@preconcurrency import OpenCombine

/// An object with a publisher that emits before it changes: each @Published property sends to it
/// before its value changes, and the object's own code may send to it too.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object changes.
    associatedtype ObjectWillChangePublisher: OpenCombine.Publisher = ObservableObjectPublisher
        where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's publisher, made at its first use and kept by the object's record.
    public var objectWillChange: ObservableObjectPublisher {
        PublishedRecord.of(self, making: true)!.objectWillChangePublisher()
    }
}

/// The publisher of an object's `objectWillChange`: what its @Published properties send before
/// they change, and what the object's code sends itself (`objectWillChange.send()`).
public final class ObservableObjectPublisher: OpenCombine.Publisher, @unchecked Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    /// Weak: the record keeps this publisher, and a subscriber may keep it longer.
    private weak var record: PublishedRecord?
    private let subject = PassthroughSubject<Void, Never>()

    /// A publisher of no object's: only what is sent to it.
    public init() {}

    init(record: PublishedRecord) { self.record = record }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Tells the subscribers (and whoever watches the object) that it is about to change.
    public func send() {
        record?.objectWillChangeSent()
        subject.send()
    }

    /// A @Published property's set: the record told its watches already.
    func sendToSubscribers() { subject.send() }
}
