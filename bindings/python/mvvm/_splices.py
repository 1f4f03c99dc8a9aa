"""A change of a list of child view models, as its subscribers get it: :class:`Splice`. A value
of its own, beside the list it describes (:mod:`mvvm._list`), so that the event trampoline reads
one without importing lists, members and objects."""

from __future__ import annotations

from typing import Any, Callable, Iterator, List, MutableSequence, Optional, Tuple, TypeVar

__all__ = ["Splice"]

T = TypeVar("T")


class Splice:
    """One change of a list, as GListModel's ``items-changed(position, removed, added)``: at
    ``index``, ``removed`` items went and ``inserted`` items came. A subscriber of a list property
    gets one per splice as the callback's value, in ascending order of ``index``, each counted in
    the list as the splices before it left it; the items a splice inserts are already at their
    final indices (readable during the callback). Frozen, hashable, comparable (by ``index``,
    ``removed`` and ``inserted``); unpacks as those three.

    ``items``: the inserted items themselves, read while the splice was delivered, when the
    splice carries them (:func:`mvvm.aio.changes` gives such splices, which can be applied
    later, after the list moved on); otherwise None."""

    __slots__ = ("index", "removed", "inserted", "items")

    index: int
    removed: int
    inserted: int
    items: "Optional[Tuple[Any, ...]]"

    def __init__(self, index: int, removed: int, inserted: int, items: "Optional[Tuple[Any, ...]]" = None) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "inserted", inserted)
        object.__setattr__(self, "items", items)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("mvvm.Splice is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("mvvm.Splice is frozen")

    def _key(self) -> "tuple[int, int, int]":
        return (self.index, self.removed, self.inserted)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Splice):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("mvvm.Splice",) + self._key())

    def __iter__(self) -> Iterator[int]:
        return iter(self._key())

    def __repr__(self) -> str:
        return "Splice(index=%d, removed=%d, inserted=%d%s)" % (self._key() + (
            "" if self.items is None else ", items=%r" % (self.items,),))

    def __reduce__(self) -> Any:
        return (Splice, self._key())

    def apply(self, copy: MutableSequence[T], item: Optional[Callable[[int], T]] = None) -> None:
        """Applies the splice to ``copy`` (a host's copy of the list, changed in place):
        ``item(index)`` gives what to insert at each index the splice fills (for instance
        ``lambda i: owner.items[i].object_id``, during the delivery); without it, the splice's
        own :attr:`items` are inserted. IndexError when it does not fit the copy."""
        if self.index < 0 or self.removed < 0 or self.inserted < 0 or self.index + self.removed > len(copy):
            raise IndexError("%r does not fit a copy of %d items" % (self, len(copy)))
        if item is None:
            if self.items is None:
                raise TypeError("this splice carries no items: give apply() a function reading them")
            inserted: List[Any] = list(self.items)
        else:
            inserted = [item(self.index + k) for k in range(self.inserted)]
        copy[self.index:self.index + self.removed] = inserted
