// What the generated typed calls (Generated/TypedCalls.swift, from bindings/generate/mvvm_gen.py)
// are made of: each is one of these over the generic call of the same meaning, after checking
// the handle's class.
import CMVVM

/// A member of a class that a typed call names, looked up by name once, the first time the call
/// is made (the lazy initialisation of the generated global that holds it), not on every call;
/// or the error a stale typed call reports.
typealias TypedMember<Member> = Result<Member, ExportError>

func typedMember<Member>(_ lookup: () throws(ExportError) -> Member) -> TypedMember<Member> {
    Result(catching: lookup)
}

func typedCommand(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ command: TypedMember<ExportedCommand>,
                  _ argument: () throws(ExportError) -> Value = { .none }) -> mvvm_status {
    exporting { () throws(ExportError) in
        let argument = try argument()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try run(command.get(), on: object, argument)
        }
    }
}

func typedGet<T>(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ property: TypedMember<ExportedProperty>,
                 _ type: ValueType, _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let value = try withObject(handle, of: exportedClass, reading: true) { object throws(ExportError) in
            try get(property.get(), of: object, as: type)
        }
        if let converted = convert(value) { write(converted, to: out) }
    }
}

func typedSet(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ property: TypedMember<ExportedProperty>,
              _ value: () throws(ExportError) -> Value) -> mvvm_status {
    exporting { () throws(ExportError) in
        let value = try value()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try set(property.get(), of: object, to: value)
        }
    }
}

func typedChild(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ child: TypedMember<ExportedChild>,
                _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try make(child.get(), of: object)
        }, to: out)
    }
}

/// A typed constructor: `values` are its arguments, in order, none of them a service.
func typedConstruct(_ loop: mvvm_handle, _ exportedClass: ExportedClass, _ constructor: String,
                    _ out: UnsafeMutablePointer<mvvm_handle>?,
                    _ values: () throws(ExportError) -> [Value] = { [] }) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let context = try resolveLoop(loop)
        let values = try values()
        write(try construct(exportedClass, on: context, values, constructor: typedConstructor(exportedClass, constructor)),
              to: out)
    }
}

/// A typed constructor whose one argument is a host service, given as its functions. The
/// destroy function runs exactly once: when the object is released, or now if this fails.
func typedConstructWithService(_ loop: mvvm_handle, _ exportedClass: ExportedClass, _ constructor: String,
                               _ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?,
                               _ destroy: mvvm_destroy_fn?, _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    withServiceFunctions(request, userData, destroy) { functions throws(ExportError) in
        try requireOut(out)
        let context = try resolveLoop(loop)
        write(try construct(exportedClass, on: context, [.none], services: [0: functions],
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
func asInt(_ value: Value) -> Int64? { if case let .int(number) = value { return number } else { return nil } }
func asDouble(_ value: Value) -> Double? { if case let .double(number) = value { return number } else { return nil } }
func asString(_ value: Value) -> UnsafeMutablePointer<CChar>?? {
    if case let .string(text) = value { return .some(CString.copy(text)) } else { return nil }
}

// MARK: - Typed calls of a package's own classes

/// What the typed C calls that `bindings/generate/mvvm_gen.py --module NAME` writes for a
/// package's own classes are made of. They name the class on each call and use plain C types
/// (`Int32` for `mvvm_status`, `UInt64` for `mvvm_handle`), since a package sees no C header of
/// libmvvm's; each is the generic call of the same meaning after checking the handle's class.
public enum TypedCall {
    /// A C value a typed call passes on; a string is read (and checked to be UTF-8) in the call.
    public enum Argument {
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        case double(Double)
        case string(UnsafePointer<CChar>?)
        case object(UInt64)

        func value(_ name: String) throws(ExportError) -> Value {
            switch self {
            case let .bool(flag): return .bool(flag)
            case let .int(number): return .int(number)
            case let .uint(number): return .int(Int64(bitPattern: number))
            case let .double(number): return .double(number)
            case let .string(pointer): return .string(try CString.read(pointer, name))
            case let .object(handle): return .object(handle)
            }
        }
    }

    /// `mvvm_request_fn` with its value pointer opaque.
    public typealias RequestFunction = @convention(c) (UInt64, UInt64, OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    public typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static func exported(_ className: String) throws(ExportError) -> ExportedClass {
        guard let found = Registry.shared.exportedClass(named: className) else {
            throw ExportError(MVVM_ERR_INTERNAL, "no class \(className) is registered (a stale typed call)")
        }
        return found
    }

    private static func status(_ body: () throws(ExportError) -> Void) -> Int32 {
        Int32(bitPattern: exporting(body).rawValue)
    }

    public static func command(_ handle: UInt64, _ className: String, _ name: String, _ argument: Argument? = nil) -> Int32 {
        status { () throws(ExportError) in
            let exportedClass = try exported(className)
            let value = try argument?.value("argument") ?? .none
            try withObject(handle, of: exportedClass) { object throws(ExportError) in
                try run(exportedClass.command(name), on: object, value)
            }
        }
    }

    private static func get<T>(_ handle: UInt64, _ className: String, _ name: String, _ type: ValueType,
                               _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> Int32 {
        status { () throws(ExportError) in
            let exportedClass = try exported(className)
            try requireOut(out)
            let value = try withObject(handle, of: exportedClass, reading: true) { object throws(ExportError) in
                try MVVMExport.get(exportedClass.property(name), of: object, as: type)
            }
            if let converted = convert(value) { write(converted, to: out) }
        }
    }

    public static func get(_ handle: UInt64, _ className: String, _ name: String, _ out: UnsafeMutablePointer<Bool>?) -> Int32 {
        get(handle, className, name, .bool, out, asBool)
    }

    public static func get(_ handle: UInt64, _ className: String, _ name: String, _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
        get(handle, className, name, .int, out, asInt)
    }

    public static func get(_ handle: UInt64, _ className: String, _ name: String, _ out: UnsafeMutablePointer<Double>?) -> Int32 {
        get(handle, className, name, .double, out, asDouble)
    }

    public static func get(_ handle: UInt64, _ className: String, _ name: String,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        get(handle, className, name, .string, out, asString)
    }

    public static func set(_ handle: UInt64, _ className: String, _ name: String, _ value: Argument) -> Int32 {
        status { () throws(ExportError) in
            let exportedClass = try exported(className)
            let value = try value.value("value")
            try withObject(handle, of: exportedClass) { object throws(ExportError) in
                try MVVMExport.set(exportedClass.property(name), of: object, to: value)
            }
        }
    }

    public static func child(_ handle: UInt64, _ className: String, _ name: String, _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        status { () throws(ExportError) in
            let exportedClass = try exported(className)
            try requireOut(out)
            write(try withObject(handle, of: exportedClass) { object throws(ExportError) in
                try make(exportedClass.child(name), of: object)
            }, to: out)
        }
    }

    public static func construct(_ loop: UInt64, _ className: String, _ constructor: String, _ arguments: [Argument],
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        status { () throws(ExportError) in
            let exportedClass = try exported(className)
            try requireOut(out)
            let context = try resolveLoop(loop)
            var values: [Value] = []
            for (index, argument) in arguments.enumerated() { values.append(try argument.value("argument \(index + 1)")) }
            write(try MVVMExport.construct(exportedClass, on: context, values,
                                           constructor: typedConstructor(exportedClass, constructor)), to: out)
        }
    }

    public static func construct(_ loop: UInt64, _ className: String, _ constructor: String, request: RequestFunction?,
                                 userData: UnsafeMutableRawPointer?, destroy: DestroyFunction?,
                                 _ out: UnsafeMutablePointer<UInt64>?) -> Int32 {
        let request = request.map { unsafeBitCast($0, to: mvvm_request_fn.self) }
        return Int32(bitPattern: withServiceFunctions(request, userData, destroy) { functions throws(ExportError) in
            let exportedClass = try exported(className)
            try requireOut(out)
            let context = try resolveLoop(loop)
            write(try MVVMExport.construct(exportedClass, on: context, [.none], services: [0: functions],
                                           constructor: typedConstructor(exportedClass, constructor)), to: out)
        }.rawValue)
    }
}
