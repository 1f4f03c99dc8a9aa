"""Tests of the Python GTK app (todo_gtk.py) and of the bridge's typelib from PyGObject.

The app's window over build/todo/libtodo.so (MVVM_TODO_LIBRARY), driven through its widgets' own
API and signals (a button's "clicked", a check button's activate, an entry's "activate", a click
gesture's "pressed", a key controller's "key-pressed"), with screenshots of each state in
build/screenshots/gtk_py_todo_*.png (MVVM_SCREENSHOTS overrides). Needs a display: run
``bash examples/gtk/run_tests.sh`` (make test-gtk), which starts Xvfb, with Debian's python3
(python3-gi, python3-pytest) and the typelib in build/gtk (make gtk).
"""
from __future__ import annotations

import ctypes
import gc
import os
import shutil
import sys
from pathlib import Path
from typing import Iterator, List

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import todo_gtk  # noqa: E402  (puts build/gtk on GI_TYPELIB_PATH)
from todo_gtk import TodoRow, TodoWindow  # noqa: E402

import gi  # noqa: E402

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import Gdk, GdkPixbuf, Gio, GLib, GObject, Graphene, Gtk, MvvmGlib  # noqa: E402

SCREENSHOTS = Path(os.environ.get("MVVM_SCREENSHOTS") or todo_gtk.REPOSITORY / "build" / "screenshots")
os.environ.setdefault("GTK_A11Y", "none")


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def library() -> MvvmGlib.Library:
    if not Gtk.init_check():
        pytest.fail("no display: run examples/gtk/run_tests.sh, which starts Xvfb")
    return MvvmGlib.Library.open(todo_gtk.default_library())


@pytest.fixture(scope="session")
def loop(library: MvvmGlib.Library) -> MvvmGlib.Loop:
    return MvvmGlib.Loop.new(library, None)


@pytest.fixture(scope="session")
def catalog() -> MvvmGlib.Library:
    """The catalog's libcatalog.so (MVVM_CATALOG_LIBRARY), for its host services: the todo app does
    not carry the catalog."""
    return MvvmGlib.Library.open(os.environ["MVVM_CATALOG_LIBRARY"])


def new_todos(loop: MvvmGlib.Loop, storage: str = "") -> MvvmGlib.Object:
    return MvvmGlib.Object.new(loop, "todo_list_view_model", GLib.Variant("(s)", (storage,)))


class App:
    """A TodoWindow on screen, and what the tests do with it."""

    def __init__(self, todos: MvvmGlib.Object) -> None:
        self.todos = todos
        self.window = TodoWindow(todos)
        self.window.present()
        self.settle()

    def close(self) -> None:
        self.window.destroy()
        drain()

    def settle(self) -> None:
        """Everything pending has run, and the window has been laid out and painted once more."""
        drain()
        context = GLib.MainContext.default()
        while not self.window.get_mapped():
            context.iteration(True)
        clock = self.window.get_frame_clock()
        painted = []
        handler = clock.connect("after-paint", lambda clock: painted.append(True))
        self.window.queue_resize()
        self.window.queue_draw()
        while not painted:
            context.iteration(True)
        clock.disconnect(handler)
        drain()

    def rows(self) -> List[TodoRow]:
        self.settle()
        found: List[TodoRow] = []
        pending = [self.window.list]
        while pending:
            widget = pending.pop()
            child = widget.get_first_child()
            while child is not None:
                if isinstance(child, TodoRow):
                    if child.item is not None and child.get_mapped():
                        found.append(child)
                else:
                    pending.append(child)
                child = child.get_next_sibling()
        items = self.window.items
        order = {items.get_item(i).get_object_id(): i for i in range(items.get_n_items())}
        found.sort(key=lambda row: order[row.item.get_object_id()])
        assert len(found) == items.get_n_items()
        return found

    def shown(self) -> List[str]:
        return [("[x] " if row.completed.get_active() else "") + row.title.get_label() for row in self.rows()]

    def click(self, widget: Gtk.Widget) -> None:
        if isinstance(widget, Gtk.Button):
            widget.emit("clicked")
        else:
            assert widget.activate()
        self.settle()

    def type_into(self, entry: Gtk.Entry, text: str) -> None:
        entry.set_text(text)
        self.settle()

    def enter(self, entry: Gtk.Entry) -> None:
        entry.emit("activate")
        self.settle()

    def add(self, title: str) -> None:
        self.type_into(self.window.new_todo, title)
        self.enter(self.window.new_todo)

    def double_click(self, row: TodoRow) -> None:
        row.title_click.emit("pressed", 1, 4.0, 4.0)
        row.title_click.emit("pressed", 2, 4.0, 4.0)
        self.settle()

    def press_escape(self, row: TodoRow) -> None:
        assert row.editor_keys.emit("key-pressed", Gdk.KEY_Escape, 9, 0)
        self.settle()

    def screenshot(self, name: str) -> Path:
        """The window drawn by its own renderer into build/screenshots/gtk_py_todo_NAME.png."""
        self.settle()
        width, height = self.window.get_width(), self.window.get_height()
        paintable = Gtk.WidgetPaintable.new(self.window)
        snapshot = Gtk.Snapshot()
        paintable.snapshot(snapshot, width, height)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / ("gtk_py_todo_%s.png" % name)
        assert render_to_png(snapshot, self.window.get_renderer(), width, height, path)
        image = GdkPixbuf.Pixbuf.new_from_file(str(path))
        assert (image.get_width(), image.get_height()) == (width, height)
        pixels, channels = image.get_pixels(), image.get_n_channels()
        colours = {pixels[i:i + channels] for i in range(0, len(pixels) - channels, channels * 7)}
        assert len(colours) > 16, "%s is blank" % path
        return path


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_float), ("y", ctypes.c_float), ("width", ctypes.c_float), ("height", ctypes.c_float)]


def render_to_png(snapshot: Gtk.Snapshot, renderer: object, width: int, height: int, path: Path) -> bool:
    """gtk_snapshot_free_to_node, gsk_renderer_render_texture and gdk_texture_save_to_png, as the
    C test does: PyGObject 3.42 cannot pass a GskRenderNode (a fundamental type), so these three
    calls go through ctypes, with the objects' own pointers (hash() of a PyGObject wrapper)."""
    gtk = ctypes.CDLL("libgtk-4.so.1")
    gtk.gtk_snapshot_to_node.restype = ctypes.c_void_p
    gtk.gtk_snapshot_to_node.argtypes = [ctypes.c_void_p]
    gtk.gsk_renderer_render_texture.restype = ctypes.c_void_p
    gtk.gsk_renderer_render_texture.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(_Rect)]
    gtk.gdk_texture_save_to_png.restype = ctypes.c_int
    gtk.gdk_texture_save_to_png.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    gtk.gsk_render_node_unref.argtypes = [ctypes.c_void_p]
    gtk.g_object_unref.argtypes = [ctypes.c_void_p]
    node = gtk.gtk_snapshot_to_node(hash(snapshot))
    if not node:
        return False
    texture = gtk.gsk_renderer_render_texture(hash(renderer), node, ctypes.byref(_Rect(0, 0, width, height)))
    saved = bool(texture) and bool(gtk.gdk_texture_save_to_png(texture, str(path).encode()))
    if texture:
        gtk.g_object_unref(texture)
    gtk.gsk_render_node_unref(node)
    return saved


def drain() -> None:
    context = GLib.MainContext.default()
    while context.pending():
        context.iteration(False)


@pytest.fixture
def app(loop: MvvmGlib.Loop) -> Iterator[App]:
    opened = App(new_todos(loop))
    yield opened
    opened.close()


# --- the bridge, as PyGObject sees it through the typelib ---------------------------------------


def test_each_class_is_a_gobject_type_of_the_base_type(library: MvvmGlib.Library, loop: MvvmGlib.Loop) -> None:
    todos = new_todos(loop)
    assert isinstance(todos, MvvmGlib.Object) and isinstance(todos, Gio.ActionGroup)
    gtype = library.get_class_type("todo_list_view_model")
    assert type(todos).__gtype__ == gtype and gtype.name == library.get_type_prefix() + "_TodoListViewModel"
    assert GObject.type_is_a(gtype, MvvmGlib.Object.__gtype__)
    assert "todo_item_view_model" in library.list_classes()
    names = {spec.name for spec in todos.list_properties()}
    assert {"new-todo-title", "items", "filter", "items-left", "storage-error", "all-completed"} <= names
    # props and get_property, with the members' names ('_' or '-').
    todos.props.new_todo_title = "  Buy milk "
    assert todos.get_property("new-todo-title") == todos.props.new_todo_title == "  Buy milk "
    todos.activate_action("add", None)
    assert todos.props.items_left == "1 item left" and todos.get_property("active_count") == 1
    items = todos.props.items
    assert isinstance(items, Gio.ListModel) and items.get_item_type() == library.get_class_type("todo_item_view_model")
    item = items.get_item(0)
    assert item.props.title == "Buy milk" and item.get_class_name() == "todo_item_view_model"
    assert todos.get_property("items") is items


def test_notifications_commands_and_errors_from_python(loop: MvvmGlib.Loop) -> None:
    todos = new_todos(loop)
    seen: List[str] = []
    todos.connect("notify::items-left", lambda obj, spec: seen.append(obj.props.items_left))
    changes: List[tuple] = []
    todos.props.items.connect("items-changed", lambda model, *splice: changes.append(splice))
    todos.props.new_todo_title = "a"
    assert todos.call("add", None) is None
    todos.props.new_todo_title = "b"
    todos.call("add", None)
    assert seen == ["1 item left", "2 items left"] and changes == [(0, 0, 1), (1, 0, 1)]
    todos.props.items.get_item(0).props.completed = True
    todos.props.filter = "active"
    assert changes[-1] == (0, 1, 0)
    with pytest.raises(GLib.Error) as raised:
        todos.call("fly", None)
    assert raised.value.matches(MvvmGlib.Error.quark(), MvvmGlib.Error.UNKNOWN_NAME)
    # An async call through GAsyncResult, from Python.
    profile_done: List[object] = []
    todos.call_async("clear_completed", None, None, lambda obj, result: profile_done.append(obj.call_finish(result)))
    while not profile_done:
        GLib.MainContext.default().iteration(True)
    assert profile_done == [None] and todos.props.completed_count == 0


def test_a_host_service_from_python(catalog: MvvmGlib.Library) -> None:
    library, loop = catalog, MvvmGlib.Loop.new(catalog, None)
    asked: List[tuple] = []
    service = MvvmGlib.Service.new(library, lambda *asking: asked.append(asking))  # (view_model, request, argument)
    form = MvvmGlib.Object.new(loop, "sign_up_view_model", GLib.Variant("(t)", (service.get_handle(),)))
    del service  # the view model holds it
    for name, value in (("user_id", "ada_lovelace"), ("password", "analytical"), ("confirm_password", "analytical"),
                        ("agreed", True)):
        form.set_property(name, value)
    form.call("sign_up_tapped", None)
    [(view_model, request, argument)] = asked
    assert view_model == form and argument.unpack() == "ada_lovelace"
    assert form.props.is_completion_alert_presented is False
    assert library.complete(request, GLib.Variant("b", True)) is True
    assert form.props.is_completion_alert_presented is True
    with pytest.raises(GLib.Error) as raised:
        library.complete(request, GLib.Variant("b", True))
    assert raised.value.matches(MvvmGlib.Error.quark(), MvvmGlib.Error.UNKNOWN_REQUEST)


# --- TodoMVC's behaviours -----------------------------------------------------------------------


def test_a_binding_drives_a_widget_both_ways(app: App) -> None:
    app.todos.props.new_todo_title = "set by the view model"
    assert app.window.new_todo.get_text() == "set by the view model"
    app.type_into(app.window.new_todo, "typed in the entry")
    assert app.todos.props.new_todo_title == "typed in the entry"
    app.enter(app.window.new_todo)
    assert app.window.new_todo.get_text() == "" and app.shown() == ["typed in the entry"]


def test_adds_counts_toggles_and_destroys(app: App) -> None:
    w = app.window
    assert app.shown() == [] and not w.footer.get_visible() and not w.mark_all.get_sensitive()
    assert not w.storage_error.get_visible()
    app.screenshot("empty")
    app.add("   ")
    assert app.shown() == [], "a blank title adds nothing"
    for title in ("  Buy milk ", "Walk the dog", "Write tests"):
        app.add(title)
    assert app.shown() == ["Buy milk", "Walk the dog", "Write tests"]
    assert w.new_todo.get_text() == "" and w.counter.get_label() == "3 items left"
    assert w.footer.get_visible() and w.mark_all.get_sensitive() and not w.clear_completed.get_visible()
    app.screenshot("three_todos")
    app.click(app.rows()[1].completed)
    assert app.shown() == ["Buy milk", "[x] Walk the dog", "Write tests"]
    assert app.todos.props.items.get_item(1).props.completed
    assert app.rows()[1].title.has_css_class("completed") and not app.rows()[0].title.has_css_class("completed")
    assert w.counter.get_label() == "2 items left" and w.clear_completed.get_visible()
    app.screenshot("one_completed")
    app.click(app.rows()[2].destroy_button)
    assert app.shown() == ["Buy milk", "[x] Walk the dog"] and w.counter.get_label() == "1 item left"
    app.click(app.rows()[0].destroy_button)
    app.click(app.rows()[0].destroy_button)
    assert app.shown() == [] and not w.footer.get_visible()


def test_mark_all_filters_and_clear_completed(app: App) -> None:
    w = app.window
    for title in ("a", "b", "c"):
        app.add(title)
    app.click(w.mark_all)
    assert app.shown() == ["[x] a", "[x] b", "[x] c"] and w.counter.get_label() == "0 items left"
    app.click(app.rows()[0].completed)
    assert not w.mark_all.get_active(), "mark all follows one toggle"
    app.click(w.filters["active"])
    assert app.todos.props.filter == "active" and not w.filters["all"].get_active()
    assert app.shown() == ["a"]
    app.screenshot("filter_active")
    app.click(app.rows()[0].completed)
    assert app.shown() == [], "a todo the filter hides leaves at once"
    assert w.mark_all.get_active()
    app.click(w.filters["completed"])
    assert app.shown() == ["[x] a", "[x] b", "[x] c"]
    app.screenshot("filter_completed")
    app.click(w.filters["all"])
    app.click(app.rows()[1].completed)
    app.click(w.clear_completed)
    assert app.shown() == ["b"] and not w.mark_all.get_active() and not w.clear_completed.get_visible()
    app.todos.props.filter = "completed"
    assert w.filters["completed"].get_active() and not w.filters["all"].get_active()
    assert app.shown() == []


def test_edits_with_double_click_enter_escape_and_leaving(app: App) -> None:
    for title in ("a", "b", "c", "d"):
        app.add(title)
    row = app.rows()[0]
    app.double_click(row)
    assert row.stack.get_visible_child_name() == "editor" and row.editor.get_text() == "a"
    focus = app.window.get_focus()
    assert focus is not None and (focus == row.editor or focus.is_ancestor(row.editor))
    app.type_into(row.editor, "  apples ")
    assert app.todos.props.items.get_item(0).props.edit_text == "  apples "
    app.screenshot("editing")
    app.enter(row.editor)
    assert app.rows()[0].stack.get_visible_child_name() == "title" and app.shown() == ["apples", "b", "c", "d"]
    row = app.rows()[1]
    app.double_click(row)
    app.type_into(row.editor, "bananas")
    app.press_escape(row)
    assert app.shown() == ["apples", "b", "c", "d"], "Escape cancels"
    row = app.rows()[2]
    app.double_click(row)
    app.type_into(row.editor, "cherries")
    row.editor_focus.emit("leave")
    app.settle()
    assert app.shown() == ["apples", "b", "cherries", "d"], "leaving the editor saves it"
    row = app.rows()[3]
    app.double_click(row)
    app.type_into(row.editor, "   ")
    app.enter(row.editor)
    assert app.shown() == ["apples", "b", "cherries"], "an empty title destroys the todo"


def test_the_list_view_follows_the_splices(app: App) -> None:
    changes: List[tuple] = []
    app.window.list.get_model().connect("items-changed", lambda model, *splice: changes.append(splice))
    for title in ("a", "b", "c"):
        app.add(title)
    assert changes == [(0, 0, 1), (1, 0, 1), (2, 0, 1)]
    del changes[:]
    app.click(app.window.filters["active"])
    assert changes == []
    app.click(app.rows()[1].completed)
    assert changes == [(1, 1, 0)] and app.shown() == ["a", "c"]
    del changes[:]
    app.click(app.window.filters["all"])
    assert changes == [(1, 0, 1)] and app.shown() == ["a", "[x] b", "c"]
    del changes[:]
    app.click(app.window.filters["completed"])
    assert changes == [(0, 1, 0), (1, 1, 0)] and app.shown() == ["[x] b"]


def test_keeps_its_todos_and_shows_a_change_not_saved(loop: MvvmGlib.Loop, tmp_path: Path) -> None:
    directory = tmp_path / "store"
    directory.mkdir()
    path = str(directory / "todos.db")
    app = App(new_todos(loop, path))
    try:
        app.add("a")
        app.add("b")
        app.click(app.rows()[1].completed)
    finally:
        app.close()
    app = App(new_todos(loop, path))
    try:
        w = app.window
        assert app.shown() == ["a", "[x] b"], "the todos come back from the database"
        assert not w.storage_error.get_visible()
        shutil.rmtree(str(directory))   # the database's directory goes under the running app
        app.click(app.rows()[0].completed)
        assert app.shown() == ["a", "[x] b"], "the box shows the stored value again"
        assert w.storage_error.get_visible() and "the database file is gone" in w.storage_error.get_label()
        app.click(w.filters["completed"])
        assert w.filters["all"].get_active() and not w.filters["completed"].get_active()
        assert app.shown() == ["a", "[x] b"]
        app.add("c")
        assert app.shown() == ["a", "[x] b"] and w.new_todo.get_text() == "c", "the title stays"
        app.click(w.mark_all)
        assert not w.mark_all.get_active() and app.shown() == ["a", "[x] b"]
        app.click(app.rows()[0].destroy_button)
        assert app.shown() == ["a", "[x] b"]
        app.screenshot("storage_error")
    finally:
        app.close()


def test_closing_the_window_releases_the_view_models(loop: MvvmGlib.Loop) -> None:
    app = App(new_todos(loop))
    app.add("a")
    item = app.todos.props.items.get_item(0)
    gone: List[str] = []
    watches = [app.todos.weak_ref(lambda: gone.append("todos")), item.weak_ref(lambda: gone.append("item"))]
    del item
    app.close()
    del app
    gc.collect()
    drain()
    assert sorted(gone) == ["item", "todos"]
    del watches
