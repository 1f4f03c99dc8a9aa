"""The base of every class that owns a handle of a library (as llvmlite's ``ObjectRef``).

An :class:`Owner` holds one handle of one library. Closing releases it once (again does
nothing); ``with`` closes it; garbage collection releases it through a ``weakref.finalize``
(which also runs at interpreter exit, before the library is unloaded), deferred when it runs
inside a libmvvm callback (:mod:`mvvm._releases`). Any use after closing raises
:class:`~mvvm.ClosedError`. An owner is a ctypes argument for its handle (``_as_parameter_``):
``library.functions.mvvm_snapshot(obj, ...)`` works. Copying or pickling one raises ``TypeError``
(a copy would share the handle, and a pickle would name a handle of another process).

The package's own operations on an owner are private methods (``_close``, ``_is_closed``,
``_h``), reached by the public methods and the module functions (:func:`mvvm.close`,
:func:`mvvm.is_closed`, :func:`mvvm.handle`), so that a view model's members, which win their
public names, never hide them.

In the child of a ``fork()``, what the parent owned is the parent's: every owner made before the
fork is closed in the child (the library refuses calls on inherited handles, and releasing one
only forgets it).
"""

from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

from ._errors import ClosedError
from ._releases import pending, release_pending, release_soon

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["Owner", "forks"]

_O = TypeVar("_O", bound="Owner")


class _Forks:
    """How many times this process is a fork() child of the one that loaded the package."""

    count = 0


forks = _Forks()


def _forked() -> None:
    forks.count += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


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
    """Owns one handle of one library: closing (idempotent), a finalizer that releases it on
    garbage collection, ``with``, and ``_as_parameter_`` (the handle, for ctypes calls).

    Subclasses call :meth:`_own` once they have their handle (``collect=False`` when garbage
    collection must not release it, as for a :class:`~mvvm.Subscription`), and may override
    :meth:`_closed_message` and :meth:`_close` (calling :meth:`_release`)."""

    __slots__ = ("_handle", "_finalizer", "_library", "_fork", "__weakref__")

    _handle: int
    _finalizer: Optional[weakref.finalize[[Any, int], Owner]]
    _library: "Library"
    _fork: int

    def _own(self, library: "Library", handle: int, collect: bool = True,
             on_collect: Callable[["Library", int], Any] = release_soon) -> None:
        self._library = library
        self._handle = handle
        self._fork = forks.count
        self._finalizer = weakref.finalize(self, on_collect, library, handle) if collect else None

    def _closed_message(self) -> str:
        return "this %s is closed" % type(self).__name__

    def _h(self) -> int:
        """The handle, for a call into the library; ClosedError once closed. Runs the releases
        deferred out of callbacks first."""
        handle = self._handle
        if not handle:
            raise ClosedError(self._closed_message())
        if pending:
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

    def _is_closed(self) -> bool:
        return not self._handle or self._fork != forks.count

    @property
    def closed(self) -> bool:
        """Whether the handle was released (or belongs to the parent of this forked process)."""
        return self._is_closed()

    def _release(self) -> bool:
        """Releases the handle unless it was released already; whether this call did."""
        finalizer = self._finalizer
        if finalizer is None or finalizer.detach() is None:
            return False
        handle, self._handle = self._handle, 0
        self._library.release_quietly(handle)
        return True

    def _close(self) -> None:
        self._release()

    def close(self) -> None:
        """Releases the handle (once; again does nothing)."""
        self._close()

    def __enter__(self: _O) -> _O:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._close()
