"""A library's classes, made at run time from its own descriptions (``mvvm_classes``), as PyGObject
makes them from a typelib: nothing here knows any class.

For each class ``snake_name`` the library registers, a subclass of :class:`~mvvm.MvvmObject`
named ``SnakeName`` (the naming rule: :mod:`mvvm_gen.pynames`):

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

For each record, its frozen :class:`~mvvm.Record` class, made by the layer below from the
description alone (:mod:`mvvm._description`: converting a value builds no class); for each class
with a host service, a request class ``<Name>Request`` (``LoginRequest``); and the library's own
``Loop`` and ``Service`` classes.

This module sits above objects, lists, members and requests; the library (:mod:`mvvm._library`)
sits below and calls :class:`Namespace` through :func:`~mvvm._library.register_namespace`, which
this module calls as it is imported.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Type

from mvvm_gen.model import Class as ClassModel
from mvvm_gen.pynames import python_names

from ._description import Description
from ._kinds import renderer
from ._library import register_namespace
from ._list import ListProperty
from ._loop import Loop
from ._members import Child, ModelProperty, Property, command, keyword_map, type_text
from ._object import MvvmObject
from ._records import Record
from ._requests import Service, ServiceRequest, request_class

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["Namespace"]


class Namespace:
    """What a library offers Python: its classes, records and request classes by C name and by
    Python name, its own Loop and Service classes, and the objects its constructors made (by
    handle: whom a shared service's request names). Made from ``description``, by default the
    library's own."""

    def __init__(self, library: "Library", description: Optional[Description] = None) -> None:
        source = library._described() if description is None else description
        self.library = library
        self.model = source.model
        self.classes: Dict[str, Type[MvvmObject]] = {}
        self.records: Dict[str, Type[Record]] = {}
        self.request_classes: Dict[str, Type[ServiceRequest]] = {}
        self.by_name: Dict[str, type] = {}
        self.by_handle: "weakref.WeakValueDictionary[int, MvvmObject]" = weakref.WeakValueDictionary()
        namespace = {"__module__": "mvvm", "__slots__": (), "_class_library": library}
        self.Loop: Type[Loop] = type("Loop", (Loop,), dict(namespace, __doc__=Loop.__doc__))
        self.Service: Type[Service] = type("Service", (Service,), dict(namespace, __doc__=Service.__doc__))
        class_names, request_names = source.class_names, source.request_names

        def give(python: str, made: type) -> None:
            made.__name__ = made.__qualname__ = python
            self.by_name[python] = made

        for described in self.model.classes:
            cls = make_class(described, library)
            self.classes[described.name] = cls
            give(class_names[described.name], cls)
        for name, made in source.records.items():  # the very classes values are converted to
            self.records[name] = made
            give(source.record_names[name], made)
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


register_namespace(Namespace)  # the library, below, builds its classes through it
