import CMVVM

/// The type of a property, command argument, signal payload or constructor argument, as
/// `mvvm_type` numbers it.
public enum MVVMValueType: UInt32, Sendable, CaseIterable {
    case none = 0, bool, int, double, string
    /// A handle: a model passed to a constructor, or a host service (`mvvm_service_new`).
    case object
    /// A list of child view models (descriptions only: read with `mvvm_list_count`/`_item`).
    case list

    init?(_ type: mvvm_type) { self.init(rawValue: type.rawValue) }

    var cType: mvvm_type { mvvm_type(rawValue: rawValue) }

    /// The name descriptions use: "none", "bool", "int", "double", "string", "object".
    public var name: String {
        switch self {
        case .none: return "none"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .object: return "object"
        case .list: return "list"
        }
    }
}

typealias ValueType = MVVMValueType
typealias Value = MVVMValue

/// A value crossing the C boundary.
public enum MVVMValue: Equatable, Sendable {
    case none
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    /// A handle, as the host passed it; resolved by whoever expects an object.
    case object(UInt64)

    public var type: MVVMValueType {
        switch self {
        case .none: return .none
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .object: return .object
        }
    }

    /// Reads a host's value, copying its string. Field by field: a host built against 0.1's
    /// header passes a value without the `object` field, which is read only for
    /// MVVM_TYPE_OBJECT.
    init(reading pointer: UnsafePointer<mvvm_value>, _ what: String) throws(ExportError) {
        let type = pointer.pointer(to: \.type)!.pointee
        switch ValueType(type) {
        case .some(.none): self = .none
        case .some(.bool): self = .bool(pointer.pointer(to: \.boolean)!.pointee)
        case .some(.int): self = .int(pointer.pointer(to: \.integer)!.pointee)
        case .some(.double): self = .double(pointer.pointer(to: \.number)!.pointee)
        case .some(.string): self = .string(try CString.read(pointer.pointer(to: \.string)!.pointee, "\(what).string"))
        case .some(.object): self = .object(pointer.pointer(to: \.object)!.pointee)
        case .some(.list): throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) is of type list, which no call takes")
        case nil: throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) has unknown type \(type.rawValue)")
        }
    }

    /// Hands the value to `body` as an `mvvm_value`; a string is valid only during the call.
    func withCValue<T>(_ body: (mvvm_value) -> T) -> T {
        var value = mvvm_value(type: type.cType, boolean: false, integer: 0, number: 0, string: nil, object: 0)
        switch self {
        case .none: break
        case let .bool(flag): value.boolean = flag
        case let .int(number): value.integer = number
        case let .double(number): value.number = number
        case let .object(handle): value.object = handle
        case let .string(text):
            // A native Swift string is contiguous UTF-8 with a NUL after it: no copy here.
            return text.withCString { pointer in
                value.string = pointer
                return body(value)
            }
        }
        return body(value)
    }

    /// The value as JSON.
    var json: String {
        switch self {
        case .none: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .int(number): return String(number)
        case let .double(number): return number.isFinite ? "\(number)" : "null"
        case let .string(text): return JSON.quote(text)
        case let .object(handle): return String(handle)
        }
    }
}

/// The little JSON `mvvm_describe` and `mvvm_snapshot` write.
enum JSON {
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ", ") + "]"
    }
}
