// MVVMCombine's @Published and ObservableObject (MVVMPublished) against OpenCombine's, which
// follow Apple's: each scenario runs on a class written with one and on the same class written
// with the other, and the two must be heard alike (and as Combine documents).
import Foundation
import MVVMPublished
import MVVMRuntime
import OpenCombine
import Testing

/// What a scenario needs of a view model, whichever @Published it is written with.
protocol FormUnderTest: AnyObject {
    var name: String { get set }
    var count: Int { get set }
    var note: String? { get set }
    var tags: [String] { get set }
    var mood: Mood { get set }
    var spot: Spot { get set }
    var greeting: String { get }
    func namePublisher() -> AnyPublisher<String, Never>
    func countPublisher() -> AnyPublisher<Int, Never>
    func willChange() -> AnyPublisher<Void, Never>
    func sendWillChange()
}

enum Mood: String { case calm, cheerful }
struct Spot: Equatable { var x: Int, y: Int }

final class LeanForm: MVVMPublished.ObservableObject, FormUnderTest {
    @MVVMPublished.Published var name = ""
    @MVVMPublished.Published var count = 0
    @MVVMPublished.Published var note: String?
    @MVVMPublished.Published var tags: [String] = []
    @MVVMPublished.Published var mood = Mood.calm
    @MVVMPublished.Published var spot = Spot(x: 0, y: 0)
    @MVVMPublished.Published private(set) var greeting = ""

    init() { $name.map { "Hello, \($0)" }.assign(to: &$greeting) }

    func namePublisher() -> AnyPublisher<String, Never> { $name.eraseToAnyPublisher() }
    func countPublisher() -> AnyPublisher<Int, Never> { $count.eraseToAnyPublisher() }
    func willChange() -> AnyPublisher<Void, Never> { objectWillChange.eraseToAnyPublisher() }
    func sendWillChange() { objectWillChange.send() }
}

final class OpenCombineForm: OpenCombine.ObservableObject, FormUnderTest {
    @OpenCombine.Published var name = ""
    @OpenCombine.Published var count = 0
    @OpenCombine.Published var note: String?
    @OpenCombine.Published var tags: [String] = []
    @OpenCombine.Published var mood = Mood.calm
    @OpenCombine.Published var spot = Spot(x: 0, y: 0)
    @OpenCombine.Published private(set) var greeting = ""

    init() { $name.map { "Hello, \($0)" }.assign(to: &$greeting) }

    func namePublisher() -> AnyPublisher<String, Never> { $name.eraseToAnyPublisher() }
    func countPublisher() -> AnyPublisher<Int, Never> { $count.eraseToAnyPublisher() }
    func willChange() -> AnyPublisher<Void, Never> { objectWillChange.map { _ in () }.eraseToAnyPublisher() }
    func sendWillChange() { objectWillChange.send() }
}

/// A subclass adding a property: its sets reach the object's one objectWillChange too.
class LeanBase: MVVMPublished.ObservableObject {
    @MVVMPublished.Published var base = 0
}
final class LeanDerived: LeanBase {
    @MVVMPublished.Published var derived = 0
}
class OpenCombineBase: OpenCombine.ObservableObject {
    @OpenCombine.Published var base = 0
}
final class OpenCombineDerived: OpenCombineBase {
    @OpenCombine.Published var derived = 0
}

@MainActor
final class LeanMainActorCounter: MVVMPublished.ObservableObject {
    @MVVMPublished.Published var count = 0
    func increment() { count += 1 }
}

@MainActor
final class OpenCombineMainActorCounter: OpenCombine.ObservableObject {
    @OpenCombine.Published var count = 0
    func increment() { count += 1 }
}

/// Runs `scenario` on both flavours and checks they heard the same; gives what the lean one heard.
func heardAlike<T: Equatable>(_ scenario: (FormUnderTest) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> T {
    let lean = scenario(LeanForm())
    let openCombine = scenario(OpenCombineForm())
    #expect(lean == openCombine, "MVVMPublished heard \(lean), OpenCombine \(openCombine)", sourceLocation: sourceLocation)
    return lean
}

@Suite("MVVMCombine's @Published and ObservableObject, as OpenCombine's")
struct PublishedCompatibilityTests {
    @Test func aSinkHearsTheCurrentValueThenEachNewOneInWillSet() {
        let heard = heardAlike { form -> [String] in
            var heard: [String] = []
            form.name = "a"
            let sink = form.namePublisher().sink { [unowned form] value in heard.append("\(value) (was \(form.name))") }
            form.name = "b"
            form.name = "b"
            sink.cancel()
            form.name = "c"
            return heard
        }
        #expect(heard == ["a (was a)", "b (was a)", "b (was b)"])
    }

    @Test func objectWillChangeFiresBeforeEachSetAndOnSend() {
        let heard = heardAlike { form -> [String] in
            var heard: [String] = []
            let sink = form.willChange().sink { [unowned form] in heard.append("will change from \(form.count)") }
            form.count = 1
            form.count = 2
            form.sendWillChange()
            sink.cancel()
            form.count = 3
            return heard
        }
        // assign(to:) keeps `greeting` in step, which is a change of its own: not here (name unset).
        #expect(heard == ["will change from 0", "will change from 1", "will change from 2"])
    }

    @Test func assignToPublishedKeepsAPropertyInStep() {
        let greetings = heardAlike { form -> [String] in
            var greetings = [form.greeting]
            form.name = "Ada"
            greetings.append(form.greeting)
            form.name = "Bob"
            greetings.append(form.greeting)
            return greetings
        }
        #expect(greetings == ["Hello, ", "Hello, Ada", "Hello, Bob"])
    }

    @Test func combineLatestOfTwoProperties() {
        let heard = heardAlike { form -> [String] in
            var heard: [String] = []
            let sink = form.namePublisher().combineLatest(form.countPublisher()).sink { heard.append("\($0) \($1)") }
            form.name = "x"
            form.count = 2
            sink.cancel()
            return heard
        }
        #expect(heard == [" 0", "x 0", "x 2"])
    }

    @Test func debounceOnTheLoopsClock() {
        let heard = heardAlike { form -> [String] in
            var heard: [String] = []
            let loop = try! Loop(kind: .virtual)
            let sink = form.namePublisher().dropFirst().debounce(for: .milliseconds(100), scheduler: loop)
                .sink { heard.append($0) }
            form.name = "s"
            try! loop.advance(byMilliseconds: 50)
            form.name = "sw"
            try! loop.advance(byMilliseconds: 99)
            heard.append("-")
            try! loop.advance(byMilliseconds: 1)
            sink.cancel()
            return heard
        }
        #expect(heard == ["-", "sw"])
    }

    @Test func optionalsArraysEnumsAndStructs() {
        let values = heardAlike { form -> [String] in
            var values: [String] = []
            let willChange = form.willChange().sink { values.append("will change") }
            form.note = "n"
            form.note = nil
            form.tags.append("one")
            form.tags[0] = "uno"
            form.mood = .cheerful
            form.spot.x = 3
            willChange.cancel()
            values.append("\(form.note ?? "nil") \(form.tags) \(form.mood) \(form.spot)")
            return values
        }
        #expect(values.filter { $0 == "will change" }.count == 6)
        #expect(values.last == "nil [\"uno\"] cheerful Spot(x: 3, y: 0)")
    }

    @Test func aSubclassesPropertiesShareTheObjectsWillChange() {
        var lean = 0, openCombine = 0
        let leanObject = LeanDerived(), openCombineObject = OpenCombineDerived()
        let a = leanObject.objectWillChange.sink { lean += 1 }
        let b = openCombineObject.objectWillChange.sink { openCombine += 1 }
        leanObject.base = 1
        leanObject.derived = 1
        openCombineObject.base = 1
        openCombineObject.derived = 1
        #expect(lean == 2 && openCombine == 2)
        a.cancel()
        b.cancel()
    }

    @Test @MainActor func aMainActorClass() {
        var lean: [Int] = [], openCombine: [Int] = []
        let leanCounter = LeanMainActorCounter(), openCombineCounter = OpenCombineMainActorCounter()
        let a = leanCounter.$count.sink { lean.append($0) }
        let b = openCombineCounter.$count.sink { openCombine.append($0) }
        leanCounter.increment()
        openCombineCounter.increment()
        #expect(lean == [0, 1] && lean == openCombine)
        a.cancel()
        b.cancel()
    }

    @Test func anObjectGoesWithItsSubscriptionsAndAssignments() {
        weak var leanGone: LeanForm?
        weak var openCombineGone: OpenCombineForm?
        var kept: [AnyCancellable] = []
        do {
            let lean = LeanForm(), openCombine = OpenCombineForm()
            leanGone = lean
            openCombineGone = openCombine
            kept.append(lean.$name.sink { _ in })
            kept.append(openCombine.$name.sink { _ in })
            lean.name = "x"
            openCombine.name = "x"
        }
        #expect(leanGone == nil)
        #expect(openCombineGone == nil)
        kept.removeAll()
    }
}
