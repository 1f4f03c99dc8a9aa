@preconcurrency import OpenCombine
import MVVMModels
import MVVMRuntime
import MVVMViewModels

/// The catalog of DESIGN.md as the C side sees it: one description per class.
enum Catalog {
    static let countDownTimer: ExportedClass = {
        var c = ClassBuilder<CountDownTimer>("count_down_timer")
        c.int("full_count", { $0.fullCount }, { $0.$fullCount })
        c.int("count", { $0.count }, { $0.$count })
        c.int("remaining_time", { $0.remainingTime }, { $0.$remainingTime })
        c.bool("is_doing", { $0.isDoing }, { $0.$isDoing })
        c.command("start") { $0.start() }
        c.command("pause") { $0.pause() }
        c.command("stop") { $0.stop() }
        c.command("reset") { $0.reset() }
        return ExportedClass(c)
    }()

    static let timerViewModel: ExportedClass = {
        var c = ClassBuilder<TimerViewModel>("timer_view_model")
        c.bool("is_show_alert", { $0.isShowAlert }, { $0.$isShowAlert }, set: { $0.isShowAlert = $1 })
        c.child("display", displayViewModel) { $0.display }
        c.child("player", playerViewModel) { $0.player }
        return ExportedClass(c)
    }()

    static let displayViewModel: ExportedClass = {
        var c = ClassBuilder<DisplayViewModel>("display_view_model")
        c.int("remaining_time", { $0.remainingTime }, { $0.$remainingTime })
        return ExportedClass(c)
    }()

    static let playerViewModel: ExportedClass = {
        var c = ClassBuilder<PlayerViewModel>("player_view_model")
        c.bool("is_stop_enabled", { $0.isStopEnabled }, { $0.$isStopEnabled })
        c.bool("is_play_timer", { $0.isPlayTimer }, { $0.$isPlayTimer })
        c.command("tapped", allowed: PlayerViewModel.Action.allCases.map(\.rawValue)) { viewModel, action in
            if let action = PlayerViewModel.Action(rawValue: action) { viewModel.tapped.send(action) }
        }
        return ExportedClass(c)
    }()

    static let stopWatch: ExportedClass = {
        var c = ClassBuilder<StopWatch>("stop_watch")
        c.int("time_ms", { $0.timeMilliseconds }, { $0.$timeMilliseconds })
        c.string("state", { $0.state.rawValue }, { $0.$state.map(\.rawValue) })
        c.command("start") { $0.start() }
        c.command("stop") { $0.stop() }
        c.command("resume") { $0.resume() }
        c.command("clear") { $0.clear() }
        return ExportedClass(c)
    }()

    static let stopWatchViewModel: ExportedClass = {
        var c = ClassBuilder<StopWatchViewModel>("stop_watch_view_model")
        c.string("time", { $0.time }, { $0.$time })
        c.string("main_action_title", { $0.mainActionTitle }, { $0.$mainActionTitle })
        c.string("clear_action_title", { $0.clearActionTitle }, { $0.$clearActionTitle })
        c.bool("main_action_enabled", { $0.mainActionEnabled }, { $0.$mainActionEnabled })
        c.bool("clear_action_enabled", { $0.clearActionEnabled }, { $0.$clearActionEnabled })
        c.command("main_action") { $0.mainAction() }
        c.command("clear_action") { $0.clearAction() }
        return ExportedClass(c)
    }()

    static let inputEchoViewModel: ExportedClass = {
        var c = ClassBuilder<InputEchoViewModel>("input_echo_view_model")
        c.string("input", { $0.input }, { $0.$input }, set: { $0.input = $1 })
        c.string("label", { $0.label }, { $0.$label })
        c.string("message", { $0.message }, { $0.$message })
        return ExportedClass(c)
    }()

    static let signUpViewModel: ExportedClass = {
        var c = ClassBuilder<SignUpViewModel>("sign_up_view_model")
        c.string("user_id", { $0.binding.userID }, { $0.binding.$userID }, set: { $0.binding.userID = $1 })
        c.string("password", { $0.binding.password }, { $0.binding.$password }, set: { $0.binding.password = $1 })
        c.string("confirm_password", { $0.binding.confirmPassword }, { $0.binding.$confirmPassword },
                 set: { $0.binding.confirmPassword = $1 })
        c.bool("agreed", { $0.binding.agreed }, { $0.binding.$agreed }, set: { $0.binding.agreed = $1 })
        c.bool("is_completion_alert_presented", { $0.binding.isCompletionAlertPresented },
               { $0.binding.$isCompletionAlertPresented }, set: { $0.binding.isCompletionAlertPresented = $1 })
        c.bool("is_sign_up_enabled", { $0.output.isSignUpEnabled }, { $0.output.$isSignUpEnabled })
        c.command("sign_up_tapped") { $0.input.signUpTapped.send() }
        return ExportedClass(c)
    }()

    static let welcomeViewModel: ExportedClass = {
        var c = ClassBuilder<WelcomeScreen>("welcome_view_model")
        c.command("view_did_load") { $0.viewDidLoad.send() }
        c.command("tap_button") { $0.tapButton.send($1) }
        c.signal("on_show_welcome", .string)
        c.signal("on_show_text", .string)
        c.signal("on_show_only_first", .none)
        c.connectSignals = { screen, emit in
            [screen.output.onShowWelcome.sink { emit(0, .string($0)) },
             screen.output.onShowText.sink { emit(1, .string($0)) },
             screen.output.onShowOnlyFirst.sink { emit(2, .none) }]
        }
        return ExportedClass(c)
    }()

    static let counter: ExportedClass = countable(Counter.self, "counter")
    static let randomCounter: ExportedClass = countable(RandomCounter.self, "random_counter")

    private static func countable<Model: Countable>(_: Model.Type, _ name: String) -> ExportedClass {
        var c = ClassBuilder<Model>(name)
        c.int("count", { $0.count }, { $0.countPublisher })
        c.command("increment") { $0.increment() }
        c.command("decrement") { $0.decrement() }
        return ExportedClass(c)
    }

    static let counterViewModel: ExportedClass = {
        var c = ClassBuilder<CounterViewModel>("counter_view_model")
        c.string("label", { $0.label }, { $0.$label })
        c.string("count", { $0.count }, { $0.$count })
        c.command("increment") { $0.increment() }
        c.command("decrement") { $0.decrement() }
        return ExportedClass(c)
    }()

    static let counterPageViewModel: ExportedClass = {
        var c = ClassBuilder<CounterPageViewModel>("counter_page_view_model")
        c.string("read_me", { $0.readMe }, { $0.$readMe })
        c.child("first_counter", counterViewModel) { $0.firstCounter }
        c.child("second_counter", counterViewModel) { $0.secondCounter }
        return ExportedClass(c)
    }()
}

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
