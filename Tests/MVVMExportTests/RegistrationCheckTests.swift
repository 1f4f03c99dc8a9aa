import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

/// The registration check, without C: classes built as `Exports.register` builds them, checked
/// as a whole as the registry checks a library's.
private final class Page {}
private final class PageViewModel {}
private final class Looper {}

private func exported<Target: AnyObject>(_ type: Target.Type, as name: String, display: String? = nil,
                                         _ build: (inout ExportBuilder<Target>) -> Void = { _ in }) -> ExportedClass {
    var builder = ExportBuilder<Target>(name: name, display: display, swiftName: String(describing: type), doc: "")
    build(&builder)
    return ExportedClass(builder)
}

private func problems(_ classes: [ExportedClass]) -> [String] {
    RegistrationCheck(classes: classes, byType: Dictionary(uniqueKeysWithValues: classes.map { ($0.swiftType, $0) }),
                      records: [:]).problems
}

@Suite struct RegistrationCheckTests {
    /// A typed call named as another class's: mvvm_counter_page_view_model_new is both the
    /// constructor of counter_page_view_model and the command view_model_new of counter_page.
    @Test func aTypedCallNamedAsAnotherClassesIsRefused() {
        let viewModel = exported(PageViewModel.self, as: "counter_page_view_model") { c in
            c.constructor { _ in PageViewModel() }
        }
        let page = exported(Page.self, as: "counter_page") { c in c.command("view_model_new") { _ in } }
        #expect(problems([viewModel, page]) == [
            "class counter_page (Page): command view_model_new would be mvvm_counter_page_view_model_new, as class "
                + "counter_page_view_model (PageViewModel)'s constructor new is",
        ])
        // Alone, each is sound.
        #expect(problems([viewModel]).isEmpty && problems([page]).isEmpty)
    }

    /// A typed call named as a function of the ABI: a class loop's constructor and its command
    /// advance would be mvvm_loop_new and mvvm_loop_advance.
    @Test func aTypedCallNamedAsTheABIsIsRefused() {
        let loop = exported(Looper.self, as: "loop") { c in
            c.command("advance") { _ in }
            c.command("spin") { _ in }
            c.constructor { _ in Looper() }
        }
        #expect(problems([loop]) == [
            "class loop (Looper): command advance would be mvvm_loop_advance, a name of the C ABI (mvvm.h)",
            "class loop (Looper): constructor new would be mvvm_loop_new, a name of the C ABI (mvvm.h)",
        ])
        // The ABI's types too: a command kind of a class event would be the enum mvvm_event_kind.
        let event = exported(Looper.self, as: "event") { c in c.command("kind") { _ in } }
        #expect(problems([event]) == ["class event (Looper): command kind would be mvvm_event_kind, a name of the C ABI (mvvm.h)"])
    }

    /// Within one class, as before: a command get_title and a property title's getter.
    @Test func twoTypedCallsOfOneClassWithOneNameAreRefused() {
        let page = exported(Page.self, as: "page") { c in
            c.output("title", get: { _ in "" }, publisher: { _ in Just("") })
            c.command("get_title") { _ in }
        }
        #expect(problems([page]) == ["class page (Page): command get_title and property title's getter would both be mvvm_page_get_title"])
    }

    /// A display name is the CamelCase of the C name unless `display:` gives one; two classes
    /// shown by one name, or a name no binding could take as a class's, are refused.
    @Test func displayNamesAreOneEachAndCamelCase() {
        let page = exported(Page.self, as: "counter_page")
        #expect(page.display == "CounterPage")
        let renamed = exported(PageViewModel.self, as: "page_view_model", display: "CounterPage")
        #expect(problems([page, renamed]) == [
            "class page_view_model (PageViewModel): its display name CounterPage is class counter_page (Page)'s too",
        ])
        let lower = exported(Looper.self, as: "looper", display: "looper_2")
        #expect(problems([lower]) == [
            "class looper (Looper): its display name \"looper_2\" is not a CamelCase identifier ([A-Z][A-Za-z0-9]*)",
        ])
        #expect(problems([exported(Looper.self, as: "looper", display: "Spinner")]).isEmpty)
    }

    /// A derived member and a hand-written one that collide are named with their origins, so that
    /// the message says which line to change; a class registered by hand alone is named as ever.
    @Test func aCollisionOfDerivedAndHandWrittenMembersNamesBoth() {
        let page = exported(Page.self, as: "page") { c in
            c.origin = .derived
            c.output("title", get: { _ in "" }, publisher: { _ in Just("") })
            c.command("open") { _ in }
            c.origin = .hand
            c.command("title") { _ in }
            c.command("get_title") { _ in }
            c.command("close") { _ in }
        }
        #expect(problems([page]) == [
            "class page (Page): command title (written by hand) has the name of its property title (derived from the code)",
            "class page (Page): command get_title (written by hand) and property title (derived from the code)'s getter "
                + "would both be mvvm_page_get_title",
        ])
        let byHand = exported(Page.self, as: "page") { c in
            c.output("title", get: { _ in "" }, publisher: { _ in Just("") })
            c.command("title") { _ in }
        }
        #expect(problems([byHand]).first == "class page (Page): command title has the name of its property title")
        // Wholly derived, or derived with a hand hook that adds nothing: one origin, named as ever.
        let derived = exported(Page.self, as: "page") { c in
            c.origin = .derived
            c.output("title", get: { _ in "" }, publisher: { _ in Just("") })
            c.command("title") { _ in }
            c.origin = .hand
        }
        #expect(problems([derived]).first == "class page (Page): command title has the name of its property title")
    }

    /// The catalog's classes, as the library registers them, break no rule.
    @Test func theCatalogIsSound() {
        #expect(Registry.shared.problems.isEmpty)
    }
}
