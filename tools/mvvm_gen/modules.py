"""Which classes of a library a typed surface covers: those of the Swift modules asked for, or by
default every module's but the catalog's. A library composed of several packages (docs/packages.md)
gets one typed surface: one header, one stub file, one wheel."""

from __future__ import annotations

from typing import Iterable, List, Optional

from .model import GenerationError, Library

__all__ = ["CATALOG_MODULES", "module_list", "choose", "modules_of", "named"]

#: The Swift modules the catalog's classes are declared in (Sources/MVVMCatalog registers them).
CATALOG_MODULES = ("MVVMCatalog", "MVVMViewModels", "MVVMModels")


def module_list(given: Optional[Iterable[str]]) -> List[str]:
    """``--module A --module B`` or ``--module A,B`` (or both): the modules, in order, once each."""
    modules: List[str] = []
    for item in given or []:
        for module in item.split(","):
            module = module.strip()
            if module and module not in modules:
                modules.append(module)
    return modules


def choose(whole: Library, modules: List[str]) -> Library:
    """The classes of ``modules``; with none given, every class but the catalog's (all of them
    when the library is the catalog alone: libcatalog.so)."""
    if modules:
        chosen = Library([cls for cls in whole.classes if cls.swift_module in modules])
        if not chosen.classes:
            found = sorted({cls.swift_module for cls in whole.classes if cls.swift_module})
            raise GenerationError("the library registers no class of module %s (its modules: %s)"
                                  % (" or ".join(modules), ", ".join(found) or "none"))
        return chosen
    own = Library([cls for cls in whole.classes if cls.swift_module not in CATALOG_MODULES])
    return own if own.classes else whole


def modules_of(library: Library) -> List[str]:
    """The Swift modules whose classes ``library`` holds, in the order first met."""
    found: List[str] = []
    for cls in library.classes:
        if cls.swift_module and cls.swift_module not in found:
            found.append(cls.swift_module)
    return found


def named(modules: List[str]) -> str:
    """What the generated files call the modules they cover: "Swift module M", "Swift modules A, B"."""
    return ("Swift module %s" if len(modules) == 1 else "Swift modules %s") % ", ".join(modules)
