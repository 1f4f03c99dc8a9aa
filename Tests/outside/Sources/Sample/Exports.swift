// The package's one registration: each class once, each member in one line.
import MVVMExport

@_cdecl("libmvvm_register_package")
public func registerSample() {
    Exports.register(Greeter.self, doc: "Greets whoever the view names.") { c in
        c.binding("name", \.name, \.$name, doc: "Who to greet.")
        c.output("greeting", \.greeting, \.$greeting, doc: "\"Hello, <name>!\", or \"Hello!\".")
        c.output("greet_count", \.greetCount, \.$greetCount, doc: "How many times greet ran.")
        c.command("greet", doc: "Says the greeting.") { $0.greet() }
        c.signal("greeted", doc: "Each greeting said.") { $0.greeted }
        c.constructor(doc: "Nobody named yet.") { _ in Greeter() }
        c.constructor("name", doc: "Greeting `name`.", .value("name")) { (_, name: String) in Greeter(name: name) }
    }
    Exports.register(Tally.self, doc: "A running total (an @Observable class).") { c in
        c.output("total", \.total, doc: "The running total.")
        c.binding("step", \.step, doc: "What add adds.")
        c.binding("title", \.title, doc: "A label.")
        c.output("is_even", \.isEven, doc: "Whether total is even.")
        c.command("add", doc: "Adds step.") { $0.add() }
        c.command("add_many", doc: "Adds step that many times, as one change.") { (tally, times: Int) in tally.addMany(times) }
        c.command("reset", doc: "Back to 0.") { $0.reset() }
        c.constructor(doc: "Starting at `start`.", .value("start")) { (_, start: Int) in Tally(start: start) }
    }
}
