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
* The catalog, named as in Swift: :class:`CountDownTimer`, :class:`TimerViewModel`,
  :class:`DisplayViewModel`, :class:`PlayerViewModel`, :class:`StopWatch`,
  :class:`StopWatchViewModel`, :class:`InputEchoViewModel`, :class:`SignUpViewModel`,
  :class:`WelcomeViewModel`, :class:`Counter`, :class:`RandomCounter`,
  :class:`CounterViewModel`, :class:`CounterPageViewModel`; their base :class:`MvvmObject`.
* :class:`Subscription`; host-service requests :class:`Request`, :class:`SignUpRequest`,
  :class:`WelcomeRequest`.
* Errors: :class:`MvvmError` and one subclass per ``mvvm_status``; :class:`MvvmLibraryError`
  (an ImportError) when the library cannot be loaded.
* :mod:`mvvm.aio`: asyncio integration.
* :data:`MAX_NESTED_CALLS`: how deep callbacks may nest, each changing what notifies the next;
  a deeper change raises :class:`InvalidArgumentError` (in that callback).
"""

from __future__ import annotations

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
from ._lib import EXPECTED_VERSION, MAX_NESTED_CALLS
from ._lib import path as library_path
from ._lib import version as library_version
from ._core import (
    Loop,
    LoopKind,
    MvvmObject,
    Request,
    Scalar,
    SignUpRequest,
    Subscription,
    WelcomeRequest,
    release_pending,
)
from ._catalog import (
    CountDownTimer,
    Counter,
    CounterPageViewModel,
    CounterViewModel,
    DisplayViewModel,
    InputEchoViewModel,
    PlayerViewModel,
    RandomCounter,
    SignUpViewModel,
    StopWatch,
    StopWatchViewModel,
    TimerViewModel,
    WelcomeViewModel,
)

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
    "SignUpRequest",
    "WelcomeRequest",
    "Scalar",
    "release_pending",
    "CountDownTimer",
    "TimerViewModel",
    "DisplayViewModel",
    "PlayerViewModel",
    "StopWatch",
    "StopWatchViewModel",
    "InputEchoViewModel",
    "SignUpViewModel",
    "WelcomeViewModel",
    "Counter",
    "RandomCounter",
    "CounterViewModel",
    "CounterPageViewModel",
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
