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
  loop and its clock, a view model of the derivation is a model argument, a protocol that some of
  them adopt a model argument of any of them; a parameter with a default value that cannot cross
  is left to its default);
- a ``let`` holding an object of a class or struct nested in the view model's own class (the
  Input / Binding / Output style's ``input``, ``binding``, ``output``): a part of it, whose members
  are registered as the view model's own, reached through it; the subjects of a part named
  ``input`` or ``inputs`` are commands that send to them (the view's events);
- a class with ``transform(input:)`` (the transform style: an input struct of publishers in, an
  output struct of publishers back): registered through an adapter class the derived file
  declares, which hands ``transform`` a subject per input field once: the fields are commands,
  the output's publishers signals;
- what none of these fits is left out, saying why."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Set, Tuple

from ..arities import MOST
from ..naming import Naming, name_problem, snake_case
from .control import AS_COMMAND, Control, MemberControl
from .graph import DeriveError, Graph, Symbol, parameter_defaults, setter_access, usr_module
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
#: What the view's events can be sent to.
SUBJECTS = {"PassthroughSubject", "CurrentValueSubject"}
COMBINE_MODULES = {"OpenCombine", "Combine", "MVVMCombine", "MVVMPublished"}
#: A part whose subjects are the view's events, by the property's name (the Input / Output style).
INPUT_PARTS = {"input", "inputs"}
#: The transform style's one method.
TRANSFORM = "transform(input:)"
#: What an adapter of a transform-style view model names its own properties.
ADAPTER_PROPERTIES = {"viewModel", "output"}
STATIC_KINDS = {"swift.type.property", "swift.type.method"}
INTEGERS = {"s:Si", "s:s5Int64V", "s:s5Int32V", "s:s5Int16V", "s:s4Int8V", "s:s6UInt64V", "s:s6UInt32V", "s:s6UInt16V",
            "s:s5UInt8V"}
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
    #: whether a left-out member is warned of (a static member is said in the file alone)
    warn: bool = True
    #: a constructor's range checks: (argument's C name, its Swift name, low, high)
    checks: List[Tuple[str, str, int, int]] = field(default_factory=list)


@dataclass
class Transform:
    """A ``transform(input:) -> Output`` view model's adapter: the class the derived file declares
    and registers, which calls ``transform`` once with a subject for each input field."""
    #: the adapter's Swift name (``WelcomeScreen`` for ``WelcomeViewModel``)
    adapter: str
    input_symbol: Symbol
    output_symbol: Symbol
    #: the input's and output's types as the derived file spells them
    input_type: str
    output_type: str
    #: each input field: the symbol, the subject's type spelled, what the input is given, the values it sends
    fields: List[Tuple[Symbol, str, str, SwiftType]] = field(default_factory=list)


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
    #: the Swift type registered: the class's own, or a transform-style view model's adapter
    registered: str = ""
    transform: Optional[Transform] = None


class Classes:
    """The view models of ``modules`` (those the control file does not exclude), each with its
    members' entries, in the order of the control file's ``order``, then of the code."""

    def __init__(self, graph: Graph, modules: Sequence[str], control: Control, values: Values, naming: Naming,
                 visible: Callable[[Symbol], bool], output_module: str) -> None:
        self.graph = graph
        self.modules = set(modules)
        self.control = control
        self.values = values
        self.naming = naming
        self.visible = visible
        #: the module the derived file joins (where `internal(set)` still sets)
        self.output_module = output_module
        #: classes left out whole: (Swift name, why, whether the control file excluded it)
        self.excluded: List[Tuple[str, str, bool]] = []
        self.view_models: Dict[str, ViewModel] = {}
        observable, transforms = self._candidates()
        #: the classes and structs that are parts of a view model (its members are the view model's)
        self.parts: Set[str] = {part.usr for symbol in observable for _, part in self._parts(symbol)}
        for symbol in sorted(observable + transforms, key=Symbol.place):
            if symbol.usr in self.parts:
                continue
            settings = control.type(symbol.qualified)
            if settings.exclude:
                self.excluded.append((symbol.qualified, settings.exclude, True))
                control.used.update((symbol.qualified, member) for member in settings.members)
                continue
            default = snake_case(symbol.name)
            why = name_problem(naming, settings.name or default)
            transform: Optional[Transform] = None
            if why:
                why += " (name it otherwise in the control file)"
            elif symbol in transforms:
                transform, why = self._transform(symbol)
            if why:
                self.excluded.append((symbol.qualified, why, False))
                continue
            registered = transform.adapter if transform else symbol.qualified
            c_name = settings.name or default
            self.view_models[symbol.usr] = ViewModel(
                symbol, c_name, c_name == snake_case(registered.split(".")[-1]), settings.display,
                settings.doc if settings.doc is not None else symbol.doc, "MainActor" in symbol.attributes(),
                not graph.conforms(symbol.usr, OBSERVABLE_OBJECT), registered=registered, transform=transform)
        self._typed_calls: Dict[str, str] = {}
        for view_model in self.view_models.values():
            self._derive(view_model)
        self._order()
        # The records and enums of the members registered, not of those left out on the way.
        values.reset()
        for view_model in self.view_models.values():
            for entry in view_model.entries:
                for swift_type in entry.uses if not entry.left_out else []:
                    values.accept(swift_type)

    def _order(self) -> None:
        """The control file's ``order`` first, then the others in the order of the code."""
        by_name = {model.symbol.qualified: usr for usr, model in self.view_models.items()}
        first = [by_name[name] for name in self.control.order if name in by_name]
        self.view_models = {usr: self.view_models[usr] for usr in first + [usr for usr in self.view_models if usr not in first]}

    def _accept(self, entry: Entry, swift_type: SwiftType) -> str:
        """Why ``swift_type`` does not cross as a value ("" when it does: the entry uses it)."""
        why = self.values.accept(swift_type)
        if not why:
            entry.uses.append(swift_type)
        return why

    def _candidates(self) -> Tuple[List[Symbol], List[Symbol]]:
        """The module's ObservableObject and @Observable classes; its classes of the transform style."""
        observable, transforms = [], []
        for symbol in self.graph.symbols.values():
            if symbol.kind != "swift.class" or symbol.module not in self.modules or not self.visible(symbol):
                continue
            if self.graph.conforms(symbol.usr, OBSERVABLE_OBJECT | OBSERVABLE):
                observable.append(symbol)
            elif any(member.name == TRANSFORM and member.kind == "swift.method" and self.visible(member)
                     for member in self.graph.members_of(symbol.usr)):
                transforms.append(symbol)
        return observable, transforms

    def _nested_type(self, owner: Symbol, member: Symbol) -> Optional[Symbol]:
        """The class or struct nested in ``owner`` that the ``let`` ``member`` holds, if it does."""
        if member.kind != "swift.property" or "let" not in member.keywords():
            return None
        held = parse(type_fragments(member.fragments))
        symbol = self.graph.symbols.get(held.usr) if held.kind == "named" and not held.args else None
        if symbol is None or symbol.kind not in ("swift.class", "swift.struct") or symbol.path[:-1] != owner.path:
            return None
        return symbol

    def _parts(self, owner: Symbol) -> List[Tuple[Symbol, Symbol]]:
        """(property, its type) of each part of ``owner``: a ``let`` of a class or struct nested in it."""
        found = []
        for member in self.graph.members_of(owner.usr):
            part = self._nested_type(owner, member)
            if part is not None and self.visible(member) and self.visible(part):
                found.append((member, part))
        return found

    # --- members ------------------------------------------------------------------------------

    def _members(self, symbol: Symbol) -> List[Symbol]:
        """Its members and those of its superclasses in the package, each once (an override
        replaces what it overrides; a static member and an instance one may share a name), in
        the order of the code, superclasses' first."""
        chain: List[str] = []
        usr = symbol.usr
        while usr in self.graph.symbols and usr not in chain:
            chain.insert(0, usr)
            usr = self.graph.superclass.get(usr, "")
        found: Dict[Tuple[bool, str], Symbol] = {}
        for owner in chain:
            for member in sorted(self.graph.members_of(owner), key=Symbol.place):
                key = (member.kind in STATIC_KINDS, member.name)
                found.pop(key, None)
                found[key] = member
        return list(found.values())

    def _derive(self, view_model: ViewModel) -> None:
        constructors: List[Entry] = []
        transform = view_model.transform
        if transform is not None:
            self._transform_entries(view_model, transform)
        self._member_entries(view_model, view_model.symbol, "viewModel." if transform else "", False,
                             view_model.observation, constructors, {view_model.symbol.usr})
        self._name_constructors(view_model, constructors)
        self._check_names(view_model)

    def _member_entries(self, view_model: ViewModel, owner: Symbol, path: str, inputs: bool, observation: bool,
                        constructors: Optional[List[Entry]], seen: Set[str]) -> None:
        """The entries of ``owner``'s members, reached from the view model through ``path``
        (``binding.`` for a part); ``constructors`` is None for a part (its initialisers make no
        view model); ``inputs``: its subjects are the view's events."""
        class_name = owner.qualified
        top = constructors is not None
        for member in self._members(owner):
            if member.kind in NESTED_TYPES or member.name in NOT_MEMBERS or member.kind == "swift.deinit":
                continue
            if member.name == HAND_HOOK and member.kind == "swift.type.method":
                if top:
                    view_model.hand_hook = self.visible(member)
                continue
            if not self.visible(member):
                continue    # private to the derived file, as private members are to everyone
            if member.kind == "swift.init" and not top:
                continue    # a part is made by its view model
            if top and view_model.transform is not None and member.name == TRANSFORM:
                continue    # its input and output are the members above
            # (what the view model's initialisers make is the registered object, not reached through a path)
            entry = Entry(member.name if member.kind == "swift.init" else path + member.name, member.place())
            settings = self.control.member(class_name, member.name)
            self._check_control(class_name, member, settings)
            part = self._nested_type(owner, member) if member.kind == "swift.property" else None
            if settings.exclude is not None:
                entry.left_out, entry.excluded = settings.exclude, True
            elif member.kind in STATIC_KINDS:
                entry.left_out, entry.warn = "a static member: an object has none", False
            elif member.kind == "swift.subscript":
                entry.left_out = "a subscript: no member crosses as one"
            elif part is not None and part.usr in self.parts and part.usr not in seen:
                self.control.type(part.qualified)
                entry.kind, entry.block = "part", "part"
                entry.values = {"swift": entry.swift, "type": part.qualified}
                view_model.entries.append(entry)
                self._member_entries(view_model, part, "%s%s." % (path, member.name), member.name in INPUT_PARTS,
                                     not self.graph.conforms(part.usr, OBSERVABLE_OBJECT), None, seen | {part.usr})
                continue
            elif member.kind == "swift.property":
                self._property(view_model, member, entry, settings, path, inputs, observation)
            elif member.kind == "swift.method":
                self._method(member, entry, settings, path)
            elif member.kind == "swift.init":
                # A constructor's name follows from its labels (a control file's name is none of it).
                self._initialiser(view_model, member, entry, settings)
                if not entry.left_out and constructors is not None:
                    constructors.append(entry)
                    continue
            elif member.kind == "swift.func.op":
                entry.left_out = "an operator"
            else:
                continue
            if not entry.left_out and settings.name:
                entry.c_name = entry.values["name"] = settings.name
            view_model.entries.append(entry)

    def _check_control(self, class_name: str, member: Symbol, settings: MemberControl) -> None:
        """Refuses a control entry that says what its member cannot be: ``as`` but for a
        property (a subject), ``range`` but for an initialiser."""
        wrong = [key for key, given, kinds in [("as", settings.as_, ("swift.property",)), ("range", settings.range, ("swift.init",))]
                 if given and member.kind not in kinds]
        if wrong:
            raise DeriveError("%s: %s.%s: %s is for %s" % (
                self.control.path.name if self.control.path else "the control file", class_name, member.name, wrong[0],
                "a subject property" if wrong[0] == "as" else "an initialiser's arguments"))

    @staticmethod
    def _doc(settings: MemberControl, member: Symbol) -> str:
        return settings.doc if settings.doc is not None else member.doc

    def _view_model_of(self, swift_type: SwiftType) -> Optional[ViewModel]:
        """The view model a type is, when it is one held as itself (not through an adapter)."""
        found = self.view_models.get(swift_type.usr) if swift_type.kind == "named" and not swift_type.args else None
        return found if found is not None and found.transform is None else None

    @staticmethod
    def _is_subject(swift_type: SwiftType) -> bool:
        return (swift_type.kind == "named" and swift_type.name.split(".")[-1] in SUBJECTS
                and usr_module(swift_type.usr) in COMBINE_MODULES and len(swift_type.args) == 2)

    def _subject_command(self, entry: Entry, subject: str, events: SwiftType, doc: str) -> None:
        """A command that sends its argument (none for a subject of Void) to ``subject``, the
        view's event: its one argument is named "argument", as the export API names it."""
        entry.kind = "command"
        if events.is_void:
            closure = "$0.%s.send()" % subject
        else:
            why = self._accept(entry, events)
            if why:
                entry.left_out = "its events: " + why
                return
            closure = "(viewModel, value: %s) in viewModel.%s.send(value)" % (self.spell(events), subject)
            entry.spelled = [events]
            entry.argument_names = ["argument"]
        entry.block = "command"
        entry.values = {"name": entry.c_name, "doc": doc, "arguments": "", "closure": closure}

    def _property(self, view_model: ViewModel, member: Symbol, entry: Entry, settings: MemberControl, path: str = "",
                  inputs: bool = False, observation: Optional[bool] = None) -> None:
        observation = view_model.observation if observation is None else observation
        swift_type = parse(type_fragments(member.fragments))
        published = "Published" in member.attributes()
        entry.c_name = snake_case(member.name)
        limit = setter_access(member)
        # `let` is read-only; a stored `var` has no `{ get set }` in the graph, a computed or
        # wrapped one says whether it has a setter; `private(set)` is in the code alone.
        keywords = member.keywords()
        settable = "var" in keywords and ("{" not in member.text or "set" in keywords)
        entry.writable = (settable and limit not in ("private", "fileprivate")
                          and (member.module == self.output_module or limit != "internal"))
        doc = self._doc(settings, member)
        values = {"name": entry.c_name, "property": member.name, "path": path, "doc": doc}
        entry.values = values
        # A subject of the view's events (an input part's, or one the control file says is): a command.
        if settings.as_ == AS_COMMAND or (inputs and self._is_subject(swift_type)):
            if not self._is_subject(swift_type):
                entry.kind = "command"
                entry.left_out = 'as "command" is for a subject (PassthroughSubject, CurrentValueSubject): the view sends to it'
                return
            self._subject_command(entry, path + member.name, swift_type.args[0], doc)
            return
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
        # Another view model of the derivation: a child; an array or SpliceList of them: a list.
        if self._view_model_of(swift_type):
            entry.kind, entry.block = "child", "child"
            return
        items = swift_type.args[0] if swift_type.kind == "array" or (swift_type.usr == SPLICE_LIST and swift_type.args) else None
        if items is not None and self._view_model_of(items):
            entry.kind = "list"
            if swift_type.usr == SPLICE_LIST or (observation and not published):
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
        publisher = "_published" if published and not observation else ""
        entry.block = ("binding" if entry.writable else "output") + publisher + suffix

    def _parameters(self, member: Symbol) -> List[Tuple[str, str, SwiftType, bool]]:
        """Each parameter's label ("_" for none), internal name, type and whether it has a default."""
        labels = re.findall(r"([\w$]+):", member.name)
        parameters = (member.signature or {}).get("parameters", [])
        defaults = parameter_defaults(member)
        if len(defaults) != len(parameters):
            defaults = [False] * len(parameters)
        found = []
        for label, parameter, default in zip(labels, parameters, defaults):
            internal = parameter.get("internalName", parameter["name"])
            found.append((label, internal, parse(type_fragments(parameter["declarationFragments"])), default))
        return found

    def _method(self, member: Symbol, entry: Entry, settings: MemberControl, path: str = "") -> None:
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
        arguments: List[Tuple[str, str, str, SwiftType]] = []
        for label, internal, swift_type, default in self._parameters(member):
            why = self._accept(entry, swift_type)
            if why and default:
                continue    # left to its default value
            if why:
                entry.left_out = "its argument %s: %s" % (internal, why)
                return
            arguments.append((snake_case(internal if label == "_" else label), label, internal, swift_type))
        if len(arguments) > MOST:
            entry.left_out = "more than %d arguments" % MOST
            return
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
                        "closure": self._command_closure(call, path + base, arguments)}
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
        (``PlayerViewModel.Action``), a protocol as an existential (``any Countable``), any other
        as written."""
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
            return "any " + name if symbol is not None and symbol.kind == "swift.protocol" else name
        return swift_type.text

    def _adopters(self, swift_type: SwiftType) -> List[ViewModel]:
        """The view models of the derivation that adopt the protocol ``swift_type`` names, in the
        order of the code (none when it names no protocol of the package)."""
        symbol = self.graph.symbols.get(swift_type.usr) if swift_type.kind == "named" and not swift_type.args else None
        if symbol is None or symbol.kind != "swift.protocol":
            return []
        protocol = "%s.%s" % (symbol.module, symbol.qualified)
        return sorted((model for model in self.view_models.values()
                       if model.transform is None and self.graph.conforms(model.symbol.usr, [protocol])),
                      key=lambda model: model.symbol.place())

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
        for label, internal, swift_type, default in self._parameters(member):
            wrapped = swift_type.args[0] if swift_type.kind == "optional" else swift_type
            adopters = self._adopters(swift_type)
            name = snake_case(internal if label == "_" else label)
            if swift_type.kind == "named" and swift_type.usr == LOOP:
                expression = "loop"
            elif wrapped.kind == "named" and wrapped.usr == LOOP_CLOCK:
                expression = "loop.clock"
            elif self._view_model_of(swift_type):
                expression = internal
                exported.append('.model("%s")' % name)
                arguments.append((label, internal, swift_type))
            elif adopters:
                expression = internal
                exported.append('.model("%s", oneOf: %s)' % (name, ", ".join("%s.self" % model.registered for model in adopters)))
                arguments.append((label, internal, swift_type))
            else:
                why = self._accept(entry, swift_type)
                if why and default:
                    continue    # left to its default value
                if why:
                    entry.left_out = "its argument %s: %s" % (internal, why)
                    return
                expression = internal
                exported.append('.value("%s")' % name)
                arguments.append((label, internal, swift_type))
            uses_loop = uses_loop or expression.startswith("loop")
            passed.append(expression if label == "_" else "%s: %s" % (label, expression))
        if len(arguments) > MOST:
            entry.left_out = "more than %d arguments" % MOST
            return
        checks = self._range_checks(view_model, member, settings, arguments)
        typed = ", ".join("%s: %s" % (internal, self.spell(swift_type)) for _, internal, swift_type in arguments)
        loop = "loop" if uses_loop else "_"
        head = "(%s, %s)" % (loop, typed) if typed else loop
        call = "try " if {"throws", "rethrows"} & keywords else ""
        made = "%s(%s)" % (view_model.symbol.qualified, ", ".join(passed))
        if view_model.transform is not None:
            made = "%s(%s)" % (view_model.transform.adapter, made)
        entry.block = "constructor"
        entry.values = {"doc": self._doc(settings, member), "arguments": "".join(", " + a for a in exported),
                        "closure": "%s in %s%s" % (head, call, made)}
        if checks:
            entry.block = "constructor_checked"
            entry.values.update(head=head, made=call + made)
            entry.checks = checks
        entry.spelled = [swift_type for _, _, swift_type in arguments]
        entry.argument_names = [snake_case(internal if label == "_" else label) for label, internal, _ in arguments]

    def _range_checks(self, view_model: ViewModel, member: Symbol, settings: MemberControl,
                      arguments: List[Tuple[str, str, SwiftType]]) -> List[Tuple[str, str, int, int]]:
        """(argument's C name, its Swift name, low, high) of each range the control file gives an
        initialiser's integer arguments; a range naming no such argument is refused."""
        checks = []
        for swift_name, (low, high) in settings.range.items():
            found = [(label, internal, swift_type) for label, internal, swift_type in arguments if swift_name in (label, internal)]
            if not found or found[0][2].kind != "named" or found[0][2].usr not in INTEGERS:
                raise DeriveError("%s: %s.%s: range names %s, which is no integer argument of it"
                                  % (self.control.path.name if self.control.path else "the control file",
                                     view_model.symbol.qualified, member.name, swift_name))
            label, internal, _ = found[0]
            checks.append((snake_case(internal if label == "_" else label), internal, low, high))
        return checks

    # --- the transform style -----------------------------------------------------------------

    @staticmethod
    def adapter_name(name: str) -> str:
        """A transform-style view model's adapter: its name with ``ViewModel`` replaced by
        ``Screen`` (``WelcomeViewModel``: ``WelcomeScreen``), else with ``Screen`` added."""
        base = name[:-len("ViewModel")] if name.endswith("ViewModel") and name != "ViewModel" else name
        return base + "Screen"

    def _transform(self, symbol: Symbol) -> Tuple[Optional[Transform], str]:
        """The adapter of a class with ``transform(input:)``, or why it cannot have one."""
        method = next(member for member in self.graph.members_of(symbol.usr) if member.name == TRANSFORM)
        parameters = self._parameters(method)
        returns = (method.signature or {}).get("returns") or []
        input_type = parameters[0][2] if len(parameters) == 1 else SwiftType("other")
        output_type = parse(returns) if returns else SwiftType("other")
        input_symbol = self.graph.symbols.get(input_type.usr) if input_type.kind == "named" else None
        output_symbol = self.graph.symbols.get(output_type.usr) if output_type.kind == "named" else None
        why = "transform(input:) takes a struct of publishers and returns a type of the package"
        if method.generic or {"async", "throws", "rethrows"} & method.effects() or input_symbol is None \
                or output_symbol is None or input_symbol.kind != "swift.struct" or output_symbol.kind not in ("swift.struct", "swift.class"):
            return None, why
        transform = Transform(self.adapter_name(symbol.name), input_symbol, output_symbol, self.spell(input_type),
                              self.spell(output_type))
        fields = self.values.stored_properties(input_symbol)
        made = "init(%s)" % "".join(field.name + ":" for field in fields)
        if not any(member.kind == "swift.init" and member.name == made and self.visible(member)
                   and not member.effects() for member in self.graph.members_of(input_symbol.usr)):
            return None, "its input %s is made by no initialiser of its fields (%s) the derived file sees" % (
                input_symbol.qualified, made)
        for field in fields:
            field_type = parse(type_fragments(field.fragments))
            kind = field_type.name.split(".")[-1] if field_type.kind == "named" else ""
            if kind not in ("AnyPublisher", "PassthroughSubject") or usr_module(field_type.usr) not in COMBINE_MODULES \
                    or len(field_type.args) != 2:
                return None, "its input's field %s is %s: the derived adapter feeds AnyPublisher and PassthroughSubject fields" % (
                    field.name, field_type.text or "no publisher")
            if field.name in ADAPTER_PROPERTIES:
                return None, "its input's field %s has the name of its adapter's own property" % field.name
            subject = "PassthroughSubject<%s>" % ", ".join(self.spell(arg) for arg in field_type.args)
            given = field.name + (".eraseToAnyPublisher()" if kind == "AnyPublisher" else "")
            transform.fields.append((field, subject, given, field_type.args[0]))
        return transform, ""

    def _transform_entries(self, view_model: ViewModel, transform: Transform) -> None:
        """Its input's fields as commands that send to the adapter's subjects, then its output's
        members as the view model's own (a part reached through ``output``)."""
        for field, _, _, events in transform.fields:
            entry = Entry(field.name, field.place())
            settings = self.control.member(transform.input_symbol.qualified, field.name)
            entry.c_name = snake_case(field.name)
            if settings.exclude is not None:
                entry.left_out, entry.excluded = settings.exclude, True
            else:
                self._subject_command(entry, field.name, events, self._doc(settings, field))
                if not entry.left_out and settings.name:
                    entry.c_name = entry.values["name"] = settings.name
            view_model.entries.append(entry)
        self.control.type(transform.input_symbol.qualified)
        self.control.type(transform.output_symbol.qualified)
        entry = Entry("output", transform.output_symbol.place(), kind="part", block="part",
                      values={"swift": "output", "type": transform.output_symbol.qualified})
        view_model.entries.append(entry)
        self._member_entries(view_model, transform.output_symbol, "output.", False,
                             not self.graph.conforms(transform.output_symbol.usr, OBSERVABLE_OBJECT), None,
                             {view_model.symbol.usr, transform.output_symbol.usr})

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
            if entry.left_out or entry.kind == "part":
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
