import CMVVM
import Foundation
import MVVMFoundation
import Testing
@testable import MVVMExport

/// A host's value as `V` by the one conversion every call applies (the shape's check, then the
/// Swift type's), or the message it gets.
private func taken<V: ExportableValue>(_ value: MVVMValue, as _: V.Type) -> Result<V, ExportError> {
    Result { () throws(ExportError) -> V in
        try converted(V.exportedShape.accept(value, "order.field"), to: V.self, "order.field")
    }
}

private func message<V: ExportableValue>(_ value: MVVMValue, as type: V.Type) -> String? {
    guard case let .failure(error) = taken(value, as: type) else { return nil }
    #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
    return error.message
}

@Test func aUUIDIsTakenInAnyCaseAndGivenInUpperCase() throws {
    let id = try taken(.string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), as: UUID.self).get()
    #expect(id == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(id.exportedValue == .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(message(.string("E621E1F8C36C495A93FC0C247A3E6E5F"), as: UUID.self)
        == "order.field cannot hold \"E621E1F8C36C495A93FC0C247A3E6E5F\": it is no UUID (8-4-4-4-12 hexadecimal digits)")
}

@Test func aDateIsSecondsSince1970BitExactBeforeAndAfterAnyCalendarsYears() throws {
    // Before 1970, before year 1, after year 9999, a fraction: each the very bits it was given.
    for seconds in [-1e10 + 0.5, -62135596800.0, -62135596801.25, 253402300800.5, 1e15, 1_700_000_000.123456, 0, -0.5, 86400.25] {
        let date = try taken(.double(seconds), as: Date.self).get()
        #expect(date.timeIntervalSince1970.bitPattern == seconds.bitPattern, "\(seconds)")
        guard case let .double(given) = date.exportedValue else { Issue.record("not a double"); continue }
        #expect(given.bitPattern == seconds.bitPattern, "\(seconds)")
    }
    #expect(try taken(.int(-86400), as: Date.self).get() == Date(timeIntervalSince1970: -86400))
}

@Test func aURLIsGivenAsItsAbsoluteString() throws {
    let url = try taken(.string("https://例え.jp/パス?q=ü#frag"), as: URL.self).get()
    #expect(url.exportedValue == .string("https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BC#frag"))
    // Its own text is taken back as the same URL.
    #expect(try taken(url.exportedValue, as: URL.self).get() == url)
    #expect(try taken(.string("mailto:a@b.c"), as: URL.self).get().exportedValue == .string("mailto:a@b.c"))
    #expect(message(.string("not a url"), as: URL.self)
        == "order.field cannot hold \"not a url\": it is no URL: it has no scheme (as https: or mailto:)")
    #expect(message(.string("http://exa mple.com/"), as: URL.self)
        == "order.field cannot hold \"http://exa mple.com/\": URL cannot parse it")
}

@Test func aDecimalIsExactAndGivenAsItsExactText() throws {
    let cases: [(String, String)] = [
        ("12345678901234567890123456789012345678", "12345678901234567890123456789012345678"),
        ("-1234567890123456789012345678.9012345678", "-1234567890123456789012345678.9012345678"),
        ("1.5e-3", "0.0015"), ("-0", "0"), ("42", "42"), ("1E+5", "100000"),
        ("12345678901234567890123456789012345678e-128",
         "0." + String(repeating: "0", count: 90) + "12345678901234567890123456789012345678"),
        ("1e130", "1" + String(repeating: "0", count: 130)),
    ]
    for (text, exact) in cases {
        let number = try taken(.string(text), as: Decimal.self).get()
        #expect(number.exportedValue == .string(exact), "\(text)")
        #expect(try taken(number.exportedValue, as: Decimal.self).get() == number, "\(text)")
    }
    #expect(try taken(.int(-7), as: Decimal.self).get() == Decimal(-7))
    // Foundation would read 1.2 of it; the library refuses it.
    #expect(message(.string("1.2.3"), as: Decimal.self)
        == "order.field cannot hold \"1.2.3\": it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)")
    #expect(message(.string("NaN"), as: Decimal.self)
        == "order.field cannot hold \"NaN\": it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)")
}

/// Each kind anywhere values go: optionals and arrays of it, described by name.
@Test func optionalsAndArraysOfTheKinds() throws {
    #expect(try taken(.null, as: UUID?.self).get() == nil)
    #expect(try taken(.array([.string("1.5"), .int(2)]), as: [Decimal].self).get() == [Decimal(string: "1.5")!, 2])
    #expect(message(.array([.string("https://a.b"), .string("b")]), as: [URL].self)
        == "order.field[1] cannot hold \"b\": it is no URL: it has no scheme (as https: or mailto:)")
    #expect(JSON.object([Date?].exportedShape.jsonMembers)
        == #"{"type": "array", "element": {"type": "date", "optional": true, "c_type": "double"}}"#)
}
