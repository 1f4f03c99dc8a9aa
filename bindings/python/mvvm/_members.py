"""The members of a class made from its description: :class:`Property` (read and set),
:class:`Child`, :class:`ModelProperty` and :func:`command` (a method per command). Each is
built for one library and calls only it.

A property is read and set through the generic calls, ``mvvm_get`` and ``mvvm_set``, with the
value converted by :mod:`mvvm._values`; the library converts or refuses (an output refuses to
be set with :class:`~mvvm.ReadOnlyError`). Where it cannot change the answer, a faster road is
taken: a plain bool, int or double property (not optional) is read with its typed getter, and a
property of a plain kind is set with its typed setter when the Python value is exactly of that
kind (``bool`` for bool, ``int`` in the int64 range for int, ``float`` for double, a ``str``
without NUL for string).

With the fast path (:mod:`mvvm._fastpath`), :class:`Property` derives from the C extension's
``PropertyBase``, whose descriptor slots take those faster roads in C (its ``__get__`` and
``__set__``) and hand every other value and kind to the same Python reader and writer.
"""

from __future__ import annotations

import inspect
from ctypes import byref, c_bool, c_double, c_int64, string_at
from typing import (TYPE_CHECKING, Any, Callable, Dict, Generic, List, Mapping, Optional, Tuple, TypeVar, Union, cast,
                    overload)

from mvvm_gen.model import Command, Property as PropertyModel, Type
from mvvm_gen.pynames import camel, python_names

from ._abi import TYPE_BOOL, TYPE_DOUBLE, TYPE_INT, TYPE_NONE, TYPE_STRING, Value
from ._calls import start
from ._fastpath import fast
from ._interrupts import pending
from ._releases import pending as deferred_releases
from ._kinds import renderer
from ._values import Values, value_of

if TYPE_CHECKING:
    from ._library import Library
    from ._object import MvvmObject

__all__ = ["Member", "Property", "Child", "ModelProperty", "command", "keyword_map", "type_text"]

T = TypeVar("T")
_M = TypeVar("_M")
#: The plain kinds read with a typed getter (when not optional): the getter, the ctypes cell it fills.
_TYPED_GETTERS: Dict[str, Tuple[str, Callable[[], Union[c_bool, c_int64, c_double]]]] = {
    "bool": ("mvvm_get_bool", c_bool), "int": ("mvvm_get_int", c_int64), "double": ("mvvm_get_double", c_double)}
#: The plain kinds the C extension reads and sets itself, as its mvvm_type numbers.
_FAST_KINDS = {"bool": TYPE_BOOL, "int": TYPE_INT, "double": TYPE_DOUBLE, "string": TYPE_STRING}

if TYPE_CHECKING:
    _PropertyBase = object
else:  # with the fast path, the C slots of the extension's base read and set
    _PropertyBase = object if fast is None else fast.PropertyBase


def type_text(kind: Type) -> str:
    """How the docs name a type: ``int``, ``str or None``, ``list of str``, ``Address``."""
    if kind.kind == "array" and kind.element is not None:
        text = "list of %s" % type_text(kind.element)
    elif kind.kind == "record":
        text = camel(kind.record or "record")
    elif kind.kind == "list":
        text = "list of %s" % camel(kind.item_class or "objects")
    else:
        text = {"bool": "bool", "int": "int", "double": "float", "string": "str", "bytes": "bytes",
                "none": "None", "uuid": "uuid.UUID", "date": "datetime.datetime (UTC)", "url": "str (a URL)",
                "decimal": "decimal.Decimal"}.get(kind.kind, kind.kind)
    if kind.values:
        text += ", one of " + ", ".join(map(repr, kind.values))
    return text + (" or None" if kind.optional else "")


class Member(Generic[T]):
    """A typed member (:class:`Property`, :class:`Child`, :class:`~mvvm._list.ListProperty`) as the
    type checkers see it: read on its class, itself; read on an object, a ``T``. At run time each
    member's own ``_get`` is its ``__get__``, with no call in between (reading a property is the
    hottest path)."""

    if TYPE_CHECKING:
        @overload
        def __get__(self: _M, obj: None, owner: Any) -> _M: ...

        @overload
        def __get__(self, obj: "MvvmObject", owner: Any) -> T: ...

        def __get__(self, obj: Optional["MvvmObject"], owner: Any) -> Any: ...


class Property(Member[T], _PropertyBase):
    """A property: ``obj.name`` reads it, ``obj.name = value`` sets it (the library refuses an
    output: :class:`~mvvm.ReadOnlyError`, an ``AttributeError``)."""

    def __init__(self, owner_name: str, model: PropertyModel, library: "Library") -> None:
        self.name: str = model.name
        self.type: Type = model.type
        self.writable: bool = model.writable
        self.owner_name = owner_name
        self._encoded = model.name.encode("utf-8")
        read = self._reader(library)
        rendering = renderer(model.type, "%s.%s" % (owner_name, model.name))
        self._read = read if rendering is None else lambda handle: rendering(read(handle))
        write = self._general_writer(library)
        self._write = self._writer(library, write)
        self.__doc__ = "%s (%s%s)" % (model.doc or model.name, type_text(model.type),
                                      "" if model.writable else ", read-only")
        if fast is not None:
            self._bind_to_extension(library, rendering is None, write)

    @property
    def type_name(self) -> str:
        """The type's kind as the description names it (``"int"``, ``"array"``...)."""
        return self.type.kind

    def _bind_to_extension(self, library: "Library", unrendered: bool, write: Callable[[int, Any], None]) -> None:
        """Gives the C base what it reads and sets with: the plain kinds it reads as :meth:`_reader`
        does (by their typed getters, a string by ``mvvm_get``: not an optional, a UInt64 or a kind
        rendered) and sets as :meth:`_writer` does; the reader and ``write`` for everything else."""
        kind = _FAST_KINDS.get(self.type.kind, TYPE_NONE)
        plain = unrendered and not self.type.optional and self.type.c_type != "uint64_t"

        def read_value(address: int) -> Any:  # a value mvvm_get gave that is no readable string
            return value_of(library, Value.from_address(address))
        cast(Any, self)._bind_fast_path(library.fast_functions, self._encoded, kind if plain else TYPE_NONE, kind,
                                        self._read, write, read_value, library.check, deferred_releases)

    def _reader(self, library: "Library") -> Callable[[int], Any]:
        encoded = self._encoded
        kind = self.type.kind if not self.type.optional else None
        functions = library.functions
        if self.type.c_type == "uint64_t":
            kind = None  # read with mvvm_get, which gives a UInt64 as MVVM_TYPE_UINT
        if kind in _TYPED_GETTERS:
            getter, cell = _TYPED_GETTERS[kind]
            get_typed = getattr(functions, getter)

            def read_typed(handle: int) -> Any:
                value = cell()
                get_typed(handle, encoded, byref(value))
                return value.value
            return read_typed
        get = functions.mvvm_get  # strings too: read by their length
        if kind == "string":
            free = functions.mvvm_value_free

            def read_string(handle: int, string: int = TYPE_STRING) -> Any:
                value = Value()
                reference = byref(value)
                get(handle, encoded, reference)
                if value.type != string:
                    return value_of(library, value)
                try:
                    return string_at(value.string, value.integer).decode("utf-8")
                except UnicodeDecodeError:
                    return value_of(library, value)  # which raises InternalError, naming it
                finally:
                    free(reference)
            return read_string

        def read(handle: int) -> Any:
            value = Value()
            get(handle, encoded, byref(value))
            return value_of(library, value)
        return read

    def _general_writer(self, library: "Library") -> Callable[[int, Any], None]:
        """Sets any value with ``mvvm_set``, converted by :mod:`mvvm._values`."""
        encoded = self._encoded
        set_value = library.functions.mvvm_set

        def write(handle: int, value: Any) -> None:
            values = Values([value])
            set_value(handle, encoded, values.array)
        return write

    def _writer(self, library: "Library", write: Callable[[int, Any], None]) -> Callable[[int, Any], None]:
        """``write``, or for a plain kind the typed setter when the value is exactly of it."""
        encoded = self._encoded
        kind = self.type.kind
        if kind not in ("bool", "int", "double", "string"):
            return write
        name = {"bool": "mvvm_set_bool", "int": "mvvm_set_int", "double": "mvvm_set_double",
                "string": "mvvm_set_string"}[kind]
        setter = library.unchecked(name)
        check = library.check
        plain: Any = {"bool": bool, "int": int, "double": float, "string": str}[kind]

        if kind == "string":
            def write_string(handle: int, value: Any) -> None:
                if type(value) is str and "\x00" not in value:
                    try:
                        status = setter(handle, encoded, value.encode("utf-8"))
                    except UnicodeEncodeError:
                        write(handle, value)  # the library names what is wrong with it
                        return
                    if status or pending.count:
                        check(status, name)
                else:
                    write(handle, value)
            return write_string

        # ctypes would wrap an int beyond int64's range silently: such an int goes through
        # mvvm_set, which refuses it by name.
        checks_range = kind == "int"

        def write_plain(handle: int, value: Any) -> None:
            if type(value) is plain and (not checks_range or -(2**63) <= value < 2**63):
                status = setter(handle, encoded, value)
                if status or pending.count:
                    check(status, name)
            else:
                write(handle, value)
        return write_plain

    def _get(self, obj: Optional["MvvmObject"], owner: Any) -> Any:
        if obj is None:
            return self
        return self._read(obj._h())

    def _set(self, obj: "MvvmObject", value: Any) -> None:
        # obj._h() inlined for an open object with no release deferred: this runs for every set.
        handle = obj._handle
        if not handle or deferred_releases:
            handle = obj._h()
        self._write(handle, value)

    if TYPE_CHECKING:
        def __set__(self, obj: "MvvmObject", value: Any) -> None: ...
    elif fast is None:  # (with the fast path, the base's C slots are __get__ and __set__)
        __get__ = _get
        __set__ = _set

    def __repr__(self) -> str:
        return "<Property %s.%s: %s%s>" % (self.owner_name, self.name, type_text(self.type),
                                           "" if self.writable else ", read-only")


class Child(Member[T]):
    """A child view model: ``obj.name`` makes it once (``mvvm_child``) and caches it; it keeps
    its parent alive and is closed with it."""

    def __init__(self, name: str, class_name: str) -> None:
        self.name = name
        self.class_name = class_name
        self._encoded = name.encode("utf-8")
        self.__doc__ = "The %s child (%s)." % (name, camel(class_name))

    def _get(self, obj: Optional["MvvmObject"], owner: Any) -> Any:
        if obj is None:
            return self
        return obj._cached_child(self.name, self._encoded)

    if not TYPE_CHECKING:
        __get__ = _get

    def __set__(self, obj: "MvvmObject", value: Any) -> None:
        raise AttributeError("the child %s cannot be replaced" % self.name)


class ModelProperty:
    """A model the object was made over (a constructor's model argument, ``screen.timer``);
    None when it was made otherwise."""

    def __init__(self, name: str, classes: List[str]) -> None:
        self.name = name
        self.__doc__ = "The model (%s) this object was made over; None when made otherwise." % \
            " or ".join(camel(c) for c in classes)

    def __get__(self, obj: Optional["MvvmObject"], owner: Any) -> Any:
        if obj is None:
            return self
        return obj._arguments.get(self.name)

    def __set__(self, obj: "MvvmObject", value: Any) -> None:
        raise AttributeError("the model %s cannot be replaced" % self.name)


def command(owner_name: str, model: Command, library: "Library") -> Callable[..., Any]:
    """The method of a command: ``obj.name(*args, **kwargs)`` runs it with ``mvvm_call_named``
    (its arguments by position and by name, a keyword one with a trailing underscore) and gives
    its result; the library converts or refuses. A command that takes no argument and returns
    nothing, called with none, goes through ``mvvm_send``, the library's cheaper call for it.
    An ``async`` command's method starts it with ``mvvm_call_async`` and returns its
    :class:`~mvvm.AsyncCall` (:func:`async_command`)."""
    encoded = model.name.encode("utf-8")
    keywords = keyword_map([a.name for a in model.arguments])
    call = library.functions.mvvm_call_named
    send = library.functions.mvvm_send

    if model.is_async:
        run = async_command(owner_name, model, library)
    elif model.result.is_none and not model.arguments:
        def run(self: "MvvmObject", *args: Any, **kwargs: Any) -> Any:
            if args or kwargs:
                return self._invoke(encoded, args, kwargs, keywords)
            send(self._h(), encoded, None)  # no argument, no result: the library's cheaper call
            return None
    else:
        def run(self: "MvvmObject", *args: Any, **kwargs: Any) -> Any:
            if args or kwargs:
                return self._invoke(encoded, args, kwargs, keywords)
            result = Value()
            call(self._h(), encoded, None, None, 0, byref(result))
            return None if result.type == TYPE_NONE else value_of(library, result)

    rendering = renderer(model.result, "the result of %s.%s" % (owner_name, model.name))
    if rendering is not None and not model.is_async:
        plain = run

        def run(self: "MvvmObject", *args: Any, **kwargs: Any) -> Any:
            return rendering(plain(self, *args, **kwargs))

    python = python_names([a.name for a in model.arguments])
    run.__name__ = model.name
    run.__module__ = "mvvm"
    run.__qualname__ = "%s.%s" % (owner_name, model.name)
    run.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(python[a.name], inspect.Parameter.POSITIONAL_OR_KEYWORD) for a in model.arguments])
    lines = [model.doc or "Runs the command %s." % model.name]
    if model.arguments:
        lines.append("")
        lines.extend("``%s``: %s." % (python[a.name], type_text(a.type)) for a in model.arguments)
    if model.is_async:
        lines.append("")
        lines.append("An async command: returns an mvvm.AsyncCall, a concurrent.futures.Future of its result "
                     "(%s) that can be awaited; cancel() cancels it (mvvm.CallCancelledError)."
                     % type_text(model.result))
        if model.throws:
            lines.append("The call ends with mvvm.CommandError when the command fails.")
    else:
        if not model.result.is_none:
            lines.append("")
            lines.append("Returns %s." % type_text(model.result))
        if model.throws:
            lines.append("")
            lines.append("Raises mvvm.CommandError when it fails.")
    run.__doc__ = "\n".join(lines)
    return run


def async_command(owner_name: str, model: Command, library: "Library") -> Callable[..., Any]:
    """The method of an ``async`` command: ``obj.name(*args, **kwargs)`` starts it with
    ``mvvm_call_async`` (its arguments as a plain command's) and returns its
    :class:`~mvvm.AsyncCall`, awaitable (see :mod:`mvvm._calls`)."""
    encoded = model.name.encode("utf-8")
    keywords = keyword_map([a.name for a in model.arguments])
    what = "%s.%s" % (owner_name, model.name)
    call_async = library.unchecked("mvvm_call_async")  # checked by start
    rendering = renderer(model.result, "the result of " + what)

    def run(self: "MvvmObject", *args: Any, **kwargs: Any) -> Any:
        return start(self, call_async, encoded, args, kwargs, keywords, what, rendering)
    return run


def keyword_map(arguments: List[str]) -> Mapping[str, str]:
    """Python keyword name -> argument name, for the arguments of a call."""
    return {python: name for name, python in python_names(arguments).items()}
