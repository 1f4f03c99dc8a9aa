"""asyncio integration.

* :func:`attach` plugs a manual :class:`~mvvm.Loop` into a running asyncio loop: its file
  descriptor is watched with ``add_reader`` and :meth:`~mvvm.Loop.dispatch` runs whenever it is
  readable, so timed work (a timer's ticks, a throttled tap, a service answered later) runs
  on the asyncio thread and its callbacks arrive there.
* An ``async`` command's call (:class:`~mvvm.AsyncCall`) is awaited: ``tags = await
  profile.load(3)`` ends when the attached loop's dispatch ends the call; cancelling the task
  awaiting it cancels the call.
* :func:`changes` iterates over the changes of an object::

      with mvvm.aio.attach(loop):
          async for name, value in mvvm.aio.changes(clock, "time"):
              ...

  The subscription starts when :func:`changes` is called (nothing is missed before the first
  ``await``) and ends with ``aclose()``, ``async with``, or garbage collection; the iteration
  ends by itself when the object or its loop is closed. Changes may come from any thread (a
  thread loop's): they are handed to the asyncio loop thread-safely. A change of a list property
  comes as a :class:`~mvvm.Splice` carrying its inserted items (``splice.items``, read while it
  was delivered), so that it can be applied when the task runs, however the list moved on
  meanwhile: ``splice.apply(copy)``.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any, Optional, Tuple

from ._abi import LoopKind
from ._errors import MvvmError
from ._list import ObjectList, Splice
from ._loop import Loop
from ._object import MvvmObject
from ._releases import release_soon
from ._report import report

__all__ = ["Attachment", "attach", "Changes", "changes"]


class Attachment:
    """A manual loop attached to an asyncio loop. ``detach()`` (or leaving ``with``) removes
    the reader; closing the :class:`~mvvm.Loop` detaches it first."""

    def __init__(self, loop: Loop, asyncio_loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        if not isinstance(loop, Loop):
            raise TypeError("attach() needs an mvvm.Loop, not %s" % type(loop).__name__)
        if loop.kind not in (LoopKind.MANUAL, LoopKind.MAIN):
            raise ValueError("only a manual or main loop can be attached to asyncio, not a %s loop"
                             % loop.kind.name.lower())
        self.loop: Loop = loop
        self.asyncio_loop: asyncio.AbstractEventLoop = asyncio_loop or asyncio.get_running_loop()
        self.dispatches: int = 0  # how many times dispatch() ran (tests, diagnostics)
        self._fd: Optional[int] = loop.fileno()
        self.asyncio_loop.add_reader(self._fd, self._on_readable)
        loop._asyncio_loop = self.asyncio_loop  # type: ignore[attr-defined]  # async services run there
        loop._add_close_hook(self.detach)
        # Dispatch whatever is due already (work scheduled before attaching).
        self.asyncio_loop.call_soon(self._on_readable)

    @property
    def attached(self) -> bool:
        return self._fd is not None

    def _on_readable(self) -> None:
        if self._fd is None:
            return
        try:
            self.loop.dispatch()
            self.dispatches += 1
        except MvvmError as exc:
            if self.loop._is_closed():
                self.detach()
            else:
                report(exc, "Exception ignored in mvvm.aio dispatch of %r" % self.loop, self.loop)

    def detach(self) -> None:
        """Stops watching the loop's file descriptor. Idempotent."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        self.loop._remove_close_hook(self.detach)
        if getattr(self.loop, "_asyncio_loop", None) is self.asyncio_loop:
            self.loop._asyncio_loop = None  # type: ignore[attr-defined]
        try:
            self.asyncio_loop.remove_reader(fd)
        except Exception:
            pass  # the asyncio loop is closed already

    close = detach

    def __enter__(self) -> "Attachment":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.detach()

    async def __aenter__(self) -> "Attachment":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self.detach()


def attach(loop: Loop, asyncio_loop: Optional[asyncio.AbstractEventLoop] = None) -> Attachment:
    """Runs the manual ``loop``'s due work on ``asyncio_loop`` (default: the running loop)."""
    return Attachment(loop, asyncio_loop)


_END = object()


class Changes:
    """An async iterator of ``(name, value)`` for the changes of ``obj`` (of the property or
    signal ``name``, or of all of them when None). See :func:`changes`."""

    def __init__(self, obj: MvvmObject, name: Optional[str] = None) -> None:
        if not isinstance(obj, MvvmObject):
            raise TypeError("changes() needs an mvvm object, not %s" % type(obj).__name__)
        self.asyncio_loop = asyncio.get_running_loop()
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._ended = False
        queue, asyncio_loop, thread = self._queue, self.asyncio_loop, threading.get_ident()

        def put(item: Any) -> None:
            if threading.get_ident() == thread:
                queue.put_nowait(item)
            else:
                try:
                    asyncio_loop.call_soon_threadsafe(queue.put_nowait, item)
                except RuntimeError:
                    pass  # the asyncio loop is closed: nobody is listening

        source = weakref.ref(obj)

        def on_change(changed: str, value: Any) -> None:
            if isinstance(value, Splice):
                owner = source()
                if owner is not None:  # the items it inserts, read now, while they are in place
                    items: ObjectList[Any] = ObjectList(owner, changed)
                    value = Splice(value.index, value.removed, value.inserted,
                                   tuple(items.item(value.index + k) for k in range(value.inserted)))
            put((changed, value))

        self.subscription = obj._subscribe(name, on_change, on_end=lambda: put(_END))
        # Garbage collection ends the subscription (the callback does not refer to self).
        self._finalizer = weakref.finalize(self, release_soon, obj._library, self.subscription._handle)

    def __aiter__(self) -> "Changes":
        return self

    async def __anext__(self) -> Tuple[str, Any]:
        if self._ended:
            raise StopAsyncIteration
        item = await self._queue.get()
        if item is _END:
            self._ended = True
            raise StopAsyncIteration
        return item  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        """Ends the subscription and the iteration."""
        self._ended = True
        self._finalizer.detach()
        self.subscription._close()

    async def __aenter__(self) -> "Changes":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.aclose()


def changes(obj: MvvmObject, name: Optional[str] = None) -> Changes:
    """``async for name, value in changes(obj, name=None)``: the changes of ``obj``.

    Must be called with an asyncio loop running. For timed changes of a manual loop, the loop
    must be attached (:func:`attach`); thread and virtual loops need nothing more."""
    return Changes(obj, name)

