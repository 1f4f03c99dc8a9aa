import CMVVM

/// The type of an exported value, in full: what a property, a command's argument or result, a
/// signal's payload, a constructor's argument or a record's field holds. Descriptions
/// (`mvvm_classes`) give it, and the library alone decides, from it, which values a host may
/// pass and how each converts (``accept(_:_:)``): the bindings pass values as they are.
public enum ValueShape: Sendable, Equatable {
    case none
    case bool
    /// A signed integer in `min...max` (an `Int32` is narrower than an `Int64`).
    case int(min: Int64, max: Int64)
    /// A `UInt64`: crosses out as an unsigned (MVVM_TYPE_UINT); taken in as an unsigned or as an
    /// int's bits. Described as an int with "c_type": "uint64_t".
    case uint
    case double
    /// A string, or one of `allowed` (a `CaseIterable` `String` enum's cases) when given.
    case string(allowed: EnumCases?)
    case bytes
    // Boxed only where a shape holds a shape (a box for every case would be an allocation per
    // shape, behind a tagged pointer that leak checkers cannot follow).
    indirect case array(ValueShape)
    case record(RecordType)
    indirect case optional(ValueShape)
    /// A kind the library knows by name (UUID, Date, URL, Decimal), carried as a string or a
    /// double and checked against its own grammar.
    case kind(ValueKind)

    /// An `Int64`.
    public static let int64 = ValueShape.int(min: .min, max: .max)

    /// What a value of this shape is in C, an optional's being its wrapped value's.
    var baseType: ValueType {
        switch self {
        case .none: return .none
        case .bool: return .bool
        case .int, .uint: return .int
        case .double: return .double
        case .string: return .string
        case .bytes: return .bytes
        case .array: return .array
        case .record: return .record
        case let .optional(wrapped): return wrapped.baseType
        case let .kind(kind): return kind.carrier.baseType
        }
    }

    var isOptional: Bool { if case .optional = self { return true } else { return false } }

    /// Whether a value of the kind the typed calls read (bool, int, double, string) always is
    /// of this shape, so that they need no conversion: a plain scalar, no optional, no range.
    var isPlainScalar: Bool {
        switch self {
        case .bool, .double, .string(allowed: nil), .uint, .kind(.date): return true
        case let .int(min, max): return min == .min && max == .max
        default: return false
        }
    }

    /// The strings a string shape is limited to.
    var allowed: [String]? {
        switch self {
        case let .string(allowed): return allowed?.values
        case let .optional(wrapped): return wrapped.allowed
        default: return nil
        }
    }

    /// The one conversion every call applies to a value a host passes: `value` as this shape
    /// holds it, or the status and message the host gets. An int is taken for a double; bytes
    /// that are UTF-8 for a string; a map (fields by name) or a record for a record; null only
    /// for an optional. `what` names the value in messages, made only then.
    func accept(_ value: Value, _ what: @autoclosure () -> String) throws(ExportError) -> Value {
        switch (self, value) {
        case (.optional, .null): return .null
        case let (.optional(wrapped), _): return try wrapped.accept(value, what())
        case (_, .null):
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) is of type \(name), not optional: it cannot be null")
        case (.none, .none), (.bool, .bool), (.double, .double), (.bytes, .bytes): return value
        case let (.int(min, max), .int(number)):
            guard number >= min, number <= max else { throw outOfRange(value, what()) }
            return value
        case let (.int(_, max), .uint(number)):
            guard max >= 0, number <= UInt64(max) else { throw outOfRange(value, what()) }
            return .int(Int64(number))
        case let (.uint, .int(number)): return .uint(UInt64(bitPattern: number))
        case (.uint, .uint): return value
        case let (.double, .int(number)): return .double(Double(number))
        case let (.double, .uint(number)): return .double(Double(number))
        case let (.kind(kind), _): return try kind.accept(value, what())
        case let (.string(allowed), .string(text)):
            try check(text, allowed, what())
            return value
        case let (.string(allowed), .bytes(data)):
            guard let text = String(validating: data, as: UTF8.self) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()): the bytes given for a string are not valid UTF-8")
            }
            try check(text, allowed, what())
            return .string(text)
        case let (.array(element), .array(items)):
            var accepted: [Value] = []
            accepted.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { accepted.append(try element.accept(item, "\(what())[\(index)]")) }
            return .array(accepted)
        case let (.record(type), .record(name, fields)):
            let record = try type.description(what())
            guard name.isEmpty || name == record.name.string else {
                throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(what()) is a record \(record.name.string), not \(CString.echo(name))")
            }
            guard fields.count == record.fields.count else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()): record \(record.name.string) has "
                                  + "\(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), not \(fields.count)")
            }
            var accepted: [Value] = []
            for (field, item) in zip(record.fields, fields) { accepted.append(try field.shape.accept(item, "\(what()).\(field.name)")) }
            return .record(record.name.string, accepted)
        case let (.record(type), .map(names, values)):
            let record = try type.description(what())
            for name in names where !record.fields.contains(where: { $0.name == name }) {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()): record \(record.name.string) has no field "
                                  + "named \(CString.echo(name)) (its fields: "
                                  + "\(record.fields.map(\.name).joined(separator: ", ")))")
            }
            var accepted: [Value] = []
            for field in record.fields {
                guard let index = names.lastIndex(of: field.name) else {
                    guard field.shape.isOptional else {
                        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()): record \(record.name.string) needs "
                                          + "its field \(field.name)")
                    }
                    accepted.append(.null)
                    continue
                }
                accepted.append(try field.shape.accept(values[index], "\(what()).\(field.name)"))
            }
            return .record(record.name.string, accepted)
        default:
            throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(what()) is of type \(name), not \(value.type.name)")
        }
    }

    private func check(_ text: String, _ allowed: EnumCases?, _ what: @autoclosure () -> String) throws(ExportError) {
        guard let allowed, !allowed.values.contains(text) else { return }
        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) cannot hold \(CString.echo(text)): \(allowed.refusal)")
    }

    private func outOfRange(_ value: Value, _ what: String) -> ExportError {
        let range: String
        switch self {
        case let .int(min, max): range = "\(min) to \(max)"
        default: range = name
        }
        return ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) is out of range: \(value.json) (\(range))")
    }

    /// How messages name it: "int", "string?", "[address]".
    var name: String {
        switch self {
        case .none: return "none"
        case .bool: return "bool"
        case .int: return "int"
        case .uint: return "uint64"
        case .double: return "double"
        case .string: return "string"
        case .bytes: return "bytes"
        case let .array(element): return "[\(element.name)]"
        case let .record(type): return type.name
        case let .optional(wrapped): return wrapped.name + "?"
        case let .kind(kind): return kind.rawValue
        }
    }

    /// The members of this shape's JSON description, merged into the member's object: "type",
    /// and as needed "optional", "values", "c_type", "element" (a shape object), "record".
    var jsonMembers: [(String, String)] {
        var members: [(String, String)] = []
        var shape = self
        if case let .optional(wrapped) = self { shape = wrapped }
        if case let .kind(kind) = shape {
            // Named, with what it travels as, so that a host that does not know the kind reads that.
            members.append(("type", JSON.quote(kind.rawValue)))
            if isOptional { members.append(("optional", "true")) }
            members.append(("c_type", JSON.quote(kind.carrier.typedCallCType)))
            return members
        }
        members.append(("type", JSON.quote(shape.baseType == .none ? "none" : shape.baseType.name)))
        if isOptional { members.append(("optional", "true")) }
        switch shape {
        case let .string(allowed?): members.append(("values", JSON.array(allowed.values.map(JSON.quote))))
        case .uint: members.append(("c_type", JSON.quote("uint64_t")))
        case let .int(min, max) where min != .min || max != .max:
            members.append(("min", String(min)))
            members.append(("max", String(max)))
        case let .array(element): members.append(("element", JSON.object(element.jsonMembers)))
        case let .record(type): members.append(("record", JSON.quote(type.name)))
        default: break
        }
        return members
    }

    /// A value of this shape, for learning a record's fields (``RecordDescription``); nil when
    /// none can be made here (a record not registered).
    var placeholder: Value? {
        switch self {
        case .none: return Value.none
        case .bool: return .bool(false)
        case let .int(min, max): return .int(Swift.max(min, Swift.min(0, max)))
        case .uint: return .uint(0)
        case .double: return .double(0)
        case let .string(allowed): return .string(allowed?.values.first ?? "")
        case let .kind(kind): return kind.placeholder
        case .bytes: return .bytes([])
        case .array: return .array([])
        case let .record(type):
            guard let record = Registry.shared.recordRegisteredSoFar(for: type.id) else { return nil }
            var fields: [Value] = []
            for field in record.fields {
                guard let value = field.shape.placeholder else { return nil }
                fields.append(value)
            }
            return .record(record.name.string, fields)
        case .optional: return .null
        }
    }
}

/// The cases of a `CaseIterable` `String` enum: the only strings a value of it may be.
public struct EnumCases: Sendable, Equatable {
    /// The enum's Swift name, for messages.
    public let typeName: String
    /// Its cases' raw values, in declared order.
    public let values: [String]

    public init(typeName: String, values: [String]) {
        self.typeName = typeName
        self.values = values
    }

    /// Why a string that is none of them is refused.
    var refusal: String { noCase(of: typeName, values) }
}

/// The one wording of a value that is no case of an enum: "it is no case of Mood: happy, sad",
/// or "it is no case of Mood" when its cases are not listed (an enum that is not `CaseIterable`).
func noCase(of typeName: String, _ values: [String]?) -> String {
    "it is no case of \(typeName)" + (values.map { ": " + $0.joined(separator: ", ") } ?? "")
}

/// A record type, as shapes name it: the Swift type; its registration holds its C name and
/// fields.
public struct RecordType: Sendable, Equatable {
    let id: ObjectIdentifier
    let swiftName: String

    init<T>(_ type: T.Type) {
        id = ObjectIdentifier(type)
        swiftName = String(describing: type)
    }

    /// Its C name once registered; its Swift type's name in snake case until then.
    var name: String { Registry.shared.record(for: id)?.name.string ?? Exports.snakeCase(swiftName) }

    func description(_ what: @autoclosure () -> String) throws(ExportError) -> RecordDescription {
        guard let record = Registry.shared.record(for: id) else {
            throw ExportError(MVVM_ERR_INTERNAL, "\(what()) is \(withArticle(swiftName)), a record no package registers")
        }
        return record
    }
}
