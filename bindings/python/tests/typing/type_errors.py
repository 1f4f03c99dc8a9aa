"""Mistakes the type checkers must report: each line ending in an "error:" comment must give an error, in
``mypy --strict`` and in ``pyright`` (tests/test_typing.py), and no other line may."""

from __future__ import annotations

import catalog
import mvvm


def mistakes(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    form.is_sign_up_enabled = True  # error: an output is read-only
    form.agreed = "yes"  # error: a bool binding
    screen = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 5))
    screen.player.tapped("play")  # error: not one of "start", "pause", "stop"
    watch = catalog.StopWatch(loop)
    flag: bool = watch.state  # error: a Literal of strings
    watch.snapshot()["no_such_property"]  # error: not a key of the TypedDict
    catalog.CountDownTimer(loop, "5")  # error: full_count is an int
    text: str = watch.get("time_ms")  # error: time_ms is an int
    watch.get("time")  # error: no such property
    watch.subscribe("time_ms", on_text)  # error: the subscriber must take an int
    watch.subscribe("state", lambda name, value: value + 1)  # error: the state is a string
    watch.subscribe("time_ms", on_source_text, with_source=True)  # error: the object comes first


def on_text(name: str, value: str) -> None:
    print(name, value)


def on_source_text(name: str, value: int) -> None:
    print(name, value)
