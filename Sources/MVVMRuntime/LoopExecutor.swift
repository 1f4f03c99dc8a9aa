// Swift concurrency on a loop: its executor, so that an `async` view model method runs as the
// loop's work like everything else its objects do, and its clock, which follows the loop's time
// (virtual time on a virtual loop: a one-second sleep ends at exactly one second).

import Glibc

/// Runs the jobs of the tasks that prefer it (`Task(executorPreference: loop.executor)`) as
/// the loop's work: each job is work due now, run holding the loop's work lock, its changes
/// announced with the turn's. A stopped loop runs no work, so what is left is drained by
/// ``drain()``, on the thread that stopped it: the jobs of cancelled tasks, run to their end
/// rather than leaked.
public final class LoopExecutor: TaskExecutor, @unchecked Sendable {
    /// Weak: a task may outlive its loop (a job enqueued after the loop is gone runs at once,
    /// on the thread that enqueues it: it can only be a cancelled task ending).
    private weak var loop: Loop?
    private let lock = PThreadLock()
    /// Jobs enqueued and not yet run, by the number they were enqueued under.
    private var pending: [UInt64: UnownedJob] = [:]
    private var nextNumber: UInt64 = 0

    init() {}

    func attach(to loop: Loop) { self.loop = loop }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        // Inside `runningInline` on this thread: the job runs now, as part of the call.
        if pthread_getspecific(Self.inlineKey) == Unmanaged.passUnretained(self).toOpaque() {
            return unowned.runSynchronously(on: asUnownedTaskExecutor())
        }
        // Inside `startingInline`'s `start`: held until the task is known.
        if let held = pthread_getspecific(Self.heldKey) {
            let jobs = Unmanaged<HeldJobs>.fromOpaque(held).takeUnretainedValue()
            if jobs.executor === self { return jobs.jobs.append(unowned) }
        }
        guard let loop else { return unowned.runSynchronously(on: asUnownedTaskExecutor()) }
        let number = lock.withLock { () -> UInt64 in
            nextNumber += 1
            pending[nextNumber] = unowned
            return nextNumber
        }
        loop.schedule { [self] in run(number) }
    }

    /// The executor whose jobs this thread runs at once, as they are enqueued (see `runningInline`).
    private static let inlineKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body`, and every job enqueued on this executor by this thread meanwhile, at once:
    /// a task started in `body` (`Task(executorPreference: loop.executor)`) runs in the call up
    /// to its first real suspension (a sleep, a wait for the host), whose resumption is then the
    /// loop's work. Call it holding the loop's work lock.
    public func runningInline<T>(_ body: () -> T) -> T {
        let previous = pthread_getspecific(Self.inlineKey)
        pthread_setspecific(Self.inlineKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.inlineKey, previous) }
        return body()
    }

    /// The jobs `startingInline` holds back.
    private final class HeldJobs {
        unowned let executor: LoopExecutor
        var jobs: [UnownedJob] = []

        init(executor: LoopExecutor) { self.executor = executor }
    }

    /// The `HeldJobs` this thread fills (see `startingInline`).
    private static let heldKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// `runningInline` for a task that `start` makes: its first job waits until `started` has
    /// the task, then runs in the call. So the task is known to whoever cancels it from code
    /// that job calls (a host's request function cancelling the call it belongs to): the task
    /// runs inline from inside `Task.init`, before `start` could return it. Call it holding the
    /// loop's work lock.
    @discardableResult
    public func startingInline<T>(_ start: () -> T, started: (T) -> Void) -> T {
        let previousInline = pthread_getspecific(Self.inlineKey), previousHeld = pthread_getspecific(Self.heldKey)
        let held = HeldJobs(executor: self)
        // Held even when already inline (a call started from a request function that runs inline).
        pthread_setspecific(Self.inlineKey, nil)
        pthread_setspecific(Self.heldKey, Unmanaged.passUnretained(held).toOpaque())
        let made = withExtendedLifetime(held) { start() }
        pthread_setspecific(Self.heldKey, previousHeld)
        pthread_setspecific(Self.inlineKey, previousInline)
        started(made)
        return runningInline {
            for job in held.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            return made
        }
    }

    private func run(_ number: UInt64) {
        guard let job = lock.withLock({ pending.removeValue(forKey: number) }) else { return }
        job.runSynchronously(on: asUnownedTaskExecutor())
    }

    /// Runs every job left on a stopped loop, and those they enqueue, until none is left (or,
    /// should tasks keep enqueuing, a bounded number of rounds). Call it holding the loop's work
    /// lock, after `stop()`.
    public func drain() {
        for _ in 0..<1_000 {
            let jobs = lock.withLock { () -> [(UInt64, UnownedJob)] in
                defer { pending = [:] }
                return pending.sorted { $0.key < $1.key }
            }
            guard !jobs.isEmpty else { return }
            for (_, job) in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

/// A clock of the loop's time, for `async` code running on the loop:
/// `try await loop.clock.sleep(for: .seconds(1))` ends when the loop's time has moved one second
/// (on a virtual loop, when an `advance` reaches it). A sleep on a stopped loop, or one whose
/// loop stops while it waits, throws `CancellationError`, as does a cancelled task's.
public struct LoopClock: Clock, Sendable {
    public typealias Duration = Swift.Duration

    /// An instant of the loop's time.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        public var time: LoopTime

        public init(_ time: LoopTime) { self.time = time }

        public func advanced(by duration: Duration) -> Instant {
            Instant(time.advanced(by: LoopTime.Stride(nanoseconds: duration.nanoseconds)))
        }

        public func duration(to other: Instant) -> Duration {
            .nanoseconds(other.time.nanoseconds - time.nanoseconds)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.time < rhs.time }
    }

    let loop: Loop

    public var now: Instant { Instant(loop.now) }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let wake = Wake()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                wake.set(continuation)
                guard !loop.isStopped else { return wake.resume(throwing: CancellationError()) }
                // The scheduled work is the wake's only keeper: dropped by a stopping loop, the
                // wake ends the sleep as it goes (see `Wake.deinit`).
                loop.schedule(after: deadline.time, tolerance: .zero, options: nil) { wake.resume() }
            }
        } onCancel: {
            wake.resume(throwing: CancellationError())
        }
    }

    /// Resumes a sleep once, whichever comes first: its time, its cancellation, its loop's end.
    private final class Wake: @unchecked Sendable {
        private let lock = PThreadLock()
        private var continuation: CheckedContinuation<Void, Error>?
        private var outcome: Result<Void, Error>?

        func set(_ continuation: CheckedContinuation<Void, Error>) {
            let early = lock.withLock { () -> Result<Void, Error>? in
                guard let outcome else {
                    self.continuation = continuation
                    return nil
                }
                return outcome
            }
            if let early { continuation.resume(with: early) }
        }

        func resume() { finish(.success(())) }
        func resume(throwing error: Error) { finish(.failure(error)) }

        private func finish(_ result: Result<Void, Error>) {
            let waiting = lock.withLock { () -> CheckedContinuation<Void, Error>? in
                guard outcome == nil else { return nil }
                outcome = result
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(with: result)
        }

        deinit { finish(.failure(CancellationError())) }
    }
}

extension Loop {
    /// The loop's clock (see ``LoopClock``).
    public var clock: LoopClock { LoopClock(loop: self) }
}

private extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
