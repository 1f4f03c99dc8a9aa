"""The fuzzer's tables of typed calls (Tests/fuzz/typed_calls.h), by C signature: every typed
call of the library's classes whose signature the fuzzer drives, with its class, so that a class
added to the catalog is fuzzed with no edit."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .escape import c_string
from .model import Child, Command, Library, Property
from .swift import Member, typed_calls
from .templates import Templates

t = Templates("fuzz")

# The tables, in the order Tests/fuzz/fuzz_abi.c reads them (the C type of each one's entries is
# fuzz.tmpl's type_<table>).
TABLES = ["cmds", "get_ints", "get_bools", "get_strings", "set_bools", "set_strings", "typed_children"]


def table(kind: str, member: Member) -> Optional[Tuple[str, str]]:
    """The table a typed call belongs in, and any extra field (fuzz.tmpl's text), or None (a
    signature the fuzzer reaches through the generic calls instead)."""
    if isinstance(member, Command):
        if not member.result.is_none:
            return None
        arguments = member.arguments
        if not arguments:
            return "cmds", ""
        if len(arguments) == 1 and arguments[0].type.is_plain and arguments[0].type.kind == "string":
            return "set_strings", t("extra_command")
        return None
    if isinstance(member, Property):
        kind_type = member.type
        if not kind_type.is_plain:
            return None
        names = {"get": {"int": "get_ints", "bool": "get_bools", "string": "get_strings"},
                 "set": {"bool": "set_bools", "string": "set_strings"}}[kind]
        name = names.get(kind_type.kind)
        if name is None:
            return None
        return name, t("extra_setter") if name == "set_strings" else ""
    if isinstance(member, Child):
        return "typed_children", ""
    return None


def tables(library: Library) -> str:
    rows: Dict[str, List[str]] = {name: [] for name in TABLES}
    for cls in library.classes:
        for kind, function, member in typed_calls(cls):
            placed = table(kind, member)
            if placed:
                rows[placed[0]].append(t("row", function=function, cls=c_string(cls.name), extra=placed[1]))
    for name in TABLES:
        if not rows[name]:
            raise ValueError("no typed call for the fuzzer's %s table (it drives at least one of each)" % name)
    body = "\n".join(t("table", type=t("type_" + name), name=name, rows="\n".join(rows[name])) for name in TABLES)
    names = "\n".join(t("class_name", cls=c_string(cls.name)) for cls in library.classes)
    return t("file", tables=body, names=names) + "\n"
