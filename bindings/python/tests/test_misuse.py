"""Ownership and misuse: close, context managers, garbage collection, parents kept alive,
closed loops, wrong types, unknown names, bad strings; errors carry the library's message."""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
import textwrap
from typing import Any, List

import pytest

import mvvm
from mvvm._registry import registry
from mvvm._releases import pending
from mvvm._abi import Event, Value
from mvvm._registry import Entry
from mvvm._trampolines import EVENT_TRAMPOLINE
from mvvm._values import decode, from_c
from conftest import Unraisables
from libraries import catalog

#: The default library's generic C functions.
lib = catalog.functions


def is_released(handle: int) -> bool:
    name = ctypes.c_char_p()
    try:
        lib.mvvm_class_name(handle, ctypes.byref(name))
    except mvvm.InvalidHandleError:
        return True
    return False


# --- close, with, garbage collection ------------------------------------------------------------


def test_close_releases_once_and_use_after_close_raises(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    handle = counter.handle
    counter.close()
    assert counter.closed and is_released(handle)
    counter.close()  # a no-op
    for use in (lambda: counter.count, counter.increment, lambda: counter.get("count"), counter.describe,
                counter.snapshot, lambda: counter.subscribe(None, print), lambda: counter.send("increment"),
                lambda: counter.handle, lambda: counter.class_name):
        with pytest.raises(mvvm.ClosedError) as raised:
            use()
        assert "Counter is closed" in str(raised.value)
        assert isinstance(raised.value, mvvm.InvalidHandleError)
    vm = catalog.SignUpViewModel(loop)
    vm.close()
    with pytest.raises(mvvm.ClosedError):
        vm.user_id = "abcdef"
    assert repr(vm) == "<mvvm.SignUpViewModel closed>"


def test_context_managers_close(recorder: Any) -> None:
    with catalog.Loop.virtual() as loop:
        with catalog.StopWatch(loop) as watch:
            handle = watch.handle
            watch.start()
        assert watch.closed and is_released(handle)
    assert loop.closed
    with pytest.raises(mvvm.ClosedError):
        loop.advance(1)
    loop.close()


def test_garbage_collection_releases_the_handle(loop: mvvm.Loop) -> None:
    handles = []
    for _ in range(100):
        handles.append(catalog.StopWatchViewModel(loop).handle)  # dropped at once
    gc.collect()
    assert all(is_released(h) for h in handles)


def test_children_keep_their_parent_and_view_models_their_models(loop: mvvm.Loop) -> None:
    display = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 5)).display
    parent = display._refs[0]
    parent_handle, timer_handle = parent.handle, parent.timer.handle
    del parent
    gc.collect()
    assert not is_released(parent_handle) and not is_released(timer_handle)
    assert display.remaining_time == 5
    del display
    gc.collect()
    assert is_released(parent_handle) and is_released(timer_handle)

    vm = catalog.CounterViewModel(loop, catalog.Counter(loop))
    gc.collect()
    vm.increment()
    assert vm.model is not None and vm.model.count == 1

    orphan = catalog.Counter(catalog.Loop.virtual())  # the only reference to the loop is the object's
    gc.collect()
    orphan.increment()
    assert orphan.count == 1 and not orphan.loop.closed


def test_closing_a_parent_closes_its_attribute_children_not_the_handed_out_ones(loop: mvvm.Loop) -> None:
    timer = catalog.CountDownTimer(loop, 5)
    vm = catalog.TimerViewModel(loop, timer)
    player = vm.player
    own = vm.child("player")
    vm.close()
    assert player.closed
    with pytest.raises(mvvm.ClosedError):
        player.tapped("start")
    own.tapped("start")  # its handle keeps the view model alive in the library
    loop.advance(0)
    assert timer.is_doing is True and own.is_play_timer is True
    assert not timer.closed


def test_a_finalizer_inside_a_callback_defers_its_release(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    made: List[int] = []

    def make_and_drop(name: str, value: Any) -> None:
        made.append(catalog.Counter(loop).handle)  # garbage at once, inside the callback

    counter.subscribe("count", make_and_drop)
    counter.increment()
    assert len(made) == 1 and not is_released(made[0])  # deferred
    assert len(pending) == 1
    assert counter.count == 1  # the next call from outside a callback releases it
    assert is_released(made[0]) and len(pending) == 0


def test_objects_left_open_at_exit_are_released_cleanly() -> None:
    program = textwrap.dedent("""
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        loops = [catalog.Loop.virtual(), catalog.Loop.manual(), catalog.Loop.thread()]
        keep = []
        for loop in loops:
            vm = catalog.StopWatchViewModel(loop)
            vm.subscribe(None, lambda name, value: keep.append(value))
            vm.main_action()
            form = catalog.SignUpViewModel(loop, service=keep.append)  # requests never answered
            form.user_id, form.password, form.confirm_password, form.agreed = "abcdef", "12345678", "12345678", True
            form.sign_up_tapped()
            keep.extend([vm, form, catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 3)).display])
        loops[0].advance(100)
        loops[1].run_for(30)
        print("done", len(keep) > 10)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "done True", "")


# --- loops --------------------------------------------------------------------------------------


def test_a_closed_loop_makes_its_objects_raise_loop_released() -> None:
    loop = catalog.Loop.virtual()
    counter = catalog.Counter(loop)
    subscription = counter.subscribe("count", lambda n, v: None)
    loop.close()
    loop.close()
    assert not subscription.active
    with pytest.raises(mvvm.LoopReleasedError) as raised:
        counter.increment()
    assert raised.value.status == mvvm.Status.ERR_LOOP_RELEASED and raised.value.message
    with pytest.raises(mvvm.LoopReleasedError):
        _ = counter.count
    with pytest.raises(mvvm.LoopReleasedError):
        counter.snapshot()
    with pytest.raises(mvvm.ClosedError):
        catalog.Counter(loop)
    counter.close()  # still allowed


def test_loop_calls_of_the_wrong_kind_and_bad_times() -> None:
    with catalog.Loop.virtual() as virtual, catalog.Loop.manual() as manual:
        assert (virtual.kind, manual.kind) == (mvvm.LoopKind.VIRTUAL, mvvm.LoopKind.MANUAL)
        with pytest.raises(mvvm.WrongLoopKindError):
            virtual.dispatch()
        with pytest.raises(mvvm.WrongLoopKindError):
            virtual.fileno()
        with pytest.raises(mvvm.WrongLoopKindError):
            manual.advance(10)
        with pytest.raises(mvvm.InvalidArgumentError):
            virtual.advance(-1)
        with pytest.raises(mvvm.InvalidArgumentError):
            manual.run_for(-1)
        with pytest.raises(TypeError):
            virtual.advance(1.5)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            virtual.advance(True)
        assert manual.fileno() >= 0
        assert manual.dispatch() == 0
        assert virtual.next_timeout() is None and virtual.now() == 0
        watch = catalog.StopWatch(virtual)
        watch.start()
        assert virtual.next_timeout() == 10
        virtual.advance(4)
        assert (virtual.next_timeout(), virtual.now()) == (6, 4)
        with pytest.raises(ValueError):
            catalog.Loop(7)


def test_dispatching_from_a_callback_of_the_same_loop_is_refused(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    watch = catalog.StopWatch(loop)
    errors: List[BaseException] = []

    def advance_inside(name: str, value: Any) -> None:
        try:
            loop.advance(10)
        except mvvm.MvvmError as error:
            errors.append(error)

    watch.subscribe("time_ms", advance_inside)
    watch.start()
    loop.advance(10)
    assert len(errors) == 1 and isinstance(errors[0], mvvm.InvalidArgumentError)
    assert watch.time_ms == 10


# --- types and names ----------------------------------------------------------------------------


def test_values_of_the_wrong_type_are_refused_by_the_library(loop: mvvm.Loop) -> None:
    vm = catalog.SignUpViewModel(loop)
    for assign, message in ((lambda: setattr(vm, "agreed", 1), "sign_up_view_model.agreed is of type bool, not int"),
                            (lambda: setattr(vm, "agreed", "yes"), "sign_up_view_model.agreed is of type bool, not string"),
                            (lambda: setattr(vm, "user_id", 42), "sign_up_view_model.user_id is of type string, not int"),
                            (lambda: vm.set("agreed", "true"), "sign_up_view_model.agreed is of type bool, not string"),
                            (lambda: vm.set("user_id", 1.5), "sign_up_view_model.user_id is of type string, not double")):
        with pytest.raises(mvvm.TypeMismatchError) as raised:
            assign()
        assert isinstance(raised.value, TypeError)
        assert (raised.value.function, raised.value.message) == ("mvvm_set", message)
    with pytest.raises(mvvm.InvalidArgumentError) as null:
        vm.user_id = None  # type: ignore[assignment]
    assert null.value.message == "sign_up_view_model.user_id is of type string, not optional: it cannot be null"
    assert vm.snapshot()["agreed"] is False and vm.user_id == ""
    vm.user_id = b"bytes"  # type: ignore[assignment]  # UTF-8 bytes are taken for a string
    assert vm.user_id == "bytes"
    with pytest.raises(mvvm.TypeMismatchError) as kind:
        catalog.CountDownTimer(loop, "5")  # type: ignore[arg-type]
    assert kind.value.message == "argument 1 of count_down_timer (full_count) is of type int, not string"
    with pytest.raises(TypeError):
        catalog.Counter("not a loop")  # type: ignore[arg-type]
    with pytest.raises(mvvm.TypeMismatchError) as model:
        catalog.TimerViewModel(loop, 5)  # type: ignore[arg-type]
    assert model.value.message == "argument 1 of timer_view_model (timer) is object, not int"
    with pytest.raises(mvvm.InvalidArgumentError) as child:
        catalog.DisplayViewModel(loop)  # only a child
    assert "display_view_model has no constructor" in child.value.message
    with pytest.raises(mvvm.InvalidArgumentError) as wide:
        catalog.CountDownTimer(loop, 2**63)  # a uint64 value, out of the argument's range
    assert "(full_count) is out of range: 9223372036854775808" in wide.value.message
    with pytest.raises(mvvm.InvalidArgumentError) as beyond:
        catalog.CountDownTimer(loop, 2**64)  # no 64-bit value: the bindings' own refusal
    assert beyond.value.function is None and "does not fit in 64 bits" in beyond.value.message


def test_a_python_object_that_is_no_value_is_refused_by_the_bindings(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    for give in (lambda: mvvm.new(loop, "counter", object()), lambda: counter.send("increment", {1, 2}),
                 lambda: counter.call("increment", print)):
        with pytest.raises(mvvm.TypeMismatchError) as raised:
            give()
        assert raised.value.function is None and "no value the library can be given" in raised.value.message
    nested: List[Any] = []
    nested.append(nested)
    with pytest.raises(mvvm.InvalidArgumentError) as deep:
        counter.call("increment", nested)
    assert deep.value.function is None and "nested" in deep.value.message
    assert counter.count == 0


def test_the_library_refuses_what_only_it_can_check(loop: mvvm.Loop) -> None:
    with pytest.raises(mvvm.InvalidArgumentError) as zero:
        catalog.CountDownTimer(loop, 0)
    assert zero.value.function == "mvvm_new_named" and zero.value.message
    counter = catalog.Counter(loop)
    with pytest.raises(mvvm.WrongTypeError) as wrong:
        catalog.TimerViewModel(loop, counter)  # type: ignore[arg-type]
    assert isinstance(wrong.value, TypeError) and wrong.value.status == mvvm.Status.ERR_WRONG_TYPE
    with catalog.Loop.virtual() as other:
        with pytest.raises(mvvm.InvalidArgumentError):
            catalog.CounterViewModel(loop, catalog.Counter(other))
    with pytest.raises(mvvm.WrongTypeError):
        catalog.CounterViewModel(loop, catalog.StopWatch(loop))  # type: ignore[arg-type]
    player = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 3)).player
    with pytest.raises(mvvm.InvalidArgumentError) as jump:
        player.tapped("jump")  # type: ignore[arg-type]
    assert jump.value.message == 'argument 1 of player_view_model.tapped (argument) cannot hold "jump": it is no case of Action: start, pause, stop'
    with pytest.raises(mvvm.InvalidArgumentError) as missing:
        player.tapped()  # type: ignore[call-arg]
    assert missing.value.message == "argument 1 of player_view_model.tapped (argument) is missing"
    with pytest.raises(mvvm.TypeMismatchError):
        player.send("tapped")  # the argument is missing
    with pytest.raises(mvvm.TypeMismatchError):
        player.send("tapped", 3)
    with pytest.raises(mvvm.TypeMismatchError):
        counter.send("increment", "extra")
    with pytest.raises(mvvm.TypeMismatchError):
        lib.mvvm_get_bool(counter.handle, b"count", ctypes.byref(ctypes.c_bool()))  # get_bool on an int property
    assert counter.count == 0


def test_outputs_are_read_only(loop: mvvm.Loop) -> None:
    timer = catalog.CountDownTimer(loop, 5)
    with pytest.raises(mvvm.ReadOnlyError) as raised:
        timer.count = 3  # type: ignore[misc]
    assert isinstance(raised.value, AttributeError) and raised.value.message == "count_down_timer.count is read-only"
    with pytest.raises(AttributeError):
        timer.count = 3  # type: ignore[misc]
    with pytest.raises(mvvm.ReadOnlyError) as library:
        timer.set("count", 3)  # the library's own refusal
    assert library.value.function == "mvvm_set_int" and library.value.message
    with pytest.raises(mvvm.ReadOnlyError) as generic:
        timer.count = 3.5  # type: ignore[misc]  # the generic road: refused as read-only all the same
    assert generic.value.function == "mvvm_set"
    vm = catalog.TimerViewModel(loop, timer)
    with pytest.raises(AttributeError):
        vm.display = None  # type: ignore[assignment]
    with pytest.raises(AttributeError):
        vm.is_show_alret = True  # type: ignore[attr-defined]  # a typo is not silently a new attribute
    assert timer.count == 0


def test_unknown_names_raise_with_the_library_message(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    for use, function in ((lambda: counter.get("nope"), "mvvm_get"), (lambda: counter.set("nope", 1), "mvvm_set"),
                          (lambda: counter.send("nope"), "mvvm_send"), (lambda: counter.call("nope"), "mvvm_call_named"),
                          (lambda: counter.child("nope"), "mvvm_child"),
                          (lambda: counter.subscribe("nope", print), "mvvm_subscribe")):
        with pytest.raises(mvvm.UnknownNameError) as raised:
            use()
        assert raised.value.function == function
        assert "nope" in raised.value.message
        assert isinstance(raised.value, LookupError)


def test_strings_are_passed_whole_and_the_library_judges_them(loop: mvvm.Loop) -> None:
    vm = catalog.SignUpViewModel(loop)
    with pytest.raises(mvvm.InvalidArgumentError) as surrogate:
        vm.user_id = "ab\ud800cd"  # no UTF-8 for it: its bytes go, and the library refuses them
    assert isinstance(surrogate.value, ValueError)
    assert surrogate.value.function == "mvvm_set" and "not valid UTF-8" in surrogate.value.message
    vm.user_id = "ab\x00cd"  # a string holding NUL is given and read whole
    assert vm.user_id == "ab\x00cd" and vm.get("user_id") == "ab\x00cd"
    welcome = catalog.WelcomeViewModel(loop)
    for use in (lambda: welcome.tap_button("\udcff"), lambda: welcome.send("tap_button", "\udcff"),
                lambda: vm.get("\ud800"), lambda: vm.set("user_id", "\ud800"), lambda: vm.subscribe("\ud800", print),
                lambda: vm.send("sign_up\ud800")):
        with pytest.raises(mvvm.InvalidArgumentError) as raised:
            use()
        assert "UTF-8" in raised.value.message and raised.value.function is not None
    with pytest.raises(mvvm.InvalidArgumentError) as nul:
        vm.get("user\x00id")  # a name C cannot be given: the bindings' own refusal
    assert nul.value.function is None and "NUL" in nul.value.message
    assert vm.user_id == "ab\x00cd"


def test_invalid_utf8_from_c_is_an_error_not_a_crash(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    library = catalog
    with pytest.raises(mvvm.InternalError):
        decode(b"\xff\xfe", "a string")
    raw = ctypes.create_string_buffer(b"\xc3")
    value = Value(type=mvvm._abi.TYPE_STRING, integer=1, string=ctypes.addressof(raw))
    with pytest.raises(mvvm.InternalError):
        from_c(value, library)
    # An event with invalid UTF-8, through the real trampoline: reported, never raised into C.
    seen: List[Any] = []
    key = registry.add(Entry(lambda n, v: seen.append(v), "a forged event", library))
    name, bad, fine = (ctypes.create_string_buffer(text) for text in (b"name", b"\xff", "fine é".encode()))
    try:
        for string, length, kind in ((bad, 1, 4), (fine, len(fine.value), 4), (fine, 0, 99)):
            event = Event(kind=1, name=ctypes.addressof(name),
                          value=Value(type=kind, integer=length, string=ctypes.addressof(string)))
            EVENT_TRAMPOLINE(1, ctypes.addressof(event), key)
        EVENT_TRAMPOLINE(1, None, key)
    finally:
        registry.pop(key)
    assert seen == ["fine é"]
    assert [r.exc_type for r in unraisables.seen] == [mvvm.InternalError] * 3
    assert "unknown mvvm_type 99" in str(unraisables.seen[1].exc_value)
    assert "NULL event" in str(unraisables.seen[2].exc_value)


def test_errors_carry_status_and_names_as_the_library_does() -> None:
    lib.mvvm_status_name.restype  # declared once in the table
    for status in mvvm.Status:
        assert lib.mvvm_status_name(int(status)).decode() == "MVVM_" + status.name
        if status:
            error = mvvm._errors.error_for_status(int(status), "message", "mvvm_x")
            assert error.status == status and error.status_name == "MVVM_" + status.name
            assert str(error) == "mvvm_x: message [MVVM_%s]" % status.name
    assert type(mvvm._errors.error_for_status(99, "m")) is mvvm.MvvmError
    handle = ctypes.c_uint64()
    with pytest.raises(mvvm.InvalidHandleError) as forged:
        lib.mvvm_send(0x1234567, b"increment", None)
    assert forged.value.message and forged.value.function == "mvvm_send"
    with catalog.Loop.virtual() as loop:
        with pytest.raises(mvvm.WrongTypeError):
            lib.mvvm_send(loop.handle, b"increment", None)  # a loop is not a counter
        lib.mvvm_new(loop.handle, b"counter", None, 0, ctypes.byref(handle))
        lib.mvvm_release(handle.value)
        with pytest.raises(mvvm.InvalidHandleError):
            lib.mvvm_release(handle.value)  # stale


# ------------------------------------------------------------------------------------------------
# Copying and pickling (issue 16): a copy would share the C handle
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_objects_refuse_to_be_copied_or_pickled(how: str) -> None:
    import copy
    import pickle

    duplicate = {"copy": copy.copy, "deepcopy": copy.deepcopy,
                 "pickle": lambda obj: pickle.loads(pickle.dumps(obj))}[how]
    loop = catalog.Loop.virtual()
    counter = catalog.Counter(loop)
    vm = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 5))
    subscription = counter.subscribe("count", lambda n, v: None)
    for obj in (loop, counter, vm, vm.player, subscription):
        with pytest.raises(TypeError, match="cannot copy or pickle"):
            duplicate(obj)
    # Nothing was shared or closed by the attempts.
    counter.increment()
    assert counter.count == 1 and subscription.active and not loop.closed
    loop.close()


def test_a_request_refuses_to_be_pickled(loop: mvvm.Loop) -> None:
    import pickle

    requests: List[Any] = []
    vm = catalog.SignUpViewModel(loop, service=requests.append)
    vm.user_id, vm.password, vm.confirm_password, vm.agreed = "abcdef", "password1", "password1", True
    vm.sign_up_tapped()
    with pytest.raises(TypeError, match="cannot copy or pickle"):
        pickle.dumps(requests[0])
    requests[0].complete(True)
    assert vm.is_completion_alert_presented is True


def test_objects_of_a_closed_loop_are_closed_and_raise_a_closed_error() -> None:
    loop = catalog.Loop.virtual()
    counter = catalog.Counter(loop)
    assert not counter.closed
    loop.close()
    assert counter.closed                      # only close() works on it now
    with pytest.raises(mvvm.ClosedError):      # what a user catching ClosedError expects
        counter.increment()
    with pytest.raises(mvvm.LoopReleasedError):
        _ = counter.count
    assert issubclass(mvvm.LoopReleasedError, mvvm.ClosedError)
    counter.close()
    assert counter.closed
