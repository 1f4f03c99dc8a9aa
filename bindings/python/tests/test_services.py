"""Host services from Python: the sign-up service and the welcome API answered at once, later,
from another thread, and from asyncio; wrong answers, double answers, cancelled requests."""

from __future__ import annotations

import asyncio
import ctypes
import gc
import threading
import weakref
from typing import Any, List, Optional

import pytest

import mvvm
import mvvm.aio
from mvvm._registry import registry
from conftest import Recorder, Unraisables
from libraries import catalog

#: The default library's generic C functions.
lib = catalog.functions


class Service:
    """Records its requests; answers at once with ``answer`` when it is not None."""

    def __init__(self, answer: Any = None) -> None:
        self.requests: List[Any] = []
        self.answer = answer
        self.threads: List[int] = []

    def __call__(self, request: Any) -> None:
        self.requests.append(request)
        self.threads.append(threading.get_ident())
        if self.answer is not None:
            request.complete(self.answer)


def filled_form(loop: mvvm.Loop, service: Any) -> catalog.SignUpViewModel:
    vm = catalog.SignUpViewModel(loop, service=service)
    vm.user_id, vm.password, vm.confirm_password, vm.agreed = "abcdef", "password1", "password1", True
    return vm


def is_released(handle: int) -> bool:
    name = ctypes.c_char_p()
    try:
        lib.mvvm_class_name(handle, ctypes.byref(name))
    except mvvm.InvalidHandleError:
        return True
    return False


def test_sign_up_with_a_host_service(loop: mvvm.Loop, recorder: Recorder) -> None:
    service = Service()
    vm = filled_form(loop, service)
    vm.subscribe("is_completion_alert_presented", recorder)
    assert service.requests == []
    vm.sign_up_tapped()
    assert len(service.requests) == 1
    request = service.requests[0]
    assert isinstance(request, catalog.SignUpRequest)
    assert (request.user_id, request.password, request.argument) == ("abcdef", "password1", "abcdef")
    assert request.view_model is vm
    assert not request.done
    assert vm.is_completion_alert_presented is False  # not answered yet
    loop.advance(1000)
    assert vm.is_completion_alert_presented is False

    request.complete(True)
    assert request.done
    assert vm.is_completion_alert_presented is True
    assert recorder.events == [("is_completion_alert_presented", True)]
    with pytest.raises(mvvm.UnknownRequestError) as twice:
        request.complete(True)
    assert twice.value.message and twice.value.function == "mvvm_complete"

    vm.is_completion_alert_presented = False
    vm.sign_up_tapped()
    second = service.requests[1]
    with pytest.raises(mvvm.TypeMismatchError):
        second.complete(1)  # the request stays open
    with pytest.raises(mvvm.TypeMismatchError):
        second.complete("yes")
    assert not second.done
    second.complete(False)  # a failed sign-up
    assert vm.is_completion_alert_presented is False
    with pytest.raises(mvvm.UnknownRequestError):
        second.complete(True)
    assert vm.is_completion_alert_presented is False

    vm.agreed = False  # disabled: no request
    vm.sign_up_tapped()
    assert len(service.requests) == 2

    vm.agreed = True  # a service may answer inside the call
    service.answer = True
    vm.sign_up_tapped()
    assert len(service.requests) == 3 and service.requests[2].done
    assert vm.is_completion_alert_presented is True


def test_the_service_lives_until_the_view_model_is_released(loop: mvvm.Loop) -> None:
    calls: List[str] = []
    vm = filled_form(loop, lambda request: (calls.append(request.user_id), request.complete(True)))
    gc.collect()
    vm.sign_up_tapped()
    assert calls == ["abcdef"]
    assert len(registry) == 1
    vm.close()
    assert len(registry) == 0


def test_a_released_request_or_view_model_makes_the_answer_unknown(loop: mvvm.Loop) -> None:
    service = Service()
    vm = filled_form(loop, service)
    vm.sign_up_tapped()
    service.requests[0].cancel()
    service.requests[0].cancel()
    with pytest.raises(mvvm.UnknownRequestError):
        service.requests[0].complete(True)
    assert vm.is_completion_alert_presented is False
    vm.sign_up_tapped()
    pending = service.requests[1]
    vm.close()
    with pytest.raises(mvvm.UnknownRequestError):
        pending.complete(True)


def test_a_request_completed_from_another_thread(loop: mvvm.Loop, recorder: Recorder) -> None:
    service = Service()
    vm = filled_form(loop, service)
    vm.subscribe("is_completion_alert_presented", recorder)
    vm.sign_up_tapped()
    result: dict = {}

    def answer() -> None:
        result["thread"] = threading.get_ident()
        service.requests[0].complete(True)
        result["presented"] = vm.is_completion_alert_presented

    worker = threading.Thread(target=answer)
    worker.start()
    worker.join(10)
    assert result["presented"] is True
    assert recorder.events == [("is_completion_alert_presented", True)]
    assert recorder.threads == [result["thread"]] != [threading.get_ident()]  # notified on the completing thread


def test_a_request_nobody_keeps_is_cancelled(loop: mvvm.Loop) -> None:
    handles: List[int] = []
    vm = filled_form(loop, lambda request: handles.append(request.handle))  # never answered, not kept
    vm.sign_up_tapped()
    gc.collect()
    mvvm.release_pending()
    assert is_released(handles[0])
    vm.sign_up_tapped()  # the view model goes on
    assert len(handles) == 2


def failing_service(request: Any) -> None:
    raise RuntimeError("the service failed")


def test_a_service_that_raises_is_reported(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    vm = filled_form(loop, failing_service)
    vm.sign_up_tapped()
    vm.sign_up_tapped()
    assert len(unraisables.seen) == 2
    assert unraisables.seen[0].object is failing_service
    assert "failing_service" in unraisables.seen[0].err_msg
    assert vm.is_completion_alert_presented is False


def test_welcome_with_a_host_api(loop: mvvm.Loop, recorder: Recorder) -> None:
    api = Service()
    vm = catalog.WelcomeViewModel(loop, api=api)
    vm.subscribe("on_show_welcome", recorder)
    vm.view_did_load()
    assert len(api.requests) == 1
    request = api.requests[0]
    assert isinstance(request, catalog.WelcomeRequest)
    assert request.argument is None and request.view_model is vm
    loop.advance(0)
    assert recorder.events == []  # not answered yet
    with pytest.raises(mvvm.TypeMismatchError):
        request.complete(True)
    request.complete("Hi")
    assert recorder.values() == ["Hi"]
    with pytest.raises(mvvm.UnknownRequestError):
        request.complete("Hi")
    vm.view_did_load()  # every load asks again
    api.requests[1].complete("Hello again")
    assert recorder.values() == ["Hi", "Hello again"]
    api.answer = "At once"
    vm.view_did_load()
    assert recorder.values() == ["Hi", "Hello again", "At once"]
    with pytest.raises(mvvm.UnknownRequestError):
        api.requests[0].complete("\ud800")  # answered already
    api.answer = None
    vm.view_did_load()
    with pytest.raises(mvvm.InvalidArgumentError) as invalid:
        api.requests[-1].complete("\ud800")  # not UTF-8: the library's refusal
    assert invalid.value.function == "mvvm_complete" and "UTF-8" in invalid.value.message
    api.requests[-1].complete("Still open")
    assert recorder.values()[-1] == "Still open"


def test_services_answered_from_asyncio() -> None:
    async def main() -> None:
        aloop = asyncio.get_running_loop()
        loop = catalog.Loop.manual()
        with mvvm.aio.attach(loop):
            # The services return nothing: what a service returns is its answer.
            def sign_up_service(request: Any) -> None:
                aloop.call_later(0.01, request.complete, True)

            def welcome_api(request: Any) -> None:
                aloop.call_soon(request.complete, "From asyncio")

            sign_up = filled_form(loop, sign_up_service)
            welcome = catalog.WelcomeViewModel(loop, api=welcome_api)
            async with mvvm.aio.changes(sign_up, "is_completion_alert_presented") as alerts, \
                    mvvm.aio.changes(welcome, "on_show_welcome") as welcomes:
                sign_up.sign_up_tapped()
                welcome.view_did_load()
                assert await asyncio.wait_for(alerts.__anext__(), 10) == ("is_completion_alert_presented", True)
                assert await asyncio.wait_for(welcomes.__anext__(), 10) == ("on_show_welcome", "From asyncio")
            # The built-in API answers on the next dispatch, which asyncio runs.
            builtin = catalog.WelcomeViewModel(loop)
            async with mvvm.aio.changes(builtin, "on_show_welcome") as builtin_welcomes:
                builtin.view_did_load()
                assert await asyncio.wait_for(builtin_welcomes.__anext__(), 10) == ("on_show_welcome", "Welcome!")
        loop.close()

    asyncio.run(main())


def test_complete_soon_from_a_worker_applies_the_answer_on_the_loop(loop: mvvm.Loop, recorder: Recorder) -> None:
    service = Service()
    vm = filled_form(loop, service)
    vm.subscribe("is_completion_alert_presented", recorder)
    vm.sign_up_tapped()
    request = service.requests[0]
    with pytest.raises(mvvm.TypeMismatchError):
        request.complete_soon("yes")
    assert not request.done, "a wrong answer leaves the request open"
    worker = threading.Thread(target=request.complete_soon, args=(True,))
    worker.start()
    worker.join(10)
    assert request.done and recorder.events == [], "nothing changes on the worker"
    with pytest.raises(mvvm.UnknownRequestError):
        request.complete(False)
    loop.advance(0)
    assert vm.is_completion_alert_presented is True
    assert recorder.events == [("is_completion_alert_presented", True)]
    assert recorder.threads == [threading.get_ident()], "notified on the thread that ran the loop"


def test_complete_soon_on_a_thread_loop_notifies_on_its_thread() -> None:
    with catalog.Loop.thread() as loop:
        heard = threading.Event()
        threads: List[int] = []

        def on_alert(name: str, value: Any) -> None:
            threads.append(threading.get_ident())
            heard.set()

        requests: List[Any] = []
        vm = filled_form(loop, requests.append)
        vm.subscribe("is_completion_alert_presented", on_alert)
        vm.sign_up_tapped()
        requests[0].complete_soon(True)
        assert heard.wait(10)
        assert threads and threads[0] != threading.get_ident()
        assert vm.is_completion_alert_presented is True


def test_a_service_of_a_thread_loop_answered_later_from_a_thread() -> None:
    with catalog.Loop.thread() as loop:
        done = threading.Event()
        vm = filled_form(loop, lambda request: threading.Timer(0.01, request.complete, [True]).start())
        vm.subscribe("is_completion_alert_presented", lambda n, v: done.set())
        vm.sign_up_tapped()
        assert done.wait(10)
        assert vm.is_completion_alert_presented is True


def test_the_service_callable_is_freed_after_the_view_model(loop: mvvm.Loop) -> None:
    class Api:
        def __call__(self, request: Any) -> None:
            request.complete("x")

    api: Optional[Api] = Api()
    alive = weakref.ref(api)
    vm = catalog.WelcomeViewModel(loop, api=api)  # type: ignore[arg-type]
    api = None
    gc.collect()
    assert alive() is not None
    vm.close()
    gc.collect()
    assert alive() is None


def test_answering_after_the_loop_is_closed_is_an_error_not_a_crash() -> None:
    service = Service()
    loop = catalog.Loop.virtual()
    vm = filled_form(loop, service)
    vm.sign_up_tapped()
    loop.close()
    with pytest.raises((mvvm.UnknownRequestError, mvvm.LoopReleasedError)):
        service.requests[0].complete(True)
    vm.close()
