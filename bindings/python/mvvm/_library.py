"""Libraries: loading a libmvvm library by its path (a Swift package's dynamic library that links
MVVMExport: one of your own, or an example's), checking it, declaring its generic C functions, and turning their statuses
into exceptions. Several libraries may be loaded side by side, each with its own functions:
every object calls only its own library.

There is no default library, as PyGObject has no default namespace (you ask for ``Gtk``): a
host loads a library by its path, :func:`load`, which gives its :class:`Library`, a namespace of
its classes and records with its own :class:`~mvvm.Loop` and :class:`~mvvm.Service` (as
``gi.repository`` gives a typelib's); or through a typed package (``python3 -m mvvm_gen
--py-package``, or a wheel of ``python3 -m mvvm_gen.package``), which loads the library beside
it so. ``import mvvm`` loads nothing.

A library is used when it loads, has every generic function of the header and its
``mvvm_version()`` has the major version of :data:`EXPECTED_VERSION` and a minor no lower than
its minor. Otherwise :class:`~mvvm.MvvmLibraryError` (an ``ImportError``) names the path, what
happened there, and the version found.

Every status-returning function gets an ``errcheck`` that turns a failure into the
:class:`~mvvm.MvvmError` subclass of its status, reading that library's ``mvvm_last_error()`` on
the same thread right after the call.
"""

from __future__ import annotations

import ctypes
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

from mvvm_gen.pynames import NAMESPACE_NAMES

from . import _abi
from ._description import Description, descriptions
from ._errors import InternalError, MvvmError, MvvmLibraryError, error_for_status
from ._fastpath import fast
from ._interrupts import pending, raise_kept_interrupt

if TYPE_CHECKING:
    from ._loop import Loop
    from ._records import Record
    from ._requests import Service

__all__ = ["EXPECTED_VERSION", "Library", "load", "open_library", "parse_version", "version_is_compatible",
           "register_namespace"]

#: (major, minor) these bindings were written for: ``include/mvvm.h``'s MVVM_VERSION_MAJOR/MINOR.
EXPECTED_VERSION: Tuple[int, int] = (_abi.VERSION_MAJOR, _abi.VERSION_MINOR)
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


def open_library(given: Union[str, "os.PathLike[str]"],
                 expected: Tuple[int, int] = EXPECTED_VERSION) -> Tuple[ctypes.CDLL, Path, str]:
    """Opens the library at ``given`` (a file: there is no search) and checks it: (its ctypes
    handle, its absolute path, its version); raises :class:`MvvmLibraryError` saying why not."""
    path = Path(given).expanduser().absolute()
    version: Optional[str] = None

    def refuse(why: str) -> MvvmLibraryError:
        return MvvmLibraryError(str(path), why, expected, version)

    if path.is_dir():
        raise refuse("is a folder: give the library's file (such as .build/debug/libgreeter.so)")
    if not path.is_file():
        raise refuse("not found")
    try:
        library = ctypes.CDLL(str(path))
    except OSError as error:
        raise refuse("cannot be loaded: %s" % error) from None
    try:
        version_function = library.mvvm_version
    except AttributeError:
        raise refuse("has no mvvm_version(): not a libmvvm library") from None
    version_function.restype, version_function.argtypes = _abi.SIGNATURES["mvvm_version"]
    found = version = (version_function() or b"").decode("utf-8", "replace")
    parsed = parse_version(found)
    if parsed is None:
        raise refuse("unreadable version %r" % found)
    if not version_is_compatible(parsed, expected):
        raise refuse("version %s is incompatible" % found)
    missing = [name for name in _abi.SIGNATURES if not hasattr(library, name)]
    if missing:
        raise refuse("version %s lacks %s" % (found, ", ".join(missing)))
    return library, path, found


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
    """A loaded libmvvm library (:func:`load`): its classes and records by their Python names
    (``library.Greeter``, ``library.Address``), its own :attr:`Loop` and :attr:`Service`
    classes, and where it was loaded from.

    Every object made with it calls only this library. Names (mvvm_gen/pynames.py, the Python
    naming rule): each class is its display name, the CamelCase of its C name by default, each
    record too, and each class with a host service has a request class ``<Name>Request``; a name
    that is the namespace's own (``Loop``, ``Service``) or already given is reachable with a
    trailing underscore (a class ``loop`` is ``library.Loop_``). :attr:`classes` and
    :attr:`records` give them by C name."""

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
                    self._description = Description(descriptions(self))
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
        if name in NAMESPACE_NAMES:
            return getattr(self._built(), name)
        record = self._described().records_by_python_name.get(name)  # a record needs no class built
        if record is not None:
            return record
        try:
            return self._built().by_name[name]
        except KeyError:
            raise AttributeError("%s has no class or record named %r" % (self, name)) from None

    def __dir__(self) -> Iterable[str]:
        return sorted(set(super().__dir__()) | set(NAMESPACE_NAMES) | set(self._built().by_name))

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


def _library_of(cdll: ctypes.CDLL, path: Path, version: str) -> Library:
    with _libraries_lock:
        found = _libraries.get(cdll._handle)  # the dynamic loader gives one handle per library
        if found is None:
            found = _libraries[cdll._handle] = Library(cdll, path, version)
        return found


def load(path: Union[str, "os.PathLike[str]"]) -> Library:
    """The library at ``path`` (its file), loaded (once: loading it again, by this path or
    another to the same file, gives the same :class:`Library`) and its classes made. Libraries
    load side by side, each with its own loop and classes; a handle of one is never taken by
    another. Raises :class:`~mvvm.MvvmLibraryError` when it cannot be loaded or is incompatible,
    and :class:`~mvvm.BadRegistrationError` when its registration is refused."""
    cdll, loaded, version = open_library(path)
    library = _library_of(cdll, loaded, version)
    library._built()
    return library
