// An agenda of speakers written as an app's view model is, over structs of a file the export code
// does not own: records registered by their fields (no Codable).
import MVVMExport
@preconcurrency import OpenCombine

/// As if declared in the app's own file: no Codable, registered by its fields.
public struct Speaker: Equatable, Sendable {
    public var name: String
    public var isCompleted: Bool
    public var email: String?

    public init(name: String, isCompleted: Bool = false, email: String? = nil) {
        self.name = name
        self.isCompleted = isCompleted
        self.email = email
    }
}

/// A record of records, registered by its fields too.
public struct Slot: Equatable, Sendable {
    public var speaker: Speaker
    public var backup: Speaker?
    public var minutes: Int
}

public final class Agenda: ObservableObject, @unchecked Sendable {
    @Published public var speaker = Speaker(name: "nobody")
    @Published public var speakers: [Speaker] = []
    @Published public var slot: Slot?

    public init() {}

    public func add(_ speaker: Speaker) -> Int {
        speakers.append(speaker)
        return speakers.count
    }

    /// The first speaker not yet heard becomes the speaker; nil when all were.
    public func next() -> Speaker? {
        guard let index = speakers.firstIndex(where: { !$0.isCompleted }) else { return nil }
        speakers[index].isCompleted = true
        speaker = speakers[index]
        return speaker
    }
}
