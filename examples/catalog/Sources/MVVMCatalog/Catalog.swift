// The catalog (docs/catalog.md), exported through the public export API exactly as a user exports
// their own view models: one declaration per member, one registration per class.
import MVVMExport
import MVVMModels
import MVVMCombine
import MVVMViewModels

/// The catalog as a package other libraries may carry. It has no hook of its own: a library
/// that carries it calls ``register()`` from its hook, as libmvvm.so's does (Sources/LibMVVM).
public enum Catalog {
    /// Registers the catalog's classes; call it once, from the library's hook
    /// (`@_cdecl("libmvvm_register_package")`), beside the library's own registrations.
    public static func register() { registerClasses() }
}

private func registerClasses() {
    Exports.register(CountDownTimer.self, doc: "A countdown of whole seconds, ticking once a second while running.") { c in
        c.output("full_count", \.fullCount, \.$fullCount, doc: "The seconds it counts down from.")
        c.output("count", \.count, \.$count, doc: "Seconds elapsed: from 0 to full_count, and back to 0 "
                 + "on stop, on reset and when the time runs out.")
        c.output("remaining_time", \.remainingTime, \.$remainingTime, doc: "Seconds left: full_count - count.")
        c.output("is_doing", \.isDoing, \.$isDoing, doc: "Whether it is running: true from start to pause, "
                 + "stop or the time running out.")
        c.command("start", doc: "Starts or resumes; does nothing while running.") { $0.start() }
        c.command("pause", doc: "Pauses, keeping the count; does nothing while paused.") { $0.pause() }
        c.command("stop", doc: "Stops and resets the count to 0.") { $0.stop() }
        c.command("reset", doc: "Resets the count to 0, running or not.") { $0.reset() }
        c.constructor(doc: "A timer of `full_count` seconds, from 1 to 2147483647.",
                      .value("full_count")) { (loop, fullCount: Int64) throws(ExportFailure) in
            guard fullCount >= 1, fullCount <= Int64(Int32.max) else {
                throw ExportFailure("full_count must be from 1 to \(Int32.max), got \(fullCount)")
            }
            return CountDownTimer(loop: loop, fullCount: Int(fullCount))
        }
    }

    Exports.register(TimerViewModel.self, doc: "The timer screen: an alert when the time runs out, a display and a player.") { c in
        c.binding("is_show_alert", get: { $0.isShowAlert }, set: { $0.isShowAlert = $1 },
                  publisher: { $0.$isShowAlert }, doc: "Becomes true when the timer runs out; the view sets it false to dismiss.")
        c.child("display", doc: "The remaining time.") { $0.display }
        c.child("player", doc: "The start, pause and stop buttons.") { $0.player }
        c.constructor(doc: "Over `timer`, a count_down_timer of the same loop.",
                      .model("timer")) { (loop, timer: CountDownTimer) in TimerViewModel(loop: loop, timer: timer) }
    }

    Exports.register(DisplayViewModel.self, doc: "What the timer screen shows.") { c in
        c.output("remaining_time", \.remainingTime, \.$remainingTime, doc: "Seconds left.")
    }

    Exports.register(PlayerViewModel.self, doc: "The timer's buttons.") { c in
        c.output("is_stop_enabled", \.isStopEnabled, \.$isStopEnabled, doc: "remaining_time < full_count.")
        c.output("is_play_timer", \.isPlayTimer, \.$isPlayTimer, doc: "Whether the timer runs.")
        c.command("tapped", doc: "A button was tapped (\"start\", \"pause\" or \"stop\"), through "
                  + "throttle(for: 1 s, latest: false).") { (player, action: PlayerViewModel.Action) in
            player.tapped.send(action)
        }
    }

    Exports.register(StopWatch.self, doc: "Integer milliseconds on the loop's clock, published every 10 ms while running.") { c in
        c.output("time_ms", \.timeMilliseconds, \.$timeMilliseconds, doc: "Elapsed milliseconds.")
        c.output("state", \.state, \.$state, doc: "startable, stoppable or resumable.")
        c.command("start", doc: "Starts from zero; only when startable.") { $0.start() }
        c.command("stop", doc: "Stops, keeping the time; only when stoppable.") { $0.stop() }
        c.command("resume", doc: "Continues; only when resumable.") { $0.resume() }
        c.command("clear", doc: "Back to zero and startable; only when resumable.") { $0.clear() }
        c.constructor(doc: "A stopped stopwatch at zero.") { StopWatch(loop: $0) }
    }

    Exports.register(StopWatchViewModel.self, doc: "The stopwatch screen.") { c in
        c.output("time", \.time, \.$time, doc: "The elapsed time as \"HH:MM:SS.cc\", hours modulo 100.")
        c.output("main_action_title", \.mainActionTitle, \.$mainActionTitle,
                 doc: "The main button's title: Start, Stop or Resume, as the state allows.")
        c.output("clear_action_title", \.clearActionTitle, \.$clearActionTitle, doc: "The clear button's title: Clear.")
        c.output("main_action_enabled", \.mainActionEnabled, \.$mainActionEnabled,
                 doc: "Whether the main button is enabled: always true.")
        c.output("clear_action_enabled", \.clearActionEnabled, \.$clearActionEnabled,
                 doc: "Whether the clear button is enabled: only while the stopwatch is resumable.")
        c.command("main_action", doc: "Start, stop or resume, as the state allows.") { $0.mainAction() }
        c.command("clear_action", doc: "Clears to 00:00:00.00; does nothing unless resumable.") { $0.clearAction() }
        c.constructor(doc: "Over a stopwatch of its own.") { StopWatchViewModel(loop: $0) }
    }

    Exports.register(InputEchoViewModel.self, doc: "Echoes its input.") { c in
        c.binding("input", get: { $0.input }, set: { $0.input = $1 }, publisher: { $0.$input }, doc: "What the user typed.")
        c.output("label", \.label, \.$label, doc: "The input.")
        c.output("message", \.message, \.$message, doc: "\"Your input is '<input>'!\"")
        c.constructor(doc: "Empty input.") { _ in InputEchoViewModel() }
    }

    Exports.register(SignUpViewModel.self, doc: "A sign-up form: enabled when user_id has 6 or more characters, "
                     + "password 8 or more (grapheme clusters), confirm_password equals password, and agreed.") { c in
        // Closures rather than key paths for the bindings: a getter or setter through a key path
        // projects it at run time on every call (about 2,500 instructions per read).
        c.binding("user_id", get: { $0.binding.userID }, set: { $0.binding.userID = $1 },
                  publisher: { $0.binding.$userID }, doc: "The user id typed: 6 or more characters to sign up.")
        c.binding("password", get: { $0.binding.password }, set: { $0.binding.password = $1 },
                  publisher: { $0.binding.$password }, doc: "The password typed: 8 or more to sign up.")
        c.binding("confirm_password", get: { $0.binding.confirmPassword }, set: { $0.binding.confirmPassword = $1 },
                  publisher: { $0.binding.$confirmPassword }, doc: "The password again: equal to password to sign up.")
        c.binding("agreed", get: { $0.binding.agreed }, set: { $0.binding.agreed = $1 },
                  publisher: { $0.binding.$agreed }, doc: "The terms were agreed to.")
        c.binding("is_completion_alert_presented", get: { $0.binding.isCompletionAlertPresented },
                  set: { $0.binding.isCompletionAlertPresented = $1 }, publisher: { $0.binding.$isCompletionAlertPresented },
                  doc: "Presented when a sign-up succeeds; the view dismisses it.")
        c.output("is_sign_up_enabled", \.output.isSignUpEnabled, \.output.$isSignUpEnabled,
                 doc: "Whether sign_up_tapped may sign up: the form's four rules hold.")
        c.command("sign_up_tapped", doc: "Asks the sign-up service; does nothing while disabled.") {
            $0.input.signUpTapped.send()
        }
        c.constructor(doc: "With the built-in service, which accepts every sign-up at once.") { _ in SignUpViewModel() }
        c.constructor(suffix: "service", doc: "With the host's service: each sign-up asks it with the user id (the password is "
                      + "readable during the request) and expects a bool, true for success.",
                      .service("service", request: .string, result: .bool)) { (_, host: HostRequester) in
            SignUpViewModel(service: HostSignUpService(host: host))
        }
    }

    Exports.register(ObservableSignUpViewModel.self, doc: "sign_up_view_model's form and rules as an @Observable "
                     + "class: is_sign_up_enabled is computed from the four inputs.") { c in
        c.binding("user_id", get: { $0.userID }, set: { $0.userID = $1 },
                  doc: "The user id typed: 6 or more characters to sign up.")
        c.binding("password", get: { $0.password }, set: { $0.password = $1 }, doc: "The password typed: 8 or more to sign up.")
        c.binding("confirm_password", get: { $0.confirmPassword }, set: { $0.confirmPassword = $1 },
                  doc: "The password again: equal to password to sign up.")
        c.binding("agreed", get: { $0.agreed }, set: { $0.agreed = $1 }, doc: "The terms were agreed to.")
        c.binding("is_completion_alert_presented", get: { $0.isCompletionAlertPresented },
                  set: { $0.isCompletionAlertPresented = $1 }, doc: "Presented when a sign-up succeeds; the view dismisses it.")
        c.output("is_sign_up_enabled", \.isSignUpEnabled,
                 doc: "Whether sign_up_tapped may sign up: the form's four rules hold.")
        c.command("sign_up_tapped", doc: "Asks the sign-up service; does nothing while disabled.") { $0.signUpTapped() }
        c.constructor(doc: "With the built-in service, which accepts every sign-up at once.") { _ in
            ObservableSignUpViewModel()
        }
        c.constructor(suffix: "service", doc: "With the host's service: each sign-up asks it with the user id and expects a "
                      + "bool, true for success.",
                      .service("service", request: .string, result: .bool)) { (_, host: HostRequester) in
            ObservableSignUpViewModel(service: HostSignUpService(host: host))
        }
    }

    Exports.register(WelcomeScreen.self, as: "welcome_view_model",
                     doc: "A transform(input) -> output screen: a welcome message on load, a text on each tap.") { c in
        c.command("view_did_load", doc: "The view loaded: asks the welcome API.") { $0.viewDidLoad.send() }
        c.command("tap_button", doc: "A tap with the text to show.") { (screen, text: String) in screen.tapButton.send(text) }
        c.signal("on_show_welcome", doc: "The API's welcome message.") { $0.output.onShowWelcome }
        c.signal("on_show_text", doc: "\"<text> show!!\" for each tap.") { $0.output.onShowText }
        c.signal("on_show_only_first", doc: "Loads paired with taps, as Combine's zip pairs them.") { $0.output.onShowOnlyFirst }
        c.constructor(doc: "With the built-in API, which answers \"Welcome!\" on the loop's next dispatch.") {
            WelcomeScreen(viewModel: WelcomeViewModel(api: BuiltInWelcomeAPI(loop: $0)))
        }
        c.constructor(suffix: "api", doc: "With the host's API: each view_did_load asks it (no argument) and expects the message.",
                      .service("api", request: .none, result: .string)) { (_, host: HostRequester) in
            WelcomeScreen(viewModel: WelcomeViewModel(api: HostWelcomeAPI(host: host)))
        }
    }

    Exports.register(Counter.self, doc: "A counter.") { c in
        exportCountable(&c)
        c.constructor(doc: "At 0.") { _ in Counter() }
    }

    Exports.register(RandomCounter.self, doc: "A counter whose increment and decrement draw a count from 1 to 10 out of a "
                     + "generator seeded with `seed`: a seed always repeats its sequence.") { c in
        exportCountable(&c)
        c.constructor(doc: "Seeded with `seed`.", .value("seed")) { (_, seed: UInt64) in
            RandomCounter(seed: seed)
        }
    }

    Exports.register(CounterViewModel.self, doc: "A counter's screen.") { c in
        c.output("label", \.label, \.$label, doc: "\"Counter\" or \"Random Counter\".")
        c.output("count", \.count, \.$count, doc: "The count, as text.")
        c.command("increment", doc: "Counts up (a random counter draws a new count).") { $0.increment() }
        c.command("decrement", doc: "Counts down (a random counter draws a new count).") { $0.decrement() }
        c.constructor(doc: "Over `model`, a counter or random_counter of the same loop.",
                      .model("model", oneOf: Counter.self, RandomCounter.self)) { (_, model: any Countable) in
            CounterViewModel(model: model)
        }
    }

    Exports.register(CounterPageViewModel.self, doc: "Two counters on one page.") { c in
        c.output("read_me", \.readMe, \.$readMe, doc: "What the page shows, for the view to print above the counters.")
        c.child("first_counter", doc: "Over a counter.") { $0.firstCounter }
        c.child("second_counter", doc: "Over a random counter.") { $0.secondCounter }
        c.constructor(doc: "The random counter is seeded from the system's random source.") { _ in CounterPageViewModel() }
        c.constructor(suffix: "seed", doc: "The random counter is seeded with `seed`, for repeatable pages.",
                      .value("seed")) { (_, seed: UInt64) in CounterPageViewModel(seed: seed) }
    }
}

private func exportCountable<Model: Countable>(_ c: inout ExportBuilder<Model>) {
    c.output("count", get: { $0.count }, publisher: { $0.countPublisher })
    c.command("increment", doc: "Increments (a random counter draws).") { $0.increment() }
    c.command("decrement", doc: "Decrements (a random counter draws).") { $0.decrement() }
}

extension PlayerViewModel.Action: ExportableValue {}
extension StopWatch.State: ExportableValue {}

/// The welcome view model as a view drives it: the view's events as subjects, handed to
/// `transform(input:)` once, and the outputs it gets back.
final class WelcomeScreen {
    let viewDidLoad = PassthroughSubject<Void, Never>()
    let tapButton = PassthroughSubject<String, Never>()
    let output: WelcomeViewModel.Output

    init(viewModel: WelcomeViewModel) {
        output = viewModel.transform(input: .init(viewDidLoad: viewDidLoad.eraseToAnyPublisher(),
                                                  tapButton: tapButton.eraseToAnyPublisher()))
    }
}

/// Sign-up through the host: the request's argument is the user id, its answer a bool.
final class HostSignUpService: SignUpService {
    let host: HostRequester

    init(host: HostRequester) { self.host = host }

    func signUp(userID: String, password: String) -> AnyPublisher<Bool, Never> {
        Future { [host] promise in
            host.ask(.string(userID)) { answer in
                if case let .bool(succeeded) = answer { promise(.success(succeeded)) }
            }
        }.eraseToAnyPublisher()
    }
}

/// The welcome API through the host: no argument, a string answer.
final class HostWelcomeAPI: WelcomeAPI {
    let host: HostRequester

    init(host: HostRequester) { self.host = host }

    func fetchWelcomeMessage() -> AnyPublisher<String, Never> {
        Future { [host] promise in
            host.ask(.none) { answer in
                if case let .string(message) = answer { promise(.success(message)) }
            }
        }.eraseToAnyPublisher()
    }
}
