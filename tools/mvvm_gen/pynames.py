"""The Python naming rule, the one file that states it: the names the ``mvvm`` package gives what a
library registers (it imports this module: bindings/python/mvvm/_description.py, _build.py,
_members.py, _records.py, _requests.py) and the names the stubs of a typed package give them
(:mod:`mvvm_gen.python`, beside this file). Standard library only: the generator imports no
binding, and the binding imports nothing else of the generator but the description's model.

* A class or a record is its display name, which the library's description gives (by default
  the CamelCase of its C name: ``login_view_model`` -> ``LoginViewModel``); a class with a
  host service also has a request class, ``<Name>Request`` (a trailing ``ViewModel`` dropped:
  ``LoginRequest``).
* A member (property, command, signal, child, model), and a command's or constructor's argument,
  keeps its own name: a view model's members win over the package's own API (a command ``close``
  is ``obj.close()``; the package's operations stay reachable as module functions,
  ``mvvm.close(obj)``).
* A name that is a Python keyword, or is taken (in a library's namespace by
  :data:`NAMESPACE_NAMES`, by another member, or by a name given before), gets a trailing
  underscore, as many as it takes: ``class`` -> ``class_``, an argument ``from`` -> ``from_``, a
  class ``loop`` -> ``Loop_``.
"""

from __future__ import annotations

import keyword
from typing import Collection, Dict, FrozenSet, Iterable, List, Sequence, Tuple

__all__ = ["KEYWORDS", "NAMESPACE_NAMES", "OBJECT_ATTRIBUTES", "REQUEST_ATTRIBUTES", "camel", "request_name",
           "free_name", "python_names", "namespace_names"]

#: Python's keywords: a member or argument of such a name takes a trailing underscore.
KEYWORDS: FrozenSet[str] = frozenset(keyword.kwlist)
#: What a library's namespace holds besides its classes, records and request classes: the
#: library's own loop and service classes (``library.Loop``, ``library.Service``, and a typed
#: package's). A class or record of such a name takes a trailing underscore (a class ``loop`` is
#: ``library.Loop_``). Display names are CamelCase, so no lower-case name (``library.path``, a
#: typed package's ``library``) can be taken by one.
NAMESPACE_NAMES: Tuple[str, ...] = ("Loop", "Service")
#: The public attributes of every object (``mvvm.MvvmObject``): a member of one of these names
#: wins it, and the stubs mark its type for the checkers. tests/test_naming.py holds the package's
#: MvvmObject to this list.
OBJECT_ATTRIBUTES: FrozenSet[str] = frozenset({
    "c_class", "call", "child", "class_name", "close", "closed", "describe", "get", "handle", "loop", "object_id",
    "send", "set", "snapshot", "subscribe"})
#: A request's own attributes (``mvvm.ServiceRequest``'s, and its ``argument``, ``state`` and
#: ``view_model``): no property of its view model takes one as the request's attribute.
#: tests/test_naming.py holds the package's ServiceRequest to this list.
REQUEST_ATTRIBUTES: FrozenSet[str] = frozenset({
    "argument", "cancel", "close", "closed", "complete", "complete_soon", "done", "handle", "result_type", "state",
    "view_model"})


def camel(name: str) -> str:
    """``login_view_model`` -> ``LoginViewModel``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def request_name(class_name: str) -> str:
    """The request class of a class with a host service (``LoginViewModel`` ->
    ``LoginRequest``), before :func:`free_name`."""
    if class_name.endswith("ViewModel") and class_name != "ViewModel":
        class_name = class_name[:-len("ViewModel")]
    return class_name + "Request"


def free_name(name: str, taken: Collection[str]) -> str:
    """``name``, with trailing underscores while it is a keyword or taken."""
    while name in KEYWORDS or name in taken:
        name += "_"
    return name


def python_names(names: Sequence[str], taken: Iterable[str] = ()) -> Dict[str, str]:
    """Each of ``names`` (a class's members, or a call's arguments) -> its Python name: itself,
    unless a keyword (or taken); the names themselves come first, so a member ``class_`` keeps
    its name and a member ``class`` becomes ``class__``."""
    used: List[str] = list(taken) + [name for name in names if name not in KEYWORDS]
    given: Dict[str, str] = {}
    for name in names:
        if name in KEYWORDS:
            given[name] = free_name(name, used)
            used.append(given[name])
        else:
            given[name] = name
    return given


def namespace_names(classes: Sequence[Tuple[str, str]], records: Sequence[Tuple[str, str]],
                    with_service: Collection[str]) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str]]:
    """The Python names of a library's classes and records (each given as its C name and its
    display name; by C name) and of the request classes of those ``with_service`` (by their
    class's C name), given in that order, none of them one of :data:`NAMESPACE_NAMES` or given
    twice."""
    used = set(NAMESPACE_NAMES)

    def give(name: str) -> str:
        python = free_name(name, used)
        used.add(python)
        return python

    class_names = {name: give(display) for name, display in classes}
    record_names = {name: give(display) for name, display in records}
    request_names = {name: give(request_name(display)) for name, display in classes if name in with_service}
    return class_names, record_names, request_names
