import CMVVM

/// The kind of a value crossing the C boundary, as `mvvm_type` numbers it.
public enum MVVMValueType: UInt32, Sendable, CaseIterable {
    case none = 0, bool, int, double, string
    /// A handle: a model passed to a constructor, or a host service (`mvvm_service_new`).
    case object
    /// A list of child view models (descriptions only: read with `mvvm_list_count`/`_item`).
    case list
    /// No value: what an optional holds when it holds none.
    case null
    /// An unsigned 64-bit integer, its bits in `integer`: how a host passes a number above
    /// INT64_MAX. The library never hands one out (a `UInt64` crosses out as its bits, an int).
    case uint
    /// Any bytes: `string` points at `integer` of them.
    case bytes
    /// `integer` values at the pointer `object` holds.
    case array
    /// A registered record: `string` names it, `integer` fields (in their declared order) at
    /// the pointer `object` holds.
    case record
    /// Name and value pairs (`integer` of them, `2 * integer` values at `object`): a record given
    /// by its fields' names. Only hosts pass one.
    case map

    init?(_ type: mvvm_type) { self.init(rawValue: type.rawValue) }

    var cType: mvvm_type { mvvm_type(rawValue: rawValue) }

    /// The name descriptions and messages use.
    public var name: String {
        switch self {
        case .none: return "none"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .object: return "object"
        case .list: return "list"
        case .null: return "null"
        case .uint: return "uint"
        case .bytes: return "bytes"
        case .array: return "array"
        case .record: return "record"
        case .map: return "map"
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
    /// No value (an optional's nil).
    case null
    /// A host's unsigned integer above INT64_MAX (or any, when it chose to say unsigned).
    case uint(UInt64)
    case bytes([UInt8])
    case array([MVVMValue])
    /// A record: its C name and its fields, in their declared order.
    indirect case record(String, [MVVMValue])
    /// A record by its fields' names, as a host may give it.
    indirect case map([String], [MVVMValue])

    /// Whether a property's new value is unchanged from the one announced, the scalars compared
    /// inline: the engine asks it of each changed property. Doubles compare by their bits, every
    /// NaN being one NaN: NaN is unchanged from NaN (`==` would call it a change forever), and
    /// -0.0 is a change from 0.0. Anywhere in an array or a record too.
    @inline(__always)
    func isSame(as other: MVVMValue) -> Bool {
        switch self {
        case let .bool(flag): if case let .bool(otherFlag) = other { return flag == otherFlag }
        case let .int(number): if case let .int(otherNumber) = other { return number == otherNumber }
        case let .string(text): if case let .string(otherText) = other { return text == otherText }
        case let .double(number): if case let .double(otherNumber) = other { return Self.isSame(number, otherNumber) }
        default: break
        }
        return isSameWhole(as: other)
    }

    @inline(__always)
    private static func isSame(_ number: Double, _ other: Double) -> Bool {
        number.bitPattern == other.bitPattern || (number.isNaN && other.isNaN)
    }

    /// ``isSame(as:)`` for the values holding values, item by item.
    private func isSameWhole(as other: MVVMValue) -> Bool {
        switch (self, other) {
        case let (.array(items), .array(otherItems)): return Self.isSame(items, otherItems)
        case let (.record(name, fields), .record(otherName, otherFields)):
            return name == otherName && Self.isSame(fields, otherFields)
        case let (.map(names, values), .map(otherNames, otherValues)):
            return names == otherNames && Self.isSame(values, otherValues)
        default: return self == other
        }
    }

    private static func isSame(_ values: [MVVMValue], _ others: [MVVMValue]) -> Bool {
        values.count == others.count && zip(values, others).allSatisfy { $0.isSame(as: $1) }
    }

    public var type: MVVMValueType {
        @inline(__always) get {
        switch self {
        case .none: return .none
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .object: return .object
        case .null: return .null
        case .uint: return .uint
        case .bytes: return .bytes
        case .array: return .array
        case .record: return .record
        case .map: return .map
        }
        }
    }

    /// The value as JSON (`mvvm_snapshot`): bytes as an array of numbers, a record as an object
    /// of its fields (their names from its registration), a double JSON has no number for as
    /// ``JSON/nonFinite(_:)`` names it (null is "no value", which a non-optional double never is).
    var json: String {
        switch self {
        case .none, .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .int(number): return String(number)
        case let .uint(number): return String(number)
        case let .double(number): return number.isFinite ? "\(number)" : JSON.quote(JSON.nonFinite(number))
        case let .string(text): return JSON.quote(text)
        case let .object(handle): return String(handle)
        case let .bytes(bytes): return JSON.array(bytes.map { String($0) })
        case let .array(items): return JSON.array(items.map(\.json))
        case let .record(name, fields):
            // Registration's own messages echo records too (a placeholder refused), while it runs.
            let names = Registry.shared.recordRegisteredSoFar(named: name)?.fields.map(\.name)
                ?? fields.indices.map { "field\($0)" }
            return JSON.object(zip(names, fields).map { ($0, $1.json) })
        case let .map(names, values): return JSON.object(zip(names, values).map { ($0, $1.json) })
        }
    }
}

/// The little JSON `mvvm_describe`, `mvvm_classes` and `mvvm_snapshot` write.
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

    /// The string a NaN or an infinity is written as, JSON having no such numbers: "NaN",
    /// "Infinity", "-Infinity", as protobuf's JSON mapping and JavaScript's `String(x)` write them.
    static func nonFinite(_ number: Double) -> String {
        number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity"
    }
}
