// What the generated typed calls (Generated/TypedCalls.swift, from bindings/generate/mvvm_gen.py)
// are made of: each is one of these over the generic call of the same meaning, after checking
// the handle's class.
import CMVVM

func typedCommand(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
                  _ argument: () throws(ExportError) -> Value = { .none }) -> mvvm_status {
    exporting { () throws(ExportError) in
        let argument = try argument()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try run(exportedClass.command(name), on: object, argument)
        }
    }
}

func typedGet<T>(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String, _ type: ValueType,
                 _ out: UnsafeMutablePointer<T>?, _ convert: (Value) -> T?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        let value = try withObject(handle, of: exportedClass, reading: true) { object throws(ExportError) in
            try get(exportedClass.property(name), of: object, as: type)
        }
        if let converted = convert(value) { write(converted, to: out) }
    }
}

func typedSet(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
              _ value: () throws(ExportError) -> Value) -> mvvm_status {
    exporting { () throws(ExportError) in
        let value = try value()
        try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try set(exportedClass.property(name), of: object, to: value)
        }
    }
}

func typedChild(_ handle: mvvm_handle, _ exportedClass: ExportedClass, _ name: String,
                _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(handle, of: exportedClass) { object throws(ExportError) in
            try make(exportedClass.child(name), of: object)
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

private func typedConstructor(_ exportedClass: ExportedClass, _ name: String) throws(ExportError) -> ExportedConstructor {
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
