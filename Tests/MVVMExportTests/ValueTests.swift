import CMVVM
import Testing
@testable import MVVMExport

/// A String enum that is not CaseIterable: any string fits its shape, the enum refuses most.
private enum Mood: String, ExportableValue { case calm, busy }

/// A record whose `init(from:)` refuses what its fields' types hold.
private struct Span: ExportableRecord {
    var low: Int
    var high: Int

    private enum CodingKeys: String, CodingKey { case low, high }

    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        low = try fields.decode(Int.self, forKey: .low)
        high = try fields.decode(Int.self, forKey: .high)
        guard low <= high else { throw ExportFailure("\(low) is above \(high)") }
    }
}

/// One letter and `marks` combining acute accents: one character of 1 + 2 × marks bytes.
private func oneCharacter(_ marks: Int) -> String {
    "e" + String(repeating: "\u{301}", count: marks)
}

@Test func anEchoIsCutByBytesWhereACharacterEnds() {
    let huge = oneCharacter(2_000_000)
    let echo = CString.echo(huge)
    #expect(echo.utf8.count < 200)
    #expect(echo.hasSuffix("(4000001 bytes in all)"))
    #expect(CString.capped(huge).utf8.count < CString.messageLimit + 100)
    // 100 bytes is "e" and 49 accents and the first byte of the 50th: cut before it.
    #expect(CString.prefix(huge, bytes: 100).utf8.count == 99)
    #expect(CString.prefix("a\u{e9}", bytes: 2) == "a")
    #expect(CString.prefix("short", bytes: 100) == "short")
    #expect(CString.echo("short") == "\"short\"")
}

/// Issue 48, item 4: JSON has no NaN or infinities, and null is "no value": a snapshot writes them
/// as the strings a binding reads back by the member's type, wherever they are.
@Test func aSnapshotWritesNaNAndInfinitiesAsStringsNeverNull() {
    #expect(Value.double(.nan).json == #""NaN""#)
    #expect(Value.double(.infinity).json == #""Infinity""#)
    #expect(Value.double(-.infinity).json == #""-Infinity""#)
    #expect(Value.array([.double(1.5), .null, .double(-.infinity)]).json == #"[1.5, null, "-Infinity"]"#)
    #expect(Value.map(["at"], [.double(.nan)]).json == #"{"at": "NaN"}"#)
}

@Test func nanIsUnchangedFromNanAndMinusZeroIsAChange() {
    let nan = Value.double(.nan), otherNaN = Value.double(-Double(nan: 7, signaling: false))
    #expect(nan.isSame(as: otherNaN))
    #expect(Value.array([nan]).isSame(as: .array([otherNaN])))
    #expect(Value.record("span", [.int(1), nan]).isSame(as: .record("span", [.int(1), otherNaN])))
    #expect(Value.map(["a"], [.array([nan])]).isSame(as: .map(["a"], [.array([otherNaN])])))
    #expect(!Value.double(0.0).isSame(as: .double(-0.0)))
    #expect(!Value.array([.double(0.0)]).isSame(as: .array([.double(-0.0)])))
    #expect(!nan.isSame(as: .double(1)))
    #expect(!Value.array([nan]).isSame(as: .array([nan, nan])))
    #expect(Value.double(1.5).isSame(as: .double(1.5)))
}

@Test func aFloatRefusesAFiniteDoubleBeyondItsRangeAndKeepsInfinityAndNaN() {
    #expect(Float(exportedValue: .double(1e300)) == nil)
    #expect(Float(exportedValue: .double(-1e39)) == nil)
    #expect(Float(exportedValue: .double(3.4028235e38)) == .greatestFiniteMagnitude)
    #expect(Float(exportedValue: .double(-.infinity)) == -.infinity)
    #expect(Float(exportedValue: .double(.nan))?.isNaN == true)
    #expect([Float](exportedValue: .array([.double(1), .double(1e300)])) == nil)
}

@Test func anArgumentItsSwiftTypeRefusesIsInvalidArgumentNamingIt() throws {
    let call = CallName(owner: CName("form"), member: CName("set_mood"))
    let mood = Argument<Mood>.value("mood")
    #expect(try mood.take(CallArguments(name: call, values: [.string("busy")]), 0) == .busy)
    do {
        _ = try mood.take(CallArguments(name: call, values: [.string("angry")]), 0)
        Issue.record("a mood that is no case was taken")
    } catch {
        #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
        #expect(error.message == "argument 1 of form.set_mood (mood) cannot hold \"angry\": it is no case of Mood")
    }
    do {
        _ = try Argument<Float>.value("ratio").command(CallArguments(name: call, values: [.double(1e300)]), 0)
        Issue.record("a Float beyond its range was taken")
    } catch {
        #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
        #expect(error.message.hasSuffix("beyond the range of Float"))
    }
}

@Test func aRecordRefusedByItsInitFromGivesItsError() {
    Exports.record(Span.self)
    let span = Value.record("span", [.int(3), .int(1)])
    #expect(Span(exportedValue: span) == nil)
    #expect(refusal(of: span, by: Span.self, "the span") == "the span cannot hold {\"low\": 3, \"high\": 1}: 3 is above 1")
    #expect(refusal(of: .array([.record("span", [.int(1), .int(2)]), span]), by: [Span].self, "spans")
        .hasSuffix(": element 1, {\"low\": 3, \"high\": 1}: 3 is above 1"))
}

/// An Int enum crosses as its raw value; a number no case has is refused.
private enum Priority: Int, ExportableValue { case low = 1, high = 5 }

@Test func anIntEnumCrossesAsItsRawValueAndRefusesOtherNumbers() {
    #expect(Priority.exportedShape == .int(min: Int64(Int.min), max: Int64(Int.max)))
    #expect(Priority.high.exportedValue == .int(5))
    #expect(Priority(exportedValue: .int(1)) == .low)
    #expect(Priority(exportedValue: .int(2)) == nil)
    #expect(Priority(exportedValue: .string("low")) == nil)
    #expect([Priority](exportedValue: .array([.int(5), .int(1)])) == [.high, .low])
    #expect(refusalReason(Priority.self, .int(2)) == "it is no case of Priority")
}
