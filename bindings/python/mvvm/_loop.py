"""Loops: where objects live and who runs time (virtual, manual, thread), and what interpreter
exit does: every loop is closed (before the objects' finalizers release them), and no new one
is made, so that no thread (a daemon thread still calling in, a loop's own) calls back into
Python while it finalizes."""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from ctypes import byref, c_int, c_int64, c_uint64
from typing import Any, Callable, ClassVar, Iterator, List, Optional, Union

from . import _abi
from ._abi import LoopKind
from ._errors import InvalidArgumentError, LoopReleasedError, TypeMismatchError
from ._interrupts import ctrl_c_between_slices
from ._library import Library
from ._owner import Owner
from ._releases import release_pending
from ._report import report
from ._threadstates import delete_ended_thread_states

__all__ = ["LoopKind", "Loop"]

_live_loops: "weakref.WeakSet[Loop]" = weakref.WeakSet()


class _Exit:
    """Interpreter exit: once the package's exit hook has closed every loop, no loop is made any
    more, so the library never calls back into an interpreter that is finalizing (a daemon thread
    still calling in gets LoopReleasedError)."""

    def __init__(self) -> None:
        self.started = False
        self.lock = threading.Lock()  # loops are made, and closed at exit, one at a time

    def forked(self) -> None:
        self.lock = threading.Lock()  # a fork may have happened while another thread held it


_exit = _Exit()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_exit.forked)


class Loop(Owner):
    """Where objects live and who runs time: :meth:`virtual`, :meth:`manual`, :meth:`main` or
    :meth:`thread`.

    A loop belongs to a library, and its objects are that library's: make one with the library's
    own class, ``library.Loop.virtual()`` (``library = mvvm.load(path)``, or a typed package's
    ``Loop``). ``mvvm.Loop`` is their base, for annotations and ``isinstance``; it makes none
    itself (``TypeError``). Times are integer milliseconds, up to :attr:`TIME_LIMIT_MS`. Closing
    a loop stops it; its objects stay open but every call on them raises
    :class:`~mvvm.LoopReleasedError` (only closing works).
    """

    #: The library whose loops this class makes (None for the base, which makes none).
    _class_library: ClassVar[Optional["Library"]] = None

    #: The last instant of every loop's time; :meth:`advance` and :meth:`run_for` past it raise
    #: :class:`~mvvm.InvalidArgumentError`.
    TIME_LIMIT_MS: int = _abi.LOOP_TIME_LIMIT_MS

    def __init__(self, kind: Union[LoopKind, int]) -> None:
        library = type(self)._class_library
        if library is None:
            raise TypeError("a loop belongs to a library: make it with that library's Loop, such as "
                            "mvvm.load(path).Loop.virtual() or a typed package's Loop.virtual(), not mvvm.Loop")
        self.kind: LoopKind = LoopKind(kind)
        out = c_uint64()
        release_pending()
        self._close_hooks: List[Callable[[], None]] = []
        with _exit.lock:
            if _exit.started:
                raise LoopReleasedError("the interpreter is exiting: its loops are closed and no new one is made")
            library.functions.mvvm_loop_new(int(self.kind), byref(out))
            self._own(library, out.value)
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
    def main(cls) -> "Loop":
        """The main loop: a manual loop for the process's main thread, where ``@MainActor`` view
        models live and main-queue work and Foundation timers run too. Made, dispatched and run
        only on the main thread, one at a time (else :class:`~mvvm.InvalidArgumentError`)."""
        return cls(LoopKind.MAIN)

    @classmethod
    def thread(cls) -> "Loop":
        """The library runs due work on a thread of its own; timed callbacks arrive there."""
        return cls(LoopKind.THREAD)

    @property
    def library(self) -> "Library":
        """The library this loop belongs to."""
        return self._library

    def _closed_message(self) -> str:
        return "the %s loop is closed" % self.kind.name.lower()

    #: :meth:`advance` runs in slices of at least this much virtual time (or up to the next due
    #: work), and :meth:`run_for` waits in slices this long, so that Ctrl-C stops them promptly.
    SLICE_MS: ClassVar[int] = 50
    ADVANCE_SLICE_MS: ClassVar[int] = 1000

    def advance(self, ms: int) -> None:
        """Virtual loops: moves time ``ms`` milliseconds forward, running all work due up to then.

        A long advance runs in slices of virtual time (each at least :attr:`ADVANCE_SLICE_MS`,
        or up to the next due work), so that Ctrl-C (``KeyboardInterrupt``), or one a callback
        raised, stops it between two slices; it is raised here. An advance past
        :attr:`TIME_LIMIT_MS` is refused whole."""

        def steps(ms: int) -> Iterator[int]:
            left = ms
            while left > 0:
                due = self.next_timeout()
                step = left if due is None else min(left, max(self.ADVANCE_SLICE_MS, due))
                yield step
                left -= step

        self._in_slices(ms, self.ADVANCE_SLICE_MS, self._library.functions.mvvm_loop_advance, steps)

    def dispatch(self) -> int:
        """Manual loops: runs the work due now on this thread; returns how many pieces ran."""
        ran = c_int64(0)
        self._library.functions.mvvm_loop_dispatch(self._h(), byref(ran))
        return ran.value

    #: :meth:`run_for` waits in slices this long (see :attr:`SLICE_MS`).
    RUN_SLICE_MS: ClassVar[int] = SLICE_MS

    def run_for(self, ms: int) -> None:
        """Manual loops: dispatches due work on this thread for ``ms`` milliseconds.

        Waits in slices of :attr:`RUN_SLICE_MS` so that Ctrl-C (``KeyboardInterrupt``), or one
        raised by a callback, stops it promptly; it is raised here."""

        def steps(ms: int) -> Iterator[int]:
            deadline = time.monotonic() + ms / 1000.0
            while True:
                left = int((deadline - time.monotonic()) * 1000.0 + 0.999)
                if left <= 0:
                    return
                yield min(left, self.RUN_SLICE_MS)

        self._in_slices(ms, self.RUN_SLICE_MS, self._library.functions.mvvm_loop_run_for, steps)

    def _in_slices(self, ms: Any, short: int, function: Callable[[int, int], int],
                   steps: Callable[[int], Iterator[int]]) -> None:
        """``function(loop, ms)``: in one call when short, or past the time limit (which the
        library refuses whole); else one call per step of ``steps(ms)``, Ctrl-C raised between
        two (:func:`~mvvm._interrupts.ctrl_c_between_slices`)."""
        ms = _check_ms(ms)
        if ms <= short or ms > self.TIME_LIMIT_MS - self.now():
            function(self._h(), ms)
            return
        with ctrl_c_between_slices() as interrupted:
            for step in steps(ms):
                if interrupted:
                    break
                function(self._h(), step)
            if not interrupted:
                return
        raise KeyboardInterrupt

    def fileno(self) -> int:
        """Manual loops: a file descriptor, owned by the loop, readable while work is due."""
        fd = c_int(-1)
        self._library.functions.mvvm_loop_fd(self._h(), byref(fd))
        return fd.value

    def next_timeout(self) -> Optional[int]:
        """Milliseconds (rounded up) until the next work is due: 0 when some is due now,
        ``None`` when nothing is scheduled."""
        ms = c_int64(-1)
        self._library.functions.mvvm_loop_next_timeout_ms(self._h(), byref(ms))
        return None if ms.value < 0 else ms.value

    def now(self) -> int:
        """The loop's time in milliseconds since it was created."""
        ms = c_int64(-1)
        self._library.functions.mvvm_loop_now_ms(self._h(), byref(ms))
        return ms.value

    def _add_close_hook(self, hook: Callable[[], None]) -> None:
        self._close_hooks.append(hook)

    def _remove_close_hook(self, hook: Callable[[], None]) -> None:
        try:
            self._close_hooks.remove(hook)
        except ValueError:
            pass

    def _close(self) -> None:
        hooks, self._close_hooks = self._close_hooks, []
        for hook in hooks:  # e.g. mvvm.aio: take the fd out of asyncio before it is closed
            try:
                hook()
            except Exception as exc:
                report(exc, "Exception ignored in a close hook of %r" % self, hook)
        self._release()
        _live_loops.discard(self)
        if self.kind == LoopKind.THREAD:
            delete_ended_thread_states()  # its thread's, once it has ended (see _threadstates)

    def close(self) -> None:
        """Stops and releases the loop (once; again does nothing). Its objects then raise
        LoopReleasedError; their subscriptions end (destroy functions run)."""
        self._close()

    def __repr__(self) -> str:
        state = "closed" if self._is_closed() else "handle=0x%x" % self._handle
        return "<mvvm.Loop %s %s>" % (self.kind.name.lower(), state)


def _check_ms(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise TypeMismatchError("milliseconds must be an int, not %s" % type(ms).__name__)
    if not -(2**63) <= ms < 2**63:
        raise InvalidArgumentError("%d milliseconds does not fit in an int64" % ms)
    return ms


class _Sentinel:
    pass


# weakref.finalize registers its own atexit hook on first use; make sure it is registered before
# ours, so ours (LIFO) runs first: loops stop before the objects' finalizers release them.
_sentinel = _Sentinel()
weakref.finalize(_sentinel, lambda: None)


def _at_exit() -> None:
    with _exit.lock:
        _exit.started = True
        loops = list(_live_loops)
    for loop in loops:
        try:
            loop._close()
        except BaseException:
            pass
    release_pending()


atexit.register(_at_exit)
