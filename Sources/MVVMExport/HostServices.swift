import CMVVM
@preconcurrency import OpenCombine
import MVVMModels

/// A question to the host, open until `mvvm_complete` answers it.
final class Request: Handled, @unchecked Sendable {
    let service: HostService
    let resultType: ValueType
    private var fulfil: ((Value) -> Void)?

    init(service: HostService, resultType: ValueType, fulfil: @escaping (Value) -> Void) {
        self.service = service
        self.resultType = resultType
        self.fulfil = fulfil
        super.init(kind: .request)
    }

    var isOpen: Bool { fulfil != nil }

    /// Closes the request and frees its handle; answers it when `value` is given.
    func close(answering value: Value?) {
        guard let fulfil else { return }
        self.fulfil = nil
        HandleTable.shared.remove(handle)
        service.forget(self)
        if let value { fulfil(value) }
    }
}

/// The host's side of a service: its request function, user data and destroy function.
/// Touched only under the owning object's loop work lock.
final class HostService: @unchecked Sendable {
    private let requestFunction: mvvm_request_fn
    private let userData: UnsafeMutableRawPointer?
    private var destroy: mvvm_destroy_fn?
    private var pending: [Request] = []
    /// The view model that asks; set once it has a handle.
    weak var owner: ExportedObject?

    init(requestFunction: @escaping mvvm_request_fn, userData: UnsafeMutableRawPointer?, destroy: mvvm_destroy_fn?) {
        self.requestFunction = requestFunction
        self.userData = userData
        self.destroy = destroy
    }

    /// Issues a request to the host; `fulfil` gets its answer, of `resultType`.
    func ask(_ argument: Value, resultType: ValueType, fulfil: @escaping (Value) -> Void) {
        guard let owner, !owner.isReleased else { return }
        let request = Request(service: self, resultType: resultType, fulfil: fulfil)
        _ = HandleTable.shared.insert(request)
        pending.append(request)
        owner.context.callingHost {
            argument.withCValue { value in
                var value = value
                requestFunction(owner.handle, request.handle, &value, userData)
            }
        }
    }

    func forget(_ request: Request) { pending.removeAll { $0 === request } }

    /// Cancels every open request and runs the destroy function, exactly once.
    func end() {
        for request in pending { request.close(answering: nil) }
        let destroy = self.destroy
        self.destroy = nil
        destroy?(userData)
    }
}

/// Sign-up through the host: the request's argument is the user id, its answer a bool.
final class HostSignUpService: SignUpService {
    let host: HostService

    init(host: HostService) { self.host = host }

    func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never> {
        Future { [host] promise in
            host.ask(.string(userID), resultType: .bool) { answer in
                if case let .bool(succeeded) = answer { promise(.success(succeeded)) }
            }
        }.eraseToAnyPublisher()
    }
}

/// The welcome API through the host: no argument, a string answer.
final class HostWelcomeAPI: WelcomeAPI {
    let host: HostService

    init(host: HostService) { self.host = host }

    func fetchWelcomeMessage() -> AnyPublisher<String, Never> {
        Future { [host] promise in
            host.ask(.none, resultType: .string) { answer in
                if case let .string(message) = answer { promise(.success(message)) }
            }
        }.eraseToAnyPublisher()
    }
}
