"""Releases deferred out of callbacks: a finalizer that runs while this thread is inside a libmvvm
callback (garbage collection can run anywhere) does not call into the library there; the release
is queued and done by the next call this thread or another makes from outside a callback, or at
interpreter exit."""

from __future__ import annotations

import collections
import functools
from typing import TYPE_CHECKING, Any, Callable, Deque

from ._interrupts import in_callback
from ._report import report

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["pending", "release_soon", "release_pending"]

#: The releases waiting for a call from outside a callback.
pending: Deque[Callable[[], Any]] = collections.deque()


def release_soon(library: "Library", handle: int) -> None:
    """A finalizer's release: at once, unless this thread is inside a callback."""
    if in_callback():
        pending.append(functools.partial(library.release_quietly, handle))
    else:
        library.release_quietly(handle)
        if pending:
            release_pending()


def release_pending() -> int:
    """Releases the handles whose finalizers ran inside callbacks; returns how many.

    Called automatically by every call into the library made outside a callback."""
    if in_callback():
        return 0
    count = 0
    while True:
        try:
            work = pending.popleft()
        except IndexError:
            return count
        try:
            work()
        except BaseException as exc:
            report(exc, "Exception ignored in a deferred mvvm release", work)
        count += 1
