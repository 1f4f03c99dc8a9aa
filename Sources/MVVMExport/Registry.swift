// The registry of exported classes, and the generic C entry points over it: mvvm_classes,
// mvvm_new, mvvm_service_new.
import CMVVM
import CMVVMSystem
import Glibc
import MVVMRuntime
import Synchronization

/// Registers the classes and records a package exports. Call ``register(_:as:display:doc:_:)`` once per
/// class and ``record(_:as:display:doc:)`` once per record from the package's registration function
/// (`@_cdecl("libmvvm_register_package")`), which the library runs before its first look-up; a
/// Swift program may also call them directly.
///
/// Registration is checked as a whole (``validate()``): names that are C identifiers, each class,
/// record and member named once, every class and record a member names registered. A library
/// whose registration breaks a rule serves nothing: every call that needs its classes fails with
/// MVVM_ERR_BAD_REGISTRATION, its message naming each problem, and the problems are written to
/// standard error once.
/// Where a registered class's members may run (``Exports/register(_:as:doc:isolation:_:)``).
public enum ExportIsolation: Sendable {
    /// The main actor: a `@MainActor` class.
    case mainActor
}

public enum Exports {
    /// Exports `type` under `name` (by default its Swift name in snake case:
    /// `TodoListViewModel` → `todo_list_view_model`), shown by every binding as `display` (by
    /// default the CamelCase of `name`: `TodoListViewModel`), described by `build`.
    public static func register<Target: AnyObject>(_ type: Target.Type, as name: String? = nil, display: String? = nil,
                                                   doc: String = "", _ build: (inout ExportBuilder<Target>) -> Void) {
        let swiftName = String(describing: type)
        var builder = ExportBuilder<Target>(name: name ?? snakeCase(swiftName), display: display, swiftName: swiftName,
                                            doc: doc)
        build(&builder)
        Registry.shared.add(ExportedClass(builder))
    }

    /// Exports the record `type` under `name` (by default its Swift name in snake case), shown as
    /// `display` (by default the CamelCase of `name`), its fields learnt from its `Codable`
    /// conformance (see ``ExportableRecord``).
    public static func record<R: ExportableRecord>(_ type: R.Type, as name: String? = nil, display: String? = nil,
                                                   doc: String = "") {
        record(type, as: name, display: display, doc: doc, into: .shared)
    }

    static func record<R: ExportableRecord>(_ type: R.Type, as name: String?, display: String? = nil, doc: String,
                                            into registry: Registry) {
        let recordName = name ?? snakeCase(String(describing: type))
        switch RecordDescription.probe(type) {
        case let .success(fields):
            registry.add(RecordDescription(name: recordName, display: display, type: type, doc: doc, fields: fields))
        case let .failure(failure):
            registry.refuse("record \(recordName) (\(String(describing: type))): \(failure.description)",
                            record: ObjectIdentifier(type))
        }
    }

    /// Exports a `@MainActor` class, its members declared as for any class with the class's
    /// own code untouched: `build` is main-actor isolated, so its closures
    /// (`c.output("votes") { $0.votes }`, `c.command("vote") { $0.vote() }`, the constructor's)
    /// and key paths may touch the class's members. The registration itself stays nonisolated
    /// (the package's hook runs on whichever thread first needs the classes); the library keeps
    /// the promise instead: such objects are made only on a loop that serves the main actor
    /// (`MVVM_LOOP_MAIN`, or a virtual loop made on the main thread), and their members are
    /// reached only on its thread (elsewhere: `MVVM_ERR_WRONG_THREAD`).
    public static func register<Target: AnyObject>(_ type: Target.Type, as name: String? = nil, display: String? = nil,
                                                   doc: String = "", isolation: ExportIsolation,
                                                   _ build: @MainActor (inout ExportBuilder<Target>) -> Void) {
        // Describing the members runs none of them: it only keeps their closures, which the
        // library calls on the main actor's thread alone. So `build` may run here, on any thread.
        typealias Build = (inout ExportBuilder<Target>) -> Void
        withoutActuallyEscaping(build) { build in
            let describe = unsafeBitCast(build, to: Build.self)
            register(type, as: name, display: display, doc: doc) { builder in
                builder.isMainActor = true
                describe(&builder)
            }
        }
    }

    /// Names the domain of the settings (`UserDefaults.standard`) the library keeps between runs,
    /// for every host of it alike: by default the library's file name without `lib` and its
    /// extension (`libexpenses.so`: "expenses"), kept in `$XDG_CONFIG_HOME/DOMAIN.plist`
    /// (`~/.config`). Call it from the package's hook, before any object is made; the values are
    /// loaded once the hook has run (docs/loops-and-threads.md, "Settings").
    public static func settings(domain: String) { Settings.domain = domain }

    /// The problems of the registration so far, each naming its class or record and member;
    /// throws when there is any. A package's own tests can call it after registering.
    public static func validate() throws(RegistrationError) {
        let problems = Registry.shared.problems
        if !problems.isEmpty { throw RegistrationError(problems: problems) }
    }

    /// The display name of a C name: `todo_list_view_model` → `TodoListViewModel`.
    public static func camelCase(_ name: String) -> String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The C name of a Swift type name: `TodoListViewModel` → `todo_list_view_model`.
    public static func snakeCase(_ name: String) -> String {
        var out = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character.isUppercase {
                let previous = index > 0 ? characters[index - 1] : nil
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if let previous, previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                    out += "_"
                }
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// Why a registration is refused: every problem, each naming its class or record and member.
public struct RegistrationError: Error, CustomStringConvertible {
    public let problems: [String]
    public var description: String {
        "the library's registration is refused (\(problems.count) problem\(problems.count == 1 ? "" : "s")): "
            + problems.joined(separator: "; ")
    }
}

/// Every exported class and record, by C name and by Swift type. Registration happens once,
/// before the first look-up (see `libmvvm_run_registrations`); the table is read-only after that.
final class Registry: @unchecked Sendable {
    static let shared = Registry()

    private let lock = PThreadLock()
    private var byName: [String: ExportedClass] = [:]
    private var byType: [ObjectIdentifier: ExportedClass] = [:]
    private var ordered: [ExportedClass] = []
    private var recordsByName: [String: RecordDescription] = [:]
    private var recordsByType: [ObjectIdentifier: RecordDescription] = [:]
    /// Problems found as things were added (a name registered twice, a record whose fields
    /// could not be learnt); the rest are found by checking the whole (`problems`).
    private var refusals: [String] = []
    /// What was refused is kept, as everything registered is: it lives as long as the library.
    private var refused: [AnyObject] = []
    /// The records refused as they were added: their one problem is in `refusals`.
    private var refusedRecords: Set<ObjectIdentifier> = []
    /// The whole registration's problems, found once after each change.
    private var checked: [String]?
    private var reported = false

    /// Runs the linked packages' registration functions, once; then loads the settings saved
    /// before (their domain may be named by a hook), before any object is made.
    private static let loaded: Void = {
        libmvvm_run_registrations()
        Settings.start()
    }()

    func add(_ exportedClass: ExportedClass) {
        add(exportedClass, "class") {
            byName[exportedClass.name.string] = exportedClass
            byType[exportedClass.swiftType] = exportedClass
            ordered.append(exportedClass)
        }
    }

    func add(_ record: RecordDescription) {
        add(record, "record") {
            recordsByName[record.name.string] = record
            recordsByType[record.swiftType] = record
        }
    }

    /// Adds a class or record with `insert`, under the lock, unless its name is taken (classes and
    /// records share one namespace); a refusal names the Swift type and module that took it, since
    /// a library may carry several packages (the catalog among them).
    private func add(_ registered: some RegisteredType, _ kind: String, _ insert: () -> Void) {
        knownSound.store(false, ordering: .releasing)
        lock.withLock {
            checked = nil
            let name = registered.name.string
            let taken: (any RegisteredType)?
            if let found = byName[name] { taken = found } else { taken = recordsByName[name] }
            if let taken {
                refusals.append("\(kind) \(name) (\(registered.swiftName)) is registered twice: a class or record "
                                + "named \(name) exists already (\(taken.swiftName) of module \(taken.swiftModule))")
                refused.append(registered)
                if registered is RecordDescription { refusedRecords.insert(registered.swiftType) }
                return
            }
            insert()
        }
    }

    /// A problem found as something was added; `record` is the record refused, if one was.
    func refuse(_ problem: String, record: ObjectIdentifier? = nil) {
        knownSound.store(false, ordering: .releasing)
        lock.withLock {
            checked = nil
            refusals.append(problem)
            if let record { refusedRecords.insert(record) }
        }
    }

    /// Every problem of the registration (empty when it is sound).
    var problems: [String] {
        lockedOnceLoaded {
            if let checked { return checked }
            var found = refusals + RegistrationCheck(classes: ordered, byType: byType, records: recordsByType,
                                                        refusedRecords: refusedRecords).problems
            if let linkedTwice = libmvvm_linked_twice() { found.insert(String(cString: linkedTwice), at: 0) }
            checked = found
            return found
        }
    }

    /// The refusal every call that needs the classes gets, when the registration is unsound;
    /// the problems go to standard error the first time.
    /// Found sound since the last registration: the usual answer, given without the lock.
    private let knownSound = Atomic<Bool>(false)

    @inline(__always)
    func requireSound() throws(ExportError) {
        if knownSound.load(ordering: .acquiring) { return }
        try checkSound()
    }

    private func checkSound() throws(ExportError) {
        let problems = self.problems
        if problems.isEmpty {
            knownSound.store(true, ordering: .releasing)
            return
        }
        let message = RegistrationError(problems: problems).description
        let first = lock.withLock { () -> Bool in
            defer { reported = true }
            return !reported
        }
        // Linked twice, the library said so when it was loaded.
        if first, libmvvm_linked_twice() == nil { writeToStandardError("libmvvm: \(message)\n") }
        throw ExportError(MVVM_ERR_BAD_REGISTRATION, message)
    }

    func exportedClass(named name: String) -> ExportedClass? { lockedOnceLoaded { byName[name] } }

    /// The class whose C name is `name`, found without making a `String` of it (no allocation,
    /// no hashing: `mvvm_new` asks on every object made): each class's interned name compared,
    /// most ruled out by their first byte.
    func exportedClass(matching name: UnsafePointer<CChar>) -> ExportedClass? {
        lockedOnceLoaded { ordered.first { $0.name.matches(name) } }
    }

    func exportedClass(for type: ObjectIdentifier) -> ExportedClass? { lockedOnceLoaded { byType[type] } }

    func record(named name: String) -> RecordDescription? { lockedOnceLoaded { recordsByName[name] } }

    func record(for type: ObjectIdentifier) -> RecordDescription? { lockedOnceLoaded { recordsByType[type] } }

    /// The record registered so far for `type`, without running the packages' registrations
    /// first: what registration itself reads (a record's placeholder, a record registered by its
    /// fields tried with it) while those run, when waiting for them would wait for itself.
    func recordRegisteredSoFar(for type: ObjectIdentifier) -> RecordDescription? {
        lock.withLock { recordsByType[type] }
    }

    func recordRegisteredSoFar(named name: String) -> RecordDescription? { lock.withLock { recordsByName[name] } }

    var classes: [ExportedClass] { lockedOnceLoaded { ordered } }

    /// `body` under the registry's lock, once the linked packages have registered. Generic as
    /// `withLock` is, so that the closure reaches it as written (no reabstraction thunk).
    @inline(__always)
    private func lockedOnceLoaded<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        _ = Self.loaded
        return try lock.withLock(body)
    }
}

/// A service the host provides (`mvvm_service_new`, or a typed constructor's request function):
/// its request function, user data and destroy function, which runs exactly once, when the last
/// view model using it and its handle (if any) are gone.
final class ServiceFunctions: Handled, @unchecked Sendable {
    let requestFunction: mvvm_request_fn
    let userData: UnsafeMutableRawPointer?
    private let destroy: mvvm_destroy_fn?

    init(requestFunction: @escaping mvvm_request_fn, userData: UnsafeMutableRawPointer?, destroy: mvvm_destroy_fn?) {
        self.requestFunction = requestFunction
        self.userData = userData
        self.destroy = destroy
        super.init(kind: .service)
    }

    /// View models made with it keep it; its destroy function runs when the last one goes.
    override func releaseHandle() throws(ExportError) { HandleTable.shared.remove(handle) }

    deinit { destroy?(userData) }
}

// MARK: - Construction

/// Makes an object of `exportedClass` on `context`'s loop with the constructor whose arguments
/// `given` fits (or `fixed`), and registers it under a new handle. `services` gives the
/// functions of a typed call's service argument (its index), which `mvvm_new` takes as service
/// handles instead.
func construct(_ exportedClass: ExportedClass, on context: LoopContext, _ given: GivenArguments,
               services typedServices: [Int: ServiceFunctions] = [:],
               constructor fixed: ExportedConstructor? = nil) throws(ExportError) -> mvvm_handle {
    let (constructor, values) = try choose(exportedClass, given, fixed)
    if exportedClass.isMainActor { try context.requireMainActor(for: exportedClass) }
    return try context.operation { () throws(ExportError) -> mvvm_handle in
        var arguments = CallArguments(name: CallName(owner: exportedClass.name, member: nil), values: values)
        var hosts: [Int: HostService] = [:]
        for (index, argument) in constructor.arguments.enumerated() {
            switch argument.kind {
            case .value: break
            case .model:
                guard case let .object(handle) = values[index] else { continue }
                arguments.models[index] = try model(handle, argument.name, of: argument.modelTypes, on: context).target
            case let .service(requestType, resultType):
                let functions: ServiceFunctions
                if let typed = typedServices[index] {
                    functions = typed
                } else {
                    guard case let .object(handle) = values[index] else { continue }
                    functions = try HandleTable.shared.resolve(handle, as: ServiceFunctions.self, expecting: .service,
                                                               "argument \(argument.name)")
                }
                let host = HostService(functions: functions, requestType: requestType, resultType: resultType)
                hosts[index] = host
                arguments.services[index] = HostRequester(host: host)
            }
        }
        let target: AnyObject
        do throws(ExportFailure) {
            target = try constructor.make(context.loop, arguments)
        } catch {
            for host in hosts.values { host.end() }
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(exportedClass.name.string): \(CString.capped(error.description))")
        }
        let object = ExportedObject.register(exportedClass, target: target, context: context,
                                             constructor: exportedClass.constructorIndex(named: constructor.name),
                                             keepAlive: Array(arguments.models.values))
        for host in hosts.values {
            host.owner = object
            object.addCleanup { host.end() }
        }
        return object.handle
    }
}

/// The constructor the arguments fit, and their values as it takes them: the first, in the
/// order registered, whose arguments they name and whose types accept them.
func choose(_ exportedClass: ExportedClass, _ given: GivenArguments,
                    _ fixed: ExportedConstructor?) throws(ExportError) -> (ExportedConstructor, [Value]) {
    // The usual `mvvm_new(loop, name, NULL, 0)` of a class whose first constructor takes nothing:
    // nothing to bind, nothing made.
    if fixed == nil, given.values.isEmpty, let first = exportedClass.constructors.first, first.arguments.isEmpty {
        return (first, [])
    }
    let className = exportedClass.name.string
    let name = CallName(owner: exportedClass.name, member: nil)
    if let fixed { return (fixed, try given.bind(to: fixed.arguments, of: name).values()) }
    guard !exportedClass.constructors.isEmpty else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(className) has no constructor: it is made by its parent "
                          + "(mvvm_child) or by a list")
    }
    var firstMismatch: ExportError?
    for constructor in exportedClass.constructors {
        switch given.bind(to: constructor.arguments, of: name) {
        case let .success(values): return (constructor, values)
        case let .failure(failure):
            if case let .mismatch(error) = failure { firstMismatch = firstMismatch ?? error }
        }
    }
    if let firstMismatch { throw firstMismatch }
    let forms = exportedClass.constructors.map { constructor in
        "(" + constructor.arguments.map { "\($0.name): \($0.typeName)" }.joined(separator: ", ") + ")"
    }
    throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(className) takes \(forms.joined(separator: " or ")), "
                      + "not \(given.summary)")
}

extension ExportedArgument {
    var typeName: String {
        switch kind {
        case .value: return shape.name
        case .model: return "object"
        case .service: return "service"
        }
    }
}

/// The model a view model is built over: of one of `types`, live, and on the same loop.
func model(_ handle: mvvm_handle, _ name: String, of types: [ObjectIdentifier], on context: LoopContext) throws(ExportError) -> ExportedObject {
    let object = try HandleTable.shared.resolve(handle, as: ExportedObject.self, expecting: .object, "the model (\(name))")
    guard types.contains(object.exportedClass.swiftType) else {
        let wanted = types.map { Registry.shared.exportedClass(for: $0)?.name.string ?? "?" }
        throw ExportError(MVVM_ERR_WRONG_TYPE, "the model (\(name)) \(HandleTable.describe(handle)) is "
                          + "\(withArticle(object.exportedClass.name.string)), not "
                          + wanted.map(withArticle).joined(separator: " or "))
    }
    guard object.context === context else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "the model (\(name)) \(HandleTable.describe(handle)) lives on another loop")
    }
    guard !object.isReleased else { throw ExportError(MVVM_ERR_INVALID_HANDLE, "the model (\(name)) was released") }
    return object
}

func exportedClass(named name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedClass {
    // A name that matches a registered one is that name's valid UTF-8; any other is read in full
    // for the checks and the message below.
    if let name {
        try Registry.shared.requireSound()
        if let found = Registry.shared.exportedClass(matching: name) { return found }
    }
    let text = try CString.read(name, "class_name")
    try Registry.shared.requireSound()
    guard let found = Registry.shared.exportedClass(named: text) else {
        let hint = libmvvm_has_package_registration() ? "" : "; this library registers no package of its own (a "
            + "package's library defines @_cdecl(\"libmvvm_register_package\"), which registers its classes)"
        throw ExportError(MVVM_ERR_UNKNOWN_NAME, "no class named \(CString.echo(text)) is registered "
                          + "(mvvm_classes lists them)\(hint)")
    }
    return found
}

// MARK: - C entry points

@_cdecl("mvvm_classes")
public func mvvm_classes(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        try Registry.shared.requireSound()
        write(CString.copy(JSON.array(Registry.shared.classes.map(\.fullDescriptionJSON))), to: out)
    }
}

/// `mvvm_new_named` with every argument positional.
@_cdecl("mvvm_new")
public func mvvm_new(_ loop: mvvm_handle, _ className: UnsafePointer<CChar>?, _ arguments: UnsafePointer<mvvm_value>?,
                     _ count: UInt, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    mvvm_new_named(loop, className, nil, arguments, count, out)
}

@_cdecl("mvvm_new_named")
public func mvvm_new_named(_ loop: mvvm_handle, _ className: UnsafePointer<CChar>?,
                           _ names: UnsafePointer<UnsafePointer<CChar>?>?, _ arguments: UnsafePointer<mvvm_value>?,
                           _ count: UInt, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let context = try resolveLoop(loop)
        let exportedClass = try exportedClass(named: className)
        let given = try GivenArguments(reading: arguments, names: names, count: count)
        write(try construct(exportedClass, on: context, given), to: out)
    }
}

/// Takes a host's service functions for `body`: their destroy function then runs exactly once,
/// when nothing holds them any more — at once when `request` is NULL or `body` fails.
func withServiceFunctions(_ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                          _ body: (ServiceFunctions) throws(ExportError) -> Void) -> mvvm_status {
    guard let request else {
        destroy?(userData)
        return exporting { () throws(ExportError) in throw .nullPointer("request_fn") }
    }
    let functions = ServiceFunctions(requestFunction: request, userData: userData, destroy: destroy)
    return exporting { () throws(ExportError) in try body(functions) }
}

@_cdecl("mvvm_service_new")
public func mvvm_service_new(_ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?,
                             _ destroy: mvvm_destroy_fn?, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    withServiceFunctions(request, userData, destroy) { functions throws(ExportError) in
        try requireOut(out)
        write(HandleTable.shared.insert(functions), to: out)
    }
}

/// Writes `text` to file descriptor 2 (stderr's FILE is shared mutable state to Swift).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
}

/// Settings that persist as on the app's platform (`CMVVMSystem/settings.c`): `UserDefaults`'
/// values, loaded when the library is first used, saved when its loops have been idle a short
/// while after work, when a loop is released, and at a normal exit. Off in a library that links
/// no Foundation.
enum Settings {
    /// Set by ``Exports/settings(domain:)`` from the hook, before `start`.
    nonisolated(unsafe) static var domain: String?

    static func start() { _ = cmvvm_settings_start(domain) }
}
