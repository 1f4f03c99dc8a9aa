"""The classes made at run time from mvvm_classes: what they have, how constructors are chosen,
and mvvm_new's and mvvm_service_new's refusals as the package maps them."""

from __future__ import annotations

import ast
import ctypes
import gc
import inspect
import re
from pathlib import Path
from typing import Any, List

import pytest

import mvvm
from mvvm._abi import Value
from mvvm._description import raw_descriptions
from mvvm._members import Child, Property
from mvvm._registry import registry
from mvvm._trampolines import DESTROY_TRAMPOLINE, REQUEST_TRAMPOLINE
from mvvm_gen.pynames import camel
from conftest import Recorder
from libraries import catalog

#: The catalog's generic C functions.
lib = catalog.functions


def test_every_class_of_the_library_is_an_attribute_of_its_namespace() -> None:
    described = raw_descriptions(catalog)
    assert [c["class"] for c in described] == list(catalog.classes)
    for cls in described:
        python = catalog.classes[cls["class"]]
        assert getattr(catalog, camel(cls["class"])) is python
        assert python.__name__ in dir(catalog) and python.__name__ in catalog.names
        assert not hasattr(mvvm, python.__name__), "the package has no default library, so no class"
        assert python.c_class == cls["class"] and issubclass(python, mvvm.MvvmObject)
        assert cls["doc"] and python.__doc__.startswith(cls["doc"])
        for prop in cls["properties"]:
            descriptor = python.__dict__[prop["name"]]
            assert type(descriptor) is Property and descriptor.writable is (prop["access"] == "rw")
            assert descriptor.type_name == prop["type"]
            assert prop["doc"] in (descriptor.__doc__ or "")
        for command in cls["commands"]:
            method = python.__dict__[command["name"]]
            assert (method.__doc__ or "").startswith(command["doc"])
            assert [p for p in inspect.signature(method).parameters][1:] == [a["name"] for a in command["arguments"]]
        for child in cls["children"]:
            assert isinstance(python.__dict__[child], Child)
    from catalog import SignUpViewModel, WelcomeRequest  # the typed package's: the very classes
    assert (SignUpViewModel, WelcomeRequest) == (catalog.SignUpViewModel, catalog.WelcomeRequest)
    assert catalog.WelcomeViewModel.c_class == "welcome_view_model"  # named from the C name
    assert "(Swift: WelcomeScreen)" in catalog.WelcomeViewModel.__doc__


def test_constructors_by_position_and_name_the_library_choosing(loop: mvvm.Loop) -> None:
    assert catalog.CounterPageViewModel(loop).class_name == "counter_page_view_model"
    for page in (catalog.CounterPageViewModel(loop, 3), catalog.CounterPageViewModel(loop, seed=3)):
        page.second_counter.increment()
    a, b = catalog.CounterPageViewModel(loop, seed=3), catalog.CounterPageViewModel(loop, 3)
    a.second_counter.increment(), b.second_counter.increment()
    assert a.second_counter.count == b.second_counter.count
    catalog.RandomCounter(loop, 2**64 - 1)  # a uint64_t seed: given as MVVM_TYPE_UINT
    timer = catalog.CountDownTimer(loop, full_count=5)
    vm = catalog.TimerViewModel(loop, timer=timer)
    assert vm.timer is timer and vm.display.remaining_time == 5
    assert catalog.TimerViewModel(loop, timer).timer is timer  # by position too
    # None is a value ("no value"): the library says which constructor could take it.
    with pytest.raises(mvvm.InvalidArgumentError) as none:
        catalog.CounterPageViewModel(loop, seed=None)  # type: ignore[arg-type]
    assert none.value.message == ("argument 1 of counter_page_view_model (seed) is of type uint64, not optional: "
                                  "it cannot be null")
    with pytest.raises(mvvm.InvalidArgumentError) as count:
        catalog.CountDownTimer(loop)  # type: ignore[call-arg]
    assert count.value.message == "count_down_timer takes (full_count: int), not 0 arguments"
    with pytest.raises(mvvm.InvalidArgumentError):
        catalog.CountDownTimer(loop, 5, 6)  # type: ignore[call-arg]
    with pytest.raises(mvvm.InvalidArgumentError) as name:
        catalog.CountDownTimer(loop, count=5)  # type: ignore[call-arg]  # no constructor has that name
    assert name.value.message == "count_down_timer takes (full_count: int), not 1 argument (named count)"
    with pytest.raises(mvvm.InvalidArgumentError):
        catalog.CounterPageViewModel(loop, 1, seed=2)  # type: ignore[call-overload]
    with pytest.raises(mvvm.TypeMismatchError) as kind:
        catalog.CountDownTimer(loop, 5.0)  # type: ignore[arg-type]
    assert kind.value.function == "mvvm_new_named" and "(full_count) is of type int, not double" in kind.value.message
    with pytest.raises(mvvm.TypeMismatchError):
        catalog.CounterPageViewModel(loop, seed="1")  # type: ignore[call-overload]
    with pytest.raises(mvvm.InvalidArgumentError) as wide:
        catalog.RandomCounter(loop, 2**64)
    assert wide.value.function is None  # no 64-bit value: the bindings' own refusal
    with pytest.raises(mvvm.TypeMismatchError) as service:
        catalog.SignUpViewModel(loop, service=42)  # type: ignore[arg-type]
    assert service.value.message == "argument 1 of sign_up_view_model (service) is service, not int"


def test_commands_leave_their_arguments_to_the_library(loop: mvvm.Loop) -> None:
    player = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 3)).player
    with pytest.raises(mvvm.InvalidArgumentError) as value:
        player.tapped("jump")  # type: ignore[arg-type]
    assert value.value.function == "mvvm_call_named" and "start, pause, stop" in str(value.value)
    with pytest.raises(mvvm.TypeMismatchError):
        player.tapped(1)  # type: ignore[arg-type]
    with pytest.raises(mvvm.InvalidArgumentError):
        player.tapped()  # type: ignore[call-arg]
    with pytest.raises(mvvm.InvalidArgumentError) as unknown:
        player.tapped(button="start")  # type: ignore[call-arg]
    assert "no argument named \"button\"" in unknown.value.message
    player.tapped(argument="start")  # by name
    welcome = catalog.WelcomeViewModel(loop)
    seen: List[str] = []
    welcome.subscribe("on_show_text", lambda name, text: seen.append(text))
    welcome.tap_button("a\x00b")  # a string holding NUL is passed whole
    assert seen == ["a\x00b show!!"]


# ------------------------------------------------------------------------------------------------
# mvvm_new through mvvm.new: the library chooses or refuses
# ------------------------------------------------------------------------------------------------


def test_new_makes_the_class_of_its_name(loop: mvvm.Loop) -> None:
    timer = mvvm.new(loop, "count_down_timer", 4)
    assert type(timer) is catalog.CountDownTimer and timer.full_count == 4
    vm = mvvm.new(loop, "timer_view_model", timer)
    assert type(vm) is catalog.TimerViewModel and vm.display.remaining_time == 4
    page = mvvm.new(loop, "counter_page_view_model", 3)
    assert type(page) is catalog.CounterPageViewModel


def test_new_refusals_map_to_the_statuses(loop: mvvm.Loop) -> None:
    with pytest.raises(mvvm.UnknownNameError) as unknown:
        mvvm.new(loop, "no_such_class")
    assert unknown.value.function == "mvvm_new_named" and "no_such_class" in unknown.value.message
    with pytest.raises(mvvm.InvalidArgumentError) as count:
        mvvm.new(loop, "count_down_timer")
    assert count.value.function == "mvvm_new_named" and count.value.status == mvvm.Status.ERR_INVALID_ARGUMENT
    with pytest.raises(mvvm.InvalidArgumentError):
        mvvm.new(loop, "counter", 1)
    with pytest.raises(mvvm.InvalidArgumentError):
        mvvm.new(loop, "display_view_model")  # a child: no constructor
    with pytest.raises(mvvm.TypeMismatchError) as kind:
        mvvm.new(loop, "count_down_timer", "5")
    assert kind.value.function == "mvvm_new_named" and "full_count" in kind.value.message
    with pytest.raises(mvvm.TypeMismatchError):
        mvvm.new(loop, "count_down_timer", 5.0)
    with pytest.raises(mvvm.InvalidArgumentError):
        mvvm.new(loop, "count_down_timer", 0)  # out of range: the library's check
    with pytest.raises(mvvm.WrongTypeError) as wrong:
        mvvm.new(loop, "timer_view_model", catalog.Counter(loop))
    assert wrong.value.function == "mvvm_new_named"
    with catalog.Loop.virtual() as other:
        elsewhere = catalog.CountDownTimer(other, 3)
        with pytest.raises(mvvm.InvalidArgumentError) as loops:
            mvvm.new(loop, "timer_view_model", elsewhere)
        assert loops.value.function == "mvvm_new_named"
        with pytest.raises(mvvm.InvalidArgumentError):
            catalog.TimerViewModel(loop, elsewhere)
    with pytest.raises(TypeError):
        mvvm.new("not a loop", "counter")  # type: ignore[arg-type]
    with pytest.raises(mvvm.TypeMismatchError):
        mvvm.new(loop, "counter", object())
    assert len(registry) == 0


def test_service_misuse_is_refused(loop: mvvm.Loop) -> None:
    service = catalog.Service(lambda request: request.complete(True))
    with pytest.raises(mvvm.WrongTypeError):
        mvvm.new(loop, "timer_view_model", service)  # a service is no model
    with pytest.raises(mvvm.WrongTypeError):
        catalog.TimerViewModel(loop, service)  # type: ignore[arg-type]
    with pytest.raises(mvvm.WrongTypeError):
        catalog.SignUpViewModel(loop, service=catalog.Counter(loop))  # a model is no service
    with pytest.raises(mvvm.TypeMismatchError):
        mvvm.new(loop, "sign_up_view_model", True)  # a value is no service
    handle = service.handle
    service.close()
    service.close()
    with pytest.raises(mvvm.ClosedError):
        catalog.SignUpViewModel(loop, service=service)
    # The released handle itself, past the bindings: the library's refusal.
    argument = Value()
    argument.type, argument.object = 5, handle
    out = ctypes.c_uint64()
    with pytest.raises(mvvm.InvalidHandleError) as stale:
        lib.mvvm_new(loop.handle, b"sign_up_view_model", ctypes.byref(argument), 1, ctypes.byref(out))
    assert stale.value.function == "mvvm_new"
    argument.object = loop.handle  # a loop is no service
    with pytest.raises(mvvm.WrongTypeError):
        lib.mvvm_new(loop.handle, b"sign_up_view_model", ctypes.byref(argument), 1, ctypes.byref(out))
    with pytest.raises(mvvm.NullPointerError):
        lib.mvvm_service_new(REQUEST_TRAMPOLINE, None, DESTROY_TRAMPOLINE, None)
    assert len(registry) == 0  # the refused constructors released what they were given
    with pytest.raises(TypeError):
        catalog.Service(42)  # type: ignore[arg-type]


def fill(vm: Any) -> None:
    vm.user_id, vm.password, vm.confirm_password, vm.agreed = "abcdef", "password1", "password1", True


def test_one_service_serves_several_view_models_and_lives_until_all_are_closed(loop: mvvm.Loop) -> None:
    asked: List[Any] = []
    ended: List[bool] = []
    service = catalog.Service(asked.append)
    service._entry.on_end = lambda: ended.append(True)
    first, second = catalog.SignUpViewModel(loop, service), catalog.SignUpViewModel(loop, service=service)
    for vm in (first, second):
        fill(vm)
        vm.sign_up_tapped()
    assert [type(r) for r in asked] == [catalog.SignUpRequest] * 2
    assert [r.view_model for r in asked] == [first, second]
    assert asked[1].state["user_id"] == asked[1].user_id == "abcdef"
    asked[1].complete(True)
    assert second.is_completion_alert_presented and not first.is_completion_alert_presented
    service.close()
    first.sign_up_tapped()  # the view models keep it
    assert len(asked) == 3 and not ended
    first.close()
    assert not ended
    second.close()
    gc.collect()
    assert ended == [True] and len(registry) == 0
    with pytest.raises(AttributeError):
        asked[0].no_such_property


def test_a_request_carries_the_state_when_it_was_asked(loop: mvvm.Loop, recorder: Recorder) -> None:
    asked: List[Any] = []
    vm = catalog.SignUpViewModel(loop, service=asked.append)
    fill(vm)
    vm.sign_up_tapped()
    vm.password = "changed!!"
    request = asked[0]
    assert isinstance(request, mvvm.ServiceRequest) and isinstance(request, mvvm.Request)
    assert request.password == "password1" and request.argument == "abcdef" and request.view_model is vm
    assert catalog.SignUpRequest.result_type == "bool" and catalog.WelcomeRequest.result_type == "string"
    request.complete(True)


def test_the_typed_packages_stubs_name_the_classes_made() -> None:
    """examples/catalog/python/catalog (generated): its __init__.pyi declares what its __init__.py
    gives, which is the library's namespace and its own Loop, Service and library."""
    import catalog as typed

    stubs = Path(typed.__file__).with_name("__init__.pyi").read_text()
    declared = ast.literal_eval(re.search(r"^__all__: List\[str\] = (\[.*\])$", stubs, re.M).group(1))  # type: ignore[union-attr]
    assert declared == list(typed.__all__) == ["Loop", "Service", "library"] + catalog.names
    for name in catalog.names:
        assert "\nclass %s(" % name in stubs and getattr(typed, name) is getattr(catalog, name)
    assert typed.library is catalog and typed.Loop is catalog.Loop and typed.Service is catalog.Service
