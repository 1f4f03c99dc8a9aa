"""Libraries: finding, loading and checking a ``libmvvm`` (the catalog's, or a package of one's own
that links MVVMExport), declaring its generic C functions, and turning their statuses into
exceptions. Several libraries may be loaded side by side, each with its own functions: every
object calls only its own library.

:func:`load` loads the library at a path and gives its :class:`Library`, a namespace of its
classes and records, with its own :class:`~mvvm.Loop` and :class:`~mvvm.Service` (as
``gi.repository`` gives a typelib's). Nothing is loaded by ``import mvvm``: the default library,
behind ``mvvm.Counter``, ``mvvm.Loop.virtual()`` and the like, is found on first use
(:func:`default_library`), in this order:

1. ``MVVM_LIBRARY``: a path to the library or to the folder holding ``libmvvm.so``. When set, it
   is the only place tried: an explicit choice is never silently replaced by another library.
2. ``libmvvm.so`` inside this package's folder (a copy shipped with the package).
3. The repository's build folders, ``.build/debug/libmvvm.so`` (``make lib``) and
   ``.build/release/libmvvm.so``, the newer first (the one just built, not an old copy), under the
   first folder holding ``Package.swift`` found by walking up from this package.
4. The installed library, by its soname ``libmvvm.so.MAJOR`` (:data:`SONAME`, what ``make
   install`` installs): the dynamic loader's search (``LD_LIBRARY_PATH``, ``ld.so.cache``, the
   system folders). When it is not found there, ``ctypes.util.find_library("mvvm")``'s answer
   is tried too (another soname, such as an incompatible major, is then named in the error).

The first library that loads, has every generic function of the header and whose
``mvvm_version()`` has the major version :data:`EXPECTED_VERSION` has and a minor no lower than
its minor is used. Otherwise :class:`~mvvm.MvvmLibraryError` (an ``ImportError``) names every path
tried, what happened there, and the version found.

Every status-returning function gets an ``errcheck`` that turns a failure into the
:class:`~mvvm.MvvmError` subclass of its status, reading that library's ``mvvm_last_error()`` on
the same thread right after the call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _abi
from ._description import Description, descriptions
from ._errors import InternalError, MvvmError, MvvmLibraryError, error_for_status
from ._fastpath import fast
from ._interrupts import pending, raise_kept_interrupt
from ._names import package_names

if TYPE_CHECKING:
    from ._loop import Loop
    from ._records import Record
    from ._requests import Service

__all__ = ["EXPECTED_VERSION", "LIBRARY_NAME", "SONAME", "Library", "load", "default_library", "candidates",
           "load_library", "parse_version", "version_is_compatible", "register_namespace"]

#: (major, minor) these bindings were written for: ``include/mvvm.h``'s MVVM_VERSION_MAJOR/MINOR.
EXPECTED_VERSION: Tuple[int, int] = (_abi.VERSION_MAJOR, _abi.VERSION_MINOR)
LIBRARY_NAME = "libmvvm.so"
#: The installed library's soname (``make install``): ``libmvvm.so.MAJOR``.
SONAME = "libmvvm.so.%d" % EXPECTED_VERSION[0]
#: The restype of the functions that return an ``mvvm_status``.
STATUS = ctypes.c_int


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
    """The paths tried for the default library, in order (see the module's documentation); a
    ``str`` is a name the dynamic loader searches for (:data:`SONAME`)."""
    env = os.environ if environ is None else environ
    explicit = env.get("MVVM_LIBRARY")
    if explicit:
        return [_named_path(explicit)]
    here = Path(__file__).resolve().parent if package_dir is None else Path(package_dir)
    found: List[Union[Path, str]] = [here / LIBRARY_NAME]
    root = _repository_root(here)
    if root is not None:
        builds: List[Path] = [root / ".build" / "debug" / LIBRARY_NAME, root / ".build" / "release" / LIBRARY_NAME]
        builds.sort(key=_newest_first)
        found.extend(builds)
    found.append(SONAME)
    return found


def _named_path(given: Union[str, "os.PathLike[str]"]) -> Path:
    """A library's path as given: a folder means its ``libmvvm.so``."""
    path = Path(given).expanduser()
    if path.is_dir():
        path = path / LIBRARY_NAME
    return path.absolute()


def _newest_first(path: Path) -> int:
    """Sort key: the most recently built library first; one that does not exist last."""
    try:
        return -path.stat().st_mtime_ns
    except OSError:
        return 0


class _LinkMap(ctypes.Structure):
    _fields_ = [("l_addr", ctypes.c_void_p), ("l_name", ctypes.c_char_p)]  # the start of glibc's link_map


def _loaded_path(library: ctypes.CDLL, name: str) -> Path:
    """The file the dynamic loader loaded for ``name`` (dlinfo RTLD_DI_LINKMAP), else ``name``."""
    try:
        dlinfo = ctypes.CDLL(None).dlinfo
    except AttributeError:
        try:
            dlinfo = ctypes.CDLL("libdl.so.2").dlinfo
        except (OSError, AttributeError):
            return Path(name)
    dlinfo.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    dlinfo.restype = ctypes.c_int
    link_map = ctypes.POINTER(_LinkMap)()
    if dlinfo(library._handle, 2, ctypes.byref(link_map)) != 0 or not link_map or not link_map.contents.l_name:
        return Path(name)
    return Path(os.fsdecode(link_map.contents.l_name))


def load_library(paths: Sequence[Union[Path, str]],
                 expected: Tuple[int, int] = EXPECTED_VERSION) -> Tuple[ctypes.CDLL, Path, str]:
    """Opens the first compatible library of ``paths`` (a ``str`` is a name for the dynamic
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
        version_function.restype, version_function.argtypes = _abi.SIGNATURES["mvvm_version"]
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
        missing = [name for name in _abi.SIGNATURES if not hasattr(library, name)]
        if missing:
            tried.append((where, "version %s lacks %s" % (text, ", ".join(missing))))
            continue
        return library, loaded, text
    raise MvvmLibraryError(tried, expected, version_found)


class Functions:
    """The generic C functions of one library, as ctypes functions named as in the header
    (``functions.mvvm_get_int(...)``): a status other than MVVM_OK raises its
    :class:`~mvvm.MvvmError`."""

    def __init__(self, cdll: ctypes.CDLL, errcheck: Callable[..., Any]) -> None:
        for name, (restype, argtypes) in _abi.SIGNATURES.items():
            function = cdll[name]  # a function object of its own (cdll.name is shared)
            function.restype = restype
            function.argtypes = argtypes
            if restype is STATUS:
                function.errcheck = errcheck
            setattr(self, name, function)

    def __getattr__(self, name: str) -> Any:  # for the type checkers: every function is an attribute
        raise AttributeError("libmvvm has no generic function %r" % name)


class Library:
    """A loaded libmvvm: its classes and records by their Python names (``library.Counter``,
    ``library.Address``), its own :attr:`Loop` and :attr:`Service` classes, and how it was found.

    Every object made with it calls only this library. Names: each class is the CamelCase of its
    C name, each record too, and each class with a host service has a request class
    ``<Name>Request``; a name the package uses itself (``Loop``, ``Service``, ``Subscription``,
    ... :data:`mvvm.RESERVED_NAMES`), a Python keyword, or one already given, is reachable with a
    trailing underscore (a class ``subscription`` is ``library.Subscription_``). :attr:`classes`
    and :attr:`records` give them by C name."""

    #: The file loaded.
    path: Path
    #: Its ``mvvm_version()``.
    version: str
    #: Its ``mvvm_library_tag()``: every handle it issues carries it.
    tag: int
    #: Its generic C functions.
    functions: Functions
    #: The functions the C extension calls, found in the same loaded library (None without the
    #: fast path: :mod:`mvvm._fastpath`).
    fast_functions: Any
    #: Its :class:`~mvvm.Loop` class: loops of this library (``library.Loop.virtual()``).
    Loop: "type[Loop]"
    #: Its :class:`~mvvm.Service` class: host services of this library.
    Service: "type[Service]"

    def __init__(self, cdll: ctypes.CDLL, path: Path, version: str) -> None:
        self._cdll = cdll
        self.path = path
        self.version = version
        last_error = cdll["mvvm_last_error"]
        last_error.restype, last_error.argtypes = _abi.SIGNATURES["mvvm_last_error"]
        self._last_error: Callable[[], Optional[bytes]] = last_error
        self.functions = Functions(cdll, self._errcheck_function())
        self.fast_functions = fast.Functions(cdll._handle) if fast is not None else None
        self.tag = int(self.functions.mvvm_library_tag())
        self._description: Optional[Description] = None
        self._namespace: Optional[Any] = None
        self._lock = threading.RLock()  # (the namespace, made under it, reads the description)

    # -- statuses --------------------------------------------------------------------------

    def _errcheck_function(self) -> Callable[[int, Any, Tuple[Any, ...]], int]:
        """The errcheck of this library's functions (a plain function: it runs for every call)."""
        check = self.check

        def errcheck(result: int, func: Any, args: Tuple[Any, ...]) -> int:
            if result or pending.count:
                check(result, func.__name__)
            return result
        return errcheck

    def check(self, status: int, function: str) -> None:
        """What the errcheck does, for a call made through :meth:`unchecked`: raises the
        KeyboardInterrupt a callback kept, or the MvvmError of a failed status. Call it on the
        same thread right after the call, when ``status`` is not 0 or interrupts are pending."""
        if pending.count:
            raise_kept_interrupt()
        if status != 0:
            # Same thread, right after the failing call: this is this call's message.
            raw = self._last_error()
            message = raw.decode("utf-8", "replace") if raw else ""
            raise error_for_status(status, message or "(no message)", function)

    def unchecked(self, name: str) -> Any:
        """The function ``name`` without the errcheck, for the hottest calls (a Python function
        call per C call is a tenth of a setter's time): the caller checks with :meth:`check`."""
        restype, argtypes = _abi.SIGNATURES[name]
        function = self._cdll[name]
        function.restype = restype
        function.argtypes = argtypes
        return function

    def release_quietly(self, handle: int) -> None:
        """Releases ``handle``; one released already (by its loop, or answered) is no error."""
        try:
            self.functions.mvvm_release(handle)
        except MvvmError:
            pass

    # -- the description and the namespace ----------------------------------------------------

    def _described(self) -> Description:
        """The library's description, read on first use: its model, names and record classes."""
        described = self._description
        if described is None:
            with self._lock:
                if self._description is None:
                    self._description = Description(descriptions(self), package_names())
                described = self._description
        return described

    def _record_at(self, address: int) -> "type[Record]":
        """The record class of a record value the library gave (its name's address): made from
        the description's records alone, with no class of the library built."""
        return self._described().record_at(address)

    def _record_named(self, name: str) -> "type[Record]":
        """The record class of the record the description names ``name`` (its C name)."""
        return self._described().records[name]

    def _built(self) -> Any:
        """The namespace of the library's classes (:class:`mvvm._build.Namespace`), made on first
        use by the maker registered with :func:`register_namespace`."""
        namespace = self._namespace
        if namespace is None:
            with self._lock:
                if self._namespace is None:
                    if not _namespace_maker:
                        raise InternalError("no namespace maker is registered (mvvm._build registers it when "
                                            "the package is imported)")
                    self._namespace = _namespace_maker[0](self)
                namespace = self._namespace
        return namespace

    @property
    def classes(self) -> Dict[str, type]:
        """The Python class of each class the library registers, by C name, in its order."""
        return dict(self._built().classes)

    @property
    def records(self) -> Dict[str, type]:
        """The Python class of each record the library's classes use, by C name (made without
        building the classes)."""
        return dict(self._described().records)

    @property
    def names(self) -> List[str]:
        """The Python names of its classes, records and request classes."""
        return list(self._built().by_name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name in ("Loop", "Service"):
            return getattr(self._built(), name)
        record = self._described().records_by_python_name.get(name)  # a record needs no class built
        if record is not None:
            return record
        try:
            return self._built().by_name[name]
        except KeyError:
            raise AttributeError("%s has no class or record named %r" % (self, name)) from None

    def __dir__(self) -> Iterable[str]:
        return sorted(set(super().__dir__()) | {"Loop", "Service"} | set(self._built().by_name))

    def __repr__(self) -> str:
        return "<mvvm.Library %s %s>" % (self.path, self.version)


#: Makes a library's namespace of classes: mvvm._build.Namespace, registered by mvvm._build as it
#: is imported (class building sits above this module, which calls it and never imports it).
_namespace_maker: List[Callable[[Library], Any]] = []


def register_namespace(maker: Callable[[Library], Any]) -> None:
    """Makes ``maker(library)`` what builds each library's namespace of classes."""
    _namespace_maker[:] = [maker]


_libraries: Dict[int, Library] = {}
_libraries_lock = threading.RLock()
_default: List[Library] = []


def _library_of(cdll: ctypes.CDLL, path: Path, version: str) -> Library:
    with _libraries_lock:
        found = _libraries.get(cdll._handle)  # the dynamic loader gives one handle per library
        if found is None:
            found = _libraries[cdll._handle] = Library(cdll, path, version)
        return found


def load(path: Union[str, "os.PathLike[str]"]) -> Library:
    """The library at ``path`` (the file, or the folder holding ``libmvvm.so``), loaded (once:
    loading it again gives the same :class:`Library`) and its classes made. Libraries load side
    by side, each with its own loop and classes; a handle of one is never taken by another.
    Raises :class:`~mvvm.MvvmLibraryError` when it cannot be loaded or is incompatible, and
    :class:`~mvvm.BadRegistrationError` when its registration is refused."""
    cdll, loaded, version = load_library([_named_path(path)])
    library = _library_of(cdll, loaded, version)
    library._built()
    return library


def default_library() -> Library:
    """The library of ``mvvm.Counter``, ``mvvm.Loop()`` and the like: found on first use (see the
    module's documentation), then the same for the process's life."""
    if _default:
        return _default[0]
    with _libraries_lock:
        if not _default:
            cdll, loaded, version = load_library(candidates())
            _default.append(_library_of(cdll, loaded, version))
    return _default[0]
