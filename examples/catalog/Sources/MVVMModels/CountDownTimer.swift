import MVVMCombine

// It ticks on its loop. When the remaining time reaches 0 the timer stops, resets to a count of
// 0 and publishes `finished`. (The doc comments here are the descriptions hosts read: the catalog's
// registration is derived from this code, docs/catalog.md.)
/// A countdown of whole seconds, ticking once a second while running.
public final class CountDownTimer: ObservableObject {
    /// The seconds it counts down from.
    @Published public private(set) var fullCount: Int
    /// Seconds elapsed: from 0 to full_count, and back to 0 on stop, on reset and when the time
    /// runs out.
    @Published public private(set) var count: Int = 0
    /// Seconds left: full_count - count.
    @Published public private(set) var remainingTime: Int
    /// Whether it is running: true from start to pause, stop or the time running out.
    @Published public private(set) var isDoing = false

    /// Emits once each time the countdown runs out.
    public let finished = PassthroughSubject<Void, Never>()

    private let loop: Loop
    private var ticking: AnyCancellable?

    /// - Parameter fullCount: the seconds to count down from; at least 1.
    public init(loop: Loop, fullCount: Int) {
        precondition(fullCount > 0, "a countdown needs at least one second")
        self.loop = loop
        self.fullCount = fullCount
        remainingTime = fullCount
    }

    /// Starts or resumes; does nothing while running.
    public func start() {
        guard !isDoing else { return }
        isDoing = true
        ticking = loop.timerPublisher(every: .seconds(1))
            .sink { [weak self] _ in self?.tick() }
    }

    /// Pauses, keeping the count; does nothing while paused.
    public func pause() {
        guard isDoing else { return }
        ticking = nil
        isDoing = false
    }

    /// Stops and resets the count to 0.
    public func stop() {
        pause()
        reset()
    }

    /// Resets the count to 0, running or not.
    public func reset() {
        setCount(0)
    }

    private func tick() {
        setCount(count + 1)
        if remainingTime == 0 {
            stop()
            finished.send()
        }
    }

    private func setCount(_ newCount: Int) {
        count = newCount
        remainingTime = fullCount - newCount
    }
}
