"""Loading ``libmvvm.so`` and declaring its generic C functions, once, in one table.

Where the library is looked for, in order:

1. ``MVVM_LIBRARY``: a path to ``libmvvm.so`` or to the folder holding it. When set, it is the
   only place tried: an explicit choice is never silently replaced by another library.
2. ``libmvvm.so`` inside this package's folder (a copy shipped with the package).
3. The repository's build folders, ``.build/debug/libmvvm.so`` (``make lib``) and
   ``.build/release/libmvvm.so``, the newer first (the one just built, not an old copy), under the
   first folder holding ``Package.swift`` found by walking up from this package.
4. The installed library, by its soname ``libmvvm.so.MAJOR`` (:data:`SONAME`, what ``make
   install`` installs): the dynamic loader's search (``LD_LIBRARY_PATH``, ``ld.so.cache``, the
   system folders). When it is not found there, ``ctypes.util.find_library("mvvm")``'s answer
   is tried too (another soname, such as an incompatible major, is then named in the error).

The first library that loads and whose ``mvvm_version()`` has the major version
:data:`EXPECTED_VERSION` has and a minor no lower than its minor is used. Otherwise
:class:`~mvvm.MvvmLibraryError` (an ``ImportError``) names every path tried, what happened
there, and the version found.

Every status-returning function gets an ``errcheck`` that turns a failure into the
:class:`~mvvm.MvvmError` subclass of its status, reading ``mvvm_last_error()`` on the same
thread right after the call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
from ctypes import POINTER, c_bool, c_char_p, c_double, c_int, c_int64, c_uint64, c_void_p
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import MvvmLibraryError, error_for_status

__all__ = [
    "EXPECTED_VERSION",
    "LIBRARY_NAME",
    "SONAME",
    "lib",
    "path",
    "version",
    "candidates",
    "load_library",
    "parse_version",
    "Value",
    "Event",
    "FlatEvent",
    "CALLBACK",
    "DESTROY_FN",
    "REQUEST_FN",
    "SIGNATURES",
]

#: (major, minor) these bindings were written for: ``include/mvvm.h``'s MVVM_VERSION_MAJOR/MINOR.
EXPECTED_VERSION: Tuple[int, int] = (0, 2)
LIBRARY_NAME = "libmvvm.so"
#: The installed library's soname (``make install``): ``libmvvm.so.MAJOR``.
SONAME = "libmvvm.so.%d" % EXPECTED_VERSION[0]

# mvvm_type
TYPE_NONE, TYPE_BOOL, TYPE_INT, TYPE_DOUBLE, TYPE_STRING, TYPE_OBJECT, TYPE_LIST = 0, 1, 2, 3, 4, 5, 6
# mvvm_event_kind
EVENT_PROPERTY, EVENT_SIGNAL, EVENT_SPLICE = 1, 2, 3
# mvvm_loop_kind
LOOP_MANUAL, LOOP_THREAD, LOOP_VIRTUAL = 0, 1, 2
#: ``MVVM_LOOP_TIME_LIMIT_MS``: the last instant of every loop's time (2^62 ns, about 146 years).
LOOP_TIME_LIMIT_MS = 4611686018427
#: ``MVVM_MAX_NESTED_CALLS``: how deep callbacks and host services may nest, each calling in.
MAX_NESTED_CALLS = 64


class Value(ctypes.Structure):
    """``mvvm_value``."""

    _fields_ = [
        ("type", c_int),
        ("boolean", c_bool),
        ("integer", c_int64),
        ("number", c_double),
        ("string", c_char_p),
        ("object", c_uint64),
    ]


class Event(ctypes.Structure):
    """``mvvm_event``."""

    _fields_ = [("kind", c_int), ("name", c_char_p), ("value", Value),
                # MVVM_EVENT_SPLICE only (0 otherwise); appended in 0.2
                ("index", c_int64), ("removed", c_int64), ("inserted", c_int64)]


class FlatEvent(ctypes.Structure):
    """``mvvm_event`` with its value's fields inline (the same layout): what the event trampoline
    reads, one ctypes object per event where ``Event`` makes two."""

    _fields_ = [
        ("kind", c_int),
        ("name", c_char_p),
        ("type", c_int),
        ("boolean", c_bool),
        ("integer", c_int64),
        ("number", c_double),
        ("string", c_char_p),
        ("object", c_uint64),
        ("index", c_int64),
        ("removed", c_int64),
        ("inserted", c_int64),
    ]


Handle = c_uint64
Status_t = c_int
#: mvvm_callback(source, event, user_data); the event comes as its address (``FlatEvent``
#: reads it), which ctypes hands over faster than a pointer object.
CALLBACK = ctypes.CFUNCTYPE(None, Handle, c_void_p, c_void_p)
#: mvvm_destroy_fn(user_data)
DESTROY_FN = ctypes.CFUNCTYPE(None, c_void_p)
#: mvvm_request_fn(view_model, request, argument, user_data)
REQUEST_FN = ctypes.CFUNCTYPE(None, Handle, Handle, POINTER(Value), c_void_p)

_H = Handle
_PH = POINTER(Handle)
_S = c_char_p  # a string in (NUL-terminated UTF-8, copied by the library)
_POUT_S = POINTER(c_void_p)  # a string out, allocated by the library: freed with mvvm_string_free
_PB = POINTER(c_bool)
_PI = POINTER(c_int64)
_PD = POINTER(c_double)
_PV = POINTER(Value)
_ST = Status_t

# The one table: every generic function of include/mvvm.h, name -> (restype, argtypes). The
# typed per-class calls (mvvm_<class>_<verb>, generated) are not declared: the classes are made
# at run time from mvvm_classes over these generic calls (see _dynamic.py).
# A restype of _ST (mvvm_status) also gets the errcheck that raises MvvmError subclasses.
SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    # Library
    "mvvm_version": (c_char_p, []),
    "mvvm_last_error": (c_char_p, []),
    "mvvm_status_name": (c_char_p, [c_int]),
    "mvvm_string_free": (None, [c_void_p]),
    "mvvm_value_free": (None, [c_void_p]),
    "mvvm_value_copy": (_ST, [c_void_p, c_void_p]),
    "mvvm_record_field": (_ST, [c_void_p, _S, POINTER(c_void_p)]),
    # Loops
    "mvvm_loop_new": (_ST, [c_int, _PH]),
    "mvvm_loop_fd": (_ST, [_H, POINTER(c_int)]),
    "mvvm_loop_dispatch": (_ST, [_H, _PI]),
    "mvvm_loop_next_timeout_ms": (_ST, [_H, _PI]),
    "mvvm_loop_run_for": (_ST, [_H, c_int64]),
    "mvvm_loop_advance": (_ST, [_H, c_int64]),
    "mvvm_loop_now_ms": (_ST, [_H, _PI]),
    # Objects: generic calls
    "mvvm_get_bool": (_ST, [_H, _S, _PB]),
    "mvvm_get_int": (_ST, [_H, _S, _PI]),
    "mvvm_get_double": (_ST, [_H, _S, _PD]),
    "mvvm_get_string": (_ST, [_H, _S, _POUT_S]),
    "mvvm_set_bool": (_ST, [_H, _S, c_bool]),
    "mvvm_set_int": (_ST, [_H, _S, c_int64]),
    "mvvm_set_double": (_ST, [_H, _S, c_double]),
    "mvvm_set_string": (_ST, [_H, _S, _S]),
    "mvvm_get": (_ST, [_H, _S, _PV]),
    "mvvm_set": (_ST, [_H, _S, _PV]),
    "mvvm_send": (_ST, [_H, _S, _PV]),
    "mvvm_call": (_ST, [_H, _S, _PV, ctypes.c_size_t, _PV]),
    "mvvm_call_named": (_ST, [_H, _S, POINTER(c_char_p), _PV, ctypes.c_size_t, _PV]),
    "mvvm_child": (_ST, [_H, _S, _PH]),
    "mvvm_list_count": (_ST, [_H, _S, _PI]),
    "mvvm_list_item": (_ST, [_H, _S, c_int64, _PH]),
    "mvvm_object_id": (_ST, [_H, _PI]),
    "mvvm_class_name": (_ST, [_H, POINTER(c_char_p)]),
    "mvvm_describe": (_ST, [_H, _POUT_S]),
    "mvvm_snapshot": (_ST, [_H, _POUT_S]),
    "mvvm_release": (_ST, [_H]),
    # Notifications
    "mvvm_subscribe": (_ST, [_H, _S, CALLBACK, c_void_p, DESTROY_FN, _PH]),
    "mvvm_unsubscribe": (_ST, [_H]),
    "mvvm_complete": (_ST, [_H, _PV]),
    "mvvm_complete_soon": (_ST, [_H, _PV]),
    # Classes
    "mvvm_classes": (_ST, [_POUT_S]),
    "mvvm_new": (_ST, [_H, _S, _PV, ctypes.c_size_t, _PH]),
    "mvvm_new_named": (_ST, [_H, _S, POINTER(c_char_p), _PV, ctypes.c_size_t, _PH]),
    "mvvm_service_new": (_ST, [REQUEST_FN, c_void_p, DESTROY_FN, _PH]),
}


def parse_version(text: str) -> Optional[Tuple[int, int, int]]:
    """``"MAJOR.MINOR.PATCH"`` (a suffix such as ``-dev`` is allowed) as a tuple, or ``None``."""
    match = re.match(r"^\s*(\d+)\.(\d+)\.(\d+)", text)
    if not match:
        return None
    return int(match.group(1)), int(match.group(2)), int(match.group(3))


def version_is_compatible(found: Tuple[int, int, int], expected: Tuple[int, int] = EXPECTED_VERSION) -> bool:
    """Same major, and a minor no lower than the expected one."""
    return found[0] == expected[0] and found[1] >= expected[1]


def _repository_root(start: Path) -> Optional[Path]:
    for folder in [start, *start.parents]:
        if (folder / "Package.swift").is_file():
            return folder
    return None


def candidates(environ: Optional[Dict[str, str]] = None,
               package_dir: Optional[Path] = None) -> List[Union[Path, str]]:
    """The paths tried, in order (see the module's documentation); a ``str`` is a name the dynamic
    loader searches for (:data:`SONAME`)."""
    env = os.environ if environ is None else environ
    explicit = env.get("MVVM_LIBRARY")
    if explicit:
        given = Path(explicit).expanduser()
        if given.is_dir():
            given = given / LIBRARY_NAME
        return [given.absolute()]
    here = Path(__file__).resolve().parent if package_dir is None else Path(package_dir)
    found: List[Union[Path, str]] = [here / LIBRARY_NAME]
    root = _repository_root(here)
    if root is not None:
        builds: List[Path] = [root / ".build" / "debug" / LIBRARY_NAME, root / ".build" / "release" / LIBRARY_NAME]
        builds.sort(key=_newest_first)
        found.extend(builds)
    found.append(SONAME)
    return found


def _newest_first(path: Path) -> int:
    """Sort key: the most recently built library first; one that does not exist last."""
    try:
        return -path.stat().st_mtime_ns
    except OSError:
        return 0


class _LinkMap(ctypes.Structure):
    _fields_ = [("l_addr", c_void_p), ("l_name", c_char_p)]  # the start of glibc's struct link_map


def _loaded_path(library: ctypes.CDLL, name: str) -> Path:
    """The file the dynamic loader loaded for ``name`` (dlinfo RTLD_DI_LINKMAP), else ``name``."""
    try:
        dlinfo = ctypes.CDLL(None).dlinfo
    except AttributeError:
        try:
            dlinfo = ctypes.CDLL("libdl.so.2").dlinfo
        except (OSError, AttributeError):
            return Path(name)
    dlinfo.argtypes = [c_void_p, c_int, c_void_p]
    dlinfo.restype = c_int
    link_map = POINTER(_LinkMap)()
    if dlinfo(library._handle, 2, ctypes.byref(link_map)) != 0 or not link_map or not link_map.contents.l_name:
        return Path(name)
    return Path(os.fsdecode(link_map.contents.l_name))


#: Set by ``_core``: raises the KeyboardInterrupt or SystemExit a callback of this call raised,
#: once the outermost call into the library on this thread has returned. ``interrupts_pending``
#: (how many are stored, on any thread) keeps that check off the common path.
interrupts_pending = 0
reraise_interrupt: Callable[[], None] = lambda: None


def _raise_for_status(result: int, func: Any, args: Tuple[Any, ...]) -> Tuple[Any, ...]:
    check_status(result, func.__name__)
    return args


def check_status(result: int, name: str) -> None:
    """What the errcheck does, for a call made through :func:`unchecked`: raises the
    KeyboardInterrupt a callback kept, or the MvvmError of a failed status. Call it on the
    same thread right after the call, when ``result`` is not 0 or ``interrupts_pending``."""
    if interrupts_pending:
        reraise_interrupt()
    if result != 0:
        # Same thread, right after the failing call: this is this call's message.
        raw = _last_error()
        message = raw.decode("utf-8", "replace") if raw else ""
        raise error_for_status(result, message or "(no message)", name)


def unchecked(name: str) -> Any:
    """``name`` declared as in SIGNATURES but without the errcheck, for the hottest calls (a
    Python function call per C call is a tenth of a setter's time): the caller checks the
    status itself with :func:`check_status`."""
    restype, argtypes = SIGNATURES[name]
    func = lib[name]  # a new function object: lib.name keeps its errcheck
    func.restype = restype
    func.argtypes = argtypes
    return func


_last_error: Callable[[], Optional[bytes]]


def _declare(library: ctypes.CDLL) -> None:
    global _last_error
    for name, (restype, argtypes) in SIGNATURES.items():
        func = getattr(library, name)
        func.restype = restype
        func.argtypes = argtypes
        if restype is _ST:
            func.errcheck = _raise_for_status
    _last_error = library.mvvm_last_error


def load_library(paths: Sequence[Union[Path, str]],
                 expected: Tuple[int, int] = EXPECTED_VERSION) -> Tuple[ctypes.CDLL, Path, str]:
    """Loads the first compatible library of ``paths`` (a ``str`` is a name for the dynamic
    loader's search); raises :class:`MvvmLibraryError`."""
    tried: List[Tuple[str, str]] = []
    version_found: Optional[str] = None
    queue: List[Union[Path, str]] = list(paths)
    while queue:
        candidate = queue.pop(0)
        if isinstance(candidate, str):
            try:
                library = ctypes.CDLL(candidate)
            except OSError:
                tried.append((candidate, "not found by the dynamic loader (LD_LIBRARY_PATH, ld.so.cache, "
                                         "the system folders: is it installed, with `make install`?)"))
                if candidate == SONAME:
                    other = ctypes.util.find_library("mvvm")
                    if other and other != SONAME and all(other != name for name, _ in tried):
                        queue.insert(0, other)
                continue
            loaded = _loaded_path(library, candidate)
            where = "%s (%s)" % (candidate, loaded)
        else:
            if not candidate.is_file():
                tried.append((str(candidate), "not found"))
                continue
            try:
                library = ctypes.CDLL(str(candidate))
            except OSError as error:
                tried.append((str(candidate), "cannot be loaded: %s" % error))
                continue
            where, loaded = str(candidate), candidate
        try:
            version_function = library.mvvm_version
        except AttributeError:
            tried.append((where, "has no mvvm_version(): not libmvvm"))
            continue
        # Probed with the table's own signature (the table stays the one source of signatures).
        version_function.restype, version_function.argtypes = SIGNATURES["mvvm_version"]
        raw = version_function() or b""
        text = raw.decode("utf-8", "replace")
        version_found = text
        parsed = parse_version(text)
        if parsed is None:
            tried.append((where, "unreadable version %r" % text))
            continue
        if not version_is_compatible(parsed, expected):
            tried.append((where, "version %s is incompatible" % text))
            continue
        missing = [name for name in SIGNATURES if not hasattr(library, name)]
        if missing:
            tried.append((where, "version %s lacks %s" % (text, ", ".join(missing))))
            continue
        return library, loaded, text
    raise MvvmLibraryError(tried, expected, version_found)


lib, path, version = load_library(candidates())
_declare(lib)
