// The registry of exported classes, and the generic C entry points over it: mvvm_classes,
// mvvm_new, mvvm_service_new.
import CMVVM
import CMVVMSystem
import Glibc
import MVVMRuntime

/// Registers the classes a package exports. Call ``register(_:as:doc:_:)`` once per class from
/// the package's registration function (`@_cdecl("libmvvm_register_package")`), which the
/// library runs before its first look-up; a Swift program may also call it directly.
public enum Exports {
    /// Exports `type` under `name` (by default its Swift name in snake case:
    /// `TodoListViewModel` → `todo_list_view_model`), described by `build`.
    public static func register<Target: AnyObject>(_ type: Target.Type, as name: String? = nil, doc: String = "",
                                                   _ build: (inout ExportBuilder<Target>) -> Void) {
        let swiftName = String(describing: type)
        var builder = ExportBuilder<Target>(name: name ?? snakeCase(swiftName), swiftName: swiftName, doc: doc)
        build(&builder)
        Registry.shared.add(ExportedClass(builder))
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

/// Every exported class, by C name and by Swift type. Registration happens once, before the
/// first look-up (see `libmvvm_run_registrations`); the table is read-only after that.
final class Registry: @unchecked Sendable {
    static let shared = Registry()

    private let lock = PThreadLock()
    private var byName: [String: ExportedClass] = [:]
    private var byType: [ObjectIdentifier: ExportedClass] = [:]
    private var ordered: [ExportedClass] = []

    /// Runs the linked packages' registration functions, once.
    private static let loaded: Void = { libmvvm_run_registrations() }()

    func add(_ exportedClass: ExportedClass) {
        lock.withLock {
            if let previous = byName[exportedClass.name.string] {
                ordered.removeAll { $0 === previous }
            }
            byName[exportedClass.name.string] = exportedClass
            byType[exportedClass.swiftType] = exportedClass
            ordered.append(exportedClass)
        }
    }

    func exportedClass(named name: String) -> ExportedClass? {
        _ = Self.loaded
        return lock.withLock { byName[name] }
    }

    func exportedClass(for type: ObjectIdentifier) -> ExportedClass? {
        _ = Self.loaded
        return lock.withLock { byType[type] }
    }

    var classes: [ExportedClass] {
        _ = Self.loaded
        return lock.withLock { ordered }
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

    deinit { destroy?(userData) }
}

// MARK: - Construction

/// Makes an object of `exportedClass` with the constructor that takes `values`, on `context`'s
/// loop, and registers it under a new handle. `services` gives the functions of a typed call's
/// service argument (its index), which `mvvm_new` takes as service handles instead.
func construct(_ exportedClass: ExportedClass, on context: LoopContext, _ values: [Value],
               services typedServices: [Int: ServiceFunctions] = [:],
               constructor fixed: ExportedConstructor? = nil) throws(ExportError) -> mvvm_handle {
    let constructor: ExportedConstructor
    if let fixed { constructor = fixed } else { constructor = try chooseConstructor(exportedClass, for: values) }
    return try context.operation { () throws(ExportError) -> mvvm_handle in
        var models: [Int: AnyObject] = [:]
        var hosts: [Int: HostService] = [:]
        for (index, argument) in constructor.arguments.enumerated() {
            switch argument.kind {
            case .value: break
            case .model:
                guard case let .object(handle) = values[index] else { continue }
                models[index] = try model(handle, argument.name, of: argument.modelTypes, on: context).target
            case let .service(requestType, resultType):
                let functions: ServiceFunctions
                if let typed = typedServices[index] {
                    functions = typed
                } else {
                    guard case let .object(handle) = values[index] else { continue }
                    functions = try HandleTable.shared.resolve(handle, as: ServiceFunctions.self, expecting: .service,
                                                               "argument \(argument.name)")
                }
                hosts[index] = HostService(functions: functions, requestType: requestType, resultType: resultType)
            }
        }
        let arguments = ConstructorArguments(values: values, models: models,
                                             services: hosts.mapValues { HostRequester(host: $0) })
        let target: AnyObject
        do throws(ExportFailure) {
            target = try constructor.make(context.loop, arguments)
        } catch {
            for host in hosts.values { host.end() }
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(exportedClass.name.string): \(error.description)")
        }
        let object = ExportedObject.register(exportedClass, target: target, context: context,
                                             keepAlive: Array(models.values))
        for host in hosts.values {
            host.owner = object
            object.addCleanup { host.end() }
        }
        return object.handle
    }
}

/// The constructor whose arguments `values` fit: by count, then by type.
private func chooseConstructor(_ exportedClass: ExportedClass, for values: [Value]) throws(ExportError) -> ExportedConstructor {
    let className = exportedClass.name.string
    guard !exportedClass.constructors.isEmpty else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(className) has no constructor: it is made by its parent "
                          + "(mvvm_child) or by a list")
    }
    let sameCount = exportedClass.constructors.filter { $0.arguments.count == values.count }
    guard !sameCount.isEmpty else {
        let forms = exportedClass.constructors.map { constructor in
            "(" + constructor.arguments.map { "\($0.name): \($0.typeName)" }.joined(separator: ", ") + ")"
        }
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(className) takes \(forms.joined(separator: " or ")), "
                          + "not \(values.count) argument\(values.count == 1 ? "" : "s")")
    }
    var firstMismatch: ExportError?
    for constructor in sameCount {
        if let mismatch = mismatch(constructor, values, className) {
            firstMismatch = firstMismatch ?? mismatch
        } else {
            return constructor
        }
    }
    throw firstMismatch!
}

private func mismatch(_ constructor: ExportedConstructor, _ values: [Value], _ className: String) -> ExportError? {
    for (index, (argument, value)) in zip(constructor.arguments, values).enumerated() {
        let expected: ValueType
        switch argument.kind {
        case let .value(type): expected = type
        case .model, .service: expected = .object
        }
        guard value.type == expected else {
            return ExportError(MVVM_ERR_TYPE_MISMATCH, "argument \(index + 1) of \(className) (\(argument.name)) "
                               + "is \(argument.typeName), not \(value.type.name)")
        }
    }
    return nil
}

extension ExportedArgument {
    var typeName: String {
        switch kind {
        case let .value(type): return type.name
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
        throw ExportError(MVVM_ERR_WRONG_TYPE, "the model (\(name)) \(HandleTable.describe(handle)) is a "
                          + "\(object.exportedClass.name.string), not a \(wanted.joined(separator: " or "))")
    }
    guard object.context === context else {
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "the model (\(name)) \(HandleTable.describe(handle)) lives on another loop")
    }
    guard !object.isReleased else { throw ExportError(MVVM_ERR_INVALID_HANDLE, "the model (\(name)) was released") }
    return object
}

func exportedClass(named name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedClass {
    let text = try CString.read(name, "class_name")
    guard let found = Registry.shared.exportedClass(named: text) else {
        throw ExportError(MVVM_ERR_UNKNOWN_NAME, "no class named \(CString.echo(text)) is registered "
                          + "(mvvm_classes lists them)")
    }
    return found
}

// MARK: - C entry points

@_cdecl("mvvm_classes")
public func mvvm_classes(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(CString.copy(JSON.array(Registry.shared.classes.map(\.fullDescriptionJSON))), to: out)
    }
}

@_cdecl("mvvm_new")
public func mvvm_new(_ loop: mvvm_handle, _ className: UnsafePointer<CChar>?, _ arguments: UnsafePointer<mvvm_value>?,
                     _ count: UInt, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let context = try resolveLoop(loop)
        let exportedClass = try exportedClass(named: className)
        guard count <= 64 else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "count \(count) is out of range (0 to 64)")
        }
        guard count == 0 || arguments != nil else { throw .nullPointer("args (with count \(count))") }
        var values: [Value] = []
        for index in 0..<Int(count) {
            values.append(try Value(reading: arguments! + index, "argument \(index + 1)"))
        }
        write(try construct(exportedClass, on: context, values), to: out)
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
