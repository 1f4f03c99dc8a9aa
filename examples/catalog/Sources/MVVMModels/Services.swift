import MVVMCombine

/// Signs a user up; the answer says whether it succeeded.
public protocol SignUpService: AnyObject {
    func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never>
}

/// The built-in sign-up service: it accepts every sign-up at once.
public final class AcceptingSignUpService: SignUpService {
    public init() {}

    public func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never> {
        Just(true).eraseToAnyPublisher()
    }
}

/// Fetches the welcome message to show when a screen loads.
public protocol WelcomeAPI: AnyObject {
    func fetchWelcomeMessage() -> AnyPublisher<String, Never>
}

/// The built-in welcome API: it answers "Welcome!" on the loop's next dispatch, as a network
/// answer would arrive later rather than inside the call.
public final class BuiltInWelcomeAPI: WelcomeAPI {
    public static let message = "Welcome!"
    private let loop: Loop

    public init(loop: Loop) { self.loop = loop }

    public func fetchWelcomeMessage() -> AnyPublisher<String, Never> {
        Just(Self.message).receive(on: loop).eraseToAnyPublisher()
    }
}
