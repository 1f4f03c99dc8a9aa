"""The typed C calls' declarations, with their documentation: the part of a header between
the @generated markers (``mvvm.h``'s, or a package's own header)."""

from __future__ import annotations

from pathlib import Path
from typing import List

from .abi import BEGIN, END
from .escape import c_comment
from .naming import load as load_naming
from .model import Class, Command, Library, Property, Type
from .templates import Templates

t = Templates("c")
NAMING = load_naming()


def type_summary(kind: Type) -> str:
    """How the class summary names a type: "int", "string?", "[address]"."""
    if kind.kind == "array" and kind.element is not None:
        name = t("summary_array", element=type_summary(kind.element))
    elif kind.kind == "record":
        name = kind.record or "record"
    else:
        name = kind.kind
    return t("summary_optional", type=name) if kind.optional else name


def result_params(command: Command) -> str:
    if command.is_async:
        return t("async_params")
    if command.result.is_none:
        return ""
    return t("result_params", c_out=command.result.c_out)


def result_doc(command: Command) -> str:
    if command.is_async:
        return t("async_doc")
    if command.result.is_none or command.result.kind in ("bool", "int", "double") and command.result.is_plain:
        return ""
    return t("result_owned", free=t("free_string" if command.result.is_plain else "free_value"))


def declarations(library: Library) -> str:
    out: List[str] = [BEGIN, ""]
    for cls in library.classes:
        out += class_declarations(cls)
        out.append("")
    out.append(END)
    return "\n".join(out)


def class_declarations(cls: Class) -> List[str]:
    props = t("summary_separator").join(
        t("summary_property", name=p.name, type=t("summary_list") if p.is_list else type_summary(p.type),
          access=t("summary_rw" if p.writable else "summary_ro")) for p in cls.properties)
    summary = ""
    if props:
        summary += t("summary_properties", properties=props)
    if cls.signals:
        summary += t("summary_signals", signals=", ".join(t("summary_signal", name=s.name, type=type_summary(s.type))
                                                           for s in cls.signals))
    if not cls.constructors:
        summary += t("summary_child")
    out = [t("class", name=cls.name, swift_name=c_comment(cls.swift_name), doc=c_comment(cls.doc),
             summary=summary).replace(" \n", "\n")]
    for constructor in cls.constructors:
        if constructor.has_service:
            params = t("service_params")
        else:
            params = "".join(t("parameter", c_in=a.type.c_in, name=a.name) for a in constructor.arguments)
        if constructor.doc:
            doc = c_comment(constructor.doc) + (t("service_doc") if constructor.has_service else "")
            out.append(t("doc", doc=doc))
        out.append(t("constructor", function=NAMING.typed_call("constructor", cls.name, constructor.name), params=params))
    for command in cls.commands:
        doc = c_comment(command.doc) + result_doc(command) + (t("throws_doc") if command.throws and not command.is_async else "")
        if doc:
            out.append(t("doc", doc=doc.strip()))
        params = "".join(t("parameter", c_in=a.type.c_in, name=a.name) for a in command.arguments)
        out.append(t("command", function=NAMING.typed_call("command", cls.name, command.name), params=params,
                     result=result_params(command)))
    for prop in cls.properties:
        out += property_declarations(cls, prop)
    for child in cls.children:
        out.append(t("child", function=NAMING.typed_call("child", cls.name, child.name), name=child.name,
                     class_name=child.type))
    return out


def property_declarations(cls: Class, prop: Property) -> List[str]:
    if prop.is_list:
        doc = t("list_doc", doc=c_comment(prop.doc)) if prop.doc else ""
        return [t("list", name=prop.name, item_class=prop.type.item_class, doc=doc)]
    doc = prop.doc or ""
    if prop.type.values:
        doc = (doc + t("one_of", values=", ".join(prop.type.values))).strip()
    if not prop.type.is_plain:
        doc = (doc + t("value_owned")).strip()
    out = []
    if doc:
        out.append(t("doc", doc=t("property_doc", name=prop.name, doc=c_comment(doc))))
    out.append(t("getter", function=NAMING.typed_call("getter", cls.name, prop.name), c_out=prop.type.c_out))
    if prop.writable:
        out.append(t("setter", function=NAMING.typed_call("setter", cls.name, prop.name), c_in=prop.type.c_in))
    return out


def new_header(path: Path, modules: List[str]) -> str:
    """A new header of the typed calls of the classes of ``modules`` (Swift modules)."""
    guard = "".join(c if c.isalnum() else "_" for c in path.name.upper())
    return t("package_header", file=c_comment(path.name), modules=c_comment(", ".join(modules)),
             flags=c_comment(" ".join(t("module_flag", module=module) for module in modules)), guard=guard, begin=BEGIN,
             end=END) + "\n"


def splice(text: str, generated: str) -> str:
    """``text`` with its generated part replaced by ``generated``."""
    import re
    match = re.search(r"/\* @generated typed calls begin.*?@generated typed calls end \*/", text, flags=re.S)
    if match is None:
        raise ValueError("the header has no @generated markers")
    return text[:match.start()] + generated + text[match.end():]
