// `assign(to: &$x)`: what writes an upstream's values into a @Published property. As in Combine,
// the assignment lasts as long as the property's box (its subject in Combine): the box holds it
// among its listeners and ends it when it goes, and the assignment holds the box only unowned.
// Three kinds: a derivation (PublishedDerivation.swift) recomputes its value from other @Published
// properties with no subscription at all; an upstream rooted in a subject is subscribed at the
// subject's first send (PassthroughSubject.swift); any other upstream is subscribed at once.
import CMVVMSystem
import Glibc
@preconcurrency import OpenCombine
import Synchronization

/// What every assignment has: its property's box (unowned: the box holds the assignment), the
/// object it belongs to (for the object's `objectWillChange`), and a lock that its box's going
/// waits on while a value is being written.
public class PublishedAssignmentBase: PublishedListener, @unchecked Sendable {
    /// The box written to; valid while `ended` is false (its going ends the assignment first).
    @usableFromInline unowned(unsafe) let target: PublishedBoxBase
    /// The object whose property the box is, once its projected setter told (`&object.$x`): its
    /// identity (0 until then), and its memory kept (unowned, never read) so that the identity
    /// stays its own.
    @usableFromInline var ownerKey: UInt = 0
    @usableFromInline unowned var ownerMemory: AnyObject?
    /// The lock: its holding thread (0: none), the times it took it; see ``lock()``. Guarded by
    /// the object's word lock (``PublishedLock``).
    @usableFromInline var lockOwner: UInt = 0
    /// The record generation when the owner's record was last looked for.
    @usableFromInline var lookedAt: UInt32 = 0
    @usableFromInline var lockDepth: UInt16 = 0
    @usableFromInline var ended = false

    @usableFromInline init(target: PublishedBoxBase) { self.target = target }

    /// Told by the projected setter of the property assigned to (``Published``).
    @usableFromInline
    final func setOwner(_ object: AnyObject) {
        lock()
        ownerKey = PublishedRecord.key(of: object)
        ownerMemory = object
        lookedAt = 0
        unlock()
    }

    /// Starts: listens to its box, whose going ends it.
    @usableFromInline
    final func attach() { target.addListener(self) }

    override public func publishedBoxGone(_ box: PublishedBoxBase) {
        guard box === target else { return }
        lock()
        ended = true
        endHoldingLock()
    }

    /// What the kind does when its box goes (cancels its upstream, leaves its sources): called
    /// with the lock held, which it gives back (one taking of the lock for both).
    @usableFromInline
    func endHoldingLock() { unlock() }

    /// Subscribes to its upstream, if it has one and its box is still there.
    @usableFromInline
    func subscribe() {}

    /// Whether a value may be written now: the lock is taken (give it back with ``unlock()``)
    /// and the box is still there. The box's object's record, if one was made since the last
    /// look, is found here, so that its `objectWillChange` is told.
    @inlinable @inline(__always)
    final func beginWrite() -> Bool {
        lock()
        if ended {
            unlock()
            return false
        }
        let generation = PublishedRecord.generation.load(ordering: .relaxed)
        if lookedAt != generation { lookForRecord(generation) }
        return true
    }

    @usableFromInline
    final func lookForRecord(_ generation: UInt32) {
        lookedAt = generation
        guard ownerKey != 0, let record = PublishedRecord.existing(ownerKey) else { return }
        PublishedRecord.attach(record, to: target)
    }

    /// A lock the thread holding it may take again (a write that sets, through a sink, a property
    /// the same assignment reads), held while a value is written, so that the box's going waits
    /// for the write. Contention is rare (two threads writing one property at once): a waiting
    /// thread yields.
    @inlinable @inline(__always)
    final func lock() {
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        let word = PublishedLock(self)
        if lockOwner == 0 || lockOwner == me {
            lockOwner = me
            lockDepth += 1
            word.unlock()
            return
        }
        word.unlock()
        waitForLock(me)
    }

    @usableFromInline
    final func waitForLock(_ me: UInt) {
        while true {
            sched_yield()
            let word = PublishedLock(self)
            if lockOwner == 0 {
                lockOwner = me
                lockDepth = 1
                word.unlock()
                return
            }
            word.unlock()
        }
    }

    @inlinable @inline(__always)
    final func unlock() {
        let word = PublishedLock(self)
        lockDepth -= 1
        if lockDepth == 0 { lockOwner = 0 }
        word.unlock()
    }
}

/// What an assignment to an upstream has: the upstream's subscribing, then its subscription. Not
/// generic, so that an assignment's end drops it with no generic metadata.
@usableFromInline
enum PublishedAssignmentState {
    case waiting((PublishedAssignmentBase) -> Void)
    case subscribed(PublishedUpstreamSubscription)
    case over
}

/// The upstream's subscription of an assignment, boxed: a `Subscription` existential is five
/// words, which every assignment, subscribed or still waiting, would carry inline (an assignment
/// of two words instead is 32 bytes smaller).
@usableFromInline
final class PublishedUpstreamSubscription {
    let subscription: Subscription
    init(_ subscription: Subscription) { self.subscription = subscription }
}

/// An assignment subscribed to an upstream publisher, at once or at its subject's first send.
/// Generic over its value only: the upstream waits in a closure made where `assign(to:)` is
/// specialised, so that neither holding nor dropping it looks up generic metadata.
public final class PublishedAssignment<Input>: PublishedAssignmentBase, Subscriber, @unchecked Sendable {
    public typealias Failure = Never

    /// The upstream's subscribing until it is subscribed to; then its subscription. Guarded by
    /// the lock.
    @usableFromInline var state: PublishedAssignmentState

    @inlinable
    convenience init<Upstream: Publisher>(_ upstream: Upstream, target: PublishedBox<Input>)
        where Upstream.Output == Input, Upstream.Failure == Never
    {
        self.init(waiting: { upstream.subscribe(unsafeDowncast($0, to: PublishedAssignment<Input>.self)) }, target: target)
    }

    @usableFromInline
    init(waiting subscribe: @escaping (PublishedAssignmentBase) -> Void, target: PublishedBox<Input>) {
        state = .waiting(subscribe)
        super.init(target: target)
    }

    /// Subscribes to the upstream now (unless the box went).
    @usableFromInline
    override final func subscribe() {
        lock()
        guard case let .waiting(subscribe) = state, !ended else { return unlock() }
        state = .over
        unlock()
        subscribe(self)
    }

    override final func endHoldingLock() {
        let was = state
        state = .over
        unlock()
        if case let .subscribed(upstream) = was { upstream.subscription.cancel() }
    }

    public final func receive(subscription: Subscription) {
        lock()
        guard !ended else {
            unlock()
            return subscription.cancel()
        }
        state = .subscribed(PublishedUpstreamSubscription(subscription))
        unlock()
        subscription.request(.unlimited)
    }

    public final func receive(_ input: Input) -> Subscribers.Demand {
        guard beginWrite() else { return .none }
        let box = unsafeDowncast(target, to: PublishedBox<Input>.self)
        withExtendedLifetime(box) { box.set(input) }
        unlock()
        return .none
    }

    public final func receive(completion: Subscribers.Completion<Never>) {}
}
