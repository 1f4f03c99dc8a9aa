"""The typed C calls' definitions in Swift: ``@_cdecl`` functions over the generic calls, the
catalog's compiled into MVVMExport (C types), a package's over MVVMExport's public ``TypedCall``
(plain Swift types: a package sees no C header of libmvvm's)."""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Tuple

from mvvm._model import Argument, Class, Library, Type
from . import naming
from .templates import Templates

t = Templates("swift")
NAMING = naming.load()

# C type -> Swift parameter type, per style.
CATALOG_TYPES = {
    "bool": "Bool", "int64_t": "Int64", "uint64_t": "UInt64", "double": "Double",
    "const char *": "UnsafePointer<CChar>?", "const mvvm_value *": "UnsafePointer<mvvm_value>?",
    "mvvm_handle": "mvvm_handle",
    "bool *": "UnsafeMutablePointer<Bool>?", "int64_t *": "UnsafeMutablePointer<Int64>?",
    "uint64_t *": "UnsafeMutablePointer<UInt64>?", "double *": "UnsafeMutablePointer<Double>?",
    "char **": "UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?", "mvvm_value *": "UnsafeMutablePointer<mvvm_value>?",
    "mvvm_handle *": "UnsafeMutablePointer<mvvm_handle>?",
}
PACKAGE_TYPES = dict(CATALOG_TYPES, **{
    "const mvvm_value *": "UnsafeRawPointer?", "mvvm_value *": "UnsafeMutableRawPointer?",
    "mvvm_handle": "UInt64", "mvvm_handle *": "UnsafeMutablePointer<UInt64>?",
})
CONVERT = {"bool": "asBool", "int64_t": "asInt", "uint64_t": "asUInt", "double": "asDouble", "const char *": "asString"}


def typed_calls(cls: Class) -> Iterator[Tuple[str, str, object]]:
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


class Style:
    """What differs between the catalog's typed calls and a package's."""

    def __init__(self, package: bool) -> None:
        self.package = package
        self.prefix = "package_" if package else "catalog_"
        self.types = PACKAGE_TYPES if package else CATALOG_TYPES
        self.handle = "UInt64" if package else "mvvm_handle"
        self.status = "Int32" if package else "mvvm_status"

    def c_in(self, kind: Type) -> str:
        return kind.c_in

    def value(self, argument: Argument) -> str:
        """The expression of an argument's value: a TypedCall.Argument (package) or a Value."""
        c_type, name = self.c_in(argument.type), argument.name
        if self.package:
            case = {"bool": "bool", "int64_t": "int", "uint64_t": "uint", "double": "double", "const char *": "string",
                    "const mvvm_value *": "value", "mvvm_handle": "object"}[c_type]
            return ".%s(%s)" % (case, name)
        return {"bool": ".bool(%s)", "int64_t": ".int(%s)", "uint64_t": ".uint(%s)", "double": ".double(%s)",
                "const char *": '.string(try CString.read(%s, "%s"))', "const mvvm_value *": 'try readValue(%s, "%s")',
                "mvvm_handle": ".object(%s)"}[c_type].replace("%s", name, 1).replace("%s", name)

    def params(self, arguments: List[Argument]) -> str:
        return "".join(", _ %s: %s" % (a.name, self.types[self.c_in(a.type)]) for a in arguments)

    def call(self, block: str, **values: object) -> str:
        return t(self.prefix + block, **values)


def functions(cls: Class, style: Style) -> List[str]:
    out = [t("class", name=cls.name)]
    # Each member's resolution, named after its first typed call (a property's: its getter):
    # the registration check makes every typed call's name once in the library, so these names
    # are distinct too (a name made of class and member could be two classes' alike: a_b's c
    # and a's b_c).
    lets: Dict[Tuple[Optional[str], str], str] = {}
    for kind, function, member in typed_calls(cls):
        lookup = {"command": "command", "get": "property", "set": "property", "child": "child"}.get(kind)
        if lookup is None or (lookup, member.name) in lets:
            continue
        lets[(lookup, member.name)] = "%s_%s" % (lookup, function)
        out.append(t("member", let=lets[(lookup, member.name)], kind=lookup, cls=cls.name, name=member.name))
    handle, status = style.handle, style.status
    for kind, function, member in typed_calls(cls):
        lookup = {"command": "command", "get": "property", "set": "property", "child": "child"}.get(kind)
        let = lets.get((lookup, member.name), "")
        if kind == "construct":
            if member.has_service:
                service = ("TypedCall.RequestFunction?", "TypedCall.DestroyFunction?") if style.package else \
                    ("mvvm_request_fn?", "mvvm_destroy_fn?")
                params = "_ loop: %s, _ request: %s, _ userData: UnsafeMutableRawPointer?, _ destroy: %s, " \
                         "_ out: UnsafeMutablePointer<%s>?" % (handle, service[0], service[1], handle)
                body = style.call("construct_service", cls=cls.name, name=member.name)
            else:
                params = "_ loop: %s%s, _ out: UnsafeMutablePointer<%s>?" % (handle, style.params(member.arguments), handle)
                values = ", ".join(style.value(a) for a in member.arguments)
                if not style.package:
                    values = " { () throws(ExportError) in [%s] }" % values if values else ""
                body = style.call("construct", cls=cls.name, name=member.name, values=values)
        elif kind == "command" and member.is_async:
            done = ("TypedCall.DoneFunction?", "TypedCall.DestroyFunction?") if style.package else \
                ("mvvm_done_fn?", "mvvm_destroy_fn?")
            params = "_ handle: %s%s, _ done: %s, _ userData: UnsafeMutableRawPointer?, _ destroy: %s, " \
                     "_ out: UnsafeMutablePointer<%s>?" % (handle, style.params(member.arguments), done[0], done[1], handle)
            values = ", ".join(style.value(a) for a in member.arguments)
            if not style.package:
                values = "{ () throws(ExportError) in [%s] }" % values
            else:
                values = "[%s]" % values
            body = style.call("command_async", member=let, values=values)
        elif kind == "command":
            result = ""
            params = "_ handle: %s%s" % (handle, style.params(member.arguments))
            if not member.result.is_none:
                params += ", _ result: %s" % style.types[member.result.c_out]
                if style.package:
                    result = ", result: result" if member.result.is_plain else ", value: result"
                else:
                    convert = CONVERT[member.result.c_type] if member.result.is_plain else "asOwned"
                    result = ", result: result(to: result, %s)" % convert
            values = ", ".join(style.value(a) for a in member.arguments)
            if style.package:
                values = ", [%s]" % values if values or result else ""
            else:
                values = ", { () throws(ExportError) in [%s] }" % values if values else (", { [] }" if result else "")
            body = style.call("command", member=let, values=values, result=result)
        elif kind == "get":
            params = "_ handle: %s, _ out: %s" % (handle, style.types[member.type.c_out])
            if style.package:
                body = style.call("get", member=let, out="out" if member.type.is_plain else "value: out")
            else:
                plain = member.type.is_plain
                body = style.call("get", member=let, type="." + member.type.kind if plain else "nil",
                                  convert=CONVERT[member.type.c_type] if plain else "asOwned")
        elif kind == "set":
            value_argument = Argument("value", member.type)
            params = "_ handle: %s, _ value: %s" % (handle, style.types[style.c_in(member.type)])
            body = style.call("set", member=let, value=style.value(value_argument))
        else:
            params = "_ handle: %s, _ out: UnsafeMutablePointer<%s>?" % (handle, handle)
            body = style.call("child", member=let)
        out.append(t("function", function=function, params=params, status=status, body=body))
    return out


def definitions(library: Library, module: Optional[str] = None) -> str:
    style = Style(package=module is not None)
    out = [t("package_file", module=module) if module else t("catalog_file"), ""]
    for cls in library.classes:
        out += functions(cls, style)
        out.append("")
    return "\n".join(out)
