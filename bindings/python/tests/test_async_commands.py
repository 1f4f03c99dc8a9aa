"""Async commands (``asyncCommand``: a Swift ``async`` function) from Python, with Tests/outside's
libsample.so: Profile.load(count) adds a tag a second of the loop's time and gives the tags (it
throws for a negative count), Profile.ping() gives the number of saves without suspending.

The method starts the call (``mvvm_call_async``) and returns an ``mvvm.AsyncCall``, a
``concurrent.futures.Future`` that ``await`` takes: on a virtual loop it ends exactly when an
advance reaches its end; a throwing command ends it with CommandError; cancel(), closing the
object and closing the loop end it with CallCancelledError, each call once; with the loop
attached to asyncio it is awaited.

Skipped only when MVVM_SAMPLE_LIBRARY is not set; run_tests.sh sets it when libsample.so is built."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import os
import threading
from typing import Any, Iterator, List, Optional, Tuple

import pytest

import mvvm
import mvvm.aio
from mvvm._registry import registry

SAMPLE = os.environ.get("MVVM_SAMPLE_LIBRARY")
pytestmark = pytest.mark.skipif(not SAMPLE, reason="MVVM_SAMPLE_LIBRARY is not set (build Tests/outside: libsample.so)")


@pytest.fixture(scope="module")
def sample() -> mvvm.Library:
    assert SAMPLE is not None
    return mvvm.load(SAMPLE)


@pytest.fixture
def loop(sample: mvvm.Library) -> Iterator[mvvm.Loop]:
    with sample.Loop.virtual() as virtual:
        yield virtual


class Ends:
    """A done callback recording, for each end, the call and the loop's time then (None when
    the loop is being closed)."""

    def __init__(self, loop: mvvm.Loop) -> None:
        self.loop = loop
        self.seen: List[Tuple["mvvm.AsyncCall[Any]", Optional[int]]] = []

    def __call__(self, call: "concurrent.futures.Future[Any]") -> None:
        assert isinstance(call, mvvm.AsyncCall)
        self.seen.append((call, None if self.loop.closed else self.loop.now()))


def test_an_async_command_ends_exactly_when_the_virtual_time_reaches_its_end(sample: mvvm.Library,
                                                                            loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    tags: List[List[str]] = []
    profile.subscribe("tags", lambda name, value: tags.append(value))
    ends = Ends(loop)
    keys = len(registry)
    call = profile.load(3)
    assert isinstance(call, mvvm.AsyncCall) and isinstance(call, concurrent.futures.Future)
    call.add_done_callback(ends)
    tags_at_end: List[int] = []
    call.add_done_callback(lambda done: tags_at_end.append(len(profile.tags)))
    assert call.running() and not call.done() and len(registry) == keys + 1
    assert "running" in repr(call) and "Profile.load" in repr(call)
    loop.advance(999)
    assert tags == [] and not call.done()
    loop.advance(1)
    assert tags == [["t0"]] and not call.done()
    loop.advance(1999)
    assert tags == [["t0"], ["t0", "t1"]] and not call.done()
    loop.advance(1)  # 3000 ms: its last change notified first, then its end, once
    assert tags[-1] == ["t0", "t1", "t2"] and tags_at_end == [3]
    assert call.done() and call.result() == ["t0", "t1", "t2"] and call.exception() is None
    assert [(seen, at) for seen, at in ends.seen] == [(call, 3000)] and loop.now() == 3000
    assert len(registry) == keys  # its destroy function ran: nothing of it is held
    assert not call.cancel() and not call.cancelled()  # ended: nothing to cancel
    loop.advance(5000)
    assert len(ends.seen) == 1 and "returned ['t0', 't1', 't2']" in repr(call)


def test_a_command_that_does_not_suspend_ends_before_its_method_returns(sample: mvvm.Library,
                                                                       loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    pinged = profile.ping()
    assert pinged.done() and pinged.result() == 0
    empty = profile.load(count=0)  # by keyword, as a plain command
    assert empty.done() and empty.result() == []
    with pytest.raises(mvvm.CommandError):
        profile.move_tag(0, 1)  # a plain command counts a save
    assert profile.ping().result() == 1 and mvvm.get(profile, "saves") == 1


def test_a_throwing_async_command_ends_with_command_error(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    failing = profile.load(-1)
    assert failing.done() and not failing.cancelled()
    error = failing.exception()
    assert isinstance(error, mvvm.CommandError) and error.status == mvvm.Status.ERR_COMMAND_FAILED
    assert error.message == "profile.load failed: cannot load -1 tags" and error.function == "mvvm_call_async"
    with pytest.raises(mvvm.CommandError, match="cannot load -1 tags"):
        failing.result()
    assert "raised CommandError" in repr(failing)


def test_a_call_that_cannot_start_raises_at_once(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    keys = len(registry)
    with pytest.raises(mvvm.TypeMismatchError) as wrong:
        profile.load("3")  # the library's judgement and message, as for a plain command
    assert wrong.value.function == "mvvm_call_async" and "count" in wrong.value.message
    with pytest.raises(mvvm.InvalidArgumentError):
        profile.load()  # count missing
    with pytest.raises(mvvm.InvalidArgumentError):
        profile.load(1, counts=2)  # no argument counts
    with pytest.raises(mvvm.InvalidArgumentError) as synchronous:
        mvvm.call(profile, "load", 1)  # the library refuses a synchronous call of an async command
    assert "mvvm_call_async" in synchronous.value.message
    assert len(registry) == keys and profile.tags == []  # nothing started, nothing held
    mvvm.close(profile)
    with pytest.raises(mvvm.ClosedError):
        profile.load(1)
    assert len(registry) == keys


def test_the_method_says_what_it_is(sample: mvvm.Library) -> None:
    method = sample.Profile.load
    assert str(inspect.signature(method)) == "(self, count)"
    doc = method.__doc__ or ""
    assert "mvvm.AsyncCall" in doc and "list of str" in doc and "CommandError" in doc
    assert mvvm.AsyncCall.__module__ == "mvvm._calls" and "AsyncCall" in mvvm.__all__


def test_cancel_ends_the_call_now_with_call_cancelled_error(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    ends = Ends(loop)
    call = profile.load(5)
    call.add_done_callback(ends)
    loop.advance(1000)
    assert profile.tags == ["t0"]
    assert call.cancel() is True  # the completion runs now, on this thread
    assert [(seen, at) for seen, at in ends.seen] == [(call, 1000)]
    error = call.exception()
    assert isinstance(error, mvvm.CallCancelledError) and error.status == mvvm.Status.ERR_CANCELLED
    assert "profile.load was cancelled" in error.message and error.function == "mvvm_call_async"
    assert not call.cancelled()  # ended, with that error: result() raises it
    with pytest.raises(mvvm.CallCancelledError):
        call.result()
    assert call.cancel() is False and "cancelled" in repr(call)
    loop.advance(10000)  # its task was cancelled: no more tags, no second end
    assert profile.tags == ["t0"] and len(ends.seen) == 1


def test_closing_the_object_or_the_loop_cancels_what_is_outstanding(sample: mvvm.Library) -> None:
    loop = sample.Loop.virtual()
    profile, other = sample.Profile(loop), sample.Profile(loop)
    ends = Ends(loop)
    first, second, third = profile.load(5), profile.load(5), other.load(5)
    for call in (first, second, third):
        call.add_done_callback(ends)
    loop.advance(1500)
    mvvm.close(profile)
    assert [seen for seen, _ in ends.seen] == [first, second] or [seen for seen, _ in ends.seen] == [second, first]
    for call in (first, second):
        error = call.exception()
        assert isinstance(error, mvvm.CallCancelledError) and "its object was released" in error.message
    assert not third.done()
    mvvm.close(loop)
    assert third.done() and isinstance(third.exception(), mvvm.CallCancelledError)
    assert len(ends.seen) == 3 and ends.seen[2] == (third, None)
    assert not third.cancel()


def test_a_running_call_keeps_its_object_alive(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    """A call whose object is dropped runs on: it holds its object until it ends."""
    call = sample.Profile(loop).load(2)
    import gc

    gc.collect()
    mvvm.release_pending()
    loop.advance(2000)
    assert call.result() == ["t0", "t1"]


def test_a_call_on_a_thread_loop_ends_on_the_loop_thread(sample: mvvm.Library) -> None:
    with sample.Loop.thread() as loop:
        profile = sample.Profile(loop)
        threads: List[int] = []
        call = profile.load(1)
        call.add_done_callback(lambda done: threads.append(threading.get_ident()))
        assert call.result(timeout=30) == ["t0"]
        assert threads and threads[0] != threading.get_ident()


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


def test_an_async_command_is_awaited_from_asyncio(sample: mvvm.Library) -> None:
    async def main() -> Tuple[List[str], int, List[str]]:
        with sample.Loop.manual() as loop, mvvm.aio.attach(loop):
            profile = sample.Profile(loop)
            changes: List[List[str]] = []
            profile.subscribe("tags", lambda name, value: changes.append(value))
            loaded: List[str] = await profile.load(1)  # a second of the loop's (real) time
            pinged: int = await profile.ping()  # ended already: awaited at once
            with pytest.raises(mvvm.CommandError, match="cannot load -2 tags"):
                await profile.load(-2)
            return loaded, pinged, changes[-1]

    assert run(main()) == (["t0"], 0, ["t0"])


def test_an_awaited_call_is_cancelled_with_its_task_or_its_loop(sample: mvvm.Library) -> None:
    async def main() -> None:
        with sample.Loop.manual() as loop, mvvm.aio.attach(loop):
            profile = sample.Profile(loop)
            call = profile.load(5)

            async def wait() -> List[str]:
                return await call

            task = asyncio.ensure_future(wait())
            await asyncio.sleep(0.05)
            task.cancel()  # cancelling the task cancels the call
            with pytest.raises(asyncio.CancelledError):
                await task
            assert isinstance(call.exception(), mvvm.CallCancelledError)
            later = profile.load(5)
            awaited = asyncio.ensure_future(wait_for(later))
            await asyncio.sleep(0.05)
            assert profile.tags == [] and not later.done()
        # the loop closed (leaving with): the outstanding call ends, and its await raises
        assert isinstance(later.exception(), mvvm.CallCancelledError)
        with pytest.raises(mvvm.CallCancelledError):
            await awaited

    async def wait_for(call: "mvvm.AsyncCall[List[str]]") -> List[str]:
        return await call

    run(main())


def test_an_async_command_is_awaited_on_a_virtual_loop_advanced_by_the_test(sample: mvvm.Library,
                                                                           loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)

    async def main() -> List[str]:
        call = profile.load(2)
        loop.advance(2000)  # exactly its end: done, inside the advance
        assert call.done()
        return await call

    assert run(main()) == ["t0", "t1"]


def test_cancel_is_true_only_when_it_decided_the_outcome(sample: mvvm.Library) -> None:
    """Issue 38, item 3: cancel() racing the call's end on a thread loop's thread (its request
    answered with complete_soon, applied there). True: the call ends with CallCancelledError;
    False: it ended first, with the command's result."""
    wrong: List[str] = []
    with sample.Loop.thread() as loop:
        finder = sample.Finder(loop, service=lambda request: request.complete_soon("found"))
        for _ in range(10_000):
            call = finder.find()
            cancelled = call.cancel()
            error = call.exception()  # waits for an end on the loop's thread
            if cancelled and not isinstance(error, mvvm.CallCancelledError):
                wrong.append("cancel() True, but the call ended with %r" % (call,))
            elif not cancelled and (error is not None or call.result() != "found"):
                wrong.append("cancel() False, but the call ended with %r" % (call,))
        finder.close()
    assert wrong == []


def test_a_call_cancelled_from_its_own_request_tells_its_task(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    """Issue 38, item 4: the service of the request the call's own task made cancels the call:
    the request is withdrawn (a late answer is UnknownRequestError), the task sees its
    cancellation (is_finding false again, found unchanged)."""
    calls: List["mvvm.AsyncCall[Any]"] = []
    requests: List[Any] = []
    cancelled: List[bool] = []

    def service(request: Any) -> None:
        requests.append(request)
        cancelled.append(calls[0].cancel())

    finder = sample.Finder(loop, service=service)
    finder.query, finder.delay = "dune", 10  # asks in the advance, from the loop's work
    calls.append(finder.find())
    assert finder.is_finding is True
    loop.advance(10)
    assert len(requests) == 1 and cancelled == [True]
    assert isinstance(calls[0].exception(), mvvm.CallCancelledError)
    assert finder.is_finding is False and finder.cancellations == 1
    with pytest.raises(mvvm.UnknownRequestError):
        requests[0].complete("too late")
    loop.advance(1000)
    assert finder.found == "" and finder.is_finding is False
    finder.close()
