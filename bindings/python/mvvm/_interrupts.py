"""Callbacks and interrupts: how deep each thread is in libmvvm callbacks, and what becomes of a
``KeyboardInterrupt`` (Ctrl-C, or one a callback raised).

A callback that raises ``KeyboardInterrupt`` or ``SystemExit`` does not stop the library in the
middle of a change: the library finishes the C call it is in (its objects stay consistent and the
other subscribers hear the change), then the Python call that entered the library on that thread
raises it (:func:`raise_kept_interrupt`, run by every status check). On a thread of the library's
own (a thread loop's), where no Python call waits, it is reported like any exception.

Ctrl-C during a long loop call (:meth:`~mvvm.Loop.run_for`, :meth:`~mvvm.Loop.advance`): while
such a call runs on the main thread with Python's default SIGINT handler, SIGINT is noted rather
than raised at once (raised at once, it could land in a callback's first line, where ctypes can
only print and drop it), and the call, made in slices, raises it between two slices
(:func:`ctrl_c_between_slices`).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Callable, Iterator, Optional

from ._fastpath import fast
from ._threadstates import keep_this_thread_state

__all__ = ["in_callback", "enter_callback", "leave_callback", "keep_interrupt", "raise_kept_interrupt",
           "ctrl_c_between_slices"]


class _State(threading.local):
    # Per thread: a callback's KeyboardInterrupt/SystemExit, to re-raise; and without the fast path,
    # how many libmvvm callbacks are running on it, -1 until its first (which keeps its thread state:
    # _threadstates.keep_this_thread_state), so that a callback's start reads one attribute. (With
    # it, that depth is a C thread-local of mvvm._fast.)
    depth = -1
    interrupt: Optional[BaseException] = None


#: This thread's kept interrupt, and its callback depth when ctypes counts it (``state.depth``).
state = _State()


class _Pending:
    """How many interrupts are kept, on any thread: keeps the status check's common path to one
    integer test (with the fast path, its C code reads the count: mvvm._fast.pending_interrupts)."""

    count = 0


pending: _Pending = _Pending() if fast is None else fast.pending_interrupts

if fast is None:
    def in_callback() -> bool:
        """Whether this thread is running inside a libmvvm callback (event, destroy or request)."""
        return state.depth > 0
else:
    _depth: Callable[[], int] = fast.callback_depth

    def in_callback() -> bool:
        """Whether this thread is running inside a libmvvm callback (event, destroy or request)."""
        return _depth() > 0


def _enter_counted_here() -> None:
    depth = state.depth
    if depth < 0:
        keep_this_thread_state()
        depth = 0
    state.depth = depth + 1


def _leave_counted_here() -> None:
    state.depth -= 1


#: The start of a callback of a ctypes trampoline: one deeper; the thread's first keeps its Python
#: thread state (mvvm._threadstates). (The ctypes event trampoline inlines it.)
enter_callback: Callable[[], None] = _enter_counted_here if fast is None else fast.enter_callback
#: Its end: one less deep.
leave_callback: Callable[[], None] = _leave_counted_here if fast is None else fast.leave_callback


def keep_interrupt(exc: BaseException) -> bool:
    """In a callback: keeps a KeyboardInterrupt or SystemExit for the Python call that entered
    the library on this thread to raise once C returns; whether it was kept (false for other
    exceptions, and on a thread of the library's own, where no Python call waits)."""
    if not isinstance(exc, (KeyboardInterrupt, SystemExit)):
        return False
    if isinstance(threading.current_thread(), threading._DummyThread):  # a loop's own thread
        return False
    if state.interrupt is None:
        state.interrupt = exc
        pending.count += 1
    return True


def raise_kept_interrupt() -> None:
    """Raises this thread's kept interrupt, once the outermost call into the library returned."""
    exc = state.interrupt
    if exc is None or in_callback():
        return
    state.interrupt = None
    pending.count -= 1
    raise exc


class Interrupted:
    """Whether Ctrl-C came during a sliced loop call."""

    def __init__(self) -> None:
        self.seen = False

    def __bool__(self) -> bool:
        return self.seen


@contextlib.contextmanager
def ctrl_c_between_slices() -> Iterator[Interrupted]:
    """While a loop call runs in slices on the main thread with Python's default SIGINT handler,
    SIGINT sets the flag this yields rather than raising; the caller raises ``KeyboardInterrupt``
    between two slices. Elsewhere (another thread, a handler of the program's own) it changes
    nothing and the flag stays false."""
    interrupted = Interrupted()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield interrupted
        return

    def note(signum: int, frame: Any) -> None:
        interrupted.seen = True

    signal.signal(signal.SIGINT, note)
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
