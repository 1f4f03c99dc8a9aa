"""Python bindings of libmvvm: Swift view models through their C ABI (ctypes).

A library is loaded by its path, as PyGObject's namespaces are asked for by name; its classes are
made from its own description (``mvvm_classes``) at run time:

>>> import mvvm
>>> greeter = mvvm.load(path)       # a library of yours, such as "greeter/.build/debug/libgreeter.so"
>>> with greeter.Loop.virtual() as loop, greeter.Greeter(loop) as hello:
...     heard = []
...     sub = hello.subscribe("greeting", lambda name, value: heard.append(value))
...     hello.name = "Ada"
...     heard == [hello.greeting]
True

Public API:

* Libraries: :func:`load` (a library by its path: a :class:`Library` namespace of its classes,
  by their Python names (``greeter.Greeter``), its records (:class:`Record` classes),
  ``<Name>Request`` for each class with a host service, and its own ``Loop`` and ``Service``;
  several side by side). There is no default library: a host loads one by its path, or imports
  its typed package (``python3 -m mvvm_gen --py-package``, or a wheel of ``python3 -m
  mvvm_gen.package``: the same classes as module attributes, typed for mypy and pyright).
  ``import mvvm`` loads nothing.
* :class:`Loop`, the base of every library's loop class: a loop belongs to a library
  (``greeter.Loop.virtual()``, ``.manual()``, ``.main()``, ``.thread()``); every class's base,
  :class:`MvvmObject`; :class:`Subscription`; host services (a library's ``Service``, base
  :class:`Service`, or any callable) and their requests (:class:`Request`).
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
  command throws); :class:`MvvmLibraryError` (an ImportError) when a library cannot be loaded.
* :mod:`mvvm.aio`: asyncio integration.
* :data:`MAX_NESTED_CALLS`: how deep callbacks may nest, each changing what notifies the next;
  a deeper change raises :class:`InvalidArgumentError` (in that callback).
* :data:`fast_path`: whether the C extension ``mvvm._fast`` runs the hot paths (property reads
  and sets, event and completion callbacks), or ctypes runs everything; :data:`fast_path_reason`
  says why (``MVVM_FASTPATH=0`` turns it off; see the README's "The fast path").
"""

from __future__ import annotations

from typing import Any, Callable

# The package's top layer: it re-exports the layers below, none of which imports it (checked by
# tests/test_layout.py).
from . import _build, _fastpath  # noqa: F401 (_build registers the class builder with mvvm._library)
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
from ._library import EXPECTED_VERSION, Library, load
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

#: ``fn(name, value)``: a subscriber.
EventCallback = Callable[[str, Any], Any]

#: Whether the C extension (``mvvm._fast``) runs the hot paths; False: ctypes runs everything, the
#: same way (``MVVM_FASTPATH=0``, Python 3.9, free-threaded CPython, or no build of it). (Not in
#: __all__: a diagnostic, and no CamelCase class or record name can meet it.)
fast_path: bool = _fastpath.fast is not None
#: Why it is in use or not: ``"in use: PATH"`` or ``"not in use: WHY"``.
fast_path_reason: str = _fastpath.reason

__version__ = "0.5.0"

__all__ = [
    "EXPECTED_VERSION",
    "MAX_NESTED_CALLS",
    "Library",
    "load",
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
