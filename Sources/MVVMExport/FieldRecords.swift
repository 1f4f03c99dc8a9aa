// Records registered by their fields: a struct the developer cannot edit (declared in another
// file or module, so `Codable` cannot be synthesised where the export code lives) crosses as a
// record all the same, described exactly as a `Codable` one is.

/// A struct crossing as a record, registered by naming its fields and how to make one
/// (``Exports/record(_:as:doc:_:)``) instead of through `Codable`. The conformance needs no
/// member, so it can be declared beside the registration, away from the struct's own file:
///
/// ```swift
/// extension Speaker: ExportableFieldRecord {}
/// Exports.record(Speaker.self) { r in
///     r.field("name", \.name)
///     r.field("is_completed", \.isCompleted)
///     r.make { f in Speaker(name: try f.value("name"), isCompleted: try f.value("is_completed")) }
/// }
/// ```
public protocol ExportableFieldRecord: ExportableValue {}

extension ExportableFieldRecord {
    public static var exportedShape: ValueShape { .record(RecordType(Self.self)) }

    public init?(exportedValue: MVVMValue) {
        guard let made = try? Self.making(exportedValue) else { return nil }
        self = made
    }

    public var exportedValue: MVVMValue {
        // Read without waiting for the registrations: a record is registered before its values
        // cross, and registration itself makes some (trying `make`).
        guard let record = Registry.shared.recordRegisteredSoFar(for: ObjectIdentifier(Self.self)),
              let fieldValues = record.fieldValues else {
            return .null
        }
        return .record(record.name.string, fieldValues(self))
    }

    /// The record of a value its shape accepted, or the error its `make` threw.
    static func making(_ value: Value) throws -> Self {
        guard case let .record(_, fields) = value,
              let record = Registry.shared.recordRegisteredSoFar(for: ObjectIdentifier(Self.self)),
              let make = record.make, fields.count == record.fields.count else {
            throw ExportFailure("not a record \(Self.self)")
        }
        return try make(fields) as! Self
    }

    /// Why this record refuses `value` (its `make`'s error), for a message; nil if it does not.
    static func makingRefusal(_ value: Value) -> String? { errorText { try making(value) } }
}

/// Describes a record by its fields, in the order the record has them in C and in descriptions;
/// handed to the closure of ``Exports/record(_:as:doc:_:)``.
public struct RecordBuilder<Record> {
    var fields: [RecordDescription.Field] = []
    var typeNames: [String] = []
    var readers: [(Record) -> Value] = []
    var maker: ((RecordFields) throws -> Record)?

    /// A field named `name` (a lower_snake C identifier), read through `value`. An optional
    /// (`V?`) field may be null, and a host may leave it out of a map.
    public mutating func field<V: ExportableValue>(_ name: String, _ value: KeyPath<Record, V>) {
        fields.append(RecordDescription.Field(name: name, key: name, shape: V.exportedShape))
        typeNames.append(String(describing: V.self))
        readers.append { $0[keyPath: value].exportedValue }
    }

    /// How to make a record of the fields a host gave, each read with ``RecordFields/value(_:)``.
    /// A thrown error refuses the value: `INVALID_ARGUMENT`, naming the member and giving the
    /// error's text (an ``ExportFailure``'s description, or `String(describing:)`).
    public mutating func make(_ make: @escaping (RecordFields) throws -> Record) { maker = make }
}

/// The fields of a record a host gave, already of their declared types: `make` reads each.
public struct RecordFields {
    let record: String
    let fields: [RecordDescription.Field]
    /// The Swift type each field is declared with, for messages.
    let typeNames: [String]
    let values: [Value]
    /// While registration tries `make`: the first field read by a name or type it does not declare.
    let mistakes: MistakeLog?

    final class MistakeLog { var first: String? }

    /// The field named `name`, as `V`, the type it is declared with.
    public func value<V: ExportableValue>(_ name: String) throws -> V {
        guard let index = fields.firstIndex(where: { $0.name == name }) else {
            throw mistake("make reads a field \(name), which is not declared (its fields: "
                          + "\(fields.map(\.name).joined(separator: ", ")))")
        }
        guard fields[index].shape == V.exportedShape else {
            throw mistake("make reads field \(name) as \(withArticle(String(describing: V.self))), "
                          + "but it is declared \(withArticle(typeNames[index]))")
        }
        guard let made = V(exportedValue: values[index]) else {
            // Registration trying `make` looks for mistakes only: no message is made for it.
            if mistakes != nil { throw ExportFailure("refused") }
            throw ExportFailure("field \(name) cannot hold \(CString.echo(values[index])): "
                                + refusalReason(V.self, values[index]))
        }
        return made
    }

    private func mistake(_ text: String) -> ExportFailure {
        if let mistakes, mistakes.first == nil { mistakes.first = text }
        return ExportFailure("record \(record): \(text)")
    }
}

extension Exports {
    /// Exports `type` as a record under `name` (by default its Swift name in snake case), shown as
    /// `display` (by default the CamelCase of `name`), its fields named by `build`, which also says how to make one (see ``ExportableFieldRecord``).
    /// Registration tries `make` once with placeholder values (zero, "", the first case, empty
    /// arrays, nil): a field it reads by a name or type not declared refuses the record.
    public static func record<R: ExportableFieldRecord>(_ type: R.Type, as name: String? = nil, display: String? = nil,
                                                       doc: String = "", _ build: (inout RecordBuilder<R>) -> Void) {
        record(type, as: name, display: display, doc: doc, into: .shared, build)
    }

    static func record<R: ExportableFieldRecord>(_ type: R.Type, as name: String?, display: String? = nil, doc: String,
                                                 into registry: Registry,
                                                 _ build: (inout RecordBuilder<R>) -> Void) {
        let recordName = name ?? snakeCase(String(describing: type))
        let owner = "record \(recordName) (\(String(describing: type)))"
        var builder = RecordBuilder<R>()
        build(&builder)
        guard let make = builder.maker else {
            registry.refuse("\(owner): its registration names no way to make one (r.make { f in ... })",
                            record: ObjectIdentifier(type))
            return
        }
        let fields = builder.fields
        let typeNames = builder.typeNames
        // Tried with placeholders: a mistake in `make` is found now, not by a host's first value.
        // A refusal of the placeholders themselves (validation) is no mistake.
        let placeholders = fields.compactMap(\.shape.placeholder)
        if placeholders.count == fields.count {
            let mistakes = RecordFields.MistakeLog()
            _ = try? make(RecordFields(record: recordName, fields: fields, typeNames: typeNames, values: placeholders,
                                      mistakes: mistakes))
            if let mistake = mistakes.first {
                registry.refuse("\(owner): \(mistake)", record: ObjectIdentifier(type))
                return
            }
        }
        let readers = builder.readers
        registry.add(RecordDescription(
            name: recordName, display: display, type: type, doc: doc, fields: fields,
            fieldValues: { record in readers.map { $0(record as! R) } },
            make: { values in try make(RecordFields(record: recordName, fields: fields, typeNames: typeNames, values: values,
                                                    mistakes: nil)) }))
    }
}
