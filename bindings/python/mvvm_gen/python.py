"""Python: the ABI module of the ``mvvm`` package (``_abi.py``: constants, structs and signatures
from the header) and the type stubs of a library's classes and records."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from .abi import Abi
from .templates import Templates

abi_t = Templates("pyabi")

#: C types of the header -> ctypes.
CTYPES: Dict[str, str] = {
    "void": "None", "bool": "ctypes.c_bool", "uint8_t": "ctypes.c_uint8", "int": "ctypes.c_int", "int64_t": "ctypes.c_int64",
    "uint64_t": "ctypes.c_uint64", "double": "ctypes.c_double", "size_t": "ctypes.c_size_t",
    "mvvm_handle": "ctypes.c_uint64", "mvvm_status": "ctypes.c_int", "mvvm_type": "ctypes.c_int",
    "mvvm_event_kind": "ctypes.c_int", "mvvm_loop_kind": "ctypes.c_int",
    # A string the library keeps (static, or the last error): bytes at once.
    "const char *": "ctypes.c_char_p",
    # A string or value out, allocated by the library: an address, freed by the caller.
    "char *": "ctypes.c_void_p", "char **": "ctypes.POINTER(ctypes.c_void_p)",
    "const char **": "ctypes.POINTER(ctypes.c_char_p)", "const char * const *": "ctypes.POINTER(ctypes.c_char_p)",
    "void *": "ctypes.c_void_p", "int *": "ctypes.POINTER(ctypes.c_int)", "bool *": "ctypes.POINTER(ctypes.c_bool)",
    "int64_t *": "ctypes.POINTER(ctypes.c_int64)", "double *": "ctypes.POINTER(ctypes.c_double)",
    "mvvm_handle *": "ctypes.POINTER(ctypes.c_uint64)",
    # Values and events are passed by address: the bindings read them with from_address.
    "mvvm_value *": "ctypes.c_void_p", "const mvvm_value *": "ctypes.c_void_p",
    "const mvvm_value **": "ctypes.POINTER(ctypes.c_void_p)", "const mvvm_event *": "ctypes.c_void_p",
}


#: What a field of a struct is in ctypes where it differs from a parameter: a string in a struct is
#: an address, so that a value's length (its ``integer``) is honoured and a static name can be
#: recognised by its address.
FIELD_CTYPES: Dict[str, str] = {"const char *": "ctypes.c_void_p"}


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
    return [abi_t("field", name=f.name, ctype=field_ctype(f.c_type, abi)) for f in abi.structs[name]]


def flat_fields(name: str, abi: Abi) -> List[str]:
    """The struct's fields with those of each struct it holds inline, in order (the same layout:
    a nested struct here starts where its first field would)."""
    fields: List[str] = []
    for f in abi.structs[name]:
        fields.extend(flat_fields(f.c_type, abi) if f.c_type in abi.structs else
                      [abi_t("field", name=f.name, ctype=field_ctype(f.c_type, abi))])
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
                for name, fields in abi.structs.items() if any(f.c_type in abi.structs for f in fields)]
    callbacks = "\n".join(
        abi_t("callback", name=name, python_name=name[len("mvvm_"):].upper(), result=ctype(function.result, abi),
              params="".join(", " + ctype(p.c_type, abi) for p in function.params))
        for name, function in abi.callbacks.items())
    functions = "\n".join(
        abi_t("function", name=f.name, result=ctype(f.result, abi), params=", ".join(ctype(p.c_type, abi) for p in f.params))
        for f in abi.functions)
    return abi_t("file", constants="\n\n".join(constants), enums="\n\n\n".join(enums), structs="\n\n\n".join(structs),
                 callbacks=callbacks, functions=functions) + "\n"


# --- Type stubs of the classes the mvvm package builds at run time (over the descriptions).

PY_TYPES = {"bool": "bool", "int": "int", "double": "float", "string": "str", "none": "None"}


def camel(name):
    """The Python class name of a C class (as the `mvvm` package names it)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def request_name(python_name):
    """The request class of a class with a host service (`SignUpViewModel` -> `SignUpRequest`)."""
    if python_name.endswith("ViewModel") and python_name != "ViewModel":
        python_name = python_name[:-len("ViewModel")]
    return python_name + "Request"


def py_value_type(member):
    if member.get("type") == "list":
        return f"Sequence[{camel(member['item_class'])}]"
    if member.get("values"):
        return "Literal[" + ", ".join(json.dumps(v) for v in member["values"]) + "]"
    return PY_TYPES[member.get("type") or member.get("argument")]


def py_docstring(text, indent="    "):
    text = (text or "").replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return f'{indent}"""{text}"""' if text else None


def py_argument(argument, request_class):
    if argument["type"] == "service":
        return f"Union[Service, Callable[[{request_class}], Any]]"
    if argument["type"] == "object":
        names = [camel(c) for c in argument.get("classes", [])] or ["MvvmObject"]
        return names[0] if len(names) == 1 else "Union[" + ", ".join(names) + "]"
    return PY_TYPES[argument["type"]]


# What MvvmObject.subscribe accepts besides a name and a callback.
SUBSCRIBE_OPTIONS = "initial: bool = ..., on_end: Optional[Callable[[], Any]] = ..."


def typed_get_and_subscribe(py, cls):
    """Overloads of `get` and `subscribe` that give each property's and signal's value its type:
    `vm.get("count")` is an int, and a subscriber of "count" must take an int (with
    `with_source=True`, the object first). As with a TypedDict's keys, a name must be one of the
    class's (a plain `str` is refused: `MvvmObject.get(vm, name)` is the untyped way); `None`
    (every member), lists of names and the decorator form stay untyped."""
    members = [(prop["name"], "Splice" if prop["type"] == "list" else py_value_type(prop),
                py_value_type(prop)) for prop in cls["properties"]]
    members += [(signal["name"], PY_TYPES[signal["type"]], None) for signal in cls["signals"]]
    lines = []
    readable = [(name, got) for name, _, got in members if got is not None]
    # Narrower than MvvmObject's on purpose: mypy says so on the first line of the definition,
    # pyright on the last one's.
    ignore = "  # type: ignore[override]"
    pyright_ignore = "  # pyright: ignore[reportIncompatibleMethodOverride]"
    for index, (name, got) in enumerate(readable):
        if len(readable) > 1:
            lines.append("    @overload" + (ignore if index == 0 else ""))
        last = index == len(readable) - 1
        lines.append(f"    def get(self, name: Literal[{json.dumps(name)}]) -> {got}: ..."
                     + (ignore if len(readable) == 1 else pyright_ignore if last else ""))
    for index, (name, delivered, _) in enumerate(members):
        literal = f"Literal[{json.dumps(name)}]"
        lines.append("    @overload" + (ignore if index == 0 else ""))
        lines.append(f"    def subscribe(self, name: {literal}, fn: Callable[[str, {delivered}], Any], *, "
                     f"with_source: Literal[False] = ..., {SUBSCRIBE_OPTIONS}) -> Subscription: ...")
        lines.append("    @overload")
        lines.append(f"    def subscribe(self, name: {literal}, fn: Callable[[{py}, str, {delivered}], Any], *, "
                     f"with_source: Literal[True], {SUBSCRIBE_OPTIONS}) -> Subscription: ...")
    if members:
        lines.append("    @overload")
        lines.append("    def subscribe(self, name: None, fn: Callable[..., Any], *, "
                     f"with_source: bool = ..., {SUBSCRIBE_OPTIONS}) -> Subscription: ...")
        lines.append("    @overload")
        lines.append("    def subscribe(self, name: Union[List[str], Tuple[str, ...]], fn: Callable[..., Any], *, "
                     f"with_source: bool = ..., {SUBSCRIBE_OPTIONS}) -> Subscriptions: ...")
        lines.append("    @overload")
        lines.append("    def subscribe(self, name: Union[str, List[str], Tuple[str, ...], None] = ..., fn: None = ..., *, "
                     f"with_source: bool = ..., {SUBSCRIBE_OPTIONS}) -> Callable[[_F], _F]: ...{pyright_ignore}")
    return lines


def generate_pyi(classes):
    """Stubs of the classes `mvvm` makes at run time (mvvm/_dynamic.py), for mypy and pyright:
    each class with its constructors (overloads), properties (outputs read-only), commands (Literal
    arguments when limited), children, models, a TypedDict snapshot; each request class."""
    exported = []
    body = []
    for cls in classes:
        py = camel(cls["class"])
        services = [a for c in cls["constructors"] for a in c["arguments"] if a["type"] == "service"]
        request = request_name(py) if services else None
        exported.append(py)
        body.append(f"class {py}Snapshot(TypedDict):")
        for prop in cls["properties"]:
            # A snapshot gives a list as its items' identities (mvvm_object_id).
            body.append(f"    {prop['name']}: {'list[int]' if prop['type'] == 'list' else py_value_type(prop)}")
        if not cls["properties"]:
            body.append("    pass")
        body.append("")
        body.append(f"class {py}(MvvmObject):")
        body.append(py_docstring(cls["doc"]) or '    """(no documentation)"""')
        constructors = cls["constructors"]
        for constructor in constructors:
            params = ["self", "loop: Loop"] + [f"{a['name']}: {py_argument(a, request)}" for a in constructor["arguments"]]
            if len(constructors) > 1:
                body.append("    @overload")
            body.append(f"    def __init__({', '.join(params)}) -> None: ...")
        if not constructors:
            body.append("    def __init__(self, *args: NoReturn) -> None: ...  # made by its parent only")
        for prop in cls["properties"]:
            value_type = py_value_type(prop)
            body.append("    @property")
            body.append(f"    def {prop['name']}(self) -> {value_type}: ...")
            if prop["access"] == "rw":
                body.append(f"    @{prop['name']}.setter")
                body.append(f"    def {prop['name']}(self, value: {value_type}) -> None: ...")
        for command in cls["commands"]:
            if command["argument"] == "none":
                body.append(f"    def {command['name']}(self) -> None: ...")
            else:
                body.append(f"    def {command['name']}(self, argument: {py_value_type(command)}) -> None: ...")
        for child in cls["children"]:
            body.append("    @property")
            body.append(f"    def {child}(self) -> {camel(cls['child_classes'][child])}: ...")
        models = {a["name"]: a for c in constructors for a in c["arguments"] if a["type"] == "object"}
        for name, argument in models.items():
            body.append("    @property")
            body.append(f"    def {name}(self) -> Optional[{py_argument(argument, request)}]: ...")
        body.extend(typed_get_and_subscribe(py, cls))
        body.append(f"    def snapshot(self) -> {py}Snapshot: ...  # type: ignore[override]")
        body.append("")
        if request:
            exported.append(request)
            service = services[0]
            body.append(f"class {request}(ServiceRequest):")
            body.append(py_docstring(f"A request of {py}'s {service['name']}; its properties when it asked are attributes."))
            argument = service.get("request_argument") or "none"
            body.append(f"    argument: {PY_TYPES.get(argument, 'Any')}")
            for prop in cls["properties"]:
                body.append(f"    {prop['name']}: {py_value_type(prop)}")
            result = service.get("result") or "none"
            body.append(f"    def complete(self, result: {PY_TYPES.get(result, 'Any')}) -> None: ...  # type: ignore[override]")
            body.append(f"    def complete_soon(self, result: {PY_TYPES.get(result, 'Any')}) -> None: ...  # type: ignore[override]")
            body.append("")
    out = ['"""Generated by `python3 -m mvvm_gen` from the registered classes; do not edit.',
           "",
           "The classes the mvvm package makes at run time from the library's descriptions.",
           '"""',
           "from typing import (Any, Callable, List, Literal, NoReturn, Optional, Sequence, Tuple, TypedDict, TypeVar,",
           "                    Union, overload)",
           "",
           "from ._conveniences import Subscriptions",
           "from ._core import Loop, MvvmObject",
           "from ._dynamic import Service, ServiceRequest",
           "from ._list import Splice",
           "from ._object import Subscription",
           "",
           '_F = TypeVar("_F", bound=Callable[..., Any])',
           "",
           "__all__ = [" + ", ".join(json.dumps(name) for name in exported) + "]",
           ""]
    return "\n".join(out + body)


