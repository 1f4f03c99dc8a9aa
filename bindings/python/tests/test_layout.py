"""The package's layout (issue 18, item 6): the runtime split by concern, and one owner base
for every class that owns a handle (close, finalizer, context manager, ``_as_parameter_``)."""

from __future__ import annotations

import ctypes
import gc
import importlib
import json
from pathlib import Path
from typing import Any, List

import pytest

import mvvm
from mvvm import _core
from mvvm._lib import lib
from mvvm._owner import Owner

PACKAGE = Path(mvvm.__file__).resolve().parent


def test_the_runtime_is_split_by_concern() -> None:
    for module, names in {
        "mvvm._values": ["Scalar", "_encode", "_decode", "_value_to_c", "_value_from_c", "_checked"],
        "mvvm._callbacks": ["registry", "in_callback", "release_pending", "_EVENT_TRAMPOLINE", "_report"],
        "mvvm._owner": ["Owner"],
        "mvvm._loop": ["Loop", "LoopKind"],
        "mvvm._object": ["MvvmObject", "Subscription", "Output", "Binding", "Child"],
        "mvvm._requests": ["Request", "ServiceRequest", "Service"],
    }.items():
        loaded = importlib.import_module(module)
        for name in names:
            assert hasattr(loaded, name), (module, name)
    # _core only re-exports (old names keep working); no module is a grab bag again.
    assert _core.registry is importlib.import_module("mvvm._callbacks").registry
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text().splitlines()) < 700, path.name


def test_every_handle_owning_class_derives_from_the_owner_base() -> None:
    for cls in (mvvm.Loop, mvvm.MvvmObject, mvvm.Service, mvvm.Request, mvvm.Subscription,
                mvvm.SignUpViewModel, mvvm.SignUpRequest):
        assert issubclass(cls, Owner), cls
        for member in ("close", "__enter__", "__exit__", "_as_parameter_", "handle", "closed"):
            assert hasattr(cls, member), (cls, member)


def test_an_owner_is_a_ctypes_argument_for_its_handle() -> None:
    with mvvm.Loop.virtual() as loop, mvvm.Counter(loop) as counter:
        counter.increment()
        out = ctypes.c_void_p()
        lib.mvvm_snapshot(counter, ctypes.byref(out))  # the object itself, not counter.handle
        assert json.loads(_core._take_string(out, "snapshot")) == {"count": 1}
        lib.mvvm_loop_advance(loop, 5)
        assert loop.now() == 5
    with pytest.raises(ctypes.ArgumentError, match="ClosedError"):  # ctypes wraps it
        lib.mvvm_loop_advance(loop, 5)


def test_close_is_idempotent_and_with_closes_for_every_owner() -> None:
    requests: List[Any] = []
    with mvvm.Loop.virtual() as loop:
        with mvvm.Service(requests.append) as service:
            vm = mvvm.WelcomeViewModel(loop, api=service)
            with vm.subscribe("on_show_welcome", lambda name, value: None) as sub:
                vm.view_did_load()
                assert sub.active and not sub.closed
            assert sub.closed and not sub.active
            sub.close()
            (request,) = requests
            with request:
                assert not request.closed
            assert request.closed and request.done  # leaving with cancels it
            request.close()
        assert service.closed
        service.close()
        vm.close()
        vm.close()
        assert vm.closed
    assert loop.closed
    loop.close()


def test_the_finalizer_of_the_base_releases_a_dropped_owner() -> None:
    with mvvm.Loop.virtual() as loop:
        counter = mvvm.Counter(loop)
        handle = counter.handle
        del counter
        gc.collect()
        with pytest.raises(mvvm.InvalidHandleError):
            lib.mvvm_snapshot(handle, ctypes.byref(ctypes.c_void_p()))
