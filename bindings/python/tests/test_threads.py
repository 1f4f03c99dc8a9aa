"""A thread loop: timed callbacks arrive on the loop's own thread (the trampoline takes the GIL),
host calls notify on the caller's thread, many Python threads may call at once, and the loop
shuts down cleanly, also at interpreter exit."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any, List

from mvvm._registry import registry
from mvvm._releases import pending
from conftest import Recorder, Unraisables
from libraries import catalog


def test_timed_callbacks_arrive_on_the_loop_thread(recorder: Recorder) -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        watch.subscribe("time_ms", recorder)
        watch.subscribe("state", recorder)
        watch.start()  # a host call: notified on this thread before it returns
        assert recorder.events == [("state", "stoppable")]
        assert recorder.threads == [threading.get_ident()]
        assert recorder.wait_for(lambda r: r.count("time_ms") >= 5)
        watch.stop()
    ticks = [t for (name, _), t in zip(recorder.events, recorder.threads) if name == "time_ms"]
    assert threading.get_ident() not in ticks[:5]
    assert len(set(ticks[:5])) == 1  # all from the one loop thread
    values = recorder.values("time_ms")
    assert values[:5] == sorted(values[:5]) and values[0] >= 10


def test_many_python_threads_call_at_once() -> None:
    with catalog.Loop.thread() as loop:
        counter = catalog.Counter(loop)
        seen: List[int] = []
        counter.subscribe("count", lambda name, value: seen.append(value))
        workers = [threading.Thread(target=lambda: [counter.increment() for _ in range(300)]) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        assert counter.count == 1200
        assert sorted(seen) == list(range(1, 1201))  # each increment notified once, none lost


def test_garbage_made_in_loop_thread_callbacks_is_released_later() -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        handles: List[int] = []
        enough = threading.Event()

        def make_garbage(name: str, value: Any) -> None:
            handles.append(catalog.Counter(loop).handle)
            gc.collect()
            if len(handles) >= 5:
                enough.set()

        subscription = watch.subscribe("time_ms", make_garbage)
        watch.start()
        assert enough.wait(10)
        subscription.unsubscribe()
        gc.collect()
        watch.stop()  # a call from outside any callback releases what was deferred
        assert len(pending) == 0


def failing_tick(name: str, value: Any) -> None:
    raise RuntimeError("tick failed")


def test_an_exception_on_the_loop_thread_is_reported(unraisables: Unraisables, recorder: Recorder) -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        watch.subscribe("time_ms", failing_tick)
        watch.subscribe("time_ms", recorder)
        watch.start()
        assert recorder.wait_for(lambda r: r.count() >= 3)
        watch.stop()
    assert unraisables.seen and unraisables.seen[0].object is failing_tick
    assert "failing_tick" in unraisables.seen[0].err_msg


def test_closing_a_thread_loop_stops_its_callbacks(recorder: Recorder) -> None:
    loop = catalog.Loop.thread()
    watch = catalog.StopWatch(loop)
    subscription = watch.subscribe("time_ms", recorder)
    watch.start()
    assert recorder.wait_for(lambda r: r.count() >= 2)
    loop.close()
    assert not subscription.active
    count = recorder.count()
    time.sleep(0.1)
    assert recorder.count() == count
    watch.close()


def test_a_thread_loop_shuts_down_cleanly_at_interpreter_exit() -> None:
    program = textwrap.dedent("""
        import os, threading, time, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        loop = catalog.Loop.thread()
        ticks = []
        watches = [catalog.StopWatchViewModel(loop) for _ in range(5)]
        for watch in watches:
            watch.subscribe(None, lambda name, value: (ticks.append(value), time.sleep(0.0005)))
            watch.main_action()
        while len(ticks) < 50:
            time.sleep(0.005)
        print("exiting", threading.active_count())
    """)
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout.split()[0], done.stderr) == (0, "exiting", "")


def test_no_callback_runs_after_unsubscribe_returns_while_the_loop_thread_delivers() -> None:
    with catalog.Loop.thread() as loop:
        watches = [catalog.StopWatch(loop) for _ in range(4)]
        for watch in watches:
            watch.start()
        violations: List[str] = []
        calls = [0]
        for round_ in range(200):
            done = threading.Event()
            state = {"ended": False}

            def tick(name: str, value: Any, state: dict = state) -> None:
                calls[0] += 1
                if state["ended"]:
                    violations.append("called after unsubscribe returned")

            subscription = watches[round_ % 4].subscribe("time_ms", tick, on_end=done.set)
            time.sleep(0.0005 * (round_ % 7))
            subscription.unsubscribe()
            state["ended"] = True
            assert done.is_set()  # the destroy function ran before unsubscribe returned
        time.sleep(0.05)
        assert violations == []
        assert calls[0] > 0
        assert len(registry) == 0


def test_setting_from_python_threads_while_the_loop_thread_ticks() -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatchViewModel(loop)
        form = catalog.InputEchoViewModel(loop)
        messages: List[str] = []
        form.subscribe("message", lambda name, value: messages.append(value))
        watch.subscribe("time", lambda name, value: form.label)  # the loop thread reads the form
        watch.main_action()

        def type_text(prefix: str) -> None:
            for i in range(200):
                form.input = "%s%d" % (prefix, i)

        workers = [threading.Thread(target=type_text, args=(p,)) for p in "ab"]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        watch.main_action()
        assert len(messages) == 400
        assert form.message == "Your input is '%s'!" % form.input


def test_a_manual_loop_runs_on_the_calling_thread(recorder: Recorder) -> None:
    with catalog.Loop.manual() as loop:
        watch = catalog.StopWatch(loop)
        watch.subscribe("time_ms", recorder)
        assert loop.next_timeout() is None
        watch.start()
        assert 0 <= (loop.next_timeout() or 0) <= 10
        time.sleep(0.03)
        assert watch.time_ms == 0  # nothing runs until the host dispatches
        assert loop.dispatch() >= 1
        assert watch.time_ms >= 10
        loop.run_for(100)
        assert 10 < watch.time_ms <= 300
        assert set(recorder.threads) == {threading.get_ident()}
        assert recorder.values() == sorted(recorder.values())
