"""The package as the compiler sees it: its targets (``swift package describe``) and the symbol
graphs of its modules (``swift package dump-symbol-graph``), read into one index of symbols.

The symbol graphs give every declaration's fragments (attributes such as ``@Published`` and
``@MainActor``, full types with their precise identifiers, ``{ get }`` or ``{ get set }``,
``async``, ``throws``), its access level, doc comment and place, and the conformances of each type
(``Codable``, ``ObservableObject``, ``Observable``), with every type inferred (``@Published var
count = 0`` is an ``Int``). What they leave out is a setter's own access (``private(set)``): it is
read from the declaration's modifiers at the place the graph gives (:func:`setter_access`)."""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from .types import Fragment

#: What the graphs hold: internal members too (an app's view models are internal; the derived file
#: joins their module), not what a type inherits, no documentation inherited from a protocol.
GRAPH_OPTIONS = ["--minimum-access-level", "internal", "--skip-synthesized-members", "--skip-inherited-docs"]

#: The attribute of a library's one registration hook.
HOOK = '@_cdecl("libmvvm_register_package")'


class DeriveError(Exception):
    """A derivation that cannot go on: the package does not build, a target is unknown..."""


@dataclass(frozen=True)
class Target:
    name: str
    #: its Swift module's name
    module: str
    #: its sources' folder
    path: Path
    products: Tuple[str, ...]


def swift_package(package: Path, arguments: Sequence[str],
                  build_flags: Sequence[str] = ()) -> "subprocess.CompletedProcess[str]":
    """``swift package`` in ``package``, with the build flags the package's library is built with
    (so that the build it makes is the one ``swift build`` with them makes, not a relink)."""
    command = ["swift", "package", "--package-path", str(package)] + list(build_flags) + list(arguments)
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise DeriveError("swift is not on PATH: derivation reads the package through the Swift toolchain")


def targets(package: Path) -> Tuple[str, Dict[str, Target]]:
    """The package's name, and its targets by name."""
    done = swift_package(package, ["describe", "--type", "json"])
    if done.returncode != 0:
        raise DeriveError("swift package describe failed in %s:\n%s" % (package, done.stderr.strip()))
    described = json.loads(done.stdout)
    root = Path(described["path"])
    return described.get("name", root.name), {
        t["name"]: Target(t["name"], t.get("c99name", t["name"]), (root / t["path"]).resolve(),
                          tuple(t.get("product_dependencies", [])))
        for t in described["targets"]}


def dump(package: Path, modules: Sequence[str], build_flags: Sequence[str]) -> Tuple[Optional[List[Path]], str]:
    """Builds the package and writes its modules' symbol graphs: the files written now, or None
    and the build's output when it failed. (SwiftPM fails the command when a test target's module
    has no graph, after writing the others: what counts is that each of `modules`' was written
    now; a graph left from an earlier build, of a module since renamed, is not read.)"""
    started = time.time() - 1
    done = swift_package(package, ["dump-symbol-graph"] + GRAPH_OPTIONS, build_flags)
    output = done.stdout + done.stderr
    written = re.search(r"^Files written to (.+)$", done.stdout, flags=re.M)
    if not written:
        return None, output
    files = [path for path in sorted(Path(written.group(1).strip()).glob("*.symbols.json"))
             if path.stat().st_mtime >= started]
    if not all(any(path.name == "%s.symbols.json" % module for path in files) for module in modules):
        return None, output
    return files, output


@dataclass
class Symbol:
    usr: str
    kind: str
    #: the names from the module down: ("ExpenseListViewModel", "add(title:amount:)")
    path: Tuple[str, ...]
    access: str
    fragments: List[Fragment]
    #: the module that declares it (an extension's, for a member added in another module)
    module: str
    signature: Optional[Dict[str, Any]] = None
    doc: str = ""
    #: (file, line, character), from 0, of its name; None for what the compiler made (a
    #: memberwise initialiser)
    location: Optional[Tuple[str, int, int]] = None
    generic: bool = False

    @property
    def name(self) -> str:
        return self.path[-1]

    @property
    def qualified(self) -> str:
        return ".".join(self.path)

    @property
    def text(self) -> str:
        return "".join(fragment["spelling"] for fragment in self.fragments)

    def keywords(self) -> Set[str]:
        return {fragment["spelling"] for fragment in self.fragments if fragment["kind"] == "keyword"}

    def effects(self) -> Set[str]:
        """A function's own ``async``, ``throws`` or ``rethrows``: the keywords after its
        parameter clause (a parameter's closure type may say ``async`` too)."""
        depth, closed, found = 0, False, set()
        for fragment in self.fragments:
            if closed and fragment["kind"] == "keyword":
                found.add(fragment["spelling"])
            if fragment["kind"] == "text" and not closed:
                for character in fragment["spelling"]:
                    depth += character == "("
                    depth -= character == ")"
                    if depth == 0 and character == ")":
                        closed = True
                        break
        return found & {"async", "throws", "rethrows"}

    def attributes(self) -> Set[str]:
        return {fragment["spelling"] for fragment in self.fragments if fragment["kind"] == "attribute"}

    def place(self) -> Tuple[str, int, int]:
        """Where it is, for sorting in the order of the code (what has no place, last)."""
        return self.location or ("\uffff", 0, 0)


#: DocC's callouts about a function's Swift signature (``- Parameter seed: ...``, ``- Returns:``):
#: what a Swift caller reads, not what a host's member does (its arguments are named otherwise).
_SIGNATURE_CALLOUT = re.compile(r"-\s+(?:Parameter\s+[\w$]+|Parameters|Returns|Throws)\s*:", re.IGNORECASE)


def doc_text(lines: Iterable[Dict[str, Any]]) -> str:
    """A doc comment as one text: a paragraph's lines joined by a space, paragraphs by a blank
    line; without its callouts about the Swift signature (``- Parameter x:``, ``- Parameters:``,
    ``- Returns:``, ``- Throws:``), each up to the next blank line."""
    paragraphs: List[List[str]] = [[]]
    in_callout = False
    for line in lines:
        text = line.get("text", "").strip()
        if _SIGNATURE_CALLOUT.match(text):
            in_callout = True
        if not text:
            in_callout = False
        if text and not in_callout:
            paragraphs[-1].append(text)
        elif paragraphs[-1] and not text:
            paragraphs.append([])
    return "\n\n".join(" ".join(paragraph) for paragraph in paragraphs if paragraph)


def parameter_defaults(symbol: "Symbol") -> List[bool]:
    """Whether each of a function's parameters has a default value (``= AcceptingService()``),
    read from its declaration's fragments: its parameter clause split at its top-level commas."""
    text = "".join(fragment["spelling"] if fragment["kind"] == "text" else " x " for fragment in symbol.fragments)
    depth, quoted, started, at = 0, False, False, 0
    defaults: List[bool] = []
    while at < len(text):
        character, at = text[at], at + 1
        if quoted:
            quoted = character != '"'
        elif character == '"':
            quoted = True
        elif text.startswith(">", at - 1) and text[at - 2:at] == "->":
            pass    # a function type's arrow, no bracket
        elif character in "([{<":
            if depth == 0 and character == "(" and not started:
                started = True
                defaults.append(False)
            depth += 1
        elif character in ")]}>":
            depth -= 1
            if depth == 0 and started:
                break
        elif character == "," and depth == 1 and started:
            defaults.append(False)
        elif character == "=" and depth == 1 and started:
            defaults[-1] = True
    return defaults if (symbol.signature or {}).get("parameters") else []


def usr_module(usr: str) -> str:
    """The module a precise identifier names first (``s:11OpenCombine9PublishedV`` ->
    ``OpenCombine``); ``Swift`` for the standard library's short forms (``s:SS``)."""
    found = re.match(r"s:(\d+)", usr)
    if not found:
        return "Swift"
    length = int(found.group(1))
    return usr[found.end():found.end() + length]


class Graph:
    """Every symbol of the package's modules, with who is a member of whom, who conforms to
    what and who inherits from whom."""

    def __init__(self) -> None:
        self.symbols: Dict[str, Symbol] = {}
        #: parent's identifier -> its members' identifiers, in the graphs' order
        self.members: Dict[str, List[str]] = {}
        #: type's identifier -> "Module.Protocol" names
        self.conformances: Dict[str, Set[str]] = {}
        self.superclass: Dict[str, str] = {}

    @classmethod
    def load(cls, files: Sequence[Path]) -> "Graph":
        graph = cls()
        fallbacks: Dict[str, str] = {}
        relationships: List[Dict[str, str]] = []
        for path in files:
            data = json.loads(path.read_text())
            module = data["module"]["name"]
            for raw in data["symbols"]:
                graph._add(raw, module)
            relationships += data.get("relationships", [])
        for relation in relationships:
            if "targetFallback" in relation:
                fallbacks[relation["target"]] = relation["targetFallback"]
        for relation in relationships:
            source, target, kind = relation["source"], relation["target"], relation["kind"]
            if kind == "memberOf":
                members = graph.members.setdefault(target, [])
                if source not in members:
                    members.append(source)
            elif kind == "conformsTo":
                graph.conformances.setdefault(source, set()).add(graph._protocol_name(target, fallbacks))
            elif kind == "inheritsFrom" and source in graph.symbols and graph.symbols[source].kind == "swift.class":
                graph.superclass[source] = target
        return graph

    def _add(self, raw: Dict[str, Any], module: str) -> None:
        usr = raw["identifier"]["precise"]
        if usr in self.symbols:
            return
        location = None
        if "location" in raw:
            position = raw["location"]["position"]
            location = (raw["location"]["uri"], position["line"], position["character"])
        doc = doc_text(raw["docComment"]["lines"]) if "docComment" in raw else ""
        generic = bool(raw.get("swiftGenerics", {}).get("parameters"))
        self.symbols[usr] = Symbol(usr, raw["kind"]["identifier"], tuple(raw["pathComponents"]), raw.get("accessLevel", ""),
                                   raw.get("declarationFragments", []), module, raw.get("functionSignature"), doc,
                                   location, generic)

    def _protocol_name(self, usr: str, fallbacks: Dict[str, str]) -> str:
        if usr in fallbacks:
            return fallbacks[usr]
        if usr in self.symbols:
            return "%s.%s" % (self.symbols[usr].module, self.symbols[usr].qualified)
        return usr

    def members_of(self, usr: str) -> List[Symbol]:
        return [self.symbols[member] for member in self.members.get(usr, []) if member in self.symbols]

    def conforms(self, usr: str, protocols: Iterable[str]) -> bool:
        """Whether the type or a superclass of it conforms to one of ``protocols``."""
        wanted = set(protocols)
        seen: Set[str] = set()
        while usr and usr not in seen:
            seen.add(usr)
            if self.conformances.get(usr, set()) & wanted:
                return True
            usr = self.superclass.get(usr, "")
        return False

    def hooks(self) -> List[Symbol]:
        """The functions that are a library's registration hook."""
        return [symbol for symbol in self.symbols.values()
                if symbol.kind == "swift.func" and HOOK.replace(" ", "") in symbol.text.replace(" ", "")]


#: A declaration's modifiers and attributes, as written before its ``var``, ``let``, ``func`` or
#: ``init``: what the symbol graph does not say of a setter.
_MODIFIERS = re.compile(
    r"(?<![\w@.)])((?:(?:@[\w.]+(?:\([^()]*\))?|(?:public|private|fileprivate|internal|package|open)(?:\(set\))?"
    r"|final|static|class|override|lazy|weak|unowned(?:\((?:safe|unsafe)\))?|nonisolated(?:\(unsafe\))?|dynamic"
    r"|required|convenience|mutating|nonmutating|indirect)\s+)*)(?:var|let)\s+\Z")

_sources: Dict[str, List[str]] = {}


def setter_access(symbol: Symbol) -> Optional[str]:
    """The access a property's setter is limited to by its declaration (``private(set)`` ->
    ``private``), or None when it is not limited (or the declaration cannot be read)."""
    if symbol.location is None or not symbol.location[0].startswith("file://"):
        return None
    uri, line, character = symbol.location
    if uri not in _sources:
        try:
            _sources[uri] = Path(uri[len("file://"):]).read_text().splitlines()
        except OSError:
            _sources[uri] = []
    lines = _sources[uri]
    if line >= len(lines):
        return None
    before = "\n".join(lines[max(0, line - 8):line] + [lines[line][:character]])
    found = _MODIFIERS.search(before)
    if not found:
        return None
    limited = re.search(r"\b(private|fileprivate|internal|package)\(set\)", found.group(1))
    return limited.group(1) if limited else None
