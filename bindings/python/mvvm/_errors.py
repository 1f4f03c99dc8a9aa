"""Exceptions: one class per ``mvvm_status``, all under :class:`MvvmError`.

A failed call raises the class of its status with the library's own message
(``mvvm_last_error()``, read on the failing thread right after the call). Several classes also
derive from the matching built-in exception, so ordinary Python code catches them naturally:

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
LoopReleasedError           11      (a ClosedError)
CommandError                12
CallCancelledError          13
BadRegistrationError        14
==========================  ======  ===================================

The bindings raise a few of these themselves, with ``function`` None: :class:`ClosedError` for
an object they closed, :class:`InvalidArgumentError` for what C cannot be given at all (an int
beyond 64 bits, a name holding NUL), :class:`TypeMismatchError` for a Python object that is no
value (see :mod:`mvvm._values`), :class:`InternalError` for what the library gave that cannot
be read. Every other judgement of a value is the library's.

:class:`MvvmLibraryError` is not an :class:`MvvmError`: it is an :class:`ImportError`, raised
when a library cannot be loaded, or is no compatible libmvvm library.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple, Type

from ._abi import Status

# No __all__ of its own: the package's (mvvm.__all__) lists these classes, the one list of them,
# written out there because mypy re-exports only the names it reads literally in that list (it
# does not follow ``__all__ += _errors.__all__``). error_for_status is for the package itself.


class MvvmError(Exception):
    """Base of every error a libmvvm call (or the bindings' own few refusals) can raise.

    Attributes:
        status: the ``mvvm_status`` as an ``int`` (a :class:`Status` when known).
        message: the library's message, from ``mvvm_last_error()`` read on the failing thread
            right after the call, or the bindings' own message.
        function: the C function that failed, or ``None`` for the bindings' own refusals.
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
    """The handle is 0, released, stale, never issued, or of another library loaded beside."""

    default_status = Status.ERR_INVALID_HANDLE


class ClosedError(InvalidHandleError):
    """The Python object was closed (its handle released): only closing it again is allowed."""


class WrongTypeError(MvvmError, TypeError):
    """The handle is of another class than the call needs."""

    default_status = Status.ERR_WRONG_TYPE


class NullPointerError(MvvmError):
    """``MVVM_ERR_NULL_POINTER``: a NULL pointer reached the library (a bindings bug)."""

    default_status = Status.ERR_NULL_POINTER


class InvalidArgumentError(MvvmError, ValueError):
    """Bad UTF-8, a value out of range or not one of those allowed, "no value" for what is not
    optional, an argument missing or unknown, a model of another loop, a call nested too deep."""

    default_status = Status.ERR_INVALID_ARGUMENT


class UnknownNameError(MvvmError, LookupError):
    """No such class, property, command, signal or child."""

    default_status = Status.ERR_UNKNOWN_NAME


class ReadOnlyError(MvvmError, AttributeError):
    """The property is an output; only bindings can be set."""

    default_status = Status.ERR_READ_ONLY


class TypeMismatchError(MvvmError, TypeError):
    """The value's type is not the property's, the argument's or the request's."""

    default_status = Status.ERR_TYPE_MISMATCH


class WrongLoopKindError(MvvmError):
    """A loop call for another kind of loop (``advance`` on a manual loop...)."""

    default_status = Status.ERR_WRONG_LOOP_KIND


class WrongThreadError(MvvmError):
    """The call must be made on another thread: a main-actor object is used, and a main loop
    dispatched or run, only on the main thread (``Loop.main()``)."""

    default_status = Status.ERR_WRONG_THREAD


class UnknownRequestError(MvvmError):
    """The request was already answered, cancelled, or its view model released."""

    default_status = Status.ERR_UNKNOWN_REQUEST


class InternalError(MvvmError):
    """``MVVM_ERR_INTERNAL``, or something the library gave that cannot be read (invalid UTF-8,
    an unknown type): a bug of the library or the bindings."""

    default_status = Status.ERR_INTERNAL


class LoopReleasedError(ClosedError):
    """The object's loop was released (or the object was inherited through ``fork()``): the
    object can only be closed.

    A :class:`ClosedError`: an object whose loop was closed is closed too, so ``except
    ClosedError`` catches both."""

    default_status = Status.ERR_LOOP_RELEASED


class CommandError(MvvmError):
    """A command failed: its Swift code threw. ``message`` is the error's text; what the command
    changed before it threw has been notified all the same."""

    default_status = Status.ERR_COMMAND_FAILED


class CallCancelledError(MvvmError):
    """An asynchronous call was cancelled: by the host, or by the release of its object or of its
    object's loop. (Not :class:`asyncio.CancelledError`, which cancels a task.)"""

    default_status = Status.ERR_CANCELLED


class BadRegistrationError(MvvmError):
    """The library's registration breaks a rule (a name used twice, a name that is no C
    identifier, a class or record used but not registered, two copies linked by name...): it
    serves no class; ``message`` names every problem."""

    default_status = Status.ERR_BAD_REGISTRATION


_BY_STATUS: Dict[int, Type[MvvmError]] = {
    cls.default_status: cls
    for cls in (InvalidHandleError, WrongTypeError, NullPointerError, InvalidArgumentError, UnknownNameError,
                ReadOnlyError, TypeMismatchError, WrongLoopKindError, UnknownRequestError, InternalError,
                LoopReleasedError, CommandError, CallCancelledError, BadRegistrationError, WrongThreadError)
}


def error_for_status(status: int, message: str, function: Optional[str] = None) -> MvvmError:
    """The exception for a failed call; an unknown status gives a plain :class:`MvvmError`."""
    cls = _BY_STATUS.get(status, MvvmError)
    return cls(message, status, function)


class MvvmLibraryError(ImportError):
    """The library given to :func:`mvvm.load` (or a typed package's) cannot be loaded, or is not a
    compatible libmvvm library.

    An :class:`ImportError`, not an :class:`MvvmError`: raised by :func:`mvvm.load`, and so by the
    first use of a typed package's classes.

    Attributes:
        path: the library's path, as loaded (absolute).
        reason: what happened there ("not found", "version 1.0.0 is incompatible"...).
        version_found: the library's version, when it has one, or ``None``.
        version_expected: ``(major, minor)`` the bindings need.
    """

    def __init__(self, path: str, reason: str, version_expected: Tuple[int, int],
                 version_found: Optional[str] = None) -> None:
        self.reason = reason
        self.version_found: Optional[str] = version_found
        self.version_expected: Tuple[int, int] = version_expected
        lines = ["cannot load %s: %s" % (path, reason),
                 "need a libmvvm library of version %d.%d.x (%d.%d or newer with the same major)%s"
                 % (version_expected[0], version_expected[1], version_expected[0], version_expected[1],
                    "; version found: %s" % version_found if version_found is not None else ""),
                 "a library is a Swift package's dynamic library that links MVVMExport (docs/packages.md: such as "
                 "greeter/.build/debug/libgreeter.so); give mvvm.load its file, or import its typed package"]
        super().__init__("\n".join(lines), path=path)  # (ImportError's own path: the library's)
