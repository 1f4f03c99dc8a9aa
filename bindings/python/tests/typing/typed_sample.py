"""A typed program over the mvvm package: ``mypy --strict`` and ``pyright`` must find no error
here (tests/test_typing.py runs both). It is also run, so it stays a working program."""

from __future__ import annotations

from typing import List, Literal

import mvvm


def on_change(name: str, value: mvvm.Scalar) -> None:
    print(name, value)


def on_time(name: str, value: int) -> None:
    print(name, value + 1)


def on_time_of(source: mvvm.StopWatch, name: str, value: int) -> None:
    print(source.state, name, value)


def answer(request: mvvm.SignUpRequest) -> None:
    user: str = request.argument
    request.complete(len(user) > 3)


def main() -> List[str]:
    seen: List[str] = []
    callback: mvvm.EventCallback = on_change
    service: mvvm.ServiceFunction[mvvm.SignUpRequest] = answer
    with mvvm.Loop.virtual() as loop:
        timer = mvvm.CountDownTimer(loop, 5)
        screen = mvvm.TimerViewModel(loop, timer)
        screen.subscribe("is_show_alert", callback)
        screen.player.tapped("start")
        loop.advance(5000)
        alert: bool = screen.is_show_alert
        remaining: int = screen.display.remaining_time
        snap = timer.snapshot()
        count: int = snap["count"]
        seen.append("%s %d %d" % (alert, remaining, count))

        watch = mvvm.StopWatch(loop)
        state: Literal["startable", "stoppable", "resumable"] = watch.state
        seen.append(state)
        seen.append(watch.snapshot()["state"])
        time_ms: int = watch.get("time_ms")
        watch.subscribe("time_ms", on_time)
        watch.subscribe("state", lambda name, value: seen.append(value.upper()))
        watch.subscribe("time_ms", on_time_of, with_source=True)
        watch.subscribe(["time_ms", "state"], on_change)
        seen.append(str(time_ms))

        form = mvvm.SignUpViewModel(loop, service=service)
        form.user_id, form.password, form.confirm_password = "newuser", "password1", "password1"
        form.agreed = True
        enabled: bool = form.is_sign_up_enabled
        form.sign_up_tapped()
        seen.append("%s %s" % (enabled, form.is_completion_alert_presented))
    return seen


if __name__ == "__main__":
    print(main())
