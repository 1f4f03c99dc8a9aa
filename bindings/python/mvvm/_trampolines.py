"""The C-callable functions the bindings make, once, for every library: events, destroy
functions, host-service requests and the ends of asynchronous calls. Each finds its Python
callable in the registry by the ``user_data`` key; each counts the callback depth of its thread;
none lets an exception into C (:func:`~mvvm._report.report`, or kept for the caller when it is
an interrupt).

With the fast path (:mod:`mvvm._fastpath`), the event and completion trampolines are the C
extension's: they take the GIL as a ctypes callback does, read the plain scalars themselves and
hand the rest to the helpers here (:func:`_event_of`, :func:`_event_failed`, :func:`_finish_call`),
which the ctypes trampolines use too; destroy functions and requests stay ctypes'."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional, Tuple

from ._abi import (CALLBACK, DESTROY_FN, DONE_FN, EVENT_SPLICE, REQUEST_FN, TYPE_BOOL, TYPE_DOUBLE, TYPE_INT,
                   TYPE_STRING, FlatEvent, Status, Value)
from ._errors import InternalError
from ._fastpath import fast
from ._interrupts import enter_callback, keep_interrupt, leave_callback, state
from ._library import _libraries
from ._registry import registry
from ._report import callable_name, report
from ._splices import Splice
from ._threadstates import keep_this_thread_state
from ._values import decode, from_c

__all__ = ["EVENT_TRAMPOLINE", "DESTROY_TRAMPOLINE", "REQUEST_TRAMPOLINE", "DONE_TRAMPOLINE"]


def _report_unless_interrupt(exc: BaseException, message: str, obj: Any) -> None:
    if not keep_interrupt(exc):
        report(exc, message, obj)


#: Event names by address: the library's names are a few static strings.
_event_names: Dict[int, str] = {}

#: A view of the event at each address the library has given one at (an ``mvvm_event`` lives
#: on the stack of the thread that delivers it, so a few addresses recur): a view reads the
#: memory when its fields are read, so one serves every event at its address. Bounded.
_event_views: Dict[int, FlatEvent] = {}
_EVENT_VIEWS_MAX = 64

#: The registry's entries, read directly: the event's one look-up.
_entries = registry.entries
_string_at = ctypes.string_at


def _event_name(address: Optional[int]) -> str:
    if not address:
        raise InternalError("the library gave an event with a NULL name")
    name = decode(ctypes.string_at(address), "an event name")
    _event_names[address] = name
    return name


def _on_event(source: int, event_address: Optional[int], user_data: Optional[int],
              state: Any = state, _entries: Dict[int, Any] = _entries, _event_views: Dict[int, FlatEvent] = _event_views,
              _event_names: Dict[int, str] = _event_names, EVENT_SPLICE: int = EVENT_SPLICE, TYPE_INT: int = TYPE_INT,
              TYPE_BOOL: int = TYPE_BOOL, TYPE_DOUBLE: int = TYPE_DOUBLE) -> None:
    """Hands one event to its Python callable. This runs for every event, so it is one function
    (no helper calls on the common path), reads the event with one ctypes object, formats
    nothing unless something is wrong, and finds what it uses every time as locals (the
    defaults above: C calls it with the first three arguments only)."""
    depth = state.depth
    if depth < 0:  # the thread's first callback
        keep_this_thread_state()
        depth = 0
    state.depth = depth + 1
    try:
        entry = _entries.get(user_data) if user_data else None
        if entry is None:
            registry.late_calls += 1
            return
        try:
            event = _event_views.get(event_address)  # type: ignore[arg-type]
            if event is None:
                if not event_address:
                    raise InternalError("the library gave a NULL event")
                event = FlatEvent.from_address(event_address)
                if len(_event_views) < _EVENT_VIEWS_MAX:
                    _event_views[event_address] = event
            name = _event_names.get(event.name) or _event_name(event.name)
            value: Any
            if event.kind == EVENT_SPLICE:
                value = Splice(event.index, event.removed, event.inserted)
            else:
                # The plain scalars inline; the rest (and a NULL string) as every value is read.
                kind = event.type
                if kind == TYPE_INT:
                    value = event.integer
                elif kind == TYPE_BOOL:
                    value = event.boolean
                elif kind == TYPE_DOUBLE:
                    value = event.number
                elif kind == TYPE_STRING and event.string:
                    value = decode(_string_at(event.string, event.integer), "a string")
                else:
                    value = from_c(event, entry.library)  # FlatEvent has Value's fields
            entry.fn(name, value)
        except BaseException as exc:
            _event_failed(exc, entry)
    finally:
        state.depth = depth  # as it was: the callbacks nested in this one restored theirs


def _event_of(event_address: Optional[int], library: Any) -> Tuple[str, Any]:
    """The name and value of the event at ``event_address``, read as :func:`_on_event` reads it:
    what the C trampoline does not read itself (a splice, a value of another kind, a name or string
    that is not UTF-8, a NULL event or name, which raise InternalError)."""
    if not event_address:
        raise InternalError("the library gave a NULL event")
    event = FlatEvent.from_address(event_address)
    name = _event_names.get(event.name) or _event_name(event.name)
    if event.kind == EVENT_SPLICE:
        return name, Splice(event.index, event.removed, event.inserted)
    return name, from_c(event, library)


def _event_failed(exc: BaseException, entry: Any) -> None:
    """What delivering an event to ``entry`` raised: reported, or an interrupt kept for the caller."""
    _report_unless_interrupt(exc, "Exception ignored in mvvm callback %s (subscribed to %s)"
                             % (callable_name(entry.fn), entry.what), entry.fn)


def _late_call() -> None:
    registry.late_calls += 1


def _on_destroy(user_data: Optional[int]) -> None:
    enter_callback()
    try:
        entry = registry.pop(user_data)
        if entry is not None and entry.on_end is not None:
            try:
                entry.on_end()
            except BaseException as exc:
                _report_unless_interrupt(exc, "Exception ignored in the end hook of mvvm callback %s (subscribed to %s)"
                                         % (callable_name(entry.fn), entry.what), entry.on_end)
        del entry  # the callable may be freed here: its finalizers see in_callback()
    finally:
        leave_callback()


def _cancel_anywhere(request: int) -> None:
    """Cancels a request whose service is gone: its library is whichever takes its handle (the
    others refuse a handle of another library)."""
    for library in list(_libraries.values()):
        library.release_quietly(request)


def _serve(view_model: int, request: int, argument_address: Optional[int], user_data: Optional[int]) -> None:
    entry = registry.get(user_data)
    if entry is None or entry.make_request is None:
        registry.late_calls += 1
        _cancel_anywhere(request)  # no one to answer it
        return
    try:
        argument = from_c(Value.from_address(argument_address), entry.library) if argument_address else None
        owner = entry.owner() if entry.owner is not None else None
        made = entry.make_request(entry.library, view_model, request, argument, owner)
    except BaseException as exc:
        entry.library.release_quietly(request)
        report(exc, "Exception ignored while making the request for mvvm service %s (%s)"
               % (callable_name(entry.fn), entry.what), entry.fn)
        return
    try:
        result = entry.fn(made)
        if result is not None:  # a plain answer, or an awaitable (async def) giving it
            made._answer(result, "mvvm service %s (%s)" % (callable_name(entry.fn), entry.what))
    except BaseException as exc:
        _report_unless_interrupt(exc, "Exception ignored in mvvm service %s (%s)"
                                 % (callable_name(entry.fn), entry.what), entry.fn)


def _on_request(view_model: int, request: int, argument_address: Optional[int], user_data: Optional[int]) -> None:
    enter_callback()
    try:
        _serve(view_model, request, argument_address, user_data)
    finally:
        leave_callback()


def _finish_call(entry: Any, status: int, result_address: Optional[int], message: Optional[bytes]) -> None:
    """Ends an asynchronous call: its result read now (the library's, valid during the completion
    only), or its error, handed to its :class:`~mvvm.AsyncCall`."""
    result: Any = None
    error: Optional[BaseException] = None
    if status == Status.OK and result_address:
        try:
            result = from_c(Value.from_address(result_address), entry.library)
        except Exception as exc:  # what cannot be read (InternalError) ends the call
            error = exc
    try:
        entry.fn(status, result, message, error)
    except BaseException as exc:
        _report_unless_interrupt(exc, "Exception ignored in the completion of mvvm call %s" % entry.what, entry.fn)


def _on_done(call: int, status: int, result_address: Optional[int], message: Optional[bytes],
             user_data: Optional[int]) -> None:
    """``mvvm_done_fn``, once per call: :func:`_finish_call` of its entry."""
    enter_callback()
    try:
        entry = registry.get(user_data)
        if entry is None:
            registry.late_calls += 1
            return
        _finish_call(entry, status, result_address, message)
    finally:
        leave_callback()


# The only C-callable function pointers the bindings make, kept for the process's life: with the
# fast path, the event's and the completion's are the C extension's.
if fast is not None:
    fast.configure(entries=_entries, keep_this_thread_state=keep_this_thread_state, late_call=_late_call,
                   event_of=_event_of, event_failed=_event_failed, finish_call=_finish_call)
    EVENT_TRAMPOLINE = CALLBACK(fast.EVENT_TRAMPOLINE)
    DONE_TRAMPOLINE = DONE_FN(fast.DONE_TRAMPOLINE)
else:
    EVENT_TRAMPOLINE = CALLBACK(_on_event)
    DONE_TRAMPOLINE = DONE_FN(_on_done)
DESTROY_TRAMPOLINE = DESTROY_FN(_on_destroy)
REQUEST_TRAMPOLINE = REQUEST_FN(_on_request)
