// Foundation's everyday values as exportable values. A product of its own, so that a library
// that does not use them (libmvvm.so, the catalog's wheel) does not link Foundation: import
// MVVMFoundation beside MVVMExport in a package whose view models hold them.
import Foundation
import MVVMExport

/// The canonical text, upper case; any case is taken.
extension UUID: ExportableValue {
    public static var exportedShape: ValueShape { .kind(.uuid) }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue else { return nil }
        self.init(uuidString: text)
    }
    public var exportedValue: MVVMValue { .string(uuidString) }
}

/// Seconds since 1970-01-01T00:00:00Z, as `timeIntervalSince1970` gives them. A `Date` counts
/// from 2001, so a double it cannot hold (one finer than its precision at that distance, as 0.1)
/// is the nearest `Date`.
extension Date: ExportableValue {
    public static var exportedShape: ValueShape { .kind(.date) }
    public init?(exportedValue: MVVMValue) {
        guard case let .double(seconds) = exportedValue else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
    public var exportedValue: MVVMValue { .double(timeIntervalSince1970) }
}

/// A URL with a scheme; handed out as its `absoluteString` (percent-encoded, the host of an
/// internationalised name in Punycode).
extension URL: ExportableValue {
    public static var exportedShape: ValueShape { .kind(.url) }
    public init?(exportedValue: MVVMValue) {
        guard case let .string(text) = exportedValue, let url = URL(string: text), url.scheme != nil else { return nil }
        self = url
    }
    public var exportedValue: MVVMValue { .string(absoluteString) }
}

/// Its exact text: the library hands `Decimal(string:)` only what it reads exactly (at most 38
/// digits, an exponent within its range).
extension Decimal: ExportableValue {
    public static var exportedShape: ValueShape { .kind(.decimal) }
    public init?(exportedValue: MVVMValue) {
        // No locale: "." separates the fraction whatever the process's locale is.
        guard case let .string(text) = exportedValue, let number = Decimal(string: text) else { return nil }
        self = number
    }
    public var exportedValue: MVVMValue { .string(description) }
}
