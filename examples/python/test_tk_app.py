"""Tests of the Tk app (tk_app.py): built over a virtual loop so time is exact, driven by events
generated on its widgets, checking that the widgets follow the view models; then screenshots of
every screen; then a short real-time run over a manual loop plugged into Tk through its fd, and
one over the main loop with Tests/outside's libappsample.so (MVVM_APP_SAMPLE_LIBRARY). Each library
is loaded by its path: the catalog's (MVVM_CATALOG_LIBRARY), the todo app's for the Todos tab
(MVVM_TODO_LIBRARY); run_tk_tests.sh and `make test-tk` give them, and a test fails without one.

Needs an X display: run ``bash examples/python/run_tk_tests.sh LIBDIR``, which starts a private
Xvfb and gives its framebuffer (``MVVM_XVFB_FB``) for the screenshots, written to
``MVVM_SCREENSHOTS`` (default: build/screenshots at the repository root).
"""
from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import threading
import tkinter
import zlib
from pathlib import Path
from tkinter import ttk
from typing import Any, Callable, Iterator, List, Tuple

import pytest

import mvvm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tk_app  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("MVVM_SCREENSHOTS") or REPOSITORY / "build" / "screenshots")
SEED = 2026  # the random counter's sequence with this seed: 9 after one increment, then 5


def library_path(variable: str) -> str:
    path = os.environ.get(variable, "")
    if not path or not Path(path).is_file():
        pytest.fail("%s=%r names no library (run_tk_tests.sh and make test-tk set it)" % (variable, path),
                    pytrace=False)
    return path


#: The catalog's library, whose classes the screens make; the todo app's, for the Todos tab.
CATALOG = mvvm.load(library_path("MVVM_CATALOG_LIBRARY"))
TODO_LIBRARY = library_path("MVVM_TODO_LIBRARY")


# --- fixtures and helpers ----------------------------------------------------------------------


@pytest.fixture
def root() -> Iterator[tkinter.Tk]:
    """A Tk root; Tk callback errors and mvvm callback errors (unraisable) fail the test."""
    try:
        window = tkinter.Tk()
    except tkinter.TclError as error:
        pytest.fail("no X display (%s): run examples/python/run_tk_tests.sh, which starts Xvfb" % error)
    errors: List[str] = []
    window.report_callback_exception = lambda kind, value, tb: errors.append("Tk callback: %r" % value)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: errors.append("%s: %r" % (unraisable.err_msg, unraisable.exc_value))
    window.geometry("560x380+0+0")
    try:
        yield window
    finally:
        sys.unraisablehook = previous_hook
        window.destroy()
    assert not errors, "errors in callbacks:\n" + "\n".join(errors)


@pytest.fixture
def loop() -> Iterator[mvvm.Loop]:
    with CATALOG.Loop.virtual() as virtual:
        yield virtual


@pytest.fixture
def app(root: tkinter.Tk, loop: mvvm.Loop) -> Iterator[tk_app.TkApp]:
    built = tk_app.build_app(root, loop, timer_seconds=3, seed=SEED, todo_library=TODO_LIBRARY)
    root.update()
    try:
        yield built
    finally:
        built.close()


def click(widget: tkinter.Misc) -> None:
    """A mouse click as the window system gives it: enter, press, release, in the middle."""
    widget.update()
    x, y = widget.winfo_width() // 2, widget.winfo_height() // 2
    widget.event_generate("<Enter>", x=x, y=y)
    widget.event_generate("<ButtonPress-1>", x=x, y=y)
    widget.event_generate("<ButtonRelease-1>", x=x, y=y)
    widget.update()


def type_text(entry: tkinter.Misc, text: str) -> None:
    """Text inserted into an entry at its cursor, then the key release a keyboard would give."""
    entry.insert("insert", text)
    entry.event_generate("<KeyRelease>")
    entry.update()


def show(app: tk_app.TkApp, screen: tk_app.Screen) -> None:
    app.select(screen)
    app.root.update()


def enabled(widget: tkinter.Misc) -> bool:
    return not widget.instate(["disabled"])


def toplevels(root: tkinter.Misc) -> List[tkinter.Toplevel]:
    """Every Toplevel that exists under root (the app's dialogs), found from the widget tree."""
    found: List[tkinter.Toplevel] = []
    pending = list(root.winfo_children())
    while pending:
        widget = pending.pop()
        if isinstance(widget, tkinter.Toplevel) and widget.winfo_exists():
            found.append(widget)
        pending.extend(widget.winfo_children())
    return found


# --- screenshots: the X screen as XWD (Xvfb's -fbdir framebuffer, else `xwd -root`) to PNG -----


def screen_xwd() -> bytes:
    framebuffer = os.environ.get("MVVM_XVFB_FB")
    if framebuffer:
        return Path(framebuffer).read_bytes()
    if shutil.which("xwd"):
        return subprocess.run(["xwd", "-root", "-silent"], check=True, stdout=subprocess.PIPE).stdout
    pytest.fail("no way to read the screen: set MVVM_XVFB_FB (run_tk_tests.sh does) or install xwd (x11-apps)")


def crop_xwd(data: bytes, box: Tuple[int, int, int, int]) -> Tuple[int, int, List[bytes]]:
    """The RGB rows of ``box`` (x, y, width, height) of a 32-bit TrueColor ZPixmap XWD image."""
    (header_size, _version, pixmap_format, _depth, width, height, _xoffset, byte_order, _unit, _bit_order, _pad,
     bits_per_pixel, bytes_per_line, visual_class, red_mask, green_mask, blue_mask, _bits_per_rgb, _entries,
     ncolors) = struct.unpack(">20I", data[:80])
    if pixmap_format != 2 or bits_per_pixel != 32 or visual_class not in (4, 5):
        raise ValueError("unsupported XWD image: format %d, %d bits per pixel, visual class %d"
                         % (pixmap_format, bits_per_pixel, visual_class))

    def byte_of(mask: int) -> int:
        shift = mask.bit_length() - 8
        if shift < 0 or shift % 8 or mask != 0xFF << shift:
            raise ValueError("unsupported colour mask 0x%x" % mask)
        return shift // 8 if byte_order == 0 else 3 - shift // 8

    red, green, blue = byte_of(red_mask), byte_of(green_mask), byte_of(blue_mask)
    pixels = header_size + 12 * ncolors
    x, y, w, h = box
    x, y = max(0, x), max(0, y)
    w, h = min(w, width - x), min(h, height - y)
    rows = []
    for line in range(y, y + h):
        start = pixels + line * bytes_per_line + 4 * x
        source = data[start:start + 4 * w]
        row = bytearray(3 * w)
        row[0::3], row[1::3], row[2::3] = source[red::4], source[green::4], source[blue::4]
        rows.append(bytes(row))
    return w, h, rows


def write_png(path: Path, width: int, height: int, rows: List[bytes]) -> None:
    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def grab(root: tkinter.Tk, name: str) -> Path:
    """Saves the window (and any dialog over it) as SCREENSHOTS/name.png."""
    root.update()  # draws, then XSync: the server has drawn everything once this returns
    windows = [root] + toplevels(root)
    left = min(w.winfo_rootx() for w in windows)
    top = min(w.winfo_rooty() for w in windows)
    right = max(w.winfo_rootx() + w.winfo_width() for w in windows)
    bottom = max(w.winfo_rooty() + w.winfo_height() for w in windows)
    width, height, rows = crop_xwd(screen_xwd(), (left, top, right - left, bottom - top))
    path = SCREENSHOTS / (name + ".png")
    write_png(path, width, height, rows)
    return path


# --- the screens, on a virtual loop ------------------------------------------------------------


def test_sign_up_button_is_enabled_only_while_the_form_is_valid(app: tk_app.TkApp) -> None:
    screen, form = app.sign_up, app.sign_up.view_model
    show(app, screen)
    assert not enabled(screen.sign_up_button)
    click(screen.sign_up_button)  # a click on the disabled button does nothing
    assert toplevels(app.root) == [] and form.is_completion_alert_presented is False

    type_text(screen.user_id_entry, "newuser")
    type_text(screen.password_entry, "password1")
    type_text(screen.confirm_password_entry, "password2")
    click(screen.agreed_check)
    assert (form.user_id, form.password, form.confirm_password, form.agreed) == \
        ("newuser", "password1", "password2", True)
    assert not enabled(screen.sign_up_button)  # the passwords differ

    screen.confirm_password_entry.delete(len("password"), "end")
    type_text(screen.confirm_password_entry, "1")
    assert form.is_sign_up_enabled and enabled(screen.sign_up_button)

    click(screen.agreed_check)  # unticked: disabled again
    assert form.agreed is False and not enabled(screen.sign_up_button)
    click(screen.agreed_check)
    assert enabled(screen.sign_up_button)

    screen.user_id_entry.delete(0, "end")
    type_text(screen.user_id_entry, "short")  # five characters
    assert not enabled(screen.sign_up_button)
    type_text(screen.user_id_entry, "\U0001F468\u200D\U0001F469\u200D\U0001F467")  # one more Character
    assert form.user_id == "short\U0001F468\u200D\U0001F469\u200D\U0001F467"
    assert enabled(screen.sign_up_button)


def test_sign_up_shows_the_completion_dialog(app: tk_app.TkApp) -> None:
    screen, form = app.sign_up, app.sign_up.view_model
    show(app, screen)
    for entry, text in ((screen.user_id_entry, "newuser"), (screen.password_entry, "password1"),
                        (screen.confirm_password_entry, "password1")):
        type_text(entry, text)
    click(screen.agreed_check)
    click(screen.sign_up_button)
    assert form.is_completion_alert_presented is True
    [dialog] = toplevels(app.root)
    assert dialog is screen.completion_alert.dialog and dialog.winfo_viewable()
    assert dialog.title() == "Sign up" and dialog.message_label.cget("text") == "Sign-up complete!"
    click(dialog.ok_button)
    assert form.is_completion_alert_presented is False
    assert toplevels(app.root) == [] and screen.completion_alert.dialog is None


def test_counters_show_their_labels_and_counts(app: tk_app.TkApp) -> None:
    screen = app.counters
    show(app, screen)
    first, second = screen.first_row, screen.second_row
    assert screen.read_me_label.cget("text") == screen.view_model.read_me != ""
    assert (first.name_label.cget("text"), second.name_label.cget("text")) == ("Counter", "Random Counter")
    assert (first.count_label.cget("text"), second.count_label.cget("text")) == ("0", "0")
    click(first.plus_button)
    click(second.plus_button)
    assert (first.count_label.cget("text"), second.count_label.cget("text")) == ("1", "9")
    click(first.plus_button)
    assert first.count_label.cget("text") == "2" == first.view_model.count
    click(first.minus_button)
    click(first.minus_button)
    click(second.minus_button)
    assert (first.count_label.cget("text"), second.count_label.cget("text")) == ("0", "5")
    assert second.count_label.cget("text") == second.view_model.count


def test_stopwatch_follows_virtual_time(app: tk_app.TkApp, loop: mvvm.Loop) -> None:
    screen = app.stopwatch
    show(app, screen)
    assert screen.time_label.cget("text") == "00:00:00.00"
    assert str(screen.main_button.cget("text")) == "Start" and enabled(screen.main_button)
    assert str(screen.clear_button.cget("text")) == "Clear" and not enabled(screen.clear_button)
    click(screen.main_button)
    assert str(screen.main_button.cget("text")) == "Stop"
    loop.advance(1230)
    app.root.update()
    assert screen.time_label.cget("text") == "00:00:01.23"
    click(screen.main_button)
    assert str(screen.main_button.cget("text")) == "Resume" and enabled(screen.clear_button)
    loop.advance(500)  # stopped: the time stays
    app.root.update()
    assert screen.time_label.cget("text") == "00:00:01.23"
    click(screen.main_button)
    loop.advance(61_000)
    app.root.update()
    assert screen.time_label.cget("text") == "00:01:02.23" == screen.view_model.time
    click(screen.main_button)
    click(screen.clear_button)
    assert screen.time_label.cget("text") == "00:00:00.00"
    assert str(screen.main_button.cget("text")) == "Start" and not enabled(screen.clear_button)


def test_timer_counts_down_and_shows_the_alert(app: tk_app.TkApp, loop: mvvm.Loop) -> None:
    screen = app.timer
    show(app, screen)
    assert screen.display_label.cget("text") == "3"
    assert enabled(screen.start_button) and not enabled(screen.pause_button) and not enabled(screen.stop_button)
    click(screen.start_button)
    loop.advance(0)  # the throttled tap acts on the next dispatch
    app.root.update()
    assert not enabled(screen.start_button) and enabled(screen.pause_button)
    loop.advance(1000)
    app.root.update()
    assert screen.display_label.cget("text") == "2" and enabled(screen.stop_button)
    click(screen.pause_button)
    loop.advance(5000)  # paused: no alert, the display stays
    app.root.update()
    assert screen.display_label.cget("text") == "2" and toplevels(app.root) == []
    assert enabled(screen.start_button) and not enabled(screen.pause_button)
    click(screen.start_button)
    loop.advance(0)
    loop.advance(1999)
    app.root.update()
    assert screen.display_label.cget("text") == "1" and toplevels(app.root) == []
    loop.advance(1)
    app.root.update()
    assert screen.view_model.is_show_alert is True
    [alert] = toplevels(app.root)
    assert alert is screen.alert.dialog and alert.winfo_viewable()
    assert alert.message_label.cget("text") == "Time's up!"
    assert screen.display_label.cget("text") == "3" and not enabled(screen.stop_button)
    assert enabled(screen.start_button)
    click(alert.ok_button)
    assert screen.view_model.is_show_alert is False and toplevels(app.root) == []


def test_timer_stop_resets_the_display(app: tk_app.TkApp, loop: mvvm.Loop) -> None:
    screen = app.timer
    show(app, screen)
    click(screen.start_button)
    loop.advance(1000)
    app.root.update()
    assert screen.display_label.cget("text") == "2"
    click(screen.stop_button)
    loop.advance(1000)  # the throttle lets the tap act one second after the start tap
    app.root.update()
    assert screen.display_label.cget("text") == "3" and not enabled(screen.stop_button)
    assert not enabled(screen.pause_button) and toplevels(app.root) == []


def test_input_echo_echoes_what_is_typed(app: tk_app.TkApp) -> None:
    screen = app.input_echo
    show(app, screen)
    assert screen.message_label.cget("text") == "Your input is ''!"
    type_text(screen.entry, "hello")
    assert screen.view_model.input == "hello"
    assert screen.label_label.cget("text") == "hello"
    assert screen.message_label.cget("text") == "Your input is 'hello'!"
    # Keys as the keyboard sends them, to the focused entry.
    screen.entry.focus_force()
    app.root.update()
    for keysym in ("exclam", "BackSpace", "BackSpace"):
        screen.entry.event_generate("<KeyPress>", keysym=keysym)
        screen.entry.event_generate("<KeyRelease>", keysym=keysym)
    app.root.update()
    assert screen.message_label.cget("text") == "Your input is 'hell'!"
    # A binding set by the program shows in the entry.
    screen.view_model.input = "from the model"
    app.root.update()
    assert screen.entry.get() == "from the model" and screen.label_label.cget("text") == "from the model"


def test_welcome_loads_when_shown_and_echoes_taps(app: tk_app.TkApp, loop: mvvm.Loop) -> None:
    screen = app.welcome
    loop.advance(0)
    app.root.update()
    assert not screen.loaded and screen.welcome_label.cget("text") == "\u2026"
    show(app, screen)
    assert screen.loaded
    loop.advance(0)  # the built-in API answers on the next dispatch
    app.root.update()
    assert screen.welcome_label.cget("text") == "Welcome!"
    screen.text_entry.delete(0, "end")
    type_text(screen.text_entry, "Hello")
    click(screen.tap_button)
    assert screen.text_label.cget("text") == "Hello show!!"
    assert screen.only_first_label.cget("text") == "shown 1 time"
    click(screen.tap_button)  # zip: one load pairs with one tap only
    assert screen.only_first_label.cget("text") == "shown 1 time"
    show(app, app.timer)
    show(app, screen)  # shown again: no second load
    loop.advance(0)
    app.root.update()
    assert screen.only_first_label.cget("text") == "shown 1 time"


def test_the_app_polls_nothing(root: tkinter.Tk) -> None:
    """Built over a manual loop, the app schedules no Tk timer: its fd handler does the work."""
    with CATALOG.Loop.manual() as manual:
        built = tk_app.build_app(root, manual, seed=SEED, todo_library=TODO_LIBRARY)
        try:
            root.update()
            click(built.stopwatch.main_button)
            assert root.tk.call("after", "info") == ""
        finally:
            built.close()


# --- screenshots ------------------------------------------------------------------------------


def test_screenshots_of_every_screen(app: tk_app.TkApp, loop: mvvm.Loop) -> None:
    shots = []
    show(app, app.timer)
    click(app.timer.start_button)
    loop.advance(1000)
    shots.append(grab(app.root, "timer"))
    loop.advance(2000)
    assert app.timer.alert.dialog is not None
    shots.append(grab(app.root, "timer_alert"))
    click(app.timer.alert.dialog.ok_button)

    show(app, app.stopwatch)
    click(app.stopwatch.main_button)
    loop.advance(1230)
    click(app.stopwatch.main_button)
    shots.append(grab(app.root, "stopwatch"))

    show(app, app.input_echo)
    type_text(app.input_echo.entry, "hello")
    shots.append(grab(app.root, "input_echo"))

    show(app, app.sign_up)
    for entry, text in ((app.sign_up.user_id_entry, "newuser"), (app.sign_up.password_entry, "password1"),
                        (app.sign_up.confirm_password_entry, "password1")):
        type_text(entry, text)
    click(app.sign_up.agreed_check)
    shots.append(grab(app.root, "sign_up"))
    click(app.sign_up.sign_up_button)
    shots.append(grab(app.root, "sign_up_completed"))
    click(app.sign_up.completion_alert.dialog.ok_button)

    show(app, app.welcome)
    loop.advance(0)
    click(app.welcome.tap_button)
    shots.append(grab(app.root, "welcome"))

    show(app, app.counters)
    click(app.counters.first_row.plus_button)
    click(app.counters.first_row.plus_button)
    click(app.counters.second_row.plus_button)
    shots.append(grab(app.root, "counters"))

    for path in shots:
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = struct.unpack(">II", data[16:24])
        assert width >= app.root.winfo_width() and height >= app.root.winfo_height()
        pixels = zlib.decompress(data[data.index(b"IDAT") + 4:])
        assert len(pixels) == height * (1 + 3 * width)
        assert len(set(pixels)) > 16, "%s is blank" % path


# --- real time, on a manual loop plugged into Tk as main() plugs it ----------------------------


def test_manual_loop_runs_in_tk_mainloop(root: tkinter.Tk) -> None:
    with CATALOG.Loop.manual() as manual:
        built = tk_app.build_app(root, manual, seed=SEED, todo_library=TODO_LIBRARY)
        try:
            assert built.sources and built.sources[0].loop is manual
            show(built, built.stopwatch)
            started = manual.now()             # before the click: the stopwatch starts after it
            click(built.stopwatch.main_button)
            root.after(300, root.quit)
            root.mainloop()
            elapsed = manual.now() - started
            text = built.stopwatch.time_label.cget("text")
            match = re.fullmatch(r"00:00:(\d\d)\.(\d\d)", text)
            assert match, text
            shown_ms = int(match.group(1)) * 1000 + int(match.group(2)) * 10
            assert 200 <= shown_ms <= elapsed, (text, elapsed)
            assert built.sources[0].dispatches >= 5  # a tick every 10 ms: Tk woke up on the fd many times
        finally:
            built.close()


# --- the main loop: Swift work of the main thread and changes made on other threads, in Tk -------

def test_main_loop_shows_changes_from_other_threads_and_main_actor_timers_while_tk_waits(root: tkinter.Tk) -> None:
    """Tests/outside's libappsample.so on the main loop that main() makes, plugged into Tk as
    main() plugs it: a token set on a private dispatch queue and a @MainActor view model's
    Foundation Timer reach their labels with Tk only waiting in ``mainloop`` (no Tk timer polls:
    the fd wakes it)."""
    app = mvvm.load(library_path("MVVM_APP_SAMPLE_LIBRARY"))
    with app.Loop.main() as loop:
        source = tk_app.LoopSource(root, loop)
        meeting, sign_in = app.MeetingViewModel(loop), app.SignInViewModel(loop)
        seconds, token = ttk.Label(root, text="0"), ttk.Label(root, text="")
        seconds.pack(), token.pack()
        shown_on: List[int] = []

        def on_change(label: ttk.Label) -> Callable[[str, Any], None]:
            def show_value(_name: str, value: Any) -> None:
                shown_on.append(threading.get_ident())
                label.configure(text=str(value))
                if int(seconds.cget("text")) >= 3 and token.cget("text"):
                    root.quit()
            return show_value

        subscriptions = [meeting.subscribe("seconds_elapsed", on_change(seconds)),
                         sign_in.subscribe("token", on_change(token))]
        try:
            meeting.start()          # a Foundation Timer on the main run loop, every 50 ms
            sign_in.sign_in("ada")   # set on a private queue 20 ms later
            give_up = root.after(5000, root.quit)
            root.mainloop()
            root.after_cancel(give_up)
            assert token.cget("text") == "token-ada"
            assert int(seconds.cget("text")) >= 3
            assert set(shown_on) == {threading.get_ident()}   # shown on Tk's thread only
            assert source.dispatches >= 3                     # each woke Tk through the fd
        finally:
            meeting.stop()
            for subscription in subscriptions:
                subscription.unsubscribe()
            source.close()
            meeting.close(), sign_in.close()


# --- the Todos tab: the app with the todo app's library beside the catalog's (MVVM_TODO_LIBRARY) --


def todos_screen(app: tk_app.TkApp) -> tk_app.TodoScreen:
    assert app.todos is not None, "the app made no Todos tab with %s" % TODO_LIBRARY
    show(app, app.todos)
    return app.todos


def press(widget: tkinter.Misc, key: str) -> None:
    """A key pressed in ``widget``: key events go to the focus, so it takes the focus first."""
    widget.focus_force()
    widget.update()
    widget.event_generate(key)
    widget.update()


def double_click(widget: tkinter.Misc) -> None:
    """Two clicks in quick succession, as the window system gives a double click."""
    widget.update()
    for _ in range(2):
        widget.event_generate("<ButtonPress-1>", x=4, y=4)
        widget.event_generate("<ButtonRelease-1>", x=4, y=4)
    widget.update()


def add_todo(screen: tk_app.TodoScreen, title: str) -> None:
    type_text(screen.entry, title)
    press(screen.entry, "<Return>")


def row_titles(screen: tk_app.TodoScreen) -> List[str]:
    return [str(row.title_label.cget("text")) for row in screen.rows]


def test_todos_tab_adds_counts_toggles_and_destroys(app: tk_app.TkApp) -> None:
    screen = todos_screen(app)
    assert screen.rows == [] and not enabled(screen.mark_all_check)
    add_todo(screen, "   ")
    assert screen.rows == [], "a blank title adds nothing"
    for title in ("  Buy milk ", "Walk the dog", "Write tests"):
        add_todo(screen, title)
    assert row_titles(screen) == ["Buy milk", "Walk the dog", "Write tests"]
    assert screen.entry.get() == "", "the entry is cleared from new_todo_title"
    assert screen.counter_label.cget("text") == "3 items left"
    assert enabled(screen.mark_all_check)
    assert not screen.clear_button.winfo_ismapped()
    click(screen.rows[1].check)
    assert screen.view_model.items[1].completed
    assert screen.counter_label.cget("text") == "2 items left"
    assert screen.clear_button.winfo_ismapped()
    click(screen.rows[2].destroy_button)
    assert row_titles(screen) == ["Buy milk", "Walk the dog"]
    assert screen.counter_label.cget("text") == "1 item left"
    assert [row.item.object_id for row in screen.rows] == screen.view_model.items.ids()


def test_todos_tab_mark_all_filters_and_clear_completed(app: tk_app.TkApp) -> None:
    screen = todos_screen(app)
    for title in ("a", "b", "c"):
        add_todo(screen, title)
    click(screen.mark_all_check)
    assert [row.completed_var.get() for row in screen.rows] == [True, True, True]
    assert screen.counter_label.cget("text") == "0 items left"
    click(screen.rows[0].check)
    assert not screen.all_var.get(), "mark all follows a single toggle"
    click(screen.filter_buttons["active"])
    assert screen.view_model.filter == "active" and row_titles(screen) == ["a"]
    click(screen.rows[0].check)
    assert row_titles(screen) == [], "a todo the filter hides leaves at once"
    assert screen.all_var.get()
    click(screen.filter_buttons["completed"])
    assert row_titles(screen) == ["a", "b", "c"]
    click(screen.filter_buttons["all"])
    click(screen.rows[1].check)
    click(screen.clear_button)
    assert row_titles(screen) == ["b"] and not screen.all_var.get()
    assert not screen.clear_button.winfo_ismapped()


def test_todos_tab_edits_with_double_click_enter_and_escape(app: tk_app.TkApp) -> None:
    screen = todos_screen(app)
    for title in ("a", "b", "c"):
        add_todo(screen, title)
    row = screen.rows[0]
    double_click(row.title_label)
    screen.update()
    assert row.item.is_editing and row.editor.winfo_ismapped() and row.editor.get() == "a"
    row.editor.delete(0, "end")
    type_text(row.editor, "  apples ")
    press(row.editor, "<Return>")
    assert not row.editor.winfo_ismapped() and row_titles(screen)[0] == "apples"
    row = screen.rows[1]
    double_click(row.title_label)
    type_text(row.editor, "nanas")
    press(row.editor, "<Escape>")
    assert row_titles(screen) == ["apples", "b", "c"], "Escape cancels"
    row = screen.rows[2]
    double_click(row.title_label)
    row.editor.delete(0, "end")
    type_text(row.editor, "  ")
    press(row.editor, "<Return>")
    assert row_titles(screen) == ["apples", "b"], "an empty title destroys the todo"


def test_todos_tab_on_a_database_keeps_its_todos_and_shows_a_change_not_saved(
        root: tkinter.Tk, loop: mvvm.Loop, tmp_path: Path) -> None:
    directory = tmp_path / "store"
    directory.mkdir()
    path = str(directory / "todos.db")
    built = tk_app.build_app(root, loop, timer_seconds=3, seed=SEED, todo_storage=path, todo_library=TODO_LIBRARY)
    try:
        screen = todos_screen(built)
        for title in ("a", "b"):
            add_todo(screen, title)
        click(screen.rows[1].check)
    finally:
        built.close()
        built.notebook.destroy()
    built = tk_app.build_app(root, loop, timer_seconds=3, seed=SEED, todo_storage=path, todo_library=TODO_LIBRARY)
    try:
        screen = todos_screen(built)
        assert row_titles(screen) == ["a", "b"], "the todos come back from the database"
        assert [row.completed_var.get() for row in screen.rows] == [False, True]
        assert not screen.error_label.winfo_ismapped()
        shutil.rmtree(str(directory))  # the database's directory goes under the running app
        click(screen.rows[0].check)
        assert not screen.rows[0].completed_var.get(), "the box shows the stored value again"
        screen.update()
        assert screen.error_label.winfo_ismapped() and "the database file is gone" in str(screen.error_label.cget("text"))
        click(screen.filter_buttons["completed"])
        assert screen.filter_var.get() == "all" and row_titles(screen) == ["a", "b"]
        add_todo(screen, "c")
        assert row_titles(screen) == ["a", "b"] and screen.entry.get() == "c", "the title stays in the entry"
        click(screen.mark_all_check)
        assert not screen.all_var.get() and [row.completed_var.get() for row in screen.rows] == [False, True]
    finally:
        built.close()


def test_screenshot_of_the_todos_tab(app: tk_app.TkApp) -> None:
    screen = todos_screen(app)
    for title in ("Buy milk", "Walk the dog", "Write the Tk tests", "Read DESIGN.md"):
        add_todo(screen, title)
    click(screen.rows[0].check)
    click(screen.rows[3].check)
    double_click(screen.rows[2].title_label)
    type_text(screen.rows[2].editor, " (lists)")
    type_text(screen.entry, "Something new")
    path = grab(app.root, "todos")
    data = path.read_bytes()
    pixels = zlib.decompress(data[data.index(b"IDAT") + 4:])
    assert len(set(pixels)) > 16, "%s is blank" % path
