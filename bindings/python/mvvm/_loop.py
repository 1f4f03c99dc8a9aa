"""Loops: where objects live and who runs time (virtual, manual, thread), and what interpreter
exit does (loops stop before the objects' finalizers release them)."""

from __future__ import annotations

import atexit
import contextlib
import enum
import signal
import threading
import time
import weakref
from ctypes import byref, c_int, c_int64
from typing import Any, Callable, ClassVar, Iterator, List, Optional, Union

from . import _lib
from ._callbacks import _report, release_pending
from ._errors import TypeMismatchError
from ._lib import lib
from ._owner import Owner
from ._values import _check_int64

__all__ = ["LoopKind", "Loop"]


class _Interrupted:
    """Whether Ctrl-C came during :meth:`Loop.run_for`."""

    def __init__(self) -> None:
        self.seen = False

    def __bool__(self) -> bool:
        return self.seen


@contextlib.contextmanager
def _ctrl_c_between_slices() -> Iterator[_Interrupted]:
    """While the main thread runs a loop with Python's default SIGINT handler, Ctrl-C is noted
    rather than raised at once, and ``run_for`` raises it between two slices: raised at once, it
    could land in a callback's first line, where ctypes can only print and drop it."""
    interrupted = _Interrupted()
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


class LoopKind(enum.IntEnum):
    """``mvvm_loop_kind``."""

    MANUAL = _lib.LOOP_MANUAL
    THREAD = _lib.LOOP_THREAD
    VIRTUAL = _lib.LOOP_VIRTUAL


_live_loops: "weakref.WeakSet[Loop]" = weakref.WeakSet()


class Loop(Owner):
    """Where objects live and who runs time: :meth:`virtual`, :meth:`manual` or :meth:`thread`.

    Times are integer milliseconds, up to :attr:`TIME_LIMIT_MS`. Closing a loop stops it; its
    objects stay open but every call on them raises :class:`~mvvm.LoopReleasedError` (only
    ``close()`` works).
    """

    #: The last instant of every loop's time; :meth:`advance` and :meth:`run_for` past it raise
    #: :class:`~mvvm.InvalidArgumentError`.
    TIME_LIMIT_MS: int = _lib.LOOP_TIME_LIMIT_MS

    def __init__(self, kind: Union[LoopKind, int]) -> None:
        self.kind: LoopKind = LoopKind(kind)
        out = _lib.Handle()
        release_pending()
        lib.mvvm_loop_new(int(self.kind), byref(out))
        self._own(out.value)
        self._close_hooks: List[Callable[[], None]] = []
        _live_loops.add(self)

    @classmethod
    def virtual(cls) -> "Loop":
        """Time moves only with :meth:`advance`: exact and deterministic."""
        return cls(LoopKind.VIRTUAL)

    @classmethod
    def manual(cls) -> "Loop":
        """The host runs due work with :meth:`dispatch` (see :meth:`fileno`, :mod:`mvvm.aio`)."""
        return cls(LoopKind.MANUAL)

    @classmethod
    def thread(cls) -> "Loop":
        """The library runs due work on a thread of its own; timed callbacks arrive there."""
        return cls(LoopKind.THREAD)

    def _closed_message(self) -> str:
        return "the %s loop is closed" % self.kind.name.lower()

    def advance(self, ms: int) -> None:
        """Virtual loops: moves time ``ms`` milliseconds forward, running all work due up to then."""
        lib.mvvm_loop_advance(self._h(), _check_ms(ms))

    def dispatch(self) -> int:
        """Manual loops: runs the work due now on this thread; returns how many pieces ran."""
        ran = c_int64(0)
        lib.mvvm_loop_dispatch(self._h(), byref(ran))
        return ran.value

    #: :meth:`run_for` waits in slices this long, so that signal handlers (Ctrl-C) run.
    RUN_SLICE_MS: ClassVar[int] = 50

    def run_for(self, ms: int) -> None:
        """Manual loops: dispatches due work on this thread for ``ms`` milliseconds.

        Waits in slices of :attr:`RUN_SLICE_MS` so that Ctrl-C (``KeyboardInterrupt``), or one
        raised by a callback, stops it promptly; it is raised here."""
        ms = _check_ms(ms)
        handle = self._h()
        if ms <= self.RUN_SLICE_MS or ms > self.TIME_LIMIT_MS - self.now():
            lib.mvvm_loop_run_for(handle, ms)  # one call; the library refuses a time past its limit
            return
        with _ctrl_c_between_slices() as interrupted:
            deadline = time.monotonic() + ms / 1000.0
            while not interrupted:
                left = int((deadline - time.monotonic()) * 1000.0 + 0.999)
                if left <= 0:
                    return
                lib.mvvm_loop_run_for(self._h(), min(left, self.RUN_SLICE_MS))
        raise KeyboardInterrupt

    def fileno(self) -> int:
        """Manual loops: a file descriptor, owned by the loop, readable while work is due."""
        fd = c_int(-1)
        lib.mvvm_loop_fd(self._h(), byref(fd))
        return fd.value

    def next_timeout(self) -> Optional[int]:
        """Milliseconds (rounded up) until the next work is due: 0 when some is due now,
        ``None`` when nothing is scheduled."""
        ms = c_int64(-1)
        lib.mvvm_loop_next_timeout_ms(self._h(), byref(ms))
        return None if ms.value < 0 else ms.value

    def now(self) -> int:
        """The loop's time in milliseconds since it was created."""
        ms = c_int64(-1)
        lib.mvvm_loop_now_ms(self._h(), byref(ms))
        return ms.value

    def _add_close_hook(self, hook: Callable[[], None]) -> None:
        self._close_hooks.append(hook)

    def _remove_close_hook(self, hook: Callable[[], None]) -> None:
        try:
            self._close_hooks.remove(hook)
        except ValueError:
            pass

    def close(self) -> None:
        """Stops and releases the loop (once; again does nothing). Its objects then raise
        LoopReleasedError; their subscriptions end (destroy functions run)."""
        hooks, self._close_hooks = self._close_hooks, []
        for hook in hooks:  # e.g. mvvm.aio: take the fd out of asyncio before it is closed
            try:
                hook()
            except Exception as exc:
                _report(exc, "Exception ignored in a close hook of %r" % self, hook)
        self._release()
        _live_loops.discard(self)

    def __repr__(self) -> str:
        state = "closed" if self.closed else "handle=0x%x" % self._handle
        return "<mvvm.Loop %s %s>" % (self.kind.name.lower(), state)


def _check_ms(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise TypeMismatchError("milliseconds must be an int, not %s" % type(ms).__name__)
    return _check_int64(ms, "milliseconds")




class _Sentinel:
    pass


# weakref.finalize registers its own atexit hook on first use; make sure it is registered before
# ours, so ours (LIFO) runs first: loops stop before the objects' finalizers release them.
_sentinel = _Sentinel()
weakref.finalize(_sentinel, lambda: None)


def _at_exit() -> None:
    for loop in list(_live_loops):
        try:
            loop.close()
        except BaseException:
            pass
    release_pending()


atexit.register(_at_exit)


