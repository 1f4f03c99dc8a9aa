import MVVMCombine
import MVVMModels

/// One counter on screen: its kind as a label and its count as text.
public final class CounterViewModel: ObservableObject {
    @Published public private(set) var label: String
    @Published public private(set) var count: String

    private let model: any Countable

    public init(model: any Countable) {
        self.model = model
        label = model.name
        count = String(model.count)
        model.countPublisher.map { String($0) }.assign(to: &$count)
    }

    public func increment() { model.increment() }
    public func decrement() { model.decrement() }
}

/// A page of two counters over two kinds of model.
public final class CounterPageViewModel: ObservableObject {
    public static let readMe = """
        Two counters, one view model type: the first counts one at a time, \
        the second jumps to a random number from 1 to 10 on every tap.
        """

    @Published public private(set) var readMe = CounterPageViewModel.readMe
    public let firstCounter: CounterViewModel
    public let secondCounter: CounterViewModel

    /// - Parameter seed: the random counter's seed; the same seed repeats the same numbers.
    public init(seed: UInt64 = .random(in: .min ... .max)) {
        firstCounter = CounterViewModel(model: Counter())
        secondCounter = CounterViewModel(model: RandomCounter(seed: seed))
    }
}
