import Observation
import MVVMCombine
import MVVMModels

// The sign-up form of `SignUpViewModel` with the same rules, written as new Swift code writes a
// view model: an `@Observable` class (the Observation module) whose derived property is computed.
// No publishers or subscriptions per property: a change is a stored-property write, and the
// export layer watches the properties it is asked about with `withObservationTracking`.
/// sign_up_view_model's form and rules as an @Observable class: is_sign_up_enabled is computed
/// from the four inputs.
@Observable
public final class ObservableSignUpViewModel {
    /// The user id typed: 6 or more characters to sign up.
    public var userID = ""
    /// The password typed: 8 or more to sign up.
    public var password = ""
    /// The password again: equal to password to sign up.
    public var confirmPassword = ""
    /// The terms were agreed to.
    public var agreed = false
    /// Presented when a sign-up succeeds; the view dismisses it.
    public var isCompletionAlertPresented = false

    // Lengths count Characters, as `SignUpViewModel` does.
    /// Whether sign_up_tapped may sign up: the form's four rules hold.
    public var isSignUpEnabled: Bool {
        SignUpViewModel.isValid(userID: userID, password: password, confirmPassword: confirmPassword, agreed: agreed)
    }

    @ObservationIgnored private let service: SignUpService
    @ObservationIgnored private var signingUp: AnyCancellable?

    /// With the built-in service, which accepts every sign-up at once.
    /// - Parameter service: the service to ask instead (the host's, through the export layer).
    public init(service: SignUpService = AcceptingSignUpService()) {
        self.service = service
    }

    // Success presents the alert.
    /// Asks the sign-up service; does nothing while disabled.
    public func signUpTapped() {
        guard isSignUpEnabled else { return }
        signingUp = service.signUp(userID: userID, password: password)
            .filter { $0 }
            .sink { [weak self] _ in self?.isCompletionAlertPresented = true }
    }
}
