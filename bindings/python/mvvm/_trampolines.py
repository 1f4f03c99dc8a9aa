"""The C-callable functions the bindings make, once, for every library: events, destroy
functions, host-service requests and the ends of asynchronous calls. Each finds its Python
callable in the registry by the ``user_data`` key; each counts the callback depth of its thread;
none lets an exception into C (:func:`~mvvm._report.report`, or kept for the caller when it is
an interrupt)."""

from __future__ import annotations

import ctypes
from typing import Any, Dict, Optional

from ._abi import (CALLBACK, DESTROY_FN, DONE_FN, EVENT_SPLICE, REQUEST_FN, TYPE_BOOL, TYPE_DOUBLE, TYPE_INT,
                   TYPE_STRING, FlatEvent, Status, Value)
from ._errors import InternalError
from ._interrupts import keep_interrupt, state
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


def _enter() -> None:
    """The start of every callback but the event's (which inlines it): the thread's first callback
    keeps its Python thread state (mvvm._threadstates); callbacks nest one deeper."""
    depth = state.depth
    if depth < 0:
        keep_this_thread_state()
        depth = 0
    state.depth = depth + 1


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
            _report_unless_interrupt(exc, "Exception ignored in mvvm callback %s (subscribed to %s)"
                                     % (callable_name(entry.fn), entry.what), entry.fn)
    finally:
        state.depth = depth  # as it was: the callbacks nested in this one restored theirs


def _on_destroy(user_data: Optional[int]) -> None:
    _enter()
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
        state.depth -= 1


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
    _enter()
    try:
        _serve(view_model, request, argument_address, user_data)
    finally:
        state.depth -= 1


def _on_done(call: int, status: int, result_address: Optional[int], message: Optional[bytes],
             user_data: Optional[int]) -> None:
    """Ends an asynchronous call (``mvvm_done_fn``, once per call): its result read now (the
    library's, valid during this call only), or its error, handed to its :class:`~mvvm.AsyncCall`."""
    _enter()
    try:
        entry = registry.get(user_data)
        if entry is None:
            registry.late_calls += 1
            return
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
            _report_unless_interrupt(exc, "Exception ignored in the completion of mvvm call %s" % entry.what,
                                     entry.fn)
    finally:
        state.depth -= 1


# The only C-callable function pointers the bindings make, kept for the process's life.
EVENT_TRAMPOLINE = CALLBACK(_on_event)
DESTROY_TRAMPOLINE = DESTROY_FN(_on_destroy)
REQUEST_TRAMPOLINE = REQUEST_FN(_on_request)
DONE_TRAMPOLINE = DONE_FN(_on_done)
