"""The base of every class that owns a handle of the library (as llvmlite's ``ObjectRef``).

An :class:`Owner` holds one handle. ``close()`` releases it once (a second ``close()`` does
nothing); ``with`` closes it; garbage collection releases it through a ``weakref.finalize``
(which also runs at interpreter exit, before the library is unloaded), deferred when it runs
inside a libmvvm callback (see :mod:`mvvm._callbacks`). Any use after ``close()`` raises
:class:`~mvvm.ClosedError`. An owner is a ctypes argument for its handle (``_as_parameter_``):
``lib.mvvm_snapshot(obj, ...)`` works. Copying or pickling one raises ``TypeError`` (a copy
would share the handle, and a pickle would name a handle of another process).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional, TypeVar

from ._callbacks import _pending, _release_now, _release_soon, release_pending
from ._errors import ClosedError

__all__ = ["Owner"]

_O = TypeVar("_O", bound="Owner")


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



class Owner(_NotCopyable):
    """Owns one handle of the library: :meth:`close` (idempotent), a finalizer that releases
    it on garbage collection, ``with``, and ``_as_parameter_`` (the handle, for ctypes calls).

    Subclasses call :meth:`_own` once they have their handle (``collect=False`` when garbage
    collection must not release it, as for a :class:`~mvvm.Subscription`), and may override
    :meth:`_closed_message` and :meth:`close` (calling :meth:`_release`)."""

    __slots__ = ("_handle", "_finalizer", "__weakref__")

    _handle: int
    _finalizer: Optional[weakref.finalize[[int], Owner]]

    def _own(self, handle: int, collect: bool = True, on_collect: Callable[[int], Any] = _release_soon) -> None:
        self._handle = handle
        self._finalizer = weakref.finalize(self, on_collect, handle) if collect else None

    def _closed_message(self) -> str:
        return "this %s is closed" % type(self).__name__

    def _h(self) -> int:
        """The handle, for a call into the library; ClosedError once closed. Runs the releases
        deferred out of callbacks first."""
        handle = self._handle
        if not handle:
            raise ClosedError(self._closed_message())
        if _pending:
            release_pending()
        return handle

    @property
    def handle(self) -> int:
        """The C handle (raises ClosedError once closed)."""
        return self._h()

    @property
    def _as_parameter_(self) -> int:
        """The handle, when the object is passed to a ctypes function."""
        return self._h()

    @property
    def closed(self) -> bool:
        """Whether the handle was released."""
        return not self._handle

    def _release(self) -> bool:
        """Releases the handle unless it was released already; whether this call did."""
        finalizer = self._finalizer
        if finalizer is None or finalizer.detach() is None:
            return False
        handle, self._handle = self._handle, 0
        _release_now(handle)
        return True

    def close(self) -> None:
        """Releases the handle (once; again does nothing)."""
        self._release()

    def __enter__(self: _O) -> _O:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()
