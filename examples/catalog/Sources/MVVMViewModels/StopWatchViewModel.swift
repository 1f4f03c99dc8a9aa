import MVVMCombine
import MVVMModels

/// The stopwatch screen: the time as "HH:MM:SS.cc", a main button that starts, stops and
/// resumes, and a clear button.
public final class StopWatchViewModel: ObservableObject {
    @Published public private(set) var time = StopWatchViewModel.format(milliseconds: 0)
    @Published public private(set) var mainActionTitle = StopWatchViewModel.mainActionTitle(for: .startable)
    @Published public private(set) var clearActionTitle = "Clear"
    @Published public private(set) var mainActionEnabled = true
    @Published public private(set) var clearActionEnabled = false

    public let stopWatch: StopWatch

    public convenience init(loop: Loop) {
        self.init(stopWatch: StopWatch(loop: loop))
    }

    public init(stopWatch: StopWatch) {
        self.stopWatch = stopWatch
        stopWatch.$timeMilliseconds.map(Self.format(milliseconds:)).assign(to: &$time)
        stopWatch.$state.map(Self.mainActionTitle(for:)).assign(to: &$mainActionTitle)
        stopWatch.$state.map { $0 == .resumable }.assign(to: &$clearActionEnabled)
    }

    /// Start, stop or resume, whichever the state allows.
    public func mainAction() {
        switch stopWatch.state {
        case .startable: stopWatch.start()
        case .stoppable: stopWatch.stop()
        case .resumable: stopWatch.resume()
        }
    }

    /// Clears the time; does nothing unless the stopwatch is stopped with time on it.
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
