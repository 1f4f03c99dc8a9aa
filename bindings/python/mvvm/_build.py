"""A library's classes, made at run time from its own descriptions (``mvvm_classes``), as PyGObject
makes them from a typelib: nothing here knows any class.

For each class ``snake_name`` the library registers, a subclass of :class:`~mvvm.MvvmObject`
named ``SnakeName`` (see :mod:`mvvm._names` for the naming rule):

* each property is a :class:`~mvvm._members.Property` over ``mvvm_get``/``mvvm_set`` (a list
  property a :class:`~mvvm._list.ListProperty`);
* each command a method over ``mvvm_call_named``, with the arguments by position or keyword,
  giving its result;
* each child a cached :class:`~mvvm._members.Child`;
* each model argument of a constructor (``timer``, ``model``) a property giving the model the
  object was made over (None otherwise), unless a member has its name;
* ``Class(loop, *args, **kwargs)`` makes one with ``mvvm_new_named``: the library picks the
  constructor; a callable argument becomes a host :class:`~mvvm.Service`;
* docstrings come from the descriptions' ``doc``.

For each record, a frozen :class:`~mvvm.Record` class; for each class with a host service, a
request class ``<Name>Request`` (``SignUpRequest``); and the library's own ``Loop`` and
``Service`` classes.
"""

from __future__ import annotations

import json
import weakref
from ctypes import byref, c_void_p, string_at
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Type

from ._kinds import renderer
from ._list import ListProperty
from ._loop import Loop
from ._members import Child, ModelProperty, Property, command, keyword_map, type_text
from ._model import Class as ClassModel
from ._model import Library as LibraryModel
from ._names import namespace_names, python_names
from ._object import MvvmObject
from ._records import Record, record_class
from ._requests import Service, ServiceRequest, request_class
from ._values import decode, take_string

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["Namespace", "package_names"]


def package_names() -> List[str]:
    """The names the package itself gives (``mvvm.__all__``): a class or record named as one of
    them is reachable with a trailing underscore."""
    import mvvm

    return list(mvvm.__all__)


def descriptions(library: "Library") -> str:
    """``mvvm_classes`` of ``library``: every class it registers, as JSON."""
    out = c_void_p()
    library.functions.mvvm_classes(byref(out))
    return take_string(library.functions.mvvm_string_free, out, "mvvm_classes")


class Namespace:
    """What a library offers Python: its classes, records and request classes by C name and by
    Python name, its own Loop and Service classes, and the objects its constructors made (by
    handle: whom a shared service's request names)."""

    def __init__(self, library: "Library") -> None:
        self.library = library
        self.model = LibraryModel.from_json(descriptions(library))
        self.classes: Dict[str, Type[MvvmObject]] = {}
        self.records: Dict[str, Type[Record]] = {}
        self.request_classes: Dict[str, Type[ServiceRequest]] = {}
        self.by_name: Dict[str, type] = {}
        self.by_handle: "weakref.WeakValueDictionary[int, MvvmObject]" = weakref.WeakValueDictionary()
        self._records_at: Dict[int, Type[Record]] = {}
        namespace = {"__module__": "mvvm", "__slots__": (), "_class_library": library}
        self.Loop: Type[Loop] = type("Loop", (Loop,), dict(namespace, __doc__=Loop.__doc__))
        self.Service: Type[Service] = type("Service", (Service,), dict(namespace, __doc__=Service.__doc__))
        class_names, record_names, request_names = namespace_names(
            [(c.name, c.display) for c in self.model.classes], [(r.name, r.display) for r in self.model.records.values()],
            {c.name for c in self.model.classes if c.service is not None}, package_names())

        def give(python: str, made: type) -> None:
            made.__name__ = made.__qualname__ = python
            self.by_name[python] = made

        for described in self.model.classes:
            cls = make_class(described, library)
            self.classes[described.name] = cls
            give(class_names[described.name], cls)
        for name, record in self.model.records.items():
            made = record_class(record, record_names[name])
            self.records[name] = made
            give(record_names[name], made)
        for described in self.model.classes:
            service = described.service
            if service is None:
                continue
            constructor = next(c for c in described.constructors if c.has_service)
            requests = request_class(request_names[described.name], class_names[described.name], service.name,
                                     constructor.service_request, constructor.service_result,
                                     [p.name for p in described.properties])
            self.request_classes[described.name] = requests
            give(requests.__name__, requests)

    def record_at(self, address: int) -> Type[Record]:
        """The record class of a record value whose name is the static string at ``address``."""
        found = self._records_at.get(address)
        if found is None:
            name = decode(string_at(address), "a record name") if address else ""
            found = self.records.get(name)
            if found is None:
                from ._errors import InternalError

                raise InternalError("the library gave a record %r its descriptions do not name" % name)
            self._records_at[address] = found
        return found


def _class_doc(python_name: str, described: ClassModel) -> str:
    lines = [described.doc or "The %s class of the library." % described.name, ""]
    if described.swift_name and described.swift_name != python_name:
        lines[0] += " (Swift: %s)" % described.swift_name
    if described.constructors:
        lines.append("Constructors:")
        for constructor in described.constructors:
            python = python_names([a.name for a in constructor.arguments])
            lines.append("")
            lines.append("* ``%s(loop%s)``: %s" % (python_name, "".join(", " + python[a.name] for a in constructor.arguments),
                                                  constructor.doc))
    else:
        lines.append("Made by its parent (a child): no constructor.")
    if described.signals:
        lines.append("")
        lines.append("Signals (subscribe by name):")
        for signal in described.signals:
            lines.append("* ``%s`` (%s): %s" % (signal.name, type_text(signal.type), signal.doc))
    return "\n".join(lines).rstrip()


def _renderers(python_name: str, described: ClassModel) -> Dict[str, Callable[[Any], Any]]:
    """How each property and signal of a kind read as Python's own (a UUID, a date...) is rendered
    in its change events: by name."""
    found: Dict[str, Callable[[Any], Any]] = {}
    for name, kind in [(p.name, p.type) for p in described.properties] + [(s.name, s.type) for s in described.signals]:
        rendering = renderer(kind, "%s.%s" % (python_name, name))
        if rendering is not None:
            found[name] = rendering
    return found


def make_class(described: ClassModel, library: "Library") -> Type[MvvmObject]:
    """The Python class of one class of ``library``."""
    python_name = described.display
    members = [p.name for p in described.properties] + [c.name for c in described.commands] + \
        [c.name for c in described.children]
    models = {a.name: a for c in described.constructors for a in c.arguments if a.type.kind == "object"}
    members += [name for name in models if name not in members]
    attribute = python_names(members)
    properties: Dict[str, Any] = {}
    namespace: Dict[str, Any] = {
        "__slots__": (), "__module__": "mvvm", "__doc__": _class_doc(python_name, described),
        "c_class": described.name, "_c_name": described.name.encode("utf-8"), "_class_library": library,
        "_model": described, "_properties": properties,
        "_keywords": keyword_map(sorted({a.name for c in described.constructors for a in c.arguments})),
        "_command_keywords": {c.name: keyword_map([a.name for a in c.arguments]) for c in described.commands},
        "_renderers": _renderers(python_name, described),
    }
    for prop in described.properties:
        if prop.is_list:
            made: Any = ListProperty(python_name, prop.name, prop.type.item_class or "", prop.doc)
        else:
            made = Property(python_name, prop, library)
        namespace[attribute[prop.name]] = properties[prop.name] = made
    for cmd in described.commands:
        namespace[attribute[cmd.name]] = command(python_name, cmd, library)
    for child in described.children:
        namespace[attribute[child.name]] = Child(child.name, child.type)
    for name, argument in models.items():
        if attribute[name] not in namespace:
            namespace[attribute[name]] = ModelProperty(name, argument.type.classes or [])
    cls = type(python_name, (MvvmObject,), namespace)
    cls.__qualname__ = python_name
    return cls


def raw_descriptions(library: "Library") -> List[Dict[str, Any]]:
    """Every class ``library`` registers, as ``mvvm_classes`` describes them (a new list)."""
    described: List[Dict[str, Any]] = json.loads(descriptions(library))
    return described
