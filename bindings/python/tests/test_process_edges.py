"""Reliability at the edges of a Python process (RELIABILITY.md): interpreter exit with everything
still live, callbacks and services raising KeyboardInterrupt, and fork() of a process whose thread
loop is ticking. Child interpreters run under a time limit, so a hang fails the test instead of
hanging the suite."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any, List

import pytest

import mvvm
from conftest import Recorder, Unraisables
from libraries import catalog

#: How long a child interpreter may take before it counts as hung.
CHILD_TIMEOUT_S = 60


def run_child(program: str, timeout: float = CHILD_TIMEOUT_S) -> "subprocess.CompletedProcess[str]":
    """Runs `program` in a new interpreter with this one's environment (MVVM_LIBRARY included);
    a hang becomes a test failure with what the child printed so far."""
    try:
        return subprocess.run([sys.executable, "-c", textwrap.dedent(program)], capture_output=True, text=True,
                              timeout=timeout, env=dict(os.environ, PYTHONFAULTHANDLER="1"))
    except subprocess.TimeoutExpired as expired:
        pytest.fail("the child interpreter hung for %s s; it printed %r and %r"
                    % (timeout, expired.stdout, expired.stderr))


# ------------------------------------------------------------------------------------------------
# Interpreter exit
# ------------------------------------------------------------------------------------------------

#: A program that leaves everything live: a thread loop ticking five stopwatches whose callbacks
#: call back in, a virtual and a manual loop with objects, host-service requests never answered,
#: subscriptions never ended, a Python thread calling in; then it exits (how: the `EXIT` line).
LIVE_EVERYTHING = """
    import sys, threading, time
    import os, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])

    thread_loop = catalog.Loop.thread()
    ticks = []
    watches = [catalog.StopWatchViewModel(thread_loop) for _ in range(5)]
    for watch in watches:
        # Each tick reads back into the library from the loop's thread.
        watch.subscribe(None, lambda name, value, watch=watch: ticks.append(watch.time))
        watch.main_action()

    virtual = catalog.Loop.virtual()
    manual = catalog.Loop.manual()
    pending = []
    sign_up = catalog.SignUpViewModel(virtual, service=pending.append)
    sign_up.user_id, sign_up.password, sign_up.confirm_password = "abcdef", "password1", "password1"
    sign_up.agreed = True
    sign_up.sign_up_tapped()                          # a request nobody answers
    welcome = catalog.WelcomeViewModel(manual, api=pending.append)
    welcome.subscribe(None, lambda name, value: None)
    welcome.view_did_load()                           # another
    threaded_welcome = catalog.WelcomeViewModel(thread_loop, api=pending.append)
    threaded_welcome.view_did_load()                  # and one on the thread loop
    assert len(pending) == 3, pending
    page = catalog.CounterPageViewModel(virtual)
    first = page.first_counter
    first.subscribe("count", lambda name, value: page.read_me)
    first.increment()
    timer = catalog.CountDownTimer(thread_loop, 1)
    screen = catalog.TimerViewModel(thread_loop, timer)
    screen.player.tapped("start")

    counter = catalog.Counter(thread_loop)
    def hammer():
        # Still calling while the interpreter exits: once the exit handlers have closed the loop
        # or released the counter, the library's error (LoopReleasedError, InvalidHandleError)
        # ends it; a crash or a hang would not.
        try:
            while True:
                counter.increment()
        except mvvm.MvvmError:
            pass
    threading.Thread(target=hammer, daemon=True).start()

    while len(ticks) < 40:
        time.sleep(0.005)
    print("exiting", flush=True)
    EXIT
"""


@pytest.mark.parametrize("exit_how", ["pass", "sys.exit(0)", "raise SystemExit(0)"])
def test_interpreter_exit_with_everything_live_is_prompt_and_clean(exit_how: str) -> None:
    for _ in range(3):
        started = time.monotonic()
        done = run_child(LIVE_EVERYTHING.replace("EXIT", exit_how))
        took = time.monotonic() - started
        assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")
        assert took < 20, "exiting took %.1f s" % took


#: Daemon threads calling into the library, with Python subscribers, until the interpreter exits:
#: each makes loops (thread and virtual) and objects, subscribes, changes them; the main thread
#: exits while they run.
DAEMONS_AT_EXIT = """
    import os, threading, time, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
    def hammer(kind):
        while True:
            try:
                with getattr(catalog.Loop, kind)() as loop:
                    counter = catalog.Counter(loop)
                    counter.subscribe("count", lambda name, value: counter.count)
                    watch = catalog.StopWatch(loop)
                    watch.subscribe("time_ms", lambda name, value: None)
                    watch.start()
                    for _ in range(20):
                        counter.increment()
                    if kind == "virtual":
                        loop.advance(50)
            except mvvm.MvvmError:
                pass
    for kind in ("thread", "virtual", "thread", "virtual"):
        threading.Thread(target=hammer, args=(kind,), daemon=True).start()
    time.sleep(0.1)
    print("exiting", flush=True)
"""


def test_daemon_threads_calling_the_library_at_exit_end_cleanly() -> None:
    for _ in range(8):
        done = run_child(DAEMONS_AT_EXIT)
        assert (done.returncode, done.stdout, done.stderr) == (0, "exiting\n", "")


def test_no_loop_is_made_once_the_exit_hook_closed_them() -> None:
    """Exit handlers registered before mvvm's run after it (atexit runs them last in, first
    out): a loop one of them (or a daemon thread then) asks for is refused, so nothing of the
    library calls back into the interpreter as it finalizes."""
    done = run_child("""
        import atexit
        def late():
            import os, mvvm
            catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
            try:
                loop = catalog.Loop.thread()
            except mvvm.LoopReleasedError as error:
                print("refused:", error.message, flush=True)
            else:
                watch = catalog.StopWatch(loop)
                watch.subscribe("time_ms", lambda name, value: None)
                watch.start()
                print("made a loop at exit", flush=True)
        atexit.register(late)
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        catalog.Counter(catalog.Loop.thread()).increment()
        print("exiting", flush=True)
    """)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "exiting\nrefused: the interpreter is exiting: its loops are closed and no new one is made\n"


def test_interpreter_exit_from_a_thread_loop_callback() -> None:
    """os._exit from inside a callback on the loop's thread: the process ends at once, code 0."""
    done = run_child("""
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        loop = catalog.Loop.thread()
        watch = catalog.StopWatch(loop)
        def tick(name, value):
            if value >= 50:
                print("leaving from the loop thread", flush=True)
                os._exit(0)
        watch.subscribe("time_ms", tick)
        watch.start()
        import time
        time.sleep(30)
        print("not reached")
    """)
    assert (done.returncode, done.stdout, done.stderr) == (0, "leaving from the loop thread\n", "")


# ------------------------------------------------------------------------------------------------
# KeyboardInterrupt in callbacks
# ------------------------------------------------------------------------------------------------


def interrupt(*_: Any) -> None:
    raise KeyboardInterrupt


def test_keyboard_interrupt_in_callbacks_reaches_the_caller_and_breaks_nothing(loop: mvvm.Loop, recorder: Recorder,
                                                                               unraisables: Unraisables) -> None:
    echo = catalog.InputEchoViewModel(loop)
    echo.subscribe("input", interrupt)         # before the recorder: the recorder still hears
    echo.subscribe(None, recorder)
    for text in ("a", "b", "c"):
        with pytest.raises(KeyboardInterrupt):
            echo.input = text                  # raised once the setter's C call returned
    assert echo.message == "Your input is 'c'!"
    assert recorder.values("input") == ["a", "b", "c"]
    assert recorder.values("message") == ["Your input is '%s'!" % t for t in "abc"]
    assert unraisables.seen == []

    # Time-driven callbacks too, and a subscription ended from the callback that raised.
    watch = catalog.StopWatchViewModel(loop)
    box: List[Any] = []

    def interrupt_then_leave(name: str, value: Any) -> None:
        box[0].unsubscribe()
        raise KeyboardInterrupt

    box.append(watch.subscribe("time", interrupt_then_leave))
    watch.subscribe("time", recorder)
    watch.main_action()
    with pytest.raises(KeyboardInterrupt):
        loop.advance(1000)                     # the advance finishes: the loop's time is whole
    assert watch.time == "00:00:01.00"
    assert recorder.values("time")[-1] == "00:00:01.00" and len(recorder.values("time")) == 100
    assert not box[0].active
    assert unraisables.seen == []
    loop.advance(10)                           # nothing is left pending
    assert watch.time == "00:00:01.01"


def test_system_exit_in_a_callback_reaches_the_caller(loop: mvvm.Loop, recorder: Recorder,
                                                      unraisables: Unraisables) -> None:
    counter = catalog.Counter(loop)

    def leave(name: str, value: Any) -> None:
        raise SystemExit(3)

    counter.subscribe("count", leave)
    counter.subscribe("count", recorder)
    with pytest.raises(SystemExit) as raised:
        counter.increment()
    assert raised.value.code == 3
    assert recorder.values("count") == [1] and counter.count == 1
    assert unraisables.seen == []


def test_keyboard_interrupt_in_a_host_service_reaches_the_caller_and_cancels_nothing(
        loop: mvvm.Loop, unraisables: Unraisables) -> None:
    requests: List[Any] = []

    def service(request: Any) -> None:
        requests.append(request)
        raise KeyboardInterrupt

    vm = catalog.SignUpViewModel(loop, service=service)
    vm.user_id, vm.password, vm.confirm_password, vm.agreed = "abcdef", "password1", "password1", True
    with pytest.raises(KeyboardInterrupt):
        vm.sign_up_tapped()
    assert unraisables.seen == []
    assert len(requests) == 1
    requests[0].complete(True)                 # the request survived the interrupt
    assert vm.is_completion_alert_presented is True


def test_keyboard_interrupt_in_a_callback_stops_run_for_promptly(unraisables: Unraisables) -> None:
    with catalog.Loop.manual() as loop:
        watch = catalog.StopWatch(loop)
        ticks: List[int] = []

        def tick(name: str, value: Any) -> None:
            ticks.append(value)
            if len(ticks) == 3:
                raise KeyboardInterrupt

        watch.subscribe("time_ms", tick)
        watch.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            loop.run_for(10000)
        took = time.monotonic() - started
        # Far below the 10 s asked for, with room for a loaded machine's scheduling.
        assert took < 5, "run_for went on for %.1f s after the interrupt" % took
        assert len(ticks) >= 3
    assert unraisables.seen == []


#: SIGINT (Ctrl-C) from a timer thread while the main thread is in run_for(10000).
CTRL_C_DURING_RUN_FOR = """
    import os, signal, sys, threading, time, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
    loop = catalog.Loop.manual()
    watch = catalog.StopWatch(loop)
    ticks = []
    if {subscribe}:
        watch.subscribe("time_ms", lambda name, value: ticks.append(value))
    watch.start()
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    try:
        loop.run_for(10000)
        print("returned normally", flush=True)
    except KeyboardInterrupt:
        print("interrupted after %.1f s" % (time.monotonic() - started), flush=True)
    if {subscribe}:
        assert ticks, "no tick was heard"
    loop.close()
"""


#: SIGINT (Ctrl-C) while the main thread is in a long advance of a virtual loop whose stopwatch
#: calls a Python subscriber every 10 ms of virtual time (10 million times if let run).
CTRL_C_DURING_ADVANCE = """
    import os, signal, threading, time, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
    loop = catalog.Loop.virtual()
    watch = catalog.StopWatch(loop)
    ticks = []
    watch.subscribe("time_ms", lambda name, value: ticks.append(value))
    watch.start()
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    try:
        loop.advance(100_000_000)
        print("returned normally", flush=True)
    except KeyboardInterrupt:
        print("interrupted after %.1f s" % (time.monotonic() - started), flush=True)
    assert ticks and ticks == sorted(ticks), "the ticks heard"
    assert loop.now() == ticks[-1] or loop.now() - ticks[-1] < 10, (loop.now(), ticks[-1])
    loop.advance(20)                     # and the loop goes on from where it stopped
    assert watch.time_ms == loop.now() - loop.now() % 10
    loop.close()
"""


def test_ctrl_c_stops_a_long_advance_with_a_python_subscriber_promptly() -> None:
    done = run_child(CTRL_C_DURING_ADVANCE)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # no "Exception ignored" either
    assert done.stdout.startswith("interrupted after "), done.stdout
    assert float(done.stdout.split()[2]) < 5, done.stdout


def test_a_long_advance_in_slices_runs_the_same_work_as_one() -> None:
    def run(advance: int, steps: int) -> List[Any]:
        seen: List[Any] = []
        with catalog.Loop.virtual() as loop:
            timer = catalog.CountDownTimer(loop, 7)
            watch = catalog.StopWatch(loop)
            for source in (timer, watch):
                source.subscribe(None, lambda name, value: seen.append((name, value, loop.now())))
            timer.start()
            watch.start()
            for _ in range(steps):
                loop.advance(advance)
            seen.append(("now", loop.now(), watch.time_ms))
        return seen

    sliced = run(9_999, 1)                    # in slices of ADVANCE_SLICE_MS (or to the next work)
    assert mvvm.Loop.ADVANCE_SLICE_MS < 9_999
    assert sliced == run(1, 9_999)            # one millisecond at a time: the same changes, at the same times
    assert sliced[-1] == ("now", 9_999, 9_990)


@pytest.mark.parametrize("subscribe", [True, False])
def test_ctrl_c_stops_run_for_promptly_and_is_raised(subscribe: bool) -> None:
    done = run_child(CTRL_C_DURING_RUN_FOR.format(subscribe=subscribe))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("interrupted after "), done.stdout
    took = float(done.stdout.split()[2])
    assert took < 5, done.stdout              # of the 10 s asked for: stopped at the interrupt


def test_keyboard_interrupt_on_the_loop_thread_leaves_it_running(unraisables: Unraisables, recorder: Recorder) -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        interrupting = watch.subscribe("time_ms", interrupt)
        watch.subscribe("time_ms", recorder)
        watch.start()
        assert recorder.wait_for(lambda r: r.count() >= 10)  # the loop thread kept ticking
        # Before stop(): stopping between two ticks sets time_ms once more, and that change is
        # notified on this (the calling) thread, where the interrupt would rightly reach us.
        interrupting.unsubscribe()
        watch.stop()
        counter = catalog.Counter(loop)
        counter.increment()                    # and host calls still work
        assert counter.count == 1
    assert len(unraisables.seen) >= 10
    assert {r.exc_type for r in unraisables.seen} == {KeyboardInterrupt}
    values = recorder.values("time_ms")
    assert values == sorted(values)


def test_a_real_sigint_during_notifications_is_reported_and_breaks_nothing() -> None:
    """SIGINT arriving while the main thread is inside the library, delivering callbacks: the
    interrupt surfaces (as the callback's reported KeyboardInterrupt, or in the program at the
    next bytecode) and the library keeps working afterwards."""
    done = run_child("""
        import os, signal, sys, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        reports = []
        sys.unraisablehook = lambda args: reports.append(args.exc_type.__name__)
        loop = catalog.Loop.virtual()
        counter = catalog.Counter(loop)
        sent = []
        def on_count(name, value):
            if value == 3 and not sent:
                sent.append(True)
                os.kill(os.getpid(), signal.SIGINT)
        counter.subscribe("count", on_count)
        interrupted = False
        try:
            for _ in range(10):
                counter.increment()
        except KeyboardInterrupt:
            interrupted = True
        # Python runs a signal's handler at its next chance, which on a loaded machine may come
        # a call or two later: wherever it surfaces, it surfaces once and nothing breaks.
        for _ in range(5):
            try:
                counter.increment()
            except KeyboardInterrupt:
                interrupted = True
        print(interrupted or reports == ["KeyboardInterrupt"], counter.count >= 8, flush=True)
    """)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True True\n", "")


# ------------------------------------------------------------------------------------------------
# fork()
# ------------------------------------------------------------------------------------------------

#: A parent whose thread loop ticks eight stopwatches (so that its locks are often held at the
#: moment of the fork); each child uses the library a little and exits normally (its interpreter
#: runs the library's exit handlers, which close the loops it inherited). A child that does not
#: end within CHILD_S is killed and counted as hung.
FORKING_PARENT = """
    import os, sys, time, warnings
    warnings.simplefilter("ignore", DeprecationWarning)   # 3.12: fork() with threads running
    import os, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
    CHILD_S = 10
    loop = catalog.Loop.thread()
    watches = [catalog.StopWatchViewModel(loop) for _ in range(8)]
    ticks = [0]
    for watch in watches:
        watch.subscribe(None, lambda name, value: ticks.__setitem__(0, ticks[0] + 1))
        watch.main_action()
    while ticks[0] < 20:
        time.sleep(0.002)
    hung = failed = 0
    for i in range(FORKS):
        pid = os.fork()
        if pid == 0:
            with catalog.Loop.virtual() as virtual:       # simple work with the library
                counter = catalog.Counter(virtual)
                counter.increment()
                ok = counter.count == 1
            CHILD_END
        deadline = time.monotonic() + CHILD_S
        while True:
            ended, status = os.waitpid(pid, os.WNOHANG)
            if ended:
                failed += status != 0
                break
            if time.monotonic() > deadline:
                hung += 1
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                break
            time.sleep(0.001)
        time.sleep(0.003 * (i % 5))                   # fork at different moments of the ticking
    loop.close()
    print("forks", FORKS, "hung", hung, "failed", failed, flush=True)
"""


@pytest.mark.parametrize("child_end", ["sys.exit(0 if ok else 1)", "os._exit(0 if ok else 1)"])
def test_fork_of_a_process_with_a_ticking_thread_loop_does_not_hang_the_child(child_end: str) -> None:
    forks = 40
    program = FORKING_PARENT.replace("FORKS", str(forks)).replace("CHILD_END", child_end)
    done = run_child(program, timeout=forks * 12 + 60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "forks %d hung 0 failed 0\n" % forks, "")


def test_a_thread_loops_callbacks_share_one_python_thread_state_deleted_once_it_ends() -> None:
    # ctypes makes and deletes a thread state per callback on a thread Python did not start, and
    # making one takes CPython's lock of thread states without the GIL: up to 3.11.9 a child
    # forked while it is held hangs in PyOS_AfterFork_Child (gh-112275). Kept, it is made once
    # per thread; the states of ended threads are deleted (none is left after the loops close).
    done = run_child("""
        import ctypes, time
        import os, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        api = ctypes.pythonapi
        api.PyThreadState_Get.restype = ctypes.c_void_p
        api.PyThreadState_GetID.restype, api.PyThreadState_GetID.argtypes = ctypes.c_uint64, [ctypes.c_void_p]
        api.PyInterpreterState_Get.restype = ctypes.c_void_p
        api.PyInterpreterState_ThreadHead.restype = ctypes.c_void_p
        api.PyInterpreterState_ThreadHead.argtypes = [ctypes.c_void_p]
        api.PyThreadState_Next.restype, api.PyThreadState_Next.argtypes = ctypes.c_void_p, [ctypes.c_void_p]

        def states():
            count, state = 0, api.PyInterpreterState_ThreadHead(api.PyInterpreterState_Get())
            while state:
                count, state = count + 1, api.PyThreadState_Next(state)
            return count

        before = states()
        main = api.PyThreadState_GetID(api.PyThreadState_Get())  # start() notifies here too
        seen = []
        for _ in range(3):
            ids = set()
            with catalog.Loop.thread() as loop:
                watch = catalog.StopWatch(loop)
                watch.subscribe("time_ms", lambda name, value: ids.add(api.PyThreadState_GetID(api.PyThreadState_Get())))
                watch.start()
                while watch.time_ms < 100:         # about ten ticks, each a callback on the loop's thread
                    time.sleep(0.01)
                watch.stop()
            seen.append(len(ids - {main}))
        print(seen, states() - before, flush=True)
    """)
    assert (done.returncode, done.stdout, done.stderr) == (0, "[1, 1, 1] 0\n", "")


def test_in_a_forked_child_the_parents_objects_are_closed() -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        subscription = watch.subscribe("time_ms", lambda name, value: None)
        service = catalog.Service(lambda request: None)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: what it inherited is the parent's
            try:
                closed = [mvvm.is_closed(o) for o in (loop, watch, subscription, service)] + [watch.closed, loop.closed]
                try:
                    watch.start()
                    refused = "no"
                except mvvm.ClosedError as error:
                    refused = type(error).__name__
                with catalog.Loop.virtual() as own:  # and it may make its own
                    counter = catalog.Counter(own)
                    counter.increment()
                    fresh = not counter.closed and counter.count == 1
                os.write(write, ("%s %s %s" % (closed, refused, fresh)).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as pipe:
            answer = pipe.read()
        assert os.waitpid(pid, 0)[1] == 0
        assert answer == "[True, True, True, True, True, True] LoopReleasedError True"
        assert not watch.closed and not loop.closed and subscription.active  # the parent's are open
        service.close()


def test_the_parent_keeps_working_after_forks() -> None:
    with catalog.Loop.thread() as loop:
        watch = catalog.StopWatch(loop)
        recorder = Recorder()
        watch.subscribe("time_ms", recorder)
        watch.start()
        assert recorder.wait_for(lambda r: r.count() >= 3)
        for _ in range(5):
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            assert os.waitpid(pid, 0)[1] == 0
        seen = recorder.count()
        assert recorder.wait_for(lambda r: r.count() >= seen + 3)  # the parent's loop still ticks
        watch.stop()


def test_time_stops_at_its_limit_and_a_stopwatch_there_is_safe(loop: mvvm.Loop) -> None:
    with pytest.raises(mvvm.InvalidArgumentError, match="limit"):
        loop.advance(2**63 - 1)
    assert loop.now() == 0
    loop.advance(mvvm.Loop.TIME_LIMIT_MS)
    assert loop.now() == mvvm.Loop.TIME_LIMIT_MS
    with pytest.raises(mvvm.InvalidArgumentError):
        loop.advance(1)
    with catalog.StopWatch(loop) as watch:
        watch.start()
        loop.advance(0)
        assert watch.time_ms == 0


def test_a_callback_that_keeps_causing_its_change_ends_in_an_error(loop: mvvm.Loop,
                                                                    unraisables: Unraisables) -> None:
    counter = catalog.Counter(loop)
    seen: List[int] = []

    def increment_again(name: str, value: Any) -> None:
        seen.append(value)
        counter.increment()

    with counter.subscribe("count", increment_again):
        counter.increment()                    # no RecursionError, no crash: a status, deep down
    assert seen == list(range(1, mvvm.MAX_NESTED_CALLS + 1))
    assert [type(r.exc_value) for r in unraisables.seen] == [mvvm.InvalidArgumentError]
    assert "nested" in str(unraisables.seen[0].exc_value)
    counter.increment()                        # and the counter works on
    assert counter.count == mvvm.MAX_NESTED_CALLS + 1
