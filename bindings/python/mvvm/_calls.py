"""Asynchronous calls: the method of an ``async`` command starts it with ``mvvm_call_async`` and
returns an :class:`AsyncCall`, a :class:`concurrent.futures.Future` that is also awaitable.

* ``await profile.load(3)`` in a coroutine, with the object's loop attached to the running asyncio
  loop (:func:`mvvm.aio.attach`), or a thread loop: the asyncio loop waits for the call without
  blocking (through :func:`asyncio.wrap_future`).
* Elsewhere it is a plain future: ``call.result()``, ``call.exception()``,
  ``call.add_done_callback(fn)``, ``call.done()``. On a virtual loop the call ends inside the
  ``advance`` that reaches its end, on a manual one inside a ``dispatch`` or ``run_for``, on a
  thread loop on the loop's thread (``result(timeout)`` waits for it); a command that ends
  without suspending ends before its method returns.

Its result is the command's, converted as a plain command's result is. A command that throws
ends it with :class:`~mvvm.CommandError` (the library's message); :meth:`AsyncCall.cancel`
(``mvvm_cancel``) and closing the object or its loop end it with
:class:`~mvvm.CallCancelledError`: each call ends once. The library runs the call's destroy
function after its completion: the call is held (in :data:`mvvm._registry.registry`) until
then, and holds its object until it ends. Errors starting the call (an argument missing or of
the wrong type, a closed object) are raised by the method itself, as a plain command raises them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from ctypes import byref, c_uint64
from typing import TYPE_CHECKING, Any, Callable, Generator, Mapping, Optional, Sequence, TypeVar

from ._abi import Status
from ._errors import CallCancelledError, InvalidHandleError, error_for_status
from ._interrupts import pending
from ._registry import Entry, registry
from ._trampolines import DESTROY_TRAMPOLINE, DONE_TRAMPOLINE
from ._values import Values, encode_name, names_array

if TYPE_CHECKING:
    from ._library import Library
    from ._object import MvvmObject

__all__ = ["AsyncCall", "start"]

T = TypeVar("T")


class AsyncCall(concurrent.futures.Future[T]):
    """A running ``async`` command (``mvvm_call_async``): a :class:`concurrent.futures.Future`
    of its result, awaitable in a coroutine (``await profile.load(3)``).

    It ends once: with the command's result, with :class:`~mvvm.CommandError` when the command
    throws, or with :class:`~mvvm.CallCancelledError` when it is cancelled (:meth:`cancel`, or
    its object or loop closed). A cancelled call ends with that error, not in the
    future's own cancelled state: :meth:`cancelled` stays False, ``result()`` raises the
    error. Cancelling the asyncio task awaiting it cancels the call."""

    def __init__(self, library: "Library", what: str, source: Optional["MvvmObject"] = None,
                 rendering: Optional[Callable[[Any], Any]] = None) -> None:
        super().__init__()
        self._rendering = rendering  # a result of a kind read as Python's own (mvvm._kinds)
        #: ``Class.command``, for messages.
        self.what: str = what
        self._library = library
        self._call = 0  # the call's handle while it runs
        self._source = source  # the object, kept alive while the call runs

    def cancel(self) -> bool:
        """Cancels the call (``mvvm_cancel``): its task is cancelled and the call ends now, on
        this thread, with :class:`~mvvm.CallCancelledError`. True only when this cancel decided
        the outcome (the library decides it once: the call then ends with that error); False
        when it had ended already (its result stands) or its loop's release cancelled it."""
        handle = self._call
        if not handle or self.done():
            return False
        try:
            self._library.functions.mvvm_cancel(handle)
        except InvalidHandleError:  # LoopReleasedError too
            return False  # it ended meanwhile (on a thread loop's thread), or its loop was released
        return True

    def _end(self, status: int, result: Any, message: Optional[bytes], error: Optional[BaseException]) -> None:
        """The completion (from the done trampoline, once): the future's outcome."""
        self._call = 0
        self._source = None
        if error is None and status != Status.OK:
            text = message.decode("utf-8", "replace") if message else ""
            if not text:
                text = "%s was cancelled" % self.what if status == Status.ERR_CANCELLED else "%s failed" % self.what
            error = error_for_status(status, text, "mvvm_call_async")
        if self.done():
            return
        if error is None and self._rendering is not None:
            try:
                result = self._rendering(result)
            except Exception as exc:  # a date beyond datetime's years ends the call with its error
                error = exc
        if error is not None:
            self.set_exception(error)
        else:
            self.set_result(result)

    def __await__(self) -> Generator[Any, None, T]:
        """Awaits the call in a coroutine (:func:`asyncio.wrap_future`: it may end on any thread)."""
        return asyncio.wrap_future(self).__await__()

    def __repr__(self) -> str:
        if not self.done():
            state = "running"
        elif self.exception() is not None:
            error = self.exception()
            state = "cancelled" if isinstance(error, CallCancelledError) else "raised %s" % type(error).__name__
        else:
            state = "returned %r" % (self.result(),)
        return "<mvvm.AsyncCall %s %s>" % (self.what, state)


def start(obj: "MvvmObject", call_async: Any, encoded: bytes, args: Sequence[Any], kwargs: Mapping[str, Any],
          keywords: Mapping[str, str], what: str,
          rendering: Optional[Callable[[Any], Any]] = None) -> "AsyncCall[Any]":
    """Starts the command ``encoded`` of ``obj`` with ``call_async`` (the library's
    ``mvvm_call_async``, unchecked): the arguments by position and name, as ``mvvm_call_named``
    takes them. Raises what the library refuses."""
    library = obj._library
    handle = obj._h()
    values = Values(list(args) + list(kwargs.values()))
    names = names_array([None] * len(args) + [encode_name(keywords.get(k, k), "an argument name")
                                              for k in kwargs]) if kwargs else None
    call: AsyncCall[Any] = AsyncCall(library, what, obj, rendering)
    call.set_running_or_notify_cancel()
    key = registry.add(Entry(call._end, what, library))
    out = c_uint64()
    try:
        status = call_async(handle, encoded, names, values.array, values.count, DONE_TRAMPOLINE, key,
                            DESTROY_TRAMPOLINE, byref(out))
    except BaseException:
        registry.pop(key)
        raise
    if status:
        registry.pop(key)  # if the library did not run the destroy function already
        library.check(status, "mvvm_call_async")
    if not call.done():  # (a command that did not suspend has ended already)
        call._call = out.value
    if pending.count:  # Ctrl-C in a callback while it started: the call, which no one holds, is cancelled
        call.cancel()
        library.check(0, "mvvm_call_async")
    return call
