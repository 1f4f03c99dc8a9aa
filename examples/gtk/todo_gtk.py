"""TodoMVC in GTK 4 from Python, with PyGObject, over the todo app's Swift view models.

    python3 examples/gtk/todo_gtk.py [--todos FILE] [--library PATH]

The view models come through the GLib bridge's typelib (MvvmGlib-1.0, built by `make gtk` into
build/gtk/, which this module puts on GI_TYPELIB_PATH): MvvmGlib.Library.open() loads
build/todo/libtodo.so, and each of its classes is a GObject type derived from MvvmGlib.Object
whose properties (``props``, ``get_property``), signals and actions are the view model's. The
window holds no state of its own: every widget is bound to a view-model property with
``bind_property`` (two-way for the checkboxes and the entries), commands are the view models'
actions ("todos.add", "item.destroy"), and the list is a Gtk.ListView over the ``items``
Gio.ListModel, whose items-changed are the view model's splices. (PyGObject 3.42, Debian 12's,
cannot build GtkExpressions, so Python binds with bind_property where the C app uses
expressions.)
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import List, Optional, Sequence

REPOSITORY = Path(__file__).resolve().parents[2]
BUILD = REPOSITORY / "build" / "gtk"
if (BUILD / "MvvmGlib-1.0.typelib").exists():   # before the first typelib is loaded
    os.environ["GI_TYPELIB_PATH"] = os.pathsep.join(
        [str(BUILD)] + [p for p in os.environ.get("GI_TYPELIB_PATH", "").split(os.pathsep) if p])

import gi  # noqa: E402

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
gi.require_version("MvvmGlib", "1.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk, MvvmGlib, Pango  # noqa: E402

FILTERS = (("All", "all"), ("Active", "active"), ("Completed", "completed"))
SYNC = GObject.BindingFlags.SYNC_CREATE
BOTH = GObject.BindingFlags.SYNC_CREATE | GObject.BindingFlags.BIDIRECTIONAL

CSS = b"""
todorow { padding: 4px 6px; }
todorow label.title.completed { text-decoration: line-through; color: alpha(currentColor, 0.55); }
.todo-heading { font-size: 32px; font-weight: 200; color: #b83f45; }
label.storage-error { color: #b00020; }
"""


class TodoRow(Gtk.Box):
    """One todo_item_view_model: its checkbox, its title or its editor, its destroy button."""

    __gtype_name__ = "TodoRowPy"

    def __init__(self) -> None:
        super().__init__(orientation=Gtk.Orientation.HORIZONTAL, spacing=8, css_name="todorow")
        self.item: Optional[MvvmGlib.Object] = None
        self.bindings: List[GObject.Binding] = []
        self.completed = Gtk.CheckButton()
        self.stack = Gtk.Stack(hexpand=True)
        self.title = Gtk.Label(xalign=0, ellipsize=Pango.EllipsizeMode.END)
        self.editor = Gtk.Entry()
        self.stack.add_named(self.title, "title")
        self.stack.add_named(self.editor, "editor")
        self.destroy_button = Gtk.Button(icon_name="window-close-symbolic", action_name="item.destroy",
                                         tooltip_text="Delete")
        self.destroy_button.add_css_class("flat")
        for child in (self.completed, self.stack, self.destroy_button):
            self.append(child)
        # A double click edits; Enter saves, Escape cancels, leaving the editor saves.
        self.title_click = Gtk.GestureClick()
        self.title_click.connect("pressed", self._on_title_pressed)
        self.title.add_controller(self.title_click)
        self.editor.connect("activate", lambda entry: self.activate_action("item.commit-edit", None))
        self.editor_keys = Gtk.EventControllerKey()
        self.editor_keys.connect("key-pressed", self._on_editor_key)
        self.editor.add_controller(self.editor_keys)
        self.editor_focus = Gtk.EventControllerFocus()
        self.editor_focus.connect("leave", self._on_editor_leave)
        self.editor.add_controller(self.editor_focus)
        self.stack.connect("notify::visible-child-name", self._on_page_changed)

    def _on_title_pressed(self, gesture: Gtk.GestureClick, n_press: int, x: float, y: float) -> None:
        if n_press == 2:
            self.activate_action("item.begin-edit", None)

    def _on_editor_key(self, keys: Gtk.EventControllerKey, keyval: int, keycode: int, state: Gdk.ModifierType) -> bool:
        if keyval != Gdk.KEY_Escape:
            return False
        self.activate_action("item.cancel-edit", None)
        return True

    def _on_editor_leave(self, focus: Gtk.EventControllerFocus) -> None:
        if self.item is not None:
            self.activate_action("item.commit-edit", None)

    def _on_page_changed(self, stack: Gtk.Stack, pspec: GObject.ParamSpec) -> None:
        if stack.get_visible_child_name() == "editor":
            self.editor.grab_focus()

    def show_item(self, item: Optional[MvvmGlib.Object]) -> None:
        """Binds the row to ``item`` (None: unbinds it), as the list view reuses rows."""
        for binding in self.bindings:
            binding.unbind()
        self.bindings = []
        self.item = item
        self.insert_action_group("item", item)
        if item is None:
            return
        self.bindings = [
            item.bind_property("title", self.title, "label", SYNC),
            item.bind_property("completed", self.completed, "active", BOTH),
            item.bind_property("edit-text", self.editor, "text", BOTH),
            item.bind_property("is-editing", self.stack, "visible-child-name", SYNC,
                               lambda binding, editing: "editor" if editing else "title"),
            item.bind_property("completed", self.title, "css-classes", SYNC,
                               lambda binding, completed: ["title", "completed"] if completed else ["title"]),
        ]


class TodoWindow(Gtk.ApplicationWindow):
    """The window over a todo_list_view_model ``todos``, which is its action group "todos"."""

    __gtype_name__ = "TodoWindowPy"

    def __init__(self, todos: MvvmGlib.Object, application: Optional[Gtk.Application] = None) -> None:
        super().__init__(application=application, title="todos", default_width=480, default_height=560)
        _load_css()
        self.todos = todos
        self.items = todos.props.items
        self.insert_action_group("todos", todos)
        page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin_top=16, margin_bottom=16,
                       margin_start=16, margin_end=16)
        self.set_child(page)
        heading = Gtk.Label(label="todos")
        heading.add_css_class("todo-heading")
        page.append(heading)

        top = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=8)
        page.append(top)
        self.mark_all = Gtk.CheckButton(tooltip_text="Mark all as complete")
        top.append(self.mark_all)
        todos.bind_property("all-completed", self.mark_all, "active", BOTH)
        todos.bind_property("has-todos", self.mark_all, "sensitive", SYNC)
        self.new_todo = Gtk.Entry(placeholder_text="What needs to be done?", hexpand=True)
        top.append(self.new_todo)
        todos.bind_property("new-todo-title", self.new_todo, "text", BOTH)
        self.new_todo.connect("activate", lambda entry: entry.activate_action("todos.add", None))

        factory = Gtk.SignalListItemFactory()
        factory.connect("setup", _setup_row)
        factory.connect("bind", lambda factory, list_item: list_item.get_child().show_item(list_item.get_item()))
        factory.connect("unbind", lambda factory, list_item: list_item.get_child().show_item(None))
        self.list = Gtk.ListView(model=Gtk.NoSelection(model=self.items), factory=factory)
        scroller = Gtk.ScrolledWindow(vexpand=True, hscrollbar_policy=Gtk.PolicyType.NEVER)
        scroller.set_child(self.list)
        page.append(scroller)

        self.footer = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=8)
        page.append(self.footer)
        todos.bind_property("has-todos", self.footer, "visible", SYNC)
        self.counter = Gtk.Label(xalign=0, width_request=100)
        self.footer.append(self.counter)
        todos.bind_property("items-left", self.counter, "label", SYNC)
        filters = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
        filters.add_css_class("linked")
        self.footer.append(filters)
        self.filters = {}
        for label, value in FILTERS:
            button = Gtk.ToggleButton(label=label)
            if self.filters:
                button.set_group(self.filters["all"])
            filters.append(button)
            # filter == value, both ways; a button that goes inactive sets nothing (None).
            todos.bind_property("filter", button, "active", BOTH,
                                lambda binding, current, value=value: current == value,
                                lambda binding, active, value=value: value if active else None)
            self.filters[value] = button
        self.clear_completed = Gtk.Button(label="Clear completed", hexpand=True, halign=Gtk.Align.END,
                                          action_name="todos.clear-completed")
        self.footer.append(self.clear_completed)
        todos.bind_property("is-clear-completed-visible", self.clear_completed, "visible", SYNC)

        self.storage_error = Gtk.Label(wrap=True, xalign=0)
        self.storage_error.add_css_class("storage-error")
        page.append(self.storage_error)
        todos.bind_property("storage-error", self.storage_error, "label", SYNC)
        todos.bind_property("storage-error", self.storage_error, "visible", SYNC, lambda binding, error: bool(error))


def _setup_row(factory: Gtk.SignalListItemFactory, list_item: Gtk.ListItem) -> None:
    list_item.set_activatable(False)
    list_item.set_selectable(False)
    list_item.set_child(TodoRow())


_css_loaded = False


def _load_css() -> None:
    global _css_loaded
    if _css_loaded:
        return
    provider = Gtk.CssProvider()
    provider.load_from_data(CSS)
    Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), provider,
                                              Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
    _css_loaded = True


def default_library() -> str:
    return os.environ.get("MVVM_TODO_LIBRARY") or str(REPOSITORY / "build" / "todo" / "libtodo.so")


def open_todos(library_path: str, storage_path: str) -> MvvmGlib.Object:
    """A todo_list_view_model over ``storage_path`` ("" in memory), on a manual loop attached
    to GTK's main context. Raises GLib.Error (MvvmGlib.Error) when it cannot."""
    library = MvvmGlib.Library.open(library_path)
    loop = MvvmGlib.Loop.new(library, None)
    return MvvmGlib.Object.new(loop, "todo_list_view_model", GLib.Variant("(s)", (storage_path,)))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--todos", default="", help="the todos' SQLite database (default: in memory)")
    parser.add_argument("--library", default=default_library(), help="the todo app's library (build/todo/libtodo.so)")
    args = parser.parse_args(argv)
    application = Gtk.Application(application_id="org.libmvvm.TodoGtkPy", flags=Gio.ApplicationFlags.NON_UNIQUE)
    status = {"code": 0}

    def on_activate(app: Gtk.Application) -> None:
        try:
            todos = open_todos(args.library, args.todos)
        except GLib.Error as error:
            print("todo_gtk.py: %s (library %s)" % (error.message, args.library), file=sys.stderr)
            status["code"] = 1
            return
        TodoWindow(todos, app).present()

    application.connect("activate", on_activate)
    code = application.run([sys.argv[0]])
    return status["code"] or code


if __name__ == "__main__":
    sys.exit(main())
