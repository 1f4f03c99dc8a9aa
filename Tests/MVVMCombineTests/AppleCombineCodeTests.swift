// Code as it is written for Apple's Combine, with `import Combine` replaced by `import MVVMCombine`
// and nothing else: this file compiling is the first test; the tests run what it declares.
import Foundation
import MVVMCombine
import Testing

/// A sign-up form as a Combine tutorial writes it: @Published inputs, CombineLatest3 of their
/// publishers, removeDuplicates, assign(to: &$).
final class SignUpFormViewModel: ObservableObject {
    @Published var userName = ""
    @Published var password = ""
    @Published var passwordAgain = ""
    @Published private(set) var isValid = false

    init() {
        Publishers.CombineLatest3($userName, $password, $passwordAgain)
            .map { name, password, again in name.count >= 3 && password.count >= 8 && password == again }
            .removeDuplicates()
            .assign(to: &$isValid)
    }
}

/// A search screen: a debounce and a receive(on:) on a scheduler it is given, RunLoop.main and
/// DispatchQueue.main by the names Apple's code uses (`onTheMainThread`); results decoded with
/// JSONDecoder. The tests give it a virtual loop, whose time they move.
final class SearchViewModel<S: Scheduler>: ObservableObject {
    struct Hit: Decodable, Equatable { let title: String }

    @Published var query = ""
    @Published private(set) var debounced = ""
    @Published private(set) var hits: [Hit] = []
    private let scheduler: S
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: S, debounce: S.SchedulerTimeType.Stride) {
        self.scheduler = scheduler
        $query
            .dropFirst()
            .debounce(for: debounce, scheduler: scheduler)
            .sink { [weak self] in self?.debounced = $0 }
            .store(in: &cancellables)
    }

    func load(_ json: Data) {
        Just(json)
            .decode(type: [Hit].self, decoder: JSONDecoder())
            .replaceError(with: [])
            .receive(on: scheduler)
            .sink { [weak self] in self?.hits = $0 }
            .store(in: &cancellables)
    }
}

/// As an app makes it: Apple's schedulers by their own names (compiled, not run: their time is
/// real, and the main queue runs only on a main thread that drains it).
func onTheMainThread() -> (SearchViewModel<RunLoop>, SearchViewModel<DispatchQueue>) {
    (SearchViewModel(scheduler: RunLoop.main, debounce: .milliseconds(300)),
     SearchViewModel(scheduler: DispatchQueue.main, debounce: .milliseconds(300)))
}

/// Events of several sources as one stream: Merge3, a PassthroughSubject, a Future, a
/// NotificationCenter publisher, objectWillChange.
final class ActivityViewModel: ObservableObject {
    let taps = PassthroughSubject<String, Never>()
    let swipes = PassthroughSubject<String, Never>()
    @Published private(set) var log: [String] = []
    private var cancellables = Set<AnyCancellable>()
    static let ping = Notification.Name("ActivityViewModel.ping")

    init(center: NotificationCenter) {
        let pings = center.publisher(for: Self.ping).map { _ in "ping" }
        Publishers.Merge3(taps, swipes, pings)
            .sink { [weak self] in self?.log.append($0) }
            .store(in: &cancellables)
        Future<String, Never> { promise in promise(.success("ready")) }
            .sink { [weak self] in self?.log.append($0) }
            .store(in: &cancellables)
    }
}

@Suite("Code written for Apple's Combine, importing MVVMCombine")
struct AppleCombineCodeTests {
    @Test func combineLatest3AndAssignToPublished() {
        let form = SignUpFormViewModel()
        var changes = 0
        let watch = form.objectWillChange.sink { changes += 1 }
        form.userName = "ada"
        form.password = "12345678"
        #expect(!form.isValid)
        form.passwordAgain = "12345678"
        #expect(form.isValid)
        #expect(changes == 4)  // three inputs, and isValid once
        watch.cancel()
    }

    @Test func debounceDecodeAndReceiveOnAScheduler() throws {
        let loop = try Loop(kind: .virtual)
        let search = SearchViewModel(scheduler: loop, debounce: .milliseconds(300))
        search.query = "s"
        try loop.advance(byMilliseconds: 100)
        search.query = "swift"
        try loop.advance(byMilliseconds: 299)
        #expect(search.debounced == "")
        try loop.advance(byMilliseconds: 1)
        #expect(search.debounced == "swift")
        search.load(Data(#"[{"title": "Swift"}, {"title": "Combine"}]"#.utf8))
        #expect(search.hits == [])
        try loop.advance(byMilliseconds: 0)
        #expect(search.hits == [.init(title: "Swift"), .init(title: "Combine")])
    }

    @Test func merge3OfSubjectsAndNotificationsAndAFuture() {
        let center = NotificationCenter()
        let activity = ActivityViewModel(center: center)
        activity.taps.send("tap")
        center.post(name: ActivityViewModel.ping, object: nil)
        activity.swipes.send("swipe")
        #expect(activity.log == ["ready", "tap", "ping", "swipe"])
    }
}
