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

// MARK: What MVVMPublished does without subscribing, against OpenCombine's subscriptions

/// A property derived from four (`CombineLatest4…map…assign(to:)`: a derivation, no
/// subscription), one read twice (the general way), and one fed by a subject through operators
/// (subscribed at the subject's first value): the same class with each flavour.
final class LeanDerivedForm: MVVMPublished.ObservableObject {
    let taps = MVVMPublished.PassthroughSubject<Int, Never>()
    @MVVMPublished.Published var a = ""
    @MVVMPublished.Published var b = ""
    @MVVMPublished.Published var c = 0
    @MVVMPublished.Published var d = false
    @MVVMPublished.Published private(set) var all = ""
    @MVVMPublished.Published private(set) var twice = ""
    @MVVMPublished.Published private(set) var tapped: Int?

    init() {
        $a.combineLatest($b, $c, $d).map { "\($0)|\($1)|\($2)|\($3)" }.assign(to: &$all)
        $a.combineLatest($a).map { $0 + $1 }.assign(to: &$twice)
        taps.compactMap { $0 < 0 ? nil : $0 }.map { $0 * 10 }.filter { $0 != 20 }.map(Optional.some).assign(to: &$tapped)
    }
}

final class OpenCombineDerivedForm: OpenCombine.ObservableObject {
    let taps = OpenCombine.PassthroughSubject<Int, Never>()
    @OpenCombine.Published var a = ""
    @OpenCombine.Published var b = ""
    @OpenCombine.Published var c = 0
    @OpenCombine.Published var d = false
    @OpenCombine.Published private(set) var all = ""
    @OpenCombine.Published private(set) var twice = ""
    @OpenCombine.Published private(set) var tapped: Int?

    init() {
        $a.combineLatest($b, $c, $d).map { "\($0)|\($1)|\($2)|\($3)" }.assign(to: &$all)
        $a.combineLatest($a).map { $0 + $1 }.assign(to: &$twice)
        taps.compactMap { $0 < 0 ? nil : $0 }.map { $0 * 10 }.filter { $0 != 20 }.map(Optional.some).assign(to: &$tapped)
    }
}

/// What each flavour's derived form lets a scenario do.
struct DerivedFormUnderTest {
    let setA: (String) -> Void, setB: (String) -> Void, setC: (Int) -> Void, setD: (Bool) -> Void
    let all: () -> String, twice: () -> String, tapped: () -> Int?
    let allPublisher: AnyPublisher<String, Never>, twicePublisher: AnyPublisher<String, Never>
    let tappedPublisher: AnyPublisher<Int?, Never>
    let willChange: AnyPublisher<Void, Never>
    let tap: (Int) -> Void, finishTaps: () -> Void
    let tapsPublisher: AnyPublisher<Int, Never>
    let tapsSubscriber: AnySubscriber<Int, Never>
}

extension LeanDerivedForm {
    var underTest: DerivedFormUnderTest {
        DerivedFormUnderTest(
            setA: { self.a = $0 }, setB: { self.b = $0 }, setC: { self.c = $0 }, setD: { self.d = $0 },
            all: { self.all }, twice: { self.twice }, tapped: { self.tapped },
            allPublisher: $all.eraseToAnyPublisher(), twicePublisher: $twice.eraseToAnyPublisher(),
            tappedPublisher: $tapped.eraseToAnyPublisher(), willChange: objectWillChange.eraseToAnyPublisher(),
            tap: { self.taps.send($0) }, finishTaps: { self.taps.send(completion: .finished) },
            tapsPublisher: taps.eraseToAnyPublisher(), tapsSubscriber: AnySubscriber(taps))
    }
}

extension OpenCombineDerivedForm {
    var underTest: DerivedFormUnderTest {
        DerivedFormUnderTest(
            setA: { self.a = $0 }, setB: { self.b = $0 }, setC: { self.c = $0 }, setD: { self.d = $0 },
            all: { self.all }, twice: { self.twice }, tapped: { self.tapped },
            allPublisher: $all.eraseToAnyPublisher(), twicePublisher: $twice.eraseToAnyPublisher(),
            tappedPublisher: $tapped.eraseToAnyPublisher(), willChange: objectWillChange.map { _ in () }.eraseToAnyPublisher(),
            tap: { self.taps.send($0) }, finishTaps: { self.taps.send(completion: .finished) },
            tapsPublisher: taps.eraseToAnyPublisher(), tapsSubscriber: AnySubscriber(taps))
    }
}

/// Runs `scenario` on both derived forms (each kept alive through it) and checks they heard the same.
func derivedAlike<T: Equatable>(_ scenario: (DerivedFormUnderTest) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> T {
    let leanForm = LeanDerivedForm(), openCombineForm = OpenCombineDerivedForm()
    let lean = withExtendedLifetime(leanForm) { scenario(leanForm.underTest) }
    let openCombine = withExtendedLifetime(openCombineForm) { scenario(openCombineForm.underTest) }
    #expect(lean == openCombine, "MVVMPublished heard \(lean), OpenCombine \(openCombine)", sourceLocation: sourceLocation)
    return lean
}

@Suite("MVVMCombine's derivations and lazy subjects, as OpenCombine's subscriptions")
struct PublishedDerivationCompatibilityTests {
    @Test func aCombineLatest4MapAssignKeepsItsPropertyInStep() {
        let heard = derivedAlike { form -> [String] in
            var heard = ["now \(form.all())"]
            let sink = form.allPublisher.sink { heard.append("sink \($0)") }
            form.setA("x")
            form.setC(3)
            form.setD(true)
            form.setB("y")
            sink.cancel()
            form.setA("z")
            heard.append("now \(form.all())")
            return heard
        }
        #expect(heard == ["now ||0|false", "sink ||0|false", "sink x||0|false", "sink x||3|false", "sink x||3|true",
                          "sink x|y|3|true", "now z|y|3|true"])
    }

    @Test func aPropertyReadTwiceSendsForEachUse() {
        let heard = derivedAlike { form -> [String] in
            var heard: [String] = []
            let sink = form.twicePublisher.sink { heard.append($0) }
            form.setA("q")
            sink.cancel()
            heard.append(form.twice())
            return heard
        }
        // CombineLatest hears the one set once from each side.
        #expect(heard == ["", "q", "qq", "qq"])
    }

    @Test func objectWillChangeHearsTheSetAndEachDerivedSet() {
        let heard = derivedAlike { form -> [String] in
            var heard: [String] = []
            let sink = form.willChange.sink { heard.append("will change, all \(form.all())") }
            form.setB("b")
            form.setD(true)
            form.tap(1)
            sink.cancel()
            return heard
        }
        // Each set, then the derived set it causes (the tap's one), before either is stored.
        #expect(heard == ["will change, all ||0|false", "will change, all ||0|false", "will change, all |b|0|false",
                          "will change, all |b|0|false", "will change, all |b|0|true"])
    }

    @Test func aSubjectsOperatorsAssignFromItsFirstValue() {
        let heard = derivedAlike { form -> [String] in
            var heard = ["\(form.tapped().map(String.init) ?? "nil")"]
            let sink = form.tappedPublisher.sink { heard.append("sink \($0.map(String.init) ?? "nil")") }
            form.tap(1)
            form.tap(-1)
            form.tap(2)
            form.tap(3)
            form.finishTaps()
            form.tap(4)
            sink.cancel()
            heard.append("\(form.tapped().map(String.init) ?? "nil")")
            return heard
        }
        #expect(heard == ["nil", "sink nil", "sink 10", "sink 30", "30"])
    }

    @Test func aSubjectSendsOnlyToThoseSubscribedAndEndsOnce() {
        // Each subscriber's own order (a subject's order among its subscribers is not Combine's
        // promise, nor OpenCombine's: it keeps several in a set).
        let heard = derivedAlike { form -> [String] in
            var first: [String] = [], second: [String] = [], late: [String] = []
            form.tap(0)
            let a = form.tapsPublisher.sink(receiveCompletion: { first.append("\($0)") }, receiveValue: { first.append("\($0)") })
            form.tap(1)
            let b = form.tapsPublisher.sink(receiveCompletion: { second.append("\($0)") }, receiveValue: { second.append("\($0)") })
            form.tap(2)
            a.cancel()
            form.tap(3)
            form.finishTaps()
            form.tap(4)
            let c = form.tapsPublisher.sink(receiveCompletion: { late.append("\($0)") }, receiveValue: { late.append("\($0)") })
            b.cancel()
            c.cancel()
            return ["first: \(first)", "second: \(second)", "late: \(late)"]
        }
        #expect(heard == ["first: [\"1\", \"2\"]", "second: [\"2\", \"3\", \"finished\"]", "late: [\"finished\"]"])
    }

    @Test func aSubjectSubscribedToAnUpstreamForwardsIt() {
        let heard = derivedAlike { form -> [String] in
            var heard: [String] = []
            let sink = form.tapsPublisher.sink(receiveCompletion: { heard.append("\($0)") },
                                               receiveValue: { heard.append("\($0)") })
            [5, 6].publisher.subscribe(form.tapsSubscriber)
            sink.cancel()
            heard.append("tapped \(form.tapped().map(String.init) ?? "nil")")
            return heard
        }
        #expect(heard == ["5", "6", "finished", "tapped 60"])
    }

    @Test func aFormAndItsAssignmentsGoWhenLetGo() {
        weak var leanGone: LeanDerivedForm?
        weak var openCombineGone: OpenCombineDerivedForm?
        var kept: [AnyCancellable] = []
        do {
            let lean = LeanDerivedForm(), openCombine = OpenCombineDerivedForm()
            leanGone = lean
            openCombineGone = openCombine
            kept.append(lean.$all.sink { _ in })
            kept.append(openCombine.$all.sink { _ in })
            lean.taps.send(1)
            openCombine.taps.send(1)
            lean.a = "x"
            openCombine.a = "x"
        }
        #expect(leanGone == nil)
        #expect(openCombineGone == nil)
        kept.removeAll()
    }
}
