"""What PyGObject and RxPY users expect of subscriptions: ``subscribe`` as a decorator, several
names at once, the current value at once (as ``BehaviorSubject`` gives it), the source object
given to the callback, callbacks of the wrong arity refused at ``subscribe`` time, and
:func:`bind` (as ``GObject.bind_property``)."""

from __future__ import annotations

import inspect
import weakref
from typing import TYPE_CHECKING, Any, Callable, List, Optional

from ._report import callable_name

if TYPE_CHECKING:
    from ._object import MvvmObject, Subscription

__all__ = ["Subscriptions", "bind"]


def check_arity(fn: Callable[..., Any], count: int, what: str) -> None:
    """Raises TypeError unless ``fn`` can be called with ``count`` positional arguments
    (a callable whose signature Python cannot read is accepted)."""
    if not callable(fn):
        raise TypeError("%s must be callable, not %s" % (what, type(fn).__name__))
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*range(count))
    except TypeError:
        raise TypeError("%s %s%s cannot be called with %d positional argument%s (%s)" % (
            what, callable_name(fn), signature, count, "" if count == 1 else "s",
            "source, name, value" if count == 3 else "name, value")) from None


def with_source(source: "MvvmObject", fn: Callable[..., Any]) -> Callable[[str, Any], Any]:
    """``fn(source, name, value)`` as a ``(name, value)`` callback (named as ``fn`` in errors).
    It holds ``source`` weakly: the subscription does not keep its object alive (once the object
    is collected, its handle is released and the subscription ends)."""
    source_ref = weakref.ref(source)

    def deliver(name: str, value: Any) -> Any:
        current = source_ref()
        if current is not None:
            return fn(current, name, value)
        return None

    deliver.__qualname__ = getattr(fn, "__qualname__", deliver.__qualname__)
    deliver.__module__ = getattr(fn, "__module__", None) or deliver.__module__
    return deliver


class Subscriptions(List["Subscription"]):
    """The subscriptions of one callback to several names (``obj.subscribe(["a", "b"], fn)``):
    a list of :class:`~mvvm.Subscription` ended together by :meth:`unsubscribe` or ``with``."""

    @property
    def active(self) -> bool:
        """Whether any of them is still active."""
        return any(subscription.active for subscription in self)

    def unsubscribe(self) -> None:
        """Ends every one (idempotent)."""
        for subscription in self:
            subscription.unsubscribe()

    def close(self) -> None:
        """The same as :meth:`unsubscribe`."""
        self.unsubscribe()

    def __enter__(self) -> "Subscriptions":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.unsubscribe()


def bind(source: "MvvmObject", name: str, target: Any, target_name: Optional[str] = None,
         transform: Optional[Callable[[Any], Any]] = None, *, initial: bool = True) -> "Subscription":
    """Keeps ``target`` following the property ``name`` of ``source``, as
    ``GObject.bind_property`` does: each change (and, with ``initial``, the current value at
    once) is passed through ``transform`` (when given) and written to the target:

    * ``target_name`` given: ``setattr(target, target_name, value)`` (another view model's
      binding, a widget attribute...);
    * else a target with a ``set`` method (a ``tkinter.StringVar``, ``BooleanVar``...):
      ``target.set(value)``;
    * else a callable target: ``target(value)``.

    Returns the :class:`~mvvm.Subscription`; ``unsubscribe()`` undoes the binding."""
    write: Callable[[Any], Any]
    if target_name is not None:
        def set_attribute(value: Any) -> Any:
            return setattr(target, target_name, value)
        write = set_attribute
    elif callable(getattr(target, "set", None)):
        write = target.set
    elif callable(target):
        write = target
    else:
        raise TypeError("bind() needs a target_name, a target with a set() method, or a callable target, not %s"
                        % type(target).__name__)
    if transform is not None:
        check_arity(transform, 1, "the transform")

    def follow(changed: str, value: Any) -> None:
        write(transform(value) if transform is not None else value)

    follow.__qualname__ = "bind(%s.%s -> %s%s)" % (type(source).__name__, name, type(target).__name__,
                                                   "." + target_name if target_name else "")
    subscription: Any = source._subscribe(name, follow, initial=initial)
    result: "Subscription" = subscription
    return result


