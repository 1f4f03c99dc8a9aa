import CMVVM
import Testing
@testable import MVVMExport

/// The grammars the library checks UUID, URL and Decimal text against itself (Foundation's
/// parsers are lenient), with the message a host gets.
private func accepted(_ kind: ValueKind, _ value: Value) throws(ExportError) -> Value {
    try ValueShape.kind(kind).accept(value, "order.cost")
}

private func refusal(_ kind: ValueKind, _ value: Value) -> String? {
    do {
        _ = try accepted(kind, value)
        return nil
    } catch {
        #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
        return error.message
    }
}

@Test func aUUIDIsItsCanonicalTextInAnyCaseGivenInUpperCase() throws {
    #expect(try accepted(.uuid, .string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(try accepted(.uuid, .bytes(Array("00000000-0000-0000-0000-00000000000a".utf8)))
        == .string("00000000-0000-0000-0000-00000000000A"))
    // Bytes of UTF-8 (as LuaJIT gives a string) are quoted as their text.
    #expect(refusal(.uuid, .bytes(Array("nope".utf8))) == "order.cost cannot hold \"nope\": it is no UUID (8-4-4-4-12 hexadecimal digits)")
    for malformed in ["E621E1F8C36C495A93FC0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5", "{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}",
                      "g621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f ", ""] {
        #expect(refusal(.uuid, .string(malformed))
            == "order.cost cannot hold \(CString.echo(malformed)): it is no UUID (8-4-4-4-12 hexadecimal digits)")
    }
}

@Test func aURLHasAScheme() throws {
    for url in ["https://example.com/a", "mailto:a@b.c", "x-app+v1.2:rest", "HTTP://Example.COM/", "file:///tmp/x"] {
        #expect(try accepted(.url, .string(url)) == .string(url))
    }
    for malformed in ["not a url", "//example.com/a", ":nothing", "1http://a", "ht tp://a", "example.com"] {
        #expect(refusal(.url, .string(malformed))
            == "order.cost cannot hold \(CString.echo(malformed)): it is no URL: it has no scheme (as https: or mailto:)")
    }
}

@Test func aDecimalIsExactTextOfAtMost38DigitsWithinDecimalsRange() throws {
    let exact: [(String, String)] = [
        ("0", "0"), ("-0", "0"), ("0.000", "0"), ("0e99999999999999999999", "0"), ("1.5", "15e-1"),
        ("-1.50", "-15e-1"), ("1E+5", "1e5"), ("007", "7"), ("-0.0015", "-15e-4"),
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
        ("1234567890123456789012345678.9012345678e-100", "12345678901234567890123456789012345678e-110"),
        ("1e-128", "1e-128"), ("1e127", "1e127"),
        // Beyond 127, the digits take up the rest (Decimal's mantissa holds 38).
        ("1e130", "1000e127"), ("1e164", "10000000000000000000000000000000000000e127"),
        ("99999999999999999999999999999999999999e127", "99999999999999999999999999999999999999e127"),
    ]
    for (text, canonical) in exact { #expect(try accepted(.decimal, .string(text)) == .string(canonical), "\(text)") }
    #expect(try accepted(.decimal, .int(-42)) == .string("-42"))
    #expect(try accepted(.decimal, .uint(.max)) == .string("18446744073709551615"))

    let grammar = "it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)"
    for malformed in ["1.2.3", "", "-", "+1", ".5", "5.", "1e", "1e+", "NaN", "inf", "-Infinity", " 1", "1 ", "1,5", "0x10", "１"] {
        #expect(refusal(.decimal, .string(malformed)) == "order.cost cannot hold \(CString.echo(malformed)): \(grammar)")
    }
    #expect(refusal(.decimal, .string("123456789012345678901234567890123456789"))
        == "order.cost cannot hold \"123456789012345678901234567890123456789\": it has 39 significant digits, more than Decimal's 38")
    for beyond in ["1e-129", "0.5e-128", "1e165", "11e164", "1e99999999999999999999", "1e-99999999999999999999"] {
        #expect(refusal(.decimal, .string(beyond)) == "order.cost cannot hold \"\(beyond)\": it is beyond Decimal's range")
    }
}

/// Issue 48, item 3: an exponent of over a million is weighed against the digits before it, never
/// clamped first: a value written with a million digits and such an exponent is itself or refused.
@Test func aDecimalWithAMillionDigitsAndAnExponentToMatchIsItsOwnValue() throws {
    let zeros = String(repeating: "0", count: 1_000_100)
    let fractionZeros = String(repeating: "0", count: 1_000_099)
    let exact: [(String, String)] = [
        ("1" + zeros + "e-1000100", "1"), ("-1" + zeros + "e-1000098", "-1e2"),
        ("0." + fractionZeros + "1e1000100", "1"), ("0." + fractionZeros + "25e1000101", "25"),
        ("1" + zeros + "e-1000228", "1e-128"),
    ]
    for (text, canonical) in exact {
        #expect(try accepted(.decimal, .string(text)) == .string(canonical), "\(canonical) written with a million digits")
    }
    for (beyond, value) in [("1" + zeros + "e-1000300", "1e-200"), ("0." + fractionZeros + "1e1000300", "1e200"),
                            ("1" + zeros + "e-1000229", "1e-129"), ("1" + zeros + "e99999999999999999999", "1e(a huge number)")] {
        #expect(refusal(.decimal, .string(beyond)) == "order.cost cannot hold \(CString.echo(beyond)): it is beyond Decimal's range",
                "\(value) written with a million digits")
    }
}

@Test func aDateIsAnyDoubleAndAnIntIsTakenForIt() throws {
    #expect(try accepted(.date, .double(-62135596800.5)) == .double(-62135596800.5))
    #expect(try accepted(.date, .int(253402300800)) == .double(253402300800))
    #expect(throws: ExportError.self) { try accepted(.date, .string("2024-01-01")) }
}

@Test func eachKindIsDescribedByNameWithItsCarriersCType() {
    #expect(JSON.object(ValueShape.kind(.uuid).jsonMembers) == #"{"type": "uuid", "c_type": "const char *"}"#)
    #expect(JSON.object(ValueShape.optional(.kind(.date)).jsonMembers)
        == #"{"type": "date", "optional": true, "c_type": "double"}"#)
    #expect(JSON.object(ValueShape.array(.kind(.decimal)).typedCallMembers)
        == #"{"type": "array", "element": {"type": "decimal", "c_type": "const char *"}, "c_type": "const mvvm_value *"}"#)
    #expect(ValueShape.kind(.url).typedCallCType == "const char *")
    #expect(ValueShape.kind(.date).typedCallCType == "double")
}

/// Item 4: a value that is no case of a CaseIterable enum lists its cases; of another, names it.
private enum Mood: String, CaseIterable, ExportableValue { case happy, sad }
private enum Feeling: String, ExportableValue { case fine }

@Test func aValueThatIsNoCaseOfAnEnumNamesItWordForWord() throws {
    do {
        _ = try Mood.exportedShape.accept(.string("grumpy"), "form.mood")
        Issue.record("a value that is no case was taken")
    } catch {
        #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
        #expect(error.message == "form.mood cannot hold \"grumpy\": it is no case of Mood: happy, sad")
    }
    #expect(refusal(of: .string("angry"), by: Feeling.self, "form.feeling")
        == "form.feeling cannot hold \"angry\": it is no case of Feeling")
}
