// What the generated typed calls are made of (`python3 -m mvvm_gen --module NAME`, the generator in
// tools/mvvm_gen): a package's own, the catalog's included, over the public `TypedCall`
// in plain C types. Each is the generic call of the same meaning after checking the handle's
// class; the class and the member a call names are looked up once, the first time it is made (the
// lazy initialisation of the generated global that holds them), not on every call.
import CMVVM

// MARK: - Typed calls

/// A typed command: its arguments in order; its result, when it has one, to `result`.
func typedCommand(_ handle: mvvm_handle, _ command: TypedCall.Command,
                  _ arguments: () throws(ExportError) -> [Value] = { [] }, result: (Value) -> Void = { _ in }) -> mvvm_status {
    exporting { () throws(ExportError) in
        let (exportedClass, member) = try command.resolution.get()
        let given = GivenArguments(try arguments())
        let value = try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try call(member, on: object, given)
        }
        result(value)
    }
}

/// A typed asynchronous command: started as mvvm_call_async starts it.
func typedCallAsync(_ handle: mvvm_handle, _ command: TypedCall.Command, _ arguments: () throws(ExportError) -> [Value],
                    _ done: mvvm_done_fn?, _ userData: UnsafeMutableRawPointer?, _ destroy: mvvm_destroy_fn?,
                    _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting(checkingCopy: false) { () throws(ExportError) in
        guard let done else { throw .nullPointer("done") }
        try destroyingOnFailure(userData, destroy) { () throws(ExportError) in
            let (exportedClass, member) = try command.resolution.get()
            try requireOut(out)
            let given = GivenArguments(try arguments())
            try withObject(handle, of: exportedClass) { object throws(ExportError) in
                try startCall(member, on: object, given, done, userData, destroy, out!)
            }
        }
    }
}

func typedGet<T>(_ handle: mvvm_handle, _ property: TypedCall.Property, _ type: ValueType?,
                 _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let (exportedClass, member) = try property.resolution.get()
        try requireOut(out)
        let value = try withObject(handle, of: exportedClass, reading: true) { object throws(ExportError) in
            if let type { return try get(member, of: object, as: type) }
            return getAny(member, of: object)
        }
        if let converted = convert(value) { write(converted, to: out) }
    }
}

// Inlined into each generated setter: left to the optimiser, the object's resolution was not
// inlined into it, a call and ≈ 45 instructions more per set (callgrind).
@inline(__always)
func typedSet(_ handle: mvvm_handle, _ property: TypedCall.Property,
              _ value: () throws(ExportError) -> Value) -> mvvm_status {
    exporting { () throws(ExportError) in
        try property.resolution.check()
        // Borrowed from `property`, which the caller's global holds for the process's life: no
        // reference counting per set (≈ 80 instructions).
        let exportedClass = Borrowed(property.resolution.exportedClass.unsafelyUnwrapped)
        let member = Borrowed(property.resolution.member.unsafelyUnwrapped)
        let value = try value()
        try withObjectInlined(handle, of: exportedClass.object) { object throws(ExportError) in
            try set(member.object, of: object, to: value)
        }
    }
}

func typedChild(_ handle: mvvm_handle, _ child: TypedCall.Child,
                _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        let (exportedClass, member) = try child.resolution.get()
        try requireOut(out)
        write(try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try make(member, of: object)
        }, to: out)
    }
}

/// A typed constructor: `values` are its arguments, in order, none of them a service.
func typedConstruct(_ loop: mvvm_handle, _ typedClass: TypedCall.Class, _ constructor: String,
                    _ out: UnsafeMutablePointer<mvvm_handle>?,
                    _ values: () throws(ExportError) -> [Value] = { [] }) -> mvvm_status {
    exporting { () throws(ExportError) in
        let exportedClass = try typedClass.lookup()
        try requireOut(out)
        let context = try resolveLoop(loop)
        let values = try values()
        write(try construct(exportedClass, on: context, GivenArguments(values),
                            constructor: typedConstructor(exportedClass, constructor)), to: out)
    }
}

/// A typed constructor whose one argument is a host service, given as its functions. The
/// destroy function runs exactly once: when the object is released, or now if this fails.
func typedConstructWithService(_ loop: mvvm_handle, _ typedClass: TypedCall.Class, _ constructor: String,
                               _ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?,
                               _ destroy: mvvm_destroy_fn?, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    withServiceFunctions(request, userData, destroy) { functions throws(ExportError) in
        let exportedClass = try typedClass.lookup()
        try requireOut(out)
        let context = try resolveLoop(loop)
        write(try construct(exportedClass, on: context, GivenArguments([.object(0)]), services: [0: functions],
                            constructor: typedConstructor(exportedClass, constructor)), to: out)
    }
}

func typedConstructor(_ exportedClass: ExportedClass, _ name: String) throws(ExportError) -> ExportedConstructor {
    guard let constructor = exportedClass.constructors.first(where: { $0.name == name }) else {
        throw ExportError(MVVM_ERR_INTERNAL, "\(exportedClass.name.string) has no constructor \(name) (a stale typed call)")
    }
    return constructor
}

func asBool(_ value: Value) -> Bool? { if case let .bool(flag) = value { return flag } else { return nil } }
/// An int, or a `UInt64`'s bits: mvvm_get_int reads a `UInt64` property as it always did.
func asInt(_ value: Value) -> Int64? {
    switch value {
    case let .int(number): return number
    case let .uint(number): return Int64(bitPattern: number)
    default: return nil
    }
}
func asUInt(_ value: Value) -> UInt64? {
    switch value {
    case let .uint(number): return number
    case let .int(number): return UInt64(bitPattern: number)
    default: return nil
    }
}
func asDouble(_ value: Value) -> Double? { if case let .double(number) = value { return number } else { return nil } }
func asString(_ value: Value) -> UnsafeMutablePointer<CChar>?? {
    if case let .string(text) = value { return .some(CString.copy(text)) } else { return nil }
}
func asOwned(_ value: Value) -> mvvm_value? { value.ownedCValue() }

/// Reads a typed call's `const mvvm_value *` argument.
func readValue(_ pointer: UnsafePointer<mvvm_value>?, _ name: String) throws(ExportError) -> Value {
    guard let pointer else { throw .nullPointer(name) }
    return try Value(reading: pointer, name)
}

/// A member a typed call names and its class, as looked up once: both, or why not (a stale
/// call). Optionals rather than a `Result`: the found path then costs a call two reference
/// counts, not an outlined copy of an enum holding an error.
struct Resolution<Member: Sendable>: Sendable {
    let exportedClass: ExportedClass?
    let member: Member?
    let failure: ExportError?

    @inline(__always)
    func get() throws(ExportError) -> (ExportedClass, Member) {
        guard let exportedClass, let member else { throw failure! }
        return (exportedClass, member)
    }

    /// `get`'s check alone, for a call that borrows the class and member.
    @inline(__always)
    func check() throws(ExportError) {
        if let failure { throw failure }
    }
}

// MARK: - The public surface a package's typed calls use

/// What the typed C calls that `python3 -m mvvm_gen --module NAME` writes for a package's own
/// classes are made of (the catalog's among them). They use plain C
/// types (`Int32` for `mvvm_status`, `UInt64` for `mvvm_handle`), since a package sees no C
/// header of libmvvm's. A call names its class and member once, in a global:
///
///     private let greeter = TypedCall.Class("greeter")
///     private let greeter_name = greeter.property("name")
///     @_cdecl("mvvm_greeter_get_name")
///     public func mvvm_greeter_get_name(_ handle: UInt64, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
///         TypedCall.get(handle, greeter_name, out)
///     }
///
/// A name the library does not register (a stale generated file) makes each call that uses it
/// fail with `MVVM_ERR_INTERNAL`, never a crash.
public enum TypedCall {
    /// A class a package's typed calls name, looked up when first used.
    public final class Class: Sendable {
        private let found: Result<ExportedClass, ExportError>

        public init(_ name: String) {
            found = Result { () throws(ExportError) in
                guard let found = Registry.shared.exportedClass(named: name) else {
                    throw ExportError(MVVM_ERR_INTERNAL, "no class \(name) is registered (a stale typed call)")
                }
                return found
            }
        }

        /// The class, unless the registration is refused (checked on each use: a constructor is
        /// the first call that needs the registry) or it is not registered.
        func lookup() throws(ExportError) -> ExportedClass {
            try Registry.shared.requireSound()
            return try found.get()
        }

        private func member<Member>(_ find: (ExportedClass) throws(ExportError) -> Member) -> Resolution<Member> {
            do throws(ExportError) {
                let exportedClass = try found.get()
                return Resolution(exportedClass: exportedClass, member: try find(exportedClass), failure: nil)
            } catch {
                return Resolution(exportedClass: nil, member: nil, failure: error)
            }
        }

        public func property(_ name: String) -> Property {
            Property(member { exportedClass throws(ExportError) in try exportedClass.property(name) })
        }

        public func command(_ name: String) -> Command {
            Command(member { exportedClass throws(ExportError) in try exportedClass.command(name) })
        }

        public func child(_ name: String) -> Child {
            Child(member { exportedClass throws(ExportError) in try exportedClass.child(name) })
        }
    }

    /// A property of a class, for typed getters and setters.
    public final class Property: Sendable {
        let resolution: Resolution<ExportedProperty>
        init(_ resolution: Resolution<ExportedProperty>) { self.resolution = resolution }
    }

    /// A command of a class.
    public final class Command: Sendable {
        let resolution: Resolution<ExportedCommand>
        init(_ resolution: Resolution<ExportedCommand>) { self.resolution = resolution }
    }

    /// A child view model of a class.
    public final class Child: Sendable {
        let resolution: Resolution<ExportedChild>
        init(_ resolution: Resolution<ExportedChild>) { self.resolution = resolution }
    }

    /// A C value a typed call passes on; a string is read (and checked to be UTF-8) in the call.
    public enum Argument {
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case string(UnsafePointer<CChar>?)
        case object(UInt64)
        /// A `const mvvm_value *` (an optional, an array, a record, bytes).
        case value(UnsafeRawPointer?)

        func value(_ name: String) throws(ExportError) -> Value {
            switch self {
            case let .bool(flag): return .bool(flag)
            case let .int(number): return .int(number)
            case let .uint(number): return .uint(number)
            case let .double(number): return .double(number)
            case let .string(pointer): return .string(try CString.read(pointer, name))
            case let .object(handle): return .object(handle)
            case let .value(pointer): return try readValue(pointer?.assumingMemoryBound(to: mvvm_value.self), name)
            }
        }
    }

    /// `mvvm_done_fn` with its value pointer opaque.
    public typealias DoneFunction = @convention(c) (UInt64, Int32, UnsafeRawPointer?, UnsafePointer<CChar>?,
                                                    UnsafeMutableRawPointer?) -> Void

    /// An asynchronous command, started as `mvvm_call_async` starts one.
    public static func callAsync(_ handle: UInt64, _ command: Command, _ arguments: [Argument], done: DoneFunction?,
                                 userData: UnsafeMutableRawPointer?, destroy: DestroyFunction?,
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        int32(typedCallAsync(handle, command, { () throws(ExportError) in try values(arguments) },
                             done.map { unsafeBitCast($0, to: mvvm_done_fn.self) }, userData, destroy, out))
    }

    /// `mvvm_request_fn` with its value pointer opaque.
    public typealias RequestFunction = @convention(c) (UInt64, UInt64, OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    public typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static func int32(_ status: mvvm_status) -> Int32 { Int32(bitPattern: status.rawValue) }

    public static func command(_ handle: UInt64, _ command: Command, _ arguments: [Argument] = []) -> Int32 {
        int32(typedCommand(handle, command, { () throws(ExportError) in try values(arguments) }))
    }

    /// A command with a result; `result` is the host's out-pointer (NULL to ignore it): a
    /// plain scalar's type, `char **` for a string, `mvvm_value *` otherwise.
    public static func command<T>(_ handle: UInt64, _ command: Command, _ arguments: [Argument],
                                  result out: UnsafeMutablePointer<T>?) -> Int32 {
        int32(typedCommand(handle, command, { () throws(ExportError) in try values(arguments) }, result: { value in
            guard let out else { return }
            let raw = UnsafeMutableRawPointer(out)
            switch value {
            case let .bool(flag) where T.self == Bool.self: raw.assumingMemoryBound(to: Bool.self).pointee = flag
            case let .int(number) where T.self == Int64.self: raw.assumingMemoryBound(to: Int64.self).pointee = number
            case let .uint(number) where T.self == UInt64.self: raw.assumingMemoryBound(to: UInt64.self).pointee = number
            case let .double(number) where T.self == Double.self: raw.assumingMemoryBound(to: Double.self).pointee = number
            case let .string(text) where T.self == UnsafeMutablePointer<CChar>?.self:
                raw.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self).pointee = CString.copy(text)
            default: raw.assumingMemoryBound(to: mvvm_value.self).pointee = value.ownedCValue()
            }
        }))
    }

    /// A command whose result is not a plain scalar: into an `mvvm_value` the caller frees.
    public static func command(_ handle: UInt64, _ command: Command, _ arguments: [Argument],
                               value out: UnsafeMutableRawPointer?) -> Int32 {
        self.command(handle, command, arguments, result: out?.assumingMemoryBound(to: mvvm_value.self))
    }

    private static func values(_ arguments: [Argument]) throws(ExportError) -> [Value] {
        var values: [Value] = []
        for (index, argument) in arguments.enumerated() { values.append(try argument.value("argument \(index + 1)")) }
        return values
    }

    /// A getter of any type into an `mvvm_value` the caller frees.
    public static func get(_ handle: UInt64, _ property: Property, value out: UnsafeMutableRawPointer?) -> Int32 {
        int32(typedGet(handle, property, nil, out?.assumingMemoryBound(to: mvvm_value.self), asOwned))
    }

    public static func get(_ handle: UInt64, _ property: Property, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
        int32(typedGet(handle, property, .bool, out, asBool))
    }

    public static func get(_ handle: UInt64, _ property: Property, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
        int32(typedGet(handle, property, .int, out, asInt))
    }

    public static func get(_ handle: UInt64, _ property: Property, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        int32(typedGet(handle, property, .int, out, asUInt))
    }

    public static func get(_ handle: UInt64, _ property: Property, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
        int32(typedGet(handle, property, .double, out, asDouble))
    }

    public static func get(_ handle: UInt64, _ property: Property,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        int32(typedGet(handle, property, .string, out, asString))
    }

    public static func set(_ handle: UInt64, _ property: Property, _ value: Argument) -> Int32 {
        int32(typedSet(handle, property) { () throws(ExportError) in try value.value("value") })
    }

    public static func child(_ handle: UInt64, _ child: Child, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        int32(typedChild(handle, child, out))
    }

    public static func construct(_ loop: UInt64, _ typedClass: Class, _ constructor: String, _ arguments: [Argument],
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        int32(typedConstruct(loop, typedClass, constructor, out) { () throws(ExportError) in try values(arguments) })
    }

    public static func construct(_ loop: UInt64, _ typedClass: Class, _ constructor: String, request: RequestFunction?,
                                 userData: UnsafeMutableRawPointer?, destroy: DestroyFunction?,
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        int32(typedConstructWithService(loop, typedClass, constructor,
                                        request.map { unsafeBitCast($0, to: mvvm_request_fn.self) }, userData, destroy, out))
    }
}
