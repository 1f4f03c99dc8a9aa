"""asyncio: a manual loop attached through its fd, in real time; async iteration over changes."""

from __future__ import annotations

import asyncio
import gc
import threading
from typing import Any, List, Tuple

import pytest

import mvvm
import mvvm.aio
from mvvm._registry import registry
from libraries import catalog


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 30))


def test_a_stopwatch_ticks_in_real_time_under_asyncio() -> None:
    async def main() -> Tuple[List[str], str, int]:
        loop = catalog.Loop.manual()
        watch = catalog.StopWatchViewModel(loop)
        seen: List[str] = []
        with mvvm.aio.attach(loop) as attachment:
            watch.main_action()
            async with mvvm.aio.changes(watch, "time") as times:
                async for name, value in times:
                    assert name == "time"
                    seen.append(value)
                    if value >= "00:00:00.10":
                        break
            watch.main_action()  # stop
            stopped = watch.time
            await asyncio.sleep(0.05)
            assert watch.time == stopped
            dispatches = attachment.dispatches
        loop.close()
        return seen, stopped, dispatches

    seen, stopped, dispatches = run(main())
    assert seen == sorted(seen) and len(seen) >= 2
    assert seen[-1] >= "00:00:00.10" and stopped >= seen[-1]
    assert dispatches >= 2


def test_await_one_change_with_a_timeout() -> None:
    async def main() -> Any:
        loop = catalog.Loop.manual()
        with mvvm.aio.attach(loop):
            timer = catalog.CountDownTimer(loop, 1)
            screen = catalog.TimerViewModel(loop, timer)
            async with mvvm.aio.changes(screen, "is_show_alert") as alerts:
                screen.player.tapped("start")  # acts on the next dispatch, which asyncio runs
                change = await asyncio.wait_for(alerts.__anext__(), 10)  # one second of real time
        loop.close()
        return change

    assert run(main()) == ("is_show_alert", True)


def test_iteration_ends_when_the_object_is_closed() -> None:
    async def main() -> List[Any]:
        loop = catalog.Loop.manual()
        counter = catalog.Counter(loop)
        seen: List[Any] = []

        async def consume() -> None:
            async for change in mvvm.aio.changes(counter):
                seen.append(change)

        task = asyncio.ensure_future(consume())
        await asyncio.sleep(0)
        counter.increment()
        counter.increment()
        await asyncio.sleep(0)
        counter.close()
        await asyncio.wait_for(task, 10)
        loop.close()
        return seen

    assert run(main()) == [("count", 1), ("count", 2)]


def test_changes_from_a_thread_loop_arrive_on_the_asyncio_thread() -> None:
    async def main() -> Tuple[List[int], int]:
        threads: List[int] = []
        with catalog.Loop.thread() as loop:
            watch = catalog.StopWatch(loop)
            watch.subscribe("time_ms", lambda name, value: threads.append(threading.get_ident()))
            values: List[int] = []
            async with mvvm.aio.changes(watch, "time_ms") as changes:
                watch.start()
                async for _, value in changes:
                    values.append(value)
                    if len(values) == 3:
                        break
        assert threading.get_ident() not in threads
        return values, len(threads)

    values, ticks = run(main())
    assert values == sorted(values) and ticks >= 3


def test_closing_the_loop_detaches_it_from_asyncio() -> None:
    async def main() -> None:
        aloop = asyncio.get_running_loop()
        loop = catalog.Loop.manual()
        attachment = mvvm.aio.attach(loop)
        fd = loop.fileno()
        assert attachment.attached and aloop.remove_reader(fd) and not aloop.remove_reader(fd)
        aloop.add_reader(fd, attachment._on_readable)
        loop.close()
        assert not attachment.attached
        assert not aloop.remove_reader(fd)  # already removed before the fd was closed
        attachment.detach()

    run(main())


def test_only_a_manual_loop_can_be_attached() -> None:
    async def main() -> None:
        with catalog.Loop.virtual() as loop:
            with pytest.raises(ValueError):
                mvvm.aio.attach(loop)
        with pytest.raises(TypeError):
            mvvm.aio.attach("loop")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            mvvm.aio.changes("object")  # type: ignore[arg-type]

    run(main())


def test_a_dropped_change_iterator_ends_its_subscription() -> None:
    async def main() -> None:
        with catalog.Loop.virtual() as loop:
            counter = catalog.Counter(loop)
            changes = mvvm.aio.changes(counter, "count")
            subscription = changes.subscription
            assert subscription.active
            del changes
            gc.collect()
            assert not subscription.active
            assert len(registry) == 0

    run(main())
