import MVVMCombine
import MVVMModels

// One counter on screen: its kind as a label and its count as text.
/// A counter's screen.
public final class CounterViewModel: ObservableObject {
    /// "Counter" or "Random Counter".
    @Published public private(set) var label: String
    /// The count, as text.
    @Published public private(set) var count: String

    private let model: any Countable

    /// Over `model`, a counter or random_counter of the same loop.
    public init(model: any Countable) {
        self.model = model
        label = model.name
        count = String(model.count)
        model.countPublisher.map { String($0) }.assign(to: &$count)
    }

    /// Counts up (a random counter draws a new count).
    public func increment() { model.increment() }
    /// Counts down (a random counter draws a new count).
    public func decrement() { model.decrement() }
}

// A page of two counters over two kinds of model.
/// Two counters on one page.
public final class CounterPageViewModel: ObservableObject {
    public static let readMe = """
        Two counters, one view model type: the first counts one at a time, \
        the second jumps to a random number from 1 to 10 on every tap.
        """

    /// What the page shows, for the view to print above the counters.
    @Published public private(set) var readMe = CounterPageViewModel.readMe
    /// Over a counter.
    public let firstCounter: CounterViewModel
    /// Over a random counter.
    public let secondCounter: CounterViewModel

    /// The random counter is seeded from the system's random source.
    public convenience init() {
        self.init(seed: .random(in: .min ... .max))
    }

    /// The random counter is seeded with `seed`, for repeatable pages.
    /// - Parameter seed: the random counter's seed; the same seed repeats the same numbers.
    public init(seed: UInt64) {
        firstCounter = CounterViewModel(model: Counter())
        secondCounter = CounterViewModel(model: RandomCounter(seed: seed))
    }
}
