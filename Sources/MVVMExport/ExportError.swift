import CMVVM
import CMVVMSystem
import Glibc

/// A failed call: the status the C caller gets and the message `mvvm_last_error()` gives.
struct ExportError: Error {
    let status: mvvm_status
    let message: String

    init(_ status: mvvm_status, _ message: String) {
        self.status = status
        self.message = message
    }

    static func nullPointer(_ what: String) -> ExportError {
        ExportError(MVVM_ERR_NULL_POINTER, "\(what) is NULL")
    }
}

/// Runs one C entry point: a thrown error becomes its status and this thread's last error. A
/// copy of the library without a tag (`refuseUntaggedCopy`) runs none. `checkingCopy: false`:
/// the body checks that itself, where a failure runs the host's destroy function
/// (`destroyingOnFailure`).
@inline(__always)
func exporting(checkingCopy: Bool = true, _ body: () throws(ExportError) -> Void) -> mvvm_status {
    do {
        if checkingCopy { try refuseUntaggedCopy() }
        try body()
        return MVVM_OK
    } catch {
        LastError.set(error.message)
        return error.status
    }
}

/// A copy loaded after 255 others has no tag: its handles could not be told from another
/// copy's, so it makes none and answers every call with MVVM_ERR_BAD_REGISTRATION. A load of a
/// C global, on every call.
@inline(__always)
func refuseUntaggedCopy() throws(ExportError) {
    if let message = libmvvm_untagged() { throw ExportError(MVVM_ERR_BAD_REGISTRATION, String(cString: message)) }
}

/// This thread's message for its last failed call, kept in thread-specific storage so each
/// thread reads its own, as `errno` works.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    nonisolated(unsafe) private static let empty: UnsafePointer<CChar> = CString.intern("")

    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(previous)
    }

    static var current: UnsafePointer<CChar> {
        pthread_getspecific(key).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } ?? empty
    }
}

/// C strings that live as long as the library: class, property and status names.
enum CString {
    static func intern(_ string: String) -> UnsafePointer<CChar> {
        UnsafePointer(strdup(string)!)
    }

    /// A copy the caller frees with `mvvm_string_free`.
    static func copy(_ string: String) -> UnsafeMutablePointer<CChar> {
        strdup(string)!
    }

    /// The most of a caller's string an error message repeats, in bytes.
    static let echoLimit = 100

    /// `text` quoted for an error message, cut to `echoLimit` bytes: a message repeats what the
    /// caller passed so they can find it, not a copy of a 10 MB argument. Bytes, not characters:
    /// one character may be megabytes of combining marks.
    static func echo(_ text: String) -> String {
        guard text.utf8.count > echoLimit else { return JSON.quote(text) }
        return JSON.quote(prefix(text, bytes: echoLimit)) + "… (\(text.utf8.count) bytes in all)"
    }

    /// `value` as JSON for an error message, cut as ``echo(_:)`` cuts: a string is quoted from
    /// its first bytes only (never all of a 4 MB one).
    static func echo(_ value: Value) -> String {
        if case let .string(text) = value { return echo(text) }
        return excerpt(value.json)
    }

    /// The most of a message from Swift code (a constructor's refusal, a command's error) that
    /// a call repeats, in bytes: such text may quote what the host passed, at any length.
    static let messageLimit = 1000

    /// `text` cut to `messageLimit` bytes.
    static func capped(_ text: String) -> String { excerpt(text, bytes: messageLimit) }

    /// `text` (JSON, say, already quoted) cut to `limit` bytes, then its length.
    static func excerpt(_ text: String, bytes limit: Int = echoLimit) -> String {
        guard text.utf8.count > limit else { return text }
        return prefix(text, bytes: limit) + "… (\(text.utf8.count) bytes in all)"
    }

    /// The longest start of `text` of at most `limit` bytes that ends where a character's UTF-8
    /// encoding does (a combining mark may be left without its base: still valid UTF-8).
    static func prefix(_ text: String, bytes limit: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// Reads a NUL-terminated UTF-8 argument; `what` names it in errors, made only then.
    static func read(_ pointer: UnsafePointer<CChar>?, _ what: @autoclosure () -> String) throws(ExportError) -> String {
        guard let pointer else { throw .nullPointer(what()) }
        guard let string = String(validatingCString: pointer) else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) is not valid UTF-8")
        }
        return string
    }
}

extension mvvm_status {
    // Interned once and never freed: safe to share.
    nonisolated(unsafe) static let names: [UInt32: UnsafePointer<CChar>] = {
        // The header's statuses, generated from it (Generated/StatusNames.swift).
        Dictionary(uniqueKeysWithValues: headerNames.map { ($0.0.rawValue, CString.intern($0.1)) })
    }()

    nonisolated(unsafe) static let unknownName = CString.intern("MVVM_UNKNOWN_STATUS")
}

/// `noun` after its indefinite article, as it is read aloud: "an Attendee", "a UUID", "an int",
/// "a user". An acronym (its first two letters capitals) is read letter by letter.
func withArticle(_ noun: String) -> String {
    let letters = Array(noun.drop { !$0.isLetter })
    guard let first = letters.first else { return "a \(noun)" }
    let soundsLikeAVowel: Bool
    if first.isUppercase, letters.count > 1, letters[1].isUppercase {
        soundsLikeAVowel = "AEFHILMNORSX".contains(first)
    } else {
        let word = String(letters.prefix(3)).lowercased()
        switch word.first {
        case "a", "e", "i", "o": soundsLikeAVowel = true
        // "a unit", "a user", "a utility", "a URL-like uri"; but "an update", "an umbrella".
        case "u": soundsLikeAVowel = !["uni", "use", "usa", "usu", "uti", "ure", "uri", "uro"].contains(word)
        default: soundsLikeAVowel = false
        }
    }
    return (soundsLikeAVowel ? "an " : "a ") + noun
}
