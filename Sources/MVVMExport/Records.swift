// Records: a Swift struct of exportable fields crossing as one value. Its fields are learnt
// from its Codable conformance when it is registered (`Exports.record`), as the compiler wrote
// it: their names (in snake case), order and types.

/// A struct of exportable fields, crossing the C boundary as a record: its fields in C in the
/// order it declares them, a typed class in Python. Declare the conformance and register it
/// once, before the classes that use it:
///
/// ```swift
/// struct Address: ExportableRecord { var street: String; var city: String; var zip: String? }
/// Exports.record(Address.self, doc: "A postal address.")
/// ```
///
/// Its fields are what its `Codable` conformance decodes, named after their coding keys in snake
/// case (`zipCode` → `zip_code`); each must be exportable (a record may hold records, arrays and
/// optionals of them, up to 32 deep, but never itself). A custom `init(from:)` works when it
/// accepts the values registration tries (zero, "", the first case, empty arrays, nil).
public protocol ExportableRecord: ExportableValue, Codable {}

extension ExportableRecord {
    public static var exportedShape: ValueShape { .record(RecordType(Self.self)) }

    public init?(exportedValue: MVVMValue) {
        guard let made = try? Self.decoding(exportedValue) else { return nil }
        self = made
    }

    /// The record of a value its shape accepted, or its `init(from:)`'s error.
    static func decoding(_ value: Value) throws -> Self {
        guard case let .record(_, fields) = value, let record = Registry.shared.record(for: ObjectIdentifier(Self.self)),
              fields.count == record.fields.count else { throw ExportFailure("not a record \(Self.self)") }
        var byKey: [String: Value] = [:]
        for (field, value) in zip(record.fields, fields) { byKey[field.key] = value }
        return try Self(from: RecordDecoder(.reading(byKey)))
    }

    /// Why this record refuses `value` (its `init(from:)`'s error), for a message; nil if it does not.
    static func decodingRefusal(_ value: Value) -> String? { errorText { try decoding(value) } }

    public var exportedValue: MVVMValue {
        let encoder = RecordEncoder()
        guard (try? encode(to: encoder)) != nil, let record = Registry.shared.record(for: ObjectIdentifier(Self.self)) else {
            return .null
        }
        return .record(record.name.string, record.fields.map { encoder.fields[$0.key] ?? .null })
    }
}

/// The text of the error `attempt` throws, for a message; nil when it throws none.
func errorText(_ attempt: () throws -> Any) -> String? {
    do {
        _ = try attempt()
        return nil
    } catch {
        return ExportFailure(describing: error).description
    }
}

/// A registered record: its C name and its fields, in order.
final class RecordDescription: RegisteredType, @unchecked Sendable {
    struct Field {
        /// The C name (the coding key in snake case) and the coding key itself.
        let name: String
        let key: String
        let shape: ValueShape
    }

    let name: CName
    let identity: TypeIdentity
    let fields: [Field]
    /// A record registered by its fields (``ExportableFieldRecord``): its fields' values, in
    /// order, and how to make one of them. A `Codable` record has neither: it goes through its
    /// coding.
    let fieldValues: ((Any) -> [Value])?
    let make: (([Value]) throws -> Any)?

    init(name: String, display: String?, type: Any.Type, doc: String, fields: [Field],
         fieldValues: ((Any) -> [Value])? = nil, make: (([Value]) throws -> Any)? = nil) {
        self.name = CName(name)
        identity = TypeIdentity(swiftName: String(describing: type), type: type, doc: doc, cName: name, display: display)
        self.fields = fields
        self.fieldValues = fieldValues
        self.make = make
    }

    /// What descriptions say of it: its fields with their types.
    var json: String {
        JSON.object([("name", JSON.quote(name.string)), ("display", JSON.quote(display)), ("swift_name", JSON.quote(swiftName)),
                     ("doc", JSON.quote(doc)),
                     ("fields", JSON.array(fields.map { JSON.object([("name", JSON.quote($0.name))] + $0.shape.jsonMembers) }))])
    }

    /// Learns the fields of `type` from its `init(from:)`: each field it decodes, in order.
    static func probe<T: ExportableRecord>(_ type: T.Type) -> Result<[Field], ExportFailure> {
        let recorder = RecordDecoder.Recorder()
        do {
            _ = try T(from: RecordDecoder(.probing(recorder, depth: 0)))
        } catch let failure as ExportFailure {
            return .failure(failure)
        } catch {
            return .failure(ExportFailure("its init(from:) refused the values registration tries (\(error))"))
        }
        return .success(recorder.fields.map { Field(name: Exports.snakeCase($0.key), key: $0.key, shape: $0.shape) })
    }
}

// MARK: - Decoding a record from its fields (and learning them)

/// A Decoder over a record's fields, or (probing) one that notes each field asked for and gives
/// a placeholder of its type.
struct RecordDecoder: Decoder {
    final class Recorder {
        var fields: [(key: String, shape: ValueShape)] = []
        /// The fields asked whether they are nil: optional ones.
        var askedNil: Set<String> = []
        func note(_ key: String, _ shape: ValueShape) {
            if !fields.contains(where: { $0.key == key }) { fields.append((key, shape)) }
        }
    }

    enum Mode {
        case reading([String: Value])
        case probing(Recorder, depth: Int)
    }

    let mode: Mode
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ mode: Mode) { self.mode = mode }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Container<Key>(mode: mode))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw unsupported("an unkeyed container") }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw unsupported("a single value") }

    private func unsupported(_ what: String) -> ExportFailure {
        ExportFailure("a record decodes its fields by key; its init(from:) asked for \(what)")
    }

    struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let mode: Mode
        var codingPath: [CodingKey] { [] }
        var allKeys: [Key] {
            guard case let .reading(fields) = mode else { return [] }
            return fields.keys.compactMap { Key(stringValue: $0) }
        }

        func contains(_ key: Key) -> Bool {
            guard case let .reading(fields) = mode else { return true }
            return fields[key.stringValue] != nil
        }

        /// While probing, being asked this marks the field optional: the standard library's
        /// `decodeIfPresent` of each primitive type asks it before `decode`, and so would a
        /// custom `init(from:)` reading an optional field by hand.
        func decodeNil(forKey key: Key) throws -> Bool {
            switch mode {
            case let .reading(fields): return fields[key.stringValue].map { $0 == .null } ?? true
            case let .probing(recorder, _):
                recorder.askedNil.insert(key.stringValue)
                return false
            }
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try value(type, key, optional: false)!
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try value(type, key, optional: true)
        }

        private func value<T: Decodable>(_ type: T.Type, _ key: Key, optional: Bool) throws -> T? {
            guard let exportable = type as? any ExportableValue.Type else {
                throw ExportFailure("field \(key.stringValue) is \(withArticle(String(describing: T.self))), which is not exportable "
                                    + "(declare its conformance to ExportableValue or ExportableRecord)")
            }
            switch mode {
            case let .reading(fields):
                let value = fields[key.stringValue] ?? .null
                if optional, value == .null { return nil }
                guard let made = exportable.init(exportedValue: value) as? T else {
                    throw ExportFailure("field \(key.stringValue) cannot hold \(CString.echo(value)): "
                                        + refusalReason(exportable, value))
                }
                return made
            case let .probing(recorder, depth):
                let shape = exportable.exportedShape
                let isOptional = optional || recorder.askedNil.contains(key.stringValue)
                recorder.note(key.stringValue, isOptional ? .optional(shape) : shape)
                if optional { return nil }
                // A record field is made by probing it in turn; anything else from a placeholder.
                if let record = type as? any ExportableRecord.Type {
                    guard depth < maxValueDepth else {
                        throw ExportFailure("field \(key.stringValue) nests records more than \(maxValueDepth) deep "
                                            + "(does a record contain itself?)")
                    }
                    return try record.init(from: RecordDecoder(.probing(Recorder(), depth: depth + 1))) as? T
                }
                let named = "field \(key.stringValue) (\(withArticle(String(describing: T.self))))"
                guard let placeholder = shape.placeholder else {
                    throw ExportFailure("\(named) is a record not registered yet: register it before the records that hold it")
                }
                guard let made = exportable.init(exportedValue: placeholder) as? T else {
                    throw ExportFailure("\(named) has no value to start from: " + (isStringBacked(type)
                        ? "make it CaseIterable, so that registration tries its first case"
                        : "its init?(exportedValue:) refuses \(CString.echo(placeholder)), the value registration tries"))
                }
                return made
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey> {
            throw ExportFailure("field \(key.stringValue): a record's fields are exportable values, not nested containers")
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            throw ExportFailure("field \(key.stringValue): a record's fields are exportable values, not nested containers")
        }

        func superDecoder() throws -> Decoder { throw ExportFailure("a record has no superclass to decode") }
        func superDecoder(forKey key: Key) throws -> Decoder { throw ExportFailure("a record has no superclass to decode") }
    }
}

// MARK: - Encoding a record into its fields

/// An Encoder that keeps each field's exported value by its coding key.
final class RecordEncoder: Encoder {
    var fields: [String: Value] = [:]
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container<Key>(encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer { Refused() }
    func singleValueContainer() -> SingleValueEncodingContainer { Refused() }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: RecordEncoder
        var codingPath: [CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.fields[key.stringValue] = .null }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let exportable = value as? any ExportableValue else {
                throw ExportFailure("field \(key.stringValue) is \(withArticle(String(describing: T.self))), which is not exportable")
            }
            encoder.fields[key.stringValue] = exportable.exportedValue
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(encoder: RecordEncoder()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { Refused() }
        mutating func superEncoder() -> Encoder { RecordEncoder() }
        mutating func superEncoder(forKey key: Key) -> Encoder { RecordEncoder() }
    }

    /// What a record's `encode(to:)` gets for anything but its keyed fields: each use fails.
    struct Refused: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [CodingKey] { [] }
        var count: Int { 0 }
        private var failure: ExportFailure { ExportFailure("a record encodes its fields by key") }
        mutating func encodeNil() throws { throw failure }
        mutating func encode<T: Encodable>(_ value: T) throws { throw failure }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(encoder: RecordEncoder()))
        }
        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> Encoder { RecordEncoder() }
    }
}
