import Testing
@testable import MVVMExport

/// Optional fields of each kind the standard library decodes with its own `decodeIfPresent`
/// (the primitive types), one it decodes through the generic one (an array), and required ones.
private struct Reading: ExportableRecord, Equatable {
    var label: String
    var note: String?
    var count: Int?
    var done: Bool?
    var ratio: Double?
    var small: Int8?
    var tags: [String]?
    var level: Int32
}

/// An `init(from:)` written by hand, asking whether `nickname` is nil before decoding it.
private struct Person: ExportableRecord, Equatable {
    var name: String
    var nickname: String?

    enum CodingKeys: String, CodingKey { case name, nickname }

    init(name: String, nickname: String?) {
        self.name = name
        self.nickname = nickname
    }

    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        name = try fields.decode(String.self, forKey: .name)
        nickname = try fields.decodeNil(forKey: .nickname) ? nil : fields.decode(String.self, forKey: .nickname)
    }
}

private func shapes<T: ExportableRecord>(_ type: T.Type) throws -> [String: ValueShape] {
    let fields = try RecordDescription.probe(type).get()
    return Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.shape) })
}

@Test func probingFindsEachOptionalFieldOptional() throws {
    let found = try shapes(Reading.self)
    #expect(found["label"] == .string(allowed: nil))
    #expect(found["note"] == .optional(.string(allowed: nil)))
    #expect(found["count"] == .optional(Int.exportedShape))
    #expect(found["done"] == .optional(.bool))
    #expect(found["ratio"] == .optional(.double))
    #expect(found["small"] == .optional(Int8.exportedShape))
    #expect(found["tags"] == .optional(.array(.string(allowed: nil))))
    #expect(found["level"] == Int32.exportedShape)
    #expect(try RecordDescription.probe(Reading.self).get().map(\.name)
            == ["label", "note", "count", "done", "ratio", "small", "tags", "level"])
}

@Test func aFieldAskedWhetherItIsNilIsOptional() throws {
    let found = try shapes(Person.self)
    #expect(found == ["name": .string(allowed: nil), "nickname": .optional(.string(allowed: nil))])
}

@Test func optionalFieldsCrossBothWays() {
    Exports.record(Reading.self)
    Exports.record(Person.self)
    let empty = Reading(label: "a", note: nil, count: nil, done: nil, ratio: nil, small: nil, tags: nil, level: 3)
    let full = Reading(label: "b", note: "n", count: 7, done: false, ratio: 0.5, small: -8, tags: ["x"], level: -1)
    for reading in [empty, full] {
        #expect(Reading(exportedValue: reading.exportedValue) == reading)
    }
    guard case let .record(_, fields) = empty.exportedValue else {
        Issue.record("not a record: \(empty.exportedValue)")
        return
    }
    #expect(fields[1] == .null && fields[2] == .null && fields[6] == .null)
    for person in [Person(name: "Ada", nickname: nil), Person(name: "Grace", nickname: "Amazing")] {
        #expect(Person(exportedValue: person.exportedValue) == person)
    }
}
