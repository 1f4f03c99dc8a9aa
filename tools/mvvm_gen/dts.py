"""TypeScript: the declarations (``.d.ts``) of the classes the Node.js module makes at run time
from a library's description (bindings/node/index.js). One static type per member, as the module
renders values: an Int a number, a UInt64 a bigint, bytes a Uint8Array, a Date a Date, records
frozen objects, optionals ``| null``, lists ``MvvmList<Item>``, async commands Promises. The text
is ``templates/dts.tmpl``'s; the names are the module's, by the JavaScript naming rule whose data
is bindings/node/naming.json (which bindings/node/names.js reads too; :func:`naming.js_data`)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from . import naming
from .escape import ts_comment, ts_string
from .model import Argument, Class, Constructor, Library, Record, Type
from .templates import Templates

t = Templates("dts")

__all__ = ["JsNaming", "generate_dts"]


@dataclasses.dataclass(frozen=True)
class JsNaming:
    """The Node module's naming rule (names.js), from its data file (``naming.js_data()``)."""

    reserved: Set[str]
    module_names: List[str]
    object_methods: List[str]
    suffix: str
    member_case: str = "camel"

    @staticmethod
    def load(path: Optional[Path] = None) -> "JsNaming":
        source = path or naming.js_data()
        data = json.loads(source.read_text())
        if data.get("member_case", "camel") not in ("camel", "snake"):
            raise ValueError("%s: member_case is camel or snake, not %r" % (source, data["member_case"]))
        return JsNaming(set(data["reserved"]), list(data["module_names"]), list(data["object_methods"]), data["suffix"],
                        data.get("member_case", "camel"))

    def field(self, name: str) -> str:
        """A C name (a member's, an argument's, a record field's) in the rule's case (names.js's
        memberCase): camel turns an underscore before a letter into that letter in upper case."""
        if self.member_case == "snake":
            return name
        return re.sub(r"_([a-z])", lambda found: found.group(1).upper(), name)

    def members(self, names: List[str]) -> Dict[str, str]:
        """Each of a class's member names -> its JavaScript name (names.js's jsNames): its case,
        and a reserved one takes the suffix until it is neither reserved nor another member's."""
        given: Dict[str, str] = {}
        cased = [self.field(name) for name in names]
        used = {js for js in cased if js not in self.reserved}
        for name, js in zip(names, cased):
            if js in self.reserved:
                while js in self.reserved or js in used:
                    js += self.suffix
                used.add(js)
            given[name] = js
        return given

    def library(self, library: Library) -> Tuple[Dict[str, str], Dict[str, str]]:
        """The names of the classes and records (by C name), none the module's (libraryNames)."""
        used = set(self.module_names)

        def give(display: str) -> str:
            while display in used:
                display += self.suffix
            used.add(display)
            return display

        classes = {cls.name: give(cls.display) for cls in library.classes}
        records = {name: give(record.display) for name, record in library.records.items()}
        return classes, records


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) else ts_string(name)


def _field_key(name: str) -> str:
    """A record's field in its class: a field named `constructor` (a lower_snake name the library
    allows) as a computed key, since a class body takes `constructor` for its constructor."""
    return '["constructor"]' if name == "constructor" else _key(name)


def _doc(text: Optional[str], indent: str) -> str:
    return t("doc", indent=indent, text=ts_comment(text)) + "\n" if text else ""


class _Declarations:
    def __init__(self, library: Library, rule: JsNaming) -> None:
        self.library = library
        self.rule = rule
        self.classes, self.records = rule.library(library)
        self.separator = t("union_separator")

    def class_name(self, c_name: Optional[str]) -> str:
        return self.classes.get(c_name or "") or t("any_object")

    def strings(self, kind: Type) -> Optional[str]:
        return None if kind.values is None else self.separator.join(ts_string(v) for v in kind.values)

    def out(self, kind: Type) -> str:
        """A value as the module hands it out."""
        if kind.kind == "none":
            return t("out_none")
        if kind.kind == "string" and kind.values is not None:
            text = self.strings(kind) or ""
        elif kind.kind == "int" and kind.c_type == "uint64_t":
            text = t("out_uint64")
        elif kind.kind == "array":
            text = t("out_array", element=self.out(kind.element or Type("unknown")))
        elif kind.kind == "record":
            text = self.records.get(kind.record or "") or t("out_record")
        elif kind.kind == "list":
            text = t("out_list", item=self.class_name(kind.item_class))
        elif "out_" + kind.kind in t:  # a kind of one type: bool, int, date, decimal...
            text = t("out_" + kind.kind)
        else:
            text = t("unknown")
        return t("optional", type=text) if kind.optional else text

    def input(self, kind: Type, owner: Optional[str] = None, constructor: Optional[Constructor] = None) -> str:
        """A value as the module takes it (a service: the function answering its requests)."""
        if kind.kind == "string" and kind.values is not None:
            text = self.strings(kind) or ""
        elif kind.kind == "array":
            text = t("in_array", element=self.input(kind.element or Type("unknown")))
        elif kind.kind == "record":
            text = t("in_known_record", name=self.records[kind.record]) if kind.record in self.records else t("in_record")
        elif kind.kind == "object":
            text = self.separator.join(self.class_name(c) for c in kind.classes or []) or t("any_object")
        elif kind.kind == "service":
            request = constructor.service_request if constructor else None
            answer = constructor.service_result if constructor else None
            result = self.input(Type(answer)) if answer else t("unknown")
            text = t("in_service", argument=self.out(Type(request)) if request else t("unknown"),
                     owner=owner or t("any_object"), result=result)
        elif "in_" + kind.kind in t:
            text = t("in_" + kind.kind)
        else:
            text = t("unknown")
        return t("optional", type=text) if kind.optional else text

    def arguments(self, arguments: List[Argument], owner: Optional[str] = None,
                  constructor: Optional[Constructor] = None) -> str:
        return ", ".join(t("argument", name=_key(self.rule.field(a.name)), optional=self.optional(a.type),
                               type=self.input(a.type, owner, constructor)) for a in arguments)

    def options(self, arguments: List[Argument], extra: str = "", owner: Optional[str] = None,
                constructor: Optional[Constructor] = None) -> str:
        return t("options", extra=extra, options="".join(
            t("option", name=_key(self.rule.field(a.name)), optional=self.optional(a.type),
              type=self.input(a.type, owner, constructor))
            for a in arguments))

    @staticmethod
    def optional(kind: Type) -> str:
        return t("optional_mark") if kind.optional else ""

    def record(self, name: str, record: Record) -> str:
        display = self.records[name]
        fields = "".join(_doc(f.doc, "  ") + t("field", name=_field_key(self.rule.field(f.name)), type=self.out(f.type))
                         + "\n" for f in record.fields)
        inits = "".join(t("init_field", name=_key(self.rule.field(f.name)), optional=self.optional(f.type),
                          type=self.input(f.type)) + "\n" for f in record.fields)
        return _doc(record.doc, "") + t("record", name=display, fields=fields, inits=inits) + "\n\n"

    def cls(self, cls: Class) -> str:
        display = self.classes[cls.name]
        names = self.rule.members([p.name for p in cls.properties] + [m.name for m in cls.commands]
                                  + [c.name for c in cls.children] + [s.name for s in cls.signals])
        # The names on the object (a signal is only subscribed to by its name).
        taken = {names[n] for n in [p.name for p in cls.properties] + [m.name for m in cls.commands]
                 + [c.name for c in cls.children]}
        members = "" if cls.constructors else t("made_by_parent") + "\n"
        for k in cls.constructors:
            more = t("more_arguments", arguments=self.arguments(k.arguments, display, k)) if k.arguments else ""
            members += _doc(k.doc, "  ") + t("constructor", arguments=more) + "\n"
            if k.arguments:
                members += t("constructor_options", options=self.options(k.arguments, "", display, k)) + "\n"
        for p in cls.properties:
            name = _key(names[p.name])
            members += _doc(p.doc, "  ")
            if p.writable and not p.is_list:
                members += t("getter_setter", name=name, type=self.out(p.type), written=self.input(p.type)) + "\n"
            else:
                members += t("property" if p.writable else "readonly_property", name=name, type=self.out(p.type)) + "\n"
        for m in cls.commands:
            result = t("async_result", type=self.out(m.result)) if m.is_async else self.out(m.result)
            if result == t("out_none"):
                result = t("void")
            signal = t("signal_argument", separator=t("signal_separator") if m.arguments else "") if m.is_async else ""
            name = _key(names[m.name])
            members += _doc(m.doc, "  ")
            members += t("command", name=name, arguments=self.arguments(m.arguments), signal=signal, result=result) + "\n"
            if m.arguments or m.is_async:
                extra = t("signal_option") if m.is_async else ""
                members += t("command_options", name=name, options=self.options(m.arguments, extra), result=result) + "\n"
        for child in cls.children:
            members += t("child", name=_key(names[child.name]), type=self.class_name(child.type)) + "\n"
        # A model argument of a constructor: the object keeps it (the last so named gives its type).
        models: Dict[str, Argument] = {}
        for k in cls.constructors:
            for a in k.arguments:
                if a.type.kind == "object":
                    models[a.name] = a
        for c_name, a in models.items():
            name = self.rule.field(c_name)
            if name not in taken and name not in self.rule.object_methods and name not in self.rule.reserved:
                taken.add(name)
                members += t("model", name=_key(name), type=self.input(dataclasses.replace(a.type, optional=False))) + "\n"
        # The binding's own methods, where no member took the name (mvvm.close(obj)... otherwise).
        for method in self.rule.object_methods:
            if method not in taken:
                members += t("method_" + method, name=display) + "\n"
        events = [(names[p.name], t("splice", item=self.class_name(p.type.item_class)) if p.is_list else self.out(p.type))
                  for p in cls.properties] + [(names[s.name], self.out(s.type)) for s in cls.signals]
        text = t("class", name=display, members=members,
                 events="".join(t("event", name=_key(n), type=kind) for n, kind in events))
        return _doc(cls.doc, "") + text + "\n\n"

    def file(self, library_name: str, module: str) -> str:
        body = "".join(self.record(name, record) for name, record in self.library.records.items())
        body += "".join(self.cls(cls) for cls in self.library.classes)
        entries = "".join(t("classes_entry", name=self.classes[cls.name]) + "\n" for cls in self.library.classes)
        entries += "".join(t("classes_entry", name=self.records[name]) + "\n" for name in self.library.records)
        body += t("classes", entries=entries)
        return t("file", library=ts_comment(library_name), module=ts_string(module), body=body) + "\n"


def generate_dts(library: Library, library_name: str, module: str = "mvvm", rule: Optional[JsNaming] = None) -> str:
    """The declarations of ``library``'s classes and records, importing the module's own types
    from ``module`` (``mvvm``, or ``./index`` beside bindings/node/index.js)."""
    return _Declarations(library, rule or JsNaming.load()).file(library_name, module)
