import MVVMCombine
import Testing
import MVVMModels
import MVVMViewModels

@Suite struct StopWatchViewModelTests {
    let loop: Loop
    let viewModel: StopWatchViewModel

    init() throws {
        loop = try Loop(kind: .virtual)
        viewModel = StopWatchViewModel(loop: loop)
    }

    @Test func startsCleared() {
        #expect(viewModel.time == "00:00:00.00")
        #expect(viewModel.mainActionTitle == "Start")
        #expect(viewModel.clearActionTitle == "Clear")
        #expect(viewModel.mainActionEnabled)
        #expect(!viewModel.clearActionEnabled)
        #expect(viewModel.stopWatch.state == .startable)
    }

    @Test func readsTheLoopTimeInCentiseconds() throws {
        viewModel.mainAction()
        #expect(viewModel.mainActionTitle == "Stop")
        try loop.advance(byMilliseconds: 1_230)
        #expect(viewModel.time == "00:00:01.23")
        #expect(viewModel.stopWatch.timeMilliseconds == 1_230)
        try loop.advance(byMilliseconds: 5)
        #expect(viewModel.time == "00:00:01.23")
    }

    @Test func stopKeepsTheExactTimeAndResumeAccumulates() throws {
        viewModel.mainAction()
        try loop.advance(byMilliseconds: 1_234)
        viewModel.mainAction()
        #expect(viewModel.stopWatch.timeMilliseconds == 1_234)
        #expect(viewModel.mainActionTitle == "Resume")
        #expect(viewModel.clearActionEnabled)
        try loop.advance(byMilliseconds: 10_000)
        #expect(viewModel.time == "00:00:01.23")
        viewModel.mainAction()
        #expect(viewModel.mainActionTitle == "Stop")
        #expect(!viewModel.clearActionEnabled)
        // Ticks follow the resumed run: every 10 ms from 11.234 s, so 72.994 s is the last before 73 s.
        try loop.advance(byMilliseconds: 61_766)
        #expect(viewModel.time == "00:01:02.99")
        try loop.advance(byMilliseconds: 6)
        #expect(viewModel.time == "00:01:03.00")
    }

    @Test func clearOnlyWhenResumableBackToZero() throws {
        viewModel.clearAction()
        #expect(viewModel.stopWatch.state == .startable)
        viewModel.mainAction()
        try loop.advance(byMilliseconds: 500)
        viewModel.clearAction()
        #expect(viewModel.stopWatch.state == .stoppable)
        try loop.advance(byMilliseconds: 500)
        #expect(viewModel.time == "00:00:01.00")
        viewModel.mainAction()
        viewModel.clearAction()
        #expect(viewModel.time == "00:00:00.00")
        #expect(viewModel.mainActionTitle == "Start")
        #expect(!viewModel.clearActionEnabled)
        viewModel.mainAction()
        try loop.advance(byMilliseconds: 20)
        #expect(viewModel.time == "00:00:00.02")
    }

    @Test func formatWrapsHoursAtOneHundred() {
        #expect(StopWatchViewModel.format(milliseconds: 0) == "00:00:00.00")
        #expect(StopWatchViewModel.format(milliseconds: 9) == "00:00:00.00")
        #expect(StopWatchViewModel.format(milliseconds: 3_723_450) == "01:02:03.45")
        #expect(StopWatchViewModel.format(milliseconds: 359_999_990) == "99:59:59.99")
        #expect(StopWatchViewModel.format(milliseconds: 360_000_000) == "00:00:00.00")
        #expect(StopWatchViewModel.format(milliseconds: 363_723_450) == "01:02:03.45")
    }
}
