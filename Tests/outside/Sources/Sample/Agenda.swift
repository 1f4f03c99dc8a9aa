// An agenda of speakers written as an app's view model is, over structs of a file the export code
// does not own: records registered by their fields (no Codable), and callback properties (the way
// many view models tell their view something happened) exported as signals.
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
    /// How often the app's own speakerChangedAction ran: set before the engine's, it is kept.
    @Published public var ownCalls = 0
    public var speakerChangedAction: (() -> Void)?
    public var speakerAddedAction: ((Speaker) -> Void)?

    public init() {
        speakerChangedAction = { [unowned self] in ownCalls += 1 }
    }

    public func add(_ speaker: Speaker) -> Int {
        speakers.append(speaker)
        speakerAddedAction?(speaker)
        return speakers.count
    }

    /// The first speaker not yet heard becomes the speaker; nil when all were.
    public func next() -> Speaker? {
        guard let index = speakers.firstIndex(where: { !$0.isCompleted }) else { return nil }
        speakers[index].isCompleted = true
        speaker = speakers[index]
        speakerChangedAction?()
        return speaker
    }

    /// Calls speakerChangedAction from a thread of the global pool, as a completion on a queue
    /// of its own would.
    public func changeSpeakerElsewhere() {
        Task.detached { [self] in speakerChangedAction?() }
    }

    /// The app's own code assigns the callback: the signal is disconnected.
    public func replaceCallback() {
        speakerChangedAction = { [unowned self] in ownCalls += 100 }
    }
}

/// Agendas reached as a child and as a list's items, as a screen's rows are: a host makes and
/// lets go of their handles as its list view scrolls.
public final class Conference: ObservableObject, @unchecked Sendable {
    public let keynote = Agenda()
    @Published public var tracks: [Agenda]

    public init() { tracks = [keynote, Agenda()] }
}
