"""Conveniences of PyGObject and RxPY (issue 18, item 4): subscribe as a decorator, several
names, the current value at once, the source in the callback, wrong arity refused at once,
repr with values, help() with types and access, bind(), docstrings on public members."""

from __future__ import annotations

import gc
import inspect
import pydoc
from typing import Any, List, Tuple

import pytest

import mvvm
from mvvm._registry import registry
from libraries import catalog


def test_subscribe_as_a_decorator(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    seen: List[Tuple[str, Any]] = []

    @form.subscribe("password")
    def changed(name: str, value: Any) -> None:
        seen.append((name, value))

    assert callable(changed)  # the function stays itself
    form.password = "secret1"
    assert seen == [("password", "secret1")]
    form.close()


def test_several_names_initial_values_and_the_source(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    seen: List[Tuple[Any, str, Any]] = []
    subs = form.subscribe(["user_id", "agreed"], lambda source, name, value: seen.append((source, name, value)),
                          initial=True, with_source=True)
    assert isinstance(subs, mvvm.Subscriptions) and len(subs) == 2 and subs.active
    assert seen == [(form, "user_id", ""), (form, "agreed", False)]  # at once, as BehaviorSubject
    form.agreed = True
    assert seen[-1] == (form, "agreed", True)
    subs.unsubscribe()
    assert not subs.active
    form.user_id = "x"
    assert len(seen) == 3
    form.close()


def test_a_subscription_with_its_source_holds_it_weakly(loop: mvvm.Loop) -> None:
    """``with_source=True`` gives the callback its object without keeping it alive: dropped, it
    is collected, its handle released and its subscriptions ended (a plain callback that closes
    over its object keeps it, as documented)."""
    seen: List[Any] = []
    counter = catalog.Counter(loop)
    counter.subscribe("count", lambda source, name, value: seen.append((source.count, value)), with_source=True)
    counter.increment()
    assert seen == [(1, 1)] and len(registry) == 1
    handle = counter.handle
    del counter
    gc.collect()
    assert len(registry) == 0  # the subscription ended with its object
    with pytest.raises(mvvm.InvalidHandleError):
        catalog.functions.mvvm_release(handle)  # released by the collection


def test_a_callback_of_the_wrong_arity_is_refused_at_subscribe(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    with pytest.raises(TypeError, match="2 positional arguments"):
        form.subscribe("password", lambda value: None)
    with pytest.raises(TypeError, match="3 positional arguments"):
        form.subscribe("password", lambda name, value: None, with_source=True)
    form.subscribe("password", lambda *args: None)  # accepts anything
    form.close()


def test_repr_shows_the_class_and_current_values(loop: mvvm.Loop) -> None:
    counter = catalog.Counter(loop)
    counter.increment()
    assert repr(counter) == "<mvvm.Counter count=1>"
    counter.close()
    assert repr(counter) == "<mvvm.Counter closed>"


def test_help_shows_each_propertys_type_access_and_doc() -> None:
    text = pydoc.render_doc(catalog.SignUpViewModel, renderer=pydoc.plaintext)
    assert "is_sign_up_enabled" in text and "(bool, read-only)" in text
    assert "user_id" in text and "(str)" in text


def test_bind_follows_a_property_like_gobject_bind_property(loop: mvvm.Loop) -> None:
    class Var:
        def __init__(self) -> None:
            self.value: Any = None

        def set(self, value: Any) -> None:
            self.value = value

    echo = catalog.InputEchoViewModel(loop)
    label = Var()
    binding = mvvm.bind(echo, "message", label)
    assert label.value == "Your input is ''!"  # at once
    echo.input = "hi"
    assert label.value == "Your input is 'hi'!"
    other = catalog.InputEchoViewModel(loop)
    mvvm.bind(echo, "input", other, "input", transform=str.upper)
    assert other.input == "HI"
    echo.input = "abc"
    assert other.label == "ABC"
    binding.unsubscribe()
    echo.input = "z"
    assert label.value == "Your input is 'abc'!"
    echo.close()
    other.close()


def _public_members() -> List[Tuple[str, Any]]:
    found: List[Tuple[str, Any]] = []
    for name in mvvm.__all__:
        value = getattr(mvvm, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            found.append((name, value))
        if inspect.isclass(value) and not issubclass(value, BaseException):
            for member, attribute in vars(value).items():
                if member.startswith("_") or not (callable(attribute) or isinstance(attribute, property)):
                    continue
                found.append(("%s.%s" % (name, member), attribute))
    return found


def test_every_public_member_has_a_docstring() -> None:
    missing = [name for name, value in _public_members() if not (getattr(value, "__doc__", None) or "").strip()]
    assert missing == []
