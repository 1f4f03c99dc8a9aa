/// A Swift type whose values cross the C boundary as one of `mvvm_value`'s types: the types of
/// exported properties, command arguments, signal payloads and constructor arguments.
///
/// `Bool`, `Int`, `Int64`, `Int32`, `UInt64` (as its bit pattern), `Double` and `String` conform;
/// so does any `String`-backed enum that declares the conformance, which crosses as its raw
/// value (and, when `CaseIterable`, lists its cases as the only values a command accepts).
public protocol ExportableValue {
    /// The C type the value crosses as.
    static var exportedType: MVVMValueType { get }
    /// The only values a command argument of this type takes, when it is limited to some.
    static var allowedValues: [String]? { get }
    /// The Swift value of a C value already checked to be of `exportedType`; nil when it is
    /// not one this type can hold (out of range, not a case).
    init?(exportedValue: MVVMValue)
    /// The C value.
    var exportedValue: MVVMValue { get }
}

extension ExportableValue {
    public static var allowedValues: [String]? { nil }
}

extension Bool: ExportableValue {
    public static var exportedType: MVVMValueType { .bool }
    public init?(exportedValue: MVVMValue) {
        guard case let .bool(flag) = exportedValue else { return nil }
        self = flag
    }
    public var exportedValue: MVVMValue { .bool(self) }
}

extension Int64: ExportableValue {
    public static var exportedType: MVVMValueType { .int }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue else { return nil }
        self = number
    }
    public var exportedValue: MVVMValue { .int(self) }
}

extension Int: ExportableValue {
    public static var exportedType: MVVMValueType { .int }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue, let exact = Int(exactly: number) else { return nil }
        self = exact
    }
    public var exportedValue: MVVMValue { .int(Int64(self)) }
}

extension Int32: ExportableValue {
    public static var exportedType: MVVMValueType { .int }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue, let exact = Int32(exactly: number) else { return nil }
        self = exact
    }
    public var exportedValue: MVVMValue { .int(Int64(self)) }
}

/// Crosses as the `int64_t` of the same bits, as a C `uint64_t` seed would be passed.
extension UInt64: ExportableValue {
    public static var exportedType: MVVMValueType { .int }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue else { return nil }
        self = UInt64(bitPattern: number)
    }
    public var exportedValue: MVVMValue { .int(Int64(bitPattern: self)) }
}

extension Double: ExportableValue {
    public static var exportedType: MVVMValueType { .double }
    public init?(exportedValue: MVVMValue) {
        guard case let .double(number) = exportedValue else { return nil }
        self = number
    }
    public var exportedValue: MVVMValue { .double(self) }
}

extension String: ExportableValue {
    public static var exportedType: MVVMValueType { .string }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue else { return nil }
        self = text
    }
    public var exportedValue: MVVMValue { .string(self) }
}

extension ExportableValue where Self: RawRepresentable, RawValue == String {
    public static var exportedType: MVVMValueType { .string }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue else { return nil }
        self.init(rawValue: text)
    }
    public var exportedValue: MVVMValue { .string(rawValue) }
}

extension ExportableValue where Self: RawRepresentable, RawValue == String, Self: CaseIterable {
    public static var allowedValues: [String]? { allCases.map(\.rawValue) }
}
