"""The package's own operations on objects, as module functions: the route no member can take.

A view model's members win their names (a command ``close`` is ``dialog.close()``; a property
``description`` is ``dialog.description``), so ``obj.close()`` may not be the package's close.
``mvvm.close(obj)``, ``mvvm.subscribe(obj, ...)``, ``mvvm.get(obj, name)`` and the others below
always are. The object methods of the same names call the same code when no member hides them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, TypeVar, Union, overload

from ._conveniences import Subscriptions
from ._loop import Loop
from ._object import _NO_ARGUMENT, MvvmObject, Subscription
from ._owner import Owner
from ._values import encode_name

if TYPE_CHECKING:
    from ._library import Library

__all__ = ["close", "is_closed", "handle", "loop_of", "library_of", "class_name", "describe", "snapshot", "get",
           "set", "send", "call", "child", "subscribe", "new"]

_F = TypeVar("_F", bound=Callable[..., Any])


def close(obj: Owner) -> None:
    """Closes ``obj`` (an object, loop, subscription, service or request): releases its handle,
    once; again does nothing."""
    obj._close()


def is_closed(obj: Owner) -> bool:
    """Whether ``obj`` is closed (an object also when its loop is)."""
    return obj._is_closed()


def handle(obj: Owner) -> int:
    """The C handle of ``obj`` (ClosedError once closed)."""
    return obj._h()


def loop_of(obj: MvvmObject) -> Loop:
    """The loop ``obj`` lives on."""
    return obj._loop


def library_of(obj: Owner) -> "Library":
    """The library ``obj`` belongs to."""
    return obj._library


def class_name(obj: MvvmObject) -> str:
    """The C class name of ``obj``, as the library says (``mvvm_class_name``)."""
    return obj._class_name()


def describe(obj: MvvmObject) -> Dict[str, Any]:
    """What the class of ``obj`` offers, as ``mvvm_describe`` gives it."""
    return obj._describe()


def snapshot(obj: MvvmObject) -> Dict[str, Any]:
    """Every property's current value, as ``mvvm_snapshot``'s JSON gives it."""
    return obj._snapshot()


def get(obj: MvvmObject, name: str) -> Any:
    """The value of the property ``name`` of ``obj``."""
    return obj._get(name)


def set(obj: MvvmObject, name: str, value: Any) -> None:  # noqa: A001 - the module function set
    """Sets the property ``name`` of ``obj``; the library converts or refuses."""
    obj._set(name, value)


def send(obj: MvvmObject, command: str, argument: Any = _NO_ARGUMENT) -> None:
    """Sends ``command`` with ``argument``, or with none when not given (``mvvm_send``)."""
    obj._send(command, argument)


def call(obj: MvvmObject, command: str, *args: Any, **kwargs: Any) -> Any:
    """Runs ``command`` of ``obj`` with its arguments by position and name and gives its result
    (``mvvm_call_named``)."""
    return obj._call(command, args, kwargs)


def child(obj: MvvmObject, name: str) -> MvvmObject:
    """A new object for the child ``name`` of ``obj``, owned by the caller."""
    return obj._child(name)


@overload
def subscribe(obj: MvvmObject, name: Optional[str], fn: Callable[..., Any], *, initial: bool = ...,
              with_source: bool = ..., on_end: Optional[Callable[[], Any]] = ...) -> Subscription: ...


@overload
def subscribe(obj: MvvmObject, name: Union[List[str], Tuple[str, ...]], fn: Callable[..., Any], *,
              initial: bool = ..., with_source: bool = ..., on_end: Optional[Callable[[], Any]] = ...) -> Subscriptions: ...


@overload
def subscribe(obj: MvvmObject, name: Union[str, List[str], Tuple[str, ...], None] = ..., fn: None = ..., *,
              initial: bool = ..., with_source: bool = ...,
              on_end: Optional[Callable[[], Any]] = ...) -> Callable[[_F], _F]: ...


def subscribe(obj: MvvmObject, name: Union[str, List[str], Tuple[str, ...], None] = None,
              fn: Optional[Callable[..., Any]] = None, *, initial: bool = False, with_source: bool = False,
              on_end: Optional[Callable[[], Any]] = None) -> Any:
    """``obj.subscribe(...)`` (see :meth:`MvvmObject.subscribe`), whatever members ``obj`` has."""
    return obj._subscribe(name, fn, initial=initial, with_source=with_source, on_end=on_end)


def new(loop: Loop, class_name: str, *args: Any, **kwargs: Any) -> MvvmObject:
    """An object of the C class ``class_name`` of the loop's library, made by ``mvvm_new_named``
    with ``args`` and ``kwargs`` as they are (converted, never checked): the library chooses the
    constructor, or refuses (UnknownNameError: no such class; InvalidArgumentError: no
    constructor takes these arguments, a value out of range, a model of another loop;
    TypeMismatchError: an argument of the wrong type; WrongTypeError: a model of the wrong
    class)."""
    if not isinstance(loop, Loop):
        raise TypeError("the first argument must be an mvvm.Loop, not %s" % type(loop).__name__)
    encoded = encode_name(class_name, "the class name")
    library = loop._library
    kind = library._built().classes.get(class_name, MvvmObject)
    obj: MvvmObject = kind.__new__(kind)
    obj._construct(library, loop, encoded, args, kwargs, kind._keywords)
    return obj
