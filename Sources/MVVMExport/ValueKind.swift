import CMVVM

/// A kind of value the library knows by name: Foundation's `UUID`, `Date`, `URL` and `Decimal`
/// (their conformances are the `MVVMFoundation` product's, so that this module needs no
/// Foundation). Each travels in C as a kind every host already reads (a string, a double), and
/// its name in the description (`"type": "uuid"`) tells each binding which type of its own to
/// give. The library checks each one's text against a strict grammar itself: Foundation's
/// parsers are lenient (`Decimal(string: "1.2.3")` is 1.2).
public enum ValueKind: String, Sendable, CaseIterable {
    /// 8-4-4-4-12 hexadecimal digits, any case; handed to Swift in upper case.
    case uuid
    /// Seconds since 1970-01-01T00:00:00Z, a double.
    case date
    /// A URL with a scheme.
    case url
    /// `-?digits(.digits)?([eE][+-]?digits)?`, at most 38 significant digits within
    /// `Decimal`'s range.
    case decimal

    /// How messages name a value of it: "it is no UUID".
    var title: String {
        switch self {
        case .uuid: return "UUID"
        case .date: return "date"
        case .url: return "URL"
        case .decimal: return "decimal number"
        }
    }

    /// A value of this kind for learning a record's fields.
    var placeholder: Value {
        switch self {
        case .uuid: return .string("00000000-0000-0000-0000-000000000000")
        case .date: return .double(0)
        case .url: return .string("about:blank")
        case .decimal: return .string("0")
        }
    }

    /// ``ValueShape/accept(_:_:)`` of this kind: `value` as its carrier takes it (an int for a
    /// decimal too), then its canonical text (a UUID in upper case, a decimal's digits and
    /// exponent), or INVALID_ARGUMENT saying which rule it breaks.
    func accept(_ value: Value, _ what: @autoclosure () -> String) throws(ExportError) -> Value {
        switch (self, value) {
        case let (.decimal, .int(number)): return .string(String(number))
        case let (.decimal, .uint(number)): return .string(String(number))
        default: break
        }
        let checked: Result<String, KindRefusal>
        let carried = try carrier.accept(value, what())  // bytes of UTF-8 as their text
        switch (self, carried) {
        case let (.uuid, .string(text)): checked = UUIDText.canonical(text)
        case let (.url, .string(text)): checked = URLText.check(text).map { text }
        case let (.decimal, .string(text)): checked = DecimalText.canonical(text)
        case let (_, seconds): return seconds  // a date: any double
        }
        switch checked {
        case let .success(text): return .string(text)
        case let .failure(refusal):
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) cannot hold \(CString.echo(carried)): \(refusal.reason)")
        }
    }

    /// What it travels as in C.
    var carrier: ValueShape { self == .date ? .double : .string(allowed: nil) }
}

/// Why a text is no value of a kind: the end of the message naming the member.
struct KindRefusal: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// `8-4-4-4-12` hexadecimal digits.
enum UUIDText {
    static func canonical(_ text: String) -> Result<String, KindRefusal> {
        let bytes = Array(text.utf8)
        let dashes: Set<Int> = [8, 13, 18, 23]
        let fits = bytes.count == 36 && bytes.indices.allSatisfy { index in
            dashes.contains(index) ? bytes[index] == UInt8(ascii: "-") : isHexDigit(bytes[index])
        }
        guard fits else { return .failure(KindRefusal("it is no UUID (8-4-4-4-12 hexadecimal digits)")) }
        return .success(text.uppercased())
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"): return true
        default: return false
        }
    }
}

/// A URL's scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`, then `:`); whether
/// the rest parses is Foundation's to say, in the conformance.
enum URLText {
    static func check(_ text: String) -> Result<Void, KindRefusal> {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
              bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }) else {
            return .failure(KindRefusal("it is no URL: it has no scheme (as https: or mailto:)"))
        }
        return .success(())
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

/// `-?digits(.digits)?([eE][+-]?digits)?` with at most 38 significant digits, within the range
/// of Foundation's `Decimal` (a mantissa of up to 38 digits times ten to -128...127), never
/// rounded.
enum DecimalText {
    static let maximumDigits = 38
    static let exponents = -128...127

    /// The number as `[-]digits[e exponent]`, its digits padded so that its exponent is within
    /// `exponents` (the form `Decimal(string:)` reads exactly), or why it is none.
    static func canonical(_ text: String) -> Result<String, KindRefusal> {
        guard let number = parse(Array(text.utf8)) else {
            return .failure(KindRefusal("it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)"))
        }
        guard number.digits.count <= maximumDigits else {
            return .failure(KindRefusal("it has \(number.digits.count) significant digits, more than Decimal's \(maximumDigits)"))
        }
        if number.digits.isEmpty { return .success("0") }
        let padding = max(0, number.exponent - exponents.upperBound)
        guard number.exponent >= exponents.lowerBound, number.digits.count + padding <= maximumDigits else {
            return .failure(KindRefusal("it is beyond Decimal's range"))
        }
        let exponent = number.exponent - padding
        return .success((number.negative ? "-" : "") + String(decoding: number.digits, as: UTF8.self)
                        + String(repeating: "0", count: padding) + (exponent == 0 ? "" : "e\(exponent)"))
    }

    /// Its significant digits (no leading or trailing zeros; none for zero) and the exponent of
    /// its last one; an exponent beyond any range is clamped, still beyond it: the digits can
    /// move it by at most their count, so it is clamped only beyond the text's length past the
    /// range ("1" and a million zeros then "e-1000000" is 1, whatever the clamp).
    private static func parse(_ bytes: [UInt8]) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var index = 0
        func digitRun() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        let whole = digitRun()
        guard !whole.isEmpty else { return nil }
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digitRun()
            guard !fraction.isEmpty else { return nil }
        }
        var stated = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var sign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            let digits = digitRun()
            guard !digits.isEmpty else { return nil }
            // Linear and without overflow however long it is; a clamped exponent, moved by at most
            // bytes.count by the digits, is still beyond the range of 38 digits either way.
            let beyondAnyRange = bytes.count + maximumDigits + exponents.count
            stated = sign * digits.reduce(0) { min($0 * 10 + Int($1 - UInt8(ascii: "0")), beyondAnyRange) }
        }
        guard index == bytes.count else { return nil }
        var digits = Array((whole + fraction).drop { $0 == UInt8(ascii: "0") })
        var exponent = stated - fraction.count
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return (negative, digits, exponent)
    }
}
