"""The view models of a module (its ``ObservableObject`` and ``@Observable`` classes) and how a
careful hand registration registers each member, as docs/export-api.md describes the forms:

- a property of values: a binding when it can be set from where the derived file is, an output
  otherwise; with its ``@Published`` publisher when it has one (read and written through closures:
  a key path is projected at run time on each call); computed ones and those of an
  ``@Observable`` class without;
- a property holding another view model of the module: a child; an array of them (``@Published``,
  an ``@Observable`` class's, or a ``SpliceList``): a list;
- a ``PassthroughSubject`` or ``AnyPublisher`` of values that never fails, or a callback property
  (``(() -> Void)?``, ``((T) -> Void)?``): a signal;
- a method: a command (an async command when ``async``), its arguments by their labels, its
  result when it has one;
- an initialiser: a constructor (``Loop`` and ``LoopClock`` parameters are given the object's
  loop and its clock, a view model of the module is a model argument);
- what none of these fits is left out, saying why."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from ..arities import MOST
from ..naming import Naming, name_problem, snake_case
from .control import Control, MemberControl
from .graph import Graph, Symbol, setter_access, usr_module
from .types import SwiftType, parse, type_fragments
from .values import Values

# MVVMCombine's ObservableObject is MVVMPublished's (MVVMCombine re-exports it in place of OpenCombine's).
OBSERVABLE_OBJECT = {"OpenCombine.ObservableObject", "Combine.ObservableObject", "MVVMCombine.ObservableObject",
                     "MVVMPublished.ObservableObject"}
OBSERVABLE = {"Observation.Observable"}
#: What ObservableObject and the Observable macro give a class: no member of the view model.
NOT_MEMBERS = {"objectWillChange", "access(keyPath:)", "withMutation(keyPath:_:)", "shouldNotifyObservers(_:_:)",
               "_$observationRegistrar"}
#: A class's own additions by hand, which the derived registration calls after its members:
#: `static func exportByHand(_ c: inout ExportBuilder<Self>)`.
HAND_HOOK = "exportByHand(_:)"
EVENT_PUBLISHERS = {"PassthroughSubject", "AnyPublisher"}
COMBINE_MODULES = {"OpenCombine", "Combine", "MVVMCombine", "MVVMPublished"}
NEVER = "s:s5NeverO"
SPLICE_LIST = "s:11MVVMRuntime10SpliceListC"
LOOP = "s:11MVVMRuntime4LoopC"
LOOP_CLOCK = "s:11MVVMRuntime9LoopClockV"
#: Symbol kinds that are types nested in a class, not members of its objects.
NESTED_TYPES = {"swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias", "swift.associatedtype"}


@dataclass
class Entry:
    """A member of a class: its registration (a template block and its values), or why it is
    left out."""
    swift: str
    place: Tuple[str, int, int]
    block: str = ""
    values: Dict[str, str] = field(default_factory=dict)
    #: property, list, command, signal, child or constructor
    kind: str = ""
    c_name: str = ""
    writable: bool = False
    #: why it is left out ("" when it is registered)
    left_out: str = ""
    #: left out by the control file (said in the derived file, no warning)
    excluded: bool = False
    #: the Swift types its registration spells (closure parameters), for the imports
    spelled: List[SwiftType] = field(default_factory=list)
    #: a command's or constructor's arguments' C names
    argument_names: List[str] = field(default_factory=list)
    #: the value types it crosses with, whose records and enums are registered when it is
    uses: List[SwiftType] = field(default_factory=list)


@dataclass
class ViewModel:
    symbol: Symbol
    #: its C name, and whether that is the library's default (the snake case of its Swift name)
    c_name: str
    default_name: bool
    display: Optional[str]
    doc: str
    main_actor: bool
    #: an @Observable class (else an ObservableObject)
    observation: bool
    entries: List[Entry] = field(default_factory=list)
    #: whether it declares `exportByHand(_:)`, which its registration calls after its members
    hand_hook: bool = False


class Classes:
    """The view models of ``module`` (those the control file does not exclude), each with its
    members' entries."""

    def __init__(self, graph: Graph, module: str, control: Control, values: Values, naming: Naming,
                 visible: Callable[[Symbol], bool], same_module: bool) -> None:
        self.graph = graph
        self.module = module
        self.control = control
        self.values = values
        self.naming = naming
        self.visible = visible
        #: whether the derived file is in the classes' module (so `internal(set)` still sets)
        self.same_module = same_module
        #: classes left out whole: (Swift name, why, whether the control file excluded it)
        self.excluded: List[Tuple[str, str, bool]] = []
        self.view_models: Dict[str, ViewModel] = {}
        for symbol in sorted(self._candidates(), key=Symbol.place):
            settings = control.type(symbol.qualified)
            if settings.exclude:
                self.excluded.append((symbol.qualified, settings.exclude, True))
                control.used.update((symbol.qualified, member) for member in settings.members)
                continue
            default = snake_case(symbol.name)
            why = name_problem(naming, settings.name or default)
            if why:
                self.excluded.append((symbol.qualified, "%s (name it otherwise in the control file)" % why, False))
                continue
            self.view_models[symbol.usr] = ViewModel(
                symbol, settings.name or default, not settings.name or settings.name == default, settings.display,
                settings.doc if settings.doc is not None else symbol.doc, "MainActor" in symbol.attributes(),
                not graph.conforms(symbol.usr, OBSERVABLE_OBJECT))
        self._typed_calls: Dict[str, str] = {}
        for view_model in self.view_models.values():
            self._derive(view_model)
        # The records and enums of the members registered, not of those left out on the way.
        values.reset()
        for view_model in self.view_models.values():
            for entry in view_model.entries:
                for swift_type in entry.uses if not entry.left_out else []:
                    values.accept(swift_type)

    def _accept(self, entry: Entry, swift_type: SwiftType) -> str:
        """Why ``swift_type`` does not cross as a value ("" when it does: the entry uses it)."""
        why = self.values.accept(swift_type)
        if not why:
            entry.uses.append(swift_type)
        return why

    def _candidates(self) -> List[Symbol]:
        return [symbol for symbol in self.graph.symbols.values()
                if symbol.kind == "swift.class" and symbol.module == self.module and self.visible(symbol)
                and self.graph.conforms(symbol.usr, OBSERVABLE_OBJECT | OBSERVABLE)]

    # --- members ------------------------------------------------------------------------------

    def _members(self, symbol: Symbol) -> List[Symbol]:
        """Its members and those of its superclasses in the package, each once (an override
        replaces what it overrides), in the order of the code, superclasses' first."""
        chain: List[str] = []
        usr = symbol.usr
        while usr in self.graph.symbols and usr not in chain:
            chain.insert(0, usr)
            usr = self.graph.superclass.get(usr, "")
        found: Dict[str, Symbol] = {}
        for owner in chain:
            for member in sorted(self.graph.members_of(owner), key=Symbol.place):
                found.pop(member.name, None)
                found[member.name] = member
        return list(found.values())

    def _derive(self, view_model: ViewModel) -> None:
        constructors: List[Entry] = []
        class_name = view_model.symbol.qualified
        for member in self._members(view_model.symbol):
            if member.kind in NESTED_TYPES or member.name in NOT_MEMBERS or member.kind == "swift.deinit":
                continue
            if member.name == HAND_HOOK and member.kind == "swift.type.method":
                view_model.hand_hook = self.visible(member)
                continue
            if not self.visible(member):
                continue    # private to the derived file, as private members are to everyone
            entry = Entry(member.name, member.place())
            settings = self.control.member(class_name, member.name)
            if settings.exclude is not None:
                entry.left_out, entry.excluded = settings.exclude, True
            elif member.kind in ("swift.type.property", "swift.type.method"):
                entry.left_out = "a static member: an object has none"
            elif member.kind == "swift.subscript":
                entry.left_out = "a subscript: no member crosses as one"
            elif member.kind == "swift.property":
                self._property(view_model, member, entry, settings)
            elif member.kind == "swift.method":
                self._method(member, entry, settings)
            elif member.kind == "swift.init":
                # A constructor's name follows from its labels (a control file's name is none of it).
                self._initialiser(view_model, member, entry, settings)
                if not entry.left_out:
                    constructors.append(entry)
                    continue
            elif member.kind == "swift.func.op":
                entry.left_out = "an operator"
            else:
                continue
            if not entry.left_out and settings.name:
                entry.c_name = entry.values["name"] = settings.name
            view_model.entries.append(entry)
        self._name_constructors(view_model, constructors)
        self._check_names(view_model)

    @staticmethod
    def _doc(settings: MemberControl, member: Symbol) -> str:
        return settings.doc if settings.doc is not None else member.doc

    def _view_model_of(self, swift_type: SwiftType) -> Optional[ViewModel]:
        return self.view_models.get(swift_type.usr) if swift_type.kind == "named" and not swift_type.args else None

    def _property(self, view_model: ViewModel, member: Symbol, entry: Entry, settings: MemberControl) -> None:
        swift_type = parse(type_fragments(member.fragments))
        published = "Published" in member.attributes()
        entry.c_name = snake_case(member.name)
        limit = setter_access(member)
        # `let` is read-only; a stored `var` has no `{ get set }` in the graph, a computed or
        # wrapped one says whether it has a setter; `private(set)` is in the code alone.
        keywords = member.keywords()
        settable = "var" in keywords and ("{" not in member.text or "set" in keywords)
        entry.writable = (settable and limit not in ("private", "fileprivate")
                          and (self.same_module or limit != "internal"))
        doc = self._doc(settings, member)
        values = {"name": entry.c_name, "property": member.name, "doc": doc}
        entry.values = values
        # A callback property: a signal.
        if swift_type.kind == "optional" and swift_type.args[0].kind == "function":
            function = swift_type.args[0]
            entry.kind = "signal"
            why = self._accept(entry, function.args[0]) if len(function.args) == 1 else ""
            if function.result is None or not function.result.is_void or len(function.args) > 1:
                entry.left_out = "a callback property is a signal when it takes no value or one and returns nothing"
            elif why:
                entry.left_out = "its callback's argument: " + why
            elif not entry.writable:
                entry.left_out = "a callback property is a signal the library sets: this one cannot be set from here"
            else:
                entry.block = "signal_callback"
            return
        # A publisher of events: a signal.
        if swift_type.kind == "named" and swift_type.name.split(".")[-1] in EVENT_PUBLISHERS \
                and usr_module(swift_type.usr) in COMBINE_MODULES:
            entry.kind = "signal"
            if len(swift_type.args) != 2 or swift_type.args[1].usr != NEVER:
                entry.left_out = "a publisher is a signal when it never fails (Failure == Never)"
                return
            events = swift_type.args[0]
            why = "" if events.is_void else self._accept(entry, events)
            if why:
                entry.left_out = "its events: " + why
            else:
                entry.block = "signal_publisher"
            return
        # Another view model of the module: a child; an array or SpliceList of them: a list.
        if self._view_model_of(swift_type):
            entry.kind, entry.block = "child", "child"
            return
        items = swift_type.args[0] if swift_type.kind == "array" or (swift_type.usr == SPLICE_LIST and swift_type.args) else None
        if items is not None and self._view_model_of(items):
            entry.kind = "list"
            if swift_type.usr == SPLICE_LIST or (view_model.observation and not published):
                entry.block = "list"
            elif published:
                entry.block = "list_published"
            else:
                entry.left_out = ("an array of view models is a list when a publisher announces its changes: "
                                  "make it @Published, or a SpliceList")
            return
        if swift_type.kind == "optional" and self._view_model_of(swift_type.args[0]):
            entry.left_out = "an optional view model: a child is always there"
            return
        # A value.
        entry.kind = "property"
        why = self._accept(entry, swift_type)
        if why:
            entry.left_out = why
            return
        if settings.crosses_as:
            values["crossing"] = settings.crosses_as
            suffix = "_crossing"
        else:
            suffix = ""
        publisher = "_published" if published and not view_model.observation else ""
        entry.block = ("binding" if entry.writable else "output") + publisher + suffix

    def _parameters(self, member: Symbol) -> List[Tuple[str, str, SwiftType]]:
        """Each parameter's label ("_" for none), internal name and type."""
        labels = re.findall(r"([\w$]+):", member.name)
        parameters = (member.signature or {}).get("parameters", [])
        found = []
        for label, parameter in zip(labels, parameters):
            internal = parameter.get("internalName", parameter["name"])
            found.append((label, internal, parse(type_fragments(parameter["declarationFragments"]))))
        return found

    def _method(self, member: Symbol, entry: Entry, settings: MemberControl) -> None:
        entry.kind = "command"
        base = member.name.split("(")[0]
        entry.c_name = snake_case(base)
        if member.generic:
            entry.left_out = "a generic method"
            return
        if not re.fullmatch(r"[A-Za-z_]\w*", base):
            entry.left_out = "an operator"
            return
        keywords = member.effects()
        parameters = self._parameters(member)
        if len(parameters) > MOST:
            entry.left_out = "more than %d arguments" % MOST
            return
        arguments: List[Tuple[str, str, str, SwiftType]] = []
        for label, internal, swift_type in parameters:
            why = self._accept(entry, swift_type)
            if why:
                entry.left_out = "its argument %s: %s" % (internal, why)
                return
            arguments.append((snake_case(internal if label == "_" else label), label, internal, swift_type))
        returns = (member.signature or {}).get("returns") or []
        result = parse(returns) if returns else None
        if result is not None and not result.is_void:
            why = self._accept(entry, result)
            if why:
                entry.left_out = "its result: " + why
                return
        entry.block = "async_command" if "async" in keywords else "command"
        call = "%s%s" % ("try " if {"throws", "rethrows"} & keywords else "", "await " if "async" in keywords else "")
        entry.values = {"name": entry.c_name, "doc": self._doc(settings, member),
                        "arguments": "".join(', .value("%s")' % name for name, _, _, _ in arguments),
                        "closure": self._command_closure(call, base, arguments)}
        entry.spelled = [swift_type for _, _, _, swift_type in arguments]
        entry.argument_names = [name for name, _, _, _ in arguments]

    def _command_closure(self, call: str, method: str, arguments: List[Tuple[str, str, str, SwiftType]]) -> str:
        """A command's closure: ``$0.f()`` without arguments, else its parameters named and typed
        (the object's named ``viewModel`` unless an argument is)."""
        if not arguments:
            return "%s$0.%s()" % (call, method)
        internals = [internal for _, _, internal, _ in arguments]
        target = "viewModel" if "viewModel" not in internals else "object"
        typed = ", ".join("%s: %s" % (internal, self.spell(swift_type)) for _, _, internal, swift_type in arguments)
        passed = ", ".join(internal if label == "_" else "%s: %s" % (label, internal) for _, label, internal, _ in arguments)
        return "(%s, %s) in %s%s.%s(%s)" % (target, typed, call, target, method, passed)

    def spell(self, swift_type: SwiftType) -> str:
        """A type as the derived file names it: a type of the package by its full path
        (``PlayerViewModel.Action``), any other as written."""
        kind = swift_type.kind
        if kind == "optional":
            return self.spell(swift_type.args[0]) + "?"
        if kind == "array":
            return "[%s]" % self.spell(swift_type.args[0])
        if kind == "named":
            symbol = self.graph.symbols.get(swift_type.usr)
            name = symbol.qualified if symbol is not None else swift_type.name
            if swift_type.args:
                name += "<%s>" % ", ".join(self.spell(arg) for arg in swift_type.args)
            return name
        return swift_type.text

    def _initialiser(self, view_model: ViewModel, member: Symbol, entry: Entry, settings: MemberControl) -> None:
        entry.kind = "constructor"
        keywords = member.effects()
        if member.text.startswith("init?") or "init?(" in member.text or "init!(" in member.text:
            entry.left_out = "a failable initialiser: a constructor makes an object or throws"
            return
        if "async" in keywords:
            entry.left_out = "an async initialiser: a constructor makes its object at once"
            return
        if member.generic:
            entry.left_out = "a generic initialiser"
            return
        passed: List[str] = []
        exported: List[str] = []
        arguments: List[Tuple[str, str, SwiftType]] = []
        uses_loop = False
        for label, internal, swift_type in self._parameters(member):
            wrapped = swift_type.args[0] if swift_type.kind == "optional" else swift_type
            if swift_type.kind == "named" and swift_type.usr == LOOP:
                expression = "loop"
            elif wrapped.kind == "named" and wrapped.usr == LOOP_CLOCK:
                expression = "loop.clock"
            elif self._view_model_of(swift_type):
                expression = internal
                exported.append('.model("%s")' % snake_case(internal if label == "_" else label))
                arguments.append((label, internal, swift_type))
            else:
                why = self._accept(entry, swift_type)
                if why:
                    entry.left_out = "its argument %s: %s" % (internal, why)
                    return
                expression = internal
                exported.append('.value("%s")' % snake_case(internal if label == "_" else label))
                arguments.append((label, internal, swift_type))
            uses_loop = uses_loop or expression.startswith("loop")
            passed.append(expression if label == "_" else "%s: %s" % (label, expression))
        if len(arguments) > MOST:
            entry.left_out = "more than %d arguments" % MOST
            return
        typed = ", ".join("%s: %s" % (internal, self.spell(swift_type)) for _, internal, swift_type in arguments)
        loop = "loop" if uses_loop else "_"
        head = "(%s, %s)" % (loop, typed) if typed else loop
        call = "try " if {"throws", "rethrows"} & keywords else ""
        entry.block = "constructor"
        entry.values = {"doc": self._doc(settings, member), "arguments": "".join(", " + a for a in exported),
                        "closure": "%s in %s%s(%s)" % (head, call, view_model.symbol.qualified, ", ".join(passed))}
        entry.spelled = [swift_type for _, _, swift_type in arguments]
        entry.argument_names = [snake_case(internal if label == "_" else label) for label, internal, _ in arguments]

    def _name_constructors(self, view_model: ViewModel, constructors: List[Entry]) -> None:
        """The first initialiser without arguments (else the first) is ``new``; each other is
        ``new_with_`` its first label (all its labels when two share the first)."""
        if not constructors:
            return
        plain = next((entry for entry in constructors if not entry.argument_names), constructors[0])
        ordered = [plain] + [entry for entry in constructors if entry is not plain]
        plain.c_name = "new"
        taken = {"new"}
        for entry in ordered[1:]:
            names = entry.argument_names
            suffix = names[0] if names else ""
            if not suffix or "new_with_" + suffix in taken:
                suffix = "_".join(names)
            name = "new_with_" + suffix if suffix else ""
            if not suffix or name in taken:
                entry.left_out = "its name would be another constructor's (%s): exclude one in the control file" % (name or "new")
                entry.block = ""
                continue
            entry.c_name = name
            entry.values["suffix"] = suffix
            taken.add(name)
        # Constructors go after the other members, `new` first (the library names the first so).
        for entry in ordered:
            view_model.entries.append(entry)

    def _check_names(self, view_model: ViewModel) -> None:
        """Leaves out a member whose C name or typed call the registration check would refuse: a
        keyword, a name taken by another member, a typed call's name taken (within the class, by
        another class, or by the ABI)."""
        naming = self.naming
        class_name = view_model.c_name
        members: Dict[str, str] = {}
        for entry in view_model.entries:
            if entry.left_out:
                continue
            what = "%s %s" % (entry.kind if entry.kind != "list" else "property", entry.c_name)
            names = [entry.values.get("suffix", "")] if entry.kind == "constructor" else [entry.c_name]
            problems = [name_problem(naming, name) for name in names if name]
            problems += [name_problem(naming, name, argument=True) for name in entry.argument_names]
            problems = [problem for problem in problems if problem]
            if entry.kind != "constructor" and entry.c_name in members:
                problems.append("its C name %s is %s's too" % (entry.c_name, members[entry.c_name]))
            calls = []
            if entry.kind == "property":
                calls.append((naming.typed_call("getter", class_name, entry.c_name), "%s's getter" % what))
                if entry.writable:
                    calls.append((naming.typed_call("setter", class_name, entry.c_name), "%s's setter" % what))
            elif entry.kind in ("command", "child", "constructor"):
                calls.append((naming.typed_call(entry.kind, class_name, entry.c_name), what))
            for call, _ in calls:
                if call in naming.abi_names:
                    problems.append("its typed call would be %s, a function of the C ABI" % call)
                elif call in self._typed_calls:
                    problems.append("its typed call %s would be %s's" % (call, self._typed_calls[call]))
            if problems:
                entry.left_out = "; ".join(problems) + " (name it otherwise in the control file, or exclude it)"
                entry.block = ""
                continue
            if entry.kind != "constructor":
                members[entry.c_name] = what
            for call, owner in calls:
                self._typed_calls[call] = "class %s's %s" % (class_name, owner)
