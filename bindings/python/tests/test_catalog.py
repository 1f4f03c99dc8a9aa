"""The whole catalog on a virtual loop, exact: the scenarios of Tests/C/test_catalog.c."""

from __future__ import annotations

from typing import Any, List, Tuple

import pytest

import mvvm
from conftest import E_ACUTE_DECOMPOSED, FAMILY, Recorder
from libraries import catalog

# ------------------------------------------------------------------------------------------------
# count_down_timer, timer_view_model, display_view_model, player_view_model
# ------------------------------------------------------------------------------------------------


def timer_screen(loop: mvvm.Loop, full_count: int = 5) -> Tuple[catalog.CountDownTimer, catalog.TimerViewModel]:
    timer = catalog.CountDownTimer(loop, full_count)
    return timer, catalog.TimerViewModel(loop, timer)


def test_timer_counts_down_five_seconds_and_alerts_once(loop: mvvm.Loop, recorder: Recorder) -> None:
    timer, vm = timer_screen(loop)
    display, player = vm.display, vm.player
    assert isinstance(display, catalog.DisplayViewModel) and isinstance(player, catalog.PlayerViewModel)
    vm.subscribe("is_show_alert", recorder)
    assert vm.is_show_alert is False
    assert player.is_play_timer is False
    assert player.is_stop_enabled is False
    assert display.remaining_time == 5

    player.tapped("start")
    assert timer.is_doing is False  # a tap acts on the next dispatch
    loop.advance(0)
    assert timer.is_doing is True
    assert player.is_play_timer is True
    assert player.is_stop_enabled is False

    loop.advance(4999)
    assert display.remaining_time == 1
    assert timer.count == 4
    assert timer.remaining_time == 1
    assert player.is_stop_enabled is True
    assert vm.is_show_alert is False
    assert recorder.events == []

    loop.advance(1)
    assert loop.now() == 5000
    assert vm.is_show_alert is True
    assert (timer.count, timer.remaining_time, display.remaining_time) == (0, 5, 5)
    assert timer.is_doing is False
    assert player.is_play_timer is False
    assert player.is_stop_enabled is False
    assert recorder.events == [("is_show_alert", True)]

    loop.advance(10000)  # it stays stopped
    assert timer.count == 0 and timer.is_doing is False
    assert recorder.count() == 1


def test_timer_pause_and_resume_keep_the_count(loop: mvvm.Loop) -> None:
    timer, vm = timer_screen(loop)
    vm.player.tapped("start")
    loop.advance(0)
    loop.advance(2000)
    assert timer.count == 2

    vm.player.tapped("pause")
    loop.advance(0)
    assert timer.is_doing is False
    assert vm.player.is_play_timer is False
    loop.advance(3000)
    assert timer.count == 2
    assert vm.display.remaining_time == 3
    assert vm.player.is_stop_enabled is True

    vm.player.tapped("start")
    loop.advance(0)
    assert timer.is_doing is True
    loop.advance(999)
    assert timer.count == 2
    loop.advance(1)
    assert timer.count == 3
    assert vm.display.remaining_time == 2

    vm.player.tapped("stop")
    loop.advance(0)
    assert timer.count == 0
    assert timer.is_doing is False
    assert vm.player.is_stop_enabled is False
    assert vm.is_show_alert is False


def test_timer_taps_are_throttled_keeping_the_first(loop: mvvm.Loop) -> None:
    timer, vm = timer_screen(loop)
    vm.player.tapped("start")  # t = 0: acts on the next dispatch
    loop.advance(0)
    assert timer.is_doing is True
    loop.advance(300)
    vm.player.tapped("pause")  # t = 300: waits for the second to be over
    loop.advance(200)
    vm.player.tapped("stop")  # t = 500: dropped, one is waiting
    loop.advance(499)
    assert loop.now() == 999
    assert timer.is_doing is True
    loop.advance(1)  # t = 1000: the pause acts; the first second's tick counted
    assert timer.is_doing is False
    assert timer.count == 1
    loop.advance(5000)  # the stop was dropped
    assert timer.count == 1 and timer.is_doing is False
    vm.player.tapped("stop")  # more than a second after the last action: acts on the next dispatch
    loop.advance(0)
    assert timer.count == 0
    assert vm.display.remaining_time == 5


def test_timer_display_follows_and_a_second_child_handle_sees_the_same(loop: mvvm.Loop, recorder: Recorder) -> None:
    timer, vm = timer_screen(loop)
    vm.display.subscribe("remaining_time", recorder)
    vm.player.tapped("start")
    loop.advance(0)
    assert vm.player.is_stop_enabled is False
    assert recorder.events == []
    loop.advance(1000)
    assert vm.display.remaining_time == 4
    assert vm.player.is_stop_enabled is True
    loop.advance(2000)
    assert recorder.events == [("remaining_time", 4), ("remaining_time", 3), ("remaining_time", 2)]
    assert vm.player.is_play_timer is True

    again = vm.child("display")
    assert isinstance(again, catalog.DisplayViewModel)
    assert again is not vm.display and again.handle != vm.display.handle
    assert again.remaining_time == 2
    again.close()
    assert vm.display.remaining_time == 2
    assert vm.display is vm.display  # the attribute is cached


def test_count_down_timer_commands(loop: mvvm.Loop) -> None:
    timer = catalog.CountDownTimer(loop, 3)
    assert (timer.full_count, timer.count, timer.remaining_time, timer.is_doing) == (3, 0, 3, False)
    timer.start()  # acts at once (no throttle on the model)
    assert timer.is_doing is True
    loop.advance(500)
    timer.start()  # start while running does nothing
    loop.advance(500)
    assert (timer.count, timer.remaining_time) == (1, 2)
    timer.pause()
    timer.pause()  # pause while paused does nothing
    assert timer.is_doing is False
    loop.advance(3000)
    assert timer.count == 1
    timer.reset()
    assert (timer.count, timer.remaining_time, timer.is_doing) == (0, 3, False)
    timer.send("start")
    loop.advance(2000)
    assert timer.count == 2
    timer.stop()
    assert (timer.count, timer.is_doing) == (0, False)
    loop.advance(2000)
    assert timer.count == 0
    timer.start()  # without a view model, running out also stops and resets
    loop.advance(3000)
    assert (timer.count, timer.remaining_time, timer.is_doing, timer.full_count) == (0, 3, False, 3)


def test_timer_alert_is_dismissed_by_the_view_and_raised_again(loop: mvvm.Loop) -> None:
    timer, vm = timer_screen(loop, 2)
    vm.player.tapped("start")
    loop.advance(0)
    loop.advance(2000)
    assert vm.is_show_alert is True
    vm.is_show_alert = False
    assert vm.is_show_alert is False
    vm.player.tapped("start")
    loop.advance(0)
    loop.advance(1999)
    assert vm.is_show_alert is False
    loop.advance(1)
    assert vm.is_show_alert is True


# ------------------------------------------------------------------------------------------------
# stop_watch, stop_watch_view_model
# ------------------------------------------------------------------------------------------------


def screen(vm: catalog.StopWatchViewModel) -> Tuple[str, str, str, bool, bool]:
    return vm.time, vm.main_action_title, vm.clear_action_title, vm.main_action_enabled, vm.clear_action_enabled


def test_stop_watch_view_model_starts_stops_resumes_and_clears(loop: mvvm.Loop) -> None:
    vm = catalog.StopWatchViewModel(loop)
    assert screen(vm) == ("00:00:00.00", "Start", "Clear", True, False)
    vm.main_action()
    assert screen(vm) == ("00:00:00.00", "Stop", "Clear", True, False)
    loop.advance(1230)
    assert screen(vm) == ("00:00:01.23", "Stop", "Clear", True, False)
    vm.main_action()
    assert screen(vm) == ("00:00:01.23", "Resume", "Clear", True, True)
    loop.advance(500)
    assert screen(vm) == ("00:00:01.23", "Resume", "Clear", True, True)
    vm.send("main_action")  # resume: the time accumulates
    assert screen(vm) == ("00:00:01.23", "Stop", "Clear", True, False)
    loop.advance(770)
    assert screen(vm) == ("00:00:02.00", "Stop", "Clear", True, False)
    vm.main_action()
    assert screen(vm) == ("00:00:02.00", "Resume", "Clear", True, True)
    vm.clear_action()
    assert screen(vm) == ("00:00:00.00", "Start", "Clear", True, False)
    vm.main_action()
    loop.advance(61230)
    assert screen(vm) == ("00:01:01.23", "Stop", "Clear", True, False)
    loop.advance(3600 * 1000)
    assert vm.time == "01:01:01.23"


def test_stop_watch_view_model_clear_only_when_resumable(loop: mvvm.Loop) -> None:
    vm = catalog.StopWatchViewModel(loop)
    vm.clear_action()  # startable: nothing
    assert screen(vm) == ("00:00:00.00", "Start", "Clear", True, False)
    vm.main_action()
    loop.advance(100)
    vm.clear_action()  # running: nothing
    assert screen(vm) == ("00:00:00.10", "Stop", "Clear", True, False)
    loop.advance(100)
    assert vm.time == "00:00:00.20"


def test_stop_watch_model_time_and_states(loop: mvvm.Loop) -> None:
    sw = catalog.StopWatch(loop)
    assert (sw.time_ms, sw.state) == (0, "startable")
    sw.stop()
    sw.resume()
    sw.clear()  # only start acts when startable
    assert sw.state == "startable"
    loop.advance(100)
    assert sw.time_ms == 0
    sw.start()
    assert sw.state == "stoppable"
    loop.advance(1000)
    assert sw.time_ms == 1000
    sw.start()
    sw.resume()
    sw.clear()  # nothing while running
    assert sw.state == "stoppable"
    loop.advance(10)
    assert sw.time_ms == 1010
    sw.stop()
    assert (sw.state, sw.get("state"), sw.time_ms) == ("resumable", "resumable", 1010)
    loop.advance(500)
    assert sw.time_ms == 1010
    sw.start()  # not startable: nothing
    assert sw.state == "resumable"
    sw.resume()
    assert sw.state == "stoppable"
    loop.advance(250)
    assert sw.time_ms == 1260
    sw.send("stop")
    sw.send("clear")
    assert (sw.state, sw.time_ms) == ("startable", 0)


def test_stop_watch_time_updates_on_ticks_and_on_stop(loop: mvvm.Loop) -> None:
    sw = catalog.StopWatch(loop)
    loop.advance(3)
    sw.start()
    loop.advance(15)
    assert sw.time_ms == 10  # the tick at 10 ms after start
    sw.stop()
    assert sw.time_ms == 15  # stop publishes the exact time
    loop.advance(7)
    sw.resume()
    loop.advance(9)
    assert sw.time_ms == 15
    loop.advance(1)
    assert sw.time_ms == 25  # ticks count from the resume


# ------------------------------------------------------------------------------------------------
# input_echo_view_model
# ------------------------------------------------------------------------------------------------


def test_input_echo_echoes_utf8_input(loop: mvvm.Loop, recorder: Recorder) -> None:
    vm = catalog.InputEchoViewModel(loop)
    assert (vm.input, vm.label, vm.message) == ("", "", "Your input is ''!")
    vm.subscribe(None, recorder)
    vm.input = "h\u00e9llo"
    assert (vm.input, vm.label, vm.message) == ("h\u00e9llo", "h\u00e9llo", "Your input is 'h\u00e9llo'!")
    assert sorted(recorder.events) == sorted([("input", "h\u00e9llo"), ("label", "h\u00e9llo"),
                                              ("message", "Your input is 'h\u00e9llo'!")])
    vm.set("input", FAMILY + "!")
    assert vm.label == FAMILY + "!"
    assert vm.get("message") == "Your input is '" + FAMILY + "!'!"
    vm.input = ""
    assert (vm.label, vm.message) == ("", "Your input is ''!")


# ------------------------------------------------------------------------------------------------
# sign_up_view_model
# ------------------------------------------------------------------------------------------------


def fill(vm: catalog.SignUpViewModel, user_id: str, password: str, confirm: str, agreed: bool) -> None:
    vm.user_id, vm.password, vm.confirm_password, vm.agreed = user_id, password, confirm, agreed


def test_sign_up_enabled_only_at_the_boundaries(loop: mvvm.Loop) -> None:
    vm = catalog.SignUpViewModel(loop)
    assert vm.is_sign_up_enabled is False
    assert (vm.user_id, vm.agreed, vm.is_completion_alert_presented) == ("", False, False)
    fill(vm, "abcdef", "12345678", "12345678", True)
    assert vm.is_sign_up_enabled is True
    vm.user_id = "abcde"  # 5
    assert vm.is_sign_up_enabled is False
    vm.user_id = "abcdef"  # 6
    assert vm.is_sign_up_enabled is True
    vm.set("password", "1234567")  # 7
    vm.set("confirm_password", "1234567")
    assert vm.is_sign_up_enabled is False
    vm.password = "12345678"  # 8, confirm differs
    assert vm.is_sign_up_enabled is False
    vm.confirm_password = "12345678"
    assert vm.is_sign_up_enabled is True
    vm.confirm_password = "12345679"  # mismatch
    assert vm.is_sign_up_enabled is False
    vm.confirm_password = "12345678"
    assert vm.is_sign_up_enabled is True
    vm.set("agreed", False)  # disagree
    assert vm.is_sign_up_enabled is False
    vm.agreed = True
    assert vm.is_sign_up_enabled is True
    assert (vm.user_id, vm.password, vm.confirm_password, vm.agreed) == ("abcdef", "12345678", "12345678", True)


def test_sign_up_counts_grapheme_clusters(loop: mvvm.Loop) -> None:
    vm = catalog.SignUpViewModel(loop)
    fill(vm, FAMILY * 6, "12345678", "12345678", True)
    assert vm.is_sign_up_enabled is True  # 6 characters, 150 bytes
    assert vm.user_id == FAMILY * 6
    vm.user_id = FAMILY * 5
    assert vm.is_sign_up_enabled is False  # 5 characters, 125 bytes
    vm.user_id = E_ACUTE_DECOMPOSED * 5 + "a"
    assert vm.is_sign_up_enabled is True
    vm.user_id = E_ACUTE_DECOMPOSED * 5
    assert vm.is_sign_up_enabled is False
    vm.user_id = "abcdef"
    vm.password = vm.confirm_password = FAMILY * 7
    assert vm.is_sign_up_enabled is False
    vm.password = vm.confirm_password = FAMILY * 8
    assert vm.is_sign_up_enabled is True


def test_sign_up_tapped_with_the_built_in_service(loop: mvvm.Loop, recorder: Recorder) -> None:
    vm = catalog.SignUpViewModel(loop)
    vm.subscribe("is_completion_alert_presented", recorder)
    fill(vm, "abcdef", "12345678", "12345678", False)
    vm.sign_up_tapped()  # disabled: nothing
    loop.advance(0)
    assert vm.is_completion_alert_presented is False
    vm.send("sign_up_tapped")
    assert vm.is_completion_alert_presented is False
    assert recorder.events == []
    vm.agreed = True
    vm.sign_up_tapped()  # the built-in service answers at once with success
    assert vm.is_completion_alert_presented is True
    assert recorder.events == [("is_completion_alert_presented", True)]
    vm.is_completion_alert_presented = False  # the view dismisses it
    assert vm.is_completion_alert_presented is False


# ------------------------------------------------------------------------------------------------
# welcome_view_model
# ------------------------------------------------------------------------------------------------


def test_welcome_arrives_after_a_dispatch_and_text_on_taps(loop: mvvm.Loop, recorder: Recorder) -> None:
    vm = catalog.WelcomeViewModel(loop)
    vm.subscribe(None, recorder)
    vm.view_did_load()
    assert recorder.values("on_show_welcome") == []
    loop.advance(0)
    assert recorder.values("on_show_welcome") == ["Welcome!"]
    vm.tap_button("A")
    assert recorder.values("on_show_text") == ["A show!!"]
    vm.send("tap_button", "B")
    vm.tap_button("")
    assert recorder.values("on_show_text") == ["A show!!", "B show!!", " show!!"]
    vm.send("view_did_load")
    vm.view_did_load()
    assert recorder.count("on_show_welcome") == 1
    loop.advance(0)  # two loads at one instant: two signals, never merged
    assert recorder.values("on_show_welcome") == ["Welcome!"] * 3


def test_welcome_only_first_pairs_loads_with_taps_like_zip(loop: mvvm.Loop, recorder: Recorder) -> None:
    vm = catalog.WelcomeViewModel(loop)
    vm.subscribe("on_show_only_first", recorder)
    steps: List[Tuple[str, int]] = [
        ("tap", 0), ("load", 1),  # tap, load -> 1
        ("tap", 1), ("tap", 1),  # tap, tap -> 1
        ("load", 2), ("load", 3), ("load", 3),  # load -> 2; load -> 3; load -> 3
        ("tap", 4),  # tap -> 4
    ]
    for action, expected in steps:
        if action == "tap":
            vm.tap_button(action)
        else:
            vm.view_did_load()
        assert recorder.count() == expected, (action, expected, recorder.events)
    loop.advance(0)  # the welcomes arrive; they are not this signal
    assert recorder.events == [("on_show_only_first", None)] * 4


# ------------------------------------------------------------------------------------------------
# counters
# ------------------------------------------------------------------------------------------------


def test_counter_view_models_over_one_counter_stay_in_step(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    first, second = catalog.CounterViewModel(loop, counter), catalog.CounterViewModel(loop, counter)
    assert first.model is counter
    assert (first.label, second.label, first.count) == ("Counter", "Counter", "0")
    first.increment()
    first.increment()
    second.decrement()
    assert (first.count, second.count) == ("1", "1")
    second.send("decrement")
    second.decrement()
    assert (first.count, counter.count) == ("-1", -1)
    for _ in range(3):
        counter.increment()
    counter.decrement()
    assert (counter.count, first.count, second.count) == (1, "1", "1")
    first.close()
    second.increment()
    assert second.count == "2"


def draw(loop: mvvm.Loop, seed: int, n: int = 20) -> List[int]:
    counter = catalog.RandomCounter(loop, seed)
    assert counter.count == 0
    counts = []
    for i in range(n):
        counter.increment() if i % 2 == 0 else counter.decrement()
        counts.append(counter.count)
    counter.close()
    return counts


def test_random_counter_repeats_its_sequence_for_a_seed(loop: mvvm.Loop) -> None:
    first, again, other = draw(loop, 42), draw(loop, 42), draw(loop, 43)
    assert first == again
    assert first != other
    assert all(1 <= n <= 10 for n in first + other)
    assert len(set(first)) >= 4
    assert draw(loop, 2**64 - 1) == draw(loop, 2**64 - 1)


def test_counter_view_model_over_a_random_counter(loop: mvvm.Loop) -> None:
    expected = draw(loop, 42)
    model = catalog.RandomCounter(loop, 42)
    vm = catalog.CounterViewModel(loop, model)
    assert (vm.label, vm.count) == ("Random Counter", "0")
    for i, n in enumerate(expected):
        vm.increment() if i % 2 == 0 else vm.decrement()
        assert (vm.count, model.count) == (str(n), n)


def test_counter_page_has_a_read_me_and_two_counters(loop: mvvm.Loop) -> None:
    page = catalog.CounterPageViewModel(loop, seed=7)
    assert len(page.read_me) > 0
    first, second = page.first_counter, page.second_counter
    assert isinstance(first, catalog.CounterViewModel) and isinstance(second, catalog.CounterViewModel)
    assert first.model is None
    assert (first.label, second.label, first.count, second.count) == ("Counter", "Random Counter", "0", "0")
    assert (first.class_name, page.class_name) == ("counter_view_model", "counter_page_view_model")
    first.increment()
    assert first.count == "1"
    second.increment()
    assert second.count == str(draw(loop, 7, 1)[0])
    second_again = page.child("second_counter")
    assert second_again.get("count") == second.count
    unseeded = catalog.CounterPageViewModel(loop)
    unseeded.second_counter.increment()
    assert 1 <= int(unseeded.second_counter.count) <= 10


# ------------------------------------------------------------------------------------------------
# describe, snapshot
# ------------------------------------------------------------------------------------------------

CATALOG: List[Tuple[str, Any, List[Tuple[str, str, str]]]] = [
    ("count_down_timer", catalog.CountDownTimer,
     [("full_count", "int", "ro"), ("count", "int", "ro"), ("remaining_time", "int", "ro"), ("is_doing", "bool", "ro")]),
    ("timer_view_model", catalog.TimerViewModel, [("is_show_alert", "bool", "rw")]),
    ("display_view_model", catalog.DisplayViewModel, [("remaining_time", "int", "ro")]),
    ("player_view_model", catalog.PlayerViewModel, [("is_stop_enabled", "bool", "ro"), ("is_play_timer", "bool", "ro")]),
    ("stop_watch", catalog.StopWatch, [("time_ms", "int", "ro"), ("state", "string", "ro")]),
    ("stop_watch_view_model", catalog.StopWatchViewModel,
     [("time", "string", "ro"), ("main_action_title", "string", "ro"), ("clear_action_title", "string", "ro"),
      ("main_action_enabled", "bool", "ro"), ("clear_action_enabled", "bool", "ro")]),
    ("input_echo_view_model", catalog.InputEchoViewModel,
     [("input", "string", "rw"), ("label", "string", "ro"), ("message", "string", "ro")]),
    ("sign_up_view_model", catalog.SignUpViewModel,
     [("user_id", "string", "rw"), ("password", "string", "rw"), ("confirm_password", "string", "rw"),
      ("agreed", "bool", "rw"), ("is_completion_alert_presented", "bool", "rw"), ("is_sign_up_enabled", "bool", "ro")]),
    ("welcome_view_model", catalog.WelcomeViewModel, []),
    ("counter", catalog.Counter, [("count", "int", "ro")]),
    ("random_counter", catalog.RandomCounter, [("count", "int", "ro")]),
    ("counter_view_model", catalog.CounterViewModel, [("label", "string", "ro"), ("count", "string", "ro")]),
    ("counter_page_view_model", catalog.CounterPageViewModel, [("read_me", "string", "ro")]),
]


def every_object(loop: mvvm.Loop) -> List[mvvm.MvvmObject]:
    timer = catalog.CountDownTimer(loop, 5)
    timer_vm = catalog.TimerViewModel(loop, timer)
    counter = catalog.Counter(loop)
    return [timer, timer_vm, timer_vm.display, timer_vm.player, catalog.StopWatch(loop), catalog.StopWatchViewModel(loop),
            catalog.InputEchoViewModel(loop), catalog.SignUpViewModel(loop), catalog.WelcomeViewModel(loop), counter,
            catalog.RandomCounter(loop, 1), catalog.CounterViewModel(loop, counter), catalog.CounterPageViewModel(loop, seed=1)]


def test_every_class_describes_itself_as_the_python_class_says(loop: mvvm.Loop) -> None:
    objects = every_object(loop)
    assert [o.class_name for o in objects] == [c for c, _, _ in CATALOG]
    for obj, (c_class, cls, properties) in zip(objects, CATALOG):
        assert type(obj) is cls and cls.c_class == c_class
        described = obj.describe()
        assert described["class"] == c_class
        assert [(p["name"], p["type"], p["access"]) for p in described["properties"]] == properties
        snapshot = obj.snapshot()
        assert list(snapshot) == [name for name, _, _ in properties]
        for name, kind, access in properties:
            descriptor = getattr(cls, name)
            assert type(descriptor).__name__ == "Property" and descriptor.writable is (access == "rw"), (cls, name)
            assert descriptor.type_name == kind
            assert getattr(obj, name) == snapshot[name] == obj.get(name)
        for command in described["commands"]:
            assert callable(getattr(obj, command["name"])), (cls, command)
        for child in described["children"]:
            assert isinstance(getattr(obj, child), mvvm.MvvmObject)


def test_describe_and_snapshot_are_dicts_with_names_and_values(loop: mvvm.Loop) -> None:
    sign_up = catalog.SignUpViewModel(loop)
    described = sign_up.describe()
    assert [{k: c[k] for k in ("name", "argument")} for c in described["commands"]] == \
        [{"name": "sign_up_tapped", "argument": "none"}]
    assert described["signals"] == [] and described["children"] == []
    sign_up.user_id = "abc"
    assert sign_up.snapshot() == {"user_id": "abc", "password": "", "confirm_password": "", "agreed": False,
                                  "is_completion_alert_presented": False, "is_sign_up_enabled": False}
    timer, timer_vm = timer_screen(loop)
    timer.start()
    loop.advance(2000)
    assert timer.snapshot() == {"full_count": 5, "count": 2, "remaining_time": 3, "is_doing": True}
    assert timer_vm.describe()["children"] == ["display", "player"]
    player = timer_vm.player.describe()
    tapped = [c for c in player["commands"] if c["name"] == "tapped"][0]
    assert tapped["argument"] == "string" and sorted(tapped["values"]) == ["pause", "start", "stop"]
    assert timer_vm.player.snapshot() == {"is_stop_enabled": True, "is_play_timer": True}
    welcome = catalog.WelcomeViewModel(loop).describe()
    assert [{k: s[k] for k in ("name", "type")} for s in welcome["signals"]] == [
                                  {"name": "on_show_welcome", "type": "string"},
                                  {"name": "on_show_text", "type": "string"},
                                  {"name": "on_show_only_first", "type": "none"}]
    assert catalog.StopWatchViewModel(loop).snapshot() == {
        "time": "00:00:00.00", "main_action_title": "Start", "clear_action_title": "Clear",
        "main_action_enabled": True, "clear_action_enabled": False}


@pytest.mark.parametrize("value", [True, False])
def test_generic_and_typed_access_agree(loop: mvvm.Loop, value: bool) -> None:
    timer, vm = timer_screen(loop)
    vm.set("is_show_alert", value)
    assert vm.is_show_alert is value and vm.get("is_show_alert") is value
