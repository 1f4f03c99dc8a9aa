// The generic C entry points of include/mvvm.h. Each is a thin shell: resolve the handles,
// run the work on the object's loop, turn a thrown ExportError into a status.
import CMVVM
import CMVVMSystem
import Glibc
import MVVMRuntime

private let table = HandleTable.shared

// MARK: - Library

// Interned once and never freed: safe to share.
nonisolated(unsafe) private let versionString = CString.intern("\(MVVM_VERSION_MAJOR).\(MVVM_VERSION_MINOR).\(MVVM_VERSION_PATCH)")

@_cdecl("mvvm_version")
public func mvvm_version() -> UnsafePointer<CChar> { versionString }

@_cdecl("mvvm_library_tag")
public func mvvm_library_tag() -> UInt8 { libmvvm_own_tag() }

@_cdecl("mvvm_last_error")
public func mvvm_last_error() -> UnsafePointer<CChar> { LastError.current }

@_cdecl("mvvm_status_name")
public func mvvm_status_name(_ status: mvvm_status) -> UnsafePointer<CChar> {
    mvvm_status.names[status.rawValue] ?? mvvm_status.unknownName
}

@_cdecl("mvvm_string_free")
public func mvvm_string_free(_ string: UnsafeMutablePointer<CChar>?) { free(string) }

// MARK: - Helpers

@inline(__always)
func write<T>(_ value: T, to out: UnsafeMutablePointer<T>?) { out!.pointee = value }

@inline(__always)
func requireOut<T>(_ out: UnsafeMutablePointer<T>?, _ what: String = "out") throws(ExportError) {
    guard out != nil else { throw .nullPointer(what) }
}

func resolveLoop(_ handle: mvvm_handle) throws(ExportError) -> LoopContext {
    try table.resolve(handle, as: LoopContext.self, expecting: .loop, "the loop")
}

func resolveObject(_ handle: mvvm_handle, _ role: String = "the object") throws(ExportError) -> ExportedObject {
    try table.resolve(handle, as: ExportedObject.self, expecting: .object, role)
}

/// Runs `body` on the object's loop, as one operation whose changes are announced before it
/// returns; the typed calls also name the class the object must be of. A `reading` body changes
/// nothing, so it works even where host calls are nested as deep as they may go.
func withObject<T>(_ handle: mvvm_handle, of expected: ExportedClass? = nil, reading: Bool = false,
                   _ body: (ExportedObject) throws(ExportError) -> T) throws(ExportError) -> T {
    try withObjectInlined(handle, of: expected, reading: reading, body)
}

/// `withObject`, inlined where that measured lower: the typed setter and the getters by name
/// (≈ 45 instructions less each); elsewhere inlining it measured higher (the typed getter's by
/// 160: the optimiser then left more of its own path out of line).
@inline(__always)
func withObjectInlined<T>(_ handle: mvvm_handle, of expected: ExportedClass? = nil, reading: Bool = false,
                          _ body: (ExportedObject) throws(ExportError) -> T) throws(ExportError) -> T {
    let object = try resolveObject(handle)
    if object.isMainActor { try object.requireMainActorThread() }
    if let expected, object.exportedClass !== expected {
        throw ExportError(MVVM_ERR_WRONG_TYPE,
                          "\(HandleTable.describe(handle)) is \(withArticle(object.exportedClass.name.string)), "
                          + "not \(withArticle(expected.name.string))")
    }
    // Borrowed from the object, which holds its context for good: no reference counting
    // around the operation.
    return try Borrowed(object.context).use { context throws(ExportError) -> T in
        try context.operation(reading: reading) { () throws(ExportError) -> T in
            guard !object.isReleased else {
                throw ExportError(MVVM_ERR_INVALID_HANDLE, "\(HandleTable.describe(handle)) was released")
            }
            return try body(object)
        }
    }
}

func loopError(_ error: LoopError) -> ExportError {
    switch error {
    case .wrongKind: return ExportError(MVVM_ERR_WRONG_LOOP_KIND, error.description)
    case .reentrantDispatch, .negativeDuration, .beyondTimeLimit: return ExportError(MVVM_ERR_INVALID_ARGUMENT, error.description)
    case .stopped: return ExportError(MVVM_ERR_LOOP_RELEASED, error.description)
    case .system: return ExportError(MVVM_ERR_INTERNAL, error.description)
    case .notOnMainThread, .mainLoopExists: return ExportError(MVVM_ERR_INVALID_ARGUMENT, error.description)
    case .wrongThread: return ExportError(MVVM_ERR_WRONG_THREAD, error.description)
    }
}

/// Runs `body`, which gives the host's user data to what it makes; when it fails, nothing will
/// hold the user data, and its destroy function runs now.
func destroyingOnFailure(_ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                         _ body: () throws(ExportError) -> Void) throws(ExportError) {
    do throws(ExportError) {
        try refuseUntaggedCopy()
        try body()
    } catch {
        destroy?(userData)
        throw error
    }
}

/// Runs a loop call; the loop's work announces its own changes, turn by turn.
func withLoop<T>(_ handle: mvvm_handle, _ body: (Loop) throws(LoopError) -> T) throws(ExportError) -> T {
    let context = try resolveLoop(handle)
    do {
        return try body(context.loop)
    } catch {
        throw loopError(error)
    }
}

// MARK: - Loops

@_cdecl("mvvm_loop_new")
public func mvvm_loop_new(_ kind: mvvm_loop_kind, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        guard let loopKind = LoopKind(rawValue: Int32(bitPattern: kind.rawValue)) else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "unknown loop kind \(kind.rawValue)")
        }
        let loop: Loop
        do throws(LoopError) { loop = try Loop(kind: loopKind) } catch { throw loopError(error) }
        write(table.insert(LoopContext(loop: loop)), to: out)
    }
}

@_cdecl("mvvm_loop_fd")
public func mvvm_loop_fd(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<Int32>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withLoop(loop) { loop throws(LoopError) in try loop.fileDescriptor }, to: out)
    }
}

@_cdecl("mvvm_loop_dispatch")
public func mvvm_loop_dispatch(_ loop: mvvm_handle, _ ranOrNull: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let ran = try withLoop(loop) { loop throws(LoopError) in try loop.dispatch() }
        ranOrNull?.pointee = Int64(ran)
    }
}

@_cdecl("mvvm_loop_next_timeout_ms")
public func mvvm_loop_next_timeout_ms(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withLoop(loop) { $0.nextTimeoutMilliseconds } ?? -1, to: out)
    }
}

@_cdecl("mvvm_loop_run_for")
public func mvvm_loop_run_for(_ loop: mvvm_handle, _ ms: Int64) -> mvvm_status {
    exporting { () throws(ExportError) in
        _ = try withLoop(loop) { loop throws(LoopError) in try loop.run(forMilliseconds: ms) }
    }
}

@_cdecl("mvvm_loop_advance")
public func mvvm_loop_advance(_ loop: mvvm_handle, _ ms: Int64) -> mvvm_status {
    exporting { () throws(ExportError) in
        _ = try withLoop(loop) { loop throws(LoopError) in try loop.advance(byMilliseconds: ms) }
    }
}

@_cdecl("mvvm_loop_now_ms")
public func mvvm_loop_now_ms(_ loop: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withLoop(loop) { $0.now.milliseconds }, to: out)
    }
}

// MARK: - Properties

/// Inlined into every typed getter, generic and typed: the cheapest read is the one a render
/// loop makes. `type` is the kind a typed getter reads (an optional's only when it holds a
/// value).
@inline(__always)
func get(_ property: ExportedProperty, of object: ExportedObject, as type: ValueType) throws(ExportError) -> Value {
    guard property.type == type else {
        throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(object.exportedClass.name.string).\(property.name.string) is "
                          + "\(property.shape.name), not \(type.name) (mvvm_get reads any property)")
    }
    let value = property.get(object.target)
    if case .null = value {
        throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(object.exportedClass.name.string).\(property.name.string) "
                          + "holds no value (null): read it with mvvm_get")
    }
    return value
}

/// `mvvm_get`'s read: any value property, of its own type.
func getAny(_ property: ExportedProperty, of object: ExportedObject) -> Value { property.get(object.target) }

func setProperty(_ handle: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: Value) throws(ExportError) {
    try withObject(handle) { object throws(ExportError) in
        try object.exportedClass.withProperty(named: name, for: .write) { property throws(ExportError) in
            try set(property, of: object, to: value)
        }
    }
}

func set(_ property: ExportedProperty, of object: ExportedObject, to value: Value) throws(ExportError) {
    // The messages are built only on failure: this runs for every set.
    var qualified: String { "\(object.exportedClass.name.string).\(property.name.string)" }
    guard property.isWritable else { throw ExportError(MVVM_ERR_READ_ONLY, "\(qualified) is read-only") }
    // A plain scalar of the property's own kind needs no conversion, nor a copy: the usual set.
    let refusal = property.isPlainScalar && value.type == property.type
        ? property.set(object.target, value, { qualified })
        : property.set(object.target, try property.shape.accept(value, qualified), { qualified })
    if let refusal { throw ExportError(MVVM_ERR_INVALID_ARGUMENT, refusal) }
}

@_cdecl("mvvm_get_bool")
public func mvvm_get_bool(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Bool>?) -> mvvm_status {
    getTyped(object, name, .bool, out, asBool)
}

@_cdecl("mvvm_get_int")
public func mvvm_get_int(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    getTyped(object, name, .int, out, asInt)
}

@_cdecl("mvvm_get_double")
public func mvvm_get_double(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Double>?) -> mvvm_status {
    getTyped(object, name, .double, out, asDouble)
}

@_cdecl("mvvm_get_string")
public func mvvm_get_string(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?,
                            _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    getTyped(object, name, .string, out, asString)
}

@_cdecl("mvvm_get")
public func mvvm_get(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { object throws(ExportError) -> Value in
            try object.exportedClass.withProperty(named: name, for: .read(nil)) { getAny($0, of: object) }
        }.ownedCValue(), to: out)
    }
}

func getProperty(_ handle: mvvm_handle, _ name: UnsafePointer<CChar>?, _ type: ValueType) throws(ExportError) -> Value {
    try withObjectInlined(handle, reading: true) { object throws(ExportError) -> Value in
        try object.exportedClass.withProperty(named: name, for: .read(type)) { property throws(ExportError) in
            try get(property, of: object, as: type)
        }
    }
}

/// What a typed getter does: the property's value, of `type`, into `out` as `convert` makes it.
@inline(__always)
private func getTyped<T>(_ handle: mvvm_handle, _ name: UnsafePointer<CChar>?, _ type: ValueType,
                         _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        if let converted = convert(try getProperty(handle, name, type)) { write(converted, to: out) }
    }
}

@_cdecl("mvvm_set_bool")
public func mvvm_set_bool(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: Bool) -> mvvm_status {
    exporting { () throws(ExportError) in try setProperty(object, name, .bool(value)) }
}

@_cdecl("mvvm_set_int")
public func mvvm_set_int(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: Int64) -> mvvm_status {
    exporting { () throws(ExportError) in try setProperty(object, name, .int(value)) }
}

@_cdecl("mvvm_set_double")
public func mvvm_set_double(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: Double) -> mvvm_status {
    exporting { () throws(ExportError) in try setProperty(object, name, .double(value)) }
}

@_cdecl("mvvm_set_string")
public func mvvm_set_string(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> mvvm_status {
    exporting { () throws(ExportError) in try setProperty(object, name, .string(try CString.read(value, "value"))) }
}

@_cdecl("mvvm_set")
public func mvvm_set(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        guard let value else { throw .nullPointer("value") }
        try setProperty(object, name, try Value(reading: value, "value"))
    }
}

// MARK: - Commands, children, description

/// Runs `command` on `object` with `given` arguments: bound and accepted, then run as one
/// operation whose changes are announced even when the command fails.
func call(_ command: ExportedCommand, on object: ExportedObject, _ given: GivenArguments) throws(ExportError) -> Value {
    let name = CallName(owner: object.exportedClass.name, member: command.name)
    guard !command.isAsync else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(name.text) is asynchronous: start it with mvvm_call_async")
    }
    let values = try given.bind(to: command.arguments, of: name).values()
    do throws(CommandFailure) {
        return try command.run(object.target, CallArguments(name: name, values: values))
    } catch {
        throw error.exportError(name)
    }
}

/// `mvvm_send`'s one argument (none when NULL or MVVM_TYPE_NONE).
private func sendArguments(_ argument: Value) -> GivenArguments {
    argument == .none ? GivenArguments([]) : GivenArguments([argument])
}

@_cdecl("mvvm_send")
public func mvvm_send(_ object: mvvm_handle, _ command: UnsafePointer<CChar>?, _ argument: UnsafePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let value = try argument.map { value throws(ExportError) in try Value(reading: value, "argument") } ?? .none
        try withObject(object) { object throws(ExportError) in
            let command = try object.exportedClass.command(named: command)
            // One argument or none: a missing or unwanted one is a type mismatch, as it always was.
            if command.arguments.count > 1 {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(object.exportedClass.name.string).\(command.name.string) "
                                  + "takes \(command.arguments.count) arguments: call it with mvvm_call")
            }
            let wanted = command.arguments.first?.shape
            if (wanted == nil) != (value == .none), !(wanted?.isOptional ?? false) {
                throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(object.exportedClass.name.string).\(command.name.string) "
                                  + "takes \(wanted.map { "an argument of type \($0.name)" } ?? "no argument"), "
                                  + "not \(value.type.name)")
            }
            _ = try call(command, on: object, sendArguments(value))
        }
    }
}

@_cdecl("mvvm_call_named")
public func mvvm_call_named(_ object: mvvm_handle, _ command: UnsafePointer<CChar>?,
                            _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ arguments: UnsafePointer<mvvm_value>?,
                            _ count: UInt, _ result: UnsafeMutablePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let given = try GivenArguments(reading: arguments, names: names, count: count)
        let value = try withObject(object) { object throws(ExportError) -> Value in
            try call(try object.exportedClass.command(named: command), on: object, given)
        }
        result?.pointee = value.ownedCValue()
    }
}

/// `mvvm_call_named` with every argument positional.
@_cdecl("mvvm_call")
public func mvvm_call(_ object: mvvm_handle, _ command: UnsafePointer<CChar>?, _ arguments: UnsafePointer<mvvm_value>?,
                      _ count: UInt, _ result: UnsafeMutablePointer<mvvm_value>?) -> mvvm_status {
    mvvm_call_named(object, command, nil, arguments, count, result)
}

func child(_ handle: mvvm_handle, _ name: UnsafePointer<CChar>?) throws(ExportError) -> mvvm_handle {
    try withObject(handle) { object throws(ExportError) -> mvvm_handle in
        try make(try object.exportedClass.child(named: name), of: object)
    }
}

func make(_ child: ExportedChild, of object: ExportedObject) throws(ExportError) -> mvvm_handle {
    guard let childClass = Registry.shared.exportedClass(for: child.childType) else {
        throw ExportError(MVVM_ERR_INTERNAL, "\(object.exportedClass.name.string).\(child.name.string) is "
                          + "\(withArticle(child.childTypeName)), which no package registers")
    }
    return ExportedObject.register(childClass, target: child.make(object.target),
                                   context: object.context, keepAlive: [object.target]).handle
}

@_cdecl("mvvm_child")
public func mvvm_child(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try child(object, name), to: out)
    }
}

nonisolated(unsafe) private let staticKindNames: [HandleKind: UnsafePointer<CChar>] = [
    .loop: CString.intern("loop"), .subscription: CString.intern("subscription"), .request: CString.intern("request"),
    .service: CString.intern("service"), .call: CString.intern("call"),
]

@_cdecl("mvvm_class_name")
public func mvvm_class_name(_ handle: mvvm_handle, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        if HandleTable.isForeign(handle) { throw HandleTable.foreign(handle, "the handle") }
        guard handle != 0, let target = table.lookup(handle) else {
            throw ExportError(MVVM_ERR_INVALID_HANDLE, "\(HandleTable.describe(handle)) is not a live handle")
        }
        write((target as? ExportedObject)?.exportedClass.name.pointer ?? staticKindNames[target.kind], to: out)
    }
}

@_cdecl("mvvm_describe")
public func mvvm_describe(_ object: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(CString.copy(try withObject(object, reading: true) { $0.exportedClass.descriptionJSON(constructor: $0.constructor) }), to: out)
    }
}

@_cdecl("mvvm_snapshot")
public func mvvm_snapshot(_ object: mvvm_handle, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(CString.copy(try withObject(object, reading: true) { $0.snapshotJSON }), to: out)
    }
}

// MARK: - Release, subscriptions, requests

@_cdecl("mvvm_release")
public func mvvm_release(_ handle: mvvm_handle) -> mvvm_status {
    exporting { () throws(ExportError) in
        if HandleTable.isForeign(handle) { throw HandleTable.foreign(handle, "the handle") }
        // Decided here, under the table's lock: of two threads releasing one handle at once
        // (or releasing and cancelling, unsubscribing, answering it), exactly one wins.
        guard handle != 0, let target = table.claim(handle) else {
            throw ExportError(MVVM_ERR_INVALID_HANDLE, "\(HandleTable.describe(handle)) is not a live handle "
                              + "(released already, ended, stale or never issued)")
        }
        // Inherited by a fork's child: only forgotten, with no callback and no destroy function
        // run, since the thread that may have been changing it is not in the child.
        if target.owningContext?.loop.isInheritedAcrossFork ?? false {
            table.remove(handle, abandoning: true)
            return
        }
        try target.releaseHandle()
    }
}

/// Ends a subscription the caller claimed (`HandleTable.claim`).
func unsubscribe(_ subscription: Subscription) throws(ExportError) {
    if subscription.object.context.loop.isInheritedAcrossFork {
        HandleTable.shared.remove(subscription.handle, abandoning: true)
        return
    }
    let object = subscription.object
    // A main-actor object's subscription ends on the main loop's thread: its handle now.
    if object.exportedClass.isMainActor && !object.context.loop.isOnMainActorThread {
        guard HandleTable.shared.remove(subscription.handle) else { return }
        subscription.stopDelivering()
        object.context.awaitCallbacksBegun()
        return object.context.loop.schedule { object.unsubscribe(subscription) }
    }
    object.context.loop.perform { object.unsubscribe(subscription) }
}

@_cdecl("mvvm_subscribe")
public func mvvm_subscribe(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ callback: mvvm_callback?,
                           _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                           _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting(checkingCopy: false) { () throws(ExportError) in
        guard let callback else { throw .nullPointer("callback") }
        try destroyingOnFailure(userData, destroy) { () throws(ExportError) in
            try requireOut(out)
            let handle = try withObject(object) { object throws(ExportError) -> mvvm_handle in
                let selector = try name.map { name throws(ExportError) in try object.exportedClass.selector(named: name) }
                let subscription = Subscription(object: object, selector: selector, callback: callback, userData: userData,
                                                destroy: destroy)
                _ = table.insert(subscription)
                object.subscribe(subscription)
                return subscription.handle
            }
            write(handle, to: out)
        }
    }
}

@_cdecl("mvvm_unsubscribe")
public func mvvm_unsubscribe(_ subscription: mvvm_handle) -> mvvm_status {
    exporting { () throws(ExportError) in
        let resolved = try table.resolve(subscription, as: Subscription.self, expecting: .subscription, "the subscription")
        // One winner, as for mvvm_release.
        guard table.claim(resolved) else {
            throw ExportError(MVVM_ERR_INVALID_HANDLE, "the subscription \(HandleTable.describe(subscription)) has ended")
        }
        try unsubscribe(resolved)
    }
}

/// What `mvvm_complete` and `mvvm_complete_soon` check before answering: an open request of a
/// live view model, and a result of the type it expects. Whether it is still open is checked
/// again on the loop, where it is answered.
private func answerable(_ request: mvvm_handle, _ result: UnsafePointer<mvvm_value>?) throws(ExportError)
    -> (request: Request, owner: ExportedObject, value: Value) {
    // A request handle issued once and closed since is answered, cancelled or abandoned; one
    // never issued (forged) is an invalid handle, as for any other call.
    let open: Request
    do throws(ExportError) {
        open = try table.resolve(request, as: Request.self, expecting: .request, "the request")
    } catch {
        // Released between issue and now (answered, cancelled, its view model released, even by
        // another thread this very moment): checked after the look-up failed, so a race with
        // the release still finds it released.
        if error.status == MVVM_ERR_INVALID_HANDLE, request != 0, HandleTable.kind(of: request) == .request,
           !HandleTable.isForeign(request), table.wasReleased(request) { throw unknownRequest(request) }
        throw error
    }
    guard let result else { throw .nullPointer("result") }
    let value = try Value(reading: result, "result")
    guard value.type == open.resultType else {
        throw ExportError(MVVM_ERR_TYPE_MISMATCH, "the request expects \(withArticle(open.resultType.name)) result, "
                          + "not \(value.type.name)")
    }
    guard let owner = open.service.owner else { throw unknownRequest(request) }
    return (open, owner, value)
}

private func unknownRequest(_ request: mvvm_handle) -> ExportError {
    ExportError(MVVM_ERR_UNKNOWN_REQUEST, "request \(HandleTable.describe(request)) was answered "
                + "already, cancelled, or its view model was released")
}

@_cdecl("mvvm_complete")
public func mvvm_complete(_ request: mvvm_handle, _ result: UnsafePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let (open, owner, value) = try answerable(request, result)
        try owner.context.operation { () throws(ExportError) in
            // Claimed as a release claims it: a request both answered and released at once is
            // one or the other.
            guard open.isOpen, !open.isAnswerScheduled, !owner.isReleased, table.claim(open) else {
                throw unknownRequest(request)
            }
            // A task waiting for the answer (HostRequester.ask) resumes now, in this call.
            owner.context.loop.executor.runningInline { open.close(answering: value) }
        }
    }
}

@_cdecl("mvvm_complete_soon")
public func mvvm_complete_soon(_ request: mvvm_handle, _ result: UnsafePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let (open, owner, value) = try answerable(request, result)
        try owner.context.operation(reading: true) { () throws(ExportError) in
            guard open.isOpen, !open.isAnswerScheduled, !owner.isReleased, !table.isClaimed(open) else {
                throw unknownRequest(request)
            }
            open.isAnswerScheduled = true
        }
        // Work of the loop: it runs on the loop's thread (a thread loop), at the next dispatch or
        // run_for (manual) or advance (virtual), and the turn announces what the answer changed.
        owner.context.loop.schedule {
            // Cancelled (released) meanwhile: nothing to answer.
            guard open.isOpen, !owner.isReleased, table.claim(open) else { return }
            owner.context.loop.executor.runningInline { open.close(answering: value) }
        }
    }
}
