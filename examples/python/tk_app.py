"""A Tk View over the whole catalog, through the mvvm package only: one window, one tab per screen
(the countdown timer, the stopwatch, the input echo, the sign-up form, the welcome screen, the two
counters), and a Todos tab (TodoMVC) when the todo app's library is given too (build/todo/libtodo.so,
loaded beside libcatalog.so with loops of its own), its rows following the list's splices. Each
library is loaded by its path (``mvvm.load``); the screens make their view models with the
classes of their loop's library (``loop.library``).

The widgets show what the view models say and send them the user's actions; there is no logic
here (no validation, no timers, no formatting of times): every widget changes only from a
subscription, one per view model, and every button or entry only calls a command or sets a
binding. The manual loop that runs the view models' time (the countdown's seconds, the
stopwatch's ticks, the player's 1 s tap throttle, the welcome API's answer) is plugged into Tk's
event loop through its file descriptor (``createfilehandler``): Tk's own ``select`` wakes up when
work is due and the handler runs ``loop.dispatch()``. Nothing polls.

Run: python3 examples/python/tk_app.py build/catalog/libcatalog.so [--todo-library build/todo/libtodo.so]
[--seconds N] [--seed N]   (PYTHONPATH=bindings/python, or an installed mvvm package)

Tests build the same window over a virtual loop of the catalog's library
(``build_app(root, catalog.Loop.virtual())``) and move time with ``loop.advance(ms)``: see
test_tk_app.py.
"""
from __future__ import annotations

import argparse
import os
import sys
import tkinter
from tkinter import font as tkfont
from tkinter import ttk
from typing import Any, Callable, List, Literal, Optional, Sequence, TypeVar

import mvvm
from mvvm import _abi  # ERR_COMMAND_FAILED: the status of a command that threw

Owned = TypeVar("Owned", bound=mvvm.MvvmObject)

__all__ = ["LoopSource", "Dialog", "FlagDialog", "TimerScreen", "StopWatchScreen", "InputEchoScreen", "SignUpScreen",
           "WelcomeScreen", "CounterRow", "CountersScreen", "run_command", "TodoRow", "TodoScreen", "TkApp",
           "build_app", "main"]


# --- plumbing ----------------------------------------------------------------------------------


class LoopSource:
    """A manual loop plugged into Tk's event loop: its fd is readable while work is due, so Tk's
    ``select`` calls :meth:`on_readable`, which dispatches that work (and the notifications it
    causes arrive on Tk's thread, where widgets may be touched)."""

    def __init__(self, root: tkinter.Misc, loop: mvvm.Loop) -> None:
        self.root, self.loop = root, loop
        #: How many times Tk found the fd readable (for tests and diagnostics).
        self.dispatches = 0
        self.fd: Optional[int] = loop.fileno()
        root.tk.createfilehandler(self.fd, tkinter.READABLE, self.on_readable)

    def on_readable(self, fd: int, mask: int) -> None:
        self.dispatches += 1
        self.loop.dispatch()

    def close(self) -> None:
        """Takes the fd out of Tk (before the loop is closed). Idempotent."""
        fd, self.fd = self.fd, None
        if fd is not None:
            try:
                self.root.tk.deletefilehandler(fd)
            except tkinter.TclError:
                pass  # the interpreter is gone already


def set_enabled(widget: ttk.Widget, enabled: bool) -> None:
    widget.state(["!disabled"] if enabled else ["disabled"])


class Dialog(tkinter.Toplevel):
    """An alert that does not block (no grab, no nested event loop): a window with a message and
    an OK button, over its screen. OK (or closing the window) calls ``on_ok``, which tells the
    view model; the view model's notification then closes the dialog."""

    def __init__(self, screen: ttk.Frame, title: str, message: str, on_ok: Callable[[], Any]) -> None:
        super().__init__(screen, borderwidth=2, relief="raised")
        self.title(title)
        self.transient(screen.winfo_toplevel())
        self.resizable(False, False)
        body = ttk.Frame(self, padding=16)
        body.pack(fill="both", expand=True)
        self.message_label = ttk.Label(body, text=message, font=_font(self, "TkHeadingFont", 14, "bold"))
        self.message_label.pack(padx=24, pady=(4, 12))
        self.ok_button = ttk.Button(body, text="OK", command=on_ok)
        self.ok_button.pack()
        self.protocol("WM_DELETE_WINDOW", on_ok)
        # Centred over the window (a window manager, if any, may place it otherwise).
        top = screen.winfo_toplevel()
        self.update_idletasks()
        self.geometry("+%d+%d" % (top.winfo_rootx() + max(0, (top.winfo_width() - self.winfo_reqwidth()) // 2),
                                  top.winfo_rooty() + max(0, (top.winfo_height() - self.winfo_reqheight()) // 2)))


class FlagDialog:
    """The Dialog a view model's bool property asks for: ``follow(value)`` with each of the
    property's values shows it while the property is true; its OK sets the property false, and the
    view model's notification of that closes it."""

    def __init__(self, screen: ttk.Frame, view_model: mvvm.MvvmObject, flag: str, title: str, message: str) -> None:
        self.screen, self.view_model, self.flag = screen, view_model, flag
        self.title, self.message = title, message
        self.dialog: Optional[Dialog] = None

    def follow(self, shown: bool) -> None:
        if shown and self.dialog is None:
            self.dialog = Dialog(self.screen, self.title, self.message, self.dismiss)
        elif not shown and self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.destroy()

    def dismiss(self) -> None:
        setattr(self.view_model, self.flag, False)


_fonts: dict = {}


def _font(master: tkinter.Misc, base: str, size: int, weight: Literal["normal", "bold"] = "normal") -> tkfont.Font:
    """One of Tk's standard fonts (TkDefaultFont, TkFixedFont...) at another size, kept per
    interpreter (a Font object deletes its Tk font when it is garbage-collected)."""
    key = (id(master.tk), base, size, weight)
    if key not in _fonts:
        made = tkfont.Font(root=master, font=base)
        made.configure(size=size, weight=weight)
        _fonts[key] = made
    return _fonts[key]


class Screen(ttk.Frame):
    """One tab. ``bind(vm, on_change)`` shows the view model's current state, then subscribes
    ``on_change(name, value)`` to every change of it: one subscription per view model."""

    title = ""

    def __init__(self, master: tkinter.Misc) -> None:
        super().__init__(master, padding=16)
        self.subscriptions: List[mvvm.Subscription] = []
        self.view_models: List[mvvm.MvvmObject] = []

    def own(self, view_model: Owned) -> Owned:
        """Keeps ``view_model`` to close with the screen, and gives it back."""
        self.view_models.append(view_model)
        return view_model

    def heading(self, text: str, size: int = 13) -> None:
        ttk.Label(self, text=text, font=_font(self, "TkHeadingFont", size, "bold")).pack(anchor="w")

    def bind_view_model(self, view_model: mvvm.MvvmObject, on_change: Callable[[str, Any], Any]) -> None:
        for name, value in view_model.snapshot().items():
            on_change(name, value)
        self.subscriptions.append(view_model.subscribe(None, on_change))

    def close(self) -> None:
        for subscription in self.subscriptions:
            try:
                subscription.unsubscribe()
            except mvvm.MvvmError:
                pass  # ended already (its loop was closed)
        self.subscriptions.clear()
        for view_model in self.view_models:
            view_model.close()


# --- the screens -------------------------------------------------------------------------------


class TimerScreen(Screen):
    """The countdown: the display child's remaining time, the player child's buttons, and the
    "time is up" alert while ``is_show_alert``."""

    title = "Timer"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop, seconds: int) -> None:
        super().__init__(master)
        self.timer = loop.library.CountDownTimer(loop, seconds)
        self.view_model = loop.library.TimerViewModel(loop, self.timer)
        self.display, self.player = self.view_model.display, self.view_model.player
        self.view_models += [self.view_model, self.timer]

        self.heading("Countdown timer")
        self.display_label = ttk.Label(self, font=_font(self, "TkFixedFont", 48, "bold"), anchor="center")
        self.display_label.pack(pady=(24, 0))
        ttk.Label(self, text="seconds left").pack()
        buttons = ttk.Frame(self)
        buttons.pack(pady=24)
        self.start_button = ttk.Button(buttons, text="Start", command=lambda: self.player.tapped("start"))
        self.pause_button = ttk.Button(buttons, text="Pause", command=lambda: self.player.tapped("pause"))
        self.stop_button = ttk.Button(buttons, text="Stop", command=lambda: self.player.tapped("stop"))
        for button in (self.start_button, self.pause_button, self.stop_button):
            button.pack(side="left", padx=6)
        self.alert = FlagDialog(self, self.view_model, "is_show_alert", "Timer", "Time's up!")

        self.bind_view_model(self.view_model, self.on_timer)
        self.bind_view_model(self.display, self.on_display)
        self.bind_view_model(self.player, self.on_player)

    def on_timer(self, name: str, value: Any) -> None:
        if name == "is_show_alert":
            self.alert.follow(value)

    def on_display(self, name: str, value: Any) -> None:
        if name == "remaining_time":
            self.display_label.configure(text=str(value))

    def on_player(self, name: str, value: Any) -> None:
        if name == "is_stop_enabled":
            set_enabled(self.stop_button, value)
        elif name == "is_play_timer":
            set_enabled(self.start_button, not value)
            set_enabled(self.pause_button, value)

    def close(self) -> None:
        super().close()
        self.alert.follow(False)


class StopWatchScreen(Screen):
    """The stopwatch: its time, the main button (Start / Stop / Resume) and Clear."""

    title = "Stopwatch"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop) -> None:
        super().__init__(master)
        self.view_model = self.own(loop.library.StopWatchViewModel(loop))
        self.heading("Stopwatch")
        self.time_label = ttk.Label(self, font=_font(self, "TkFixedFont", 40, "bold"), anchor="center")
        self.time_label.pack(pady=(36, 0))
        buttons = ttk.Frame(self)
        buttons.pack(pady=28)
        self.main_button = ttk.Button(buttons, width=10, command=self.view_model.main_action)
        self.clear_button = ttk.Button(buttons, width=10, command=self.view_model.clear_action)
        self.main_button.pack(side="left", padx=6)
        self.clear_button.pack(side="left", padx=6)
        self.bind_view_model(self.view_model, self.on_change)

    def on_change(self, name: str, value: Any) -> None:
        if name == "time":
            self.time_label.configure(text=value)
        elif name == "main_action_title":
            self.main_button.configure(text=value)
        elif name == "main_action_enabled":
            set_enabled(self.main_button, value)
        elif name == "clear_action_title":
            self.clear_button.configure(text=value)
        elif name == "clear_action_enabled":
            set_enabled(self.clear_button, value)


class InputEchoScreen(Screen):
    """An entry bound to ``input``; ``label`` and ``message`` shown below it."""

    title = "Input echo"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop) -> None:
        super().__init__(master)
        self.view_model = self.own(loop.library.InputEchoViewModel(loop))
        self.heading("Input echo")
        self.input_var = tkinter.StringVar(self)
        self.entry = ttk.Entry(self, textvariable=self.input_var, width=40)
        self.entry.pack(anchor="w", pady=(16, 12))
        grid = ttk.Frame(self)
        grid.pack(anchor="w")
        ttk.Label(grid, text="label:").grid(row=0, column=0, sticky="w", padx=(0, 8))
        self.label_label = ttk.Label(grid, font=_font(self, "TkDefaultFont", 12, "bold"))
        self.label_label.grid(row=0, column=1, sticky="w")
        ttk.Label(grid, text="message:").grid(row=1, column=0, sticky="w", padx=(0, 8), pady=(6, 0))
        self.message_label = ttk.Label(grid, font=_font(self, "TkDefaultFont", 12))
        self.message_label.grid(row=1, column=1, sticky="w", pady=(6, 0))
        self.bind_view_model(self.view_model, self.on_change)
        # Every edit of the entry (typed, pasted, inserted) sets the binding.
        self.input_var.trace_add("write", lambda *args: setattr(self.view_model, "input", self.input_var.get()))

    def on_change(self, name: str, value: Any) -> None:
        if name == "input":
            if self.input_var.get() != value:
                self.input_var.set(value)
        elif name == "label":
            self.label_label.configure(text=value)
        elif name == "message":
            self.message_label.configure(text=value)


class SignUpScreen(Screen):
    """The sign-up form: three entries and a checkbox bound to the view model, a Sign Up button
    enabled while ``is_sign_up_enabled``, and a completion alert while
    ``is_completion_alert_presented``."""

    title = "Sign up"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop) -> None:
        super().__init__(master)
        self.view_model = self.own(loop.library.SignUpViewModel(loop))
        self.heading("Sign up")
        form = ttk.Frame(self)
        form.pack(anchor="w", pady=(12, 0))
        self.vars = {}
        self.entries = {}
        for row, (name, caption, show) in enumerate((("user_id", "User ID", ""), ("password", "Password", "\u2022"),
                                                    ("confirm_password", "Confirm password", "\u2022"))):
            ttk.Label(form, text=caption).grid(row=row, column=0, sticky="w", padx=(0, 12), pady=4)
            var = tkinter.StringVar(self)
            entry = ttk.Entry(form, textvariable=var, show=show, width=28)
            entry.grid(row=row, column=1, sticky="w", pady=4)
            self.vars[name], self.entries[name] = var, entry
        self.user_id_entry = self.entries["user_id"]
        self.password_entry = self.entries["password"]
        self.confirm_password_entry = self.entries["confirm_password"]
        self.agreed_var = tkinter.BooleanVar(self, value=False)
        self.agreed_check = ttk.Checkbutton(form, text="I agree to the terms of service", variable=self.agreed_var,
                                            command=lambda: setattr(self.view_model, "agreed", self.agreed_var.get()))
        self.agreed_check.grid(row=3, column=1, sticky="w", pady=(8, 4))
        self.sign_up_button = ttk.Button(self, text="Sign Up", command=self.view_model.sign_up_tapped)
        self.sign_up_button.pack(anchor="w", pady=(16, 0))
        self.completion_alert = FlagDialog(self, self.view_model, "is_completion_alert_presented", "Sign up",
                                           "Sign-up complete!")
        self.bind_view_model(self.view_model, self.on_change)
        for name, var in self.vars.items():
            var.trace_add("write", lambda *args, name=name, var=var: setattr(self.view_model, name, var.get()))

    def on_change(self, name: str, value: Any) -> None:
        if name in self.vars:
            if self.vars[name].get() != value:
                self.vars[name].set(value)
        elif name == "agreed":
            if self.agreed_var.get() != value:
                self.agreed_var.set(value)
        elif name == "is_sign_up_enabled":
            set_enabled(self.sign_up_button, value)
        elif name == "is_completion_alert_presented":
            self.completion_alert.follow(value)

    def close(self) -> None:
        super().close()
        self.completion_alert.follow(False)


class WelcomeScreen(Screen):
    """The ``transform(input) -> output`` screen: ``view_did_load`` when the tab is first shown,
    ``tap_button(text)`` from the button, and its three signals shown in labels."""

    title = "Welcome"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop) -> None:
        super().__init__(master)
        self.view_model = self.own(loop.library.WelcomeViewModel(loop))
        self.loaded = False
        self.only_first_count = 0
        self.heading("Welcome")
        self.welcome_label = ttk.Label(self, text="\u2026", font=_font(self, "TkHeadingFont", 22, "bold"))
        self.welcome_label.pack(anchor="w", pady=(14, 14))
        row = ttk.Frame(self)
        row.pack(anchor="w")
        self.text_var = tkinter.StringVar(self, value="Button")
        self.text_entry = ttk.Entry(row, textvariable=self.text_var, width=20)
        self.text_entry.pack(side="left")
        self.tap_button = ttk.Button(row, text="Tap", command=lambda: self.view_model.tap_button(self.text_var.get()))
        self.tap_button.pack(side="left", padx=8)
        grid = ttk.Frame(self)
        grid.pack(anchor="w", pady=(16, 0))
        ttk.Label(grid, text="on_show_text:").grid(row=0, column=0, sticky="w", padx=(0, 8))
        self.text_label = ttk.Label(grid, text="\u2014", font=_font(self, "TkDefaultFont", 12, "bold"))
        self.text_label.grid(row=0, column=1, sticky="w")
        ttk.Label(grid, text="on_show_only_first:").grid(row=1, column=0, sticky="w", padx=(0, 8), pady=(6, 0))
        self.only_first_label = ttk.Label(grid, text="not yet", font=_font(self, "TkDefaultFont", 12))
        self.only_first_label.grid(row=1, column=1, sticky="w", pady=(6, 0))
        self.bind_view_model(self.view_model, self.on_change)

    def view_did_load(self) -> None:
        """The view's lifecycle: sent once, when the tab is first shown."""
        if not self.loaded:
            self.loaded = True
            self.view_model.view_did_load()

    def on_change(self, name: str, value: Any) -> None:
        if name == "on_show_welcome":
            self.welcome_label.configure(text=value)
        elif name == "on_show_text":
            self.text_label.configure(text=value)
        elif name == "on_show_only_first":
            self.only_first_count += 1
            self.only_first_label.configure(text="shown %d time%s" % (self.only_first_count,
                                                                     "" if self.only_first_count == 1 else "s"))


class CounterRow(ttk.Frame):
    """One counter view model: its label, its count, and its − and + buttons."""

    def __init__(self, master: tkinter.Misc, view_model: mvvm.MvvmObject) -> None:
        super().__init__(master, padding=(0, 8))
        self.view_model = view_model
        self.name_label = ttk.Label(self, width=16, font=_font(self, "TkDefaultFont", 12, "bold"))
        self.name_label.pack(side="left")
        self.minus_button = ttk.Button(self, text="\u2212", width=3, command=view_model.decrement)
        self.minus_button.pack(side="left")
        self.count_label = ttk.Label(self, width=4, anchor="center", font=_font(self, "TkFixedFont", 20, "bold"))
        self.count_label.pack(side="left", padx=10)
        self.plus_button = ttk.Button(self, text="+", width=3, command=view_model.increment)
        self.plus_button.pack(side="left")

    def on_change(self, name: str, value: Any) -> None:
        if name == "label":
            self.name_label.configure(text=value)
        elif name == "count":
            self.count_label.configure(text=value)


class CountersScreen(Screen):
    """The counter page: its read-me and a row for each of its two counter children."""

    title = "Counters"

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop, seed: Optional[int]) -> None:
        super().__init__(master)
        pages = loop.library.CounterPageViewModel
        page = pages(loop) if seed is None else pages(loop, seed)
        self.view_model = self.own(page)
        self.heading("Counters")
        self.read_me_label = ttk.Label(self, wraplength=480, justify="left")
        self.read_me_label.pack(anchor="w", pady=(8, 12))
        self.rows = [CounterRow(self, self.view_model.first_counter), CounterRow(self, self.view_model.second_counter)]
        for row in self.rows:
            row.pack(anchor="w")
        self.first_row, self.second_row = self.rows
        self.bind_view_model(self.view_model, self.on_change)
        for row in self.rows:
            self.bind_view_model(row.view_model, row.on_change)

    def on_change(self, name: str, value: Any) -> None:
        if name == "read_me":
            self.read_me_label.configure(text=value)


def run_command(command: Callable[[], Any]) -> None:
    """A todo command whose failure the screen already shows: when its change cannot be saved it
    fails with MVVM_ERR_COMMAND_FAILED, and the list's storage_error, shown under the list, says
    why. Any other failure is raised."""
    try:
        command()
    except mvvm.MvvmError as error:
        if error.status != _abi.ERR_COMMAND_FAILED:
            raise


class TodoRow(ttk.Frame):
    """One todo item view model: its checkbox, its title (double-click edits it: Enter commits,
    Escape cancels) and its destroy button. Changes only from the item's subscription."""

    def __init__(self, master: tkinter.Misc, item: mvvm.MvvmObject) -> None:
        super().__init__(master, padding=(0, 2))
        self.item: Any = item
        self.completed_var = tkinter.BooleanVar(self, value=False)
        self.check = ttk.Checkbutton(self, variable=self.completed_var, command=self._toggled)
        self.check.pack(side="left")
        self.title_label = ttk.Label(self, width=34, font=_font(self, "TkDefaultFont", 11))
        self.title_label.pack(side="left", padx=(4, 4))
        self.title_label.bind("<Double-Button-1>", lambda event: self.item.begin_edit())
        self.edit_var = tkinter.StringVar(self)
        self.editor = ttk.Entry(self, textvariable=self.edit_var, width=34)
        self.edit_var.trace_add("write", lambda *args: self._edit_text_changed())
        self.editor.bind("<Return>", lambda event: run_command(self.item.commit_edit))
        self.editor.bind("<Escape>", lambda event: self.item.cancel_edit())
        self.destroy_button = ttk.Button(self, text="\u00d7", width=2, command=lambda: run_command(self.item.destroy))
        self.destroy_button.pack(side="right")
        self.editing = False
        self.subscription: Optional[mvvm.Subscription] = None
        for name, value in item.snapshot().items():
            self.on_change(name, value)
        self.subscription = item.subscribe(None, self.on_change)

    def _toggled(self) -> None:
        """The click already ticked the box: after telling the view model, the box shows what
        it holds (a change that could not be saved leaves the stored value, and no notification)."""
        self.item.completed = self.completed_var.get()
        if not self.item.closed:  # still shown (a row the filter hides now is closed by its splice)
            self.completed_var.set(bool(self.item.completed))

    def _edit_text_changed(self) -> None:
        if self.editing and self.edit_var.get() != self.item.edit_text:
            self.item.edit_text = self.edit_var.get()

    def on_change(self, name: str, value: Any) -> None:
        if name == "title":
            self.title_label.configure(text=value)
        elif name == "completed":
            self.completed_var.set(bool(value))
            self.title_label.configure(foreground="#999999" if value else "")
        elif name == "edit_text":
            if self.edit_var.get() != value:
                self.edit_var.set(value)
        elif name == "is_editing":
            self.editing = bool(value)
            if value:
                self.edit_var.set(self.item.edit_text)
                self.title_label.pack_forget()
                self.editor.pack(side="left", padx=(4, 4), before=self.destroy_button)
                self.editor.focus_set()
                self.editor.icursor("end")
            else:
                self.editor.pack_forget()
                self.title_label.pack(side="left", padx=(4, 4), before=self.destroy_button)

    def close(self) -> None:
        if self.subscription is not None:
            try:
                self.subscription.unsubscribe()
            except mvvm.MvvmError:
                pass
        self.item.close()
        self.destroy()


class TodoScreen(Screen):
    """TodoMVC over a todo_list_view_model (a library that registers one, such as
    build/todo/libtodo.so): the new-todo entry, mark all, the list (its rows follow the list's
    splices), the counter, the filters, clear completed, and why a change could not be saved
    (``storage_error``, shown only then)."""

    title = "Todos"
    FILTERS = (("All", "all"), ("Active", "active"), ("Completed", "completed"))

    def __init__(self, master: tkinter.Misc, loop: mvvm.Loop, storage_path: str = "") -> None:
        super().__init__(master)
        self.view_model: Any = self.own(mvvm.new(loop, "todo_list_view_model", storage_path))
        self.heading("todos", size=16)
        top = ttk.Frame(self)
        top.pack(fill="x", pady=(6, 4))
        self.all_var = tkinter.BooleanVar(self, value=False)
        self.mark_all_check = ttk.Checkbutton(top, text="Mark all", variable=self.all_var,
                                              command=lambda: self._set("all_completed", self.all_var))
        self.mark_all_check.pack(side="left")
        self.new_var = tkinter.StringVar(self)
        self.entry = ttk.Entry(top, textvariable=self.new_var, width=36)
        self.entry.pack(side="left", padx=(8, 0), fill="x", expand=True)
        self.new_var.trace_add("write", lambda *args: self._new_title_changed())
        self.entry.bind("<Return>", lambda event: run_command(self.view_model.add))
        self.list_frame = ttk.Frame(self)
        self.list_frame.pack(fill="both", expand=True)
        self.rows: List[TodoRow] = []
        bottom = ttk.Frame(self)
        bottom.pack(fill="x", side="bottom", pady=(4, 0))
        self.counter_label = ttk.Label(bottom, width=14)
        self.counter_label.pack(side="left")
        self.filter_var = tkinter.StringVar(self, value="all")
        self.filter_buttons = {}
        for text, value in self.FILTERS:
            button = ttk.Radiobutton(bottom, text=text, value=value, variable=self.filter_var,
                                     command=lambda: self._set("filter", self.filter_var))
            button.pack(side="left", padx=2)
            self.filter_buttons[value] = button
        self.clear_button = ttk.Button(bottom, text="Clear completed",
                                       command=lambda: run_command(self.view_model.clear_completed))
        self.clear_button.pack(side="right")
        self.error_label = ttk.Label(self, foreground="#b00020", wraplength=520)
        self.apply_splice(mvvm.Splice(0, 0, len(self.view_model.items)))
        self.bind_view_model(self.view_model, self.on_change)

    def _set(self, name: str, var: tkinter.Variable) -> None:
        """A binding set from a widget that already shows the new value; then the widget shows
        what the view model holds (a change that could not be saved leaves the stored value)."""
        setattr(self.view_model, name, var.get())
        var.set(getattr(self.view_model, name))

    def _new_title_changed(self) -> None:
        if self.new_var.get() != self.view_model.new_todo_title:
            self.view_model.new_todo_title = self.new_var.get()

    def apply_splice(self, splice: mvvm.Splice) -> None:
        """The rows follow the list: the removed rows go, rows for the inserted items come."""
        for row in self.rows[splice.index:splice.index + splice.removed]:
            row.close()
        items = self.view_model.items
        made = [TodoRow(self.list_frame, items[splice.index + k]) for k in range(splice.inserted)]
        self.rows[splice.index:splice.index + splice.removed] = made
        for row in self.rows:
            row.pack_forget()
        for row in self.rows:
            row.pack(fill="x", anchor="w")

    def on_change(self, name: str, value: Any) -> None:
        if name == "items":
            if isinstance(value, mvvm.Splice):
                self.apply_splice(value)
        elif name == "new_todo_title":
            if self.new_var.get() != value:
                self.new_var.set(value)
        elif name == "items_left":
            self.counter_label.configure(text=value)
        elif name == "filter":
            self.filter_var.set(value)
        elif name == "all_completed":
            self.all_var.set(bool(value))
        elif name == "has_todos":
            set_enabled(self.mark_all_check, bool(value))
        elif name == "is_clear_completed_visible":
            if value:
                self.clear_button.pack(side="right")
            else:
                self.clear_button.pack_forget()
        elif name == "storage_error":
            self.error_label.configure(text=value)
            if value:
                self.error_label.pack(fill="x", side="bottom", pady=(4, 0))
            else:
                self.error_label.pack_forget()

    def close(self) -> None:
        for row in self.rows:
            row.close()
        self.rows.clear()
        super().close()


# --- the window --------------------------------------------------------------------------------


class TkApp:
    """The window's content: a notebook of the screens over view models of ``loop``. A manual
    loop is plugged into Tk through its fd; a virtual loop (tests) is left to its owner."""

    def __init__(self, root: tkinter.Tk, loop: mvvm.Loop, *, timer_seconds: int = 10,
                 seed: Optional[int] = None, todo_storage: str = "", todo_library: Optional[str] = None) -> None:
        self.root, self.loop = root, loop
        self.todo_loop = todo_loop_beside(loop, todo_library)
        root.title("libmvvm \u2014 the MVVM catalog in Tk")
        style = ttk.Style(root)
        if "clam" in style.theme_names():
            style.theme_use("clam")
        self.notebook = ttk.Notebook(root)
        self.notebook.pack(fill="both", expand=True, padx=8, pady=8)
        self.timer = TimerScreen(self.notebook, loop, timer_seconds)
        self.stopwatch = StopWatchScreen(self.notebook, loop)
        self.input_echo = InputEchoScreen(self.notebook, loop)
        self.sign_up = SignUpScreen(self.notebook, loop)
        self.welcome = WelcomeScreen(self.notebook, loop)
        self.counters = CountersScreen(self.notebook, loop, seed)
        # The Todos tab when the todo app's library is at hand, on a loop of that library.
        self.todos: Optional[TodoScreen] = None
        if self.todo_loop is not None:
            self.todos = TodoScreen(self.notebook, self.todo_loop, todo_storage)
        self.screens: Sequence[Screen] = (self.timer, self.stopwatch, self.input_echo, self.sign_up, self.welcome,
                                          self.counters) + ((self.todos,) if self.todos is not None else ())
        for screen in self.screens:
            self.notebook.add(screen, text=screen.title)
        self.notebook.bind("<<NotebookTabChanged>>", self.on_tab_changed)
        plugged = (mvvm.LoopKind.MANUAL, mvvm.LoopKind.MAIN)
        self.sources = [LoopSource(root, each) for each in {id(loop): loop, id(self.todo_loop): self.todo_loop}.values()
                        if each is not None and each.kind in plugged]

    def select(self, screen: Screen) -> None:
        self.notebook.select(screen)

    def on_tab_changed(self, event: Any = None) -> None:
        if self.notebook.select() == str(self.welcome):
            self.welcome.view_did_load()

    def close(self) -> None:
        """Ends the subscriptions, closes the view models and takes the loop's fd out of Tk;
        the loop itself belongs to the caller."""
        for source in self.sources:
            source.close()
        for screen in self.screens:
            screen.close()
        if self.todo_loop is not None and self.todo_loop is not self.loop:
            self.todo_loop.close()


def todo_loop_beside(loop: mvvm.Loop, todo_library: Optional[str]) -> Optional[mvvm.Loop]:
    """A loop for the Todos tab, of the kind of ``loop``: ``loop`` itself when its library has the
    todo app's classes, else one of the todo app's library (the file ``todo_library``), which is
    another library (an object lives on a loop of its own library); None when there is no todo app."""
    if "todo_list_view_model" in loop.library.classes:
        return loop
    if not todo_library:
        return None
    todo = mvvm.load(todo_library)
    kinds = {mvvm.LoopKind.VIRTUAL: todo.Loop.virtual, mvvm.LoopKind.MAIN: todo.Loop.main}
    return kinds.get(loop.kind, todo.Loop.manual)()


def build_app(root: tkinter.Tk, loop: mvvm.Loop, *, timer_seconds: int = 10, seed: Optional[int] = None,
              todo_storage: str = "", todo_library: Optional[str] = None) -> TkApp:
    """Builds the window's content in ``root`` over view models on ``loop``, a loop of the
    catalog's library (manual: plugged into Tk; virtual: time moves with ``loop.advance``).
    ``seed`` seeds the random counter; ``todo_library`` is the todo app's library, for the Todos
    tab, and ``todo_storage`` its SQLite database ("" in memory; made where no file is)."""
    return TkApp(root, loop, timer_seconds=timer_seconds, seed=seed, todo_storage=todo_storage,
                 todo_library=todo_library)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library", help="the catalog's library (build/catalog/libcatalog.so: make catalog)")
    parser.add_argument("--todo-library", help="the todo app's library, for the Todos tab (build/todo/libtodo.so)")
    parser.add_argument("--seconds", type=int, default=10, help="the countdown's length (default 10)")
    parser.add_argument("--seed", type=int, default=None, help="the random counter's seed (default: random)")
    parser.add_argument("--todos", default="", help="the Todos tab's SQLite database (default: in memory)")
    args = parser.parse_args(argv)
    root = tkinter.Tk()
    root.geometry("560x380")
    # The main loop: a manual loop that also runs the main thread's Swift work (main-actor view
    # models, DispatchQueue.main, Foundation timers); Tk's own loop runs on this thread.
    catalog = mvvm.load(args.library)
    with catalog.Loop.main() as loop:
        app = build_app(root, loop, timer_seconds=args.seconds, seed=args.seed, todo_storage=args.todos,
                        todo_library=args.todo_library)
        try:
            root.mainloop()
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
