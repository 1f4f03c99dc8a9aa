import MVVMCombine
import Testing
import MVVMModels
import MVVMViewModels

@Suite struct WelcomeViewModelTests {
    let loop: Loop
    let viewDidLoad = PassthroughSubject<Void, Never>()
    let tapButton = PassthroughSubject<String, Never>()
    let output: WelcomeViewModel.Output

    init() throws {
        loop = try Loop(kind: .virtual)
        output = WelcomeViewModel(api: BuiltInWelcomeAPI(loop: loop)).transform(input: .init(
            viewDidLoad: viewDidLoad.eraseToAnyPublisher(), tapButton: tapButton.eraseToAnyPublisher()))
    }

    @Test func eachLoadFetchesTheWelcomeOnTheNextDispatch() throws {
        var welcomes: [String] = []
        let watching = output.onShowWelcome.sink { welcomes.append($0) }
        viewDidLoad.send()
        #expect(welcomes.isEmpty)
        try loop.advance(byMilliseconds: 0)
        #expect(welcomes == ["Welcome!"])
        viewDidLoad.send()
        try loop.advance(byMilliseconds: 0)
        #expect(welcomes == ["Welcome!", "Welcome!"])
        watching.cancel()
    }

    @Test func eachTapShowsItsText() {
        var texts: [String] = []
        let watching = output.onShowText.sink { texts.append($0) }
        tapButton.send("A")
        tapButton.send("")
        #expect(texts == ["A show!!", " show!!"])
        watching.cancel()
    }

    @Test func onlyFirstPairsLoadsWithTapsAsZipDoes() throws {
        var shown = 0
        let watching = output.onShowOnlyFirst.sink { shown += 1 }
        tapButton.send("early")
        #expect(shown == 0)
        viewDidLoad.send()
        #expect(shown == 1)
        tapButton.send("again")
        tapButton.send("and again")
        #expect(shown == 1)
        viewDidLoad.send()
        #expect(shown == 2)
        viewDidLoad.send()
        #expect(shown == 3)
        viewDidLoad.send()
        #expect(shown == 3)
        tapButton.send("pairs the fourth load")
        #expect(shown == 4)
        watching.cancel()
    }

    @Test func outputsShareOneLoad() throws {
        let api = CountingWelcomeAPI()
        let output = WelcomeViewModel(api: api).transform(input: .init(
            viewDidLoad: viewDidLoad.eraseToAnyPublisher(), tapButton: tapButton.eraseToAnyPublisher()))
        var welcomes: [String] = []
        let a = output.onShowWelcome.sink { welcomes.append($0) }
        let b = output.onShowOnlyFirst.sink {}
        viewDidLoad.send()
        #expect(api.calls == 1)
        #expect(welcomes == ["hello 1"])
        _ = (a, b)
    }
}

private final class CountingWelcomeAPI: WelcomeAPI {
    var calls = 0
    func fetchWelcomeMessage() -> AnyPublisher<String, Never> {
        calls += 1
        return Just("hello \(calls)").eraseToAnyPublisher()
    }
}

@Suite struct CounterViewModelTests {
    @Test func twoViewModelsOverOneCounterStayInStep() {
        let counter = Counter()
        let first = CounterViewModel(model: counter), second = CounterViewModel(model: counter)
        #expect(first.label == "Counter")
        #expect(first.count == "0")
        first.increment()
        first.increment()
        second.decrement()
        #expect(first.count == "1")
        #expect(second.count == "1")
        second.decrement()
        second.decrement()
        #expect(first.count == "-1")
        #expect(counter.count == -1)
    }

    @Test func randomCounterRepeatsItsSequenceForASeedAndStaysInOneToTen() {
        func draws(seed: UInt64) -> [String] {
            let viewModel = CounterViewModel(model: RandomCounter(seed: seed))
            #expect(viewModel.label == "Random Counter")
            #expect(viewModel.count == "0")
            return (0..<50).map { step in
                step.isMultiple(of: 2) ? viewModel.increment() : viewModel.decrement()
                return viewModel.count
            }
        }
        let first = draws(seed: 42)
        #expect(first == draws(seed: 42))
        #expect(first != draws(seed: 43))
        #expect(first.allSatisfy { (1...10).contains(Int($0)!) })
        #expect(Set(first).count > 5)
    }

    @Test func pageHasACounterAndARandomCounter() {
        let page = CounterPageViewModel(seed: 7)
        #expect(page.readMe == CounterPageViewModel.readMe)
        #expect(!page.readMe.isEmpty)
        #expect(page.firstCounter.label == "Counter")
        #expect(page.secondCounter.label == "Random Counter")
        page.firstCounter.increment()
        page.secondCounter.increment()
        #expect(page.firstCounter.count == "1")
        #expect(page.secondCounter.count == CounterViewModel(model: { let c = RandomCounter(seed: 7); c.increment(); return c }()).count)
    }
}
