"""The generator's names: every typed call is named by the naming rule the registration check
holds registrations to (mvvm_gen/naming.json), and what it declares beside them in Swift is named
after those, so a registration the check accepts generates files that compile."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mvvm_gen.model import Library
from mvvm_gen import c, naming, swift

ROOT = Path(__file__).resolve().parents[3]

# Two classes whose typed calls differ (mvvm_a_b_get_c, mvvm_a_get_b_c) but whose class and member
# names, run together, are alike: a_b's property c and a's property b_c.
ALIKE = json.dumps([
    {"class": "a_b", "display": "AB", "swift_module": "M",
     "properties": [{"name": "c", "type": "int", "access": "rw", "c_type": "int64_t"}],
     "commands": [{"name": "go"}], "children": ["x"], "child_classes": {"x": "a"}},
    {"class": "a", "display": "A", "swift_module": "M",
     "properties": [{"name": "b_c", "type": "int", "access": "rw", "c_type": "int64_t"}],
     "commands": [{"name": "b_stop"}], "children": ["b_y"], "child_classes": {"b_y": "a"}},
])


def test_the_swift_definitions_declare_each_name_once() -> None:
    text = swift.definitions(Library.from_json(ALIKE), "M")
    declared = re.findall(r"^private let (\w+) =", text, flags=re.M)
    assert len(declared) == len(set(declared)), declared
    functions = re.findall(r"^public func (\w+)\(", text, flags=re.M)
    assert len(functions) == len(set(functions)), functions


def test_typed_calls_are_named_by_the_shared_rule() -> None:
    rule = naming.load()
    library = Library.from_json(ALIKE)
    header = c.declarations(library)
    declared = re.findall(r"^mvvm_status (mvvm_\w+)\(", header, flags=re.M)
    expected = [rule.typed_call("command", "a_b", "go"), rule.typed_call("getter", "a_b", "c"),
                rule.typed_call("setter", "a_b", "c"), rule.typed_call("child", "a_b", "x"),
                rule.typed_call("command", "a", "b_stop"), rule.typed_call("getter", "a", "b_c"),
                rule.typed_call("setter", "a", "b_c"), rule.typed_call("child", "a", "b_y")]
    assert declared == expected
    assert [name for _, name, _ in swift.typed_calls(library.classes[0])] == expected[:4]


def test_the_rules_abi_names_are_the_headers() -> None:
    assert naming.load().abi_names == naming.abi_names(ROOT / "include" / "mvvm.h")
    assert {"mvvm_loop_new", "mvvm_loop_advance", "mvvm_event_kind"} <= set(naming.load().abi_names)


def test_the_python_rule_states_the_packages_names() -> None:
    """The Python naming rule is one file, tools/mvvm_gen/pynames.py, which the package imports
    and the stubs are named by; what it says of the package's own classes (which the generator,
    importing no binding, cannot read from them) is what they have: MvvmObject's public attributes
    (a member of such a name wins it, marked for the checkers), a request's own attributes, and
    the names a library's namespace holds besides its classes."""
    import keyword

    import mvvm
    from mvvm._object import MvvmObject
    from mvvm._requests import ServiceRequest
    from mvvm_gen import pynames

    assert pynames.KEYWORDS == frozenset(keyword.kwlist)
    assert pynames.OBJECT_ATTRIBUTES == {n for n in dir(MvvmObject) if not n.startswith("_")}
    assert pynames.REQUEST_ATTRIBUTES == ({n for n in dir(ServiceRequest) if not n.startswith("_")}
                                          | {"argument", "state", "view_model"})
    library_own = {n for n in list(vars(mvvm.Library)) + list(mvvm.Library.__annotations__) if not n.startswith("_")}
    assert set(pynames.NAMESPACE_NAMES) <= library_own, "Library.Loop and Library.Service"
    # A display name is CamelCase ([A-Z][A-Za-z0-9]*): none of the Library's own other names can be one.
    assert not [n for n in library_own - set(pynames.NAMESPACE_NAMES) if re.fullmatch(r"[A-Z][A-Za-z0-9]*", n)]


# Members and classes whose JavaScript names clash: reserved names (`then`, `constructor`), a
# member already named as a reserved one's first rename (`then_`), the binding's own methods taken
# by members (`close`, `on`), classes and a record named as the Node module's own (`Loop`, `Splice`).
CLASHING = json.dumps([
    {"class": "loop", "display": "Loop", "swift_module": "M",
     "properties": [{"name": "then", "type": "int", "access": "rw", "c_type": "int64_t"},
                    {"name": "then_", "type": "string", "access": "r", "c_type": "const char *"}],
     "commands": [{"name": "constructor"}, {"name": "close"}],
     "children": ["on"], "child_classes": {"on": "loop_"},
     "records": {"splice": {"name": "splice", "display": "Splice", "doc": "A record.",
                            "fields": [{"name": "toString", "type": "string", "doc": "Its text."}]}}},
    {"class": "loop_", "display": "Loop", "swift_module": "M", "properties": [], "commands": [], "children": []},
])


def test_the_declarations_name_as_the_node_module_does() -> None:
    """mvvm_gen --dts and bindings/node/names.js read one rule (naming-js.json); the code that
    applies it is in both: they give the same names to clashing members, classes and records."""
    import shutil
    import subprocess

    from mvvm_gen import dts

    rule = dts.JsNaming.load()
    library = Library.from_json(CLASHING)
    members = [[p.name for p in cls.properties] + [m.name for m in cls.commands] + [c.name for c in cls.children]
               for cls in library.classes]
    ours = {"members": [rule.members(names) for names in members], "library": list(rule.library(library))}
    assert ours["members"][0] == {"then": "then__", "then_": "then_", "constructor": "constructor_",
                                  "close": "close", "on": "on"}
    assert ours["library"] == [{"loop": "Loop_", "loop_": "Loop__"}, {"splice": "Splice_"}]
    text = dts.generate_dts(library, "libclash.so")
    assert "export declare class Loop_ {" in text and "export declare class Splice_ {" in text
    assert "  then__: number;" not in text and "  get then__(): number;" in text
    first = text[text.index("export declare class Loop_ {"):text.index("export declare class Loop__ {")]
    # The members' close and on, not the binding's; its subscribe, off...
    assert "  close(): void;" in first and "  close(): boolean;" not in first and "  on<K" not in first
    assert "  readonly on: Loop__;" in first and "  subscribe<K extends keyof Loop_Events>" in first
    assert "  /** Its text. */\n  readonly toString: string;" in text
    node = shutil.which("node")
    if node is None:
        return
    script = ("const n = require(%s); const d = JSON.parse(process.argv[1]);"
              "const l = n.libraryNames(d);"
              "console.log(JSON.stringify({members: d.map((c) => n.jsNames([...c.properties.map((p) => p.name),"
              " ...c.commands.map((m) => m.name), ...c.children])), library: [l.classes, l.records]}));"
              % json.dumps(str(ROOT / "bindings" / "node" / "names.js")))
    done = subprocess.run([node, "-e", script, CLASHING], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ours
