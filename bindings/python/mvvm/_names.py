"""Python names of what a library registers, by one rule everywhere (attributes, keyword
arguments, classes, the stubs):

* a class or a record is its display name, which the library's description gives (by default
  the CamelCase of its C name: ``sign_up_view_model`` -> ``SignUpViewModel``); a class with a host service also has a request class, ``<Name>Request``
  (``SignUpRequest``: a trailing ``ViewModel`` is dropped);
* a member (property, command, signal, child, model), and a command's or constructor's argument,
  keeps its own name: a view model's members win over the package's own API (a command
  ``close`` is ``obj.close()``; the package's operations stay reachable as module functions,
  ``mvvm.close(obj)``);
* a name that is a Python keyword, or is taken (by the package's own names for classes, by
  another member, or by a name given before), gets a trailing underscore, as many as it takes:
  ``class`` -> ``class_``, an argument ``from`` -> ``from_``, a class ``subscription`` ->
  ``Subscription_``.
"""

from __future__ import annotations

import keyword
from typing import Collection, Dict, Iterable, List, Sequence, Tuple

__all__ = ["camel", "request_name", "free_name", "python_names", "namespace_names", "package_names",
           "reserve_package_names"]

#: The package's own names (``mvvm.__all__``), which the package's ``__init__`` hands in as it
#: loads: a module this low does not import the package.
_package_names: List[str] = []


def reserve_package_names(names: Iterable[str]) -> None:
    """Makes ``names`` the package's own names, which no class or record of a library takes."""
    _package_names[:] = names


def package_names() -> List[str]:
    """The names the package itself gives (``mvvm.__all__``): a class or record named as one of
    them is reachable with a trailing underscore."""
    return list(_package_names)


def camel(name: str) -> str:
    """``sign_up_view_model`` -> ``SignUpViewModel``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def request_name(class_name: str) -> str:
    """The request class of a class with a host service (``SignUpViewModel`` ->
    ``SignUpRequest``), before :func:`free_name`."""
    if class_name.endswith("ViewModel") and class_name != "ViewModel":
        class_name = class_name[:-len("ViewModel")]
    return class_name + "Request"


def free_name(name: str, taken: Collection[str]) -> str:
    """``name``, with trailing underscores while it is a keyword or taken."""
    while keyword.iskeyword(name) or name in taken:
        name += "_"
    return name


def python_names(names: Sequence[str], taken: Iterable[str] = ()) -> Dict[str, str]:
    """Each of ``names`` (a class's members, or a call's arguments) -> its Python name: itself,
    unless a keyword (or taken); the names themselves come first, so a member ``class_`` keeps
    its name and a member ``class`` becomes ``class__``."""
    used: List[str] = list(taken) + [name for name in names if not keyword.iskeyword(name)]
    given: Dict[str, str] = {}
    for name in names:
        if keyword.iskeyword(name):
            python = free_name(name, used)
            used.append(python)
            given[name] = python
        else:
            given[name] = name
    return given


def namespace_names(classes: Sequence[Tuple[str, str]], records: Sequence[Tuple[str, str]],
                    with_service: Collection[str],
                    taken: Iterable[str]) -> Tuple[Dict[str, str], Dict[str, str], Dict[str, str]]:
    """The Python names of a library's classes and records (each given as its C name and its
    display name; by C name) and of the request classes of those ``with_service`` (by their
    class's C name), given in that order, none of them ``taken`` (the package's own names) or
    given twice."""
    used = set(taken)

    def give(name: str) -> str:
        python = free_name(name, used)
        used.add(python)
        return python

    class_names = {name: give(display) for name, display in classes}
    record_names = {name: give(display) for name, display in records}
    request_names = {name: give(request_name(display)) for name, display in classes if name in with_service}
    return class_names, record_names, request_names
