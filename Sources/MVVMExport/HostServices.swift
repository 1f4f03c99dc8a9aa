import CMVVM
@preconcurrency import OpenCombine

/// A question to the host, open until `mvvm_complete` answers it.
final class Request: Handled, @unchecked Sendable {
    let service: HostService
    let resultType: ValueType
    private var fulfil: ((Value) -> Void)?
    /// Told when the request closes unanswered (cancelled, or its view model released).
    private var unanswered: (() -> Void)?

    init(service: HostService, resultType: ValueType, fulfil: @escaping (Value) -> Void, unanswered: (() -> Void)?) {
        self.service = service
        self.resultType = resultType
        self.fulfil = fulfil
        self.unanswered = unanswered
        super.init(kind: .request)
    }

    var isOpen: Bool { fulfil != nil }

    override var owningContext: LoopContext? { service.owner?.context }

    /// Cancels the request: its answer is never awaited.
    override func releaseHandle() throws(ExportError) {
        service.owner?.context.loop.perform { close(answering: nil) }
    }
    /// Answered with `mvvm_complete_soon`, the answer not yet applied: answered, to the host.
    var isAnswerScheduled = false

    /// Closes the request and frees its handle; answers it when `value` is given.
    func close(answering value: Value?) {
        guard let fulfil else { return }
        self.fulfil = nil
        let unanswered = self.unanswered
        self.unanswered = nil
        HandleTable.shared.remove(handle)
        service.forget(self)
        if let value { fulfil(value) } else { unanswered?() }
    }
}

/// The host's side of a service, for one view model: the functions the host gave, and the
/// requests it has yet to answer. Touched only under the owning object's loop work lock.
final class HostService: @unchecked Sendable {
    private var functions: ServiceFunctions?
    let requestType: ValueType
    let resultType: ValueType
    private var pending: [Request] = []
    /// The view model that asks; set once it has a handle.
    weak var owner: ExportedObject?

    init(functions: ServiceFunctions, requestType: ValueType, resultType: ValueType) {
        self.functions = functions
        self.requestType = requestType
        self.resultType = resultType
    }

    /// Issues a request to the host; `fulfil` gets its answer, of `resultType`, or `unanswered`
    /// runs when it closes without one (at once when the view model is gone). `issued` has the
    /// request before the host's request function runs, which may cancel what waits for it.
    func ask(_ argument: Value, issued: (Request) -> Void = { _ in }, fulfil: @escaping (Value) -> Void,
             unanswered: (() -> Void)? = nil) {
        guard let owner, !owner.isReleased, let functions else {
            unanswered?()
            return
        }
        let request = Request(service: self, resultType: resultType, fulfil: fulfil, unanswered: unanswered)
        _ = HandleTable.shared.insert(request)
        pending.append(request)
        issued(request)
        owner.context.callingHost {
            argument.withCValue { value in
                var value = value
                functions.requestFunction(owner.handle, request.handle, &value, functions.userData)
            }
        }
    }

    func forget(_ request: Request) { pending.removeAll { $0 === request } }

    /// Cancels every open request and lets go of the host's functions: their destroy function
    /// runs once nothing else holds them.
    func end() {
        for request in pending { request.close(answering: nil) }
        functions = nil
    }
}

/// What a view model's service calls to ask the host: a constructor's ``Argument/service(_:request:result:)``.
/// Use it on the view model's loop (inside its work), as a model's service runs.
public final class HostRequester: @unchecked Sendable {
    let host: HostService

    init(host: HostService) { self.host = host }

    /// Asks the host; `answer` runs with its answer (of the declared result type) when the host
    /// completes the request, and never when the request is cancelled.
    public func ask(_ argument: MVVMValue, answer: @escaping (MVVMValue) -> Void) {
        host.ask(argument, fulfil: answer)
    }

    /// Asks the host and waits for its answer, in an `async` command running on the view
    /// model's loop. Throws `CancellationError` when the request is cancelled (its view model
    /// released) or the task is (its call cancelled: the request is then withdrawn, and a late
    /// answer gets MVVM_ERR_UNKNOWN_REQUEST).
    public func ask(_ argument: MVVMValue) async throws -> MVVMValue {
        let waiting = WaitingAnswer()
        return try await withTaskCancellationHandler {
            // Cancelled already: no request is made (cancellation comes only from the loop's own
            // work, so it cannot come between this check and the request).
            try Task.checkCancellation()
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<MVVMValue, Error>) in
                waiting.continuation = continuation
                // Known before the host's request function runs: cancelling the call from there
                // withdraws it (onCancel), and the wait ends.
                host.ask(argument, issued: { waiting.request = $0 }, fulfil: { waiting.resume(.success($0)) },
                         unanswered: { waiting.resume(.failure(CancellationError())) })
            }
        } onCancel: { [host] in
            // Cancellation comes from the loop's own work (mvvm_cancel, a release): the request
            // is withdrawn there, which resumes the wait.
            host.owner?.context.loop.perform { waiting.request?.close(answering: nil) }
        }
    }

    /// Asks the host and waits for its answer as a `R`: the answer is accepted by `R`'s type as any
    /// value a host passes is (an array of maps for an array of records...). Throws an
    /// `ExportFailure` naming what is wrong when the answer is not one, `CancellationError` as
    /// ``ask(_:)`` does.
    public func ask<R: ExportableValue>(_ argument: MVVMValue, as _: R.Type) async throws -> R {
        let answer = try await ask(argument)
        do throws(ExportError) {
            guard let made = R(exportedValue: try R.exportedShape.accept(answer, "the answer")) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "the answer cannot be \(withArticle(String(describing: R.self)))")
            }
            return made
        } catch {
            throw ExportFailure("the host's service answered what is not \(withArticle(R.exportedShape.name)): \(error.message)")
        }
    }

    /// One `ask`'s wait, resumed once. Touched only on the view model's loop.
    private final class WaitingAnswer: @unchecked Sendable {
        var continuation: CheckedContinuation<MVVMValue, Error>?
        var request: Request?

        func resume(_ result: Result<MVVMValue, Error>) {
            let waiting = continuation
            continuation = nil
            request = nil
            waiting?.resume(with: result)
        }
    }
}
