// A file that imports MVVMCombine alone, as an app's view model does: `Published`,
// `ObservableObject`, `ObservableObjectPublisher` and `PassthroughSubject` name MVVMPublished's
// (this file compiling shows each names one type, with no ambiguity), and OpenCombine's
// operators apply to them.
import MVVMCombine
import Testing

final class OneImportForm: ObservableObject {
    let taps = PassthroughSubject<Int, Never>()
    @Published var text = ""
    @Published private(set) var taps2 = 0

    init() { taps.map { $0 * 2 }.assign(to: &$taps2) }
}

@Suite("import MVVMCombine: one Published, one PassthroughSubject")
struct OneCombineImportTests {
    @Test func theNamesAreMVVMPublishedsTypes() {
        #expect(Published<Int>.self == MVVMPublished.Published<Int>.self)
        #expect(PassthroughSubject<Int, Never>.self == MVVMPublished.PassthroughSubject<Int, Never>.self)
        #expect(ObservableObjectPublisher.self == MVVMPublished.ObservableObjectPublisher.self)
        #expect(OneImportForm.ObjectWillChangePublisher.self == MVVMPublished.ObservableObjectPublisher.self)
        #expect(ObjectIdentifier(Published<Int>.Publisher.self) == ObjectIdentifier(MVVMPublished.Published<Int>.Publisher.self))
    }

    @Test func aFormWrittenWithThemWorks() {
        let form = OneImportForm()
        var heard: [Int] = []
        let sink = form.$taps2.sink { heard.append($0) }
        form.taps.send(1)
        form.taps.send(5)
        sink.cancel()
        #expect(heard == [0, 2, 10])
    }
}
