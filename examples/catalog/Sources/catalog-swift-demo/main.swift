// A Swift view over the catalog, without the C layer: each screen driven on a virtual loop,
// printing what a view would render.
import MVVMCombine
import MVVMModels
import MVVMViewModels

let loop = try Loop(kind: .virtual)
var subscriptions = Set<AnyCancellable>()

func show(_ line: String) {
    let ms = loop.now.milliseconds
    let millis = String(ms % 1_000)
    print("[\(ms / 1_000).\(String(repeating: "0", count: 3 - millis.count))\(millis) s] \(line)")
}

print("== Countdown timer (5 s) ==")
let timer = CountDownTimer(loop: loop, fullCount: 5)
let timerScreen = TimerViewModel(loop: loop, timer: timer)
timerScreen.display.$remainingTime.dropFirst().sink { show("remaining \($0)") }.store(in: &subscriptions)
timerScreen.$isShowAlert.dropFirst().sink { show("alert shown: \($0)") }.store(in: &subscriptions)
show("tap start")
timerScreen.player.tapped.send(.start)
try loop.advance(byMilliseconds: 6_000)

print("== Stopwatch ==")
let stopWatch = StopWatchViewModel(loop: loop)
show("main action: \(stopWatch.mainActionTitle)")
stopWatch.mainAction()
try loop.advance(byMilliseconds: 1_230)
stopWatch.mainAction()
show("after 1230 ms: \(stopWatch.time), main action now \(stopWatch.mainActionTitle), clear enabled \(stopWatch.clearActionEnabled)")

print("== Input echo ==")
let echo = InputEchoViewModel()
echo.input = "hello"
show("label \(echo.label); message \(echo.message)")

print("== Sign-up ==")
let signUp = SignUpViewModel()
signUp.output.$isSignUpEnabled.removeDuplicates().sink { show("sign-up enabled: \($0)") }.store(in: &subscriptions)
signUp.binding.userID = "newuser"
signUp.binding.password = "password1"
signUp.binding.confirmPassword = "password1"
signUp.binding.agreed = true
signUp.input.signUpTapped.send()
show("completion alert presented: \(signUp.binding.isCompletionAlertPresented)")

print("== Welcome ==")
let viewDidLoad = PassthroughSubject<Void, Never>(), tapButton = PassthroughSubject<String, Never>()
let welcome = WelcomeViewModel(api: BuiltInWelcomeAPI(loop: loop)).transform(input: .init(
    viewDidLoad: viewDidLoad.eraseToAnyPublisher(), tapButton: tapButton.eraseToAnyPublisher()))
welcome.onShowWelcome.sink { show("welcome: \($0)") }.store(in: &subscriptions)
welcome.onShowText.sink { show("text: \($0)") }.store(in: &subscriptions)
welcome.onShowOnlyFirst.sink { show("only first") }.store(in: &subscriptions)
viewDidLoad.send()
tapButton.send("Button")
try loop.advance(byMilliseconds: 0)

print("== Counters ==")
let page = CounterPageViewModel(seed: 2026)
page.firstCounter.increment()
page.secondCounter.increment()
show("\(page.firstCounter.label): \(page.firstCounter.count); \(page.secondCounter.label): \(page.secondCounter.count)")
