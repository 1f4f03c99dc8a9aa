"""The derived file's text, from ``templates/derive.tmpl``."""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..escape import swift_string
from ..templates import Templates
from .classes import Classes, Entry, ViewModel
from .control import Control
from .graph import usr_module
from .types import SwiftType
from .values import FOUNDATION_MODULES, Values

t = Templates("derive")


def _doc(text: str) -> str:
    return t("doc", text=swift_string(text)) if text else ""


def _options(**given: Optional[str]) -> str:
    """A registration's labelled arguments after its type: those given, in the API's order."""
    return "".join(", %s: %s" % (label, value) for label, value in given.items() if value)


def _entry(entry: Entry) -> str:
    if entry.excluded:
        return t("excluded", swift=entry.swift, why=entry.left_out)
    if entry.left_out:
        return t("left_out", swift=entry.swift, why=entry.left_out)
    values = dict(entry.values)
    values["doc"] = _doc(values.get("doc", ""))
    if entry.block in ("constructor", "constructor_checked"):
        suffix = values.pop("suffix", "")
        options = ", ".join(part for part in [
            'suffix: "%s"' % suffix if suffix else "", values["doc"][2:] if values["doc"] else "",
            values["arguments"][2:] if values["arguments"] else ""] if part)
        options = "(%s)" % options if options else ""
        if entry.block == "constructor":
            return t("constructor", options=options, closure=values["closure"])
        checks = "\n".join(t("range_check", name=name, swift=swift, low=low, high=high)
                           for name, swift, low, high in entry.checks)
        return t("constructor_checked", options=options, head=values["head"], checks=checks, made=values["made"])
    return t(entry.block, **{key: value for key, value in values.items() if key != "suffix"})


def class_left_out(swift: str, why: str, by_control: bool) -> str:
    return t("class_excluded" if by_control else "class_left_out", swift=swift, why=why)


def view_model(model: ViewModel) -> str:
    members = [_entry(entry) for entry in model.entries]
    if model.hand_hook:
        members.append(t("hand_members", type=model.symbol.qualified))
    options = _options(**{"as": None if model.default_name else swift_string(model.c_name),
                          "display": swift_string(model.display) if model.display else None,
                          "doc": swift_string(model.doc) if model.doc else None,
                          "isolation": ".mainActor" if model.main_actor else None})
    return t("class", type=model.registered, options=options, members="\n".join(members))


def adapters(classes: Classes) -> List[str]:
    """The adapter class of each transform-style view model, which its registration names."""
    out = []
    for model in classes.view_models.values():
        transform = model.transform
        if transform is None:
            continue
        out.append(t("adapter", type=model.symbol.qualified, adapter=transform.adapter, output=transform.output_type,
                     isolation="@MainActor " if model.main_actor else "", input=transform.input_type,
                     subjects="\n".join(t("adapter_subject", name=field.name, subject=subject)
                                        for field, subject, _, _ in transform.fields),
                     given=", ".join("%s: %s" % (field.name, given) for field, _, given, _ in transform.fields)))
    return out


#: An adapter class in a derived file, as :func:`adapters` writes it: a stub keeps the old file's.
_ADAPTER = re.compile(r"^/// [^\n]*\n(?:///[^\n]*\n)*(?:@MainActor )?final class \w+ \{\n.*?^\}$", re.M | re.S)


def old_adapters(text: Optional[str]) -> List[str]:
    """The adapter classes of a derived file's text, for a stub that stands in for it (a hand
    registration may name one)."""
    return _ADAPTER.findall(text or "")


def records(values: Values, control: Control) -> List[str]:
    out = []
    for record in values.ordered_records():
        settings = control.type(record.symbol.qualified)
        options = _options(**{"as": swift_string(settings.name) if settings.name else None,
                              "display": swift_string(settings.display) if settings.display else None,
                              "doc": swift_string(settings.doc if settings.doc is not None else record.symbol.doc)
                              if (settings.doc or record.symbol.doc) else None})
        if record.form == "codable":
            out.append(t("record", type=record.symbol.qualified, options=options))
        else:
            out.append(t("field_record", type=record.symbol.qualified, options=options,
                         fields="\n".join(t("field", name=name, property=swift) for name, swift in record.fields),
                         arguments=", ".join(t("field_argument", name=name, property=swift) for name, swift in record.fields)))
    return out


def conformances(values: Values) -> List[Tuple[str, str]]:
    """(type, protocol) of each conformance the derived file declares."""
    found = [(enum.symbol, enum.conformance) for enum in values.enums.values() if enum.conformance]
    found += [(record.symbol, record.conformance) for record in values.records.values() if record.conformance]
    return [(symbol.qualified, protocol) for symbol, protocol in sorted(found, key=lambda pair: pair[0].place())]


def imports(classes: Classes, values: Values, output_module: str, class_modules: Sequence[str],
            combine_module: str = "MVVMCombine") -> List[str]:
    """The modules the derived file imports: the export API's, the classes' and what their
    registrations spell (``combine_module`` for an adapter's subjects, when the file has one)."""
    modules: Set[str] = {"MVVMExport"}
    if values.uses_foundation:
        modules |= {"MVVMFoundation"}
    modules |= set(class_modules)
    if any(model.transform is not None for model in classes.view_models.values()):
        modules.add(combine_module)

    def visit(swift_type: SwiftType) -> None:
        for arg in swift_type.args:
            visit(arg)
        if swift_type.kind != "named":
            return
        symbol = classes.graph.symbols.get(swift_type.usr)
        module = symbol.module if symbol is not None else usr_module(swift_type.usr)
        modules.add("Foundation" if module in FOUNDATION_MODULES else module)

    for model in classes.view_models.values():
        for entry in model.entries:
            if not entry.left_out:
                for swift_type in entry.spelled:
                    visit(swift_type)
    # Conformances and records named by type: their modules.
    for symbol in [enum.symbol for enum in values.enums.values()] + [record.symbol for record in values.records.values()]:
        modules.add(symbol.module)
    modules -= {"Swift", output_module}
    return sorted(modules)


def _preamble(imported: Sequence[str], declared: Sequence[Tuple[str, str]]) -> str:
    """The imports, then the conformances the file declares, each group followed by a blank line."""
    groups = [[t("import", module=name) for name in imported],
              [t("conformance", type=type_name, protocol=protocol) for type_name, protocol in declared]]
    return "".join("\n".join(group) + "\n\n" for group in groups if group).rstrip("\n") + "\n"


def _after(blocks: Sequence[str]) -> str:
    return "".join("\n\n" + block for block in blocks)


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else "%s and %s" % (", ".join(names[:-1]), names[-1])


def derived_file(command: str, modules: Sequence[str], function: str, control_name: str, imported: Sequence[str],
                 declared: Sequence[Tuple[str, str]], body: Sequence[str], adapted: Sequence[str] = ()) -> str:
    whose = "Module %s's" % modules[0] if len(modules) == 1 else "Modules %s'" % _listed(modules)
    return t("file", command=command, whose=whose, modules=("module " if len(modules) == 1 else "modules ") + _listed(modules),
             function=function, control=(" and %s" % control_name) if control_name else "",
             preamble=_preamble(imported, declared), body="\n".join(body), adapters=_after(adapted)) + "\n"


def stub(function: str, imported: Sequence[str], declared: Sequence[Tuple[str, str]], adapted: Sequence[str] = ()) -> str:
    return t("stub", function=function, preamble=_preamble(imported, declared), adapters=_after(adapted)) + "\n"


def hook(function: str) -> str:
    return t("hook", function=function) + "\n"
