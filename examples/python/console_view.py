"""A console View over the whole catalog, through the mvvm package only: each screen's view
model on one virtual loop, every change it announces printed as a line of the transcript.
Run: PYTHONPATH=bindings/python python3 examples/python/console_view.py build/catalog/libcatalog.so
(the catalog's library, `make catalog`, loaded by its path)."""
from __future__ import annotations

import sys

import mvvm


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: console_view.py LIBRARY   (the catalog's: build/catalog/libcatalog.so)", file=sys.stderr)
        return 2
    catalog = mvvm.load(argv[0])
    with catalog.Loop.virtual() as loop:
        def show(source: str):
            def changed(name: str, value: object) -> None:
                print(f"[{loop.now() / 1000:7.3f} s] {source}.{name} = {value!r}")
            return changed

        def step(action: str, run) -> None:
            print(f"> {action}")
            run()

        print("== Timer ==")
        timer = catalog.CountDownTimer(loop, 3)
        screen = catalog.TimerViewModel(loop, timer)
        screen.subscribe(None, show("timer"))
        screen.display.subscribe(None, show("display"))
        screen.player.subscribe(None, show("player"))
        step("tap start", lambda: (screen.player.tapped("start"), loop.advance(0)))
        step("wait 3 s", lambda: loop.advance(3000))
        step("dismiss the alert", lambda: setattr(screen, "is_show_alert", False))

        print("== Stopwatch ==")
        watch = catalog.StopWatchViewModel(loop)
        watch.subscribe(None, show("stopwatch"))
        step("main action", watch.main_action)
        step("wait 30 ms", lambda: loop.advance(30))
        step("main action", watch.main_action)
        step("clear", watch.clear_action)

        print("== Input echo ==")
        echo = catalog.InputEchoViewModel(loop)
        echo.subscribe(None, show("echo"))
        step("type 'hello'", lambda: setattr(echo, "input", "hello"))

        print("== Sign-up ==")
        form = catalog.SignUpViewModel(loop)
        form.subscribe("is_sign_up_enabled", show("sign_up"))
        form.subscribe("is_completion_alert_presented", show("sign_up"))
        step("fill in the form", lambda: (setattr(form, "user_id", "newuser"), setattr(form, "password", "password1"),
                                          setattr(form, "confirm_password", "password1"), setattr(form, "agreed", True)))
        step("sign up", form.sign_up_tapped)

        print("== Welcome ==")
        welcome = catalog.WelcomeViewModel(loop)
        welcome.subscribe(None, show("welcome"))
        step("view did load", lambda: (welcome.view_did_load(), loop.advance(0)))
        step("tap 'Button'", lambda: welcome.tap_button("Button"))

        print("== Counters ==")
        page = catalog.CounterPageViewModel(loop, seed=2026)
        print(f"  read me: {page.read_me}")
        page.first_counter.subscribe("count", show(page.first_counter.label))
        page.second_counter.subscribe("count", show(page.second_counter.label))
        step("increment both", lambda: (page.first_counter.increment(), page.second_counter.increment()))
        step("decrement both", lambda: (page.first_counter.decrement(), page.second_counter.decrement()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
