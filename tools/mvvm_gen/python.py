"""Python: the ABI module of the ``mvvm`` package (``_abi.py``: constants, structs and signatures
from the header) and a library's typed package (its classes and records for mypy and pyright,
over the ``mvvm`` package), named by the Python naming rule beside this file (:mod:`.pynames`)."""

from __future__ import annotations

from typing import AbstractSet, Dict, List, Optional, Set, Tuple

from .model import Argument, Class, Field, Library, Record, Type
from .pynames import OBJECT_ATTRIBUTES, REQUEST_ATTRIBUTES, namespace_names, python_names

from .abi import ABI_TYPES, Abi
from .escape import python_docstring, python_string
from .templates import Templates

abi_t = Templates("pyabi")

#: C types of the header -> ctypes, for parameters and results, and for a struct's fields where
#: they differ (the data file ``abi-types.json`` says why each is what it is).
CTYPES: Dict[str, str] = ABI_TYPES["python"]
FIELD_CTYPES: Dict[str, str] = ABI_TYPES["python_fields"]


def python_name(c_name: str) -> str:
    """``mvvm_value`` -> ``Value``, ``mvvm_request_fn`` -> ``RequestFn``."""
    stem = c_name[len("mvvm_"):]
    return "".join(part.capitalize() for part in stem.split("_"))


def ctype(c_type: str, abi: Abi) -> str:
    if c_type in abi.callbacks:
        return c_type[len("mvvm_"):].upper()
    if c_type in abi.structs:
        return python_name(c_type)
    return CTYPES[c_type]


def field_ctype(c_type: str, abi: Abi) -> str:
    return FIELD_CTYPES.get(c_type) or ctype(c_type, abi)


def member_prefix(members: List[Tuple[str, int]]) -> str:
    """What every constant of an enum starts with, up to an underscore: ``MVVM_LOOP_`` for
    ``MVVM_LOOP_MANUAL``...; ``MVVM_`` for the statuses (``MVVM_OK``, ``MVVM_ERR_...``)."""
    names = [name for name, _ in members]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return prefix[:prefix.rfind("_") + 1]


def struct_fields(name: str, abi: Abi) -> List[str]:
    return [abi_t("field", name=f.name, ctype=field_ctype(f.type, abi)) for f in abi.structs[name]]


def flat_fields(name: str, abi: Abi) -> List[str]:
    """The struct's fields with those of each struct it holds inline, in order (the same layout:
    a nested struct here starts where its first field would)."""
    fields: List[str] = []
    for f in abi.structs[name]:
        fields.extend(flat_fields(f.type, abi) if f.type in abi.structs else
                      [abi_t("field", name=f.name, ctype=field_ctype(f.type, abi))])
    return fields


def abi_module(abi: Abi) -> str:
    constants: List[str] = []
    enums: List[str] = []
    for enum, members in abi.enums.items():
        constants.append(abi_t("enum", enum=enum, members="\n".join(
            abi_t("constant", name=name[len("MVVM_"):], value=value) for name, value in members)))
        prefix = member_prefix(members)
        enums.append(abi_t("intenum", enum=enum, python_name=python_name(enum), members="\n".join(
            abi_t("enum_member", name=name[len(prefix):], value=value) for name, value in members)))
    constants.append("\n".join(abi_t("constant", name=name[len("MVVM_"):], value=value) for name, value in abi.defines.items()))
    structs = [abi_t("struct", name=name, python_name=python_name(name), fields="\n".join(struct_fields(name, abi)))
               for name in abi.structs]
    structs += [abi_t("flat_struct", name=name, python_name=python_name(name), fields="\n".join(flat_fields(name, abi)))
                for name, fields in abi.structs.items() if any(f.type in abi.structs for f in fields)]
    callbacks = "\n".join(
        abi_t("callback", name=name, python_name=name[len("mvvm_"):].upper(), result=ctype(function.result, abi),
              params="".join(abi_t("callback_param", ctype=ctype(p.type, abi)) for p in function.params))
        for name, function in abi.callbacks.items())
    functions = "\n".join(
        abi_t("function", name=f.name, result=ctype(f.result, abi), params=", ".join(ctype(p.type, abi) for p in f.params))
        for f in abi.functions)
    return abi_t("file", constants="\n\n".join(constants), enums="\n\n\n".join(enums), structs="\n\n\n".join(structs),
                 callbacks=callbacks, functions=functions) + "\n"


# --- Type stubs of the classes the mvvm package builds at run time (over the typed model).

pyi_t = Templates("pyi")

#: The type expressions are pyi.tmpl's: ``read_<kind>`` what a plain kind reads as,
#: ``written_<kind>`` what it is given as instead, ``written_also_<kind>`` what else it may be given
#: as besides what it reads as (mvvm._kinds); the code here only picks the entry and recurses.


class Names:
    """The Python names the package gives a library's classes, records and request classes
    (:func:`mvvm_gen.pynames.namespace_names`, over the whole library as it is loaded)."""

    def __init__(self, library: Library) -> None:
        self.classes, self.records, self.requests = namespace_names(
            [(c.name, c.display) for c in library.classes], [(r.name, r.display) for r in library.records.values()],
            {c.name for c in library.classes if c.service is not None})


def py_plain(kind: str) -> str:
    """What a value of a plain kind (one type, no parameters) reads as; ``unknown`` otherwise."""
    return pyi_t("read_" + kind) if "read_" + kind in pyi_t else pyi_t("unknown")


def class_name(names: Names, c_name: Optional[str]) -> str:
    return names.classes.get(c_name or "") or pyi_t("any_object")


def py_read(kind: Type, names: Names) -> str:
    """The Python type a value of ``kind`` is read as."""
    if kind.kind == "list":
        text = pyi_t("list_read", item=class_name(names, kind.item_class))
    elif kind.kind == "array" and kind.element is not None:
        text = pyi_t("array_read", element=py_read(kind.element, names))
    elif kind.kind == "record":
        text = names.records[kind.record or ""]
    elif kind.values:
        text = pyi_t("literal", values=pyi_t("separator").join(python_string(v) for v in kind.values))
    else:
        text = py_plain(kind.kind)
    return pyi_t("optional", type=text) if kind.optional else text


def py_write(kind: Type, names: Names) -> str:
    """The Python types a value of ``kind`` may be given as (the library converts)."""
    if kind.kind == "array" and kind.element is not None:
        text = pyi_t("array_written", element=py_write(kind.element, names))
    elif kind.kind == "record":
        text = pyi_t("record_written", name=names.records[kind.record or ""])
    elif "written_" + kind.kind in pyi_t:  # given as other types than it reads as: bytes
        text = pyi_t("written_" + kind.kind)
    elif "written_also_" + kind.kind in pyi_t:  # also given as another type: a uuid, a date, a decimal
        text = pyi_t("written_also", type=py_plain(kind.kind), also=pyi_t("written_also_" + kind.kind))
    elif kind.kind == "object":
        classes = [class_name(names, c) for c in (kind.classes or [])] or [pyi_t("any_object")]
        text = classes[0] if len(classes) == 1 else pyi_t("union", types=pyi_t("separator").join(classes))
    else:
        return py_read(kind, names)
    return pyi_t("optional", type=text) if kind.optional else text


def py_snapshot(kind: Type, names: Names) -> str:
    """The type of a property in a snapshot: its read type, a list property its items' ids."""
    return pyi_t("list_snapshot") if kind.kind == "list" else py_read(kind, names)


def docstring(text: str) -> str:
    return pyi_t("docstring", text=python_docstring(text or "(no documentation)"))


def parameters(arguments: List[Argument], names: Names, request: Optional[str]) -> str:
    """``, name: type, ...``: Python names (a keyword with a trailing underscore); the optional
    arguments after the last required one may be left out."""
    python = python_names([a.name for a in arguments])
    required = max((i for i, a in enumerate(arguments) if not a.type.optional), default=-1)
    text = ""
    for index, argument in enumerate(arguments):
        if argument.type.kind == "service":
            kind = pyi_t("service_type", request=request or "_ServiceRequest")
        else:
            kind = py_write(argument.type, names)
        text += pyi_t("parameter", name=python[argument.name], type=kind,
                      default=pyi_t("default") if index > required else "")
    return text


def marks(name: str, shadowed: AbstractSet[str]) -> Dict[str, str]:
    """The checkers' marks of a member that wins a name of MvvmObject's."""
    won = name in shadowed  # its type replaces the base's
    return {"ignore": pyi_t("ignore_won") if won else "", "pyright_ignore": pyi_t("pyright_ignore_won") if won else ""}


def class_members(cls: Class, names: Names) -> List[str]:
    shadowed = OBJECT_ATTRIBUTES
    python_name = names.classes[cls.name]
    request = names.requests.get(cls.name)
    own = [p.name for p in cls.properties] + [c.name for c in cls.commands] + [c.name for c in cls.children]
    models = {a.name: a for c in cls.constructors for a in c.arguments if a.type.kind == "object" and a.name not in own}
    attribute = python_names(own + list(models))
    lines: List[str] = []
    overloads = len(cls.constructors) > 1
    for constructor in cls.constructors:
        lines.append(pyi_t("constructor_overload" if overloads else "constructor",
                           parameters=parameters(constructor.arguments, names, request)))
    if not cls.constructors:
        lines.append(pyi_t("no_constructor"))
    for prop in cls.properties:
        name = attribute[prop.name]
        lines.append(pyi_t("property", name=name, type=py_read(prop.type, names), **marks(name, shadowed)))
        if prop.writable:
            lines.append(pyi_t("setter", name=name, type=py_write(prop.type, names)))
    for command in cls.commands:
        name = attribute[command.name]
        lines.append(pyi_t("async_command" if command.is_async else "command", name=name,
                           parameters=parameters(command.arguments, names, None),
                           result=py_read(command.result, names), **marks(name, shadowed)))
    for child in cls.children:
        name = attribute[child.name]
        lines.append(pyi_t("child", name=name, type=names.classes[child.type], **marks(name, shadowed)))
    for model_name, argument in models.items():  # unless a member has its name
        name = attribute[model_name]
        lines.append(pyi_t("model", name=name, type=py_write(argument.type, names), **marks(name, shadowed)))
    taken = set(attribute.values())
    lines.extend(typed_get_and_subscribe(python_name, cls, names, taken))
    if "snapshot" not in taken:
        lines.append(pyi_t("snapshot_method", name=python_name))
    return lines


def typed_get_and_subscribe(python_name: str, cls: Class, names: Names, taken: Set[str]) -> List[str]:
    """Overloads of ``get`` and ``subscribe`` that give each property's and signal's value its
    type: ``vm.get("count")`` is an int, and a subscriber of "count" must take an int (with
    ``with_source=True``, the object first). As with a TypedDict's keys, a name must be one of the
    class's (a plain ``str`` is refused: ``mvvm.get(vm, name)`` is the untyped way); ``None``
    (every member), lists of names and the decorator form stay untyped. A member named ``get`` or
    ``subscribe`` wins the name: then there are none."""
    readable = [(p.name, py_read(p.type, names)) for p in cls.properties]
    delivered = [(p.name, pyi_t("splice") if p.is_list else py_read(p.type, names)) for p in cls.properties]
    delivered += [(s.name, py_read(s.type, names)) for s in cls.signals]
    lines: List[str] = []
    if "get" not in taken and readable:
        if len(readable) == 1:
            lines.append(pyi_t("get_single", member=python_string(readable[0][0]), type=readable[0][1]))
        else:
            # Narrower than MvvmObject's on purpose: mypy says so on the first line of the
            # definition, pyright on the last one's.
            for index, (name, kind) in enumerate(readable):
                last = index == len(readable) - 1
                lines.append(pyi_t("get_overload", member=python_string(name), type=kind,
                                   ignore=pyi_t("ignore_narrower") if index == 0 else "",
                                   last_ignore=pyi_t("pyright_ignore_narrower") if last else ""))
    if "subscribe" not in taken and delivered:
        for index, (name, kind) in enumerate(delivered):
            lines.append(pyi_t("subscribe_overloads", member=python_string(name), type=kind, owner=python_name,
                               ignore=pyi_t("ignore_narrower") if index == 0 else ""))
        lines.append(pyi_t("subscribe_untyped"))
    return lines


def record_stub(record: Record, names: Names) -> str:
    python = python_names([f.name for f in record.fields])
    required = [f for f in record.fields if not f.type.optional]
    optional = [f for f in record.fields if f.type.optional]
    def field(f: Field, default: str = "") -> str:
        return pyi_t("field_parameter", name=python[f.name], type=py_write(f.type, names), default=default)

    params = [field(f) for f in required] + [field(f, pyi_t("default")) for f in optional]
    if optional and required and record.fields.index(optional[0]) < record.fields.index(required[-1]):
        params = [field(f) for f in record.fields]  # by position as declared
    fields = "\n".join(pyi_t("record_field", name=python[f.name], type=py_read(f.type, names)) for f in record.fields)
    return pyi_t("record", name=names.records[record.name], doc=docstring(record.doc),
                 parameters=pyi_t("separator").join(params), fields=fields)


def request_stub(cls: Class, names: Names) -> str:
    constructor = next(c for c in cls.constructors if c.has_service)
    own = REQUEST_ATTRIBUTES
    python = python_names([p.name for p in cls.properties])
    attributes = [pyi_t("attribute", name=python[p.name], type=py_snapshot(p.type, names))
                  for p in cls.properties if python[p.name] not in own]
    service = cls.service
    assert service is not None
    return pyi_t("request", name=names.requests[cls.name], argument=py_plain(constructor.service_request or "none"),
                 result=py_plain(constructor.service_result or "none"), attributes="\n".join(attributes),
                 doc=docstring(pyi_t("request_doc", name=names.classes[cls.name], service=service.name)))


def exported_names(library: Library, whole: Library) -> List[str]:
    """The Python names of ``library``'s classes, records and request classes, in the stubs' order."""
    names = Names(whole)
    return ([names.classes[cls.name] for cls in library.classes] + [names.records[name] for name in library.records]
            + [names.requests[cls.name] for cls in library.classes if cls.service is not None])


def generate_pyi(library: Library, whole: Library, package: Dict[str, str]) -> str:
    """The stubs of a typed package (``package``: its ``name``, ``module`` and ``library``) of the
    classes ``mvvm`` makes at run time of ``library`` (a part of ``whole``, the library as it is
    loaded, whose names they take), for mypy and pyright: each record a typed, frozen class; each
    class with its constructors (overloads), properties (outputs read-only, optionals, arrays,
    records, bytes), commands (keyword arguments, results), children, models, typed
    ``get``/``subscribe`` overloads and a TypedDict snapshot; each request class; the package's
    ``Loop``, ``Service`` and ``library``."""
    names = Names(whole)
    exported = list(PACKAGE_NAMES) + exported_names(library, whole)
    body: List[str] = []
    for cls in library.classes:
        python = names.classes[cls.name]
        snapshot = pyi_t("separator").join(pyi_t("snapshot_field", name=python_string(p.name), type=py_snapshot(p.type, names))
                             for p in cls.properties)
        body.append(pyi_t("snapshot", name=python, fields=snapshot))
        body.append(pyi_t("class", name=python, doc=docstring(cls.doc), members="\n".join(class_members(cls, names))))
    for record in library.records.values():
        body.append(record_stub(record, names))
    for cls in library.classes:
        if cls.service is not None:
            body.append(request_stub(cls, names))
    return pyi_t("package_file", names=pyi_t("separator").join(python_string(n) for n in exported),
                 body="\n\n".join([""] + body), **package) + "\n"


#: What a typed package has besides its classes: its library's own Loop and Service classes, and
#: the library (:class:`mvvm.Library`).
PACKAGE_NAMES = ("Loop", "Service", "library")

package_t = Templates("pypackage")


def typed_package(library: Library, whole: Library, name: str, module: str) -> Dict[str, str]:
    """The files of the typed package ``name`` over the library ``lib<name>.so`` beside them (a
    wheel's, as ``python3 -m mvvm_gen.package`` ships it, or a folder ``--py-package`` writes),
    by file name: ``__init__.py``, which loads the library with ``mvvm.load`` on the first use of
    a class and gives its classes, records and request classes as module attributes; its stubs,
    ``__init__.pyi``; and ``py.typed``. ``module`` says which Swift modules' classes they are."""
    package = {"name": name, "module": module, "library": "lib%s.so" % name}
    names = list(PACKAGE_NAMES) + exported_names(library, whole)
    init = package_t("init_py", names=", ".join(python_string(n) for n in names), **package) + "\n"
    return {"__init__.py": init, "__init__.pyi": generate_pyi(library, whole, package), "py.typed": ""}
