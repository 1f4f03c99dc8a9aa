"""The Python names the mvvm package gives what a library registers, by its rule
(bindings/python/mvvm/_names.py), read from the data file ``naming-python.json``: a class or record
is its display name; a member or argument keeps its own name; a keyword, or a name taken, gets
trailing underscores (``class`` -> ``class_``); a class with a host service has a request class
``<Name>Request`` (a trailing ``ViewModel`` dropped). The Python suite checks the data file
against the package (tests/test_generator_names.py)."""

from __future__ import annotations

import json
from typing import Collection, Dict, Iterable, List, Sequence, Set, Tuple

from .naming import PYTHON_DATA

_DATA = json.loads(PYTHON_DATA.read_text())
#: Python's keywords.
KEYWORDS: Set[str] = set(_DATA["keywords"])
#: The mvvm package's own names (mvvm.__all__): no class or record takes one.
PACKAGE_NAMES: List[str] = list(_DATA["package_names"])
#: MvvmObject's public attributes: a member of one of these names wins it.
OBJECT_ATTRIBUTES: Set[str] = set(_DATA["object_attributes"])
#: A request class's own attributes: no property of its view model takes one.
REQUEST_ATTRIBUTES: Set[str] = set(_DATA["request_attributes"])


def request_name(class_name: str) -> str:
    """``SignUpViewModel`` -> ``SignUpRequest``, before :func:`free_name`."""
    if class_name.endswith("ViewModel") and class_name != "ViewModel":
        class_name = class_name[:-len("ViewModel")]
    return class_name + "Request"


def free_name(name: str, taken: Collection[str]) -> str:
    """``name``, with trailing underscores while it is a keyword or taken."""
    while name in KEYWORDS or name in taken:
        name += "_"
    return name


def python_names(names: Sequence[str], taken: Iterable[str] = ()) -> Dict[str, str]:
    """Each of ``names`` -> its Python name: itself, unless a keyword; the names themselves come
    first, so a member ``class_`` keeps its name and a member ``class`` becomes ``class__``."""
    used: List[str] = list(taken) + [name for name in names if name not in KEYWORDS]
    given: Dict[str, str] = {}
    for name in names:
        given[name] = free_name(name, used) if name in KEYWORDS else name
        used.append(given[name])
    return given


def namespace_names(classes: Sequence[Tuple[str, str]], records: Sequence[Tuple[str, str]],
                    with_service: Collection[str]) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str]]:
    """The Python names of a library's classes and records (each given as its C name and its
    display name; by C name) and of the request classes of those ``with_service``, none of them
    the package's own names or given twice."""
    used = set(PACKAGE_NAMES)

    def give(name: str) -> str:
        python = free_name(name, used)
        used.add(python)
        return python

    class_names = {name: give(display) for name, display in classes}
    record_names = {name: give(display) for name, display in records}
    request_names = {name: give(request_name(display)) for name, display in classes if name in with_service}
    return class_names, record_names, request_names
