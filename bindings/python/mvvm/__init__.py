"""Python bindings of libmvvm: the Swift MVVM catalog through its C ABI (ctypes).

>>> import mvvm
>>> with mvvm.Loop.virtual() as loop, mvvm.SignUpViewModel(loop) as form:
...     seen = []
...     sub = form.subscribe("is_sign_up_enabled", lambda name, value: seen.append(value))
...     form.user_id, form.password, form.confirm_password = "newuser", "password1", "password1"
...     form.agreed = True
...     seen
[True]

Public API:

* :class:`Loop` (``Loop.virtual()``, ``Loop.manual()``, ``Loop.thread()``).
* The library's classes, made when it loads from its own descriptions (``mvvm_classes``), as
  PyGObject makes them from a typelib: ``mvvm.<CamelName>`` for each C class (the catalog's
  :class:`CountDownTimer`, :class:`SignUpViewModel`, …; a library of your own, loaded through
  ``MVVM_LIBRARY``, gives its own), with their base :class:`MvvmObject`; ``<Name>Request`` for
  each class with a host service (:class:`SignUpRequest`, :class:`WelcomeRequest`);
  :data:`CLASSES` (C name -> class); :func:`new` (the generic constructor, ``mvvm_new``).
* Lists of child view models: a list property reads as an :class:`ObjectList` (a read-only
  ``Sequence`` of live items); its subscribers get a :class:`Splice` per change;
  :func:`object_id` (also ``obj.object_id``) tells items apart.
* :class:`Subscription`; host services :class:`Service` (or any callable) and their requests
  (:class:`Request`).
* Errors: :class:`MvvmError` and one subclass per ``mvvm_status``; :class:`MvvmLibraryError`
  (an ImportError) when the library cannot be loaded.
* :mod:`mvvm.aio`: asyncio integration.
* :data:`MAX_NESTED_CALLS`: how deep callbacks may nest, each changing what notifies the next;
  a deeper change raises :class:`InvalidArgumentError` (in that callback).
"""

from __future__ import annotations

# The library's classes first: a class whose name is also one of the names below yields to it
# (it stays in CLASSES and mvvm._classes).
from ._classes import *  # noqa: F401,F403
from ._classes import __all__ as _class_names
from ._errors import (
    ClosedError,
    InternalError,
    InvalidArgumentError,
    InvalidHandleError,
    LoopReleasedError,
    MvvmError,
    MvvmLibraryError,
    NullPointerError,
    ReadOnlyError,
    Status,
    TypeMismatchError,
    UnknownNameError,
    UnknownRequestError,
    WrongLoopKindError,
    WrongTypeError,
)
from ._callbacks import EventCallback
from ._lib import EXPECTED_VERSION, MAX_NESTED_CALLS
from ._lib import path as library_path
from ._lib import version as library_version
from ._core import (
    Loop,
    LoopKind,
    MvvmObject,
    Request,
    Scalar,
    Subscription,
    release_pending,
)
from ._dynamic import Service, ServiceRequest, new
from ._list import ObjectList, Splice, object_id
from ._dynamic import classes as _classes_by_c_name
from ._requests import ServiceFunction
from ._conveniences import Subscriptions, bind

#: The Python class of each class the library registers, by C class name.
CLASSES = _classes_by_c_name()

__version__ = "0.1.0"

__all__ = [
    "EXPECTED_VERSION",
    "MAX_NESTED_CALLS",
    "library_path",
    "library_version",
    "Loop",
    "LoopKind",
    "MvvmObject",
    "Subscription",
    "Request",
    "ServiceRequest",
    "Service",
    "Scalar",
    "EventCallback",
    "Subscriptions",
    "bind",
    "ServiceFunction",
    "release_pending",
    "CLASSES",
    "new",
    "ObjectList",
    "Splice",
    "object_id",
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
    "UnknownRequestError",
    "InternalError",
    "LoopReleasedError",
    "MvvmLibraryError",
]
# And the library's classes (a class named as one of the names above stays in CLASSES only).
__all__ += [name for name in _class_names if name not in __all__]
