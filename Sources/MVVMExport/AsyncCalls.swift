// Asynchronous commands: a Swift `async` command runs as a task on its object's loop (the loop
// is its executor), starting in the call up to its first suspension; the host hears its end
// through a completion callback, exactly once, after the changes of the operation or turn that
// ended it are announced. Cancelled by the host, or by the release of its object or loop.
import CMVVM
import MVVMRuntime

/// One asynchronous call of a command: the host's completion, and the task that runs it.
final class AsyncCall: ObjectCallback, @unchecked Sendable {
    let name: CallName
    private let done: mvvm_done_fn
    var task: Task<Void, Never>?
    /// Set once: how it ended, until the completion is delivered.
    private(set) var outcome: Result<Value, ExportError>?
    private(set) var isDelivered = false

    init(object: ExportedObject, name: CallName, done: @escaping mvvm_done_fn, userData: UnsafeMutableRawPointer?,
         destroy: mvvm_destroy_fn?) {
        self.name = name
        self.done = done
        super.init(kind: .call, object: object, userData: userData, destroy: destroy)
    }

    override func releaseHandle() throws(ExportError) {
        // A main-actor object's call ends on the main loop's thread, as mvvm_cancel's does.
        if object.isMainActor && !object.context.loop.isOnMainActorThread {
            return object.context.loop.schedule { [self] in cancel("its handle was released") }
        }
        try object.context.loop.perform { () throws(ExportError) in
            try requireUndecided()
            cancel("its handle was released")
        }
    }

    /// For a cancel or release that claimed the call, once it holds the loop: the release of the
    /// call's object or loop, which ends its calls without claiming them, may have decided the
    /// outcome (and run the completion, on its own thread) while this waited for the loop. Then
    /// the call has ended, as for a call that ended first.
    func requireUndecided() throws(ExportError) {
        guard outcome != nil else { return }
        throw ExportError(MVVM_ERR_INVALID_HANDLE, "the call \(HandleTable.describe(handle)) has ended: the release "
                          + "of its object or loop cancelled it first")
    }

    /// Records how the call ended (the first end only) and has its completion delivered once
    /// the operation or turn's changes are announced. On its loop. Its end is claimed as a
    /// cancel claims it: a cancel that claimed it first (on another thread, waiting for the
    /// loop) decides the outcome instead, and one that comes after finds it ended.
    func finish(_ result: Result<Value, ExportError>) {
        guard outcome == nil, HandleTable.shared.claim(self) else { return }
        outcome = result
        object.context.completed(self)
    }

    /// Ends it as cancelled: the task is told (a sleep or a wait for the host ends), and the
    /// completion runs now (`now`: the object or its loop is going) or at the end of the
    /// operation, once what the task's unwinding changed is announced.
    func cancel(_ why: String, now: Bool = true) {
        guard !isDelivered else { return }
        if outcome == nil {
            outcome = .failure(ExportError(MVVM_ERR_CANCELLED, "\(name.text) was cancelled: \(why)"))
            if !now { object.context.completed(self) }
        }
        task?.cancel()
        if now { deliver() }
    }

    /// A call that could not start: forgotten, with neither its completion nor its destroy
    /// function run (the caller runs the latter).
    func abandon() {
        isDelivered = true
        dropDestroy()
        HandleTable.shared.remove(handle)
        object.forget(self)
    }

    /// Calls the host's completion and then its destroy function, each once; the handle goes
    /// first, so that cancelling it from the completion gives INVALID_HANDLE.
    func deliver() {
        guard !isDelivered, let outcome else { return }
        isDelivered = true
        HandleTable.shared.remove(handle)
        object.forget(self)
        let (status, value, message): (mvvm_status, Value, String) = switch outcome {
        case let .success(value): (MVVM_OK, value, "")
        case let .failure(error): (error.status, .none, error.message)
        }
        object.context.callingHost {
            value.withCValue { cValue in
                var cValue = cValue
                message.withCString { done(handle, status, &cValue, $0, userData) }
            }
        }
        runDestroy()
    }
}

/// Lets a value that only the loop's work touches cross into the task that runs on the loop.
struct LoopConfined<T>: @unchecked Sendable {
    let value: T
}

/// Starts `command` as an asynchronous call: on the object's loop, run up to its first
/// suspension now; its completion is delivered when it ends.
func callAsync(_ command: ExportedCommand, on object: ExportedObject, _ given: GivenArguments, _ call: AsyncCall)
    throws(ExportError) {
    let values = try given.bind(to: command.arguments, of: call.name).values()
    let arguments = CallArguments(name: call.name, values: values)
    if let start = command.start {
        // Its arguments as their Swift types first: one refused refuses the call, as a value
        // of the wrong kind does, and nothing of it runs.
        let body = try start(object.target, arguments)
        object.remember(call)
        let executor = object.context.loop.executor
        let work = LoopConfined(value: body)
        // The task is the call's before its first job runs: a cancel from the host code that job
        // calls (a request function) must reach it.
        executor.startingInline { () -> Task<Void, Never> in
            Task(executorPreference: executor) { [work, call] in
                do throws(CommandFailure) {
                    let result = try await work.value()
                    call.finish(.success(result))
                } catch {
                    call.finish(.failure(Task.isCancelled
                        ? ExportError(MVVM_ERR_CANCELLED, "\(call.name.text) was cancelled")
                        : error.exportError(call.name)))
                }
            }
        } started: { call.task = $0 }
        // A main-actor command's body runs on the main actor: the task's first job is on the
        // main queue, which runs now, so the command reaches its first suspension in this call.
        if object.exportedClass.isMainActor { object.context.loop.drainMainQueue() }
    } else {
        object.remember(call)
        // A command that is not async ends in the call, as mvvm_call would run it.
        do throws(CommandFailure) {
            call.finish(.success(try command.run(object.target, arguments)))
        } catch {
            call.finish(.failure(error.exportError(call.name)))
        }
    }
}

/// Makes the call and starts it; its handle is the host's (in `out`) before the call can end,
/// which it may do at once. Its destroy function is the caller's to run when this throws, and
/// `out` then holds what it held before (a failed call leaves its out-pointers untouched).
func startCall(_ command: ExportedCommand, on object: ExportedObject, _ given: GivenArguments, _ done: @escaping mvvm_done_fn,
               _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
               _ out: UnsafeMutablePointer<mvvm_handle>) throws(ExportError) {
    let call = AsyncCall(object: object, name: CallName(owner: object.exportedClass.name, member: command.name),
                         done: done, userData: userData, destroy: destroy)
    let before = out.pointee
    out.pointee = HandleTable.shared.insert(call)
    do throws(ExportError) {
        try callAsync(command, on: object, given, call)
    } catch {
        // Never started: nothing of it runs, and its destroy function is the caller's.
        call.abandon()
        out.pointee = before
        throw error
    }
}

// MARK: - C entry points

@_cdecl("mvvm_call_async")
public func mvvm_call_async(_ object: mvvm_handle, _ command: UnsafePointer<CChar>?,
                            _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ arguments: UnsafePointer<mvvm_value>?,
                            _ count: UInt, _ done: mvvm_done_fn?, _ userData: UnsafeMutableRawPointer?,
                            _ destroy: mvvm_destroy_fn?, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting(checkingCopy: false) { () throws(ExportError) in
        guard let done else { throw .nullPointer("done") }
        try destroyingOnFailure(userData, destroy) { () throws(ExportError) in
            try requireOut(out)
            let given = try GivenArguments(reading: arguments, names: names, count: count)
            try withObject(object) { object throws(ExportError) in
                try startCall(try object.exportedClass.command(named: command), on: object, given, done, userData,
                              destroy, out!)
            }
        }
    }
}

@_cdecl("mvvm_cancel")
public func mvvm_cancel(_ call: mvvm_handle) -> mvvm_status {
    exporting { () throws(ExportError) in
        let handle = call
        let call = try HandleTable.shared.resolve(call, as: AsyncCall.self, expecting: .call, "the call")
        // Decided here, under the table's lock: the cancel wins (the completion reports
        // CANCELLED) unless the call ended first (`finish` claimed it) or another cancel or
        // release won.
        guard HandleTable.shared.claim(call) else {
            throw ExportError(MVVM_ERR_INVALID_HANDLE, "the call \(HandleTable.describe(handle)) has ended (its completion "
                              + "runs or ran) or was cancelled already")
        }
        // A main-actor object's call is cancelled on the main loop's thread, at its next
        // dispatch, as its release is (the cancel is decided now): its task unwinds there and
        // its completion, CANCELLED, runs there. Should the loop be released first, that release
        // ends the call instead.
        let context = call.object.context
        if call.object.isMainActor && !context.loop.isOnMainActorThread {
            return context.loop.schedule {
                context.loop.executor.runningInline { call.cancel("by mvvm_cancel", now: false) }
            }
        }
        // Should the loop be released before this runs, that release cancels the call
        // (LOOP_RELEASED). An operation: the task unwinds in this call (its `defer`s run), and its changes are
        // announced before the completion.
        try call.object.context.operation { () throws(ExportError) in
            try call.requireUndecided()
            call.object.context.loop.executor.runningInline { call.cancel("by mvvm_cancel", now: false) }
        }
    }
}
