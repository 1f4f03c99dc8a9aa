import CMVVM
import Testing
@testable import MVVMExport

// Records registered by their fields (no Codable): described as a Codable record is, crossing
// both ways, nested and in arrays and optionals, refusing what `make` refuses.

/// As if declared in a file the developer does not own: no Codable.
private struct Talk: Equatable {
    var title: String
    var minutes: Int32
    var note: String?
    var tags: [String]
}

private struct Session: Equatable {
    var talk: Talk
    var backup: Talk?
    var talks: [Talk]
}

private struct Refused: Equatable {
    var level: Int
}

extension Talk: ExportableFieldRecord {}
extension Session: ExportableFieldRecord {}
extension Refused: ExportableFieldRecord {}

/// Talk's Codable twin, for comparing descriptions.
private struct TalkTwin: ExportableRecord {
    var title: String
    var minutes: Int32
    var note: String?
    var tags: [String]
}

private struct Rating: ExportableFieldRecord {
    var stars: Int
}

/// Registered once for the whole test process.
private let registered: Void = {
    Exports.record(Talk.self, doc: "A talk.") { r in
        r.field("title", \.title)
        r.field("minutes", \.minutes)
        r.field("note", \.note)
        r.field("tags", \.tags)
        r.make { f in
            let minutes: Int32 = try f.value("minutes")
            guard minutes > 0 else { throw ExportFailure("a talk lasts at least a minute, not \(minutes)") }
            return Talk(title: try f.value("title"), minutes: minutes, note: try f.value("note"), tags: try f.value("tags"))
        }
    }
    Exports.record(Session.self) { r in
        r.field("talk", \.talk)
        r.field("backup", \.backup)
        r.field("talks", \.talks)
        r.make { f in Session(talk: try f.value("talk"), backup: try f.value("backup"), talks: try f.value("talks")) }
    }
}()

private let talk = Talk(title: "Records", minutes: 25, note: nil, tags: ["swift", "c"])
private let talkValue = Value.record("talk", [.string("Records"), .int(25), .null, .array([.string("swift"), .string("c")])])

@Suite struct FieldRecordTests {
    @Test func itIsDescribedAsItsCodableTwinIs() throws {
        _ = registered
        let registry = Registry()
        Exports.record(TalkTwin.self, as: "talk", doc: "A talk.", into: registry)
        let twin = try #require(registry.record(for: ObjectIdentifier(TalkTwin.self)))
        let record = try #require(Registry.shared.record(for: ObjectIdentifier(Talk.self)))
        // Alike but for the Swift name.
        #expect(record.json.split(separator: "\"swift_name\": \"Talk\"").map(String.init)
            == twin.json.split(separator: "\"swift_name\": \"TalkTwin\"").map(String.init))
        #expect(record.fields.map(\.shape) == [.string(allowed: nil), Int32.exportedShape, .optional(.string(allowed: nil)),
                                               .array(.string(allowed: nil))])
    }

    @Test func itsValuesCrossBothWays() {
        _ = registered
        #expect(talk.exportedValue == talkValue)
        #expect(Talk(exportedValue: talkValue) == talk)
        let session = Session(talk: talk, backup: nil, talks: [talk, talk])
        let sessionValue = Value.record("session", [talkValue, .null, .array([talkValue, talkValue])])
        #expect(session.exportedValue == sessionValue)
        #expect(Session(exportedValue: sessionValue) == session)
        #expect([Talk](exportedValue: .array([talkValue])) == [talk])
        #expect(Talk?(exportedValue: .null) == .some(nil))
        // A host's map, its optional field left out, accepted by the shape first.
        let map = Value.map(["title", "minutes", "tags"], [.string("Maps"), .int(5), .array([])])
        let accepted = try? Talk.exportedShape.accept(map, "the talk")
        #expect(accepted.flatMap(Talk.init(exportedValue:)) == Talk(title: "Maps", minutes: 5, note: nil, tags: []))
    }

    /// What `make` throws refuses the value, INVALID_ARGUMENT naming the member.
    @Test func aRefusalByMakeIsInvalidArgumentNamingTheMember() {
        _ = registered
        let zero = Value.record("talk", [.string("Short"), .int(0), .null, .array([])])
        do {
            _ = try converted(zero, to: Talk.self, "argument 1 of agenda.add (talk)")
            Issue.record("a talk make refuses was taken")
        } catch {
            #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
            #expect(error.message == "argument 1 of agenda.add (talk) cannot hold {\"title\": \"Short\", \"minutes\": 0, "
                    + "\"note\": null, \"tags\": []}: a talk lasts at least a minute, not 0")
        }
        // Nested: the outer record says which field refused, and why.
        #expect(Session(exportedValue: .record("session", [zero, .null, .array([])])) == nil)
        #expect(refusal(of: .record("session", [zero, .null, .array([])]), by: Session.self, "the session")
            .hasSuffix(": field talk cannot hold {\"title\": \"Short\", \"minutes\": 0, \"note\": null, \"tags\": []}: "
                       + "a talk lasts at least a minute, not 0"))
    }

    /// Registration tries `make`: a field read by a name or a type not declared, or no `make`,
    /// refuses the record, word for word.
    @Test func aMistakeInMakeRefusesTheRecord() {
        let registry = Registry()
        Exports.record(Refused.self, as: nil, doc: "", into: registry) { r in
            r.field("level", \.level)
            r.make { f in Refused(level: try f.value("levle")) }
        }
        Exports.record(Rating.self, as: nil, doc: "", into: registry) { r in
            r.field("stars", \.stars)
            r.make { f in Rating(stars: Int(try f.value("stars") as Int32)) }
        }
        Exports.record(Session.self, as: "agenda", doc: "", into: registry) { r in r.field("talk", \.talk) }
        #expect(registry.problems == [
            "record refused (Refused): make reads a field levle, which is not declared (its fields: level)",
            "record rating (Rating): make reads field stars as an Int32, but it is declared an Int",
            "record agenda (Session): its registration names no way to make one (r.make { f in ... })",
        ])
    }
}
