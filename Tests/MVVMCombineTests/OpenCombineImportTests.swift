// A file that imports OpenCombine itself (and not MVVMCombine) keeps OpenCombine's own
// `Published`, `ObservableObject` and `PassthroughSubject`, though other files of the same module
// import MVVMCombine: this file compiling shows each name is OpenCombine's alone here.
import OpenCombine
import Testing

final class OpenCombineOnlyForm: ObservableObject {
    let taps = PassthroughSubject<Int, Never>()
    @Published var text = ""
}

@Suite("import OpenCombine: OpenCombine's own types")
struct OpenCombineImportTests {
    @Test func theNamesAreOpenCombinesTypes() {
        #expect(Published<Int>.self == OpenCombine.Published<Int>.self)
        #expect(PassthroughSubject<Int, Never>.self == OpenCombine.PassthroughSubject<Int, Never>.self)
        #expect(OpenCombineOnlyForm.ObjectWillChangePublisher.self == OpenCombine.ObservableObjectPublisher.self)
        let form = OpenCombineOnlyForm()
        var changes = 0
        let sink = form.objectWillChange.sink { changes += 1 }
        form.text = "a"
        sink.cancel()
        #expect(changes == 1)
    }
}
