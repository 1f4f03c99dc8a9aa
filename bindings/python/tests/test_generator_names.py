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


def test_the_generators_python_naming_data_is_the_packages_rule() -> None:
    """The stubs name classes and members by bindings/gen/mvvm_gen/naming-python.json (the
    generator imports no binding): the data is the mvvm package's rule, exactly."""
    import keyword

    import mvvm
    from mvvm._object import MvvmObject
    from mvvm._requests import ServiceRequest

    data = json.loads(naming.PYTHON_DATA.read_text())
    assert set(data["keywords"]) == set(keyword.kwlist)
    assert data["package_names"] == list(mvvm.__all__), "update naming-python.json's package_names"
    assert set(data["object_attributes"]) == {n for n in dir(MvvmObject) if not n.startswith("_")}
    assert set(data["request_attributes"]) == ({n for n in dir(ServiceRequest) if not n.startswith("_")}
                                               | {"argument", "state", "view_model"})
