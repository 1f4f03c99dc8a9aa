import CMVVM
import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

// Which constructor `mvvm_new` takes, decided without C: the first, in the order registered,
// whose arguments the given ones fit (by position or by name), and what a fit to none says.

private final class Meter: ObservableObject {
    @Published var reading = 0
    let label: String
    init(label: String = "", reading: Int = 0) {
        self.label = label
        self.reading = reading
    }
}

private let meter: ExportedClass = {
    var c = ExportBuilder<Meter>(name: "meter", display: nil, swiftName: "Meter", doc: "")
    c.output("reading", \.reading, \.$reading)
    c.constructor { _ in Meter() }
    c.constructor(suffix: "labelled", .value("label")) { (_, label: String) in Meter(label: label) }
    c.constructor(suffix: "reading", .value("reading")) { (_, reading: Int) in Meter(reading: reading) }
    c.constructor(suffix: "both", .value("label"), .value("reading")) { (_, label: String, reading: Int) in
        Meter(label: label, reading: reading)
    }
    return ExportedClass(c)
}()

/// Its first constructor takes an optional argument, its second none: no arguments fit both.
private let dial: ExportedClass = {
    var c = ExportBuilder<Meter>(name: "dial", display: nil, swiftName: "Meter", doc: "")
    c.constructor(suffix: "labelled", .value("label")) { (_, label: String?) in Meter(label: label ?? "") }
    c.constructor { _ in Meter() }
    return ExportedClass(c)
}()

private func chosen(_ values: [Value], names: [String?]? = nil) -> Result<String, ExportError> {
    do throws(ExportError) {
        return .success(try choose(meter, GivenArguments(values, names: names), nil).0.name)
    } catch {
        return .failure(error)
    }
}

@Suite struct ConstructorChoiceTests {
    @Test func theFirstConstructorTheArgumentsFitIsChosen() throws {
        #expect(try chosen([]).get() == "new")
        #expect(try chosen([.string("hall")]).get() == "new_with_labelled")
        #expect(try chosen([.int(3)]).get() == "new_with_reading")
        #expect(try chosen([.string("hall"), .int(3)]).get() == "new_with_both")
    }

    @Test func noArgumentsTakeTheFirstConstructorTheyFitEvenWhenALaterOneTakesNone() throws {
        let (constructor, values) = try choose(dial, GivenArguments([]), nil)
        #expect(constructor.name == "new_with_labelled")
        #expect(values == [.null])
    }

    @Test func namedArgumentsChooseByTheirNames() throws {
        #expect(try chosen([.int(3)], names: ["reading"]).get() == "new_with_reading")
        #expect(try chosen([.int(3), .string("hall")], names: ["reading", "label"]).get() == "new_with_both")
    }

    @Test func aFixedConstructorTakesOnlyItsOwnArguments() throws {
        let labelled = try #require(meter.constructors.first { $0.name == "new_with_labelled" })
        let (constructor, values) = try choose(meter, GivenArguments([.string("hall")]), labelled)
        #expect(constructor.name == "new_with_labelled")
        #expect(values == [.string("hall")])
        #expect(throws: ExportError.self) { try choose(meter, GivenArguments([.int(3)]), labelled) }
    }

    @Test func argumentsThatFitNoConstructorAreRefusedWithTheForms() {
        guard case let .failure(error) = chosen([.bool(true), .bool(false), .bool(true)]) else {
            Issue.record("three booleans were taken")
            return
        }
        #expect(error.status == MVVM_ERR_INVALID_ARGUMENT)
        #expect(error.message == "meter takes () or (label: string) or (reading: int) or (label: string, reading: int), "
            + "not 3 arguments")
    }
}
