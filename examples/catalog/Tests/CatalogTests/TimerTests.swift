import MVVMCombine
import Testing
import MVVMModels
import MVVMViewModels

@Suite struct TimerViewModelTests {
    let loop: Loop
    let timer: CountDownTimer
    let viewModel: TimerViewModel

    init() throws {
        loop = try Loop(kind: .virtual)
        timer = CountDownTimer(loop: loop, fullCount: 5)
        viewModel = TimerViewModel(loop: loop, timer: timer)
    }

    private func tap(_ action: PlayerViewModel.Action) throws {
        viewModel.player.tapped.send(action)
        try loop.advance(byMilliseconds: 0)
    }

    @Test func countdownOfFiveFinishesAtExactlyFiveSecondsRaisingTheAlertOnceAndResetting() throws {
        var alerts: [Bool] = []
        let watching = viewModel.$isShowAlert.sink { alerts.append($0) }
        try tap(.start)
        #expect(viewModel.player.isPlayTimer)
        #expect(!viewModel.player.isStopEnabled)
        try loop.advance(byMilliseconds: 4_999)
        #expect(viewModel.display.remainingTime == 1)
        #expect(timer.count == 4)
        #expect(viewModel.player.isStopEnabled)
        #expect(!viewModel.isShowAlert)
        try loop.advance(byMilliseconds: 1)
        #expect(loop.now.milliseconds == 5_000)
        #expect(viewModel.isShowAlert)
        #expect(timer.count == 0)
        #expect(timer.remainingTime == 5)
        #expect(viewModel.display.remainingTime == 5)
        #expect(!timer.isDoing)
        #expect(!viewModel.player.isPlayTimer)
        #expect(!viewModel.player.isStopEnabled)
        try loop.advance(byMilliseconds: 10_000)
        #expect(timer.count == 0)
        #expect(alerts == [false, true])
        watching.cancel()
    }

    @Test func pauseAndResumeKeepTheCount() throws {
        try tap(.start)
        try loop.advance(byMilliseconds: 2_000)
        #expect(timer.count == 2)
        try tap(.pause)
        #expect(!timer.isDoing)
        try loop.advance(byMilliseconds: 3_000)
        #expect(timer.count == 2)
        #expect(viewModel.display.remainingTime == 3)
        try tap(.start)
        try loop.advance(byMilliseconds: 999)
        #expect(timer.count == 2)
        try loop.advance(byMilliseconds: 1)
        #expect(timer.count == 3)
        try tap(.stop)
        #expect(timer.count == 0)
        #expect(!timer.isDoing)
        #expect(!viewModel.player.isStopEnabled)
    }

    @Test func startWhileRunningAndPauseWhilePausedDoNothing() throws {
        timer.start()
        try loop.advance(byMilliseconds: 500)
        timer.start()
        try loop.advance(byMilliseconds: 500)
        #expect(timer.count == 1)
        timer.pause()
        timer.pause()
        #expect(!timer.isDoing)
        #expect(timer.count == 1)
        timer.reset()
        #expect(timer.count == 0)
        #expect(timer.remainingTime == 5)
    }

    /// Combine's `throttle(for: 1 s, latest: false)`: the first tap acts on the next dispatch, the
    /// first tap within the next second acts when that second ends, taps in between are dropped.
    @Test func tapsAreThrottledToOneActionPerSecondKeepingTheFirst() throws {
        viewModel.player.tapped.send(.start)
        #expect(!timer.isDoing)
        try loop.advance(byMilliseconds: 0)
        #expect(timer.isDoing)
        try loop.advance(byMilliseconds: 300)
        viewModel.player.tapped.send(.pause)
        try loop.advance(byMilliseconds: 200)
        viewModel.player.tapped.send(.stop)
        try loop.advance(byMilliseconds: 499)
        #expect(timer.isDoing)
        try loop.advance(byMilliseconds: 1)
        #expect(!timer.isDoing)
        #expect(timer.count == 1)
        try loop.advance(byMilliseconds: 5_000)
        #expect(timer.count == 1)
        // Later than a second after the last action, a tap acts on the next dispatch again.
        viewModel.player.tapped.send(.stop)
        try loop.advance(byMilliseconds: 0)
        #expect(timer.count == 0)
    }

    @Test func childrenKeepTheirTimerAlive() throws {
        let loop = try Loop(kind: .virtual)
        var timer: CountDownTimer? = CountDownTimer(loop: loop, fullCount: 5)
        weak let weakTimer = timer
        var screen: TimerViewModel? = TimerViewModel(loop: loop, timer: timer!)
        let display = screen!.display, player = screen!.player
        screen = nil
        timer = nil
        #expect(weakTimer != nil)
        player.tapped.send(.start)
        try loop.advance(byMilliseconds: 2_000)
        #expect(display.remainingTime == 3)
        #expect(player.isPlayTimer)
    }

    @Test func dismissingTheAlertIsTheViewsToDo() throws {
        try tap(.start)
        try loop.advance(byMilliseconds: 5_000)
        #expect(viewModel.isShowAlert)
        viewModel.isShowAlert = false
        try tap(.start)
        try loop.advance(byMilliseconds: 5_000)
        #expect(viewModel.isShowAlert)
    }
}
