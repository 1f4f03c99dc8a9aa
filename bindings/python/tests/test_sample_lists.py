"""Lists of child view models of Tests/outside (libsample.so): Playlist (an ObservableObject
with @Published [Song]) and Board (an @Observable class holding [Tally]), read as mvvm.ObjectList
sequences, their changes heard as mvvm.Splice values that rebuild the host's copy.

The library is loaded by its path (tests/libraries.py), beside the catalog's.
"""

from __future__ import annotations

import collections.abc
import pickle
from typing import Any, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mvvm
from libraries import library_path

#: The library of this module's tests (conftest's loop is of it).
LIBRARY = sample = mvvm.load(library_path("MVVM_SAMPLE_LIBRARY"))


class Mirror:
    """The host's copy of a list, kept only from splices: the object ids of its items, read
    during the splices that insert them."""

    def __init__(self, owner: mvvm.MvvmObject, name: str) -> None:
        self.owner, self.name = owner, name
        self.ids: List[int] = []
        self.splices: List[mvvm.Splice] = []
        self.subscription = owner.subscribe(name, self)

    def __call__(self, name: str, splice: Any) -> None:
        assert isinstance(splice, mvvm.Splice), splice
        self.splices.append(splice)
        items = self.owner.get(self.name)
        splice.apply(self.ids, lambda index: items[index].object_id)

    def matches(self) -> bool:
        return self.ids == self.owner.get(self.name).ids()


def titles(items: Any) -> List[str]:
    return [item.title for item in items]


def test_a_list_property_is_a_read_only_sequence_of_items(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    songs = playlist.songs
    assert isinstance(songs, collections.abc.Sequence)
    assert isinstance(songs, mvvm.ObjectList)
    assert len(songs) == 0 and list(songs) == [] and not songs
    playlist.add_many("b,a,c")
    assert len(songs) == 3, "the same ObjectList reads the list as it is now"
    assert isinstance(songs[0], sample.Song)
    assert titles(songs) == ["b", "a", "c"]
    assert songs[-1].title == "c"
    assert titles(songs[1:]) == ["a", "c"]
    assert titles(songs[::-1]) == ["c", "a", "b"]
    assert titles(songs[5:]) == []
    assert titles(reversed(songs)) == ["c", "a", "b"]
    with pytest.raises(IndexError):
        songs[3]
    with pytest.raises(IndexError):
        songs[-4]
    with pytest.raises(TypeError):
        songs["0"]  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        songs[0] = songs[1]  # type: ignore[index]
    with pytest.raises(TypeError):
        del songs[0]  # type: ignore[attr-defined]
    with pytest.raises(mvvm.ReadOnlyError):
        playlist.songs = []  # type: ignore[misc,assignment]
    assert playlist.get("songs") == songs
    playlist.filter = "a"
    assert titles(songs) == ["a"]
    assert titles(playlist.all) == ["b", "a", "c"]
    assert "read-only sequence of Song" in (sample.Playlist.songs.__doc__ or "")
    assert sample.Playlist.songs.item_class == "song"


def test_items_are_live_objects_with_a_stable_identity(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    playlist.add_many("x,y")
    first, again = playlist.songs[0], playlist.songs[0]
    assert first is not again and first._handle != again._handle, "each read is a new handle"
    assert first.object_id == again.object_id == mvvm.object_id(first)
    assert first.object_id != playlist.songs[1].object_id
    assert first in playlist.songs and playlist.songs.index(again) == 0
    assert playlist.songs.count(first) == 1
    assert playlist.songs.ids() == [first.object_id, playlist.songs[1].object_id]
    assert playlist.snapshot()["songs"] == playlist.songs.ids()
    first.title = "z"
    assert again.title == "z", "items are the view models themselves"
    playlist.remove_first()
    assert first.title == "z", "an item outlives its place in the list"
    assert first not in playlist.songs
    with pytest.raises(ValueError):
        playlist.songs.index(first)
    assert titles(playlist.songs) == ["y"]
    first.close()
    again.close()


def test_splices_rebuild_the_hosts_copy_with_the_fewest_changes(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    songs, every = Mirror(playlist, "songs"), Mirror(playlist, "all")
    playlist.add_many("ab,b,ac,ad,c,ae")
    assert songs.splices == [mvvm.Splice(0, 0, 6)]
    assert songs.matches()
    songs.splices.clear()
    playlist.filter = "a"
    assert songs.splices == [mvvm.Splice(1, 1, 0), mvvm.Splice(3, 1, 0)], \
        "a filter is the fewest splices, each counted in the list as the one before left it"
    assert songs.matches() and len(every.splices) == 1
    playlist.filter = ""
    assert songs.matches()
    for command in ("rotate", "reverse", "sort_by_title", "remove_first"):
        playlist.send(command)
        assert songs.matches(), command
        assert every.matches(), command
    songs.splices.clear()
    playlist.filter = "zzz"
    playlist.filter = "zzz"
    assert len(songs.splices) == 1 and songs.ids == []


def test_initial_gives_a_list_as_one_insertion_so_a_mirror_fills_from_empty(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    playlist.add_many("b,a,c")
    ids: List[int] = []
    seen: List[Any] = []

    def mirror(name: str, splice: Any) -> None:
        seen.append((name, splice))
        items = playlist.songs
        splice.apply(ids, lambda index: items[index].object_id)

    with playlist.subscribe("songs", mirror, initial=True):
        assert seen == [("songs", mvvm.Splice(0, 0, 3))]
        assert ids == playlist.songs.ids()
        playlist.add_many("d")
        assert ids == playlist.songs.ids() and len(seen) == 2
    every: List[Any] = []
    with playlist.subscribe(None, lambda name, value: every.append((name, value)), initial=True):
        assert ("songs", mvvm.Splice(0, 0, 4)) in every and ("all", mvvm.Splice(0, 0, 4)) in every
        assert ("filter", "") in every
    empty = sample.Playlist(loop)
    with empty.subscribe("songs", lambda name, value: every.append(value), initial=True):
        assert every[-1] == mvvm.Splice(0, 0, 0), "an empty list is said too: the view starts empty"


def test_a_splice_is_a_small_frozen_value(loop: mvvm.Loop) -> None:
    splice = mvvm.Splice(2, 1, 3)
    assert (splice.index, splice.removed, splice.inserted) == (2, 1, 3)
    assert tuple(splice) == (2, 1, 3)
    assert splice == mvvm.Splice(2, 1, 3) and hash(splice) == hash(mvvm.Splice(2, 1, 3))
    assert splice != mvvm.Splice(2, 1, 2)
    assert repr(splice) == "Splice(index=2, removed=1, inserted=3)"
    assert pickle.loads(pickle.dumps(splice)) == splice
    with pytest.raises(AttributeError):
        splice.index = 0  # type: ignore[misc]
    copy = ["a", "b", "c"]
    mvvm.Splice(1, 1, 2).apply(copy, lambda i: "new%d" % i)
    assert copy == ["a", "new1", "new2", "c"]
    with pytest.raises(IndexError):
        mvvm.Splice(3, 2, 0).apply(copy, str)


def test_events_of_every_property_carry_splices_for_lists(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    seen: List[Any] = []
    playlist.subscribe(None, lambda name, value: seen.append((name, value)))
    playlist.add("a")
    assert sorted(seen, key=lambda e: e[0]) == [("all", mvvm.Splice(0, 0, 1)), ("songs", mvvm.Splice(0, 0, 1))]
    seen.clear()
    playlist.filter = "b"
    assert ("filter", "b") in seen and ("songs", mvvm.Splice(0, 1, 0)) in seen


def test_inserted_items_are_readable_during_the_splice(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    seen: List[List[str]] = []
    playlist.subscribe("songs", lambda name, s: seen.append(titles(playlist.songs[s.index:s.index + s.inserted])))
    playlist.add_many("a,b")
    playlist.add("c")
    assert seen == [["a", "b"], ["c"]]


def test_a_change_made_in_a_callback_reaches_everyone_after_it(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    first = Mirror(playlist, "songs")
    added: List[int] = []

    def add_once(name: str, splice: Any) -> None:
        if not added:
            added.append(1)
            playlist.add("added in a callback")

    playlist.subscribe("songs", add_once)
    second = Mirror(playlist, "songs")
    playlist.add_many("x,y")
    assert len(first.splices) == 2 and len(second.splices) == 2
    assert first.matches() and second.matches()
    assert titles(playlist.songs) == ["x", "y", "added in a callback"]


def test_an_observable_owner_announces_its_list_too(loop: mvvm.Loop) -> None:
    board = sample.Board(loop)
    tallies = Mirror(board, "tallies")
    for start in (1, 2, 3, 4):
        board.add(start)
    assert [t.total for t in board.tallies] == [1, 2, 3, 4]
    assert isinstance(board.tallies[0], sample.Tally)
    assert tallies.matches()
    board.remove_odd()
    assert [t.total for t in board.tallies] == [2, 4] and tallies.matches()
    board.reverse()
    assert [t.total for t in board.tallies] == [4, 2] and tallies.matches()
    board.tallies[0].add()
    assert board.tallies[0].total == 5, "an item's commands work on the item in the list"


def test_errors_and_closed_owners(loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    with pytest.raises(mvvm.TypeMismatchError):
        len(mvvm.ObjectList(playlist, "filter"))
    with pytest.raises(mvvm.UnknownNameError):
        len(mvvm.ObjectList(playlist, "nothing"))
    with pytest.raises(mvvm.InvalidArgumentError):
        playlist.songs.item(0)
    songs = playlist.songs
    playlist.close()
    with pytest.raises(mvvm.ClosedError):
        len(songs)
    with pytest.raises(mvvm.ClosedError):
        playlist.songs
    assert "closed" in repr(songs)


OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.sampled_from(["a", "ab", "b", "ba", "c"])),
    st.tuples(st.just("add_many"), st.sampled_from(["a,b", "ac,bc,c", "b,a,ab"])),
    st.tuples(st.sampled_from(["remove_first", "reverse", "rotate", "sort_by_title"]), st.none()),
    st.tuples(st.just("filter"), st.sampled_from(["", "a", "b", "c", "x"])),
), max_size=25)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_random_operations_keep_every_mirror_equal_to_the_list(loop: mvvm.Loop, operations: Any) -> None:
    playlist = sample.Playlist(loop)
    songs, every = Mirror(playlist, "songs"), Mirror(playlist, "all")
    model: List[str] = []
    prefix = ""
    for operation, argument in operations:
        if operation == "filter":
            playlist.filter = prefix = argument
        elif argument is None:
            playlist.send(operation)
            if operation == "remove_first" and model:
                model.pop(0)
            elif operation == "reverse":
                model.reverse()
            elif operation == "rotate" and model:
                model.insert(0, model.pop())
            elif operation == "sort_by_title":
                model.sort()
        else:
            playlist.send(operation, argument)
            model.extend(argument.split(","))
        assert songs.matches() and every.matches(), operations
        assert titles(playlist.all) == model
        assert titles(playlist.songs) == [t for t in model if t.startswith(prefix)]
    playlist.close()
