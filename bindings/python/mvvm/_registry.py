"""The Python callables C may call: subscribers and host services, by an integer key.

The ``user_data`` given to C is an integer key into :data:`registry`, which holds the Python
callable until the library runs the destroy function for that key. So a callback stays alive as
long as C may call it, whether or not anyone keeps the :class:`~mvvm.Subscription`; and a
callback that closes over its source keeps the source alive until it is unsubscribed (or the
source or its loop is closed). Keys are never reused, whichever library an entry belongs to.
"""

from __future__ import annotations

import itertools
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

if TYPE_CHECKING:
    from ._library import Library
    from ._object import MvvmObject

__all__ = ["Entry", "registry"]


class Entry:
    """What C may call back: ``fn``, described as ``what`` in reports, of ``library``; for a
    host service, ``make_request`` makes the request object it is called with; ``on_end`` runs
    once when the library ends it."""

    __slots__ = ("fn", "what", "library", "owner", "make_request", "on_end")

    def __init__(self, fn: Callable[..., Any], what: str, library: "Library",
                 make_request: Optional[Callable[..., Any]] = None, on_end: Optional[Callable[[], Any]] = None) -> None:
        self.fn = fn
        self.what = what
        self.library = library
        self.on_end = on_end
        #: The view model a service was made for (a callable given to a constructor).
        self.owner: Optional["weakref.ReferenceType[MvvmObject]"] = None
        self.make_request = make_request


class Registry:
    """Integer keys (the C ``user_data``) to the entries C may still call.

    An entry is added before C is given its key and removed by the destroy function."""

    def __init__(self) -> None:
        self._entries: Dict[int, Entry] = {}
        self._keys = itertools.count(1)  # never 0 (NULL), never reused
        #: Calls from C with a key whose destroy function already ran (or never issued): each one
        #: is a library bug (a callback called after its destroy function); the tests check it is 0.
        self.late_calls = 0

    def add(self, entry: Entry) -> int:
        key = next(self._keys)
        self._entries[key] = entry
        return key

    @property
    def entries(self) -> Dict[int, Entry]:
        """The entries by key, for the event trampoline's one look-up per event (never replaced:
        the same dictionary for the registry's life)."""
        return self._entries

    def get(self, key: Optional[int]) -> Optional[Entry]:
        return self._entries.get(key) if key else None

    def pop(self, key: Optional[int]) -> Optional[Entry]:
        return self._entries.pop(key, None) if key else None

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> List[int]:
        return list(self._entries)


#: The callables C may still call, by key. Empty once every subscription and service has ended.
registry = Registry()
