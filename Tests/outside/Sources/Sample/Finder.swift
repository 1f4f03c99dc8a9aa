// A search over the host's service, as examples/search's screen is: an async command that asks
// the host and waits for its answer. The races of a cancel with the call's end, and a cancel
// from inside the request the call's own task made, are tested with it.
import MVVMExport
import MVVMRuntime
@preconcurrency import OpenCombine

public final class Finder: ObservableObject {
    @Published public var query = ""
    /// Milliseconds of the loop's time `find` waits before it asks.
    @Published public var delay = 0
    @Published public private(set) var found = ""
    @Published public private(set) var isFinding = false
    /// How many finds saw their cancellation.
    @Published public private(set) var cancellations = 0

    private let clock: LoopClock
    private let ask: (String) async throws -> String

    public init(clock: LoopClock, ask: @escaping (String) async throws -> String) {
        self.clock = clock
        self.ask = ask
    }

    /// Asks for the query (after `delay`); the answer becomes `found`.
    public func find() async throws -> String {
        isFinding = true
        defer { isFinding = false }
        do {
            if delay > 0 { try await clock.sleep(for: .milliseconds(delay)) }
            let answer = try await ask(query)
            found = answer
            return answer
        } catch is CancellationError {
            cancellations += 1
            throw CancellationError()
        }
    }
}
