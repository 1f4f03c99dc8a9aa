"""Loops, the base object class, subscriptions, host-service requests, and the C callbacks.

Ownership and lifetime
----------------------
* A :class:`Loop` or :class:`MvvmObject` owns one handle. ``close()`` releases it once (a second
  ``close()`` does nothing); ``with`` closes it; garbage collection releases it through a
  ``weakref.finalize`` (which also runs at interpreter exit, before the library is unloaded).
  Any use after ``close()`` raises :class:`~mvvm.ClosedError`.
* A finalizer that runs while this thread is inside a libmvvm callback (garbage collection can
  run anywhere) does not call into the library there: the release is queued and done by the
  next call this thread or another makes from outside a callback, or at interpreter exit. An
  explicit ``close()`` always releases at once, also from a callback (the C API allows it).
* Objects keep their loop, children their parent, view models their models: nothing is
  released under something that needs it.

Callbacks
---------
One ``CFUNCTYPE`` instance per C callback type is made at import: events, destroy functions and
host-service requests. The ``user_data`` given to C is an integer key into :data:`registry`, which
holds the Python callable until the library runs the destroy function for that key. So a
callback stays alive as long as C may call it, whether or not anyone keeps the
:class:`Subscription`; and a callback that closes over its source keeps the source alive until
it is unsubscribed (or the source or its loop is closed).

An exception raised by a callback or a service is reported to ``sys.unraisablehook`` with a
message naming the callback; the library carries on. ``KeyboardInterrupt`` and ``SystemExit``
are not swallowed: the library finishes the C call it is in (so its objects stay consistent and
the other subscribers hear the change), then the Python call that entered the library on that
thread raises it. On a thread of the library's own (a thread loop's), where no Python call is
waiting, they are reported like any exception. :meth:`Loop.run_for` waits in short slices, so
Ctrl-C stops it promptly.

Objects own C handles: copying or pickling one raises ``TypeError`` (a copy would share the
handle, and a pickle would name a handle of another process).
"""

from __future__ import annotations

import atexit
import collections
import ctypes
import enum
import functools
import itertools
import json
import sys
import threading
import time
import weakref
from ctypes import byref, c_bool, c_char_p, c_double, c_int, c_int64, c_void_p
from typing import (
    Any,
    Callable,
    ClassVar,
    Deque,
    Dict,
    List,
    Optional,
    Tuple,
    Type,
    TypeVar,
    Union,
)

from . import _lib
from ._errors import (
    ClosedError,
    InternalError,
    InvalidArgumentError,
    InvalidHandleError,
    MvvmError,
    TypeMismatchError,
    UnknownRequestError,
)
from ._lib import CALLBACK, DESTROY_FN, REQUEST_FN, FlatEvent, Value, lib

__all__ = [
    "LoopKind",
    "Loop",
    "MvvmObject",
    "Subscription",
    "Request",
    "Scalar",
    "EventCallback",
    "registry",
    "in_callback",
    "release_pending",
]

#: What a property, a command argument or a signal payload holds, in Python.
Scalar = Union[bool, int, float, str, None]
#: ``fn(name, value)``: a subscriber.
EventCallback = Callable[[str, Scalar], Any]

T = TypeVar("T")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

# ------------------------------------------------------------------------------------------------
# Callback depth and deferred releases
# ------------------------------------------------------------------------------------------------

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


# ------------------------------------------------------------------------------------------------
# Values and strings
# ------------------------------------------------------------------------------------------------


def _encode(text: Any, what: str) -> bytes:
    """A Python string as NUL-terminated UTF-8 for C, or a clear error before reaching C."""
    if not isinstance(text, str):
        raise TypeMismatchError("%s must be a str, not %s" % (what, type(text).__name__))
    if "\x00" in text:
        raise InvalidArgumentError("%s contains a NUL character (index %d), which C strings cannot hold"
                                   % (what, text.index("\x00")))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidArgumentError("%s is not valid Unicode: cannot encode %r at index %d as UTF-8 (%s)"
                                   % (what, text[error.start:error.end], error.start, error.reason)) from None


def _decode(raw: Optional[bytes], what: str, *what_arguments: Any) -> str:
    """UTF-8 from C as a Python string; invalid UTF-8 raises InternalError (never crashes).
    ``what % what_arguments`` names the string in errors, formatted only then."""
    if raw is not None:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as error:
            problem = "the library gave invalid UTF-8 (%s)" % error
    else:
        problem = "the library gave a NULL string"
    raise InternalError("%s: %s" % (what % what_arguments if what_arguments else what, problem))


def _take_string(pointer: c_void_p, what: str) -> str:
    """Copies and frees a string the library allocated."""
    address = pointer.value
    if not address:
        raise InternalError("%s: the library gave a NULL string" % what)
    try:
        raw = ctypes.string_at(address)
    finally:
        lib.mvvm_string_free(address)
    return _decode(raw, what)


def _value_from_c(value: Union[Value, FlatEvent], what: str, *what_arguments: Any) -> Scalar:
    """A value from C; ``what % what_arguments`` names it in errors (formatted only then: this
    runs for every event)."""
    kind = value.type
    if kind == _lib.TYPE_NONE:
        return None
    if kind == _lib.TYPE_BOOL:
        return bool(value.boolean)
    if kind == _lib.TYPE_INT:
        return int(value.integer)
    if kind == _lib.TYPE_DOUBLE:
        return float(value.number)
    if kind == _lib.TYPE_STRING:
        return _decode(value.string, what, *what_arguments)
    raise InternalError("%s: unknown mvvm_type %d" % (what % what_arguments if what_arguments else what, kind))


def _value_to_c(value: Scalar, what: str) -> Value:
    """A Python value as an ``mvvm_value`` (the struct keeps its encoded string alive)."""
    result = Value()
    if value is None:
        result.type = _lib.TYPE_NONE
    elif isinstance(value, bool):
        result.type, result.boolean = _lib.TYPE_BOOL, value
    elif isinstance(value, int):
        result.type, result.integer = _lib.TYPE_INT, _check_int64(value, what)
    elif isinstance(value, float):
        result.type, result.number = _lib.TYPE_DOUBLE, value
    elif isinstance(value, str):
        result.type, result.string = _lib.TYPE_STRING, _encode(value, what)
    else:
        raise TypeMismatchError("%s must be bool, int, float, str or None, not %s" % (what, type(value).__name__))
    return result


def _check_int64(value: int, what: str) -> int:
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise InvalidArgumentError("%s is out of the int64 range: %d" % (what, value))
    return value


def _check_typed(type_name: str, value: Any, what: str) -> Any:
    """Checks (and converts) a value for a property of ``type_name``, before C."""
    if type_name == "bool":
        if not isinstance(value, bool):
            raise TypeMismatchError("%s is a bool property, not %s" % (what, type(value).__name__))
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeMismatchError("%s is an int property, not %s" % (what, type(value).__name__))
        return _check_int64(value, what)
    if type_name == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeMismatchError("%s is a double property, not %s" % (what, type(value).__name__))
        return float(value)
    if type_name == "string":
        return _encode(value, what)
    raise InternalError("%s: unknown property type %r" % (what, type_name))


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


def _deliver(user_data: Optional[int], event_address: Optional[int]) -> None:
    """Hands one event to its Python callable. This runs for every event, so it reads the event
    with one ctypes object and formats nothing unless something is wrong."""
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
            name = _event_names[raw_name] = _decode(raw_name, "event name")  # type: ignore[index]
        value = _value_from_c(event, "value of %r", name)  # FlatEvent has Value's fields
        entry.fn(name, value)
    except BaseException as exc:
        _report_unless_interrupt(exc, "Exception ignored in mvvm callback %s (subscribed to %s)"
                % (_callable_name(entry.fn), entry.what), entry.fn)


def _on_event(source: int, event_address: Optional[int], user_data: Optional[int]) -> None:
    _enter()
    try:
        _deliver(user_data, event_address)
    finally:
        _leave()


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
        entry.fn(made)
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


# ------------------------------------------------------------------------------------------------
# Loops
# ------------------------------------------------------------------------------------------------


def _refuse_copy(obj: Any) -> TypeError:
    return TypeError("cannot copy or pickle %s: it owns a handle of the C library, which a copy would "
                     "share (closing one would kill the other) and another process cannot use; "
                     "pass the object itself, or create a new one" % type(obj).__name__)


class _NotCopyable:
    """Refuses ``copy.copy``, ``copy.deepcopy`` and ``pickle`` with a TypeError, as GObject does."""

    __slots__ = ()

    def __copy__(self) -> Any:
        raise _refuse_copy(self)

    def __deepcopy__(self, memo: Any) -> Any:
        raise _refuse_copy(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise _refuse_copy(self)

    def __reduce__(self) -> Any:
        raise _refuse_copy(self)


class LoopKind(enum.IntEnum):
    """``mvvm_loop_kind``."""

    MANUAL = _lib.LOOP_MANUAL
    THREAD = _lib.LOOP_THREAD
    VIRTUAL = _lib.LOOP_VIRTUAL


_live_loops: "weakref.WeakSet[Loop]" = weakref.WeakSet()


class Loop(_NotCopyable):
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
        self._handle: int = out.value
        self._finalizer = weakref.finalize(self, _release_soon, self._handle)
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

    def _h(self) -> int:
        handle = self._handle
        if not handle:
            raise ClosedError("the %s loop is closed" % self.kind.name.lower())
        if _pending:
            release_pending()
        return handle

    @property
    def handle(self) -> int:
        """The C handle (raises ClosedError once closed)."""
        return self._h()

    @property
    def closed(self) -> bool:
        return not self._handle

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
        deadline = time.monotonic() + ms / 1000.0
        while True:
            left = int((deadline - time.monotonic()) * 1000.0 + 0.999)
            if left <= 0:
                return
            lib.mvvm_loop_run_for(self._h(), min(left, self.RUN_SLICE_MS))

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
        if self._finalizer.detach() is not None:
            handle, self._handle = self._handle, 0
            _release_now(handle)
        _live_loops.discard(self)

    def __enter__(self) -> "Loop":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "handle=0x%x" % self._handle
        return "<mvvm.Loop %s %s>" % (self.kind.name.lower(), state)


def _check_ms(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise TypeMismatchError("milliseconds must be an int, not %s" % type(ms).__name__)
    return _check_int64(ms, "milliseconds")


# ------------------------------------------------------------------------------------------------
# Objects
# ------------------------------------------------------------------------------------------------

_CLASSES: Dict[str, Type["MvvmObject"]] = {}
_DESCRIPTIONS: Dict[str, Dict[str, Any]] = {}
_DESCRIPTIONS_LOCK = threading.Lock()


class MvvmObject(_NotCopyable):
    """Base of every catalog class: an owned handle on a loop, with generic access.

    ``get``/``set``/``send``/``child``/``subscribe`` work by name on any class; the classes
    made from the library's descriptions (``_dynamic``) add Python properties, methods and
    children over the same generic calls.
    """

    __slots__ = ("_handle", "_loop", "_refs", "_children", "_finalizer", "__weakref__")

    #: The C class name, such as ``"sign_up_view_model"``.
    c_class: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("c_class"):
            _CLASSES.setdefault(cls.c_class, cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("%s cannot be constructed directly" % type(self).__name__)

    # -- ownership ---------------------------------------------------------------------------

    def _adopt(self, handle: int, loop: Loop, refs: Tuple[Any, ...] = ()) -> None:
        self._handle: int = handle
        self._loop: Loop = loop
        self._refs: Tuple[Any, ...] = refs  # parent, models: kept alive while this lives
        self._children: Dict[str, MvvmObject] = {}
        self._finalizer = weakref.finalize(self, _release_soon, handle)

    @classmethod
    def _wrap(cls, handle: int, loop: Loop, refs: Tuple[Any, ...] = ()) -> "MvvmObject":
        """Wraps a new handle in the Python class of its C class (it owns the handle)."""
        try:
            name = c_char_p()
            lib.mvvm_class_name(handle, byref(name))
            kind = _CLASSES.get(_decode(name.value, "class name"), cls)
        except BaseException:
            _release_now(handle)
            raise
        obj = kind.__new__(kind)
        obj._adopt(handle, loop, refs)
        return obj

    def _h(self) -> int:
        handle = self._handle
        if not handle:
            raise ClosedError("this %s is closed" % type(self).__name__)
        if _pending:
            release_pending()
        return handle

    @property
    def handle(self) -> int:
        """The C handle (raises ClosedError once closed)."""
        return self._h()

    @property
    def loop(self) -> Loop:
        return self._loop

    @property
    def closed(self) -> bool:
        """Whether it was closed, or its loop was (then only ``close()`` works)."""
        return not self._handle or self._loop.closed

    def close(self) -> None:
        """Releases the handle (once; again does nothing): its subscriptions end, its pending
        requests are cancelled, and the children handed out by its attributes are closed too."""
        children, self._children = self._children, {}
        for child in children.values():
            child.close()
        if self._finalizer.detach() is not None:
            handle, self._handle = self._handle, 0
            _release_now(handle)

    def __enter__(self: T) -> T:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "handle=0x%x" % self._handle
        return "<mvvm.%s %s>" % (type(self).__name__, state)

    # -- introspection ------------------------------------------------------------------------

    @property
    def class_name(self) -> str:
        """The C class name, as the library says (``mvvm_class_name``)."""
        name = c_char_p()
        lib.mvvm_class_name(self._h(), byref(name))
        return _decode(name.value, "class name")

    def describe(self) -> Dict[str, Any]:
        """What the class offers: ``{"class", "properties", "commands", "signals", "children"}``."""
        out = c_void_p()
        lib.mvvm_describe(self._h(), byref(out))
        described: Dict[str, Any] = json.loads(_take_string(out, "describe"))
        return described

    def snapshot(self) -> Dict[str, Scalar]:
        """Every property's current value."""
        out = c_void_p()
        lib.mvvm_snapshot(self._h(), byref(out))
        values: Dict[str, Scalar] = json.loads(_take_string(out, "snapshot"))
        return values

    def _property_types(self) -> Dict[str, Tuple[str, str]]:
        """``{name: (type, access)}`` from the library's description of this class (cached)."""
        key = self.c_class or self.class_name
        description = _DESCRIPTIONS.get(key)
        if description is None:
            described = self.describe()
            description = {p["name"]: (p["type"], p["access"]) for p in described.get("properties", [])}
            with _DESCRIPTIONS_LOCK:
                _DESCRIPTIONS.setdefault(key, description)
        return description

    # -- generic access -----------------------------------------------------------------------

    def get(self, name: str) -> Scalar:
        """The value of the property ``name`` (``mvvm_get_<type>``)."""
        handle = self._h()
        encoded = _encode(name, "property name")
        kind = self._property_types().get(name, ("bool", "?"))[0]  # unknown: let C say so
        return _get_generic(handle, encoded, kind, name)

    def set(self, name: str, value: Scalar) -> None:
        """Sets the binding ``name`` (``mvvm_set_<type>``); the library refuses outputs."""
        handle = self._h()
        encoded = _encode(name, "property name")
        known = self._property_types().get(name)
        what = "%s.%s" % (type(self).__name__, name)
        if known is None:  # unknown: let C say so, with a setter matching the value
            kind = {bool: "bool", int: "int", float: "double", str: "string"}.get(type(value), "string")
        else:
            kind = known[0]
        checked = _check_typed(kind, value, what)
        setter = {"bool": lib.mvvm_set_bool, "int": lib.mvvm_set_int,
                  "double": lib.mvvm_set_double, "string": lib.mvvm_set_string}[kind]
        setter(handle, encoded, checked)

    def send(self, command: str, argument: Scalar = None) -> None:
        """Sends ``command`` with ``argument`` (None when it takes none) (``mvvm_send``)."""
        handle = self._h()
        encoded = _encode(command, "command name")
        if argument is None:
            lib.mvvm_send(handle, encoded, None)
        else:
            value = _value_to_c(argument, "argument of %s" % command)
            lib.mvvm_send(handle, encoded, byref(value))

    def child(self, name: str) -> "MvvmObject":
        """A new object for the child ``name`` (``mvvm_child``), owned by the caller; it keeps
        this object alive. The attribute form (``vm.display``) is cached and closed with this."""
        handle = self._h()
        out = _lib.Handle()
        lib.mvvm_child(handle, _encode(name, "child name"), byref(out))
        return MvvmObject._wrap(out.value, self._loop, (self,))

    def _cached_child(self, name: str, function: Callable[..., int]) -> "MvvmObject":
        existing = self._children.get(name)
        if existing is not None and not existing.closed:
            return existing
        out = _lib.Handle()
        function(self._h(), byref(out))
        made = MvvmObject._wrap(out.value, self._loop, (self,))
        kept = self._children.setdefault(name, made)
        if kept is not made:
            if kept.closed:
                self._children[name] = kept = made
            else:
                made.close()
        return kept

    # -- notifications ------------------------------------------------------------------------

    def subscribe(self, name: Optional[str], fn: EventCallback, *,
                  on_end: Optional[Callable[[], Any]] = None) -> "Subscription":
        """Calls ``fn(name, value)`` for each change of the property or signal ``name`` (None:
        every property and signal), with the new value as a Python object. Returns the
        :class:`Subscription`; the callback stays subscribed even if it is not kept.
        ``on_end()``, when given, is called once when the subscription ends (unsubscribed, or
        its object or loop closed), possibly on the loop's thread."""
        if not callable(fn):
            raise TypeError("the callback must be callable, not %s" % type(fn).__name__)
        handle = self._h()
        encoded = None if name is None else _encode(name, "property or signal name")
        what = "%s of %s" % ("every change" if name is None else repr(name), type(self).__name__)
        key = registry.add(_Entry(fn, what, on_end=on_end))
        out = _lib.Handle()
        try:
            lib.mvvm_subscribe(handle, encoded, _EVENT_TRAMPOLINE, key, _DESTROY_TRAMPOLINE, byref(out))
        except BaseException:
            registry.pop(key)  # if the library did not run the destroy function already
            raise
        return Subscription(self, name, out.value, key)


def _get_generic(handle: int, encoded: bytes, kind: str, name: str) -> Scalar:
    if kind == "bool":
        flag = c_bool()
        lib.mvvm_get_bool(handle, encoded, byref(flag))
        return flag.value
    if kind == "int":
        number = c_int64()
        lib.mvvm_get_int(handle, encoded, byref(number))
        return number.value
    if kind == "double":
        real = c_double()
        lib.mvvm_get_double(handle, encoded, byref(real))
        return real.value
    if kind == "string":
        text = c_void_p()
        lib.mvvm_get_string(handle, encoded, byref(text))
        return _take_string(text, name)
    raise InternalError("%s: unknown property type %r" % (name, kind))


class Subscription(_NotCopyable):
    """A subscription of a callback to an object. ``unsubscribe()`` (or leaving ``with``) ends
    it; it also ends when its object or the object's loop is closed. Not ended by garbage
    collection: dropping the Subscription keeps the callback subscribed."""

    __slots__ = ("source", "name", "_handle", "_key", "__weakref__")

    def __init__(self, source: MvvmObject, name: Optional[str], handle: int, key: int) -> None:
        self.source: MvvmObject = source
        self.name: Optional[str] = name
        self._handle = handle
        self._key = key

    @property
    def handle(self) -> int:
        return self._handle

    @property
    def active(self) -> bool:
        """Whether the library may still call the callback (its destroy function has not run)."""
        return self._key in registry

    def unsubscribe(self) -> None:
        """Ends the subscription; the callback is not called again. Idempotent."""
        if self._key not in registry:
            return
        try:
            lib.mvvm_unsubscribe(self._handle)
        except InvalidHandleError:
            pass  # ended meanwhile (its object or loop was released)

    close = unsubscribe

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.unsubscribe()

    def __repr__(self) -> str:
        return "<mvvm.Subscription %r of %r %s>" % (self.name, self.source,
                                                    "active" if self.active else "ended")


# ------------------------------------------------------------------------------------------------
# Host-service requests
# ------------------------------------------------------------------------------------------------


class Request(_NotCopyable):
    """A question a view model asks the host's service. Answer once with :meth:`complete`:
    at once inside the service, later, from any thread, or from asyncio. A request nobody
    keeps and nobody answered is cancelled when it is garbage-collected."""

    __slots__ = ("_handle", "_done", "_finalizer", "view_model", "argument", "__weakref__")

    def __init__(self, handle: int, view_model: Optional[MvvmObject], argument: Scalar) -> None:
        self._handle = handle
        self._done = False
        #: The Python view model that asked (kept alive while the request lives).
        self.view_model: Optional[MvvmObject] = view_model
        #: The argument the library passed (sign-up: the user id; welcome: None).
        self.argument: Scalar = argument
        self._finalizer = weakref.finalize(self, _release_soon, handle)

    @classmethod
    def _make(cls, view_model_handle: int, handle: int, argument: Scalar,
              view_model: Optional[MvvmObject]) -> "Request":
        return cls(handle, view_model, argument)

    @property
    def handle(self) -> int:
        return self._handle

    @property
    def done(self) -> bool:
        """Answered or cancelled."""
        return self._done

    def complete(self, result: Scalar) -> None:
        """Answers the request (``mvvm_complete``). Raises UnknownRequestError if it was
        answered, cancelled, or its view model closed; TypeMismatchError (the request stays
        open) for an answer of the wrong type."""
        value = _value_to_c(result, "the answer")
        if _pending:
            release_pending()
        try:
            lib.mvvm_complete(self._handle, byref(value))
        except (UnknownRequestError, InvalidHandleError):
            self._done = True
            self._finalizer.detach()
            raise
        self._done = True
        self._finalizer.detach()

    def cancel(self) -> None:
        """Cancels the request (releases it); its answer is never awaited. Idempotent."""
        self._done = True
        if self._finalizer.detach() is not None:
            _release_now(self._handle)

    def __repr__(self) -> str:
        return "<mvvm.%s argument=%r %s>" % (type(self).__name__, self.argument, "done" if self._done else "open")


# ------------------------------------------------------------------------------------------------
# Interpreter exit
# ------------------------------------------------------------------------------------------------


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

