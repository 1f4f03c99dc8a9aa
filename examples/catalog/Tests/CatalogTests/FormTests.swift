import MVVMCombine
import Testing
import MVVMModels
import MVVMViewModels

@Suite struct InputEchoViewModelTests {
    @Test func echoesTheInput() {
        let viewModel = InputEchoViewModel()
        #expect(viewModel.label == "")
        #expect(viewModel.message == "Your input is ''!")
        viewModel.input = "héllo 👋"
        #expect(viewModel.label == "héllo 👋")
        #expect(viewModel.message == "Your input is 'héllo 👋'!")
    }
}

@Suite struct SignUpViewModelTests {
    private func filled(userID: String = "abcdef", password: String = "12345678",
                        confirm: String? = nil, agreed: Bool = true,
                        service: SignUpService = AcceptingSignUpService()) -> SignUpViewModel {
        let viewModel = SignUpViewModel(service: service)
        viewModel.binding.userID = userID
        viewModel.binding.password = password
        viewModel.binding.confirmPassword = confirm ?? password
        viewModel.binding.agreed = agreed
        return viewModel
    }

    @Test func startsDisabled() {
        let viewModel = SignUpViewModel()
        #expect(!viewModel.output.isSignUpEnabled)
        #expect(!viewModel.binding.isCompletionAlertPresented)
    }

    @Test(arguments: [("abcde", false), ("abcdef", true), ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", false),
                      ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", true), ("éééééé", true), ("", false)])
    func userIDNeedsSixCharacters(userID: String, enabled: Bool) {
        #expect(filled(userID: userID).output.isSignUpEnabled == enabled)
    }

    @Test(arguments: [("1234567", false), ("12345678", true), ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", false),
                      ("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", true)])
    func passwordNeedsEightCharacters(password: String, enabled: Bool) {
        #expect(filled(password: password).output.isSignUpEnabled == enabled)
    }

    @Test func confirmationMustMatchAndTermsMustBeAgreed() {
        #expect(!filled(confirm: "12345679").output.isSignUpEnabled)
        #expect(!filled(agreed: false).output.isSignUpEnabled)
        let viewModel = filled()
        #expect(viewModel.output.isSignUpEnabled)
        viewModel.binding.agreed = false
        #expect(!viewModel.output.isSignUpEnabled)
    }

    @Test func tapWhileDisabledDoesNothing() {
        let service = RecordingSignUpService()
        let viewModel = filled(agreed: false, service: service)
        viewModel.input.signUpTapped.send()
        #expect(service.requests.isEmpty)
        #expect(!viewModel.binding.isCompletionAlertPresented)
    }

    @Test func signingUpPresentsTheCompletionAlertWhenTheServiceSucceeds() {
        let service = RecordingSignUpService()
        let viewModel = filled(userID: "user01", password: "password", service: service)
        viewModel.input.signUpTapped.send()
        #expect(service.requests.count == 1)
        #expect(service.requests.first?.0 == "user01")
        #expect(service.requests.first?.1 == "password")
        #expect(!viewModel.binding.isCompletionAlertPresented)
        service.answers[0].send(false)
        #expect(!viewModel.binding.isCompletionAlertPresented)
        viewModel.input.signUpTapped.send()
        service.answers[1].send(true)
        #expect(viewModel.binding.isCompletionAlertPresented)
    }

    @Test func builtInServiceAcceptsAtOnce() {
        let viewModel = filled()
        viewModel.input.signUpTapped.send()
        #expect(viewModel.binding.isCompletionAlertPresented)
    }

    @Test func objectWillChangeFiresForBindingAndOutput() {
        let viewModel = SignUpViewModel()
        var changes = 0
        let watching = viewModel.objectWillChange.sink { changes += 1 }
        viewModel.binding.userID = "abc"
        #expect(changes == 2) // userID, and isSignUpEnabled re-published by the derivation
        watching.cancel()
    }
}

private final class RecordingSignUpService: SignUpService {
    var requests: [(String, String)] = []
    var answers: [PassthroughSubject<Bool, Never>] = []

    func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never> {
        requests.append((userID, password))
        let answer = PassthroughSubject<Bool, Never>()
        answers.append(answer)
        return answer.eraseToAnyPublisher()
    }
}
