"""Host services and their requests: :class:`Service` (``mvvm_service_new``), :class:`Request`
(answered with ``complete``), and :class:`ServiceRequest`, the base of the request classes made
for each class with a service (``LoginRequest`` of a ``LoginViewModel``), carrying the view model's properties as they
were when it asked."""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import warnings
from ctypes import byref, c_char_p, c_uint64, c_void_p
from typing import Any, Awaitable, Callable, ClassVar, Dict, List, Optional, Set, TypeVar, Union

from mvvm_gen.pynames import python_names

from ._errors import InvalidHandleError, UnknownRequestError
from ._library import Library
from ._object import MvvmObject
from ._owner import Owner, forks
from ._registry import Entry, registry
from ._releases import pending, release_pending, release_soon
from ._report import report
from ._trampolines import DESTROY_TRAMPOLINE, REQUEST_TRAMPOLINE
from ._values import Scalar, Values, decode, from_json, take_string

__all__ = ["Request", "ServiceRequest", "Service", "ServiceFunction"]

_R = TypeVar("_R", bound="Request")

#: A host service: ``fn(request)`` for each request, of the view model's request class
#: (``ServiceFunction[LoginRequest]``). It answers with ``request.complete(result)`` (now or
#: later), or returns the answer (a plain value), or is an ``async def`` whose result is the
#: answer (run on the asyncio loop attached with :func:`mvvm.aio.attach`).
ServiceFunction = Callable[[_R], Union[Scalar, Awaitable[Scalar]]]


class Request(Owner):
    """A question a view model asks the host's service. Answer once with :meth:`complete`:
    at once inside the service, later, from any thread, or from asyncio. A request nobody
    keeps and nobody answered is cancelled when it is garbage-collected; ``close()`` cancels
    it. Its :attr:`handle` stays readable once it is done."""

    __slots__ = ("_done", "view_model", "argument")

    #: The argument the library passed (a login form's: the user id; None for a request of no
    #: argument); typed by each request class (``LoginRequest.argument: str``).
    argument: Any

    def __init__(self, library: "Library", handle: int, view_model: Optional[MvvmObject], argument: Any) -> None:
        self._done = False
        #: The Python view model that asked (kept alive while the request lives).
        self.view_model: Optional[MvvmObject] = view_model
        self.argument = argument
        self._own(library, handle, on_collect=functools.partial(_dropped, type(self).__name__))

    @property
    def done(self) -> bool:
        """Answered or cancelled."""
        return self._done

    def _is_closed(self) -> bool:
        return self._done or self._fork != forks.count

    def _settled(self) -> None:
        self._done = True
        if self._finalizer is not None:
            self._finalizer.detach()

    def _complete(self, function: Callable[..., int], result: Any) -> None:
        values = Values([result])
        if pending:
            release_pending()
        try:
            function(self._handle, values.array)
        except (UnknownRequestError, InvalidHandleError):
            self._settled()
            raise
        self._settled()

    def complete(self, result: Any) -> None:
        """Answers the request (``mvvm_complete``). Raises UnknownRequestError if it was
        answered, cancelled, or its view model closed; TypeMismatchError (the request stays
        open) for an answer of the wrong type."""
        self._complete(self._library.functions.mvvm_complete, result)

    def complete_soon(self, result: Any) -> None:
        """Answers the request as work of its loop (``mvvm_complete_soon``), from any thread: the
        answer is applied, and its changes are notified, on the loop's thread (a thread loop), at
        the next ``dispatch``/``run_for`` (a manual loop) or ``advance`` (a virtual loop). The
        safe way to answer from a worker thread. The request counts as answered at once; errors
        as :meth:`complete`'s, checked now."""
        self._complete(self._library.functions.mvvm_complete_soon, result)

    def cancel(self) -> None:
        """Cancels the request (releases it); its answer is never awaited. Idempotent."""
        self._done = True
        if self._finalizer is not None and self._finalizer.detach() is not None:
            self._library.release_quietly(self._handle)

    def _close(self) -> None:
        self.cancel()

    def close(self) -> None:
        """The same as :meth:`cancel` (nothing once answered)."""
        self.cancel()

    def _answer(self, result: Any, what: str) -> None:
        """What a service returned: a plain value answers at once (unless it answered
        already); an awaitable (an ``async def`` service) runs on the asyncio loop attached
        to the view model's loop (:func:`mvvm.aio.attach`), or the one running on this thread,
        and its result answers. Without one: the request is cancelled and RuntimeError says so."""
        if not inspect.isawaitable(result):
            if not self._done:
                self.complete(result)
            return
        target = self._asyncio_loop()
        if target is None:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # no "coroutine was never awaited" warning: this error says it
            self.cancel()
            raise RuntimeError("%s is async, but no asyncio loop runs it: attach the view model's loop to "
                               "asyncio with `with mvvm.aio.attach(loop):` (a manual loop), or make the view "
                               "model inside a running asyncio loop; the request is cancelled" % what)
        awaited = result

        async def run() -> None:
            try:
                value = await awaited
                if value is not None and not self._done:
                    self.complete(value)
            except BaseException as exc:
                self.cancel()
                report(exc, "Exception ignored in %s" % what, awaited)

        try:
            running: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is target:
            task = target.create_task(run())
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(run(), target)

    def _asyncio_loop(self) -> Optional[asyncio.AbstractEventLoop]:
        view_model = self.view_model
        attached = getattr(view_model._loop, "_asyncio_loop", None) if view_model is not None else None
        if attached is not None and not attached.is_closed():
            found: asyncio.AbstractEventLoop = attached
            return found
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    def __repr__(self) -> str:
        return "<mvvm.%s argument=%r %s>" % (type(self).__name__, self.argument, "done" if self._done else "open")


#: The tasks of async services (kept until done: asyncio keeps only weak references).
_tasks: "Set[asyncio.Task[None]]" = set()


def _dropped(class_name: str, library: "Library", handle: int) -> None:
    """A request's finalizer: one nobody answered is cancelled, with a ResourceWarning (shown
    under ``-X dev`` or ``-W default``), as an unclosed file is."""
    warnings.warn("an mvvm %s was dropped without an answer (complete() or cancel()); it is cancelled"
                  % class_name, ResourceWarning, stacklevel=2)
    release_soon(library, handle)


class ServiceRequest(Request):
    """A request to a host service (see :class:`~mvvm.Request`): ``argument`` is what the view
    model passed; the view model's properties, as they were when it asked, are attributes
    (``request.user_id``) and :attr:`state`."""

    __slots__ = ("state",)

    #: The type of the answer :meth:`complete` takes (from the description), or None if unknown.
    result_type: ClassVar[Optional[str]] = None

    def __init__(self, library: "Library", handle: int, view_model: Optional[MvvmObject], argument: Any,
                 state: Dict[str, Any]) -> None:
        super().__init__(library, handle, view_model, argument)
        #: The view model's properties when it asked (its snapshot).
        self.state: Dict[str, Any] = state

    #: Attribute name -> property name (a property named as a keyword has a trailing underscore).
    _state_names: ClassVar[Dict[str, str]] = {}

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            try:
                return self.state[type(self)._state_names.get(name, name)]
            except (KeyError, AttributeError):
                pass
        raise AttributeError("%s has no attribute %r" % (type(self).__name__, name))


def make_request(library: "Library", view_model_handle: int, handle: int, argument: Any,
                 owner: Optional[MvvmObject]) -> Request:
    """The request a service is called with: of the asking view model's request class, with its
    state read during the call (as the library allows)."""
    functions = library.functions
    name = c_char_p()
    functions.mvvm_class_name(view_model_handle, byref(name))
    class_name = decode(name.value or b"", "a class name")
    out = c_void_p()
    functions.mvvm_snapshot(view_model_handle, byref(out))
    state: Dict[str, Any] = json.loads(take_string(functions.mvvm_string_free, out, "mvvm_snapshot"))
    namespace = library._built()
    described = namespace.classes.get(class_name)
    if described is not None and described._model is not None:
        state = from_json(described._model.properties, state, library)
    if owner is None:
        owner = namespace.by_handle.get(view_model_handle)
    request_class = namespace.request_classes.get(class_name, ServiceRequest)
    made: Request = request_class(library, handle, owner, argument, state)
    return made


class Service(Owner):
    """A host service (``mvvm_service_new``): ``fn(request)`` is called for each request of each
    view model made with it, and answers with ``request.complete(result)``, at once or later,
    from any thread. One service may be given to several constructors; ``fn`` stays alive until
    this object is closed (or collected) and every view model made with it is closed.
    Constructors also take a plain callable, made into a service for that one view model.

    A service belongs to a library: make one with the library's own class,
    ``library.Service(fn)`` (or a typed package's ``Service``). ``mvvm.Service`` is their base,
    for annotations and ``isinstance``; it makes none itself (``TypeError``)."""

    __slots__ = ("_entry", "fn")

    #: The library whose services this class makes (None for the base, which makes none).
    _class_library: ClassVar[Optional["Library"]] = None

    def __init__(self, fn: Callable[[Any], Any], what: Optional[str] = None) -> None:
        if not callable(fn):
            raise TypeError("the service must be callable, not %s" % type(fn).__name__)
        library = type(self)._class_library
        if library is None:
            raise TypeError("a service belongs to a library: make it with that library's Service, such as "
                            "mvvm.load(path).Service(fn), not mvvm.Service")
        self.fn = fn
        self._entry = Entry(fn, what or "service %s" % getattr(fn, "__qualname__", repr(fn)), library,
                            make_request=make_request)
        key = registry.add(self._entry)
        out = c_uint64()
        try:
            library.functions.mvvm_service_new(REQUEST_TRAMPOLINE, key, DESTROY_TRAMPOLINE, byref(out))
        except BaseException:
            registry.pop(key)  # if the library did not run the destroy function already
            raise
        self._own(library, out.value)

    def close(self) -> None:
        """Releases the service's handle (once): no new view model can be made with it; those
        made with it keep it until they are closed."""
        self._close()

    def __repr__(self) -> str:
        return "<mvvm.Service %s %s>" % (getattr(self.fn, "__qualname__", repr(self.fn)),
                                         "closed" if self._is_closed() else "handle=0x%x" % self._handle)


def request_class(python_name: str, owner_name: str, service_name: str, request_argument: Optional[str],
                  result: Optional[str], properties: List[str]) -> type:
    """The request class ``python_name`` (``LoginRequest``) of ``owner_name``, a class with a
    host service whose view model has ``properties``."""
    kinds = {"bool": "bool", "int": "int", "double": "float", "string": "str"}
    doc = ("A request of %s's %s: answer with ``complete(%s)``. ``argument``: %s. The view model's "
           "properties when it asked are attributes." % (
               owner_name, service_name, kinds.get(result or "", result or "the result"),
               kinds.get(request_argument or "none", "None")))
    state_names = {python: name for name, python in python_names(properties).items()}
    return type(python_name, (ServiceRequest,), {"__slots__": (), "__doc__": doc, "__module__": "mvvm",
                                                  "result_type": result, "_state_names": state_names})

