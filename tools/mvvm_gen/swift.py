"""The typed C calls' definitions in Swift: a package's ``@_cdecl`` functions over MVVMExport's
public ``TypedCall``, in plain Swift types (a package sees no C header of libmvvm's). The catalog's
are made so too: it is a package like any other."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple, Union

from .escape import swift_comment, swift_string
from .model import Argument, Child, Class, Command, Constructor, Library, Property, Type
from . import naming
from .templates import Templates

t = Templates("swift")
NAMING = naming.load()

# C type -> Swift parameter type.
TYPES = {
    "bool": "Bool", "int64_t": "Int64", "uint64_t": "UInt64", "double": "Double",
    "const char *": "UnsafePointer<CChar>?", "const mvvm_value *": "UnsafeRawPointer?", "mvvm_handle": "UInt64",
    "bool *": "UnsafeMutablePointer<Bool>?", "int64_t *": "UnsafeMutablePointer<Int64>?",
    "uint64_t *": "UnsafeMutablePointer<UInt64>?", "double *": "UnsafeMutablePointer<Double>?",
    "char **": "UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?", "mvvm_value *": "UnsafeMutableRawPointer?",
    "mvvm_handle *": "UnsafeMutablePointer<UInt64>?",
}


#: What a typed call is of: a constructor, a command, a property (a getter's or a setter's), a child.
Member = Union[Constructor, Command, Property, Child]


def typed_calls(cls: Class) -> Iterator[Tuple[str, str, Member]]:
    """Every typed call of a class, in header order: (kind, C function name, member), each named
    by the naming rule (naming.json) the registration check holds registrations to."""
    for constructor in cls.constructors:
        yield "construct", NAMING.typed_call("constructor", cls.name, constructor.name), constructor
    for command in cls.commands:
        yield "command", NAMING.typed_call("command", cls.name, command.name), command
    for prop in cls.properties:
        if prop.is_list:
            continue  # read with mvvm_list_count / mvvm_list_item
        yield "get", NAMING.typed_call("getter", cls.name, prop.name), prop
        if prop.writable:
            yield "set", NAMING.typed_call("setter", cls.name, prop.name), prop
    for child in cls.children:
        yield "child", NAMING.typed_call("child", cls.name, child.name), child


def c_in(kind: Type) -> str:
    return "mvvm_handle" if kind.kind == "object" else kind.c_in


def value(argument: Argument) -> str:
    """The expression of an argument's value: a TypedCall.Argument."""
    case = {"bool": "bool", "int64_t": "int", "uint64_t": "uint", "double": "double", "const char *": "string",
            "const mvvm_value *": "value", "mvvm_handle": "object"}[c_in(argument.type)]
    return t("argument_value", case=case, name=argument.name)


def params(arguments: List[Argument]) -> str:
    return "".join(t("parameter", name=a.name, type=TYPES[c_in(a.type)]) for a in arguments)


def call(block: str, **values: object) -> str:
    return t("package_" + block, **values)


def functions(cls: Class) -> List[str]:
    out = [t("class", name=cls.name, literal=swift_string(cls.name))]
    # Each member's resolution, named after its first typed call (a property's: its getter):
    # the registration check makes every typed call's name once in the library, so these names
    # are distinct too (a name made of class and member could be two classes' alike: a_b's c
    # and a's b_c).
    lets: Dict[Tuple[Optional[str], str], str] = {}
    for kind, function, member in typed_calls(cls):
        lookup = {"command": "command", "get": "property", "set": "property", "child": "child"}.get(kind)
        if lookup is None or (lookup, member.name) in lets:
            continue
        lets[(lookup, member.name)] = t("let_name", kind=lookup, function=function)
        out.append(t("member", let=lets[(lookup, member.name)], kind=lookup, cls=cls.name,
                     literal=swift_string(member.name)))
    for kind, function, member in typed_calls(cls):
        lookup = {"command": "command", "get": "property", "set": "property", "child": "child"}.get(kind)
        let = lets.get((lookup, member.name), "")
        if isinstance(member, Constructor):
            if member.has_service:
                arguments = t("params_construct_service")
                body = call("construct_service", cls=cls.name, literal=swift_string(member.name))
            else:
                arguments = t("params_construct", params=params(member.arguments))
                values = ", ".join(value(a) for a in member.arguments)
                body = call("construct", cls=cls.name, literal=swift_string(member.name), values=values)
        elif isinstance(member, Command) and member.is_async:
            arguments = t("params_command_async", params=params(member.arguments))
            values = t("values_array", values=", ".join(value(a) for a in member.arguments))
            body = call("command_async", member=let, values=values)
        elif isinstance(member, Command):
            result = ""
            arguments = t("params_command", params=params(member.arguments))
            if not member.result.is_none:
                arguments += t("params_result", type=TYPES[member.result.c_out])
                result = t("plain_result" if member.result.is_plain else "value_result")
            values = ", ".join(value(a) for a in member.arguments)
            values = t("values_after", values=values) if values or result else ""
            body = call("command", member=let, values=values, result=result)
        elif isinstance(member, Property) and kind == "get":
            arguments = t("params_get", type=TYPES[member.type.c_out])
            body = call("get", member=let, out=t("plain_out" if member.type.is_plain else "value_out"))
        elif isinstance(member, Property):
            arguments = t("params_set", type=TYPES[c_in(member.type)])
            body = call("set", member=let, value=value(Argument("value", member.type)))
        else:
            arguments = t("params_child")
            body = call("child", member=let)
        out.append(t("function", function=function, literal=swift_string(function), params=arguments, status="Int32",
                     body=body))
    return out


def definitions(library: Library, module: str) -> str:
    out = [t("package_file", module=swift_comment(module)), ""]
    for cls in library.classes:
        out += functions(cls)
        out.append("")
    return "\n".join(out)
