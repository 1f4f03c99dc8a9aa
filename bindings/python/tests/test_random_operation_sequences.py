"""Hypothesis stateful tests: random operation sequences on SignUpViewModel,
StopWatchViewModel (and the StopWatch model) and CounterViewModel, every observable value
compared after each step with a small pure-Python reference model of the seed behaviour."""

from __future__ import annotations

import unicodedata
from typing import Any, List, Optional

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from conftest import E_ACUTE_DECOMPOSED, FAMILY
from libraries import catalog

SETTINGS = settings(max_examples=50, stateful_step_count=30, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------------------------------------
# Sign-up
# ------------------------------------------------------------------------------------------------

# Whole grapheme clusters that never merge with their neighbours, so a string's length in
# characters (Swift Characters) is the number of clusters it was built from.
CLUSTERS = ["a", "Z", "7", " ", "_", "\u00e9", E_ACUTE_DECOMPOSED, FAMILY, "\U0001F1EB\U0001F1F7",
            "\U0001F44D\U0001F3FD", "\r\n", "\u4e2d", "\u00c5", "\u212b"]
cluster_lists = st.lists(st.sampled_from(CLUSTERS), max_size=10)

# Swift's String == is canonical equivalence: "é" == "e\u0301", "Å" (U+00C5) == "Å" (U+212B).
EQUIVALENT = {"\u00e9": E_ACUTE_DECOMPOSED, E_ACUTE_DECOMPOSED: "\u00e9", "\u00c5": "\u212b", "\u212b": "\u00c5"}


class SignUpModel:
    def __init__(self) -> None:
        self.user_id: List[str] = []
        self.password: List[str] = []
        self.confirm: List[str] = []
        self.agreed = False
        self.alert = False

    @property
    def enabled(self) -> bool:
        same = unicodedata.normalize("NFC", "".join(self.password)) == unicodedata.normalize("NFC", "".join(self.confirm))
        return len(self.user_id) >= 6 and len(self.password) >= 8 and same and self.agreed


class SignUpMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = catalog.Loop.virtual()
        self.vm = catalog.SignUpViewModel(self.loop)
        self.model = SignUpModel()
        self.enabled_events: List[bool] = []
        self.expected_enabled_events: List[bool] = []
        self.vm.subscribe("is_sign_up_enabled", lambda name, value: self.enabled_events.append(value))

    def _changed(self, change: Any) -> None:
        before = self.model.enabled
        change()
        if self.model.enabled != before:
            self.expected_enabled_events.append(self.model.enabled)

    @rule(clusters=cluster_lists)
    def set_user_id(self, clusters: List[str]) -> None:
        self.vm.user_id = "".join(clusters)
        self._changed(lambda: setattr(self.model, "user_id", clusters))

    @rule(clusters=st.lists(st.sampled_from(CLUSTERS), min_size=6, max_size=12))
    def set_password(self, clusters: List[str]) -> None:
        self.vm.password = "".join(clusters)
        self._changed(lambda: setattr(self.model, "password", clusters))

    @rule(how=st.sampled_from(["same", "equivalent", "one more", "one less"]))
    def confirm_from_password(self, how: str) -> None:
        clusters = list(self.model.password)
        if how == "equivalent":
            clusters = [EQUIVALENT.get(c, c) for c in clusters]
        elif how == "one more":
            clusters.append("x")
        elif how == "one less":
            clusters = clusters[:-1]
        self.vm.confirm_password = "".join(clusters)
        self._changed(lambda: setattr(self.model, "confirm", clusters))

    @rule(clusters=cluster_lists)
    def set_confirm(self, clusters: List[str]) -> None:
        self.vm.set("confirm_password", "".join(clusters))
        self._changed(lambda: setattr(self.model, "confirm", clusters))

    @rule(agreed=st.booleans())
    def set_agreed(self, agreed: bool) -> None:
        self.vm.agreed = agreed
        self._changed(lambda: setattr(self.model, "agreed", agreed))

    @rule()
    def tap(self) -> None:
        self.vm.sign_up_tapped()
        if self.model.enabled:  # the built-in service accepts at once
            self.model.alert = True

    @rule(shown=st.booleans())
    def set_alert(self, shown: bool) -> None:
        self.vm.is_completion_alert_presented = shown
        self.model.alert = shown

    @rule(ms=st.integers(0, 2000))
    def advance(self, ms: int) -> None:
        self.loop.advance(ms)  # nothing here depends on time

    @invariant()
    def observable_values_match(self) -> None:
        expected = {
            "user_id": "".join(self.model.user_id),
            "password": "".join(self.model.password),
            "confirm_password": "".join(self.model.confirm),
            "agreed": self.model.agreed,
            "is_completion_alert_presented": self.model.alert,
            "is_sign_up_enabled": self.model.enabled,
        }
        assert self.vm.snapshot() == expected
        assert self.vm.is_sign_up_enabled is self.model.enabled
        assert self.enabled_events == self.expected_enabled_events  # notified only on real changes

    def teardown(self) -> None:
        self.loop.close()
        self.vm.close()


# ------------------------------------------------------------------------------------------------
# Stopwatch
# ------------------------------------------------------------------------------------------------


def format_time(ms: int) -> str:
    return "%02d:%02d:%02d.%02d" % ((ms // 3_600_000) % 100, (ms // 60_000) % 60, (ms // 1000) % 60, (ms // 10) % 100)


class StopWatchModel:
    """Milliseconds on the virtual clock. While running, the published time is updated by ticks
    every 10 ms counted from the (re)start, and by stop, which publishes the exact time."""

    def __init__(self) -> None:
        self.state = "startable"
        self.accumulated = 0  # ms up to the last stop
        self.run_start = 0  # when it was started or resumed

    def published(self, now: int) -> int:
        if self.state == "stoppable":
            return self.accumulated + (now - self.run_start) // 10 * 10
        return self.accumulated

    def start(self, now: int) -> None:
        if self.state == "startable":
            self.state, self.accumulated, self.run_start = "stoppable", 0, now

    def stop(self, now: int) -> None:
        if self.state == "stoppable":
            self.state, self.accumulated = "resumable", self.accumulated + now - self.run_start

    def resume(self, now: int) -> None:
        if self.state == "resumable":
            self.state, self.run_start = "stoppable", now

    def clear(self, now: int) -> None:
        if self.state == "resumable":
            self.state, self.accumulated = "startable", 0

    def main_action(self, now: int) -> None:
        {"startable": self.start, "stoppable": self.stop, "resumable": self.resume}[self.state](now)


TITLES = {"startable": "Start", "stoppable": "Stop", "resumable": "Resume"}


class StopWatchMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.loop = catalog.Loop.virtual()
        self.vm = catalog.StopWatchViewModel(self.loop)
        self.watch = catalog.StopWatch(self.loop)
        self.vm_model = StopWatchModel()
        self.watch_model = StopWatchModel()
        self.times: List[str] = []
        self.vm.subscribe("time", lambda name, value: self.times.append(value))

    @property
    def now(self) -> int:
        return self.loop.now()

    @rule()
    def main_action(self) -> None:
        self.vm.main_action()
        self.vm_model.main_action(self.now)

    @rule()
    def clear_action(self) -> None:
        self.vm.clear_action()
        self.vm_model.clear(self.now)

    @rule(command=st.sampled_from(["start", "stop", "resume", "clear"]))
    def model_command(self, command: str) -> None:
        getattr(self.watch, command)()
        getattr(self.watch_model, command)(self.now)

    @rule(ms=st.one_of(st.integers(0, 30), st.integers(0, 3000)))
    def advance(self, ms: int) -> None:
        self.loop.advance(ms)

    @invariant()
    def observable_values_match(self) -> None:
        now, model = self.now, self.vm_model
        assert self.vm.snapshot() == {
            "time": format_time(model.published(now)),
            "main_action_title": TITLES[model.state],
            "clear_action_title": "Clear",
            "main_action_enabled": True,
            "clear_action_enabled": model.state == "resumable",
        }, (now, model.state, model.accumulated, model.run_start)
        assert self.watch.snapshot() == {"time_ms": self.watch_model.published(now), "state": self.watch_model.state}
        if self.times:  # notified only on real changes, the last one being the current value
            assert self.times[-1] == self.vm.time
            assert all(a != b for a, b in zip(self.times, self.times[1:]))

    def teardown(self) -> None:
        self.loop.close()


# ------------------------------------------------------------------------------------------------
# Counters
# ------------------------------------------------------------------------------------------------


class CounterMachine(RuleBasedStateMachine):
    """Two view models over one Counter (+1/-1 from either or from the model), and a view model
    over a RandomCounter beside a twin RandomCounter of the same seed driven the same way."""

    def __init__(self) -> None:
        super().__init__()
        self.loop = catalog.Loop.virtual()
        self.counter = catalog.Counter(self.loop)
        self.views = [catalog.CounterViewModel(self.loop, self.counter), catalog.CounterViewModel(self.loop, self.counter)]
        self.count = 0
        self.expected_notified: List[str] = []
        self.notified: List[str] = []
        self.views[1].subscribe("count", lambda name, value: self.notified.append(value))
        self.random_view: Optional[catalog.CounterViewModel] = None
        self.twin: Optional[catalog.RandomCounter] = None

    @initialize(seed=st.integers(0, 2**64 - 1))
    def make_random(self, seed: int) -> None:
        self.random_view = catalog.CounterViewModel(self.loop, catalog.RandomCounter(self.loop, seed))
        self.twin = catalog.RandomCounter(self.loop, seed)

    @rule(which=st.sampled_from(["view 0", "view 1", "model"]), step=st.sampled_from([1, -1]))
    def count_by(self, which: str, step: int) -> None:
        target: Any = self.counter if which == "model" else self.views[int(which[-1])]
        target.increment() if step == 1 else target.decrement()
        self.count += step
        self.expected_notified.append(str(self.count))  # every step changes the count: one event

    @rule(step=st.sampled_from([1, -1]))
    def draw(self, step: int) -> None:
        assert self.random_view is not None and self.twin is not None
        if step == 1:
            self.random_view.increment()
            self.twin.increment()
        else:
            self.random_view.send("decrement")
            self.twin.decrement()

    @invariant()
    def observable_values_match(self) -> None:
        assert self.counter.count == self.count
        for view in self.views:
            assert (view.label, view.count) == ("Counter", str(self.count))
        assert self.notified == self.expected_notified
        if self.random_view is not None and self.twin is not None:
            assert self.random_view.label == "Random Counter"
            assert self.random_view.count == str(self.twin.count)
            assert self.twin.count == 0 or 1 <= self.twin.count <= 10

    def teardown(self) -> None:
        self.loop.close()


TestSignUp = SignUpMachine.TestCase
TestSignUp.settings = SETTINGS
TestStopWatch = StopWatchMachine.TestCase
TestStopWatch.settings = SETTINGS
TestCounters = CounterMachine.TestCase
TestCounters.settings = SETTINGS


def test_the_reference_stopwatch_formats_like_the_seed() -> None:
    assert format_time(0) == "00:00:00.00"
    assert format_time(1230) == "00:00:01.23"
    assert format_time(61_230) == "00:01:01.23"
    assert format_time(100 * 3_600_000 + 5) == "00:00:00.00"
    model = StopWatchModel()
    model.start(3)
    assert model.published(18) == 10
    model.stop(18)
    assert model.published(25) == 15
    model.resume(25)
    assert (model.published(34), model.published(35)) == (15, 25)

