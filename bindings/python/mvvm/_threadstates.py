"""The Python thread state of each thread of the library's own (a thread loop's) is kept from its
first callback until the thread has ended.

ctypes runs a callback on a thread Python did not start inside ``PyGILState_Ensure`` and
``PyGILState_Release``: without a thread state kept, every callback makes a new one and deletes
it. Making one takes the interpreter's lock of thread states (``HEAD_LOCK``) before the GIL.
Up to CPython 3.11.9 (gh-112275, fixed in 3.11.10 and 3.12), a child forked while another
thread held that lock waits for it for good in ``PyOS_AfterFork_Child`` (in
``_PyThreadState_DeleteExcept``, before the lock is made anew), before any of the child's own
code runs. A thread loop calling Python several times a tick held it often enough that 1 child
in a few hundred forked from a process with a ticking thread loop hung.

Kept (one more ``PyGILState_Ensure`` on the thread's first callback), the thread state is made
once per thread: a fork can then meet the lock held only while a thread loop makes its first
callback. The states of threads that have ended are deleted (with the GIL held, as CPython
deletes states) the next time a thread's state is kept and when a thread loop is closed; in a
forked child CPython deletes them itself. Threads started by Python keep their own states as
they always did and are left alone.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from typing import Dict, Tuple

__all__ = ["keep_this_thread_state", "delete_ended_thread_states"]

_api = ctypes.pythonapi
_ensure = _api.PyGILState_Ensure
_ensure.restype, _ensure.argtypes = ctypes.c_int, []
_current = _api.PyThreadState_Get
_current.restype, _current.argtypes = ctypes.c_void_p, []
_state_id = _api.PyThreadState_GetID
_state_id.restype, _state_id.argtypes = ctypes.c_uint64, [ctypes.c_void_p]
_interpreter = _api.PyInterpreterState_Get
_interpreter.restype, _interpreter.argtypes = ctypes.c_void_p, []
_first = _api.PyInterpreterState_ThreadHead
_first.restype, _first.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
_next = _api.PyThreadState_Next
_next.restype, _next.argtypes = ctypes.c_void_p, [ctypes.c_void_p]
_clear = _api.PyThreadState_Clear
_clear.restype, _clear.argtypes = None, [ctypes.c_void_p]
_delete = _api.PyThreadState_Delete
_delete.restype, _delete.argtypes = None, [ctypes.c_void_p]

#: Only where a thread's end can be seen (/proc/self/task) and the GIL guards thread states.
_DELETES = os.path.isdir("/proc/self/task") and getattr(sys, "_is_gil_enabled", lambda: True)()

#: The kept states: address -> (CPython's unique id of the state, the thread's kernel id).
_kept: Dict[int, Tuple[int, int]] = {}
_lock = threading.RLock()  # a state's finalizers may close a thread loop


def keep_this_thread_state() -> None:
    """On the first callback of a thread: keeps its thread state if Python did not start the
    thread (then CPython deletes it when the thread ends)."""
    thread = threading._active.get(threading.get_ident())  # type: ignore[attr-defined]
    if thread is not None and not isinstance(thread, threading._DummyThread):
        return
    _ensure()  # never released: the state lives until delete_ended_thread_states finds it ended
    state = _current()
    with _lock:
        _delete_ended()
        _kept[state] = (_state_id(state), threading.get_native_id())


def delete_ended_thread_states() -> None:
    """Deletes the kept states of threads that have ended."""
    if _kept:
        with _lock:
            _delete_ended()


def _delete_ended() -> None:
    if not _DELETES:
        return
    for state, (unique, native) in list(_kept.items()):
        if os.path.exists("/proc/self/task/%d" % native):
            continue  # still running (or its kernel id was given to a new thread: later, then)
        del _kept[state]
        if _is_listed(state, unique):  # not deleted by CPython (a thread Python started)
            _clear(state)
            _delete(state)


def _is_listed(state: int, unique: int) -> bool:
    other = _first(_interpreter())
    while other:
        if other == state:
            return bool(_state_id(other) == unique)  # the same address may hold a newer state
        other = _next(other)
    return False


def _forked() -> None:
    global _lock
    _kept.clear()  # CPython deleted the states of the parent's other threads
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)
