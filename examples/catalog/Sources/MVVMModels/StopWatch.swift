import MVVMCombine

// A stopwatch: it never reads the wall clock.
/// Integer milliseconds on the loop's clock, published every 10 ms while running.
public final class StopWatch: ObservableObject {
    /// What the stopwatch can do next.
    public enum State: String, Sendable, CaseIterable {
        /// Cleared: it can start.
        case startable
        /// Running: it can stop.
        case stoppable
        /// Stopped with time on it: it can resume or clear.
        case resumable
    }

    /// Elapsed milliseconds.
    @Published public private(set) var timeMilliseconds: Int64 = 0
    /// startable, stoppable or resumable.
    @Published public private(set) var state: State = .startable

    private let loop: Loop
    /// Time accumulated by earlier runs.
    private var accumulated: Int64 = 0
    /// Loop time at which the current run started.
    private var runStart: LoopTime = .zero
    private var ticking: AnyCancellable?

    /// A stopped stopwatch at zero.
    public init(loop: Loop) {
        self.loop = loop
    }

    /// Starts from zero; only when startable.
    public func start() {
        guard state == .startable else { return }
        accumulated = 0
        run()
    }

    /// Stops, keeping the time; only when stoppable.
    public func stop() {
        guard state == .stoppable else { return }
        ticking = nil
        accumulated = elapsed()
        timeMilliseconds = accumulated
        state = .resumable
    }

    /// Continues; only when resumable.
    public func resume() {
        guard state == .resumable else { return }
        run()
    }

    /// Back to zero and startable; only when resumable.
    public func clear() {
        guard state == .resumable else { return }
        accumulated = 0
        timeMilliseconds = 0
        state = .startable
    }

    private func run() {
        runStart = loop.now
        state = .stoppable
        ticking = loop.timerPublisher(every: .milliseconds(10))
            .sink { [weak self] _ in
                guard let self else { return }
                self.timeMilliseconds = self.elapsed()
            }
    }

    private func elapsed() -> Int64 {
        accumulated + runStart.distance(to: loop.now).nanoseconds / 1_000_000
    }
}
