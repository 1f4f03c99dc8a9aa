// The catalog (docs/catalog.md), exported through the public export API as a user exports their
// own view models: registered from the models' and view models' code (Catalog.derived.swift, by
// `python3 -m mvvm_gen derive --target MVVMModels --target MVVMViewModels --output
// Sources/MVVMCatalog/Catalog.derived.swift`, with what derivation cannot know in
// mvvm-derive.json), and by hand only the constructors over the host's services: what a request
// carries and what its answer is.
import MVVMExport
import MVVMModels
import MVVMCombine
import MVVMViewModels

/// The catalog as a package other libraries may carry. It has no hook of its own: a library
/// that carries it calls ``register()`` from its hook, as libcatalog.so's does (Sources/LibCatalog).
public enum Catalog {
    /// Registers the catalog's classes; call it once, from the library's hook
    /// (`@_cdecl("libmvvm_register_package")`), beside the library's own registrations.
    public static func register() { registerCatalogExports() }
}

extension SignUpViewModel {
    /// The constructor over the host's sign-up service, beside the derived members.
    static func exportByHand(_ c: inout ExportBuilder<SignUpViewModel>) {
        c.constructor(suffix: "service", doc: "With the host's service: each sign-up asks it with the user id (the password is "
                      + "readable during the request) and expects a bool, true for success.",
                      .service("service", request: .string, result: .bool)) { (_, host: HostRequester) in
            SignUpViewModel(service: HostSignUpService(host: host))
        }
    }
}

extension ObservableSignUpViewModel {
    /// The constructor over the host's sign-up service, beside the derived members.
    static func exportByHand(_ c: inout ExportBuilder<ObservableSignUpViewModel>) {
        c.constructor(suffix: "service", doc: "With the host's service: each sign-up asks it with the user id and expects a "
                      + "bool, true for success.",
                      .service("service", request: .string, result: .bool)) { (_, host: HostRequester) in
            ObservableSignUpViewModel(service: HostSignUpService(host: host))
        }
    }
}

extension WelcomeViewModel {
    /// The constructor over the host's welcome API, beside the derived members (WelcomeScreen is
    /// the view model's adapter, which the derived file declares).
    static func exportByHand(_ c: inout ExportBuilder<WelcomeScreen>) {
        c.constructor(suffix: "api", doc: "With the host's API: each view_did_load asks it (no argument) and expects the message.",
                      .service("api", request: .none, result: .string)) { (_, host: HostRequester) in
            WelcomeScreen(WelcomeViewModel(api: HostWelcomeAPI(host: host)))
        }
    }
}

/// Sign-up through the host: the request's argument is the user id, its answer a bool.
final class HostSignUpService: SignUpService {
    let host: HostRequester

    init(host: HostRequester) { self.host = host }

    func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never> {
        Future { [host] promise in
            host.ask(.string(userID)) { answer in
                if case let .bool(succeeded) = answer { promise(.success(succeeded)) }
            }
        }.eraseToAnyPublisher()
    }
}

/// The welcome API through the host: no argument, a string answer.
final class HostWelcomeAPI: WelcomeAPI {
    let host: HostRequester

    init(host: HostRequester) { self.host = host }

    func fetchWelcomeMessage() -> AnyPublisher<String, Never> {
        Future { [host] promise in
            host.ask(.none) { answer in
                if case let .string(message) = answer { promise(.success(message)) }
            }
        }.eraseToAnyPublisher()
    }
}
