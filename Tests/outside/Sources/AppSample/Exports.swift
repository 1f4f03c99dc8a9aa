// The package's registration: a @MainActor class in Swift 6 mode, one line per member, the
// class's code untouched; and the Swift 5 target's class.
import AppSampleSwift5
import MVVMExport

@_cdecl("libmvvm_register_package")
public func registerAppSample() {
    Exports.register(MeetingViewModel.self, doc: "A meeting's timer (a @MainActor class).", isolation: .mainActor) { c in
        c.output("seconds_elapsed", \.secondsElapsed, \.$secondsElapsed)
        c.output("speaker", \.speaker, \.$speaker)
        c.output("status", \.status, \.$status)
        c.output("polls", \.polls, \.$polls)
        c.command("start") { $0.start() }
        c.command("stop") { $0.stop() }
        c.command("skip_speaker") { $0.skipSpeaker() }
        c.command("refresh") { $0.refresh() }
        c.asyncCommand("fetch") { await $0.fetch() }
        c.constructor { _ in MeetingViewModel() }
    }
    Exports.register(WeatherViewModel.self, doc: "Combine on RunLoop.main.", isolation: .mainActor) { c in
        c.binding("city", \.city, \.$city)
        c.output("current_weather", \.currentWeather, \.$currentWeather)
        c.output("echo", \.echo, \.$echo)
        c.constructor { _ in WeatherViewModel() }
    }
    Exports.register(SignInViewModel.self, doc: "Its token is set on a private queue.") { c in
        c.output("token", \.token, \.$token)
        c.command("sign_in", .value("user")) { (vm, user: String) in vm.signIn(user) }
        c.constructor { _ in SignInViewModel() }
    }
    Exports.register(Expenses.self, doc: "iExpense's expenses, kept in UserDefaults by the app's own code.") { c in
        c.output("count") { $0.items.count }
        c.output("names") { $0.items.map(\.name) }
        c.command("add", .value("name"), .value("type"), .value("amount")) {
            (expenses, name: String, type: String, amount: Double) in expenses.add(name: name, type: type, amount: amount)
        }
        c.command("remove_all") { $0.items.removeAll() }
        c.constructor { _ in Expenses() }
    }
    registerSwift5Classes()
}
