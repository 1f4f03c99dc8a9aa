import MVVMCombine
import MVVMModels

/// The timer screen: an alert when the time runs out, a display and a player.
public final class TimerViewModel: ObservableObject {
    /// Becomes true when the timer runs out; the view sets it false to dismiss.
    @Published public var isShowAlert = false

    /// The remaining time.
    public let display: DisplayViewModel
    /// The start, pause and stop buttons.
    public let player: PlayerViewModel

    /// Over `timer`, a count_down_timer of the same loop.
    public init(loop: Loop, timer: CountDownTimer) {
        display = DisplayViewModel(timer: timer)
        player = PlayerViewModel(loop: loop, timer: timer)
        timer.finished.map { true }.assign(to: &$isShowAlert)
    }
}

/// What the timer screen shows.
public final class DisplayViewModel: ObservableObject {
    /// Seconds left.
    @Published public private(set) var remainingTime: Int
    /// A view may keep only this child: it keeps its model.
    private let timer: CountDownTimer

    public init(timer: CountDownTimer) {
        self.timer = timer
        remainingTime = timer.remainingTime
        timer.$remainingTime.assign(to: &$remainingTime)
    }
}

/// The timer's buttons.
public final class PlayerViewModel: ObservableObject {
    /// What a player button asks of the timer.
    public enum Action: String, Sendable, CaseIterable {
        case start, pause, stop
    }

    // Stop makes sense once some time has been counted.
    /// remaining_time < full_count.
    @Published public private(set) var isStopEnabled = false
    // So the view shows pause rather than play.
    /// Whether the timer runs.
    @Published public private(set) var isPlayTimer = false

    // A burst of taps acts once a second at most.
    /// A button was tapped ("start", "pause" or "stop"), through throttle(for: 1 s, latest: false).
    public let tapped = PassthroughSubject<Action, Never>()

    /// A view may keep only this child: it keeps its model.
    private let timer: CountDownTimer
    private var cancellables = Set<AnyCancellable>()

    public init(loop: Loop, timer: CountDownTimer) {
        self.timer = timer
        timer.$remainingTime
            .combineLatest(timer.$fullCount) { remaining, full in remaining < full }
            .assign(to: &$isStopEnabled)
        timer.$isDoing.assign(to: &$isPlayTimer)
        tapped
            .throttle(for: .seconds(1), scheduler: loop, latest: false)
            .sink { action in
                switch action {
                case .start: timer.start()
                case .pause: timer.pause()
                case .stop: timer.stop()
                }
            }
            .store(in: &cancellables)
    }
}
