"""Reporting an exception no caller can receive (a callback's, a service's, a finalizer's) through
``sys.unraisablehook``, with a message naming the callable; the library carries on."""

from __future__ import annotations

import sys
from typing import Any, List

__all__ = ["report", "callable_name"]


def callable_name(fn: Any) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    module = getattr(fn, "__module__", None)
    if name is None:
        return repr(fn)
    return "%s.%s" % (module, name) if module else name


def _unraisable_args_type() -> Any:
    """``sys.UnraisableHookArgs`` (not exposed by name before some versions): found by
    letting one unraisable exception through a temporary hook."""
    known = getattr(sys, "UnraisableHookArgs", None)
    if known is not None:
        return known
    seen: List[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = seen.append

    class _Probe:
        def __del__(self) -> None:
            raise RuntimeError("probe")

    try:
        _Probe()
    finally:
        sys.unraisablehook = previous
    if seen:
        kind = type(seen[0])
        try:
            kind((None, None, None, None, None))
            return kind
        except TypeError:
            pass
    return None


_UnraisableHookArgs = _unraisable_args_type()


class _FallbackUnraisableHookArgs:
    __slots__ = ("exc_type", "exc_value", "exc_traceback", "err_msg", "object")

    def __init__(self, exc_type: Any, exc_value: Any, exc_traceback: Any, err_msg: Any, obj: Any) -> None:
        self.exc_type, self.exc_value, self.exc_traceback = exc_type, exc_value, exc_traceback
        self.err_msg, self.object = err_msg, obj


def report(exc: BaseException, message: str, obj: Any) -> None:
    """Reports ``exc`` through ``sys.unraisablehook`` with ``message``; never raises."""
    try:
        hook = getattr(sys, "unraisablehook", None)
        if hook is None:
            return
        fields = (type(exc), exc, exc.__traceback__, message, obj)
        if _UnraisableHookArgs is not None:
            hook(_UnraisableHookArgs(fields))
        elif hook is getattr(sys, "__unraisablehook__", None):
            import traceback

            sys.stderr.write("%s: %r\n" % (message, obj))
            traceback.print_exception(type(exc), exc, exc.__traceback__)
        else:
            hook(_FallbackUnraisableHookArgs(*fields))
    except BaseException:
        pass
