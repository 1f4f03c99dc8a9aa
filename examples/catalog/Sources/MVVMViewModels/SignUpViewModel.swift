import MVVMCombine
import MVVMModels

// Signing up presents a completion alert. Lengths count Characters, so "👨‍👩‍👧‍👦" is one.
/// A sign-up form: enabled when user_id has 6 or more characters, password 8 or more (grapheme
/// clusters), confirm_password equals password, and agreed.
public final class SignUpViewModel: ViewModelObject {
    public static let minimumUserIDLength = 6
    public static let minimumPasswordLength = 8

    public final class Input: InputObject {
        /// Asks the sign-up service; does nothing while disabled.
        public let signUpTapped = PassthroughSubject<Void, Never>()
    }

    public final class Binding: BindingObject {
        /// The user id typed: 6 or more characters to sign up.
        @Published public var userID = ""
        /// The password typed: 8 or more to sign up.
        @Published public var password = ""
        /// The password again: equal to password to sign up.
        @Published public var confirmPassword = ""
        /// The terms were agreed to.
        @Published public var agreed = false
        /// Presented when a sign-up succeeds; the view dismisses it.
        @Published public var isCompletionAlertPresented = false
    }

    public final class Output: OutputObject {
        /// Whether sign_up_tapped may sign up: the form's four rules hold.
        @Published public fileprivate(set) var isSignUpEnabled = false
    }

    public let input = Input()
    public let binding = Binding()
    public let output = Output()
    /// Made on first use: finding an `ObservableObject`'s `@Published` fields walks its `Mirror`
    /// (OpenCombine), which was half the cost of making a view model that nobody observes so.
    public lazy var objectWillChange: AnyPublisher<Void, Never> = Self.objectWillChange(binding: binding, output: output)

    /// With the built-in service, which accepts every sign-up at once.
    /// - Parameter service: the service to ask instead (the host's, through the export layer).
    public init(service: SignUpService = AcceptingSignUpService()) {
        binding.$userID
            .combineLatest(binding.$password, binding.$confirmPassword, binding.$agreed)
            .map(Self.isValid)
            .assign(to: &output.$isSignUpEnabled)
        input.signUpTapped
            .compactMap { [weak self] () -> (String, String)? in
                guard let self, self.output.isSignUpEnabled else { return nil }
                return (self.binding.userID, self.binding.password)
            }
            .flatMap { userID, password in service.signUp(userID: userID, password: password) }
            .filter { $0 }
            .assign(to: &binding.$isCompletionAlertPresented)
    }

    public static func isValid(userID: String, password: String, confirmPassword: String, agreed: Bool) -> Bool {
        userID.count >= minimumUserIDLength
            && password.count >= minimumPasswordLength
            && password == confirmPassword
            && agreed
    }
}
