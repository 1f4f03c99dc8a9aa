"""Records: a frozen, typed Python class per record a library registers (a Swift struct of
exportable fields), made at run time from the descriptions' ``records``.

``Address(street="Main 1", city="Oslo")``: fields in their declared order, given by position or
keyword (an optional field left out is ``None``); ``==`` and ``hash`` by class and fields;
``repr`` as ``Address(street='Main 1', city='Oslo', zip_code=None)``; frozen (assigning a field
raises ``AttributeError``; :meth:`Record._replace` makes a changed copy). A field named as a
Python keyword is an attribute with a trailing underscore (:mod:`mvvm_gen.pynames`). A record read from
the library is an instance of its class; one given to it goes by its fields in order (a mapping
of field names goes by name). Which values a field accepts is the library's to say, when the
record is given to it.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, FrozenSet, Iterable, List, Tuple, Type, TypeVar

from mvvm_gen.model import Record as RecordModel
from mvvm_gen.pynames import python_names

from ._kinds import adopt, render, renders

__all__ = ["Record", "record_class"]

_R = TypeVar("_R", bound="Record")


def _hashable(value: Any) -> Any:
    """``value`` with its lists as tuples (an array field is a list), so a record hashes."""
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, _hashable(item)) for key, item in value.items()))
    return value


class Record:
    """The base of every record class."""

    __slots__ = ()

    #: The record's C name (``"address"``).
    _name: ClassVar[str] = ""
    #: The fields' Python names, in declared order.
    _fields: ClassVar[Tuple[str, ...]] = ()
    #: The fields that may hold None, and are None when left out.
    _optional: ClassVar[FrozenSet[str]] = frozenset()
    #: The fields' docs, from the description.
    _model: ClassVar[RecordModel]
    #: Whether a field is of a kind read as Python's own (a UUID, a date, a decimal).
    _renders: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError("%s takes %d field%s, not %d" % (type(self).__name__, len(fields),
                                                             "" if len(fields) == 1 else "s", len(args)))
        values: Dict[str, Any] = dict(zip(fields, args))
        for name, value in kwargs.items():
            if name not in fields:
                raise TypeError("%s has no field %r (its fields: %s)" % (type(self).__name__, name, ", ".join(fields)))
            if name in values:
                raise TypeError("%s got the field %r twice" % (type(self).__name__, name))
            values[name] = value
        missing = [name for name in fields if name not in values and name not in self._optional]
        if missing:
            raise TypeError("%s is missing the field%s %s" % (type(self).__name__, "" if len(missing) == 1 else "s",
                                                              ", ".join(missing)))
        if self._renders:
            # A field of Foundation's kinds given in another accepted form (a UUID's text, a date's
            # seconds, a decimal's int or text) holds Python's type, so the record equals itself
            # read back; a form Python cannot read is kept for the library to refuse.
            for name, field in zip(fields, self._model.fields):
                if values.get(name) is not None:
                    values[name] = adopt(values[name], field.type)
        for name in fields:
            object.__setattr__(self, name, values.get(name))

    @classmethod
    def _make(cls: Type[_R], values: Iterable[Any]) -> _R:
        """A record of ``values``, in field order (as the library gives them)."""
        made = object.__new__(cls)
        for name, value in zip(cls._fields, values):
            object.__setattr__(made, name, value)
        return made

    @classmethod
    def _rendered(cls, values: List[Any]) -> List[Any]:
        """The fields as the library gives them, each in its Python type (:mod:`mvvm._kinds`)."""
        return [render(value, field.type, "%s.%s" % (cls._name, field.name))
                for value, field in zip(values, cls._model.fields)]

    def _values(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def _asdict(self) -> Dict[str, Any]:
        """The fields by Python name, in order."""
        return {name: getattr(self, name) for name in self._fields}

    def _replace(self: _R, **changes: Any) -> _R:
        """A copy with ``changes`` to some fields."""
        values = self._asdict()
        for name, value in changes.items():
            if name not in values:
                raise TypeError("%s has no field %r" % (type(self).__name__, name))
            values[name] = value
        return type(self)(**values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("%s is frozen: make a changed copy with _replace()" % type(self).__name__)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("%s is frozen" % type(self).__name__)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, _hashable(self._values())))

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__,
                           ", ".join("%s=%r" % (name, getattr(self, name)) for name in self._fields))

    def __reduce__(self) -> Any:
        raise TypeError("a %s cannot be pickled: its class is made when its library loads; pickle "
                        "record._asdict() instead" % type(self).__name__)


def record_class(model: RecordModel, python_name: str) -> Type[Record]:
    """The class of the record ``model``, named ``python_name``."""
    names = python_names([f.name for f in model.fields])
    fields = tuple(names[f.name] for f in model.fields)
    doc = model.doc or "The record %s." % model.name
    doc += "\n\nFields: " + ", ".join("%s%s" % (names[f.name], " (optional)" if f.type.optional else "")
                                      for f in model.fields) + "."
    namespace = {"__slots__": fields, "__doc__": doc, "__module__": "mvvm", "_name": model.name, "_fields": fields,
                 "__match_args__": fields, "_optional": frozenset(names[f.name] for f in model.fields if f.type.optional),
                 "_model": model, "_renders": any(renders(f.type) for f in model.fields)}
    cls = type(python_name, (Record,), namespace)
    cls.__qualname__ = python_name
    return cls
