"""Whether the package's C extension, ``mvvm._fast``, runs the hot paths: decided once, as the
package is imported (:data:`mvvm.fast_path`; why, :data:`mvvm.fast_path_reason`).

The package is complete over ctypes. The extension (``mvvm/_fast.c``, CPython's limited API for
3.10: one ``_fast.abi3.so`` for every CPython from 3.10) replaces what it implements, the same
way: reading and setting properties (:mod:`mvvm._members`), the event and completion trampolines
(:mod:`mvvm._trampolines`) and each thread's callback depth (:mod:`mvvm._interrupts`). It is used
unless ``MVVM_FASTPATH=0``, or this Python cannot load it (3.9, a free-threaded build, another
implementation), or it is missing or fails to import (built nowhere: no compiler where the package
was built). Then ctypes runs everything, with nothing printed: :data:`fast` is None and
:data:`reason` says why. ``MVVM_FASTPATH=1`` demands the extension: importing the package then
raises ImportError saying why it cannot be used.

The modules that use it import :data:`fast` from here and choose their way once, at import.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from types import ModuleType
from typing import Optional, Tuple

__all__ = ["fast", "reason"]


def _unloadable() -> Optional[str]:
    """Why this Python cannot load an abi3 extension for 3.10, or None."""
    if sys.implementation.name != "cpython":
        return "%s is not CPython" % sys.implementation.name
    if sys.version_info < (3, 10):
        return "Python %d.%d (the extension needs CPython 3.10 or newer)" % sys.version_info[:2]
    if not getattr(sys, "_is_gil_enabled", lambda: True)() or ".abi3.so" not in importlib.machinery.EXTENSION_SUFFIXES:
        return "a free-threaded CPython, which loads no abi3 extension"
    return None


def _choose() -> Tuple[Optional[ModuleType], str]:
    setting = os.environ.get("MVVM_FASTPATH", "")
    if setting == "0":
        return None, "not in use: MVVM_FASTPATH=0"
    why = _unloadable()
    if why is None:
        try:
            from . import _fast
        except Exception as error:  # missing, or built for something else: ctypes does it all
            why = "mvvm._fast cannot be imported (%s: %s)" % (type(error).__name__, error)
        else:
            return _fast, "in use: %s" % _fast.__file__
    if setting == "1":
        raise ImportError("MVVM_FASTPATH=1, but the extension mvvm._fast cannot be used: %s" % why)
    return None, "not in use: " + why


#: The extension module, or None: ctypes runs everything.
fast: Optional[ModuleType]
#: Why it is in use or not: ``"in use: PATH"``, or ``"not in use: WHY"``.
reason: str
fast, reason = _choose()
