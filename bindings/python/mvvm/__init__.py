"""Python bindings of libmvvm: Swift view models through their C ABI (ctypes).

>>> import mvvm
>>> with mvvm.Loop.virtual() as loop, mvvm.SignUpViewModel(loop) as form:
...     seen = []
...     sub = form.subscribe("is_sign_up_enabled", lambda name, value: seen.append(value))
...     form.user_id, form.password, form.confirm_password = "newuser", "password1", "password1"
...     form.agreed = True
...     seen
[True]

Public API:

* Libraries: :func:`load` (a library by its path, a :class:`Library` namespace of its classes,
  records, ``Loop`` and ``Service``; several side by side) and the default library, found on
  first use (``MVVM_LIBRARY``, the package's copy, the build folders, the installed soname):
  its classes are module attributes, ``mvvm.<CamelName>`` for each C class
  (:class:`CountDownTimer`, :class:`SignUpViewModel`, ...), made from its own descriptions
  (``mvvm_classes``) as PyGObject makes them from a typelib; its records too
  (:class:`Record` classes); ``<Name>Request`` for each class with a host service;
  :data:`CLASSES` (C name -> class). ``import mvvm`` loads nothing.
* :class:`Loop` (``Loop.virtual()``, ``Loop.manual()``, ``Loop.thread()``) and every class's
  base, :class:`MvvmObject`; :class:`Subscription`; host services :class:`Service` (or any
  callable) and their requests (:class:`Request`).
* The package's operations as module functions, which a view model's members never hide:
  :func:`close`, :func:`is_closed`, :func:`subscribe`, :func:`get`, :func:`set`,
  :func:`call`, :func:`send`, :func:`child`, :func:`describe`, :func:`snapshot`,
  :func:`handle`, :func:`loop_of`, :func:`library_of`, :func:`class_name`,
  :func:`object_id`, :func:`new`.
* ``async`` commands: their methods return an :class:`AsyncCall`, a
  ``concurrent.futures.Future`` of the result that ``await`` takes (with the loop attached to
  asyncio, :func:`mvvm.aio.attach`); ``cancel()`` cancels it, as closing the object or loop does.
* Lists of child view models: a list property reads as an :class:`ObjectList` (a read-only
  ``Sequence`` of live items); its subscribers get a :class:`Splice` per change.
* Errors: :class:`MvvmError` and one subclass per ``mvvm_status`` (:class:`CommandError` when a
  command throws); :class:`MvvmLibraryError` (an ImportError) when no library can be loaded.
* :mod:`mvvm.aio`: asyncio integration.
* :data:`MAX_NESTED_CALLS`: how deep callbacks may nest, each changing what notifies the next;
  a deeper change raises :class:`InvalidArgumentError` (in that callback).
* :data:`fast_path`: whether the C extension ``mvvm._fast`` runs the hot paths (property reads
  and sets, event and completion callbacks), or ctypes runs everything; :data:`fast_path_reason`
  says why (``MVVM_FASTPATH=0`` turns it off; see the README's "The fast path").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List

# The package's top layer: it re-exports the layers below, none of which imports it (checked by
# tests/test_layout.py), and hands them what only it knows (its names, below).
from . import _build, _fastpath, _names  # noqa: F401 (_build registers the class builder with mvvm._library)
from ._abi import MAX_NESTED_CALLS, LoopKind, Status
from ._calls import AsyncCall
from ._conveniences import Subscriptions, bind
from ._errors import (
    BadRegistrationError,
    CallCancelledError,
    ClosedError,
    CommandError,
    InternalError,
    InvalidArgumentError,
    InvalidHandleError,
    LoopReleasedError,
    MvvmError,
    MvvmLibraryError,
    NullPointerError,
    ReadOnlyError,
    TypeMismatchError,
    UnknownNameError,
    UnknownRequestError,
    WrongLoopKindError,
    WrongThreadError,
    WrongTypeError,
)
from ._library import EXPECTED_VERSION, Library, default_library, load
from ._list import ObjectList, Splice, object_id
from ._loop import Loop
from ._object import MvvmObject, Subscription
from ._operations import (
    call,
    child,
    class_name,
    close,
    describe,
    get,
    handle,
    is_closed,
    library_of,
    loop_of,
    new,
    send,
    set,
    snapshot,
    subscribe,
)
from ._records import Record
from ._releases import release_pending
from ._requests import Request, Service, ServiceFunction, ServiceRequest
from ._values import AnyValue, Scalar

if TYPE_CHECKING:  # the default library's classes, as the generated stubs declare them
    from pathlib import Path
    from typing import Type

    from . import _classes
    from ._classes import *  # noqa: F401,F403

    #: The Python class of each class the default library registers, by C class name.
    CLASSES: Dict[str, Type[MvvmObject]]
    #: Where the default library was found, and its version.
    library_path: Path
    library_version: str

#: ``fn(name, value)``: a subscriber.
EventCallback = Callable[[str, Any], Any]

#: Whether the C extension (``mvvm._fast``) runs the hot paths; False: ctypes runs everything, the
#: same way (``MVVM_FASTPATH=0``, Python 3.9, free-threaded CPython, or no build of it). (Not in
#: __all__: a diagnostic, and no CamelCase class or record name can meet it.)
fast_path: bool = _fastpath.fast is not None
#: Why it is in use or not: ``"in use: PATH"`` or ``"not in use: WHY"``.
fast_path_reason: str = _fastpath.reason

__version__ = "0.4.0"

# The package's own names. A class or record of a library named as one of them is reachable with a
# trailing underscore (mvvm.Subscription_ for a class "subscription"); see mvvm._names.
__all__ = [
    "EXPECTED_VERSION",
    "MAX_NESTED_CALLS",
    "Library",
    "load",
    "default_library",
    "Loop",
    "LoopKind",
    "MvvmObject",
    "Subscription",
    "Subscriptions",
    "AsyncCall",
    "Request",
    "ServiceRequest",
    "Service",
    "ServiceFunction",
    "Record",
    "Scalar",
    "AnyValue",
    "EventCallback",
    "ObjectList",
    "Splice",
    "bind",
    "release_pending",
    "close",
    "is_closed",
    "handle",
    "loop_of",
    "library_of",
    "class_name",
    "object_id",
    "describe",
    "snapshot",
    "get",
    "set",
    "send",
    "call",
    "child",
    "subscribe",
    "new",
    "Status",
    "MvvmError",
    "InvalidHandleError",
    "ClosedError",
    "WrongTypeError",
    "NullPointerError",
    "InvalidArgumentError",
    "UnknownNameError",
    "ReadOnlyError",
    "TypeMismatchError",
    "WrongLoopKindError",
    "WrongThreadError",
    "UnknownRequestError",
    "InternalError",
    "LoopReleasedError",
    "CommandError",
    "CallCancelledError",
    "BadRegistrationError",
    "MvvmLibraryError",
]
if TYPE_CHECKING:
    __all__ += _classes.__all__
_names.reserve_package_names(__all__)  # no class or record of a library takes one of them


if not TYPE_CHECKING:  # (the checkers see the stubs' classes, not a module __getattr__)
    def __getattr__(name: str) -> Any:
        """The default library's classes, records and request classes (loading it on first use),
        its class table CLASSES, and where it was found (library_path, library_version)."""
        if name.startswith("_"):
            raise AttributeError("module 'mvvm' has no attribute %r" % name)
        library = default_library()
        if name == "CLASSES":
            return library.classes
        if name == "library_path":
            return library.path
        if name == "library_version":
            return library.version
        try:
            return getattr(library, name)
        except AttributeError:
            raise AttributeError("module 'mvvm' has no attribute %r (nor has %s a class or record of that name)"
                                 % (name, library)) from None

    def __dir__() -> List[str]:
        names = list(globals()) + ["CLASSES", "library_path", "library_version"]
        try:
            names += default_library().names
        except (MvvmLibraryError, MvvmError):
            pass
        return sorted(names)
