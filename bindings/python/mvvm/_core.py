"""The bindings' runtime, by concern (as the Ruby bindings are split):

* :mod:`mvvm._values`: strings and values between Python and C, checks before C;
* :mod:`mvvm._callbacks`: the registry, the C trampolines, callback depth, deferred releases,
  reporting a callback's exception;
* :mod:`mvvm._owner`: :class:`~mvvm._owner.Owner`, the base of every handle-owning class
  (``close``, finalizer, context manager, ``_as_parameter_``);
* :mod:`mvvm._loop`: loops and interpreter exit;
* :mod:`mvvm._object`: objects, subscriptions and the descriptors of the generated classes;
* :mod:`mvvm._requests`: host services and their requests.

This module re-exports them under their old names (``mvvm._core.registry``, ...).
"""

from __future__ import annotations

from ._callbacks import (  # noqa: F401
    _DESTROY_TRAMPOLINE,
    _EVENT_TRAMPOLINE,
    _REQUEST_TRAMPOLINE,
    EventCallback,
    _callable_name,
    _Entry,
    _pending,
    _release_now,
    _release_soon,
    _report,
    _state,
    in_callback,
    registry,
    release_pending,
)
from ._loop import Loop, LoopKind, _live_loops  # noqa: F401
from ._object import _CLASSES, MvvmObject, Subscription  # noqa: F401
from ._owner import Owner, _NotCopyable  # noqa: F401
from ._requests import Request  # noqa: F401
from ._values import (  # noqa: F401
    Scalar,
    _check_int64,
    _check_typed,
    _decode,
    _encode,
    _get_generic,
    _take_string,
    _value_from_c,
    _value_to_c,
)

__all__ = [
    "LoopKind",
    "Loop",
    "MvvmObject",
    "Owner",
    "Subscription",
    "Request",
    "Scalar",
    "EventCallback",
    "registry",
    "in_callback",
    "release_pending",
]
