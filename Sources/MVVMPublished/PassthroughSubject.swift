// `PassthroughSubject` for view models: OpenCombine's, made only when something subscribes to it
// or it is sent something it must keep (a completion, an upstream subscription). Until then a
// subject costs one small object, and what `assign(to: &$x)` hangs on it through operators that
// do nothing before a value arrives (map, compactMap, filter, flatMap, removeDuplicates) waits,
// unsubscribed, for its first value: a view model's action that is never taken makes no
// subscription, conduit or lock. Once sent a value, it forwards everything at once.
import CMVVMSystem
import Glibc
@preconcurrency import OpenCombine

/// A publisher that sends its subscribers each value it is sent, as Combine's `PassthroughSubject`
/// (OpenCombine's does the work, see the file's comment).
public final class PassthroughSubject<Output, Failure: Error>: PublishedLazyRoot, Subject, @unchecked Sendable {
    /// OpenCombine's subject, once needed. Guarded by the object's lock (``PublishedLock``).
    private var inner: OpenCombine.PassthroughSubject<Output, Failure>?

    override public init() {}

    public func send(_ input: Output) {
        var lock = PublishedLock(self)
        if !isForwarding {
            lock.unlock()
            activate()
            lock = PublishedLock(self)
        }
        let inner = self.inner
        lock.unlock()
        inner?.send(input)
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        // Assignments waiting for a value would only hear the end: they need not subscribe.
        dropWaiting()
        made().send(completion: completion)
    }

    public func send(subscription: Subscription) {
        // An upstream sends only on demand: those waiting subscribe now and ask for it.
        activate()
        made().send(subscription: subscription)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        made().receive(subscriber: subscriber)
    }

    /// OpenCombine's subject, made now if it was not.
    private func made() -> OpenCombine.PassthroughSubject<Output, Failure> {
        let lock = PublishedLock(self)
        if let inner {
            lock.unlock()
            return inner
        }
        let made = OpenCombine.PassthroughSubject<Output, Failure>()
        inner = made
        lock.unlock()
        return made
    }
}

/// What a lean subject has whatever its types: the assignments waiting for its first value.
public class PublishedLazyRoot: @unchecked Sendable {
    private static let waitingPhase: UInt8 = 0, activating: UInt8 = 1, forwarding: UInt8 = 2

    /// Guarded by the object's lock (``PublishedLock``): the assignments hung on the subject that
    /// subscribe at its first value (one, or a fan-out of them). Its phase: waiting, activating
    /// (a thread subscribes them), forwarding (for good).
    private var waiting: PublishedListener?
    private var phase = PublishedLazyRoot.waitingPhase

    @usableFromInline init() {}

    /// Whether everything is forwarded as it comes. With the object's lock held.
    final var isForwarding: Bool { phase == Self.forwarding }

    /// Subscribes `assignment` at the subject's first value, or now if it had one.
    @usableFromInline
    final func subscribeLater(_ assignment: PublishedAssignmentBase) {
        let lock = PublishedLock(self)
        guard phase == Self.waitingPhase else {
            lock.unlock()
            return assignment.subscribe()
        }
        waiting = waiting.map { $0.adding(assignment, first: false) } ?? assignment
        lock.unlock()
    }

    /// Subscribes those waiting, once; a thread that comes while another does it waits for it.
    final func activate() {
        let lock = PublishedLock(self)
        switch phase {
        case Self.waitingPhase:
            phase = Self.activating
            let waiting = self.waiting.take()
            lock.unlock()
            if let fanOut = waiting as? PublishedFanOut {
                for assignment in fanOut.listeners { unsafeDowncast(assignment, to: PublishedAssignmentBase.self).subscribe() }
            } else if let waiting {
                unsafeDowncast(waiting, to: PublishedAssignmentBase.self).subscribe()
            }
            let done = PublishedLock(self)
            phase = Self.forwarding
            done.unlock()
        case Self.activating:
            lock.unlock()
            while true {
                sched_yield()
                let lock = PublishedLock(self)
                let done = phase == Self.forwarding
                lock.unlock()
                if done { return }
            }
        default:
            lock.unlock()
        }
    }

    /// Forgets those waiting, who will never subscribe, and forwards everything from now on.
    final func dropWaiting() {
        let lock = PublishedLock(self)
        let waiting = self.waiting.take()
        if phase == Self.waitingPhase { phase = Self.forwarding }
        lock.unlock()
        withExtendedLifetime(waiting) {}
    }
}

/// A publisher made of a lean ``PassthroughSubject`` and operators that do nothing until a value
/// arrives: what its `assign(to:)` subscribes waits for the subject's first value.
public protocol PublishedLazyUpstream: OpenCombine.Publisher {
    /// The subject it starts from.
    var publishedLazyRoot: PublishedLazyRoot { get }
}

extension PassthroughSubject: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { self }
}

extension Publishers.Map: PublishedLazyUpstream where Upstream: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { upstream.publishedLazyRoot }
}

extension Publishers.CompactMap: PublishedLazyUpstream where Upstream: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { upstream.publishedLazyRoot }
}

extension Publishers.Filter: PublishedLazyUpstream where Upstream: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { upstream.publishedLazyRoot }
}

extension Publishers.FlatMap: PublishedLazyUpstream where Upstream: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { upstream.publishedLazyRoot }
}

extension Publishers.RemoveDuplicates: PublishedLazyUpstream where Upstream: PublishedLazyUpstream {
    public var publishedLazyRoot: PublishedLazyRoot { upstream.publishedLazyRoot }
}

extension PublishedLazyUpstream where Failure == Never {
    /// Republishes each value to the @Published property of `published`, as
    /// ``OpenCombine/Publisher/assign(to:)`` does, subscribing at the subject's first value
    /// (see the file's comment).
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        // Its upstream waits in a closure that subscribing drops: an assignment keeping it would
        // keep the subject, which keeps the assignment once subscribed (a cycle nothing ends).
        let assignment = PublishedAssignment(self, target: published.box)
        assignment.attach()
        publishedLazyRoot.subscribeLater(assignment)
        handOver(assignment)
    }
}
