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
from mvvm_gen.derive.control import Control, MemberControl, TypeControl, load
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

    def test_as_range_and_order_are_checked_when_read(self) -> None:
        with self.assertRaisesRegex(DeriveError, 'as \'signal\' is not "command"'):
            load(self.written({"types": {"Player": {"members": {"tapped": {"as": "signal"}}}}}))
        with self.assertRaisesRegex(DeriveError, "range must map each argument's Swift name to \\[low, high\\]"):
            load(self.written({"types": {"Timer": {"members": {"init(seconds:)": {"range": {"seconds": [60, 1]}}}}}}))
        with self.assertRaisesRegex(DeriveError, "order must be a list of class names, each once"):
            load(self.written({"order": ["A", "A"], "types": {}}))
        control = load(self.written({"order": ["Gone"], "types": {}}))
        self.assertEqual(control.unused({"Present"}), ["order: Gone"])

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
        return Classes(graph, ["Boards"], control, Values(graph, visible, {}, control), naming.load(), visible, "Boards")

    def test_members_are_derived_or_left_out_saying_why(self) -> None:
        board = list(self.derive().view_models.values())[0]
        entries = {entry.swift: entry for entry in board.entries}
        self.assertEqual(entries["title"].block, "binding")
        self.assertIn("dictionary", entries["totals"].left_out)
        self.assertIn("cannot be set", entries["onTap"].left_out)
        self.assertIn("mvvm_board_set_title would be class board's property title's setter", entries["setTitle(_:)"].left_out)
        self.assertEqual((entries["init(size:)"].c_name, entries["init(title:)"].c_name), ("new", "new_with_title"))


SUBJECT, PUBLISHER = "s:11OpenCombine18PassthroughSubjectC", "s:11OpenCombine12AnyPublisherV"
PUBLISHED = [{"kind": "attribute", "spelling": "@"}, {"kind": "attribute", "spelling": "Published"}, text(" ")]


def publisher(usr: str, spelling: str, events: dict) -> List[dict]:
    return [name(spelling, usr), text("<"), events, text(", "), NEVER, text(">")]


def stored(keyword_: str, property_: str, type_fragments_: List[dict], published: bool = False) -> List[dict]:
    return (PUBLISHED if published else []) + [keyword(keyword_), text(" "), identifier(property_), text(": ")] + type_fragments_


def parameter(label: str, type_fragments_: List[dict]) -> dict:
    return {"name": label, "declarationFragments": [identifier(label), text(": ")] + type_fragments_}


class Module:
    """A module's symbol graph made here: types, their members, conformances."""

    def __init__(self, module: str = "Forms") -> None:
        self.module = module
        self.graph = Graph()
        self.line = 0

    def add(self, usr: str, kind: str, path: List[str], fragments: List[dict], signature: Optional[dict] = None,
            doc: str = "") -> str:
        self.line += 1
        raw = symbol(usr, kind, path, fragments, self.line, signature)
        if doc:
            raw["docComment"] = {"lines": [{"text": line} for line in doc.split("\n")]}
        self.graph._add(raw, self.module)
        if len(path) > 1:
            owner = next(s.usr for s in self.graph.symbols.values() if s.path == tuple(path[:-1]))
            self.graph.members.setdefault(owner, []).append(usr)
        return usr

    def type(self, usr: str, kind: str, path: List[str], *conformances: str) -> str:
        self.add(usr, kind, path, [keyword(kind.split(".")[-1]), text(" "), identifier(path[-1])])
        self.graph.conformances[usr] = set(conformances)
        return usr

    def initialiser(self, usr: str, owner: List[str], parameters: List[dict], declaration: Optional[List[dict]] = None,
                    doc: str = "") -> str:
        labels = "".join(p["name"] + ":" for p in parameters)
        return self.add(usr, "swift.init", owner + ["init(%s)" % labels], declaration or [keyword("init"), text("()")],
                        {"parameters": parameters}, doc)

    def derive(self, control: Optional[Control] = None, modules: Optional[List[str]] = None) -> Classes:
        visible = lambda symbol: True
        control = control or Control()
        return Classes(self.graph, modules or [self.module], control, Values(self.graph, visible, {}, control),
                       naming.load(), visible, self.module)


OBSERVABLE_OBJECT = "MVVMPublished.ObservableObject"


def entries(classes: Classes, usr: str) -> dict:
    return {entry.swift: entry for entry in classes.view_models[usr].entries}


class InputBindingOutput(unittest.TestCase):
    """`final class SignUp: ObservableObject` of the Input / Binding / Output style: its nested
    parts' members are its own, its input's subjects commands; its service defaults."""

    def module(self) -> Module:
        m = Module()
        m.type("s", "swift.class", ["SignUp"], OBSERVABLE_OBJECT)
        m.type("s.I", "swift.class", ["SignUp", "Input"])
        m.add("s.I.tap", "swift.property", ["SignUp", "Input", "signUpTapped"],
              stored("let", "signUpTapped", publisher(SUBJECT, "PassthroughSubject", VOID)), doc="Signs up.")
        m.type("s.B", "swift.class", ["SignUp", "Binding"], OBSERVABLE_OBJECT)
        m.add("s.B.user", "swift.property", ["SignUp", "Binding", "userID"],
              stored("var", "userID", [STRING], published=True), doc="The user.")
        m.type("s.O", "swift.class", ["SignUp", "Output"], OBSERVABLE_OBJECT)
        m.add("s.O.enabled", "swift.property", ["SignUp", "Output", "isEnabled"], stored("let", "isEnabled", [name("Bool", "s:Sb")]))
        for part, usr in [("input", "s.I"), ("binding", "s.B"), ("output", "s.O")]:
            m.add("s." + part, "swift.property", ["SignUp", part],
                  stored("let", part, [name("SignUp", "s"), text("."), name(part.title(), usr)]))
        m.type("service", "swift.protocol", ["SignUpService"])
        m.initialiser("s.init", ["SignUp"], [parameter("service", [text("any "), name("SignUpService", "service")])],
                      [keyword("init"), text("("), {"kind": "externalParam", "spelling": "service"}, text(": any "),
                       name("SignUpService", "service"), text(" = Accepting())")], doc="Built in.\n- Parameter service: another.")
        return m

    def test_the_parts_members_are_the_view_models_reached_through_them(self) -> None:
        classes = self.module().derive()
        self.assertEqual(list(classes.view_models), ["s"])     # the parts are not registered on their own
        found = entries(classes, "s")
        self.assertEqual((found["binding.userID"].block, found["binding.userID"].values["path"]), ("binding_published", "binding."))
        self.assertEqual(found["output.isEnabled"].block, "output")
        self.assertEqual([found[part].kind for part in ("input", "binding", "output")], ["part"] * 3)

    def test_an_input_parts_subjects_are_commands_that_send_to_them(self) -> None:
        command = entries(self.module().derive(), "s")["input.signUpTapped"]
        self.assertEqual((command.kind, command.c_name, command.values["closure"], command.values["doc"]),
                         ("command", "sign_up_tapped", "$0.input.signUpTapped.send()", "Signs up."))

    def test_a_parameter_that_cannot_cross_is_left_to_its_default_and_signature_callouts_are_no_doc(self) -> None:
        constructor = entries(self.module().derive(), "s")["init(service:)"]
        self.assertEqual((constructor.left_out, constructor.c_name, constructor.values["closure"], constructor.values["doc"]),
                         ("", "new", "_ in SignUp()", "Built in."))


class Subjects(unittest.TestCase):
    def test_as_command_sends_a_subjects_value_and_refuses_what_is_no_subject(self) -> None:
        m = Module()
        m.type("p", "swift.class", ["Player"], OBSERVABLE_OBJECT)
        m.add("p.tapped", "swift.property", ["Player", "tapped"], stored("let", "tapped", publisher(SUBJECT, "PassthroughSubject", STRING)))
        m.add("p.ticks", "swift.property", ["Player", "ticks"], stored("let", "ticks", publisher(PUBLISHER, "AnyPublisher", INT)))
        m.add("p.done", "swift.property", ["Player", "done"], stored("let", "done", publisher(SUBJECT, "PassthroughSubject", VOID)))
        control = Control(types={"Player": TypeControl(members={"tapped": MemberControl(as_="command"),
                                                                 "ticks": MemberControl(as_="command")})})
        found = entries(m.derive(control), "p")
        self.assertEqual((found["tapped"].block, found["tapped"].values["closure"], found["tapped"].argument_names),
                         ("command", "(viewModel, value: String) in viewModel.tapped.send(value)", ["argument"]))
        self.assertIn("is for a subject", found["ticks"].left_out)
        self.assertEqual(found["done"].block, "signal_publisher")  # a subject not said to be one: an event out


class Constructors(unittest.TestCase):
    def module(self) -> Module:
        m = Module()
        m.type("countable", "swift.protocol", ["Countable"])
        for usr, class_name in [("c", "Counter"), ("r", "RandomCounter")]:
            m.type(usr, "swift.class", [class_name], OBSERVABLE_OBJECT, "Forms.Countable")
        m.type("v", "swift.class", ["CounterViewModel"], OBSERVABLE_OBJECT)
        m.initialiser("v.init", ["CounterViewModel"], [parameter("model", [text("any "), name("Countable", "countable")])])
        m.type("t", "swift.class", ["CountDown"], OBSERVABLE_OBJECT)
        m.initialiser("t.init", ["CountDown"], [parameter("seconds", [INT])])
        return m

    def test_a_protocol_that_view_models_adopt_is_a_model_of_any_of_them(self) -> None:
        constructor = entries(self.module().derive(), "v")["init(model:)"]
        self.assertEqual((constructor.values["arguments"], constructor.values["closure"]),
                         (', .model("model", oneOf: Counter.self, RandomCounter.self)',
                          "(_, model: any Countable) in CounterViewModel(model: model)"))

    def test_a_range_refuses_an_integer_argument_outside_it(self) -> None:
        control = Control(types={"CountDown": TypeControl(members={"init(seconds:)": MemberControl(range={"seconds": (1, 60)})})})
        constructor = entries(self.module().derive(control), "t")["init(seconds:)"]
        self.assertEqual((constructor.block, constructor.checks), ("constructor_checked", [("seconds", "seconds", 1, 60)]))
        from mvvm_gen.derive import render
        self.assertIn('throw ExportFailure("seconds must be from 1 to 60, got \\(seconds)")', render.view_model(
            self.module().derive(control).view_models["t"]))
        wrong = Control(types={"CountDown": TypeControl(members={"init(seconds:)": MemberControl(range={"minutes": (1, 60)})})})
        with self.assertRaisesRegex(DeriveError, "range names minutes, which is no integer argument"):
            self.module().derive(wrong)

    def test_a_range_or_as_on_a_member_of_another_kind_is_refused(self) -> None:
        m = self.module()
        m.add("t.start", "swift.method", ["CountDown", "start(seconds:)"], [keyword("func")],
              {"parameters": [parameter("seconds", [INT])]})
        control = Control(types={"CountDown": TypeControl(members={"start(seconds:)": MemberControl(range={"seconds": (1, 2)})})})
        with self.assertRaisesRegex(DeriveError, "CountDown.start\\(seconds:\\): range is for an initialiser's arguments"):
            m.derive(control)

    def test_the_order_of_the_control_file_then_of_the_code(self) -> None:
        classes = self.module().derive(Control(order=["CountDown", "RandomCounter"]))
        self.assertEqual([model.c_name for model in classes.view_models.values()],
                         ["count_down", "random_counter", "counter", "counter_view_model"])


class TransformStyle(unittest.TestCase):
    """`final class Welcome` with `transform(input: Input) -> Output`: registered through an
    adapter, `WelcomeScreen`, as the view model's C name."""

    def module(self) -> Module:
        m = Module()
        m.type("w", "swift.class", ["WelcomeViewModel"])
        m.type("w.I", "swift.struct", ["WelcomeViewModel", "Input"])
        m.add("w.I.load", "swift.property", ["WelcomeViewModel", "Input", "viewDidLoad"],
              stored("let", "viewDidLoad", publisher(PUBLISHER, "AnyPublisher", VOID)), doc="Loaded.")
        m.add("w.I.tap", "swift.property", ["WelcomeViewModel", "Input", "tapButton"],
              stored("let", "tapButton", publisher(SUBJECT, "PassthroughSubject", STRING)))
        m.initialiser("w.I.init", ["WelcomeViewModel", "Input"], [parameter("viewDidLoad", []), parameter("tapButton", [])])
        m.type("w.O", "swift.struct", ["WelcomeViewModel", "Output"])
        m.add("w.O.shown", "swift.property", ["WelcomeViewModel", "Output", "onShow"],
              stored("let", "onShow", publisher(PUBLISHER, "AnyPublisher", STRING)))
        input_type, output_type = [name("WelcomeViewModel", "w"), text("."), name("Input", "w.I")], \
            [name("WelcomeViewModel", "w"), text("."), name("Output", "w.O")]
        m.add("w.transform", "swift.method", ["WelcomeViewModel", "transform(input:)"], [keyword("func")],
              {"parameters": [parameter("input", input_type)], "returns": output_type})
        m.initialiser("w.init", ["WelcomeViewModel"], [parameter("loop", [name("Loop", "s:11MVVMRuntime4LoopC")])])
        return m

    def test_its_input_fields_are_commands_and_its_outputs_signals_through_an_adapter(self) -> None:
        classes = self.module().derive()
        model = classes.view_models["w"]
        found = entries(classes, "w")
        self.assertEqual((model.registered, model.c_name, model.default_name), ("WelcomeScreen", "welcome_view_model", False))
        self.assertEqual((found["viewDidLoad"].values["closure"], found["viewDidLoad"].values["doc"]),
                         ("$0.viewDidLoad.send()", "Loaded."))
        self.assertEqual(found["output.onShow"].block, "signal_publisher")
        self.assertEqual(found["init(loop:)"].values["closure"], "loop in WelcomeScreen(WelcomeViewModel(loop: loop))")
        from mvvm_gen.derive import render
        adapter = render.adapters(classes)[0]
        self.assertIn("let viewDidLoad = PassthroughSubject<Void, Never>()", adapter)
        self.assertIn("WelcomeViewModel.Input(viewDidLoad: viewDidLoad.eraseToAnyPublisher(), tapButton: tapButton)", adapter)
        # A stub that stands in for a stale derived file keeps its adapters (a hand registration may name one).
        self.assertEqual(render.old_adapters(render.derived_file("", ["Forms"], "f", "", [], [], [], [adapter])), [adapter])

    def test_an_input_field_that_is_no_publisher_leaves_the_class_out_saying_why(self) -> None:
        m = self.module()
        m.graph.symbols["w.I.tap"].fragments = stored("let", "tapButton", [STRING])
        classes = m.derive()
        self.assertEqual(classes.view_models, {})
        self.assertIn("its input's field tapButton is String", classes.excluded[0][1])


class Members(unittest.TestCase):
    def test_a_static_member_and_an_instance_one_of_one_name_are_both_seen(self) -> None:
        m = Module()
        m.type("p", "swift.class", ["Page"], OBSERVABLE_OBJECT)
        m.add("p.instance", "swift.property", ["Page", "readMe"], stored("var", "readMe", [STRING], published=True))
        m.add("p.static", "swift.type.property", ["Page", "readMe"], [keyword("static"), text(" ")] + stored("let", "readMe", [STRING]))
        found = [(entry.swift, entry.block or entry.left_out, entry.warn) for entry in m.derive().view_models["p"].entries]
        self.assertEqual(found, [("readMe", "binding_published", True), ("readMe", "a static member: an object has none", False)])

    def test_defaults_are_read_from_the_parameter_clause(self) -> None:
        from mvvm_gen.derive.graph import Symbol, parameter_defaults
        declaration = [keyword("init"), text("("), {"kind": "externalParam", "spelling": "a"}, text(": ["), STRING, text(" : "),
                       INT, text("] = [:], "), {"kind": "externalParam", "spelling": "b"}, text(": ("), INT, text(") -> "),
                       VOID, text(", "), {"kind": "externalParam", "spelling": "c"}, text(": "), STRING,
                       text(' = "(, =)")')]
        signature = {"parameters": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}
        self.assertEqual(parameter_defaults(Symbol("u", "swift.init", ("T", "init(a:b:c:)"), "public", declaration, "M", signature)),
                         [True, False, True])


if __name__ == "__main__":
    unittest.main()
