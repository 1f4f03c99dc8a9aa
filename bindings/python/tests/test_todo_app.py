"""The todo app (examples/todo, build/todo/libtodo.so) from Python, after TodoMVC's app spec,
on a virtual loop, with no binding code written for it: the TodoMVC behaviours one by one, its
SQLite storage as Python sees it (what is stored, files refused with InvalidArgumentError, a
change that cannot be saved shown in storage_error, two lists on one database), and a hypothesis
state machine applying random operations, with reopenings of the database, that checks the
host's copy rebuilt from splices equals the list read back and a plain Python model of TodoMVC.

The library is loaded by its path (tests/libraries.py), beside the catalog's.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import mvvm
from libraries import library_path
from mvvm import _abi

#: The library of this module's tests (conftest's loop is of it).
LIBRARY = todo = mvvm.load(library_path("MVVM_TODO_LIBRARY"))


FILTERS = ("all", "active", "completed")


class Mirror:
    """The host's copy of ``items``, kept only from splices: the object id of each item."""

    def __init__(self, todos: Any) -> None:
        self.todos = todos
        self.ids: List[int] = []
        self.splices: List[mvvm.Splice] = []
        todos.subscribe("items", self)

    def __call__(self, name: str, splice: Any) -> None:
        self.splices.append(splice)
        items = self.todos.items
        splice.apply(self.ids, lambda index: items[index].object_id)


def add(todos: Any, title: str) -> None:
    todos.new_todo_title = title
    todos.add()


def shown(todos: Any) -> List[Tuple[str, bool]]:
    return [(item.title, item.completed) for item in todos.items]


def counts(todos: Any) -> Tuple[int, int, str, bool, bool, bool]:
    return (todos.active_count, todos.completed_count, todos.items_left, todos.all_completed,
            todos.has_todos, todos.is_clear_completed_visible)


def test_blank_titles_are_ignored_and_titles_are_trimmed(loop: mvvm.Loop) -> None:
    todos = todo.TodoListViewModel(loop, "")
    mirror = Mirror(todos)
    for blank in ("", "   ", "\t \n"):
        add(todos, blank)
    assert len(todos.items) == 0 and mirror.splices == [] and not todos.has_todos
    add(todos, "  Buy milk \t")
    assert shown(todos) == [("Buy milk", False)]
    assert todos.new_todo_title == "", "adding clears the field"
    assert mirror.splices == [mvvm.Splice(0, 0, 1)]
    assert isinstance(todos.items[0], todo.TodoItemViewModel)
    assert todos.has_todos


def test_a_title_holding_nul_is_refused(loop: mvvm.Loop, tmp_path: Path) -> None:
    # A str holding NUL crosses as bytes, whole; SQLite's text, as GRDB binds it, would end at
    # the NUL: "milk\0eggs" would be shown whole and stored as "milk". The fields refuse it.
    path = str(tmp_path / "todos.db")
    todos = todo.TodoListViewModel(loop, path)
    with pytest.raises(mvvm.InvalidArgumentError):
        todos.new_todo_title = "milk\0eggs"
    assert todos.new_todo_title == ""
    add(todos, "milk")
    item = todos.items[0]
    item.begin_edit()
    with pytest.raises(mvvm.InvalidArgumentError):
        item.edit_text = "milk\0eggs"
    assert item.edit_text == "milk"
    item.commit_edit()
    assert shown(todos) == [("milk", False)] and todos.storage_error == ""
    todos.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT CAST(title AS BLOB) FROM todo").fetchall() == [(b"milk",)]


def test_the_counter_says_item_or_items(loop: mvvm.Loop) -> None:
    todos = todo.TodoListViewModel(loop, "")
    assert todos.items_left == "0 items left"
    add(todos, "one")
    assert todos.items_left == "1 item left"
    add(todos, "two")
    assert todos.items_left == "2 items left"
    todos.items[0].completed = True
    assert (todos.items_left, todos.active_count, todos.completed_count) == ("1 item left", 1, 1)
    todos.items[1].completed = True
    assert todos.items_left == "0 items left"


def test_mark_all_follows_single_toggles_and_clears_after_clear_completed(loop: mvvm.Loop) -> None:
    todos = todo.TodoListViewModel(loop, "")
    assert not todos.all_completed, "no todo: not all completed"
    add(todos, "a")
    add(todos, "b")
    seen: List[Any] = []
    todos.subscribe("all_completed", lambda name, value: seen.append(value))
    todos.items[0].completed = True
    assert not todos.all_completed
    todos.items[1].completed = True
    assert todos.all_completed and seen == [True]
    todos.items[1].completed = False
    assert not todos.all_completed and seen == [True, False]
    todos.all_completed = True
    assert [c for _, c in shown(todos)] == [True, True]
    todos.all_completed = False
    assert [c for _, c in shown(todos)] == [False, False]
    todos.all_completed = True
    assert todos.is_clear_completed_visible
    todos.clear_completed()
    assert len(todos.items) == 0 and not todos.all_completed and not todos.is_clear_completed_visible
    assert seen[-1] is False


def test_editing_commits_trimmed_cancels_and_empty_destroys(loop: mvvm.Loop) -> None:
    todos = todo.TodoListViewModel(loop, "")
    mirror = Mirror(todos)
    for title in ("a", "b", "c"):
        add(todos, title)
    item = todos.items[0]
    item.begin_edit()
    assert item.is_editing and item.edit_text == "a"
    item.edit_text = "  apples  "
    item.commit_edit()
    assert not item.is_editing and item.title == "apples"
    second = todos.items[1]
    second.begin_edit()
    second.edit_text = "bananas"
    second.cancel_edit()
    assert not second.is_editing and second.title == "b"
    third = todos.items[2]
    third.begin_edit()
    third.edit_text = "   "
    third.commit_edit()
    assert shown(todos) == [("apples", False), ("b", False)]
    assert mirror.splices[-1] == mvvm.Splice(2, 1, 0)
    assert mirror.ids == todos.items.ids()
    todos.items[1].destroy()
    assert shown(todos) == [("apples", False)] and mirror.ids == todos.items.ids()


def test_a_todo_the_filter_hides_leaves_the_list_at_once(loop: mvvm.Loop) -> None:
    todos = todo.TodoListViewModel(loop, "")
    mirror = Mirror(todos)
    for title in ("a", "b", "c"):
        add(todos, title)
    todos.filter = "active"
    todos.items[1].completed = True
    assert shown(todos) == [("a", False), ("c", False)]
    assert mirror.splices[-1] == mvvm.Splice(1, 1, 0)
    todos.filter = "completed"
    assert shown(todos) == [("b", True)] and mirror.ids == todos.items.ids()
    todos.items[0].completed = False
    assert shown(todos) == [] and mirror.ids == []
    todos.filter = "all"
    assert shown(todos) == [("a", False), ("b", False), ("c", False)] and mirror.ids == todos.items.ids()
    with pytest.raises(mvvm.InvalidArgumentError):
        todos.filter = "done"


def stored(path: str, sql: str) -> List[Tuple[Any, ...]]:
    """Rows of the database at ``path``, read with Python's own sqlite3 (not the library)."""
    with sqlite3.connect("file:%s?mode=rw" % path, uri=True) as db:
        return db.execute(sql).fetchall()


def test_the_filter_and_the_todos_persist_and_reload(loop: mvvm.Loop, tmp_path: Path) -> None:
    path = str(tmp_path / "todos.db")
    todos = todo.TodoListViewModel(loop, path)
    for title in ("a", "b", "c"):
        add(todos, title)
    todos.items[1].completed = True
    todos.filter = "active"
    todos.items[0].begin_edit()
    assert stored(path, "SELECT filter FROM settings") == [("active",)], "saved before the change returned"
    assert stored(path, "SELECT title, completed FROM todo ORDER BY id") == [("a", 0), ("b", 1), ("c", 0)]
    todos.close()
    again = todo.TodoListViewModel(loop, path)
    assert again.filter == "active" and again.storage_error == ""
    assert shown(again) == [("a", False), ("c", False)]
    assert not again.items[0].is_editing, "editing state is not stored"
    again.filter = "all"
    assert shown(again) == [("a", False), ("b", True), ("c", False)]
    assert [item.id for item in again.items] == sorted(item.id for item in again.items)
    again.close()
    fresh = todo.TodoListViewModel(loop, str(tmp_path / "missing.db"))
    assert len(fresh.items) == 0 and (tmp_path / "missing.db").is_file(), "a new database is made"


def test_a_file_that_is_not_a_todo_database_is_refused_untouched(loop: mvvm.Loop, tmp_path: Path) -> None:
    path = tmp_path / "todos.json"
    path.write_text('{"filter": "all", "todos": []}')
    with pytest.raises(mvvm.InvalidArgumentError, match="not a SQLite database"):
        todo.TodoListViewModel(loop, str(path))
    assert path.read_text() == '{"filter": "all", "todos": []}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["todos.json"], "no -wal or -shm left beside it"
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    with pytest.raises(mvvm.InvalidArgumentError, match="is a FIFO"):
        todo.TodoListViewModel(loop, str(fifo))  # refused, not opened: never blocks
    long_path = "/tmp/" + "x" * 100000
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        todo.TodoListViewModel(loop, long_path)
    message = str(refused.value)
    assert len(message) < 400 and "(100005 bytes in all)" in message, "the path is quoted capped"
    one_character = "/tmp/e" + "\u0301" * 60000  # 120 kB, and one character: cut by bytes, not characters
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        todo.TodoListViewModel(loop, one_character)
    message = str(refused.value)
    assert len(message.encode()) < 400 and "(120006 bytes in all)" in message, "the path is quoted capped"


def test_a_change_that_cannot_be_saved_is_not_shown_and_storage_error_says_why(
        loop: mvvm.Loop, tmp_path: Path) -> None:
    directory = tmp_path / "store"
    directory.mkdir()
    todos = todo.TodoListViewModel(loop, str(directory / "todos.db"))
    mirror = Mirror(todos)
    add(todos, "a")
    errors: List[str] = []
    todos.subscribe("storage_error", lambda name, value: errors.append(value))
    shutil.rmtree(str(directory))
    with pytest.raises(mvvm.MvvmError) as failed:
        add(todos, "b")  # a command fails: MVVM_ERR_COMMAND_FAILED, with the store's reason
    assert failed.value.status == _abi.ERR_COMMAND_FAILED and "the database file is gone" in failed.value.message
    assert shown(todos) == [("a", False)] and todos.new_todo_title == "b", "the add is not shown"
    assert "the database file is gone" in todos.storage_error and len(errors) == 1
    item = todos.items[0]
    item.completed = True
    assert item.completed is False, "the stored value again"
    todos.filter = "completed"
    assert todos.filter == "all"
    with pytest.raises(mvvm.MvvmError):
        item.destroy()
    assert shown(todos) == [("a", False)] and mirror.ids == todos.items.ids() and len(errors) == 1
    todos.close()


def test_two_lists_on_one_database_see_each_others_changes(loop: mvvm.Loop, tmp_path: Path) -> None:
    path = str(tmp_path / "todos.db")
    first, second = todo.TodoListViewModel(loop, path), todo.TodoListViewModel(loop, path)
    first_mirror, second_mirror = Mirror(first), Mirror(second)
    add(first, "one")
    add(second, "two")  # takes in "one" first, as splices
    assert shown(second) == [("one", False), ("two", False)] and second_mirror.ids == second.items.ids()
    first.items[0].completed = True  # takes in "two" first
    first.filter = "active"
    assert shown(first) == [("two", False)] and first_mirror.ids == first.items.ids()
    add(second, "three")
    assert second.filter == "active" and shown(second) == [("two", False), ("three", False)]
    ids = [row[0] for row in stored(path, "SELECT id FROM todo")]
    assert len(ids) == len(set(ids)) == 3, "never one id twice"
    first.close()
    second.close()


# ------------------------------------------------------------------------------------------------
# Random operations against a plain model of TodoMVC
# ------------------------------------------------------------------------------------------------

TITLES = st.text(alphabet="ab \t", max_size=5)


class TodoMachine(RuleBasedStateMachine):
    """Random TodoMVC operations on the view model and on a plain Python model; after each one,
    the host's copy rebuilt from splices equals the list read back, which equals the model's."""

    @initialize()
    def start(self) -> None:
        self.loop = todo.Loop.virtual()
        self.directory = tempfile.mkdtemp(prefix="todo-machine-")
        self.path = os.path.join(self.directory, "todos.db")
        self.todos = todo.TodoListViewModel(self.loop, self.path)
        self.mirror = Mirror(self.todos)
        self.model: List[Dict[str, Any]] = []  # {"title", "completed"}, in creation order
        self.filter = "all"

    def teardown(self) -> None:
        loop = getattr(self, "loop", None)
        if loop is not None:
            loop.close()
        directory = getattr(self, "directory", None)
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)

    def visible(self) -> List[Dict[str, Any]]:
        return [t for t in self.model if self.filter == "all"
                or (self.filter == "active") == (not t["completed"])]

    def forget(self, todo: Dict[str, Any]) -> None:
        """Removes that very todo from the model (two todos may be equal)."""
        self.model = [t for t in self.model if t is not todo]

    def pick(self, index: int) -> Tuple[Any, Dict[str, Any]]:
        visible = self.visible()
        chosen = index % len(visible)
        return self.todos.items[chosen], visible[chosen]

    @rule(title=TITLES)
    def add(self, title: str) -> None:
        add(self.todos, title)
        if title.strip():
            self.model.append({"title": title.strip(), "completed": False})

    @rule(index=st.integers(0, 20))
    def toggle(self, index: int) -> None:
        if self.visible():
            item, todo = self.pick(index)
            item.completed = not item.completed
            todo["completed"] = not todo["completed"]

    @rule(index=st.integers(0, 20))
    def destroy(self, index: int) -> None:
        if self.visible():
            item, todo = self.pick(index)
            item.destroy()
            self.forget(todo)

    @rule(index=st.integers(0, 20), text=TITLES, commit=st.booleans())
    def edit(self, index: int, text: str, commit: bool) -> None:
        if not self.visible():
            return
        item, todo = self.pick(index)
        item.begin_edit()
        assert item.edit_text == todo["title"]
        item.edit_text = text
        if not commit:
            item.cancel_edit()
            assert not item.is_editing and item.title == todo["title"]
        elif text.strip():
            item.commit_edit()
            todo["title"] = text.strip()
            assert not item.is_editing
        else:
            item.commit_edit()  # an empty title destroys the todo
            self.forget(todo)

    @rule(name=st.sampled_from(FILTERS))
    def set_filter(self, name: str) -> None:
        self.todos.filter = self.filter = name

    @rule(completed=st.booleans())
    def mark_all(self, completed: bool) -> None:
        self.todos.all_completed = completed
        for todo in self.model:
            todo["completed"] = completed

    @rule()
    def reopen(self) -> None:
        """The list closed and made again from its database: the same todos and filter."""
        self.todos.close()
        self.todos = todo.TodoListViewModel(self.loop, self.path)
        self.mirror = Mirror(self.todos)
        self.mirror.ids = self.todos.items.ids()

    @rule()
    def clear_completed(self) -> None:
        self.todos.clear_completed()
        self.model = [t for t in self.model if not t["completed"]]

    @invariant()
    def the_copy_the_list_and_the_model_agree(self) -> None:
        if not hasattr(self, "todos"):
            return
        assert self.mirror.ids == self.todos.items.ids(), "the host's copy rebuilt from splices"
        assert shown(self.todos) == [(t["title"], t["completed"]) for t in self.visible()]
        active = sum(1 for t in self.model if not t["completed"])
        done = len(self.model) - active
        assert counts(self.todos) == (
            active, done, "%d item%s left" % (active, "" if active == 1 else "s"),
            bool(self.model) and done == len(self.model), bool(self.model), done > 0)
        assert self.todos.filter == self.filter
        assert self.todos.storage_error == ""


TodoMachine.TestCase.settings = settings(max_examples=int(os.environ.get("TODO_EXAMPLES", "60")),
                                         stateful_step_count=30, deadline=None)
test_random_operations_keep_the_copy_the_list_and_the_model_equal = TodoMachine.TestCase
