import MVVMCombine
import MVVMModels

/// The countdown screen: a display of the remaining time, a player with start, pause and stop,
/// and an alert when the countdown runs out.
public final class TimerViewModel: ObservableObject {
    /// Whether the "time is up" alert is showing; the view sets it back to false to dismiss it.
    @Published public var isShowAlert = false

    public let display: DisplayViewModel
    public let player: PlayerViewModel

    public init(loop: Loop, timer: CountDownTimer) {
        display = DisplayViewModel(timer: timer)
        player = PlayerViewModel(loop: loop, timer: timer)
        timer.finished.map { true }.assign(to: &$isShowAlert)
    }
}

/// Shows the seconds left.
public final class DisplayViewModel: ObservableObject {
    @Published public private(set) var remainingTime: Int
    /// A view may keep only this child: it keeps its model.
    private let timer: CountDownTimer

    public init(timer: CountDownTimer) {
        self.timer = timer
        remainingTime = timer.remainingTime
        timer.$remainingTime.assign(to: &$remainingTime)
    }
}

/// The player's buttons: what they enable and what a tap does.
public final class PlayerViewModel: ObservableObject {
    /// What a player button asks of the timer.
    public enum Action: String, Sendable, CaseIterable {
        case start, pause, stop
    }

    /// Stop makes sense once some time has been counted.
    @Published public private(set) var isStopEnabled = false
    /// Whether the timer runs, so the view shows pause rather than play.
    @Published public private(set) var isPlayTimer = false

    /// Taps on the player's buttons. They act through `throttle(for: 1 s, latest: false)`, so a
    /// burst of taps acts once a second at most.
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
