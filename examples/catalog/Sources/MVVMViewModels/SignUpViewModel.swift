import MVVMCombine
import MVVMModels

/// The sign-up form: a user ID of at least 6 characters, a password of at least 8 typed twice,
/// and agreement to the terms enable the button; signing up presents a completion alert.
/// Lengths count Characters, so "👨‍👩‍👧‍👦" is one.
public final class SignUpViewModel: ViewModelObject {
    public static let minimumUserIDLength = 6
    public static let minimumPasswordLength = 8

    public final class Input: InputObject {
        public let signUpTapped = PassthroughSubject<Void, Never>()
    }

    public final class Binding: BindingObject {
        @Published public var userID = ""
        @Published public var password = ""
        @Published public var confirmPassword = ""
        @Published public var agreed = false
        @Published public var isCompletionAlertPresented = false
    }

    public final class Output: OutputObject {
        @Published public fileprivate(set) var isSignUpEnabled = false
    }

    public let input = Input()
    public let binding = Binding()
    public let output = Output()
    /// Made on first use: finding an `ObservableObject`'s `@Published` fields walks its `Mirror`
    /// (OpenCombine), which was half the cost of making a view model that nobody observes so.
    public lazy var objectWillChange: AnyPublisher<Void, Never> = Self.objectWillChange(binding: binding, output: output)

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
