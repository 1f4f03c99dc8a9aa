"""The C callbacks: the registry of Python callables C may call, the three trampolines (events,
destroy functions, host-service requests), the callback depth of each thread, releases deferred
out of callbacks, and how a callback's exception is reported.

One ``CFUNCTYPE`` instance per C callback type is made at import: events, destroy functions and
host-service requests. The ``user_data`` given to C is an integer key into :data:`registry`, which
holds the Python callable until the library runs the destroy function for that key. So a
callback stays alive as long as C may call it, whether or not anyone keeps the
:class:`~mvvm.Subscription`; and a callback that closes over its source keeps the source alive
until it is unsubscribed (or the source or its loop is closed).

An exception raised by a callback or a service is reported to ``sys.unraisablehook`` with a
message naming the callback; the library carries on. ``KeyboardInterrupt`` and ``SystemExit``
are not swallowed: the library finishes the C call it is in (so its objects stay consistent and
the other subscribers hear the change), then the Python call that entered the library on that
thread raises it. On a thread of the library's own (a thread loop's), where no Python call is
waiting, they are reported like any exception.

A finalizer that runs while this thread is inside a libmvvm callback (garbage collection can
run anywhere) does not call into the library there: the release is queued and done by the next
call this thread or another makes from outside a callback, or at interpreter exit.
"""

from __future__ import annotations

import collections
import functools
import itertools
import sys
import threading
import weakref
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Optional, Type

from . import _lib
from ._errors import InternalError, MvvmError
from ._lib import CALLBACK, DESTROY_FN, REQUEST_FN, FlatEvent, lib
from ._list import Splice
from ._values import Scalar, _decode, _value_from_c

if TYPE_CHECKING:
    from ._object import MvvmObject
    from ._requests import Request

__all__ = ["EventCallback", "registry", "in_callback", "release_pending"]

#: ``fn(name, value)``: a subscriber.
EventCallback = Callable[[str, Scalar], Any]


class _State(threading.local):
    depth = 0  # per thread: how many libmvvm callbacks are running on it
    interrupt: Optional[BaseException] = None  # a callback's KeyboardInterrupt/SystemExit, to re-raise


_state = _State()
_pending: Deque[Callable[[], Any]] = collections.deque()


def in_callback() -> bool:
    """Whether this thread is running inside a libmvvm callback (event, destroy or request)."""
    return _state.depth > 0


def _enter() -> None:
    _state.depth += 1


def _leave() -> None:
    _state.depth -= 1


def _keep_interrupt(exc: BaseException) -> bool:
    """In a callback: keeps a KeyboardInterrupt or SystemExit for the Python call that entered
    the library on this thread to raise once C returns; whether it was kept (false for other
    exceptions, and on a thread of the library's own, where no Python call waits)."""
    if not isinstance(exc, (KeyboardInterrupt, SystemExit)):
        return False
    if isinstance(threading.current_thread(), threading._DummyThread):  # a loop's own thread
        return False
    if _state.interrupt is None:
        _state.interrupt = exc
        _lib.interrupts_pending += 1
    return True


def _reraise_interrupt() -> None:
    """Raises this thread's kept interrupt, once the outermost call into the library returned."""
    exc = _state.interrupt
    if exc is None or _state.depth > 0:
        return
    _state.interrupt = None
    _lib.interrupts_pending -= 1
    raise exc


_lib.reraise_interrupt = _reraise_interrupt


def _report_unless_interrupt(exc: BaseException, message: str, obj: Any) -> None:
    if not _keep_interrupt(exc):
        _report(exc, message, obj)


def _release_now(handle: int) -> None:
    try:
        lib.mvvm_release(handle)
    except MvvmError:
        pass  # released already (by its loop, or completed): nothing left to do


def _release_soon(handle: int) -> None:
    """A finalizer's release: at once, unless this thread is inside a callback."""
    if in_callback():
        _pending.append(functools.partial(_release_now, handle))
    else:
        _release_now(handle)
        if _pending:
            release_pending()


def release_pending() -> int:
    """Releases the handles whose finalizers ran inside callbacks; returns how many.

    Called automatically by every call into the library made outside a callback."""
    if in_callback():
        return 0
    count = 0
    while True:
        try:
            work = _pending.popleft()
        except IndexError:
            return count
        try:
            work()
        except BaseException as exc:
            _report(exc, "Exception ignored in a deferred mvvm release", work)
        count += 1

def _callable_name(fn: Any) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    module = getattr(fn, "__module__", None)
    if name is None:
        return repr(fn)
    return "%s.%s" % (module, name) if module else name


# ------------------------------------------------------------------------------------------------
# Unraisable exceptions
# ------------------------------------------------------------------------------------------------


def _unraisable_args_type() -> Any:
    """``sys.UnraisableHookArgs`` (not exposed by name before some versions): found by
    letting one unraisable exception through a temporary hook."""
    known = getattr(sys, "UnraisableHookArgs", None)
    if known is not None:
        return known
    seen: List[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = seen.append

    class _Probe:
        def __del__(self) -> None:
            raise RuntimeError("probe")

    try:
        _Probe()
    finally:
        sys.unraisablehook = previous
    if seen:
        kind = type(seen[0])
        try:
            kind((None, None, None, None, None))
            return kind
        except TypeError:
            pass
    return None


_UnraisableHookArgs = _unraisable_args_type()


class _FallbackUnraisableHookArgs:
    __slots__ = ("exc_type", "exc_value", "exc_traceback", "err_msg", "object")

    def __init__(self, exc_type: Any, exc_value: Any, exc_traceback: Any, err_msg: Any, obj: Any) -> None:
        self.exc_type, self.exc_value, self.exc_traceback = exc_type, exc_value, exc_traceback
        self.err_msg, self.object = err_msg, obj


def _report(exc: BaseException, message: str, obj: Any) -> None:
    """Reports an exception of a callback through ``sys.unraisablehook``; never raises."""
    try:
        hook = getattr(sys, "unraisablehook", None)
        if hook is None:
            return
        fields = (type(exc), exc, exc.__traceback__, message, obj)
        if _UnraisableHookArgs is not None:
            hook(_UnraisableHookArgs(fields))
        elif hook is getattr(sys, "__unraisablehook__", None):
            import traceback

            sys.stderr.write("%s: %r\n" % (message, obj))
            traceback.print_exception(type(exc), exc, exc.__traceback__)
        else:
            hook(_FallbackUnraisableHookArgs(*fields))
    except BaseException:
        pass

# ------------------------------------------------------------------------------------------------
# The registry and the trampolines
# ------------------------------------------------------------------------------------------------


class _Entry:
    __slots__ = ("fn", "what", "owner", "request_class", "on_end")

    def __init__(self, fn: Callable[..., Any], what: str, request_class: Optional[Type["Request"]] = None,
                 on_end: Optional[Callable[[], Any]] = None) -> None:
        self.fn = fn
        self.what = what
        self.on_end = on_end
        self.owner: Optional["weakref.ReferenceType[MvvmObject]"] = None
        self.request_class = request_class


class _Registry:
    """Integer keys (the C ``user_data``) to the Python callables C may still call.

    An entry is added before C is given its key and removed by the destroy function."""

    def __init__(self) -> None:
        self._entries: Dict[int, _Entry] = {}
        self._keys = itertools.count(1)  # never 0 (NULL), never reused
        #: Calls from C with a key whose destroy function already ran (or never issued): each one
        #: is a library bug (a callback called after its destroy function); the tests check it is 0.
        self.late_calls = 0

    def add(self, entry: _Entry) -> int:
        key = next(self._keys)
        self._entries[key] = entry
        return key

    def get(self, key: Optional[int]) -> Optional[_Entry]:
        return self._entries.get(key) if key else None

    def pop(self, key: Optional[int]) -> Optional[_Entry]:
        return self._entries.pop(key, None) if key else None

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> List[int]:
        return list(self._entries)


#: The callables C may still call, by key. Empty once every subscription and service has ended.
registry = _Registry()


#: Event names, decoded once: the library's names are a few static strings.
_event_names: Dict[bytes, str] = {}


def _on_event(source: int, event_address: Optional[int], user_data: Optional[int]) -> None:
    """Hands one event to its Python callable. This runs for every event, so it is one function
    (no helper calls), reads the event with one ctypes object and formats nothing unless
    something is wrong."""
    state = _state
    state.depth += 1  # what _enter() does
    try:
        entry = registry.get(user_data)
        if entry is None:
            registry.late_calls += 1
            return
        try:
            if not event_address:
                raise InternalError("the library gave a NULL event")
            event = FlatEvent.from_address(event_address)
            raw_name = event.name
            name = _event_names.get(raw_name) if raw_name is not None else None
            if name is None:
                name = _decode(raw_name, "event name")  # raises for a NULL name
                if raw_name is not None:
                    _event_names[raw_name] = name
            if event.kind == _lib.EVENT_SPLICE:
                value: Any = Splice(event.index, event.removed, event.inserted)
            else:
                value = _value_from_c(event, "value of %r", name)  # FlatEvent has Value's fields
            entry.fn(name, value)
        except BaseException as exc:
            _report_unless_interrupt(exc, "Exception ignored in mvvm callback %s (subscribed to %s)"
                    % (_callable_name(entry.fn), entry.what), entry.fn)
    finally:
        state.depth -= 1  # what _leave() does


def _drop(user_data: Optional[int]) -> None:
    entry = registry.pop(user_data)
    if entry is not None and entry.on_end is not None:
        try:
            entry.on_end()
        except BaseException as exc:
            _report_unless_interrupt(exc, "Exception ignored in the end hook of mvvm callback %s (subscribed to %s)"
                    % (_callable_name(entry.fn), entry.what), entry.on_end)
    del entry  # the callable may be freed here: its finalizers see in_callback()


def _on_destroy(user_data: Optional[int]) -> None:
    _enter()
    try:
        _drop(user_data)
    finally:
        _leave()


def _serve(view_model: int, request: int, argument_pointer: Any, user_data: Optional[int]) -> None:
    entry = registry.get(user_data)
    if entry is None or entry.request_class is None:
        registry.late_calls += 1
        _release_now(request)  # no one to answer it: cancel
        return
    try:
        argument = _value_from_c(argument_pointer[0], "request argument") if argument_pointer else None
        owner = entry.owner() if entry.owner is not None else None
        made = entry.request_class._make(view_model, request, argument, owner)
    except BaseException as exc:
        _release_now(request)
        _report(exc, "Exception ignored while making the request for mvvm service %s (%s)"
                % (_callable_name(entry.fn), entry.what), entry.fn)
        return
    try:
        result = entry.fn(made)
        if result is not None:  # a plain answer, or an awaitable (async def) giving it
            made._answer(result, "mvvm service %s (%s)" % (_callable_name(entry.fn), entry.what))
    except BaseException as exc:
        _report_unless_interrupt(exc, "Exception ignored in mvvm service %s (%s)" % (_callable_name(entry.fn), entry.what), entry.fn)


def _on_request(view_model: int, request: int, argument_pointer: Any, user_data: Optional[int]) -> None:
    _enter()
    try:
        _serve(view_model, request, argument_pointer, user_data)
    finally:
        _leave()


# The only C-callable function pointers the bindings make, once, kept for the process's life.
_EVENT_TRAMPOLINE = CALLBACK(_on_event)
_DESTROY_TRAMPOLINE = DESTROY_FN(_on_destroy)
_REQUEST_TRAMPOLINE = REQUEST_FN(_on_request)

