// Lists of child view models: an ObservableObject holding @Published [Song], and an
// @Observable class holding [Tally]. The export layer announces their changes as splices.
import Observation
@preconcurrency import OpenCombine

public final class Song: ObservableObject {
    @Published public var title: String
    public init(title: String) { self.title = title }
}

public final class Playlist: ObservableObject {
    /// Every song, in the order added.
    @Published public private(set) var all: [Song] = []
    /// The songs whose title starts with `filter` ("" shows all), in the same order.
    @Published public private(set) var songs: [Song] = []
    @Published public var filter = "" {
        didSet { refresh() }
    }

    public init() {}

    public func add(_ title: String) {
        all.append(Song(title: title))
        refresh()
    }

    /// Adds several songs at once, "a,b,c": one operation.
    public func addMany(_ titles: String) {
        all += titles.split(separator: ",").map { Song(title: String($0)) }
        refresh()
    }

    public func removeFirst() {
        guard !all.isEmpty else { return }
        all.removeFirst()
        refresh()
    }

    public func reverse() {
        all.reverse()
        refresh()
    }

    /// Moves the last song to the front.
    public func rotate() {
        guard let last = all.popLast() else { return }
        all.insert(last, at: 0)
        refresh()
    }

    public func sortByTitle() {
        all.sort { $0.title < $1.title }
        refresh()
    }

    private func refresh() {
        songs = filter.isEmpty ? all : all.filter { $0.title.hasPrefix(filter) }
    }
}

@Observable
public final class Board {
    public private(set) var tallies: [Tally] = []

    public init() {}

    public func add(_ start: Int) { tallies.append(Tally(start: start)) }

    /// Removes every tally whose total is odd.
    public func removeOdd() { tallies.removeAll { $0.total % 2 != 0 } }

    public func reverse() { tallies.reverse() }
}
