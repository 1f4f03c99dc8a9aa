"""Subscriptions: values as Python objects, order, lifetime through the registry, callbacks
that raise, unsubscribe themselves, close their source, call back in; garbage-collection stress."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref
from typing import Any, List, Tuple

import pytest

import mvvm
from mvvm._registry import registry
from conftest import Recorder, Unraisables
from libraries import catalog


def test_values_arrive_as_python_objects(loop: mvvm.Loop, recorder: Recorder) -> None:
    timer = catalog.CountDownTimer(loop, 3)
    timer.subscribe(None, recorder)
    timer.start()
    loop.advance(1000)
    welcome = catalog.WelcomeViewModel(loop)
    welcome.subscribe(None, recorder)
    welcome.view_did_load()
    welcome.tap_button("x")
    loop.advance(0)
    assert ("is_doing", True) in recorder.events
    assert ("count", 1) in recorder.events and ("remaining_time", 2) in recorder.events
    assert ("on_show_only_first", None) in recorder.events
    assert ("on_show_text", "x show!!") in recorder.events
    assert ("on_show_welcome", "Welcome!") in recorder.events
    for name, value in recorder.events:
        assert type(value) in (bool, int, str, type(None)), (name, value)
    assert type(dict(recorder.events)["count"]) is int


def test_a_getter_inside_the_callback_sees_the_new_value(loop: mvvm.Loop) -> None:
    vm = catalog.SignUpViewModel(loop)
    seen: List[Tuple[Any, ...]] = []
    vm.subscribe("is_sign_up_enabled", lambda name, value: seen.append((value, vm.is_sign_up_enabled, vm.agreed)))
    vm.user_id, vm.password, vm.confirm_password = "abcdef", "12345678", "12345678"
    assert seen == []
    vm.agreed = True
    assert seen == [(True, True, True)]


def test_subscribers_are_called_in_the_order_they_subscribed(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    order: List[int] = []
    for i in range(50):
        counter.subscribe("count", lambda name, value, i=i: order.append(i))
    counter.increment()
    assert order == list(range(50))


def test_one_operation_notifies_each_property_once_with_its_final_value(loop: mvvm.Loop, recorder: Recorder) -> None:
    vm = catalog.InputEchoViewModel(loop)
    vm.subscribe(None, recorder)
    vm.input = "abc"
    vm.input = "abc"  # no change: no notification
    assert sorted(recorder.events) == [("input", "abc"), ("label", "abc"), ("message", "Your input is 'abc'!")]


def test_unsubscribe_is_idempotent_and_ends_the_callback(loop: mvvm.Loop, recorder: Recorder) -> None:
    counter = catalog.Counter(loop)
    subscription = counter.subscribe("count", recorder)
    assert subscription.active and subscription.source is counter and subscription.name == "count"
    counter.increment()
    subscription.unsubscribe()
    assert not subscription.active
    subscription.unsubscribe()
    counter.increment()
    assert recorder.values() == [1]
    with counter.subscribe(None, recorder) as scoped:
        counter.increment()
    assert not scoped.active
    counter.increment()
    assert recorder.values() == [1, 3]
    assert len(registry) == 0


def test_a_subscription_nobody_keeps_still_delivers(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    seen: List[int] = []
    counter.subscribe("count", lambda name, value: seen.append(value))  # neither kept
    gc.collect()
    counter.increment()
    counter.increment()
    assert seen == [1, 2]
    counter.close()  # ends it: its destroy function runs
    assert len(registry) == 0


def test_closing_the_object_or_the_loop_ends_its_subscriptions() -> None:
    ended: List[str] = []
    with catalog.Loop.virtual() as loop:
        first, second = catalog.Counter(loop), catalog.Counter(loop)
        a = first.subscribe("count", lambda n, v: None, on_end=lambda: ended.append("a"))
        b = second.subscribe("count", lambda n, v: None, on_end=lambda: ended.append("b"))
        first.close()
        assert ended == ["a"] and not a.active and b.active
    assert ended == ["a", "b"] and not b.active
    b.unsubscribe()  # ended already: nothing to do


def test_subscribing_to_an_unknown_name_raises_and_keeps_nothing(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    with pytest.raises(mvvm.UnknownNameError) as raised:
        counter.subscribe("nope", lambda n, v: None)
    assert raised.value.status == mvvm.Status.ERR_UNKNOWN_NAME
    assert "nope" in raised.value.message
    assert raised.value.function == "mvvm_subscribe"
    with pytest.raises(TypeError):
        counter.subscribe("count", "not callable")  # type: ignore[arg-type]
    assert len(registry) == 0


def my_failing_callback(name: str, value: Any) -> None:
    raise ValueError("boom in a callback")


def test_an_exception_in_a_callback_goes_to_unraisablehook(loop: mvvm.Loop, unraisables: Unraisables,
                                                            recorder: Recorder) -> None:
    counter = catalog.Counter(loop)
    counter.subscribe("count", my_failing_callback)
    counter.subscribe("count", recorder)
    counter.increment()  # the call succeeds; the next subscriber is called
    counter.increment()
    assert counter.count == 2
    assert recorder.values() == [1, 2]
    assert len(unraisables.seen) == 2
    report = unraisables.seen[0]
    assert report.exc_type is ValueError and str(report.exc_value) == "boom in a callback"
    assert report.object is my_failing_callback
    assert "my_failing_callback" in report.err_msg
    assert "'count' of Counter" in report.err_msg
    assert report.exc_traceback is not None


def test_a_keyboard_interrupt_in_a_callback_propagates_after_the_call(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    counter = catalog.Counter(loop)

    def interrupt(name: str, value: Any) -> None:
        raise KeyboardInterrupt

    counter.subscribe("count", interrupt)
    with pytest.raises(KeyboardInterrupt):
        counter.increment()
    assert counter.count == 1                  # the command ran; only then was it raised
    assert unraisables.seen == []


def test_the_default_hook_prints_the_callback_and_the_program_goes_on() -> None:
    program = textwrap.dedent("""
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        def the_named_callback(name, value):
            raise RuntimeError("raised on purpose")
        loop = catalog.Loop.virtual()
        counter = catalog.Counter(loop)
        counter.subscribe("count", the_named_callback)
        counter.increment()
        counter.increment()
        print("count", counter.count)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "count 2"
    assert done.stderr.count("the_named_callback") >= 2
    assert "RuntimeError: raised on purpose" in done.stderr


def test_a_callback_that_unsubscribes_itself(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    seen: List[int] = []
    holder: List[mvvm.Subscription] = []

    def once(name: str, value: Any) -> None:
        seen.append(value)
        holder[0].unsubscribe()
        holder[0].unsubscribe()

    holder.append(counter.subscribe("count", once))
    after: List[int] = []
    counter.subscribe("count", lambda n, v: after.append(v))
    counter.increment()
    counter.increment()
    assert seen == [1]
    assert after == [1, 2]
    assert not holder[0].active


def test_a_callback_that_closes_its_source(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    counter = catalog.Counter(loop)
    vm = catalog.CounterViewModel(loop, counter)
    seen: List[str] = []

    def close_it(name: str, value: Any) -> None:
        seen.append(value)
        vm.close()

    subscription = vm.subscribe("count", close_it)
    vm.increment()
    assert seen == ["1"]
    assert vm.closed and not subscription.active
    with pytest.raises(mvvm.ClosedError):
        vm.increment()
    counter.increment()  # the model lives on
    assert counter.count == 2 and seen == ["1"]
    assert unraisables.seen == []


def test_a_callback_that_calls_back_in(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    echo = catalog.InputEchoViewModel(loop)
    inner: List[Any] = []

    def mirror(name: str, value: Any) -> None:
        echo.input = value  # set another object
        inner.append(form.snapshot()["user_id"])  # read this one
        form.subscribe("password", lambda n, v: inner.append(("password", v)))  # subscribe inside

    form.subscribe("user_id", mirror)
    form.user_id = "abc"
    assert echo.message == "Your input is 'abc'!"
    form.password = "pw"
    assert inner == ["abc", ("password", "pw")]


def test_thousands_of_subscriptions_nobody_keeps_survive_garbage_collection(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    delivered: List[int] = []
    ended: List[int] = []
    total = 3000
    for i in range(total):
        counter.subscribe("count", lambda name, value, i=i: delivered.append(i), on_end=lambda: ended.append(1))
        if i % 500 == 0:
            gc.collect()
    gc.collect()
    assert len(registry) == total
    counter.increment()
    assert delivered == list(range(total))
    counter.increment()
    assert len(delivered) == 2 * total
    assert ended == []
    counter.close()
    assert len(ended) == total
    assert len(registry) == 0


def test_subscribe_unsubscribe_churn_with_garbage_collection(loop: mvvm.Loop) -> None:
    echo = catalog.InputEchoViewModel(loop)
    delivered = [0]
    kept: List[mvvm.Subscription] = []
    for round_ in range(20):
        for i in range(100):
            subscription = echo.subscribe(None, lambda name, value: delivered.__setitem__(0, delivered[0] + 1))
            if i % 2:
                kept.append(subscription)
        gc.collect()
        echo.input = "round %d" % round_  # input, label, message: three events per subscriber
        for subscription in kept[-50:]:
            subscription.unsubscribe()
    # Every round added 100; each unsubscribe removed one of the 50 kept.
    expected = sum(3 * (100 * (r + 1) - 50 * r) for r in range(20))
    assert delivered[0] == expected
    assert len(registry) == 20 * 50
    echo.close()
    assert len(registry) == 0


def test_callbacks_are_released_when_their_destroy_runs(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)

    class Callback:
        def __call__(self, name: str, value: Any) -> None:
            pass

    callback = Callback()
    alive = weakref.ref(callback)
    subscription = counter.subscribe("count", callback)
    del callback
    gc.collect()
    assert alive() is not None  # the registry holds it while C may call it
    subscription.unsubscribe()
    gc.collect()
    assert alive() is None


def test_callbacks_see_a_consistent_state(loop: mvvm.Loop) -> None:
    timer = catalog.CountDownTimer(loop, 3)
    screen = catalog.StopWatchViewModel(loop)
    problems: List[Any] = []

    def check_timer(name: str, value: Any) -> None:
        snapshot = timer.snapshot()
        if snapshot[name] != value or snapshot["remaining_time"] != snapshot["full_count"] - snapshot["count"]:
            problems.append(("timer", name, value, snapshot))

    def check_screen(name: str, value: Any) -> None:
        snapshot = screen.snapshot()
        titles = {"Start": False, "Stop": False, "Resume": True}
        if snapshot[name] != value or titles[snapshot["main_action_title"]] != snapshot["clear_action_enabled"]:
            problems.append(("screen", name, value, snapshot))

    timer.subscribe(None, check_timer)
    screen.subscribe(None, check_screen)
    timer.start()
    screen.main_action()
    loop.advance(1500)
    timer.pause()
    screen.main_action()
    screen.clear_action()
    timer.start()
    screen.main_action()
    loop.advance(5000)
    assert problems == []
