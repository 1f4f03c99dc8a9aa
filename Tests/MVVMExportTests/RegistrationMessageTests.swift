import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

// What registration says when it refuses, word for word: the one root cause of each problem,
// with the article its noun takes, and what to do.

/// Not CaseIterable: registration has no case to try, so a record holding it is refused.
private enum Feeling: String, Codable, ExportableValue { case fine, grumpy }
private enum Mood: String, CaseIterable, ExportableValue { case happy, sad }

/// A record registration refuses (its field `feeling` has no value to start from).
private struct Attendee: ExportableRecord {
    var name: String
    var feeling: Feeling
}

/// A record holding the refused one: registered, and its field is not reported again.
private struct DailyScrum: ExportableRecord {
    var title: String
    var attendees: [Attendee]
}

/// Never registered.
private struct Speaker: ExportableRecord {
    var name: String
}

private final class ScrumStore: ObservableObject {
    @Published var scrums: [DailyScrum] = []
    @Published var host: Attendee? = nil
    @Published var speaker = Speaker(name: "")
}

/// The problems of registering `build`'s records and the store's class in a registry of their own.
private func problems(_ build: (Registry) -> Void) -> [String] {
    let registry = Registry()
    build(registry)
    var builder = ExportBuilder<ScrumStore>(name: "scrum_store", display: nil, swiftName: "ScrumStore", doc: "")
    builder.output("scrums", \.scrums, \.$scrums)
    builder.output("host", \.host, \.$host)
    builder.output("speaker", \.speaker, \.$speaker)
    builder.constructor { _ in ScrumStore() }
    registry.add(ExportedClass(builder))
    return registry.problems
}

@Suite struct RegistrationMessageTests {
    /// A refused record is named once, with why and what to do; the record and the class that
    /// hold it are not reported as holding "a record no package registers". Speaker, never
    /// registered, is.
    @Test func aRefusedRecordIsReportedOnceWithItsRootCause() {
        let found = problems { registry in
            Exports.record(Attendee.self, as: nil, doc: "", into: registry)
            Exports.record(DailyScrum.self, as: nil, doc: "", into: registry)
        }
        #expect(found == [
            "record attendee (Attendee): field feeling (a Feeling) has no value to start from: make it CaseIterable, "
                + "so that registration tries its first case",
            "class scrum_store (ScrumStore), property speaker: it is a Speaker, a record no package registers "
                + "(Exports.record(Speaker.self))",
        ])
    }

    @Test func aRecordNoPackageRegistersTakesTheRightArticle() {
        let found = problems { registry in Exports.record(DailyScrum.self, as: nil, doc: "", into: registry) }
        #expect(found.contains("record daily_scrum (DailyScrum), field attendees: it is an Attendee, a record no "
                               + "package registers (Exports.record(Attendee.self))"))
        #expect(found.contains("class scrum_store (ScrumStore), property host: it is an Attendee, a record no "
                               + "package registers (Exports.record(Attendee.self))"))
    }

    @Test func articlesFollowHowTheNounIsRead() {
        #expect(withArticle("Attendee") == "an Attendee")
        #expect(withArticle("UUID") == "a UUID")
        #expect(withArticle("URL") == "a URL")
        #expect(withArticle("HTTPHeader") == "an HTTPHeader")
        #expect(withArticle("Speaker") == "a Speaker")
        #expect(withArticle("int") == "an int")
        #expect(withArticle("user") == "a user")
        #expect(withArticle("update") == "an update")
        #expect(withArticle("[address]") == "an [address]")
    }

    /// A value an enum refuses names the enum, and its cases when it lists them.
    @Test func aValueThatIsNoCaseNamesItsEnum() {
        #expect(refusal(of: .string("grumpy"), by: Mood.self, "the mood")
            == "the mood cannot hold \"grumpy\": it is no case of Mood: happy, sad")
        #expect(refusal(of: .string("angry"), by: Feeling.self, "the feeling")
            == "the feeling cannot hold \"angry\": it is no case of Feeling")
        #expect(refusal(of: .array([.string("fine"), .string("angry")]), by: [Feeling].self, "feelings")
            == "feelings cannot hold [\"fine\", \"angry\"]: element 1, \"angry\": it is no case of Feeling")
    }

    /// `c.asyncCommand` takes one unnamed argument as `c.command` does, and a constructor's
    /// suffix is labelled.
    @Test func oneUnnamedArgumentAndALabelledSuffix() {
        var builder = ExportBuilder<ScrumStore>(name: "scrum_store", display: nil, swiftName: "ScrumStore", doc: "")
        builder.asyncCommand("rename") { (store: ScrumStore, title: String) in store.scrums = [] }
        builder.asyncCommand("count") { (store: ScrumStore, extra: Int) async throws -> Int in store.scrums.count + extra }
        builder.constructor { _ in ScrumStore() }
        builder.constructor(suffix: "titled", .value("title")) { (_, _: String) in ScrumStore() }
        let exported = ExportedClass(builder)
        #expect(exported.commands.map { $0.arguments.map(\.name) } == [["argument"], ["argument"]])
        #expect(exported.commands.map(\.isAsync) == [true, true])
        #expect(exported.commands[1].result == .int64)
        #expect(exported.constructors.map(\.name) == ["new", "new_with_titled"])
    }
}
