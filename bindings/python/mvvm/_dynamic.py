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
from ctypes import byref, c_void_p
from typing import Any, Dict, List, Optional, Tuple, Type

from . import _lib
from ._lib import Value, lib
from ._list import ListProperty
from ._loop import Loop
from ._object import Binding, Child, MvvmObject, Output, _command, _model_property, camel
from ._requests import Service, ServiceRequest, _by_handle, _python_classes, _request_classes
from ._values import _PYTHON_TYPES, _c_value, _checked, _encode, _object_value, _take_string
from ._errors import InvalidArgumentError, TypeMismatchError

__all__ = ["Output", "Binding", "Child", "Service", "ServiceRequest", "new", "build_classes", "descriptions", "camel"]


def descriptions() -> List[Dict[str, Any]]:
    """Every class the library registers, as ``mvvm_classes`` describes them (a new list)."""
    out = c_void_p()
    lib.mvvm_classes(byref(out))
    described: List[Dict[str, Any]] = json.loads(_take_string(out, "mvvm_classes"))
    return described

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
        if not _free(namespace, prop["name"]):
            continue
        if prop.get("type") == "list":
            namespace[prop["name"]] = ListProperty(python_name, prop)
        else:
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


