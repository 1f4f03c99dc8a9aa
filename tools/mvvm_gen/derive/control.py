"""The control file: what derivation cannot know, said only where it is needed.

A package may keep ``mvvm-derive.json`` beside its ``Package.swift`` (docs/packages.md, "The
control file")::

    {
      "about": "why these entries (free text)",
      "order": ["TodoListViewModel", "TodoItemViewModel"],
      "types": {
        "TodoListViewModel": {
          "name": "todo_list", "display": "TodoList", "doc": "...",
          "members": {
            "init(store:)": {"exclude": "the app's own store: the library makes one from a path"},
            "newTodoTitle": {"crosses_as": "TitleText", "doc": "..."},
            "storageError": {"name": "save_error"},
            "tapped": {"as": "command"},
            "init(pageSize:)": {"range": {"pageSize": [1, 100]}}
          }
        },
        "Scratch": {"exclude": "a test double"}
      }
    }

A type is named as Swift names it (``PlayerViewModel.Action`` for a nested one): a view model, a
part of one (``SignUpViewModel.Binding``: its members), or a record or enum its members use
(``name``, ``display``, ``doc``). A member is named by its Swift name: a property's
(``newTodoTitle``), a method's or initialiser's in full (``setAll(_:)``, ``init(store:)``) or by
its base name for every overload (``follow``). ``exclude`` leaves a class or member out, saying
why (in the derived file, with no warning); ``name`` gives the C name instead of the snake case of
the Swift name; ``crosses_as`` names an ``ExportableNarrowing`` type the property crosses as;
``as: "command"`` registers a subject (``PassthroughSubject``, ``CurrentValueSubject``) as a
command that sends its argument to it, the view's event, rather than as a signal; ``range``
refuses a constructor's integer argument outside ``[low, high]`` (by the argument's Swift name).
``order`` lists classes in the order they are registered, which is the order of the library's
description and of every file generated from it; the others follow in the order of the code. A
name the code does not have is refused, so that an entry cannot outlive what it controls."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet, Any, Dict, List, Optional, Set, Tuple

from .graph import DeriveError

#: The control file's name, beside the package's Package.swift.
FILE_NAME = "mvvm-derive.json"

_TYPE_KEYS = {"exclude", "name", "display", "doc", "members"}
_MEMBER_KEYS = {"exclude", "name", "doc", "crosses_as", "as", "range"}
#: What ``as`` may say: a subject registered as a command (the view's event).
AS_COMMAND = "command"


@dataclass
class MemberControl:
    exclude: Optional[str] = None
    name: Optional[str] = None
    doc: Optional[str] = None
    crosses_as: Optional[str] = None
    #: "command": a subject registered as a command that sends to it
    as_: Optional[str] = None
    #: a constructor's integer arguments, by Swift name: (low, high)
    range: Dict[str, Tuple[int, int]] = field(default_factory=dict)


@dataclass
class TypeControl:
    exclude: Optional[str] = None
    name: Optional[str] = None
    display: Optional[str] = None
    doc: Optional[str] = None
    members: Dict[str, MemberControl] = field(default_factory=dict)


@dataclass
class Control:
    path: Optional[Path] = None
    types: Dict[str, TypeControl] = field(default_factory=dict)
    #: classes by Swift name, in the order they are registered
    order: List[str] = field(default_factory=list)
    #: the entries the derivation used: any other names what the code does not have
    used: Set[Tuple[str, Optional[str]]] = field(default_factory=set)

    def type(self, swift_name: str) -> TypeControl:
        if swift_name in self.types:
            self.used.add((swift_name, None))
            return self.types[swift_name]
        return TypeControl()

    def member(self, type_name: str, member: str) -> MemberControl:
        """The entry of a member named in full (``add(title:)``), or by its base name."""
        members = self.types.get(type_name, TypeControl()).members
        for key in (member, member.split("(")[0]):
            if key in members:
                self.used.add((type_name, key))
                return members[key]
        return MemberControl()

    def unused(self, ordered: AbstractSet[str] = frozenset()) -> List[str]:
        """The entries that named no type or member the derivation met (``ordered``: the classes
        it registers, which ``order`` may name)."""
        found = ["order: %s" % name for name in self.order if name not in ordered]
        for type_name, entry in self.types.items():
            if (type_name, None) not in self.used:
                found.append(type_name)
            found += ["%s.%s" % (type_name, member) for member in entry.members if (type_name, member) not in self.used]
        return found


def _strings(entry: Dict[str, Any], keys: Set[str], where: str) -> None:
    unknown = sorted(set(entry) - keys)
    if unknown:
        raise DeriveError("%s: unknown key %s (known: %s)" % (where, ", ".join(unknown), ", ".join(sorted(keys))))
    for key, value in entry.items():
        if key not in ("members", "range") and not isinstance(value, str):
            raise DeriveError("%s: %s must be a string" % (where, key))
    if "as" in entry and entry["as"] != AS_COMMAND:
        raise DeriveError('%s: as %r is not "%s" (a subject registered as a command)' % (where, entry["as"], AS_COMMAND))
    if "range" in entry:
        ranges = entry["range"]
        if not isinstance(ranges, dict) or not all(
                isinstance(bounds, list) and len(bounds) == 2 and all(type(bound) is int for bound in bounds)
                and bounds[0] <= bounds[1] for bounds in ranges.values()):
            raise DeriveError("%s: range must map each argument's Swift name to [low, high], integers, low <= high" % where)
    if "name" in entry and not re.fullmatch(r"[a-z][a-z0-9_]*", entry["name"]):
        raise DeriveError("%s: name %r is not a lower_snake C identifier ([a-z][a-z0-9_]*)" % (where, entry["name"]))
    if "display" in entry and not re.fullmatch(r"[A-Z][A-Za-z0-9]*", entry["display"]):
        raise DeriveError("%s: display %r is not a CamelCase identifier ([A-Z][A-Za-z0-9]*)" % (where, entry["display"]))


def load(path: Path) -> Control:
    """The control file at ``path``; an empty control when there is none."""
    if not path.exists():
        return Control()
    try:
        data = json.loads(path.read_text())
    except ValueError as error:
        raise DeriveError("%s: not JSON: %s" % (path, error))
    if not isinstance(data, dict) or set(data) - {"about", "types", "order"} or not isinstance(data.get("types", {}), dict):
        raise DeriveError('%s: an object of "types" (and "order", "about") is expected' % path)
    order = data.get("order", [])
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order) or len(set(order)) != len(order):
        raise DeriveError("%s: order must be a list of class names, each once" % path)
    control = Control(path, order=order)
    for type_name, entry in data.get("types", {}).items():
        where = "%s: %s" % (path.name, type_name)
        if not isinstance(entry, dict):
            raise DeriveError("%s: an object is expected" % where)
        _strings(entry, _TYPE_KEYS, where)
        members = {}
        for member, settings in entry.get("members", {}).items():
            if not isinstance(settings, dict):
                raise DeriveError("%s.%s: an object is expected" % (where, member))
            _strings(settings, _MEMBER_KEYS, "%s.%s" % (where, member))
            settings = dict(settings)
            as_ = settings.pop("as", None)
            ranges = {name: (bounds[0], bounds[1]) for name, bounds in settings.pop("range", {}).items()}
            members[member] = MemberControl(**settings, as_=as_, range=ranges)
        control.types[type_name] = TypeControl(entry.get("exclude"), entry.get("name"), entry.get("display"),
                                               entry.get("doc"), members)
    return control
