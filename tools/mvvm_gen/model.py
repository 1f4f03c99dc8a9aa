"""The Python tree's one reader of the description (docs/description.schema.json): the typed model of
a library's classes and records as ``mvvm_classes`` describes them, which every generated surface
is rendered from and the ``mvvm`` package builds its classes from (it imports this module; the
generator imports nothing of a binding). A new kind of member is one class here, one block in each
language's template and what the binding makes of it (docs/architecture.md lists the readers)."""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Generic, List, Optional, TypeVar

#: The typed calls' out-pointer for a value of each C type the description gives ("c_type"):
#: a plain scalar's own, anything else an mvvm_value the caller frees.
C_OUT_TYPES = {"bool": "bool *", "int64_t": "int64_t *", "uint64_t": "uint64_t *", "double": "double *",
               "const char *": "char **", "const mvvm_value *": "mvvm_value *"}

T = TypeVar("T")


@dataclass(frozen=True)
class Type:
    """A value's type in full: ``kind`` ("none", "bool", "int", "double", "string", "bytes",
    "array", "record", "list", "object", "service"; Foundation's "uuid", "date", "url", "decimal",
    whose ``c_type`` says what they travel as), and as the kind needs: optional, the allowed
    strings, an unsigned int (``c_type`` "uint64_t"), an int's range, an array's element, a
    record's name, a list's item class, a model's classes."""

    kind: str
    optional: bool = False
    values: Optional[List[str]] = None
    c_type: Optional[str] = None
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    element: Optional["Type"] = None
    record: Optional[str] = None
    item_class: Optional[str] = None
    classes: Optional[List[str]] = None

    @staticmethod
    def read(described: Dict[str, Any], kind_key: str = "type") -> "Type":
        element = described.get("element")
        return Type(kind=described.get(kind_key) or "none", optional=bool(described.get("optional")),
                    values=described.get("values"), c_type=described.get("c_type"),
                    minimum=described.get("min"), maximum=described.get("max"),
                    element=Type.read(element) if element else None, record=described.get("record"),
                    item_class=described.get("item_class"), classes=described.get("classes"))

    @property
    def is_none(self) -> bool:
        return self.kind == "none"

    @property
    def is_plain(self) -> bool:
        """Whether the typed calls take and give it as a C type of its own (a bool, an int64 or
        uint64, a double, a string), as its member's "c_type" says."""
        return self.c_type in C_OUT_TYPES and self.c_type != "const mvvm_value *"

    @property
    def c_in(self) -> str:
        """The C type a typed call takes a value of this type as: its member's "c_type"."""
        if self.c_type is None:
            raise GenerationError("a member's type has no c_type (a library older than its description's schema)")
        return self.c_type

    @property
    def c_out(self) -> str:
        """The C type of a typed call's out-pointer for it (freed as its docs say)."""
        return C_OUT_TYPES[self.c_in]


@dataclass(frozen=True)
class Named(Generic[T]):
    """A name and its type: an argument's or a field's :class:`Type`, a child's class (its C name),
    a C parameter's C type (``mvvm_gen.abi``)."""

    name: str
    type: T


class Argument(Named[Type]):
    """An argument of a command or a constructor."""


@dataclass(frozen=True)
class Property:
    name: str
    type: Type
    writable: bool
    doc: str

    @property
    def is_list(self) -> bool:
        return self.type.kind == "list"


@dataclass(frozen=True)
class Command:
    name: str
    arguments: List[Argument]
    result: Type
    throws: bool
    is_async: bool
    doc: str


@dataclass(frozen=True)
class Signal:
    name: str
    type: Type
    doc: str


class Child(Named[str]):
    """A child: its name and its class's C name."""


@dataclass(frozen=True)
class Constructor:
    name: str
    arguments: List[Argument]
    doc: str
    #: For a host service argument: its request's argument type and its answer's.
    service_request: Optional[str] = None
    service_result: Optional[str] = None

    @property
    def has_service(self) -> bool:
        return any(a.type.kind == "service" for a in self.arguments)


@dataclass(frozen=True)
class Field(Named[Type]):
    """A field of a record."""

    doc: str = ""


@dataclass(frozen=True)
class Record:
    name: str
    #: The name every binding shows it by (``display`` of the description).
    display: str
    swift_name: str
    doc: str
    fields: List[Field]


@dataclass
class Class:
    name: str
    #: The name every binding shows it by (``display`` of the description).
    display: str
    swift_name: str
    swift_module: str
    doc: str
    properties: List[Property] = field(default_factory=list)
    commands: List[Command] = field(default_factory=list)
    signals: List[Signal] = field(default_factory=list)
    children: List[Child] = field(default_factory=list)
    constructors: List[Constructor] = field(default_factory=list)
    #: The records its members reach, by name.
    records: Dict[str, Record] = field(default_factory=dict)

    @property
    def service(self) -> Optional[Argument]:
        """Its host service argument, when a constructor takes one."""
        for constructor in self.constructors:
            for argument in constructor.arguments:
                if argument.type.kind == "service":
                    return argument
        return None


def _record(described: Dict[str, Any]) -> Record:
    return Record(name=described["name"], display=described["display"], swift_name=described.get("swift_name", ""), doc=described.get("doc", ""),
                  fields=[Field(f["name"], Type.read(f), f.get("doc") or "") for f in described.get("fields", [])])


def _class(described: Dict[str, Any]) -> Class:
    made = Class(name=described["class"], display=described["display"], swift_name=described.get("swift_name", ""),
                 swift_module=described.get("swift_module", ""), doc=described.get("doc", ""))
    for prop in described.get("properties", []):
        made.properties.append(Property(prop["name"], Type.read(prop), prop.get("access") == "rw", prop.get("doc") or ""))
    for command in described.get("commands", []):
        arguments = [Argument(a["name"], Type.read(a)) for a in command.get("arguments", [])]
        made.commands.append(Command(command["name"], arguments, Type.read(command.get("result") or {}),
                                     bool(command.get("throws")), bool(command.get("async")), command.get("doc") or ""))
    for signal in described.get("signals", []):
        made.signals.append(Signal(signal["name"], Type.read(signal), signal.get("doc") or ""))
    child_classes = described.get("child_classes", {})
    made.children = [Child(name, child_classes.get(name, "")) for name in described.get("children", [])]
    for constructor in described.get("constructors", []):
        arguments = [Argument(a["name"], Type.read(a)) for a in constructor.get("arguments", [])]
        services = [a for a in constructor.get("arguments", []) if a.get("type") == "service"]
        made.constructors.append(Constructor(
            constructor["name"], arguments, constructor.get("doc") or "",
            services[0].get("request_argument") if services else None, services[0].get("result") if services else None))
    made.records = {name: _record(record) for name, record in described.get("records", {}).items()}
    return made


@dataclass
class Library:
    classes: List[Class]

    @property
    def records(self) -> Dict[str, Record]:
        """Every record any class uses, by name, in the order first met."""
        found: Dict[str, Record] = {}
        for cls in self.classes:
            for name, record in cls.records.items():
                found.setdefault(name, record)
        return found

    def only_module(self, module: str) -> "Library":
        return Library([c for c in self.classes if c.swift_module == module])

    @staticmethod
    def from_json(text: str) -> "Library":
        return Library([_class(described) for described in json.loads(text)])

    @staticmethod
    def load(path: Path) -> "Library":
        """Reads ``mvvm_classes`` of the library at ``path`` (loaded here, with ctypes alone)."""
        return Library.from_json(descriptions_json(path))


class GenerationError(Exception):
    """Why generation could not go on (a library that cannot describe itself...)."""


def descriptions_json(path: Path) -> str:
    library = ctypes.CDLL(str(path))
    library.mvvm_classes.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    library.mvvm_classes.restype = ctypes.c_int
    library.mvvm_string_free.argtypes = [ctypes.c_void_p]
    library.mvvm_last_error.restype = ctypes.c_char_p
    out = ctypes.c_void_p()
    status = library.mvvm_classes(ctypes.byref(out))
    if status != 0:
        raise GenerationError("mvvm_classes of %s failed (%d): %s" % (path, status, library.mvvm_last_error().decode()))
    address = out.value
    if not address:
        raise GenerationError("mvvm_classes of %s gave NULL" % path)
    try:
        return ctypes.string_at(address).decode("utf-8")
    finally:
        library.mvvm_string_free(out)
