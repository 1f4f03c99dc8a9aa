import CMVVM

/// A Swift type whose values cross the C boundary: the types of exported properties, command
/// arguments and results, signal payloads, constructor arguments and record fields.
///
/// `Bool`, the integers, `Double`, `Float` and `String` conform; so do an `Optional` of an
/// exportable value (null when nil), an `Array` of them (`[UInt8]` crosses as bytes), a record
/// (``ExportableRecord``), bytes (``ExportableBytes``: `extension Data: ExportableBytes {}`),
/// and any `String`-backed enum that declares the conformance, which crosses as its raw value
/// (and, when `CaseIterable`, takes only its cases' raw values). Foundation's `UUID`, `Date`,
/// `URL` and `Decimal` conform in the `MVVMFoundation` product (``ValueKind``). A type of one's
/// own conforms as a wrapper over any of these shapes (docs/values.md).
public protocol ExportableValue {
    /// The type, in full, as descriptions give it and as the library checks and converts a
    /// host's values against it.
    static var exportedShape: ValueShape { get }
    /// The Swift value of a C value already accepted by `exportedShape` (so of its kind and
    /// range); nil only when this type still cannot hold it.
    init?(exportedValue: MVVMValue)
    /// The C value.
    var exportedValue: MVVMValue { get }
}

extension ExportableValue {
    /// The C kind of a value of this type (an optional's being its wrapped type's).
    public static var exportedType: MVVMValueType { exportedShape.baseType }
    /// The only strings a value of this type may be, when it is limited to some.
    public static var allowedValues: [String]? { exportedShape.allowed }
}

extension Bool: ExportableValue {
    public static var exportedShape: ValueShape { .bool }
    public init?(exportedValue value: MVVMValue) { if case let .bool(flag) = value { self = flag } else { return nil } }
    public var exportedValue: MVVMValue { .bool(self) }
}

/// A fixed-width integer crossing as an int, limited to its own range (a `UInt64` crosses as its
/// bits instead: see its conformance).
public protocol ExportableInteger: ExportableValue, FixedWidthInteger {}

extension ExportableInteger {
    public static var exportedShape: ValueShape {
        .int(min: Int64(clamping: Self.min), max: Int64(clamping: Self.max))
    }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue, let exact = Self(exactly: number) else { return nil }
        self = exact
    }
    public var exportedValue: MVVMValue { .int(Int64(self)) }
}

extension Int: ExportableInteger {}
extension Int64: ExportableInteger {}
extension Int32: ExportableInteger {}
extension Int16: ExportableInteger {}
extension Int8: ExportableInteger {}
extension UInt32: ExportableInteger {}
extension UInt16: ExportableInteger {}
/// An element of `[UInt8]`, which crosses as bytes.
extension UInt8: ExportableInteger {}

/// Crosses out as MVVM_TYPE_UINT, so that every host reads the same non-negative number; taken
/// in as an unsigned or as an int's bits (a C `uint64_t` seed passed as an int).
extension UInt64: ExportableValue {
    public static var exportedShape: ValueShape { .uint }
    public init?(exportedValue: MVVMValue) {
        switch exportedValue {
        case let .uint(number): self = number
        case let .int(number): self = UInt64(bitPattern: number)
        default: return nil
        }
    }
    public var exportedValue: MVVMValue { .uint(self) }
}

extension Double: ExportableValue {
    public static var exportedShape: ValueShape { .double }
    public init?(exportedValue value: MVVMValue) { if case let .double(number) = value { self = number } else { return nil } }
    public var exportedValue: MVVMValue { .double(self) }
}

/// Refuses a finite double beyond its range (it would be infinity); ±infinity and NaN given as
/// such are kept.
extension Float: ExportableValue {
    public static var exportedShape: ValueShape { .double }
    public init?(exportedValue value: MVVMValue) {
        guard case let .double(number) = value else { return nil }
        let narrowed = Float(number)
        guard narrowed.isFinite || !number.isFinite else { return nil }
        self = narrowed
    }
    public var exportedValue: MVVMValue { .double(Double(self)) }
}

extension String: ExportableValue {
    public static var exportedShape: ValueShape { .string(allowed: nil) }
    public init?(exportedValue value: MVVMValue) { if case let .string(text) = value { self = text } else { return nil } }
    public var exportedValue: MVVMValue { .string(self) }
}

extension ExportableValue where Self: RawRepresentable, RawValue == String {
    public static var exportedShape: ValueShape { .string(allowed: nil) }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue else { return nil }
        self.init(rawValue: text)
    }
    public var exportedValue: MVVMValue { .string(rawValue) }
}

extension ExportableValue where Self: RawRepresentable, RawValue == String, Self: CaseIterable {
    public static var exportedShape: ValueShape {
        .string(allowed: EnumCases(typeName: String(describing: Self.self), values: allCases.map(\.rawValue)))
    }
}

/// An `Int` enum crosses as its raw value, an int: `extension Priority: ExportableValue {}`. A
/// number no case has is refused (`init(rawValue:)` says so).
extension ExportableValue where Self: RawRepresentable, RawValue == Int {
    public static var exportedShape: ValueShape { .int(min: Int64(Int.min), max: Int64(Int.max)) }
    public init?(exportedValue: MVVMValue) {
        guard case let .int(number) = exportedValue, let raw = Int(exactly: number) else { return nil }
        self.init(rawValue: raw)
    }
    public var exportedValue: MVVMValue { .int(Int64(rawValue)) }
}

/// A value crossing in place of a property's own type `Base`, to refuse some values of it a host
/// may set (a title that may not hold NUL crosses as a `TitleText` over `String`): read as
/// `init(_:)` of the property's value, written as its `base`. A derived registration uses one
/// for a member its control file says crosses as it (`"crosses_as"`, docs/packages.md); by
/// hand, `c.binding("title", get: { TitleText($0.title) }, set: { $0.title = $1.base })`.
public protocol ExportableNarrowing: ExportableValue {
    associatedtype Base
    init(_ base: Base)
    var base: Base { get }
}

/// Null when nil. An optional of an optional is refused at registration.
extension Optional: ExportableValue where Wrapped: ExportableValue {
    public static var exportedShape: ValueShape { .optional(Wrapped.exportedShape) }
    public init?(exportedValue: MVVMValue) {
        if case .null = exportedValue {
            self = .none
        } else {
            guard let wrapped = Wrapped(exportedValue: exportedValue) else { return nil }
            self = .some(wrapped)
        }
    }
    public var exportedValue: MVVMValue { map(\.exportedValue) ?? .null }
}

/// A value, compared and notified whole; `[UInt8]` crosses as bytes.
extension Array: ExportableValue where Element: ExportableValue {
    public static var exportedShape: ValueShape { Element.self == UInt8.self ? .bytes : .array(Element.exportedShape) }
    public init?(exportedValue: MVVMValue) {
        switch exportedValue {
        case let .bytes(bytes) where Element.self == UInt8.self:
            self = bytes as! [Element]
        case let .array(items):
            var elements: [Element] = []
            elements.reserveCapacity(items.count)
            for item in items {
                guard let element = Element(exportedValue: item) else { return nil }
                elements.append(element)
            }
            self = elements
        default:
            return nil
        }
    }
    public var exportedValue: MVVMValue {
        if Element.self == UInt8.self { return .bytes(self as! [UInt8]) }
        return .array(map(\.exportedValue))
    }
}

/// Bytes: a pointer and a length in C, `bytes` in Python. Foundation's `Data` conforms with one
/// line, `extension Data: ExportableBytes {}`.
public protocol ExportableBytes: ExportableValue {
    init(exportedBytes: [UInt8])
    var exportedBytes: [UInt8] { get }
}

extension ExportableBytes {
    public static var exportedShape: ValueShape { .bytes }
    public init?(exportedValue: MVVMValue) {
        guard case let .bytes(bytes) = exportedValue else { return nil }
        self.init(exportedBytes: bytes)
    }
    public var exportedValue: MVVMValue { .bytes(exportedBytes) }
}

extension ExportableBytes where Self: RangeReplaceableCollection, Element == UInt8 {
    public init(exportedBytes: [UInt8]) { self.init(exportedBytes) }
    public var exportedBytes: [UInt8] { Array(self) }
}

// MARK: - A Swift type's own refusal

/// `value`, accepted by `V`'s shape already, as a `V`; or, when `V` itself refuses it (a failable
/// init, a record's throwing `init(from:)` or `make`, a `Float` out of range), INVALID_ARGUMENT naming
/// `what` and saying why. The one step after ``ValueShape/accept(_:_:)`` for every value a host
/// passes to a Swift type.
@inline(__always)
func converted<V: ExportableValue>(_ value: Value, to _: V.Type, _ what: @autoclosure () -> String) throws(ExportError) -> V {
    if let converted = V(exportedValue: value) { return converted }
    throw ExportError(MVVM_ERR_INVALID_ARGUMENT, refusal(of: value, by: V.self, what()))
}

/// The message for `value` refused by `type`: what refused it, and its own reason when it gave
/// one (a record's `init(from:)` error). Only on failure.
func refusal(of value: Value, by type: any ExportableValue.Type, _ what: String) -> String {
    "\(what) cannot hold \(CString.echo(value)): \(CString.capped(refusalReason(type, value)))"
}

/// Why `type` refuses `value`: a record's decoding error, an array's first refused element, a
/// `Float`'s range, else that the type refuses it.
func refusalReason(_ type: any ExportableValue.Type, _ value: Value) -> String {
    if let record = type as? any ExportableRecord.Type {
        return record.decodingRefusal(value) ?? "\(type) refuses it"
    }
    if let record = type as? any ExportableFieldRecord.Type {
        return record.makingRefusal(value) ?? "\(type) refuses it"
    }
    if let wrapper = type as? any RefusalExplaining.Type { return wrapper.explainRefusal(value) }
    if type == Float.self { return "beyond the range of Float" }
    if case .kind = type.exportedShape { return "\(type) cannot parse it" }
    if isStringBacked(type) || hasRawValue(type, Int.self) {
        // A CaseIterable String enum's shape lists its cases.
        return noCase(of: "\(type)", type.exportedShape.allowed)
    }
    return "\(type) refuses it"
}

/// Whether `type` is a `String`-backed enum (or any type made from a string by `init(rawValue:)`).
func isStringBacked(_ type: Any.Type) -> Bool { hasRawValue(type, String.self) }

/// Whether `type` is made by `init(rawValue:)` from a `Raw`.
private func hasRawValue<Raw>(_ type: Any.Type, _: Raw.Type) -> Bool {
    guard let representable = type as? any RawRepresentable.Type else { return false }
    return rawValueType(of: representable) == Raw.self
}

private func rawValueType<T: RawRepresentable>(of _: T.Type) -> Any.Type { T.RawValue.self }

/// Optionals and arrays say which wrapped value or element their own type refused.
private protocol RefusalExplaining { static func explainRefusal(_ value: Value) -> String }

extension Optional: RefusalExplaining where Wrapped: ExportableValue {
    fileprivate static func explainRefusal(_ value: Value) -> String { refusalReason(Wrapped.self, value) }
}

extension Array: RefusalExplaining where Element: ExportableValue {
    fileprivate static func explainRefusal(_ value: Value) -> String {
        guard case let .array(items) = value,
              let index = items.firstIndex(where: { Element(exportedValue: $0) == nil }) else { return "\(Self.self) refuses it" }
        return "element \(index), \(CString.echo(items[index])): \(refusalReason(Element.self, items[index]))"
    }
}
