"""Objects: :class:`MvvmObject` (the base of every class the library registers: generic access
by name, children, snapshots, subscriptions), :class:`Subscription`, and the descriptors the
classes made from the library's descriptions are built of (:class:`Output`, :class:`Binding`,
:class:`Child`, commands, model properties).

Objects keep their loop, children their parent, view models their models: nothing is released
under something that needs it.
"""

from __future__ import annotations

import json
import reprlib
import threading
import weakref
from ctypes import byref, c_char_p, c_void_p
from typing import Any, Callable, ClassVar, Dict, Generic, List, Optional, Sequence, Tuple, Type, TypeVar, Union, overload

from . import _lib
from ._callbacks import (
    _DESTROY_TRAMPOLINE,
    _EVENT_TRAMPOLINE,
    EventCallback,
    _Entry,
    _release_now,
    registry,
)
from ._errors import InternalError, InvalidHandleError, ReadOnlyError
from ._lib import lib
from ._list import ObjectList, Splice, object_id
from ._conveniences import Subscriptions, check_arity
from ._conveniences import with_source as with_source_of
from ._loop import Loop
from ._owner import Owner
from ._values import (
    _PYTHON_TYPES,
    _SETTERS,
    Scalar,
    _c_value,
    _check_typed,
    _checked,
    _decode,
    _encode,
    _get_generic,
    _reader,
    _take_string,
    _value_to_c,
    _writer,
)

__all__ = ["MvvmObject", "Subscription", "Output", "Binding", "Child", "camel"]

T = TypeVar("T")
_F = TypeVar("_F", bound=Callable[..., Any])


def camel(name: str) -> str:
    """``sign_up_view_model`` -> ``SignUpViewModel``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))



_CLASSES: Dict[str, Type["MvvmObject"]] = {}
_DESCRIPTIONS: Dict[str, Dict[str, Any]] = {}
_DESCRIPTIONS_LOCK = threading.Lock()


class MvvmObject(Owner):
    """Base of every catalog class: an owned handle on a loop, with generic access.

    ``get``/``set``/``send``/``child``/``subscribe`` work by name on any class; the classes
    made from the library's descriptions (``_dynamic``) add Python properties, methods and
    children over the same generic calls.
    """

    __slots__ = ("_loop", "_refs", "_children")

    #: The C class name, such as ``"sign_up_view_model"``.
    c_class: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("c_class"):
            _CLASSES.setdefault(cls.c_class, cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("%s cannot be constructed directly" % type(self).__name__)

    # -- ownership ---------------------------------------------------------------------------

    def _adopt(self, handle: int, loop: Loop, refs: Tuple[Any, ...] = ()) -> None:
        self._loop: Loop = loop
        self._refs: Tuple[Any, ...] = refs  # parent, models: kept alive while this lives
        self._children: Dict[str, MvvmObject] = {}
        self._own(handle)

    @classmethod
    def _wrap(cls, handle: int, loop: Loop, refs: Tuple[Any, ...] = ()) -> "MvvmObject":
        """Wraps a new handle in the Python class of its C class (it owns the handle)."""
        try:
            name = c_char_p()
            lib.mvvm_class_name(handle, byref(name))
            kind = _CLASSES.get(_decode(name.value, "class name"), cls)
        except BaseException:
            _release_now(handle)
            raise
        obj = kind.__new__(kind)
        obj._adopt(handle, loop, refs)
        return obj

    @property
    def loop(self) -> Loop:
        """The loop the object lives on."""
        return self._loop

    @property
    def closed(self) -> bool:
        """Whether it was closed, or its loop was (then only ``close()`` works)."""
        return not self._handle or self._loop.closed

    def close(self) -> None:
        """Releases the handle (once; again does nothing): its subscriptions end, its pending
        requests are cancelled, and the children handed out by its attributes are closed too."""
        children, self._children = self._children, {}
        for child in children.values():
            child.close()
        self._release()

    def __repr__(self) -> str:
        """``<mvvm.Counter count=1>``: the class and every property's current value."""
        if self.closed:
            return "<mvvm.%s closed>" % type(self).__name__
        try:
            values = self.snapshot()
        except Exception:
            return "<mvvm.%s handle=0x%x>" % (type(self).__name__, self._handle)
        shown = " ".join("%s=%s" % (key, reprlib.repr(value)) for key, value in values.items())
        return "<mvvm.%s%s>" % (type(self).__name__, " " + shown if shown else "")

    # -- introspection ------------------------------------------------------------------------

    @property
    def class_name(self) -> str:
        """The C class name, as the library says (``mvvm_class_name``)."""
        name = c_char_p()
        lib.mvvm_class_name(self._h(), byref(name))
        return _decode(name.value, "class name")

    def describe(self) -> Dict[str, Any]:
        """What the class offers: ``{"class", "properties", "commands", "signals", "children"}``."""
        out = c_void_p()
        lib.mvvm_describe(self._h(), byref(out))
        described: Dict[str, Any] = json.loads(_take_string(out, "describe"))
        return described

    def snapshot(self) -> Dict[str, Scalar]:
        """Every property's current value."""
        out = c_void_p()
        lib.mvvm_snapshot(self._h(), byref(out))
        values: Dict[str, Scalar] = json.loads(_take_string(out, "snapshot"))
        return values

    def _property_types(self) -> Dict[str, Tuple[str, str]]:
        """``{name: (type, access)}`` from the library's description of this class (cached)."""
        key = self.c_class or self.class_name
        description = _DESCRIPTIONS.get(key)
        if description is None:
            described = self.describe()
            description = {p["name"]: (p["type"], p["access"]) for p in described.get("properties", [])}
            with _DESCRIPTIONS_LOCK:
                _DESCRIPTIONS.setdefault(key, description)
        return description

    # -- generic access -----------------------------------------------------------------------

    def get(self, name: str) -> Scalar:
        """The value of the property ``name`` (``mvvm_get_<type>``)."""
        handle = self._h()
        encoded = _encode(name, "property name")
        kind = self._property_types().get(name, ("bool", "?"))[0]  # unknown: let C say so
        if kind == "list":
            return ObjectList(self, name)  # type: ignore[return-value]
        return _get_generic(handle, encoded, kind, name)

    @property
    def object_id(self) -> int:
        """The identity of the Swift object behind this handle (``mvvm_object_id``): one int for
        its whole life, the same through every handle to it (an item read twice from a list, or
        moved within it, has one ``object_id``)."""
        return object_id(self)

    def set(self, name: str, value: Scalar) -> None:
        """Sets the binding ``name`` (``mvvm_set_<type>``); the library refuses outputs."""
        handle = self._h()
        encoded = _encode(name, "property name")
        known = self._property_types().get(name)
        what = "%s.%s" % (type(self).__name__, name)
        if known is None:  # unknown: let C say so, with a setter matching the value
            kind = {bool: "bool", int: "int", float: "double", str: "string"}.get(type(value), "string")
        else:
            kind = known[0]
        checked = _check_typed(kind, value, what)
        getattr(lib, _SETTERS[kind])(handle, encoded, checked)

    def send(self, command: str, argument: Scalar = None) -> None:
        """Sends ``command`` with ``argument`` (None when it takes none) (``mvvm_send``)."""
        handle = self._h()
        encoded = _encode(command, "command name")
        if argument is None:
            lib.mvvm_send(handle, encoded, None)
        else:
            value = _value_to_c(argument, "argument of %s" % command)
            lib.mvvm_send(handle, encoded, byref(value))

    def child(self, name: str) -> "MvvmObject":
        """A new object for the child ``name`` (``mvvm_child``), owned by the caller; it keeps
        this object alive. The attribute form (``vm.display``) is cached and closed with this."""
        handle = self._h()
        out = _lib.Handle()
        lib.mvvm_child(handle, _encode(name, "child name"), byref(out))
        return MvvmObject._wrap(out.value, self._loop, (self,))

    def _cached_child(self, name: str, function: Callable[..., int]) -> "MvvmObject":
        existing = self._children.get(name)
        if existing is not None and not existing.closed:
            return existing
        out = _lib.Handle()
        function(self._h(), byref(out))
        made = MvvmObject._wrap(out.value, self._loop, (self,))
        kept = self._children.setdefault(name, made)
        if kept is not made:
            if kept.closed:
                self._children[name] = kept = made
            else:
                made.close()
        return kept

    # -- notifications ------------------------------------------------------------------------

    @overload
    def subscribe(self, name: Optional[str], fn: Callable[..., Any], *, initial: bool = ...,
                  with_source: bool = ..., on_end: Optional[Callable[[], Any]] = ...) -> "Subscription": ...

    @overload
    def subscribe(self, name: Union[List[str], Tuple[str, ...]], fn: Callable[..., Any], *, initial: bool = ...,
                  with_source: bool = ..., on_end: Optional[Callable[[], Any]] = ...) -> Subscriptions: ...

    @overload
    def subscribe(self, name: Union[str, List[str], Tuple[str, ...], None] = ..., fn: None = ..., *,
                  initial: bool = ..., with_source: bool = ...,
                  on_end: Optional[Callable[[], Any]] = ...) -> Callable[[_F], _F]: ...

    def subscribe(self, name: Union[str, List[str], Tuple[str, ...], None] = None,
                  fn: Optional[Callable[..., Any]] = None, *, initial: bool = False, with_source: bool = False,
                  on_end: Optional[Callable[[], Any]] = None) -> Any:
        """Calls ``fn(name, value)`` for each change of the property or signal ``name`` (None:
        every property and signal; a list or tuple: each of those names), with the new value
        as a Python object. Returns the :class:`Subscription` (a :class:`Subscriptions` list
        for several names); the callback stays subscribed even if it is not kept.

        * Without ``fn`` it is a decorator: ``@form.subscribe("password")`` over a
          ``def changed(name, value)`` subscribes it and leaves the function as it is.
        * ``initial=True``: ``fn`` is also called at once with each property's current value
          (as ``BehaviorSubject`` does; signals have none); for a list, with
          ``Splice(0, 0, len(list))``: the whole list inserted, so one splice handler fills a
          view from empty and keeps it up to date.
        * ``with_source=True``: ``fn(source, name, value)``, ``source`` being this object.
        * A callback that cannot take those arguments raises TypeError here, not later.
        * ``on_end()``, when given, is called once when the subscription ends (unsubscribed,
          or its object or loop closed), possibly on the loop's thread."""
        if fn is None:
            def decorator(function: _F) -> _F:
                self.subscribe(name, function, initial=initial, with_source=with_source, on_end=on_end)
                return function
            return decorator
        check_arity(fn, 3 if with_source else 2, "the callback")
        callback = with_source_of(self, fn) if with_source else fn
        if isinstance(name, (list, tuple)):
            made = Subscriptions()
            try:
                for one in name:
                    made.append(self._subscribe_one(one, callback, initial, on_end))
            except BaseException:
                made.unsubscribe()
                raise
            return made
        return self._subscribe_one(name, callback, initial, on_end)

    def _subscribe_one(self, name: Optional[str], fn: Callable[[str, Any], Any], initial: bool,
                       on_end: Optional[Callable[[], Any]]) -> "Subscription":
        handle = self._h()
        encoded = None if name is None else _encode(name, "property or signal name")
        what = "%s of %s" % ("every change" if name is None else repr(name), type(self).__name__)
        key = registry.add(_Entry(fn, what, on_end=on_end))
        out = _lib.Handle()
        try:
            lib.mvvm_subscribe(handle, encoded, _EVENT_TRAMPOLINE, key, _DESTROY_TRAMPOLINE, byref(out))
        except BaseException:
            registry.pop(key)  # if the library did not run the destroy function already
            raise
        subscription = Subscription(self, name, out.value, key)
        if initial:
            types = self._property_types()
            for current in ([name] if name is not None else list(types)):
                if current not in types:
                    continue
                if types[current][0] == "list":  # the whole list, as one insertion at 0
                    fn(current, Splice(0, 0, len(ObjectList(self, current))))
                else:
                    fn(current, self.get(current))
        return subscription



class Subscription(Owner):
    """A subscription of a callback to an object. ``unsubscribe()`` (or leaving ``with``) ends
    it; it also ends when its object or the object's loop is closed. Not ended by garbage
    collection: dropping the Subscription keeps the callback subscribed."""

    __slots__ = ("source", "name", "_key")

    def __init__(self, source: MvvmObject, name: Optional[str], handle: int, key: int) -> None:
        #: The object subscribed to.
        self.source: MvvmObject = source
        #: The property or signal name (None: every one).
        self.name: Optional[str] = name
        self._key = key
        self._own(handle, collect=False)  # garbage collection does not end it

    @property
    def closed(self) -> bool:
        """Whether it ended (``not active``)."""
        return not self.active

    @property
    def active(self) -> bool:
        """Whether the library may still call the callback (its destroy function has not run)."""
        return self._key in registry

    def unsubscribe(self) -> None:
        """Ends the subscription; the callback is not called again. Idempotent."""
        if self._key not in registry:
            return
        try:
            lib.mvvm_unsubscribe(self._handle)
        except InvalidHandleError:
            pass  # ended meanwhile (its object or loop was released)

    def close(self) -> None:
        """The same as :meth:`unsubscribe`."""
        self.unsubscribe()

    def __repr__(self) -> str:
        return "<mvvm.Subscription %r of %r %s>" % (self.name, self.source,
                                                    "active" if self.active else "ended")


# ------------------------------------------------------------------------------------------------
# Properties and children
# ------------------------------------------------------------------------------------------------


class Output(Generic[T]):
    """A read-only property (an output): ``obj.name`` reads it with ``mvvm_get_<type>``;
    assigning raises :class:`~mvvm.ReadOnlyError` (an ``AttributeError``) before C."""

    def __init__(self, owner_name: str, description: Dict[str, Any]) -> None:
        self.name: str = description["name"]
        self.type_name: str = description["type"]
        self.values: Optional[List[str]] = description.get("values")
        self.owner_name = owner_name
        self._what = "%s.%s" % (owner_name, self.name)
        self._encoded = self.name.encode("utf-8")
        self._read = _reader(self.type_name, self._encoded, self._what)
        doc = description.get("doc") or ""
        if self.values:
            doc = (doc + " One of: " + ", ".join(self.values) + ".").strip()
        self.__doc__ = "%s (%s%s)" % (doc or self.name, _PYTHON_TYPES.get(self.type_name, self.type_name),
                                      ", read-only" if description.get("access") != "rw" else "")

    @overload
    def __get__(self, obj: None, owner: Any) -> "Output[T]": ...

    @overload
    def __get__(self, obj: MvvmObject, owner: Any) -> T: ...

    def __get__(self, obj: Optional[MvvmObject], owner: Any) -> Any:
        if obj is None:
            return self
        return self._read(obj._h())

    def __set__(self, obj: MvvmObject, value: Any) -> None:
        raise ReadOnlyError("%s is an output (read-only); only bindings can be set" % self._what)

    def __repr__(self) -> str:
        return "<%s %s: %s>" % (type(self).__name__, self._what, self.type_name)


class Binding(Output[T]):
    """A read-write property (a binding): also set with ``mvvm_set_<type>``, the value checked
    first (:class:`~mvvm.TypeMismatchError`, a ``TypeError``; :class:`~mvvm.InvalidArgumentError`
    out of range or not one of ``values``)."""

    def __init__(self, owner_name: str, description: Dict[str, Any]) -> None:
        super().__init__(owner_name, description)
        self._write = _writer(self.type_name, self._encoded, self._what, self.values)

    def __set__(self, obj: MvvmObject, value: Any) -> None:
        self._write(obj._h(), value)


class Child(Generic[T]):
    """A child view model: ``obj.name`` makes it once (``mvvm_child``) and caches it; it keeps
    its parent alive and is closed with it."""

    def __init__(self, name: str, class_name: str, doc: str = "") -> None:
        self.name = name
        self.class_name = class_name
        self.__doc__ = doc or "The %s child (%s)." % (name, camel(class_name))
        encoded = name.encode("utf-8")
        child = lib.mvvm_child
        self._function = lambda handle, out: child(handle, encoded, out)

    @overload
    def __get__(self, obj: None, owner: Any) -> "Child[T]": ...

    @overload
    def __get__(self, obj: MvvmObject, owner: Any) -> T: ...

    def __get__(self, obj: Optional[MvvmObject], owner: Any) -> Any:
        if obj is None:
            return self
        return obj._cached_child(self.name, self._function)

    def __set__(self, obj: MvvmObject, value: Any) -> None:
        raise AttributeError("the child %s cannot be replaced" % self.name)


def _command(owner_name: str, description: Dict[str, Any]) -> Callable[..., None]:
    name = description["name"]
    encoded = name.encode("utf-8")
    argument_type = description.get("argument", "none")
    values = description.get("values")
    what = "the argument of %s.%s" % (owner_name, name)
    send = lib.mvvm_send
    command: Callable[..., None]
    if argument_type == "none":
        def plain(self: MvvmObject) -> None:
            send(self._h(), encoded, None)
        command = plain
    else:
        def with_argument(self: MvvmObject, argument: Any) -> None:
            value = _c_value(argument_type, _checked(argument_type, argument, what, values))
            send(self._h(), encoded, byref(value))
        command = with_argument
    command.__name__ = name
    command.__module__ = "mvvm"
    command.__qualname__ = "%s.%s" % (owner_name, name)
    doc = description.get("doc") or ""
    if argument_type != "none":
        kind = _PYTHON_TYPES.get(argument_type, argument_type)
        doc += "\n\n``argument``: %s%s." % (kind, (", one of " + ", ".join(map(repr, values))) if values else "")
    command.__doc__ = doc.strip() or "Sends the command %s (``mvvm_send``)." % name
    return command


def _model_property(name: str, classes: Sequence[str]) -> property:
    def model(self: MvvmObject) -> Optional[MvvmObject]:
        models: Dict[str, MvvmObject] = getattr(self, "_arguments", {})
        return models.get(name)
    model.__name__ = name
    model.__doc__ = "The model (%s) this object was made over; None when made otherwise." % \
        " or ".join(camel(c) for c in classes)
    return property(model)


