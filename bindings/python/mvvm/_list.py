"""Lists of child view models: a list property reads as an :class:`ObjectList` (a read-only
``collections.abc.Sequence`` of live items), and its changes reach subscribers as
:class:`Splice` values.

A list property (``"type": "list"`` in the descriptions, with its ``item_class``) is read with
``mvvm_list_count`` and ``mvvm_list_item``; each item read is a new handle, wrapped in the Python
class of the item's C class (``Song``, ``TodoItemViewModel``), owned by the caller. Items are told
apart by :func:`object_id` (``mvvm_object_id``): one int for the Swift object's whole life, the
same through every handle to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from ctypes import byref, c_uint64
from typing import TYPE_CHECKING, Any, Generic, Iterator, List, Optional, TypeVar, Union, overload

from ._errors import InvalidArgumentError
from ._members import Member
from ._object import MvvmObject
from ._splices import Splice
from ._values import Values, encode_name

# Splice lives in mvvm._splices (the event trampoline reads one); it is named here too, with the
# lists whose changes it tells (the stubs import it from here).
__all__ = ["Splice", "ObjectList", "ListProperty", "object_id"]

Item = TypeVar("Item", bound="MvvmObject")


def object_id(obj: "MvvmObject") -> int:
    """The identity of the Swift object behind ``obj`` (``mvvm_object_id``): one int for its
    whole life, the same through every handle to it, never another object's (of its library).
    Objects compare and hash by it: two reads of one list item are equal."""
    return obj._id


class ObjectList(Sequence, Generic[Item]):  # type: ignore[type-arg]
    """A list property of an object, read live: each use asks the library, so it always is the
    list as it is now. Read-only: ``len``, indexing (negative from the end), slicing (a Python
    list of items), iteration, ``in`` and ``index`` (by :func:`object_id`). Items are objects of
    the item class, each read a new one, owned by the caller (``with`` or ``close()``, or let the
    garbage collector release it); they keep the list's owner alive."""

    __slots__ = ("owner", "name", "_encoded")

    def __init__(self, owner: "MvvmObject", name: str) -> None:
        #: The object whose property this is.
        self.owner = owner
        #: The property's name.
        self.name = name
        self._encoded = encode_name(name, "list name")

    def __len__(self) -> int:
        return self.owner._list_count(self._encoded)

    def item(self, index: int) -> Item:
        """The item at ``index`` (0 … len - 1), a new object; InvalidArgumentError outside."""
        owner = self.owner
        out = c_uint64()
        owner._library.functions.mvvm_list_item(owner._h(), self._encoded, index, byref(out))
        made: Any = owner._wrap(out.value, (owner,))
        return made  # type: ignore[no-any-return]

    @overload
    def __getitem__(self, index: int) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> List[Item]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Item, List[Item]]:
        if isinstance(index, slice):
            return [self.item(i) for i in range(*index.indices(len(self)))]
        try:
            position = index.__index__()
        except AttributeError:
            raise TypeError("list indices must be integers or slices, not %s" % type(index).__name__) from None
        if position < 0:
            position += len(self)
            if position < 0:
                raise IndexError("%s index out of range" % self._what())
        try:
            return self.item(position)
        except InvalidArgumentError:
            raise IndexError("%s index out of range" % self._what()) from None

    def __iter__(self) -> Iterator[Item]:
        """The items in order, the list read as it is at each step (an item removed meanwhile
        ends the iteration early rather than raising)."""
        position = 0
        while True:
            try:
                made = self.item(position)
            except InvalidArgumentError:
                return
            yield made
            position += 1

    def ids(self) -> List[int]:
        """The :func:`object_id` of each item, in order."""
        result = []
        for made in self:
            result.append(made._id)
            made._close()
        return result

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, MvvmObject):
            return False
        return object_id(value) in self.ids()

    def index(self, value: Any, start: int = 0, stop: Any = None) -> int:
        """The position of the item ``value`` (by identity, ``object_id``); ValueError if absent."""
        ids = self.ids()
        if isinstance(value, MvvmObject):
            wanted = object_id(value)
            end = len(ids) if stop is None else stop
            for position in range(*slice(start, end).indices(len(ids))):
                if ids[position] == wanted:
                    return position
        raise ValueError("%r is not in %s" % (value, self._what()))

    def count(self, value: Any) -> int:
        """1 if the item ``value`` is in the list (by identity), else 0."""
        return 1 if value in self else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectList):
            return other.owner is self.owner and other.name == self.name
        return NotImplemented

    def __hash__(self) -> int:
        return hash((id(self.owner), self.name))

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError("%s is a list the view model keeps: it cannot be changed from outside" % self._what())

    def __delitem__(self, index: Any) -> None:
        raise TypeError("%s is a list the view model keeps: it cannot be changed from outside" % self._what())

    def _what(self) -> str:
        return "%s.%s" % (type(self.owner).__name__, self.name)

    def __repr__(self) -> str:
        if self.owner._is_closed():
            return "<mvvm.ObjectList %s (closed)>" % self._what()
        return "<mvvm.ObjectList %s, %d items>" % (self._what(), len(self))


class ListProperty(Member[ObjectList[Item]]):
    """A list property of a class made from its description: ``obj.name`` is an
    :class:`ObjectList` over it; assigning goes to the library (``mvvm_set``), which refuses."""

    def __init__(self, owner_name: str, name: str, item_class: str, doc: str) -> None:
        self.name = name
        self.item_class = item_class
        self.owner_name = owner_name
        self._encoded = encode_name(name, "list name")
        self.__doc__ = "%s (a read-only sequence of %s; changes arrive as mvvm.Splice values)" % (
            doc or name, "".join(p[:1].upper() + p[1:] for p in item_class.split("_")) or "objects")

    def _get(self, obj: Optional["MvvmObject"], owner: Any) -> Any:
        if obj is None:
            return self
        obj._h()  # a closed object refuses now, not at first use
        return ObjectList(obj, self.name)

    if not TYPE_CHECKING:
        __get__ = _get

    def __set__(self, obj: "MvvmObject", value: Any) -> None:
        values = Values([value])
        obj._library.functions.mvvm_set(obj._h(), self._encoded, values.array)

    def __repr__(self) -> str:
        return "<ListProperty %s.%s: list of %s>" % (self.owner_name, self.name, self.item_class)
