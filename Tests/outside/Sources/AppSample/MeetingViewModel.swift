// View models written as apps write them, for the main loop's tests: a @MainActor class with a
// Foundation Timer (Scrumdinger's meeting timer), `Task { @MainActor in }`, a completion that
// comes back through `DispatchQueue.main.async`, and a main-actor async method. Nothing here
// knows libmvvm.
import Foundation
import MVVMCombine

@MainActor
public final class MeetingViewModel: ObservableObject {
    @Published public private(set) var secondsElapsed = 0
    @Published public private(set) var speaker = 0
    @Published public private(set) var status = "idle"
    @Published public private(set) var polls = 0
    private var timer: Timer?

    public init() {}

    /// Ticks every 50 ms of real time, as an app's meeting timer does every second.
    public func start() {
        timer?.invalidate()
        timer = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: true) { [weak self] _ in
            Task { @MainActor in self?.secondsElapsed += 1 }
        }
    }

    public func stop() {
        timer?.invalidate()
        timer = nil
    }

    public func skipSpeaker() {
        Task { @MainActor in speaker += 1 }
    }

    /// Work on a background queue whose result comes back on the main queue.
    public func refresh() {
        status = "refreshing"
        DispatchQueue.global().async {
            let fetched = "fetched"
            DispatchQueue.main.async { self.status = fetched }
        }
    }

    /// Suspends on the main actor, then counts a poll.
    public func fetch() async -> Int {
        try? await Task.sleep(for: .milliseconds(20))
        polls += 1
        return polls
    }
}

/// Not main-actor: a completion on a private queue sets its property (an authentication reply).
public final class SignInViewModel: ObservableObject, @unchecked Sendable {
    @Published public var token = ""
    private let queue = DispatchQueue(label: "sign-in")

    public init() {}

    public func signIn(_ user: String) {
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { self.token = "token-\(user)" }
    }
}
