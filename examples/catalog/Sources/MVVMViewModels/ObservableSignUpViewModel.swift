import Observation
import MVVMCombine
import MVVMModels

/// The sign-up form of `SignUpViewModel` with the same rules, written as new Swift code writes a
/// view model: an `@Observable` class (the Observation module) whose derived property is computed.
/// No publishers or subscriptions per property: a change is a stored-property write, and the
/// export layer watches the properties it is asked about with `withObservationTracking`.
@Observable
public final class ObservableSignUpViewModel {
    public var userID = ""
    public var password = ""
    public var confirmPassword = ""
    public var agreed = false
    public var isCompletionAlertPresented = false

    /// Enabled when the user ID has at least 6 characters, the password at least 8, typed twice,
    /// and the terms were agreed to (lengths count Characters, as `SignUpViewModel` does).
    public var isSignUpEnabled: Bool {
        SignUpViewModel.isValid(userID: userID, password: password, confirmPassword: confirmPassword, agreed: agreed)
    }

    @ObservationIgnored private let service: SignUpService
    @ObservationIgnored private var signingUp: AnyCancellable?

    public init(service: SignUpService = AcceptingSignUpService()) {
        self.service = service
    }

    /// Asks the service; does nothing while the form is not enabled. Success presents the alert.
    public func signUpTapped() {
        guard isSignUpEnabled else { return }
        signingUp = service.signUp(userID: userID, password: password)
            .filter { $0 }
            .sink { [weak self] _ in self?.isCompletionAlertPresented = true }
    }
}
