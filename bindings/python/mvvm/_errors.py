"""Exceptions: one class per ``mvvm_status``, all under :class:`MvvmError`.

Several classes also derive from the matching built-in exception, so ordinary Python code
catches them naturally:

==========================  ======  ===================================
class                       status  also a
==========================  ======  ===================================
InvalidHandleError          1
ClosedError                 1       (raised by the bindings: use after close)
WrongTypeError              2       TypeError
NullPointerError            3
InvalidArgumentError        4       ValueError
UnknownNameError            5       LookupError
ReadOnlyError               6       AttributeError
TypeMismatchError           7       TypeError
WrongLoopKindError          8
UnknownRequestError         9
InternalError               10
LoopReleasedError           11
==========================  ======  ===================================

:class:`MvvmLibraryError` is not an :class:`MvvmError`: it is an :class:`ImportError`, raised
when ``import mvvm`` cannot find or accept ``libmvvm.so``.
"""

from __future__ import annotations

import enum
from typing import Dict, List, Optional, Sequence, Tuple, Type

__all__ = [
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
    "error_for_status",
]


class Status(enum.IntEnum):
    """``mvvm_status``: what a C call did."""

    OK = 0
    ERR_INVALID_HANDLE = 1
    ERR_WRONG_TYPE = 2
    ERR_NULL_POINTER = 3
    ERR_INVALID_ARGUMENT = 4
    ERR_UNKNOWN_NAME = 5
    ERR_READ_ONLY = 6
    ERR_TYPE_MISMATCH = 7
    ERR_WRONG_LOOP_KIND = 8
    ERR_UNKNOWN_REQUEST = 9
    ERR_INTERNAL = 10
    ERR_LOOP_RELEASED = 11


class MvvmError(Exception):
    """Base of every error a libmvvm call (or the bindings' own checks) can raise.

    Attributes:
        status: the ``mvvm_status`` as an ``int`` (a :class:`Status` when known).
        message: the library's message, from ``mvvm_last_error()`` read on the failing thread
            right after the call, or the bindings' own message for checks made before C.
        function: the C function that failed, or ``None`` for a check made in Python.
    """

    default_status: int = -1

    def __init__(self, message: str, status: Optional[int] = None, function: Optional[str] = None) -> None:
        self.status: int = self.default_status if status is None else status
        self.message: str = message
        self.function: Optional[str] = function
        super().__init__(message)

    @property
    def status_name(self) -> str:
        try:
            return "MVVM_" + Status(self.status).name
        except ValueError:
            return "MVVM_UNKNOWN_STATUS(%d)" % self.status

    def __str__(self) -> str:
        where = "%s: " % self.function if self.function else ""
        return "%s%s [%s]" % (where, self.message, self.status_name)


class InvalidHandleError(MvvmError):
    """The handle is 0, released, stale or was never issued."""

    default_status = Status.ERR_INVALID_HANDLE


class ClosedError(InvalidHandleError):
    """The Python object was closed (its handle released): only ``close()`` is allowed."""


class WrongTypeError(MvvmError, TypeError):
    """The handle is of another class than the call needs."""

    default_status = Status.ERR_WRONG_TYPE


class NullPointerError(MvvmError):
    """``MVVM_ERR_NULL_POINTER``: a NULL pointer reached the library (a bindings bug)."""

    default_status = Status.ERR_NULL_POINTER


class InvalidArgumentError(MvvmError, ValueError):
    """Bad UTF-8 (a lone surrogate, an embedded NUL), a value out of range, an unknown
    command argument, a model of another loop."""

    default_status = Status.ERR_INVALID_ARGUMENT


class UnknownNameError(MvvmError, LookupError):
    """No such property, command, signal or child on this object."""

    default_status = Status.ERR_UNKNOWN_NAME


class ReadOnlyError(MvvmError, AttributeError):
    """The property is an output; only bindings can be set."""

    default_status = Status.ERR_READ_ONLY


class TypeMismatchError(MvvmError, TypeError):
    """The value's type is not the property's, the command's or the request's."""

    default_status = Status.ERR_TYPE_MISMATCH


class WrongLoopKindError(MvvmError):
    """A loop call for another kind of loop (``advance`` on a manual loop...)."""

    default_status = Status.ERR_WRONG_LOOP_KIND


class UnknownRequestError(MvvmError):
    """The request was already answered, cancelled, or its view model released."""

    default_status = Status.ERR_UNKNOWN_REQUEST


class InternalError(MvvmError):
    """``MVVM_ERR_INTERNAL``, or something the library gave that cannot be read (invalid UTF-8,
    an unknown type): a bug of the library or the bindings."""

    default_status = Status.ERR_INTERNAL


class LoopReleasedError(ClosedError):
    """The object's loop was released: the object can only be closed.

    A :class:`ClosedError`: an object whose loop was closed is closed too (its ``closed`` is
    true), so ``except ClosedError`` catches both."""

    default_status = Status.ERR_LOOP_RELEASED


_BY_STATUS: Dict[int, Type[MvvmError]] = {
    Status.ERR_INVALID_HANDLE: InvalidHandleError,
    Status.ERR_WRONG_TYPE: WrongTypeError,
    Status.ERR_NULL_POINTER: NullPointerError,
    Status.ERR_INVALID_ARGUMENT: InvalidArgumentError,
    Status.ERR_UNKNOWN_NAME: UnknownNameError,
    Status.ERR_READ_ONLY: ReadOnlyError,
    Status.ERR_TYPE_MISMATCH: TypeMismatchError,
    Status.ERR_WRONG_LOOP_KIND: WrongLoopKindError,
    Status.ERR_UNKNOWN_REQUEST: UnknownRequestError,
    Status.ERR_INTERNAL: InternalError,
    Status.ERR_LOOP_RELEASED: LoopReleasedError,
}


def error_for_status(status: int, message: str, function: Optional[str] = None) -> MvvmError:
    """The exception for a failed call; an unknown status gives a plain :class:`MvvmError`."""
    cls = _BY_STATUS.get(status, MvvmError)
    return cls(message, status, function)


class MvvmLibraryError(ImportError):
    """``libmvvm.so`` could not be found, loaded, or is of an incompatible version.

    An :class:`ImportError` (raised by ``import mvvm``), not an :class:`MvvmError`.

    Attributes:
        tried: ``(path, outcome)`` for every path tried, in order.
        version_found: the last library version seen, or ``None``.
        version_expected: ``(major, minor)`` the bindings need.
    """

    def __init__(self, tried: Sequence[Tuple[str, str]], version_expected: Tuple[int, int],
                 version_found: Optional[str] = None) -> None:
        self.tried: List[Tuple[str, str]] = list(tried)
        self.version_found: Optional[str] = version_found
        self.version_expected: Tuple[int, int] = version_expected
        lines = ["cannot load a compatible libmvvm (need version %d.%d.x, %d.%d or newer with the same major);"
                 % (version_expected[0], version_expected[1], version_expected[0], version_expected[1])]
        if version_found is not None:
            lines[0] += " version found: %s;" % version_found
        lines.append("paths tried:" if self.tried else "no path to try")
        lines.extend("  %s: %s" % (path, outcome) for path, outcome in self.tried)
        lines.append("to fix: in the repository, `make lib` (then `pip install ./bindings/python` again, or "
                     "`pip install -e ./bindings/python`); or `make wheel` and pip install build/wheel/mvvm-*.whl; "
                     "or `make install` (then `sudo ldconfig`, or LD_LIBRARY_PATH=PREFIX/lib) for libmvvm.so.%d; "
                     "or set MVVM_LIBRARY to libmvvm.so or its folder" % version_expected[0])
        super().__init__("\n".join(lines))
