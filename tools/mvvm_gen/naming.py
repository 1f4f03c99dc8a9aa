"""The naming rule: the C name of a Swift name (snake case), the names the fixed ABI
(``include/mvvm.h``) declares, the keywords no name may be, and the name of each typed call a
class's member gets. One data file, ``naming.json``, holds the data; the generator names the
typed calls it writes and the members it derives by it, and the library's registration check
(``Sources/MVVMExport/Generated/Naming.swift``, rendered from the same file by ``--naming``)
refuses a registration whose names are keywords, or whose typed calls would take a name twice,
or one of the ABI's."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

from .templates import Templates

t = Templates("naming")

#: The data file, beside this module (the wheel ships it).
DATA = Path(__file__).resolve().parent / "naming.json"
#: Ruby's naming rule: the one file both the Ruby binding (bindings/ruby/lib/mvvm/names.rb) and
#: the signatures (ruby.py) read. (Python's is code, pynames.py, which the mvvm package imports.)
RUBY_DATA = Path(__file__).resolve().parent / "naming-ruby.json"
#: The JavaScript names the Node.js module gives: the rule's data lives beside the module that
#: renders JavaScript, bindings/node/naming.json (names.js reads it; the npm package carries it);
#: the mvvm wheel carries a copy as mvvm_gen/data/naming-js.json. See :func:`js_data`.
JS_DATA_SHIPPED = Path(__file__).resolve().parent / "data" / "naming-js.json"
JS_DATA_REPOSITORY = Path(__file__).resolve().parents[2] / "bindings" / "node" / "naming.json"


def js_data() -> Path:
    """The JavaScript naming rule's data file: the wheel's copy, else the checkout's."""
    for path in (JS_DATA_SHIPPED, JS_DATA_REPOSITORY):
        if path.is_file():
            return path
    raise ValueError("no JavaScript naming rule: neither %s (the mvvm wheel's copy) nor %s (a checkout's)"
                     % (JS_DATA_SHIPPED, JS_DATA_REPOSITORY))


#: The kinds of typed call, in the order the Swift table lists them.
KINDS = ("constructor", "command", "getter", "setter", "child")


@dataclass(frozen=True)
class Naming:
    #: kind -> pattern, such as "mvvm_{class}_get_{name}"
    patterns: Dict[str, str]
    #: every name the fixed ABI declares (functions and types), sorted
    abi_names: List[str]
    #: C's keywords (and ``errno``, a macro): no name may be one
    c_keywords: List[str]
    #: C++'s keywords besides C's: no argument may be one (a bare parameter name in the typed
    #: calls' declarations, which C++ compiles too)
    cpp_keywords: List[str]

    def typed_call(self, kind: str, cls: str, name: str) -> str:
        return self.patterns[kind].replace("{class}", cls).replace("{name}", name)


def load(path: Path = DATA) -> Naming:
    data = json.loads(path.read_text())
    patterns = data["typed_calls"]
    missing = [kind for kind in KINDS if kind not in patterns]
    if missing:
        raise ValueError("%s: no pattern for %s" % (path, ", ".join(missing)))
    for kind, pattern in patterns.items():
        if not re.fullmatch(r"mvvm_\{class\}_[a-z0-9_]*\{name\}[a-z0-9_]*", pattern):
            raise ValueError("%s: the %s pattern %r is not mvvm_{class}_..{name}.." % (path, kind, pattern))
    return Naming(patterns, sorted(data["abi_names"]), sorted(data["c_keywords"]), sorted(data["cpp_keywords"]))


def snake_case(name: str) -> str:
    """The C name of a Swift name, as the library names a class after its type
    (``Exports.snakeCase``, Sources/MVVMExport/Registry.swift) and a record's fields after their
    coding keys: ``TodoListViewModel`` -> ``todo_list_view_model``, ``userID`` -> ``user_id``,
    ``URLString`` -> ``url_string``. An underscore goes before a capital that follows a small
    letter or digit, or that ends a run of capitals before a small letter."""
    out = []
    for index, character in enumerate(name):
        if character.isupper():
            previous = name[index - 1] if index > 0 else ""
            following = name[index + 1] if index + 1 < len(name) else ""
            if previous and (previous.islower() or previous.isdigit() or (previous.isupper() and following.islower())):
                out.append("_")
            out.append(character.lower())
        else:
            out.append(character)
    return "".join(out)


def name_problem(naming: Naming, name: str, argument: bool = False) -> str:
    """Why ``name`` cannot be a C name the registration check accepts ("" when it can): a
    lower_snake identifier that is no C keyword (nor, for an argument, a C++ one)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        return "%s is not a lower_snake C identifier" % name
    if name in naming.c_keywords or (argument and name in naming.cpp_keywords):
        return "%s is a C%s keyword" % (name, "++" if name not in naming.c_keywords else "")
    return ""


def abi_names(header: Path) -> List[str]:
    """Every lower-case ``mvvm_`` name the header's fixed part declares or uses: its functions,
    types, enums and callbacks (the typed calls between the @generated markers excluded)."""
    text = re.sub(r"/\* @generated typed calls begin.*?@generated typed calls end \*/", "", header.read_text(), flags=re.S)
    code = re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))
    return sorted(set(re.findall(r"\bmvvm_[a-z0-9_]+\b", code)))


def data(naming: Naming, header: Path) -> str:
    """The data file as it should be: its patterns, and the ABI's names read from ``header``."""
    return json.dumps({
        "about": "The naming rule of libmvvm's C names, shared by the generator (mvvm_gen) and the "
                 "registration check (Sources/MVVMExport/Generated/Naming.swift, written from this file by "
                 "`make generate`). typed_calls: the name of each kind of member's typed call. abi_names: every "
                 "name include/mvvm.h's fixed ABI declares, which no typed call may take (written from the header). "
                 "c_keywords: no name may be one; cpp_keywords: no argument may be one either.",
        "typed_calls": {kind: naming.patterns[kind] for kind in KINDS},
        "abi_names": abi_names(header),
        "c_keywords": naming.c_keywords,
        "cpp_keywords": naming.cpp_keywords,
    }, indent=2) + "\n"


def swift_table(naming: Naming) -> str:
    """The Swift table the registration check reads: the ABI's names and a function per kind."""
    def interpolated(pattern: str) -> str:
        return pattern.replace("{class}", r"\(className)").replace("{name}", r"\(name)")
    functions = "\n".join(t("function", kind=kind, pattern=naming.patterns[kind], body=interpolated(naming.patterns[kind]))
                          for kind in KINDS)
    def listed(names: List[str]) -> str:
        return "\n".join(t("name", name=name) for name in names)
    return t("file", names=listed(naming.abi_names), c_keywords=listed(naming.c_keywords),
             cpp_keywords=listed(naming.cpp_keywords), functions=functions) + "\n"
