// The catalog's constructors: each makes its model or view model on the loop's work lock and
// registers it under a new handle.
import CMVVM
import MVVMModels
import MVVMRuntime
import MVVMViewModels

/// Runs a constructor on `loop` and writes the new object's handle to `out`.
func construct(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?,
               _ make: (LoopContext) throws(ExportError) -> ExportedObject) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let context = try resolveLoop(loop)
        write(try context.operation { () throws(ExportError) -> mvvm_handle in try make(context).handle }, to: out)
    }
}

/// The model a view model is built over: of one of `classes`, and on the same loop.
func model(_ handle: mvvm_handle, of classes: [ExportedClass], on context: LoopContext) throws(ExportError) -> ExportedObject {
    let object = try resolveObject(handle, "the model")
    guard classes.contains(where: { $0 === object.exportedClass }) else {
        throw ExportError(MVVM_ERR_WRONG_TYPE, "the model \(HandleTable.describe(handle)) is a "
                          + "\(object.exportedClass.name.string), not a \(classes.map(\.name.string).joined(separator: " or "))")
    }
    guard object.context === context else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "the model \(HandleTable.describe(handle)) lives on another loop")
    }
    guard !object.isReleased else { throw ExportError(MVVM_ERR_INVALID_HANDLE, "the model was released") }
    return object
}

/// Constructs a view model over a host service; the service's destroy function runs once,
/// when the view model is released, or now if construction fails.
func constructWithService(_ loop: mvvm_handle, _ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?,
                          _ destroy: mvvm_destroy_fn?, _ out: UnsafeMutablePointer<mvvm_handle>?,
                          _ make: @escaping (LoopContext, HostService) -> ExportedObject) -> mvvm_status {
    guard let request else {
        destroy?(userData)
        return exporting { () throws(ExportError) in throw .nullPointer("request_fn") }
    }
    let host = HostService(requestFunction: request, userData: userData, destroy: destroy)
    let status = construct(loop, out) { context in
        let object = make(context, host)
        host.owner = object
        object.addCleanup { host.end() }
        return object
    }
    if status != MVVM_OK { host.end() }
    return status
}

@_cdecl("mvvm_count_down_timer_new")
public func mvvm_count_down_timer_new(_ loop: mvvm_handle, _ fullCount: Int64, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { context throws(ExportError) in
        guard fullCount >= 1, fullCount <= Int64(Int32.max) else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "full_count must be from 1 to \(Int32.max), got \(fullCount)")
        }
        return ExportedObject.register(Catalog.countDownTimer, target: CountDownTimer(loop: context.loop, fullCount: Int(fullCount)),
                                       context: context)
    }
}

@_cdecl("mvvm_timer_view_model_new")
public func mvvm_timer_view_model_new(_ loop: mvvm_handle, _ timer: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { context throws(ExportError) in
        let timer = try model(timer, of: [Catalog.countDownTimer], on: context)
        let viewModel = TimerViewModel(loop: context.loop, timer: timer.target as! CountDownTimer)
        return ExportedObject.register(Catalog.timerViewModel, target: viewModel, context: context, keepAlive: [timer.target])
    }
}

@_cdecl("mvvm_stop_watch_new")
public func mvvm_stop_watch_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.stopWatch, target: StopWatch(loop: $0.loop), context: $0) }
}

@_cdecl("mvvm_stop_watch_view_model_new")
public func mvvm_stop_watch_view_model_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) {
        ExportedObject.register(Catalog.stopWatchViewModel, target: StopWatchViewModel(loop: $0.loop), context: $0)
    }
}

@_cdecl("mvvm_input_echo_view_model_new")
public func mvvm_input_echo_view_model_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.inputEchoViewModel, target: InputEchoViewModel(), context: $0) }
}

@_cdecl("mvvm_sign_up_view_model_new")
public func mvvm_sign_up_view_model_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.signUpViewModel, target: SignUpViewModel(), context: $0) }
}

@_cdecl("mvvm_sign_up_view_model_new_with_service")
public func mvvm_sign_up_view_model_new_with_service(_ loop: mvvm_handle, _ request: mvvm_request_fn?,
                                                     _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                                                     _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    constructWithService(loop, request, userData, destroy, out) { context, host in
        ExportedObject.register(Catalog.signUpViewModel, target: SignUpViewModel(service: HostSignUpService(host: host)),
                                context: context)
    }
}

@_cdecl("mvvm_welcome_view_model_new")
public func mvvm_welcome_view_model_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { context in
        ExportedObject.register(Catalog.welcomeViewModel,
                                target: WelcomeScreen(viewModel: WelcomeViewModel(api: BuiltInWelcomeAPI(loop: context.loop))),
                                context: context)
    }
}

@_cdecl("mvvm_welcome_view_model_new_with_api")
public func mvvm_welcome_view_model_new_with_api(_ loop: mvvm_handle, _ request: mvvm_request_fn?,
                                                 _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                                                 _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    constructWithService(loop, request, userData, destroy, out) { context, host in
        ExportedObject.register(Catalog.welcomeViewModel,
                                target: WelcomeScreen(viewModel: WelcomeViewModel(api: HostWelcomeAPI(host: host))),
                                context: context)
    }
}

@_cdecl("mvvm_counter_new")
public func mvvm_counter_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.counter, target: Counter(), context: $0) }
}

@_cdecl("mvvm_random_counter_new")
public func mvvm_random_counter_new(_ loop: mvvm_handle, _ seed: UInt64, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.randomCounter, target: RandomCounter(seed: seed), context: $0) }
}

@_cdecl("mvvm_counter_view_model_new")
public func mvvm_counter_view_model_new(_ loop: mvvm_handle, _ counter: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { context throws(ExportError) in
        let counter = try model(counter, of: [Catalog.counter, Catalog.randomCounter], on: context)
        return ExportedObject.register(Catalog.counterViewModel, target: CounterViewModel(model: counter.target as! any Countable),
                                       context: context, keepAlive: [counter.target])
    }
}

@_cdecl("mvvm_counter_page_view_model_new")
public func mvvm_counter_page_view_model_new(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) { ExportedObject.register(Catalog.counterPageViewModel, target: CounterPageViewModel(), context: $0) }
}

@_cdecl("mvvm_counter_page_view_model_new_with_seed")
public func mvvm_counter_page_view_model_new_with_seed(_ loop: mvvm_handle, _ seed: UInt64,
                                                       _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    construct(loop, out) {
        ExportedObject.register(Catalog.counterPageViewModel, target: CounterPageViewModel(seed: seed), context: $0)
    }
}
