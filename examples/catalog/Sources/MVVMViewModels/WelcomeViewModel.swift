import MVVMCombine
import MVVMModels

/// The welcome screen in the `transform(input:) -> Output` style: each load fetches a welcome
/// message, each tap echoes its text, and loads paired with taps (as `zip` pairs them) show a
/// one-time hint.
public final class WelcomeViewModel: TransformViewModel {
    public struct Input {
        public let viewDidLoad: AnyPublisher<Void, Never>
        public let tapButton: AnyPublisher<String, Never>

        public init(viewDidLoad: AnyPublisher<Void, Never>, tapButton: AnyPublisher<String, Never>) {
            self.viewDidLoad = viewDidLoad
            self.tapButton = tapButton
        }
    }

    public struct Output {
        public let onShowWelcome: AnyPublisher<String, Never>
        public let onShowText: AnyPublisher<String, Never>
        public let onShowOnlyFirst: AnyPublisher<Void, Never>
    }

    private let api: WelcomeAPI

    public init(api: WelcomeAPI) {
        self.api = api
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
