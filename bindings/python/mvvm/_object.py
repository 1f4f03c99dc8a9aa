"""Objects: :class:`MvvmObject`, the base of every class a library registers (generic access by
name, children, snapshots, subscriptions, construction), and :class:`Subscription`.

A view model's members win their names: a generated class's command ``close`` or property
``description`` hides the base's method of that name. So the package's own operations are private
methods here (``_get``, ``_subscribe``, ``_close``...), reached by the public methods when no
member hides them, and always by the module functions (:func:`mvvm.get`, :func:`mvvm.subscribe`,
:func:`mvvm.close`...): no code of the package calls a public method of an object.

Objects keep their loop, children their parent, view models their models: nothing is released
under something that needs it. Objects compare and hash by the identity of the Swift object
behind them (:func:`mvvm.object_id`): two reads of one list item are equal.
"""

from __future__ import annotations

import json
import reprlib
import weakref
from ctypes import byref, c_char_p, c_int64, c_uint64, c_void_p
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar,
                    Union, overload)

from mvvm_gen.model import Class as ClassModel

from ._abi import TYPE_NONE, Value
from ._conveniences import Subscriptions, check_arity
from ._conveniences import with_source as with_source_of
from ._errors import InvalidHandleError
from ._loop import Loop
from ._owner import Owner
from ._registry import Entry, registry
from ._splices import Splice
from ._trampolines import DESTROY_TRAMPOLINE, EVENT_TRAMPOLINE
from ._values import Values, decode, encode_name, from_json, names_array, take_string, value_of

if TYPE_CHECKING:
    from ._library import Library
    from ._members import Property

__all__ = ["MvvmObject", "Subscription"]

_F = TypeVar("_F", bound=Callable[..., Any])
#: ``send(command)`` without an argument.
_NO_ARGUMENT: Any = object()


def _rendering(fn: Callable[[str, Any], Any], renderers: Mapping[str, Callable[[Any], Any]]) -> Callable[[str, Any], Any]:
    """``fn`` told the values of ``renderers``' members in their Python types (a UUID, a date...)."""
    def rendered(name: str, value: Any) -> Any:
        rendering = renderers.get(name)
        return fn(name, value if rendering is None else rendering(value))
    return rendered


class MvvmObject(Owner):
    """Base of every class a library registers: an owned handle on a loop, with generic access.

    ``get``/``set``/``send``/``call``/``child``/``subscribe``/``describe``/``snapshot`` work by
    name on any class (and as module functions, which no member hides); the classes made from
    the library's descriptions add its members as attributes over the same calls.
    """

    __slots__ = ("_loop", "_refs", "_children", "_id", "_arguments")

    #: The C class name, such as ``"login_view_model"`` (a member ``c_class`` hides it: the C
    #: name stays in ``library.classes``' keys and :func:`mvvm.class_name`).
    c_class: ClassVar[str] = ""
    #: The library the class belongs to (None for this base).
    _class_library: ClassVar[Optional["Library"]] = None
    _c_name: ClassVar[bytes] = b""
    #: The typed description of the class.
    _model: ClassVar[Optional[ClassModel]] = None
    #: Constructor keyword (Python name) -> argument name; commands' too, by command.
    _keywords: ClassVar[Mapping[str, str]] = {}
    _command_keywords: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: The property descriptors, by C name.
    _properties: ClassVar[Mapping[str, "Property[Any]"]] = {}
    #: How the change events of properties and signals of kinds read as Python's own (a UUID, a
    #: date...) are rendered, by name.
    _renderers: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}

    _loop: Loop
    _refs: Tuple[Any, ...]
    _children: Dict[str, "MvvmObject"]
    _id: int
    _arguments: Dict[str, "MvvmObject"]

    def __init__(self, loop: Loop, *args: Any, **kwargs: Any) -> None:
        """Makes an object of the class on ``loop`` with ``mvvm_new_named``: the arguments by
        position and by name (a keyword or a name taken has a trailing underscore, ``from_=``),
        converted as :mod:`mvvm._values` says; the library chooses the constructor, or refuses."""
        cls = type(self)
        library = cls._class_library
        if library is None:
            raise TypeError("%s cannot be constructed directly: use a class of a library" % cls.__name__)
        self._construct(library, loop, cls._c_name, args, kwargs, cls._keywords)

    # -- ownership ---------------------------------------------------------------------------

    def _construct(self, library: "Library", loop: Loop, c_name: bytes, args: Sequence[Any],
                   kwargs: Mapping[str, Any], keywords: Mapping[str, str]) -> None:
        if not isinstance(loop, Loop):
            raise TypeError("the first argument must be an mvvm.Loop, not %s" % type(loop).__name__)
        namespace = library._built()
        what = "a service of %s" % c_name.decode("utf-8", "replace")
        values = Values(list(args) + list(kwargs.values()), lambda fn: namespace.Service(fn, what))
        try:
            names = names_array([None] * len(args) + [encode_name(keywords.get(k, k), "an argument name")
                                                      for k in kwargs]) if kwargs else None
            out = c_uint64()
            library.functions.mvvm_new_named(loop._h(), c_name, names, values.array, values.count, byref(out))
        finally:
            values.close()  # the view model keeps its services; their handles are not needed
        self._adopt(library, out.value, loop, tuple(v for v in list(args) + list(kwargs.values())
                                                    if isinstance(v, MvvmObject)))
        self._arguments = self._models(args, kwargs, keywords)
        for service in values.services:
            service._entry.owner = weakref.ref(self)  # type: ignore[attr-defined]
        namespace.by_handle[out.value] = self

    def _models(self, args: Sequence[Any], kwargs: Mapping[str, Any], keywords: Mapping[str, str]) -> Dict[str, Any]:
        """The models given, by their argument's name (for the model attributes): a keyword's,
        or at a position, the name there in the constructor the library chose (``mvvm_describe``'s
        "constructor")."""
        models = {keywords.get(k, k): v for k, v in kwargs.items() if isinstance(v, MvvmObject)}
        model = type(self)._model
        if model is not None and any(isinstance(v, MvvmObject) for v in args):
            chosen = self._describe()["constructor"]
            for constructor in model.constructors:
                if constructor.name == chosen:
                    for argument, value in zip(constructor.arguments, args):
                        if isinstance(value, MvvmObject):
                            models[argument.name] = value
        return models

    def _adopt(self, library: "Library", handle: int, loop: Loop, refs: Tuple[Any, ...] = ()) -> None:
        self._loop = loop
        self._refs = refs  # parent, models: kept alive while this lives
        self._children = {}
        self._arguments = {}
        self._own(library, handle)
        out = c_int64()
        library.functions.mvvm_object_id(handle, byref(out))
        self._id = out.value

    def _wrap(self, handle: int, refs: Tuple[Any, ...] = ()) -> "MvvmObject":
        """A new handle of this object's library and loop, wrapped in the Python class of its C
        class (it owns the handle)."""
        library = self._library
        try:
            name = c_char_p()
            library.functions.mvvm_class_name(handle, byref(name))
            kind = library._built().classes.get(decode(name.value or b"", "a class name"), MvvmObject)
            made: MvvmObject = kind.__new__(kind)
            made._adopt(library, handle, self._loop, refs)
        except BaseException:
            library.release_quietly(handle)
            raise
        return made

    @property
    def loop(self) -> Loop:
        """The loop the object lives on (:func:`mvvm.loop_of`)."""
        return self._loop

    def _is_closed(self) -> bool:
        return super()._is_closed() or self._loop._is_closed()

    @property
    def closed(self) -> bool:
        """Whether it was closed, or its loop was (then only closing works) (:func:`mvvm.is_closed`)."""
        return self._is_closed()

    def _close(self) -> None:
        children, self._children = self._children, {}
        for child in children.values():
            child._close()
        self._release()

    def close(self) -> None:
        """Releases the handle (once; again does nothing): its subscriptions end, its pending
        requests are cancelled, and the children handed out by its attributes are closed too
        (:func:`mvvm.close`)."""
        self._close()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MvvmObject):
            return NotImplemented
        return other._id == self._id and other._library is self._library

    def __hash__(self) -> int:
        return hash(self._id)

    def __repr__(self) -> str:
        """``<mvvm.Tally total=1>``: the class and every property's current value."""
        if self._is_closed():
            return "<mvvm.%s closed>" % type(self).__name__
        try:
            values = self._snapshot()
        except Exception:
            return "<mvvm.%s handle=0x%x>" % (type(self).__name__, self._handle)
        shown = " ".join("%s=%s" % (key, reprlib.repr(value)) for key, value in values.items())
        return "<mvvm.%s%s>" % (type(self).__name__, " " + shown if shown else "")

    # -- introspection ------------------------------------------------------------------------

    def _class_name(self) -> str:
        name = c_char_p()
        self._library.functions.mvvm_class_name(self._h(), byref(name))
        return decode(name.value or b"", "a class name")

    @property
    def class_name(self) -> str:
        """The C class name, as the library says (``mvvm_class_name``; :func:`mvvm.class_name`)."""
        return self._class_name()

    @property
    def object_id(self) -> int:
        """The identity of the Swift object behind this handle (``mvvm_object_id``;
        :func:`mvvm.object_id`): one int for its whole life, the same through every handle to it
        (an item read twice from a list, or moved within it, has one ``object_id``)."""
        return self._id

    def _json(self, function: Callable[..., int], what: str) -> Any:
        out = c_void_p()
        function(self._h(), byref(out))
        return json.loads(take_string(self._library.functions.mvvm_string_free, out, what))

    def _describe(self) -> Dict[str, Any]:
        described: Dict[str, Any] = self._json(self._library.functions.mvvm_describe, "mvvm_describe")
        return described

    def describe(self) -> Dict[str, Any]:
        """What the class offers, as ``mvvm_describe`` gives it: ``{"class", "properties",
        "commands", "signals", "children", "records", "constructor"}``, the last the constructor
        that made this object (None for a child or a list's item) (:func:`mvvm.describe`)."""
        return self._describe()

    def _snapshot(self) -> Dict[str, Any]:
        values: Dict[str, Any] = self._json(self._library.functions.mvvm_snapshot, "mvvm_snapshot")
        model = type(self)._model
        return values if model is None else from_json(model.properties, values, self._library)

    def snapshot(self) -> Dict[str, Any]:
        """Every property's current value by its name (``mvvm_snapshot``), each as its getter
        gives it, but a list property as its items' :func:`mvvm.object_id` (:func:`mvvm.snapshot`)."""
        return self._snapshot()

    # -- generic access -----------------------------------------------------------------------

    def get(self, name: str) -> Any:
        """The value of the property ``name`` (a list property: its :class:`~mvvm.ObjectList`)
        (:func:`mvvm.get`)."""
        known = type(self)._properties.get(name)
        if known is not None:
            return known.__get__(self, type(self))
        value = Value()
        self._library.functions.mvvm_get(self._h(), encode_name(name, "a property name"), byref(value))
        return value_of(self._library, value)

    _get = get  # (the package's own name for it, which no member hides; so for the others)

    def set(self, name: str, value: Any) -> None:
        """Sets the property ``name`` to ``value`` (``mvvm_set``; the library converts or
        refuses: an output is ReadOnlyError) (:func:`mvvm.set`)."""
        known = type(self)._properties.get(name)
        if known is not None:
            known.__set__(self, value)
            return
        values = Values([value])
        self._library.functions.mvvm_set(self._h(), encode_name(name, "a property name"), values.array)

    _set = set

    def _send(self, command: str, argument: Any = _NO_ARGUMENT) -> None:
        encoded = encode_name(command, "a command name")
        if argument is _NO_ARGUMENT:
            self._library.functions.mvvm_send(self._h(), encoded, None)
        else:
            values = Values([argument])
            self._library.functions.mvvm_send(self._h(), encoded, values.array)

    def send(self, command: str, argument: Any = _NO_ARGUMENT) -> None:
        """Sends ``command`` with ``argument``, or with none when not given (``mvvm_send``)
        (:func:`mvvm.send`)."""
        self._send(command, argument)

    def _call(self, command: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        keywords = type(self)._command_keywords.get(command, {})
        return self._invoke(encode_name(command, "a command name"), args, kwargs, keywords)

    def _invoke(self, encoded: bytes, args: Sequence[Any], kwargs: Mapping[str, Any],
                keywords: Mapping[str, str]) -> Any:
        """``mvvm_call_named``: the arguments by position and name; its result decoded."""
        library = self._library
        values = Values(list(args) + list(kwargs.values()))
        names = names_array([None] * len(args) + [encode_name(keywords.get(k, k), "an argument name")
                                                  for k in kwargs]) if kwargs else None
        result = Value()
        library.functions.mvvm_call_named(self._h(), encoded, names, values.array, values.count, byref(result))
        return None if result.type == TYPE_NONE else value_of(library, result)

    def call(self, command: str, *args: Any, **kwargs: Any) -> Any:
        """Runs ``command`` with its arguments by position and name (``mvvm_call_named``) and
        gives its result; a command that throws raises :class:`~mvvm.CommandError`
        (:func:`mvvm.call`)."""
        return self._call(command, args, kwargs)

    def _child(self, name: str) -> "MvvmObject":
        out = c_uint64()
        self._library.functions.mvvm_child(self._h(), encode_name(name, "a child name"), byref(out))
        return self._wrap(out.value, (self,))

    def child(self, name: str) -> "MvvmObject":
        """A new object for the child ``name`` (``mvvm_child``), owned by the caller; it keeps
        this object alive. The attribute form (``vm.display``) is cached and closed with this
        (:func:`mvvm.child`)."""
        return self._child(name)

    def _list_count(self, encoded: bytes) -> int:
        """How many items the list property ``encoded`` holds now (``mvvm_list_count``; for
        :class:`~mvvm.ObjectList`, which sits above this module)."""
        out = c_int64()
        self._library.functions.mvvm_list_count(self._h(), encoded, byref(out))
        return out.value

    def _cached_child(self, name: str, encoded: bytes) -> "MvvmObject":
        existing = self._children.get(name)
        if existing is not None and not existing._is_closed():
            return existing
        out = c_uint64()
        self._library.functions.mvvm_child(self._h(), encoded, byref(out))
        made = self._wrap(out.value, (self,))
        kept = self._children.setdefault(name, made)
        if kept is not made:
            if kept._is_closed():
                self._children[name] = kept = made
            else:
                made._close()
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
        as a Python object (:func:`mvvm.subscribe`). Returns the :class:`Subscription` (a
        :class:`Subscriptions` list for several names); the callback stays subscribed even if it
        is not kept.

        * Without ``fn`` it is a decorator: ``@form.subscribe("password")`` over a
          ``def changed(name, value)`` subscribes it and leaves the function as it is.
        * ``initial=True``: ``fn`` is also called at once with each property's current value
          (as ``BehaviorSubject`` does; signals have none); for a list, with
          ``Splice(0, 0, len(list))``: the whole list inserted, so one splice handler fills a
          view from empty and keeps it up to date.
        * ``with_source=True``: ``fn(source, name, value)``, ``source`` being this object, which
          the subscription holds weakly (it does not keep the object alive).
        * A callback that cannot take those arguments raises TypeError here, not later.
        * ``on_end()``, when given, is called once when the subscription ends (unsubscribed,
          or its object or loop closed), possibly on the loop's thread."""
        return self._subscribe(name, fn, initial=initial, with_source=with_source, on_end=on_end)

    def _subscribe(self, name: Union[str, List[str], Tuple[str, ...], None] = None,
                   fn: Optional[Callable[..., Any]] = None, *, initial: bool = False, with_source: bool = False,
                   on_end: Optional[Callable[[], Any]] = None) -> Any:
        if fn is None:
            def decorator(function: _F) -> _F:
                self._subscribe(name, function, initial=initial, with_source=with_source, on_end=on_end)
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
        library = self._library
        encoded = None if name is None else encode_name(name, "a property or signal name")
        what = "%s of %s" % ("every change" if name is None else repr(name), type(self).__name__)
        renderers = type(self)._renderers
        if renderers and (name is None or name in renderers):
            fn = _rendering(fn, renderers)
        key = registry.add(Entry(fn, what, library, on_end=on_end))
        out = c_uint64()
        try:
            library.functions.mvvm_subscribe(handle, encoded, EVENT_TRAMPOLINE, key, DESTROY_TRAMPOLINE, byref(out))
        except BaseException:
            registry.pop(key)  # if the library did not run the destroy function already
            raise
        subscription = Subscription(self, name, out.value, key)
        if initial:
            model = type(self)._model
            lists = {p.name for p in model.properties if p.is_list} if model is not None else set()
            current_names = [p.name for p in model.properties] if model is not None else []
            for current in ([name] if name is not None else current_names):
                if current not in current_names:
                    continue
                if current in lists:  # the whole list, as one insertion at 0
                    fn(current, Splice(0, 0, self._list_count(current.encode("utf-8"))))
                else:
                    fn(current, self._get(current))
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
        self._own(source._library, handle, collect=False)  # garbage collection does not end it

    def _is_closed(self) -> bool:
        return self._key not in registry or super()._is_closed()

    @property
    def active(self) -> bool:
        """Whether the library may still call the callback (its destroy function has not run)."""
        return self._key in registry

    def unsubscribe(self) -> None:
        """Ends the subscription; the callback is not called again. Idempotent."""
        self._close()

    def _close(self) -> None:
        if self._key not in registry:
            return
        try:
            self._library.functions.mvvm_unsubscribe(self._handle)
        except InvalidHandleError:
            pass  # ended meanwhile (its object or loop was released)

    def __repr__(self) -> str:
        return "<mvvm.Subscription %s of %s %s>" % ("every change" if self.name is None else repr(self.name),
                                                   type(self.source).__name__, "active" if self.active else "ended")

