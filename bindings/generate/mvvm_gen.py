#!/usr/bin/env python3
"""Generates every typed surface of a libmvvm library from the classes it registers.

One source of truth: the library's own descriptions (`mvvm_classes`), so a class is declared
once, in Swift, and every restatement of it is made here. Run it on libmvvm, or on a library
of your own that links MVVMExport:

    python3 bindings/generate/mvvm_gen.py --library PATH/libmvvm.so \\
        --header include/mvvm.h --swift Sources/MVVMExport/Generated/TypedCalls.swift \\
        --pyi bindings/python/mvvm/_classes.pyi [--check]

--header rewrites the part of the header between the "@generated" markers: the typed C calls
`mvvm_<class>_<verb>` with their documentation. --swift writes their definitions (@_cdecl
functions over the generic calls; compiled into MVVMExport). --pyi writes Python type stubs of
the classes the `mvvm` package builds at run time. --rbs writes Ruby signatures (RBS) of the
classes the Ruby bindings build at run time (it asks `ruby` which names the bindings reserve).
--fuzz writes the fuzzer's tables of typed calls (Tests/fuzz/typed_calls.h). --check writes
nothing and exits 1, showing the difference, when a file is not what it would write (`make test`
runs it so). Standard library only.
"""
import argparse
import ctypes
import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

BEGIN = "/* @generated typed calls begin: bindings/generate/mvvm_gen.py writes this part; do not edit. */"
END = "/* @generated typed calls end */"

C_OUT = {"bool": "bool *", "int": "int64_t *", "double": "double *", "string": "char **"}
C_IN = {"bool": "bool", "int": "int64_t", "double": "double", "string": "const char *"}
SWIFT_OUT = {"bool": "UnsafeMutablePointer<Bool>?", "int": "UnsafeMutablePointer<Int64>?",
             "double": "UnsafeMutablePointer<Double>?", "string": "UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?"}
SWIFT_IN = {"bool": "Bool", "int": "Int64", "uint64_t": "UInt64", "double": "Double", "string": "UnsafePointer<CChar>?"}
SWIFT_CONVERT = {"bool": "asBool", "int": "asInt", "double": "asDouble", "string": "asString"}


def load_classes(library):
    lib = ctypes.CDLL(str(library))
    lib.mvvm_classes.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.mvvm_classes.restype = ctypes.c_int
    lib.mvvm_string_free.argtypes = [ctypes.c_void_p]
    lib.mvvm_last_error.restype = ctypes.c_char_p
    out = ctypes.c_void_p()
    status = lib.mvvm_classes(ctypes.byref(out))
    if status != 0:
        sys.exit(f"mvvm_gen: mvvm_classes failed ({status}): {lib.mvvm_last_error().decode()}")
    try:
        return json.loads(ctypes.string_at(out.value).decode("utf-8"))
    finally:
        lib.mvvm_string_free(out)


def c_comment(text, indent=""):
    return text.replace("*/", "* /")


def value_swift(type_name, c_type, name):
    """A Swift expression making the Value of a C argument."""
    if type_name == "string":
        return f".string(try CString.read({name}, \"{name}\"))"
    if type_name == "int" and c_type == "uint64_t":
        return f".int(Int64(bitPattern: {name}))"
    if type_name == "object":
        return f".object({name})"
    return f".{type_name}({name})"


def c_arguments(arguments):
    params = []
    for argument in arguments:
        if argument["type"] == "service":
            params += ["mvvm_request_fn request_fn", "void *user_data", "mvvm_destroy_fn destroy_fn_or_null"]
        elif argument["type"] == "object":
            params.append(f"mvvm_handle {argument['name']}")
        else:
            params.append(f"{argument.get('c_type') or C_IN[argument['type']]} {argument['name']}")
    return params


def generate_header(classes):
    out = [BEGIN, ""]
    for cls in classes:
        name = cls["class"]
        props = "; ".join(f"{p['name']}: {p['type']} {p['access']}" for p in cls["properties"])
        summary = [f"{name} ({cls['swift_name']}): {c_comment(cls['doc'])}".rstrip()]
        if props:
            summary.append(f"Properties: {props}.")
        if cls["signals"]:
            summary.append("Signals: " + ", ".join(f"{s['name']}({s['type']})" for s in cls["signals"]) + ".")
        if not cls["constructors"]:
            summary.append("Made by its parent (a child): no constructor.")
        out.append("/* " + "\n * ".join(summary) + " */")
        for constructor in cls["constructors"]:
            if constructor["doc"]:
                doc = c_comment(constructor["doc"])
                if any(a["type"] == "service" for a in constructor["arguments"]):
                    doc += (" `destroy_fn_or_null(user_data)` runs exactly once, when the object is released or when"
                            " this call fails; NULL_POINTER for a NULL request_fn.")
                out.append(f"/** {doc} */")
            params = ["mvvm_handle loop"] + c_arguments(constructor["arguments"]) + ["mvvm_handle *out"]
            out.append(f"mvvm_status mvvm_{name}_{constructor['name']}({', '.join(params)});")
        for command in cls["commands"]:
            if command["doc"]:
                out.append(f"/** {c_comment(command['doc'])} */")
            params = ["mvvm_handle object"]
            if command["argument"] != "none":
                params.append(f"{C_IN[command['argument']]} argument")
            out.append(f"mvvm_status mvvm_{name}_{command['name']}({', '.join(params)});")
        for prop in cls["properties"]:
            if prop["type"] == "list":
                # Lists are read with mvvm_list_count / mvvm_list_item: no typed call.
                out.append(f"/* {prop['name']}: a list of {prop['item_class']} (mvvm_list_count, mvvm_list_item). "
                           f"{c_comment(prop['doc'] or '')} */".replace(" */", " */").replace(".  */", ". */"))
                continue
            doc = prop["doc"] or ""
            if "values" in prop:
                doc = (doc + " One of: " + ", ".join(prop["values"]) + ".").strip()
            if doc:
                out.append(f"/** {prop['name']}: {c_comment(doc)} */")
            out.append(f"mvvm_status mvvm_{name}_get_{prop['name']}(mvvm_handle object, {C_OUT[prop['type']]}out);")
            if prop["access"] == "rw":
                out.append(f"mvvm_status mvvm_{name}_set_{prop['name']}(mvvm_handle object, {C_IN[prop['type']]} value);")
        for child in cls["children"]:
            out.append(f"/** A new handle to the {child} child ({cls['child_classes'][child]}); the caller releases it. */")
            out.append(f"mvvm_status mvvm_{name}_{child}(mvvm_handle object, mvvm_handle *out);")
        out.append("")
    out.append(END)
    return "\n".join(out)


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
    out = ['"""Generated by bindings/generate/mvvm_gen.py from the registered classes; do not edit.',
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


# Ruby: the types a value of each libmvvm type has (RBS), read and written.
RBS_READ = {"bool": "bool", "int": "Integer", "double": "Float", "string": "String"}
RBS_WRITE = {"bool": "bool", "int": "Integer", "double": "Float | Integer", "string": "text"}
RUBY_LIB = Path(__file__).resolve().parent.parent / "ruby" / "lib"


def ruby_reserved():
    """What the Ruby bindings give no generated method or constant: the names of the methods every
    object has (Mvvm::Classes.reserved) and Mvvm's own constants, asked of Ruby itself so that the
    signatures follow bindings/ruby/lib/mvvm/classes.rb exactly."""
    script = 'puts Mvvm::Classes.reserved.keys.join(" "); puts Mvvm.constants.join(" ")'
    try:
        out = subprocess.run(["ruby", "-I", str(RUBY_LIB), "-rmvvm", "-e", script], check=True,
                             capture_output=True, text=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"mvvm_gen: --rbs asks Ruby which names the bindings reserve, and could not: {error}")
    return set(out[0].split()), set(out[1].split())


def ruby_names(cls, constants):
    """The constants of Mvvm that name a class, first its Ruby name (Mvvm::Classes.name_class)."""
    names = []
    for name in (cls["swift_name"].split(".")[-1], camel(cls["class"])):
        if re.fullmatch(r"[A-Z]\w*", name) and name not in constants and name not in names:
            names.append(name)
    return names


def rbs_comment(text, indent):
    return [f"{indent}# {line}".rstrip() for line in text.splitlines()] if text else []


def rbs_value(member, written=False):
    """What a reader gives, or (`written`) what a writer or command takes: a limited string
    also as a Symbol, which is sent as its name."""
    values = member.get("values")
    if values:
        literals = [json.dumps(v) for v in values]
        if written:
            literals += [f":{v}" if re.fullmatch(r"[a-z_]\w*", v) else f":{json.dumps(v)}" for v in values]
        return "(" + " | ".join(literals) + ")"
    return (RBS_WRITE if written else RBS_READ)[member.get("type") or member.get("argument")]


def generate_rbs(classes, reserved, constants):
    """Signatures of the classes the Ruby bindings make at run time (Mvvm::Classes): a reader per
    property (`name?` too for a bool), a writer per binding, a method per command, a reader per
    child and per model argument, `initialize` overloads per constructor (positional, by keyword,
    a service as a block); a member whose name is reserved gets no method, as in Ruby."""
    taken = set(constants)
    ruby = {}
    for cls in classes:
        names = ruby_names(cls, taken)
        ruby[cls["class"]] = names
        taken.update(names)

    def class_type(c_name):
        return ruby[c_name][0] if c_name in ruby and ruby[c_name] else "Base"

    def argument_type(argument):
        if argument["type"] == "object":
            return " | ".join(class_type(c) for c in argument.get("classes") or []) or "Base"
        if argument["type"] == "service":
            return "service"
        return RBS_WRITE[argument["type"]]

    out = ["# Generated by bindings/generate/mvvm_gen.py from the registered classes; do not edit.",
           "# The classes the Ruby bindings make at run time from the library's descriptions",
           "# (bindings/ruby/lib/mvvm/classes.rb); the fixed API is in mvvm.rbs.",
           "module Mvvm"]
    for cls in classes:
        names = ruby[cls["class"]]
        if not names:
            continue  # reachable by Mvvm.class_for only
        out += rbs_comment(cls["doc"], "  ")
        out.append(f"  class {names[0]} < Base")
        def params(parameters):
            return "(" + ", ".join(["Loop loop", *parameters]) + ")"

        overloads = []
        for constructor in cls["constructors"]:
            arguments = constructor["arguments"]
            overloads.append(params(f"{argument_type(a)} {a['name']}" for a in arguments) + " -> void")
            if arguments:
                overloads.append(params(f"{a['name']}: {argument_type(a)}" for a in arguments) + " -> void")
            services = [a for a in arguments if a["type"] == "service"]
            if len(services) == 1:
                overloads.append(params(f"{argument_type(a)} {a['name']}" for a in arguments if a is not services[0])
                                 + " { (Request request) -> untyped } -> void")
        if overloads:
            out.append("    def initialize: " + "\n                  | ".join(overloads))
        else:
            out.append("    def initialize: (*untyped) -> void  # made by its parent only: Mvvm::UnsupportedError")
        defined = set()

        def method(name, signature):
            if name in reserved or name in defined:
                return
            defined.add(name)
            out.append(f"    def {name}: {signature}")

        for prop in cls["properties"]:
            read = f"List[{class_type(prop['item_class'])}]" if prop["type"] == "list" else rbs_value(prop)
            method(prop["name"], f"() -> {read}")
            if prop["type"] == "bool":
                method(prop["name"] + "?", "() -> bool")
            if prop["access"] == "rw" and prop["type"] != "list":
                written = rbs_value(prop, written=True)
                result = "Float" if prop["type"] == "double" else written
                method(prop["name"] + "=", f"({written} value) -> {result}")
        for command in cls["commands"]:
            if command["argument"] == "none":
                method(command["name"], "() -> self")
            else:
                method(command["name"], f"({rbs_value(command, written=True)} argument) -> self")
        for child in cls["children"]:
            method(child, f"() -> {class_type(cls['child_classes'].get(child))}")
        models = {a["name"]: a for c in cls["constructors"] for a in c["arguments"] if a["type"] == "object"}
        for name, argument in models.items():
            method(name, f"() -> ({argument_type(argument)})?")
        out.append("  end")
        for alias in names[1:]:
            out.append(f"  {alias}: singleton({names[0]})")
    out.append("end")
    return "\n".join(out) + "\n"


def typed_calls(cls):
    """Every typed call of a class, in header order: (kind, C function name, member)."""
    name = cls["class"]
    for constructor in cls["constructors"]:
        yield "construct", f"mvvm_{name}_{constructor['name']}", constructor
    for command in cls["commands"]:
        yield "command", f"mvvm_{name}_{command['name']}", command
    for prop in cls["properties"]:
        if prop["type"] == "list":
            continue  # read with mvvm_list_count / mvvm_list_item
        yield "get", f"mvvm_{name}_get_{prop['name']}", prop
        if prop["access"] == "rw":
            yield "set", f"mvvm_{name}_set_{prop['name']}", prop
    for child in cls["children"]:
        yield "child", f"mvvm_{name}_{child}", child


# The fuzzer's tables of typed calls, by C signature (Tests/fuzz/fuzz_abi.c declares the types).
FUZZ_TABLES = [("typed_cmd", "cmds"), ("typed_get_int", "get_ints"), ("typed_get_bool", "get_bools"),
               ("typed_get_string", "get_strings"), ("typed_set_bool", "set_bools"),
               ("typed_set_string", "set_strings"), ("typed_child", "typed_children")]


def fuzz_table(kind, member):
    """The fuzzer table a typed call belongs in, and any extra field, or None (a signature the
    fuzzer does not drive by typed calls: it reaches those members through the generic calls)."""
    if kind == "command":
        if member["argument"] == "none":
            return "cmds", ""
        return ("set_strings", ", true") if member["argument"] == "string" else None
    if kind == "get":
        return {"int": ("get_ints", ""), "bool": ("get_bools", ""), "string": ("get_strings", "")}.get(member["type"])
    if kind == "set":
        return {"bool": ("set_bools", ""), "string": ("set_strings", ", false")}.get(member["type"])
    if kind == "child":
        return "typed_children", ""
    return None


def generate_fuzz_tables(classes):
    """Tests/fuzz/typed_calls.h: every typed call of the catalog in the fuzzer's tables, with its
    class, and the class names, so that a class added to the catalog is fuzzed with no edit."""
    rows = {table: [] for _, table in FUZZ_TABLES}
    for cls in classes:
        for kind, function, member in typed_calls(cls):
            placed = fuzz_table(kind, member)
            if placed:
                table, extra = placed
                rows[table].append(f'    {{ {function}, "{cls["class"]}"{extra} }},')
    out = ["/* Generated by bindings/generate/mvvm_gen.py from the registered classes; do not edit.",
           " * The typed calls Tests/fuzz/fuzz_abi.c drives, by C signature, with the class each is for. */",
           ""]
    for type_name, table in FUZZ_TABLES:
        out.append(f"static const {type_name} {table}[] = {{")
        if not rows[table]:
            sys.exit(f"mvvm_gen: no typed call for the fuzzer's {table} table (it drives at least one of each)")
        out.extend(rows[table])
        out.append("};")
    out.append("static const char *const catalog_class_names[] = {")
    out.extend(f'    "{cls["class"]}",' for cls in classes)
    out.append("};")
    return "\n".join(out) + "\n"


class SwiftStyle:
    """What both kinds of generated typed calls share: the class and each member a call names in
    a lazily initialised global (`TypedCall.Class`, `.property`, `.command`, `.child`), looked up
    by name once, the first time a call uses it, not on every call."""
    swift_out = SWIFT_OUT

    def __init__(self, cls):
        self.cls = cls["class"]
        self.var = f"class_{cls['class']}"

    def member(self, kind, name):
        return f"{kind}_{self.cls}_{name}"

    def preamble(self, cls):
        lines = [f"private let {self.var} = TypedCall.Class(\"{cls['class']}\")"]
        members = {"command": "command", "get": "property", "set": "property", "child": "child"}
        seen = set()
        for kind, _, member in typed_calls(cls):
            if kind not in members:
                continue
            lookup, name = members[kind], member if kind == "child" else member["name"]
            if (lookup, name) in seen:
                continue
            seen.add((lookup, name))
            lines.append(f"private let {self.member(lookup, name)} = {self.var}.{lookup}(\"{name}\")")
        return lines


class CatalogSwift(SwiftStyle):
    """Typed calls compiled into MVVMExport itself, with C types."""
    imports = "import CMVVM"
    handle, status = "mvvm_handle", "mvvm_status"
    swift_in = dict(SWIFT_IN, object=handle)
    service_params = ("_ request: mvvm_request_fn?, _ userData: UnsafeMutableRawPointer?, "
                      "_ destroy: mvvm_destroy_fn?")

    def value(self, type_name, c_type, name):
        return value_swift(type_name, c_type, name)

    def construct(self, constructor, values):
        closure = f" {{ () throws(ExportError) in [{', '.join(values)}] }}" if values else ""
        return f"typedConstruct(loop, {self.var}, \"{constructor}\", out){closure}"

    def construct_with_service(self, constructor):
        return f"typedConstructWithService(loop, {self.var}, \"{constructor}\", request, userData, destroy, out)"

    def command(self, command, value):
        closure = f" {{ () throws(ExportError) in [{value}] }}" if value else ""
        return f"typedCommand(handle, {self.member('command', command)}){closure}"

    def get(self, prop):
        return (f"typedGet(handle, {self.member('property', prop['name'])}, .{prop['type']}, out, "
                f"{SWIFT_CONVERT[prop['type']]})")

    def set(self, prop, value):
        return f"typedSet(handle, {self.member('property', prop['name'])}) {{ () throws(ExportError) in {value} }}"

    def child(self, child):
        return f"typedChild(handle, {self.member('child', child)}, out)"


class PackageSwift(SwiftStyle):
    """Typed calls of a package's own classes, over MVVMExport's public TypedCall: plain C types
    (a package sees no C header of libmvvm's)."""
    imports = "import MVVMExport"
    handle, status = "UInt64", "Int32"
    swift_in = dict(SWIFT_IN, object=handle)
    service_params = ("_ request: TypedCall.RequestFunction?, _ userData: UnsafeMutableRawPointer?, "
                      "_ destroy: TypedCall.DestroyFunction?")

    def value(self, type_name, c_type, name):
        return f".uint({name})" if type_name == "int" and c_type == "uint64_t" else f".{type_name}({name})"

    def construct(self, constructor, values):
        return f"TypedCall.construct(loop, {self.var}, \"{constructor}\", [{', '.join(values)}], out)"

    def construct_with_service(self, constructor):
        return (f"TypedCall.construct(loop, {self.var}, \"{constructor}\", request: request, "
                "userData: userData, destroy: destroy, out)")

    def command(self, command, value):
        return f"TypedCall.command(handle, {self.member('command', command)}{', [' + value + ']' if value else ''})"

    def get(self, prop):
        return f"TypedCall.get(handle, {self.member('property', prop['name'])}, out)"

    def set(self, prop, value):
        return f"TypedCall.set(handle, {self.member('property', prop['name'])}, {value})"

    def child(self, child):
        return f"TypedCall.child(handle, {self.member('child', child)}, out)"


def generate_swift(classes, module=None):
    """The definitions of the typed calls: the catalog's inside MVVMExport, or (`module`) a
    package's own, compiled into its library beside its registration."""
    style = PackageSwift if module else CatalogSwift
    if module:
        out = [f"// Generated by bindings/generate/mvvm_gen.py --module {module} from the registered classes; do not edit.",
               "// The typed C calls of this package's classes (declared in its generated header)."]
    else:
        out = ["// Generated by bindings/generate/mvvm_gen.py from the registered classes; do not edit.",
               "// The typed C calls of include/mvvm.h, each a thin wrapper over the generic call of the same meaning."]
    out += [style.imports, ""]
    for cls in classes:
        emit = style(cls)
        out.append(f"// MARK: {cls['class']}")
        out += emit.preamble(cls)
        for kind, function, member in typed_calls(cls):
            out.append(f"@_cdecl(\"{function}\")")
            if kind == "construct":
                arguments = member["arguments"]
                if any(a["type"] == "service" for a in arguments):
                    signature = f"_ loop: {emit.handle}, {emit.service_params}, _ out: UnsafeMutablePointer<{emit.handle}>?"
                    body = emit.construct_with_service(member["name"])
                else:
                    params = [f"_ loop: {emit.handle}"] + [
                        f"_ {a['name']}: {emit.swift_in.get(a.get('c_type'), emit.swift_in[a['type']])}" for a in arguments]
                    params.append(f"_ out: UnsafeMutablePointer<{emit.handle}>?")
                    signature = ", ".join(params)
                    body = emit.construct(member["name"], [emit.value(a["type"], a.get("c_type"), a["name"]) for a in arguments])
            elif kind == "command":
                if member["argument"] == "none":
                    signature, value = f"_ handle: {emit.handle}", None
                else:
                    signature = f"_ handle: {emit.handle}, _ argument: {emit.swift_in[member['argument']]}"
                    value = emit.value(member["argument"], None, "argument")
                body = emit.command(member["name"], value)
            elif kind == "get":
                signature = f"_ handle: {emit.handle}, _ out: {emit.swift_out[member['type']]}"
                body = emit.get(member)
            elif kind == "set":
                signature = f"_ handle: {emit.handle}, _ value: {emit.swift_in[member['type']]}"
                body = emit.set(member, emit.value(member["type"], None, "value"))
            else:
                signature = f"_ handle: {emit.handle}, _ out: UnsafeMutablePointer<{emit.handle}>?"
                body = emit.child(member)
            out.append(f"public func {function}({signature}) -> {emit.status} {{")
            out.append(f"    {body}")
            out.append("}")
        out.append("")
    return "\n".join(out)


def new_header(path, module):
    guard = "".join(c if c.isalnum() else "_" for c in path.name.upper())
    return f"""/*
 * {path.name} - the typed C calls of {module}'s classes, written by bindings/generate/mvvm_gen.py
 * --module {module} from the classes it registers. The generic ABI, its types and rules are
 * mvvm.h's; each call here is the generic call of the same meaning, with the same errors, plus
 * MVVM_ERR_WRONG_TYPE for an object of another class.
 */
#ifndef {guard}
#define {guard}

#include "mvvm.h"

#ifdef __cplusplus
extern "C" {{
#endif

{BEGIN}
{END}

#ifdef __cplusplus
}}
#endif

#endif /* {guard} */
"""


def splice_header(text, generated):
    if BEGIN not in text or END not in text:
        sys.exit("mvvm_gen: the header has no @generated markers")
    before = text[:text.index(BEGIN)]
    after = text[text.index(END) + len(END):]
    return before + generated + after


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", required=True, help="the libmvvm.so (or your library) to describe")
    parser.add_argument("--header", help="a header with @generated markers to fill")
    parser.add_argument("--swift", help="the Swift file of typed call definitions to write")
    parser.add_argument("--pyi", help="the Python stub file to write")
    parser.add_argument("--rbs", help="the Ruby signatures (RBS) of the classes to write")
    parser.add_argument("--fuzz", help="the fuzzer's table of typed calls to write (Tests/fuzz/typed_calls.h)")
    parser.add_argument("--json", help="write the descriptions themselves, pretty-printed")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is stale")
    parser.add_argument("--module", help="only the classes this Swift module registers (a package of your own): "
                        "the header is made if missing and the Swift file calls MVVMExport's public TypedCall")
    args = parser.parse_args()
    classes = load_classes(args.library)
    if args.module:
        classes = [c for c in classes if c.get("swift_module") == args.module]
        if not classes:
            sys.exit(f"mvvm_gen: the library registers no class of module {args.module}")
    outputs = []
    if args.header:
        path = Path(args.header)
        text = path.read_text() if path.exists() or not args.module else new_header(path, args.module)
        outputs.append((path, splice_header(text, generate_header(classes))))
    if args.swift:
        outputs.append((Path(args.swift), generate_swift(classes, args.module)))
    if args.pyi:
        outputs.append((Path(args.pyi), generate_pyi(classes)))
    if args.rbs:
        outputs.append((Path(args.rbs), generate_rbs(classes, *ruby_reserved())))
    if args.fuzz:
        outputs.append((Path(args.fuzz), generate_fuzz_tables(classes)))
    if args.json:
        outputs.append((Path(args.json), json.dumps(classes, indent=2) + "\n"))
    stale = 0
    for path, text in outputs:
        current = path.read_text() if path.exists() else ""
        if current == text:
            print(f"mvvm_gen: {path} is up to date")
            continue
        if args.check:
            stale += 1
            print(f"mvvm_gen: {path} is stale (regenerate: make generate)")
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                                       str(path), f"{path} (generated)", n=1))
        else:
            path.write_text(text)
            print(f"mvvm_gen: wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
