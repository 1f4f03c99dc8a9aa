"""Values between Python and C, in one function each way: :func:`to_c` and :func:`from_c`.

The bindings convert and never judge: which values a property, an argument or a field accepts is
the library's to say (its status and message become the exception). A Python value goes in its
neutral form:

=====================================  =================================================
Python                                 mvvm_value
=====================================  =================================================
None                                   MVVM_TYPE_NULL
bool                                   MVVM_TYPE_BOOL
int                                    MVVM_TYPE_INT; above INT64_MAX, MVVM_TYPE_UINT
float                                  MVVM_TYPE_DOUBLE
str                                    MVVM_TYPE_STRING (UTF-8); holding NUL, MVVM_TYPE_BYTES of its
                                       UTF-8, which the library takes for a string
bytes, bytearray, memoryview           MVVM_TYPE_BYTES
a record (:class:`~mvvm.Record`)       MVVM_TYPE_RECORD, its fields in order
a mapping                              MVVM_TYPE_MAP: a record by field names
any other sequence (list, tuple...)    MVVM_TYPE_ARRAY
an mvvm object, a service              MVVM_TYPE_OBJECT (its handle)
uuid.UUID, decimal.Decimal             MVVM_TYPE_STRING of its text
an aware datetime.datetime             MVVM_TYPE_DOUBLE, seconds since 1970 (a naive one is refused)
a callable (constructor arguments)     a :class:`~mvvm.Service` made of it
=====================================  =================================================

A string that is not valid Unicode (a lone surrogate) goes as the bytes Python has for it
(``surrogatepass``), for the library to refuse. The bindings refuse only what C cannot be given at all: an int beyond 64
bits (:class:`~mvvm.InvalidArgumentError`), and an object of none of these kinds, or a value
nested beyond any limit (a list holding itself) (:class:`~mvvm.TypeMismatchError`,
:class:`~mvvm.InvalidArgumentError`).

A value from C: none or null is None; bool, int, float; a string read by its length (a string
holding NUL is read whole); bytes; an array a list; a record an instance of its library's record
class (its fields of the kinds :mod:`mvvm._kinds` renders as theirs). A member of such a kind is
rendered where its type is known: by the property, the command, the subscription.
"""

from __future__ import annotations

import collections.abc
import ctypes
import datetime
import decimal
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Union

from . import _abi
from ._abi import FlatEvent, Value
from ._errors import InternalError, InvalidArgumentError, TypeMismatchError
from ._kinds import render, seconds_since_1970
from ._owner import Owner
from ._records import Record

if TYPE_CHECKING:
    from ._library import Library
    from mvvm_gen.model import Property, Type

__all__ = ["Scalar", "AnyValue", "to_c", "from_c", "encode_name", "names_array", "decode", "take_string", "value_of",
           "from_json", "Values"]

#: A plain value: a bool, int, double or string property, argument or signal holds one (or none).
Scalar = Union[bool, int, float, str, None]
#: Any value a property, an argument, a result, a field or a signal may hold.
AnyValue = Union[bool, int, float, str, bytes, None, Sequence[Any], Record]

_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(2**63), 2**63 - 1, 2**64 - 1
#: Beyond this nesting a value cannot be passed (a list holding itself); the library's own limit,
#: MVVM_MAX_VALUE_DEPTH, is far lower and refused with its message.
_NESTING_LIMIT = 4 * _abi.MAX_VALUE_DEPTH

_string_at = ctypes.string_at
_address_of_bytes = ctypes.c_void_p.from_buffer
_char_p = ctypes.c_char_p
_T_NONE, _T_BOOL, _T_INT, _T_DOUBLE, _T_STRING = _abi.TYPE_NONE, _abi.TYPE_BOOL, _abi.TYPE_INT, _abi.TYPE_DOUBLE, _abi.TYPE_STRING
_T_OBJECT, _T_NULL, _T_UINT, _T_BYTES = _abi.TYPE_OBJECT, _abi.TYPE_NULL, _abi.TYPE_UINT, _abi.TYPE_BYTES
_T_ARRAY, _T_RECORD, _T_MAP = _abi.TYPE_ARRAY, _abi.TYPE_RECORD, _abi.TYPE_MAP


# ------------------------------------------------------------------------------------------------
# Python -> C
# ------------------------------------------------------------------------------------------------


class Values:
    """The ``mvvm_value`` array of one call, and what keeps its memory alive until the call
    returns: strings, bytes, nested items, services made of callables (closed afterwards, see
    :meth:`close`)."""

    __slots__ = ("array", "count", "keep", "make_service", "services")

    def __init__(self, values: Sequence[Any], make_service: Optional[Callable[[Any], Owner]] = None) -> None:
        self.count = len(values)
        self.array = (Value * max(1, self.count))()
        self.keep: List[Any] = []
        self.make_service = make_service
        #: The services made of callables: the library keeps what it needs of them.
        self.services: List[Owner] = []
        for slot, value in zip(self.array, values):
            to_c(value, slot, self, 0)

    def close(self) -> None:
        for service in self.services:
            service.close()


def _bytes(data: bytes, slot: Value, kind: int, keep: List[Any]) -> None:
    holder = _char_p(data)
    keep.append(holder)
    slot.type, slot.integer, slot.string = kind, len(data), _address_of_bytes(holder).value


def _items(values: Sequence[Any], slot: Value, kind: int, owner: Values, depth: int, per_item: int = 1) -> None:
    """``values`` as the items of ``slot`` (``per_item`` values each: a map's are pairs)."""
    items = (Value * max(1, len(values)))()
    owner.keep.append(items)
    for item, value in zip(items, values):
        to_c(value, item, owner, depth + 1)
    slot.type, slot.integer, slot.object = kind, len(values) // per_item, ctypes.addressof(items)


def to_c(value: Any, slot: Value, owner: Values, depth: int = 0) -> None:
    """Writes ``value`` into ``slot`` in its neutral form (see the module's table); ``owner``
    keeps what the slot points to."""
    if value is None:
        slot.type = _T_NULL
    elif value is True or value is False:
        slot.type, slot.boolean = _T_BOOL, value
    elif isinstance(value, int):
        if _INT64_MIN <= value <= _INT64_MAX:
            slot.type, slot.integer = _T_INT, value
        elif _INT64_MAX < value <= _UINT64_MAX:
            slot.type, slot.integer = _T_UINT, value - 2**64  # its bits
        else:
            raise InvalidArgumentError("%d does not fit in 64 bits (int64 or uint64)" % value)
    elif isinstance(value, float):
        slot.type, slot.number = _T_DOUBLE, value
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")  # not Unicode (a lone surrogate): the library refuses it
        _bytes(data, slot, _T_BYTES if "\x00" in value else _T_STRING, owner.keep)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        _bytes(bytes(value), slot, _T_BYTES, owner.keep)
    elif isinstance(value, (uuid.UUID, decimal.Decimal)):
        _bytes(str(value).encode("ascii"), slot, _T_STRING, owner.keep)
    elif isinstance(value, datetime.datetime):
        slot.type, slot.number = _T_DOUBLE, seconds_since_1970(value)
    elif depth > _NESTING_LIMIT:
        raise InvalidArgumentError("a value nested more than %d deep (a list holding itself?) cannot be passed"
                                   % _NESTING_LIMIT)
    elif isinstance(value, Record):
        _items(value._values(), slot, _T_RECORD, owner, depth)
        slot.string = None
    elif isinstance(value, Owner):
        slot.type, slot.object = _T_OBJECT, value._h()
    elif isinstance(value, collections.abc.Mapping):
        _items([part for key, item in value.items() for part in (key, item)], slot, _T_MAP, owner, depth, 2)
    elif isinstance(value, collections.abc.Sequence):
        _items(value, slot, _T_ARRAY, owner, depth)
    elif callable(value) and owner.make_service is not None:
        service = owner.make_service(value)
        owner.services.append(service)
        slot.type, slot.object = _T_OBJECT, service._h()
    else:
        raise TypeMismatchError("a %s is no value the library can be given (None, bool, int, float, str, bytes, "
                                "a sequence, a mapping, a record, an mvvm object%s)"
                                % (type(value).__name__, ", a callable as a service" if owner.make_service else ""))


def encode_name(name: Any, what: str) -> bytes:
    """A name (of a property, command, class...) as NUL-terminated UTF-8: whatever the library
    makes of it, except a NUL, which C cannot be given in a name."""
    if not isinstance(name, str):
        raise TypeMismatchError("%s must be a str, not %s" % (what, type(name).__name__))
    if "\x00" in name:
        raise InvalidArgumentError("%s %r holds a NUL character, which a C name cannot" % (what, name))
    return name.encode("utf-8", "surrogatepass")


def names_array(names: Sequence[Optional[bytes]]) -> Any:
    """``const char *const *names`` for ``mvvm_call_named`` and ``mvvm_new_named``: the names of a
    call's arguments (None for one given by position)."""
    return (_char_p * max(1, len(names)))(*names)


# ------------------------------------------------------------------------------------------------
# C -> Python
# ------------------------------------------------------------------------------------------------


def decode(raw: bytes, what: str, *what_arguments: Any) -> str:
    """UTF-8 from C as a Python string; invalid UTF-8 raises InternalError (never crashes).
    ``what % what_arguments`` names the string in errors, formatted only then."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InternalError("%s: the library gave invalid UTF-8 (%s)"
                            % (what % what_arguments if what_arguments else what, error)) from None


def take_string(free: Callable[[int], None], pointer: ctypes.c_void_p, what: str) -> str:
    """Copies and frees (with ``free``, the library's ``mvvm_string_free``) a string the library
    allocated."""
    address = pointer.value
    if not address:
        raise InternalError("%s: the library gave a NULL string" % what)
    try:
        raw = _string_at(address)
    finally:
        free(address)
    return decode(raw, what)


def from_c(value: Union[Value, FlatEvent], library: "Library") -> Any:
    """A value from C as Python (see the module's documentation); a record is of its class in
    ``library``. Raises InternalError for what cannot be read."""
    kind = value.type
    if kind == _T_INT:
        return value.integer
    if kind == _T_BOOL:
        return value.boolean
    if kind == _T_STRING:
        address = value.string
        if not address:
            raise InternalError("the library gave a NULL string")
        return decode(_string_at(address, value.integer), "a string")
    if kind == _T_DOUBLE:
        return value.number
    if kind == _T_NULL or kind == _T_NONE:
        return None
    if kind == _T_BYTES:
        return _string_at(value.string, value.integer) if value.integer else b""
    if kind == _T_ARRAY or kind == _T_RECORD:
        count = value.integer
        items = (Value * count).from_address(value.object) if count else ()
        read = [from_c(item, library) for item in items]
        if kind == _T_ARRAY:
            return read
        record = library._record_at(value.string)  # the description's records alone: no class is built
        return record._make(record._rendered(read) if record._renders else read)
    if kind == _T_UINT:
        return value.integer & _UINT64_MAX
    raise InternalError("unknown mvvm_type %d" % kind)


def value_of(library: "Library", owned: Value) -> Any:
    """:func:`from_c` of a value the caller owns, which is then freed (``mvvm_value_free``)."""
    try:
        return from_c(owned, library)
    finally:
        if owned.type >= _T_STRING:
            library.functions.mvvm_value_free(ctypes.addressof(owned))


#: The kinds carried as a double, whose NaN and infinities a snapshot writes as strings.
_NON_FINITE_KINDS = ("double", "date")


def from_json(properties: Sequence["Property"], values: Dict[str, Any], library: "Library") -> Dict[str, Any]:
    """A snapshot (``mvvm_snapshot``'s JSON) with each value as its getter gives it: a record an
    instance of its class, bytes ``bytes`` (a list property stays its items' ids)."""
    kinds = {p.name: p.type for p in properties}
    return {name: _from_json(kinds[name], value, library, name) if name in kinds else value
            for name, value in values.items()}


def _from_json(kind: "Type", value: Any, library: "Library", what: str) -> Any:
    if value is None:
        return None
    if kind.kind in _NON_FINITE_KINDS and isinstance(value, str):
        value = float(value)  # "NaN", "Infinity", "-Infinity": JSON has no such numbers
    if kind.kind == "bytes":
        return bytes(value)
    if kind.kind == "array" and kind.element is not None:
        return [_from_json(kind.element, item, library, what) for item in value]
    if kind.kind == "record" and kind.record:
        record = library._record_named(kind.record)
        return record._make(_from_json(f.type, value.get(f.name), library, "%s.%s" % (what, f.name))
                            for f in record._model.fields)
    return render(value, kind, what)
