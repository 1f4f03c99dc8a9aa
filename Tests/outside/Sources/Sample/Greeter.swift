// An ObservableObject view model, written as the seeds are: @Published inputs and outputs, an
// output derived with Combine, a subject as a signal.
@preconcurrency import OpenCombine

public final class Greeter: ObservableObject {
    /// Who to greet; the view binds it.
    @Published public var name: String
    /// "Hello, <name>!", or "Hello!" while name is empty.
    @Published public private(set) var greeting = "Hello!"
    /// How many times greet() ran.
    @Published public private(set) var greetCount = 0
    /// Each greeting, as greet() says it.
    public let greeted = PassthroughSubject<String, Never>()
    private var cancellables = Set<AnyCancellable>()

    public init(name: String = "") {
        self.name = name
        $name.map { $0.isEmpty ? "Hello!" : "Hello, \($0)!" }
            .sink { [unowned self] in greeting = $0 }
            .store(in: &cancellables)
    }

    public func greet() {
        greetCount += 1
        greeted.send(greeting)
    }
}
