"""Python classes made at run time from the library's own descriptions (``mvvm_classes``), as
PyGObject makes them from a typelib: nothing here knows any class.

For each C class ``snake_name`` the library registers, :func:`build_classes` makes a subclass of
:class:`~mvvm.MvvmObject` named ``CamelName``:

* each property is a Python property over the generic calls (``mvvm_get_<type>``,
  ``mvvm_set_<type>``): an output (``ro``) is an :class:`Output`, whose assignment raises
  :class:`~mvvm.ReadOnlyError` before C; a binding (``rw``) a :class:`Binding`, whose value is
  checked (type, int64 range, the allowed ``values``) before C;
* each command is a method (``mvvm_send``), its argument checked the same way;
* each child is a :class:`Child` attribute, cached, closed with its parent;
* each model argument of a constructor (``timer``, ``model``) is a property giving the model the
  object was made over (None otherwise);
* ``Class(loop, *args, **kwargs)`` picks the constructor whose argument names, count and types
  fit (``mvvm_new``); a service argument is a :class:`Service` or any callable (made into one);
* docstrings come from the descriptions' ``doc``.

A class with a service also gets a request class, ``<Name>Request`` (``SignUpRequest`` for
``SignUpViewModel``): what the service is called with, carrying the view model's properties as
they were when it asked (``request.user_id``, ``request.password``).

:func:`new` is the generic constructor: ``new(loop, "class_name", *args)`` hands the values to
``mvvm_new`` as they are, and the library chooses or refuses.
"""

from __future__ import annotations

import json
import keyword
import weakref
from ctypes import byref, c_bool, c_char_p, c_double, c_int64, c_void_p
from typing import Any, Callable, Dict, Generic, List, Optional, Sequence, Tuple, Type, TypeVar, overload

from . import _lib
from ._core import (
    Loop,
    MvvmObject,
    Request,
    Scalar,
    _decode,
    _DESTROY_TRAMPOLINE,
    _encode,
    _Entry,
    _release_now,
    _release_soon,
    _REQUEST_TRAMPOLINE,
    _take_string,
    registry,
)
from ._errors import InternalError, InvalidArgumentError, ReadOnlyError, TypeMismatchError
from ._lib import Value, lib

__all__ = ["Output", "Binding", "Child", "Service", "ServiceRequest", "new", "build_classes", "descriptions", "camel"]

T = TypeVar("T")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_UINT64_MAX = 2**64 - 1
_PYTHON_TYPES = {"bool": "bool", "int": "int", "double": "float", "string": "str"}


def camel(name: str) -> str:
    """``sign_up_view_model`` -> ``SignUpViewModel``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def descriptions() -> List[Dict[str, Any]]:
    """Every class the library registers, as ``mvvm_classes`` describes them (a new list)."""
    out = c_void_p()
    lib.mvvm_classes(byref(out))
    described: List[Dict[str, Any]] = json.loads(_take_string(out, "mvvm_classes"))
    return described


# ------------------------------------------------------------------------------------------------
# Checking values before C
# ------------------------------------------------------------------------------------------------


def _checked(type_name: str, value: Any, what: str, values: Optional[Sequence[str]] = None,
             c_type: Optional[str] = None) -> Any:
    """``value`` as C takes it for a ``type_name`` (bytes for a string, an int64 bit pattern for
    a ``uint64_t``), or TypeMismatchError / InvalidArgumentError naming ``what``."""
    if type_name == "bool":
        if not isinstance(value, bool):
            raise TypeMismatchError("%s must be a bool, not %s" % (what, type(value).__name__))
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeMismatchError("%s must be an int, not %s" % (what, type(value).__name__))
        if c_type == "uint64_t":
            if not 0 <= value <= _UINT64_MAX:
                raise InvalidArgumentError("%s must be in 0 ... 2**64 - 1, not %d" % (what, value))
            return value - 2**64 if value > _INT64_MAX else value
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise InvalidArgumentError("%s is out of the int64 range: %d" % (what, value))
        return value
    if type_name == "double":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeMismatchError("%s must be a float, not %s" % (what, type(value).__name__))
        return float(value)
    if type_name == "string":
        if values and isinstance(value, str) and value not in values:
            raise InvalidArgumentError("%s must be one of %s, not %r" % (what, ", ".join(map(repr, values)), value))
        return _encode(value, what)
    raise InternalError("%s: unknown type %r in the class description" % (what, type_name))


def _c_value(type_name: str, checked: Any) -> Value:
    value = Value()
    if type_name == "bool":
        value.type, value.boolean = _lib.TYPE_BOOL, checked
    elif type_name == "int":
        value.type, value.integer = _lib.TYPE_INT, checked
    elif type_name == "double":
        value.type, value.number = _lib.TYPE_DOUBLE, checked
    else:
        value.type, value.string = _lib.TYPE_STRING, checked
    return value


def _object_value(handle: int) -> Value:
    value = Value()
    value.type, value.object = _lib.TYPE_OBJECT, handle
    return value


# ------------------------------------------------------------------------------------------------
# Properties and children
# ------------------------------------------------------------------------------------------------


def _reader(type_name: str, encoded: bytes, what: str) -> Callable[[int], Any]:
    if type_name == "bool":
        get_bool = lib.mvvm_get_bool

        def read(handle: int) -> Any:
            flag = c_bool()
            get_bool(handle, encoded, byref(flag))
            return flag.value
    elif type_name == "int":
        get_int = lib.mvvm_get_int

        def read(handle: int) -> Any:
            number = c_int64()
            get_int(handle, encoded, byref(number))
            return number.value
    elif type_name == "double":
        get_double = lib.mvvm_get_double

        def read(handle: int) -> Any:
            real = c_double()
            get_double(handle, encoded, byref(real))
            return real.value
    elif type_name == "string":
        get_string = lib.mvvm_get_string

        def read(handle: int) -> Any:
            text = c_void_p()
            get_string(handle, encoded, byref(text))
            return _take_string(text, what)
    else:
        raise InternalError("%s: unknown property type %r in the class description" % (what, type_name))
    return read


_SETTERS = {"bool": "mvvm_set_bool", "int": "mvvm_set_int", "double": "mvvm_set_double", "string": "mvvm_set_string"}


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
        self._setter = getattr(lib, _SETTERS[self.type_name])

    def __set__(self, obj: MvvmObject, value: Any) -> None:
        self._setter(obj._h(), self._encoded, _checked(self.type_name, value, self._what, self.values))


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
    if argument_type == "none":
        def command(self: MvvmObject) -> None:
            send(self._h(), encoded, None)
    else:
        def command(self: MvvmObject, argument: Any) -> None:  # type: ignore[misc]
            value = _c_value(argument_type, _checked(argument_type, argument, what, values))
            send(self._h(), encoded, byref(value))
    command.__name__ = name
    command.__module__ = "mvvm"
    command.__qualname__ = "%s.%s" % (owner_name, name)
    doc = description.get("doc") or ""
    if argument_type != "none":
        kind = _PYTHON_TYPES.get(argument_type, argument_type)
        doc += "\n\n``argument``: %s%s." % (kind, (", one of " + ", ".join(map(repr, values))) if values else "")
    command.__doc__ = doc.strip() or None
    return command


def _model_property(name: str, classes: Sequence[str]) -> property:
    def model(self: MvvmObject) -> Optional[MvvmObject]:
        models: Dict[str, MvvmObject] = getattr(self, "_arguments", {})
        return models.get(name)
    model.__name__ = name
    model.__doc__ = "The model (%s) this object was made over; None when made otherwise." % \
        " or ".join(camel(c) for c in classes)
    return property(model)


# ------------------------------------------------------------------------------------------------
# Services and their requests
# ------------------------------------------------------------------------------------------------

#: Python class of each C class, and its request class (for classes with a service).
_python_classes: Dict[str, Type[MvvmObject]] = {}
_request_classes: Dict[str, Type["ServiceRequest"]] = {}


class ServiceRequest(Request):
    """A request to a host service (see :class:`~mvvm.Request`): ``argument`` is what the view
    model passed; the view model's properties, as they were when it asked, are attributes
    (``request.user_id``) and :attr:`state`."""

    __slots__ = ("state",)

    #: The type of the answer :meth:`complete` takes (from the description), or None if unknown.
    result_type: Optional[str] = None

    def __init__(self, handle: int, view_model: Optional[MvvmObject], argument: Scalar,
                 state: Dict[str, Scalar]) -> None:
        super().__init__(handle, view_model, argument)
        #: The view model's properties when it asked (its snapshot).
        self.state: Dict[str, Scalar] = state

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            try:
                return self.state[name]
            except (KeyError, AttributeError):
                pass
        raise AttributeError("%s has no attribute %r" % (type(self).__name__, name))


class _RequestMaker:
    """The ``request_class`` of every service entry: makes the request class of the asking view
    model's class, with its state read during the call (as the library allows)."""

    @staticmethod
    def _make(view_model_handle: int, handle: int, argument: Scalar, owner: Optional[MvvmObject]) -> Request:
        name = c_char_p()
        lib.mvvm_class_name(view_model_handle, byref(name))
        class_name = _decode(name.value, "class name")
        out = c_void_p()
        lib.mvvm_snapshot(view_model_handle, byref(out))
        state: Dict[str, Scalar] = json.loads(_take_string(out, "snapshot"))
        if owner is None:
            owner = _by_handle.get(view_model_handle)
        request_class = _request_classes.get(class_name, ServiceRequest)
        return request_class(handle, owner, argument, state)


#: The Python objects made by constructors, by handle: whom a shared service's request names.
_by_handle: "weakref.WeakValueDictionary[int, MvvmObject]" = weakref.WeakValueDictionary()


class Service:
    """A host service (``mvvm_service_new``): ``fn(request)`` is called for each request of each
    view model made with it, and answers with ``request.complete(result)``, at once or later,
    from any thread. One service may be given to several constructors; ``fn`` stays alive until
    this object is closed (or collected) and every view model made with it is closed.
    Constructors also take a plain callable, made into a service for that one view model."""

    __slots__ = ("_handle", "_finalizer", "_entry", "fn", "__weakref__")

    def __init__(self, fn: Callable[[Any], Any], what: Optional[str] = None) -> None:
        if not callable(fn):
            raise TypeError("the service must be callable, not %s" % type(fn).__name__)
        self.fn = fn
        self._entry = _Entry(fn, what or "service %s" % getattr(fn, "__qualname__", repr(fn)),
                             _RequestMaker)  # type: ignore[arg-type]
        key = registry.add(self._entry)
        out = _lib.Handle()
        try:
            lib.mvvm_service_new(_REQUEST_TRAMPOLINE, key, _DESTROY_TRAMPOLINE, byref(out))
        except BaseException:
            registry.pop(key)  # if the library did not run the destroy function already
            raise
        self._handle: int = out.value
        self._finalizer = weakref.finalize(self, _release_soon, self._handle)

    def _h(self) -> int:
        from ._errors import ClosedError

        if not self._handle:
            raise ClosedError("this Service is closed")
        return self._handle

    @property
    def handle(self) -> int:
        """The C handle (raises ClosedError once closed)."""
        return self._h()

    @property
    def closed(self) -> bool:
        return not self._handle

    def close(self) -> None:
        """Releases the service's handle (once): no new view model can be made with it; those
        made with it keep it until they are closed."""
        if self._finalizer.detach() is not None:
            handle, self._handle = self._handle, 0
            _release_now(handle)

    def __enter__(self) -> "Service":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<mvvm.Service %s %s>" % (getattr(self.fn, "__qualname__", repr(self.fn)),
                                         "closed" if self.closed else "handle=0x%x" % self._handle)


# ------------------------------------------------------------------------------------------------
# Constructors
# ------------------------------------------------------------------------------------------------


class _Made:
    """What a constructor call needs while it runs: the values for C, the objects to keep, the
    services made from callables (released after the call)."""

    def __init__(self) -> None:
        self.values: List[Value] = []
        self.models: Dict[str, MvvmObject] = {}
        self.services: List[Service] = []

    def close(self) -> None:
        for service in self.services:
            service.close()


def _argument_value(made: _Made, argument: Dict[str, Any], value: Any, owner_name: str) -> None:
    name, kind = argument["name"], argument["type"]
    what = "%s argument %s" % (owner_name, name)
    if kind == "object":
        if not isinstance(value, (MvvmObject, Service)):
            raise TypeMismatchError("%s must be an mvvm object (%s), not %s"
                                    % (what, " or ".join(camel(c) for c in argument.get("classes", [])),
                                       type(value).__name__))
        made.values.append(_object_value(value._h()))
        if isinstance(value, MvvmObject):
            made.models[name] = value
        return
    if kind == "service":
        if isinstance(value, (Service, MvvmObject)):
            made.values.append(_object_value(value._h()))  # the library refuses anything but a service
            return
        if not callable(value):
            raise TypeMismatchError("%s must be an mvvm.Service or a callable, not %s" % (what, type(value).__name__))
        service = Service(value, "%s of %s" % (name, owner_name))
        made.services.append(service)
        made.values.append(_object_value(service._h()))
        return
    made.values.append(_c_value(kind, _checked(kind, value, what, argument.get("values"), argument.get("c_type"))))


def _signature(owner_name: str, constructor: Dict[str, Any]) -> str:
    return "%s(loop%s)" % (owner_name, "".join(", " + a["name"] for a in constructor["arguments"]))


def _choose(owner_name: str, constructors: List[Dict[str, Any]], args: Tuple[Any, ...],
            kwargs: Dict[str, Any]) -> _Made:
    """The values of the first constructor that takes these arguments: same names and count,
    then types (as mvvm_new chooses). An argument given as None is an argument not given."""
    positional = list(args)
    while positional and positional[-1] is None:
        positional.pop()
    named = {key: value for key, value in kwargs.items() if value is not None}
    if not constructors:
        raise TypeError("%s cannot be constructed: it is made by its parent (a child)" % owner_name)
    refused: Optional[BaseException] = None
    for constructor in constructors:
        names = [a["name"] for a in constructor["arguments"]]
        if len(positional) + len(named) != len(names) or any(n not in names[len(positional):] for n in named):
            continue
        bound = dict(zip(names, positional), **named)
        made = _Made()
        try:
            for argument in constructor["arguments"]:
                _argument_value(made, argument, bound[argument["name"]], owner_name)
        except (TypeMismatchError, InvalidArgumentError) as error:
            made.close()
            refused = refused or error
            continue
        return made
    if refused is not None:
        raise refused
    raise TypeError("%s takes %s; not %d argument%s%s after the loop" % (
        owner_name, " or ".join(_signature(owner_name, c) for c in constructors), len(positional) + len(named),
        "" if len(positional) + len(named) == 1 else "s",
        (" (named %s)" % ", ".join(sorted(named))) if named else ""))


def _construct(loop: Any, class_name: str, made: _Made) -> int:
    if not isinstance(loop, Loop):
        raise TypeError("the first argument must be an mvvm.Loop, not %s" % type(loop).__name__)
    array = (Value * max(1, len(made.values)))(*made.values)
    out = _lib.Handle()
    try:
        lib.mvvm_new(loop._h(), class_name.encode("utf-8"), array, len(made.values), byref(out))
    finally:
        made.close()  # the view model keeps its services; their handles are not needed
    return out.value


def _adopt_new(obj: MvvmObject, handle: int, loop: Loop, made: _Made) -> None:
    obj._adopt(handle, loop, tuple(made.models.values()))
    if made.models:
        obj._arguments = made.models  # type: ignore[attr-defined]
    for service in made.services:
        service._entry.owner = weakref.ref(obj)
    _by_handle[handle] = obj


def new(loop: Loop, class_name: str, *args: Any) -> MvvmObject:
    """An object of the C class ``class_name`` made by ``mvvm_new`` with ``args`` as they are:
    bool, int, float and str values, mvvm objects (models), :class:`Service` objects or
    callables (services). The library chooses the constructor, or refuses: UnknownNameError (no
    such class), InvalidArgumentError (no constructor takes that many arguments; a model of
    another loop; out of range), TypeMismatchError (an argument of the wrong type), WrongTypeError
    (a model of the wrong class; a service argument that is no service)."""
    made = _Made()
    try:
        for index, value in enumerate(args):
            what = "argument %d of %s" % (index + 1, class_name)
            if isinstance(value, (MvvmObject, Service)):
                made.values.append(_object_value(value._h()))
                if isinstance(value, MvvmObject):
                    made.models["argument%d" % (index + 1)] = value
            elif callable(value):
                service = Service(value, "%s of %s" % (what, class_name))
                made.services.append(service)
                made.values.append(_object_value(service._h()))
            elif isinstance(value, bool):
                made.values.append(_c_value("bool", value))
            elif isinstance(value, int):
                made.values.append(_c_value("int", _checked("int", value, what)))
            elif isinstance(value, float):
                made.values.append(_c_value("double", value))
            elif isinstance(value, str):
                made.values.append(_c_value("string", _encode(value, what)))
            else:
                raise TypeMismatchError("%s must be bool, int, float, str, an mvvm object or a service, not %s"
                                        % (what, type(value).__name__))
    except BaseException:
        made.close()
        raise
    if not isinstance(class_name, str):
        made.close()
        raise TypeError("class_name must be a str, not %s" % type(class_name).__name__)
    handle = _construct(loop, class_name, made)
    kind = _python_classes.get(class_name, MvvmObject)
    obj = kind.__new__(kind)
    _adopt_new(obj, handle, loop, made)
    return obj


# ------------------------------------------------------------------------------------------------
# Building the classes
# ------------------------------------------------------------------------------------------------


def _class_doc(python_name: str, described: Dict[str, Any]) -> str:
    lines = [described.get("doc") or "The %s class of the library." % described["class"], ""]
    if described.get("swift_name") and described["swift_name"] != python_name:
        lines[0] += " (Swift: %s)" % described["swift_name"]
    if described["constructors"]:
        lines.append("Constructors:")
        for constructor in described["constructors"]:
            lines.append("")
            lines.append("* ``%s``: %s" % (_signature(python_name, constructor), constructor.get("doc") or ""))
    else:
        lines.append("Made by its parent (a child): no constructor.")
    if described.get("signals"):
        lines.append("")
        lines.append("Signals (subscribe by name):")
        for signal in described["signals"]:
            lines.append("* ``%s`` (%s): %s" % (signal["name"], _PYTHON_TYPES.get(signal["type"], "None"),
                                                signal.get("doc") or ""))
    return "\n".join(lines).rstrip()


def _free(namespace: Dict[str, Any], name: str) -> bool:
    """Whether a member may be named ``name`` (else it stays reachable by the generic calls)."""
    return name.isidentifier() and not keyword.iskeyword(name) and name not in namespace \
        and not hasattr(MvvmObject, name)


def _make_class(described: Dict[str, Any]) -> Type[MvvmObject]:
    class_name: str = described["class"]
    python_name = camel(class_name)
    namespace: Dict[str, Any] = {"__slots__": ("_arguments",), "c_class": class_name,
                                 "__doc__": _class_doc(python_name, described), "__module__": "mvvm",
                                 "description": described}
    for prop in described.get("properties", []):
        if _free(namespace, prop["name"]):
            namespace[prop["name"]] = (Binding if prop.get("access") == "rw" else Output)(python_name, prop)
    for command in described.get("commands", []):
        if _free(namespace, command["name"]):
            namespace[command["name"]] = _command(python_name, command)
    for child in described.get("children", []):
        if _free(namespace, child):
            namespace[child] = Child(child, described.get("child_classes", {}).get(child, ""))
    for constructor in described.get("constructors", []):
        for argument in constructor["arguments"]:
            if argument["type"] == "object" and _free(namespace, argument["name"]):
                namespace[argument["name"]] = _model_property(argument["name"], argument.get("classes", []))
    constructors = described.get("constructors", [])

    def __init__(self: MvvmObject, loop: Loop, *args: Any, **kwargs: Any) -> None:
        made = _choose(python_name, constructors, args, kwargs)
        handle = _construct(loop, class_name, made)
        _adopt_new(self, handle, loop, made)

    __init__.__qualname__ = "%s.__init__" % python_name
    __init__.__doc__ = namespace["__doc__"]
    namespace["__init__"] = __init__
    cls = type(python_name, (MvvmObject,), namespace)
    cls.__qualname__ = python_name
    return cls


def _request_name(python_name: str) -> str:
    base = python_name[:-len("ViewModel")] if python_name.endswith("ViewModel") and python_name != "ViewModel" \
        else python_name
    return base + "Request"


def _make_request_class(described: Dict[str, Any]) -> Optional[Type[ServiceRequest]]:
    services = [a for c in described.get("constructors", []) for a in c["arguments"] if a["type"] == "service"]
    if not services:
        return None
    python_name = camel(described["class"])
    result = services[0].get("result")
    doc = ("A request of %s's %s: answer with ``complete(%s)``. ``argument``: %s. The view model's "
           "properties when it asked are attributes." % (
               python_name, services[0]["name"], _PYTHON_TYPES.get(result or "", result or "the result"),
               _PYTHON_TYPES.get(services[0].get("request_argument") or "none", "None")))
    cls = type(_request_name(python_name), (ServiceRequest,),
               {"__slots__": (), "__doc__": doc, "__module__": "mvvm", "result_type": result})
    return cls


def build_classes() -> Dict[str, type]:
    """Makes the Python class of every class the library registers (and request classes);
    gives them by Python name, in the library's order."""
    built: Dict[str, type] = {}
    for described in descriptions():
        cls = _make_class(described)
        _python_classes[described["class"]] = cls
        built.setdefault(cls.__name__, cls)
        request_class = _make_request_class(described)
        if request_class is not None:
            _request_classes[described["class"]] = request_class
            built.setdefault(request_class.__name__, request_class)
    return built


def classes() -> Dict[str, Type[MvvmObject]]:
    """The Python class of each C class, by C class name."""
    return dict(_python_classes)

