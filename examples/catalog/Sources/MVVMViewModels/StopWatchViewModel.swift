import MVVMCombine
import MVVMModels

/// The stopwatch screen.
public final class StopWatchViewModel: ObservableObject {
    /// The elapsed time as "HH:MM:SS.cc", hours modulo 100.
    @Published public private(set) var time = StopWatchViewModel.format(milliseconds: 0)
    /// The main button's title: Start, Stop or Resume, as the state allows.
    @Published public private(set) var mainActionTitle = StopWatchViewModel.mainActionTitle(for: .startable)
    /// The clear button's title: Clear.
    @Published public private(set) var clearActionTitle = "Clear"
    /// Whether the main button is enabled: always true.
    @Published public private(set) var mainActionEnabled = true
    /// Whether the clear button is enabled: only while the stopwatch is resumable.
    @Published public private(set) var clearActionEnabled = false

    public let stopWatch: StopWatch

    /// Over a stopwatch of its own.
    public convenience init(loop: Loop) {
        self.init(stopWatch: StopWatch(loop: loop))
    }

    public init(stopWatch: StopWatch) {
        self.stopWatch = stopWatch
        stopWatch.$timeMilliseconds.map(Self.format(milliseconds:)).assign(to: &$time)
        stopWatch.$state.map(Self.mainActionTitle(for:)).assign(to: &$mainActionTitle)
        stopWatch.$state.map { $0 == .resumable }.assign(to: &$clearActionEnabled)
    }

    /// Start, stop or resume, as the state allows.
    public func mainAction() {
        switch stopWatch.state {
        case .startable: stopWatch.start()
        case .stoppable: stopWatch.stop()
        case .resumable: stopWatch.resume()
        }
    }

    /// Clears to 00:00:00.00; does nothing unless resumable.
    public func clearAction() {
        stopWatch.clear()
    }

    public static func mainActionTitle(for state: StopWatch.State) -> String {
        switch state {
        case .startable: return "Start"
        case .stoppable: return "Stop"
        case .resumable: return "Resume"
        }
    }

    /// "HH:MM:SS.cc", hours modulo 100 so the field stays two digits.
    public static func format(milliseconds: Int64) -> String {
        let centiseconds = milliseconds / 10
        let fields = [(centiseconds / 360_000) % 100, (centiseconds / 6_000) % 60, (centiseconds / 100) % 60]
        let digits = fields.map(twoDigits).joined(separator: ":")
        return digits + "." + twoDigits(centiseconds % 100)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
