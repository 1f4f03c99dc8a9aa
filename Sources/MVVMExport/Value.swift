import CMVVM

/// The type of a property, command argument or signal payload, as `mvvm_type` numbers it.
enum ValueType: UInt32, Sendable {
    case none = 0, bool, int, double, string

    init?(_ type: mvvm_type) { self.init(rawValue: type.rawValue) }

    var cType: mvvm_type { mvvm_type(rawValue: rawValue) }

    var name: String {
        switch self {
        case .none: return "none"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        }
    }
}

/// A value crossing the C boundary.
enum Value: Equatable {
    case none
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)

    var type: ValueType {
        switch self {
        case .none: return .none
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        }
    }

    /// Reads a host's value, copying its string.
    init(reading value: mvvm_value, _ what: String) throws(ExportError) {
        switch ValueType(value.type) {
        case .some(.none): self = .none
        case .some(.bool): self = .bool(value.boolean)
        case .some(.int): self = .int(value.integer)
        case .some(.double): self = .double(value.number)
        case .some(.string): self = .string(try CString.read(value.string, "\(what).string"))
        case nil: throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) has unknown type \(value.type.rawValue)")
        }
    }

    /// Hands the value to `body` as an `mvvm_value`; a string is valid only during the call.
    func withCValue<T>(_ body: (mvvm_value) -> T) -> T {
        var value = mvvm_value(type: type.cType, boolean: false, integer: 0, number: 0, string: nil)
        switch self {
        case .none: break
        case let .bool(flag): value.boolean = flag
        case let .int(number): value.integer = number
        case let .double(number): value.number = number
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
