// `ObservableObject` as Apple's Combine declares it, whose `objectWillChange` is made without
// reflection: the object's record (``PublishedRecord``) keeps it, and each @Published property
// tells the record when it is set (the property finds it at its next set after it was made).
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
        PublishedRecord.record(of: self).objectWillChangePublisher()
    }
}

/// The publisher of an object's `objectWillChange`: what its @Published properties send before
/// they change, and what the object's code sends itself (`objectWillChange.send()`).
public final class ObservableObjectPublisher: OpenCombine.Publisher, @unchecked Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    /// The object's record, which this publisher and each of its subscriptions keep; nil for a
    /// publisher of no object's (`init()`), which has a subject of its own.
    private let record: PublishedRecord?
    private lazy var ownSubject = PassthroughSubject<Void, Never>()

    /// A publisher of no object's: only what is sent to it.
    public init() { record = nil }

    init(record: PublishedRecord) { self.record = record }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        guard let record else { return ownSubject.receive(subscriber: subscriber) }
        // The subscription keeps the object's record: a set reaches the subscriber however long
        // ago the publisher was asked for, and whoever holds it since.
        record.objectWillChangeSubject().receive(subscriber: KeepingRecord(subscriber, record))
    }

    /// Tells the subscribers (and whoever watches the object) that it is about to change.
    public func send() {
        guard let record else { return ownSubject.send() }
        record.objectWillChangeSent()
    }
}

/// A subscriber of `objectWillChange` that keeps its object's record while it is subscribed.
private struct KeepingRecord<Downstream: Subscriber>: Subscriber where Downstream.Input == Void, Downstream.Failure == Never {
    typealias Input = Void
    typealias Failure = Never

    let downstream: Downstream
    let record: PublishedRecord
    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    init(_ downstream: Downstream, _ record: PublishedRecord) {
        self.downstream = downstream
        self.record = record
    }

    func receive(subscription: Subscription) { downstream.receive(subscription: subscription) }
    func receive(_ input: Void) -> Subscribers.Demand { downstream.receive(input) }
    func receive(completion: Subscribers.Completion<Never>) { downstream.receive(completion: completion) }
}
