import MVVMCombine

/// A countdown of whole seconds that ticks once a second on its loop while running.
///
/// `count` is the seconds elapsed and `remainingTime` what is left of `fullCount`. When the
/// remaining time reaches 0 the timer stops, resets to a count of 0 and publishes `finished`.
public final class CountDownTimer: ObservableObject {
    @Published public private(set) var fullCount: Int
    @Published public private(set) var count: Int = 0
    @Published public private(set) var remainingTime: Int
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

    /// Starts or resumes the countdown; does nothing while it runs.
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

    /// Sets the count back to 0 without starting or stopping.
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
