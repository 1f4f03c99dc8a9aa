import MVVMCombine
import MVVMModels

// Each load fetches a welcome message, each tap echoes its text, and loads paired with taps (as
// `zip` pairs them) show a one-time hint. The export layer drives it as a view does: a subject
// for each input, handed to `transform(input:)` once (docs/packages.md, "Deriving the registration").
/// A transform(input) -> output screen: a welcome message on load, a text on each tap.
public final class WelcomeViewModel: TransformViewModel {
    public struct Input {
        /// The view loaded: asks the welcome API.
        public let viewDidLoad: AnyPublisher<Void, Never>
        /// A tap with the text to show.
        public let tapButton: AnyPublisher<String, Never>

        public init(viewDidLoad: AnyPublisher<Void, Never>, tapButton: AnyPublisher<String, Never>) {
            self.viewDidLoad = viewDidLoad
            self.tapButton = tapButton
        }
    }

    public struct Output {
        /// The API's welcome message.
        public let onShowWelcome: AnyPublisher<String, Never>
        /// "<text> show!!" for each tap.
        public let onShowText: AnyPublisher<String, Never>
        /// Loads paired with taps, as Combine's zip pairs them.
        public let onShowOnlyFirst: AnyPublisher<Void, Never>
    }

    private let api: WelcomeAPI

    public init(api: WelcomeAPI) {
        self.api = api
    }

    /// With the built-in API, which answers "Welcome!" on the loop's next dispatch.
    public convenience init(loop: Loop) {
        self.init(api: BuiltInWelcomeAPI(loop: loop))
    }

    public func transform(input: Input) -> Output {
        let viewDidLoad = input.viewDidLoad.share()
        let tapButton = input.tapButton.share()
        let api = self.api
        return Output(
            onShowWelcome: viewDidLoad.flatMap { api.fetchWelcomeMessage() }.eraseToAnyPublisher(),
            onShowText: tapButton.map(Self.text(for:)).eraseToAnyPublisher(),
            onShowOnlyFirst: viewDidLoad.zip(tapButton).map { _ in () }.eraseToAnyPublisher()
        )
    }

    public static func text(for tapped: String) -> String {
        "\(tapped) show!!"
    }
}
