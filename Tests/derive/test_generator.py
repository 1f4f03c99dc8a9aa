"""The derivation's parts without Swift (``python3 -m unittest``, PYTHONPATH=tools): the
naming rule, types read from a symbol graph's fragments, the control file, a setter's access read
from the code, and the rules on a symbol graph made here (a member left out with its reason,
typed calls that would collide, constructors' names)."""

from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path
from typing import List, Optional

from mvvm_gen import naming
from mvvm_gen.derive import split_build_flags
from mvvm_gen.derive.classes import Classes
from mvvm_gen.derive.control import Control, load
from mvvm_gen.derive.graph import DeriveError, Graph, setter_access, usr_module
from mvvm_gen.derive.types import parse, type_fragments
from mvvm_gen.derive.values import Values


def text(spelling: str) -> dict:
    return {"kind": "text", "spelling": spelling}


def name(spelling: str, usr: str) -> dict:
    return {"kind": "typeIdentifier", "spelling": spelling, "preciseIdentifier": usr}


STRING, INT, VOID, NEVER = name("String", "s:SS"), name("Int", "s:Si"), name("Void", "s:s4Voida"), name("Never", "s:s5NeverO")
UUID = name("UUID", "s:20FoundationEssentials4UUIDV")


class Naming(unittest.TestCase):
    def test_the_snake_case_of_swift_names_is_the_librarys(self) -> None:
        for swift, c in [("TodoListViewModel", "todo_list_view_model"), ("userID", "user_id"), ("URLString", "url_string"),
                         ("isOK", "is_ok"), ("serverURL", "server_url"), ("id", "id"), ("x1Y", "x1_y")]:
            self.assertEqual(naming.snake_case(swift), c)

    def test_a_name_must_be_a_c_identifier_and_no_keyword(self) -> None:
        rule = naming.load()
        self.assertEqual(naming.name_problem(rule, "title"), "")
        self.assertIn("C keyword", naming.name_problem(rule, "default"))
        self.assertEqual(naming.name_problem(rule, "class"), "")
        self.assertIn("C++ keyword", naming.name_problem(rule, "class", argument=True))


class Rendering(unittest.TestCase):
    def test_a_doc_becomes_a_swift_string_literal(self) -> None:
        from mvvm_gen.escape import swift_string
        self.assertEqual(swift_string('"1 item left", \\(x)\n\x01'), '"\\"1 item left\\", \\\\(x)\\n\\u{1}"')


class Types(unittest.TestCase):
    def test_optionals_arrays_dictionaries_functions_and_generics(self) -> None:
        optional_array = parse([text("["), name("Expense", "s:8Expenses7ExpenseV"), text("]?")])
        self.assertEqual((optional_array.kind, optional_array.args[0].kind, optional_array.args[0].args[0].usr),
                         ("optional", "array", "s:8Expenses7ExpenseV"))
        dictionary = parse([text("["), name("Category", "c"), text(" : "), name("Decimal", "d"), text("]")])
        self.assertEqual(dictionary.kind, "dictionary")
        callback = parse([text("(("), UUID, text(") -> "), VOID, text(")?")])
        self.assertEqual((callback.kind, callback.args[0].kind, callback.args[0].args[0].name), ("optional", "function", "UUID"))
        self.assertTrue(callback.args[0].result.is_void)
        subject = parse([name("PassthroughSubject", "s:11OpenCombine18PassthroughSubjectC"), text("<"), STRING, text(", "),
                         NEVER, text(">")])
        self.assertEqual([arg.usr for arg in subject.args], ["s:SS", "s:s5NeverO"])
        spelled = parse([name("Optional", "s:Sq"), text("<"), INT, text(">")])
        self.assertEqual((spelled.kind, spelled.args[0].usr), ("optional", "s:Si"))
        nested = parse([name("PlayerViewModel", "p"), text("."), name("Action", "a")])
        self.assertEqual((nested.name, nested.usr), ("PlayerViewModel.Action", "a"))
        self.assertEqual(parse([text("inout "), INT]).kind, "other")

    def test_a_propertys_type_is_read_between_its_name_and_its_accessors(self) -> None:
        fragments = [{"kind": "keyword", "spelling": "var"}, text(" "), {"kind": "identifier", "spelling": "limit"},
                     text(": "), INT, text("? { "), {"kind": "keyword", "spelling": "get"}, text(" }")]
        self.assertEqual(parse(type_fragments(fragments)).kind, "optional")

    def test_a_precise_identifier_names_its_module(self) -> None:
        self.assertEqual(usr_module("s:11OpenCombine9PublishedV"), "OpenCombine")
        self.assertEqual(usr_module("s:SS"), "Swift")


class ControlFile(unittest.TestCase):
    def written(self, data: object) -> Path:
        path = Path(tempfile.mkdtemp()) / "mvvm-derive.json"
        path.write_text(json.dumps(data))
        return path

    def test_a_mistake_is_refused_with_where_it_is(self) -> None:
        with self.assertRaisesRegex(DeriveError, "unknown key rename"):
            load(self.written({"types": {"Greeter": {"rename": "x"}}}))
        with self.assertRaisesRegex(DeriveError, "doc must be a string"):
            load(self.written({"types": {"Greeter": {"members": {"name": {"doc": 3}}}}}))
        with self.assertRaisesRegex(DeriveError, "an object of \"types\""):
            load(self.written({"classes": {}}))

    def test_a_member_is_found_by_its_full_or_base_name_and_entries_naming_nothing_are_told(self) -> None:
        control = load(self.written({"types": {"Greeter": {"members": {"follow": {"exclude": "why"}, "gone": {}}},
                                               "Missing": {"doc": "x"}}}))
        control.type("Greeter")
        self.assertEqual(control.member("Greeter", "follow(title:)").exclude, "why")
        self.assertEqual(control.unused(), ["Greeter.gone", "Missing"])
        self.assertEqual(load(Path("/nonexistent/mvvm-derive.json")).types, {})


class Code(unittest.TestCase):
    def test_a_setters_own_access_is_read_from_the_declaration(self) -> None:
        source = Path(tempfile.mkdtemp()) / "Greeter.swift"
        source.write_text("final class Greeter {\n    @Published public private(set) var greeting = \"\"\n"
                          "    @Published\n    public var name = \"\"\n    let id = 1\n}\n")
        from mvvm_gen.derive.graph import Symbol
        at = lambda line, column: Symbol("u", "swift.property", ("Greeter", "x"), "public", [], "M",
                                         location=("file://%s" % source, line, column))
        self.assertEqual(setter_access(at(1, 39)), "private")
        self.assertIsNone(setter_access(at(3, 15)))
        self.assertIsNone(setter_access(at(4, 8)))

    def test_build_flags_pass_through_as_swift_build_takes_them(self) -> None:
        self.assertEqual(split_build_flags(["--target", "A", "-Xlinker", "--version-script=x", "--check"]),
                         (["--target", "A", "--check"], ["-Xlinker", "--version-script=x"]))


def symbol(usr: str, kind: str, path: List[str], fragments: List[dict], line: int, signature: Optional[dict] = None,
           access: str = "internal") -> dict:
    raw = {"identifier": {"precise": usr}, "kind": {"identifier": kind}, "pathComponents": path, "accessLevel": access,
           "declarationFragments": fragments, "location": {"uri": "file:///nowhere.swift", "position": {"line": line, "character": 0}}}
    if signature is not None:
        raw["functionSignature"] = signature
    return raw


def keyword(spelling: str) -> dict:
    return {"kind": "keyword", "spelling": spelling}


def identifier(spelling: str) -> dict:
    return {"kind": "identifier", "spelling": spelling}


class Rules(unittest.TestCase):
    """The rules on a small module: `final class Board: ObservableObject` with a computed binding,
    a dictionary, a callback property, a method named as that binding's setter, and two
    initialisers."""

    def derive(self) -> Classes:
        graph = Graph()
        members = [
            symbol("b.title", "swift.property", ["Board", "title"],
                   [keyword("var"), text(" "), identifier("title"), text(": "), STRING, text(" { "), keyword("get"),
                    text(" "), keyword("set"), text(" }")], 1),
            symbol("b.totals", "swift.property", ["Board", "totals"],
                   [keyword("var"), text(" "), identifier("totals"), text(": ["), STRING, text(" : "), INT, text("] { "),
                    keyword("get"), text(" }")], 2),
            symbol("b.onTap", "swift.property", ["Board", "onTap"],
                   [keyword("let"), text(" "), identifier("onTap"), text(": (() -> "), VOID, text(")?")], 3),
            symbol("b.setTitle", "swift.method", ["Board", "setTitle(_:)"],
                   [keyword("func"), text(" "), identifier("setTitle")], 4,
                   {"parameters": [{"name": "title", "declarationFragments": [identifier("title"), text(": "), STRING]}]}),
            symbol("b.init", "swift.init", ["Board", "init(size:)"], [keyword("init")], 5,
                   {"parameters": [{"name": "size", "declarationFragments": [identifier("size"), text(": "), INT]}]}),
            symbol("b.init2", "swift.init", ["Board", "init(title:)"], [keyword("init")], 6,
                   {"parameters": [{"name": "title", "declarationFragments": [identifier("title"), text(": "), STRING]}]}),
        ]
        for raw in [symbol("b", "swift.class", ["Board"], [keyword("class")], 0)] + members:
            graph._add(raw, "Boards")
            if raw["identifier"]["precise"] != "b":
                graph.members.setdefault("b", []).append(raw["identifier"]["precise"])
        graph.conformances["b"] = {"OpenCombine.ObservableObject"}
        visible = lambda symbol: True
        control = Control()
        return Classes(graph, "Boards", control, Values(graph, visible, {}, control), naming.load(), visible, True)

    def test_members_are_derived_or_left_out_saying_why(self) -> None:
        board = list(self.derive().view_models.values())[0]
        entries = {entry.swift: entry for entry in board.entries}
        self.assertEqual(entries["title"].block, "binding")
        self.assertIn("dictionary", entries["totals"].left_out)
        self.assertIn("cannot be set", entries["onTap"].left_out)
        self.assertIn("mvvm_board_set_title would be class board's property title's setter", entries["setTitle(_:)"].left_out)
        self.assertEqual((entries["init(size:)"].c_name, entries["init(title:)"].c_name), ("new", "new_with_title"))


if __name__ == "__main__":
    unittest.main()
