"""The main loop (``catalog.Loop.main()``): on the main thread only, one at a time; attached to
asyncio, it runs main-queue work pushed from any thread and the loop's own timed work while
asyncio only waits on its fd."""

from __future__ import annotations

import asyncio
import ctypes
import threading
import time
from typing import Any, List

import pytest

import mvvm
import mvvm.aio
from conftest import errors_elsewhere
from libraries import catalog


def _libdispatch() -> ctypes.CDLL:
    """libdispatch, which libmvvm.so loaded: its C API pushes work to the main queue."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libdispatch.so" in line}
    assert paths, "libdispatch is not loaded"
    return ctypes.CDLL(sorted(paths)[0])


WORK = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def test_a_main_loop_is_made_and_run_on_the_main_thread_only() -> None:
    loop = catalog.Loop.main()
    try:
        assert loop.kind == mvvm.LoopKind.MAIN
        with pytest.raises(mvvm.InvalidArgumentError, match="already live"):
            catalog.Loop.main()
        errors = errors_elsewhere(catalog.Loop.main, loop.dispatch, lambda: loop.run_for(1))
        assert [type(error) for error in errors] == [mvvm.InvalidArgumentError, mvvm.WrongThreadError,
                                                     mvvm.WrongThreadError]
        assert "main thread" in str(errors[0])
    finally:
        loop.close()
    catalog.Loop.main().close()  # released, another may be made


def test_main_queue_work_from_another_thread_runs_under_asyncio() -> None:
    dispatch = _libdispatch()
    main_queue = ctypes.c_void_p.in_dll(dispatch, "_dispatch_main_q")
    ran_on: List[int] = []
    work = WORK(lambda _: ran_on.append(threading.get_ident()))

    def push() -> None:
        time.sleep(0.02)  # while asyncio already waits
        dispatch.dispatch_async_f(ctypes.byref(main_queue), None, work)

    async def main() -> int:
        loop = catalog.Loop.main()
        watch = catalog.StopWatchViewModel(loop)
        with mvvm.aio.attach(loop) as attachment:
            threading.Thread(target=push).start()
            watch.main_action()
            async with mvvm.aio.changes(watch, "time") as times:
                async for _, value in times:
                    if value >= "00:00:00.10" and ran_on:
                        break
            watch.main_action()
            dispatches = attachment.dispatches
        loop.close()
        return dispatches

    dispatches = asyncio.run(asyncio.wait_for(main(), 30))
    assert ran_on == [threading.get_ident()]
    assert dispatches >= 2
