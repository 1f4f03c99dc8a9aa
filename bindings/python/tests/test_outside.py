"""A library of one's own beside the catalog, in this process (mvvm.load): Tests/outside's
libsample.so (MVVM_SAMPLE_LIBRARY) with Profile (an ObservableObject), Wishlist (an @Observable
class) and Dialog (members named as the package's own API). Optionals, arrays, records and bytes
read, set and notified; commands with named arguments, results and errors; computed properties;
members winning their names; records as frozen typed classes; two libraries side by side. The
library is loaded by its path (tests/libraries.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

import mvvm
from mvvm._build import Namespace
from mvvm._description import Description, raw_descriptions
from mvvm_gen.pynames import NAMESPACE_NAMES, camel, namespace_names
from libraries import catalog, library_path


@pytest.fixture(scope="module")
def sample() -> mvvm.Library:
    return mvvm.load(library_path("MVVM_SAMPLE_LIBRARY"))


@pytest.fixture
def loop(sample: mvvm.Library) -> Iterator[mvvm.Loop]:
    with sample.Loop.virtual() as virtual:
        yield virtual


class Changes:
    """A subscriber recording (name, value, what the getter says inside the callback)."""

    def __init__(self, source: mvvm.MvvmObject) -> None:
        self.source = source
        self.events: List[Tuple[str, Any, Any]] = []
        mvvm.subscribe(source, None, self)

    def __call__(self, name: str, value: Any) -> None:
        properties = [p["name"] for p in mvvm.describe(self.source)["properties"]]
        self.events.append((name, value, mvvm.get(self.source, name) if name in properties else None))

    def take(self) -> List[Tuple[str, Any, Any]]:
        events, self.events = self.events, []
        return events


# ------------------------------------------------------------------------------------------------
# Values: optionals, arrays, records, bytes
# ------------------------------------------------------------------------------------------------


def test_optionals_arrays_records_and_bytes_are_read_set_and_notified(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    assert (profile.limit, profile.tags, profile.scores, profile.address, profile.avatar) == (None, [], [], None, b"")
    changes = Changes(profile)
    profile.limit = 3
    profile.tags = ("swift", "python")  # any sequence
    profile.scores = [1, 2.5]  # an int is taken for a double
    home = sample.Address("Main 1", "Oslo")
    profile.address = home
    profile.avatar = bytearray(b"\x89PNG\x00\x01")
    assert changes.take() == [("limit", 3, 3), ("tags", ["swift", "python"], ["swift", "python"]),
                              ("scores", [1.0, 2.5], [1.0, 2.5]), ("address", home, home),
                              ("avatar", b"\x89PNG\x00\x01", b"\x89PNG\x00\x01")]
    profile.limit = None  # no value: None
    profile.address = {"street": "Elm 2", "city": "Bergen", "zip_code": "5003"}  # a record by field names
    assert changes.take() == [("limit", None, None),
                              ("address", sample.Address("Elm 2", "Bergen", "5003"),
                               sample.Address("Elm 2", "Bergen", "5003"))]
    profile.tags = ["swift", "python"]  # the same value: nothing changed, nothing notified
    assert changes.take() == []
    assert profile.snapshot() == {"first": "", "last": "", "full_name": "", "limit": None, "tags": ["swift", "python"],
                                  "scores": [1.0, 2.5], "address": sample.Address("Elm 2", "Bergen", "5003"),
                                  "avatar": b"\x89PNG\x00\x01", "saves": 0}

    wishlist = sample.Wishlist(loop)
    changes = Changes(wishlist)
    wishlist.prices = [9.5, None, 3]
    wishlist.budget = 20
    wishlist.home = home
    assert changes.take() == [("prices", [9.5, None, 3.0], [9.5, None, 3.0]), ("total", 12.5, 12.5),
                              ("budget", 20.0, 20.0), ("home", home, home)]


def test_the_library_refuses_values_with_its_own_messages(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    for assign, error, message in (
            (lambda: setattr(profile, "limit", "3"), mvvm.TypeMismatchError, "profile.limit is of type int, not string"),
            (lambda: setattr(profile, "tags", ["a", 1]), mvvm.TypeMismatchError,
             "profile.tags[1] is of type string, not int"),
            (lambda: setattr(profile, "first", None), mvvm.InvalidArgumentError,
             "profile.first is of type string, not optional: it cannot be null"),
            (lambda: setattr(profile, "address", {"street": 1}), mvvm.TypeMismatchError,
             "profile.address.street is of type string, not int"),
            (lambda: setattr(profile, "limit", 2**63), mvvm.InvalidArgumentError,
             "profile.limit is out of range: 9223372036854775808 (-9223372036854775808 to 9223372036854775807)"),
            (lambda: setattr(profile, "full_name", "x"), mvvm.ReadOnlyError, "profile.full_name is read-only")):
        with pytest.raises(error) as raised:
            assign()
        assert raised.value.message == message and raised.value.function is not None
    with pytest.raises(mvvm.InvalidArgumentError) as wide:
        profile.limit = 2**64  # no 64-bit value: the bindings' own refusal
    assert wide.value.function is None
    assert (profile.limit, profile.tags, profile.first, profile.address) == (None, [], "", None)


def test_strings_holding_nul_are_given_and_read_whole(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    seen: List[str] = []
    profile.subscribe("first", lambda name, value: seen.append(value))
    profile.first = "Ada\x00Lovelace"
    assert profile.first == "Ada\x00Lovelace" and seen == ["Ada\x00Lovelace"]
    assert profile.contact("a\x00b", "s", "c").name == "a\x00b"


# ------------------------------------------------------------------------------------------------
# Commands: named arguments, results, errors
# ------------------------------------------------------------------------------------------------


def test_a_command_with_three_named_arguments_returns_a_record(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    profile.tags = ["friend"]
    made = profile.contact(name="Bob", street="Elm 2", city="Bergen")
    assert made == sample.Contact("Bob", sample.Address("Elm 2", "Bergen"), ["friend"])
    assert isinstance(made, sample.Contact) and isinstance(made.address, sample.Address)
    assert profile.contact("Bob", "Elm 2", city="Bergen") == made  # by position and by name
    assert mvvm.call(profile, "contact", city="Bergen", street="Elm 2", name="Bob") == made
    with pytest.raises(mvvm.InvalidArgumentError) as unknown:
        profile.contact("Bob", "Elm 2", town="Bergen")
    assert unknown.value.message == 'profile.contact has no argument named "town"'
    with pytest.raises(mvvm.InvalidArgumentError) as count:
        profile.contact("Bob")
    assert count.value.function == "mvvm_call_named" and "missing" in count.value.message
    wishlist = sample.Wishlist(loop)
    assert [wishlist.add("pen", 2.5), wishlist.add("ink", None), wishlist.add(item="pad", price=1)] == [1, 2, 3]
    assert wishlist.add("cap") == 4  # an optional argument left out is None
    assert (wishlist.items, wishlist.prices, wishlist.item(1)) == (["pen", "ink", "pad", "cap"],
                                                                   [2.5, None, 1.0, None], "ink")


def test_a_throwing_command_raises_command_error_after_notifying_what_it_changed(sample: mvvm.Library,
                                                                                 loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    profile.tags = ["a", "b", "c"]
    changes = Changes(profile)
    with pytest.raises(mvvm.CommandError) as raised:
        profile.move_tag(from_=0, to=7)  # counts the attempt, then throws
    assert isinstance(raised.value, mvvm.MvvmError) and raised.value.status == mvvm.Status.ERR_COMMAND_FAILED
    assert raised.value.message == "profile.move_tag failed: no tag at 7 (there are 3)"
    assert raised.value.function == "mvvm_call_named"
    assert changes.take() == [("saves", 1, 1)]  # changed before the throw: notified all the same
    profile.move_tag(0, 2)
    assert profile.tags == ["b", "c", "a"] and changes.take() == [("tags", ["b", "c", "a"], ["b", "c", "a"]),
                                                                  ("saves", 2, 2)]
    with pytest.raises(mvvm.CommandError) as none:
        profile.save()
    assert none.value.message == "profile.save failed: the profile has no address"
    wishlist = sample.Wishlist(loop)
    with pytest.raises(mvvm.CommandError) as item:
        wishlist.item(3)
    assert item.value.message == "wishlist.item failed: no item 3"


def test_a_command_result_and_its_signal_carry_records(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    profile.first, profile.last, profile.tags = "Ada", "Lovelace", ["math"]
    profile.address = sample.Address("Main 1", "London", "N1")
    saved: List[Any] = []
    profile.subscribe("saved", lambda name, contact: saved.append(contact))
    contact = profile.save()
    assert contact == sample.Contact("Ada Lovelace", sample.Address("Main 1", "London", "N1"), ["math"])
    assert saved == [contact] and profile.saves == 1


def test_a_computed_property_is_notified_once_per_operation_with_its_new_value(sample: mvvm.Library,
                                                                               loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    seen: List[Tuple[str, str]] = []
    profile.subscribe("full_name", lambda name, value: seen.append((value, profile.full_name)))
    profile.first = "Ada"
    profile.last = "Lovelace"
    profile.last = "Lovelace"  # no change
    profile.tags = ["x"]  # fires objectWillChange; full_name is the same: not notified
    assert seen == [("Ada", "Ada"), ("Ada Lovelace", "Ada Lovelace")]


# ------------------------------------------------------------------------------------------------
# Records
# ------------------------------------------------------------------------------------------------


def test_records_are_frozen_typed_classes(sample: mvvm.Library) -> None:
    Address, Contact = sample.Address, sample.Contact
    assert issubclass(Address, mvvm.Record) and sample.records["address"] is Address
    home = Address("Main 1", "Oslo")
    assert home == Address(street="Main 1", city="Oslo", zip_code=None) == Address("Main 1", city="Oslo")
    assert repr(home) == "Address(street='Main 1', city='Oslo', zip_code=None)"
    assert (home.street, home.city, home.zip_code) == ("Main 1", "Oslo", None)
    assert hash(home) == hash(Address("Main 1", "Oslo")) and len({home, Address("Main 1", "Oslo")}) == 1
    assert home != Address("Main 1", "Bergen") and home != ("Main 1", "Oslo", None)
    contact = Contact("Bob", home, ["a", "b"])  # an array field: hashed by its items
    assert hash(contact) == hash(Contact("Bob", home, ["a", "b"]))
    with pytest.raises(AttributeError):
        home.city = "Bergen"  # type: ignore[misc]
    assert home._replace(city="Bergen") == Address("Main 1", "Bergen") and home.city == "Oslo"
    assert home._asdict() == {"street": "Main 1", "city": "Oslo", "zip_code": None}
    with pytest.raises(TypeError, match="missing the field city"):
        Address("Main 1")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="no field 'town'"):
        Address("Main 1", "Oslo", town="x")  # type: ignore[call-arg]
    assert "A postal address." in (Address.__doc__ or "") and Address.__module__ == "mvvm"


def test_a_record_registered_by_its_fields_is_a_record_as_a_codable_one_is(sample: mvvm.Library,
                                                                            loop: mvvm.Loop) -> None:
    """Speaker and Slot (Agenda.swift) have no Codable: registered by their fields."""
    Speaker, Slot = sample.Speaker, sample.Slot
    assert issubclass(Speaker, mvvm.Record) and sample.records["speaker"] is Speaker
    assert Speaker._asdict(Speaker("Ada", False)) == {"name": "Ada", "is_completed": False, "email": None}
    assert "registered by its fields" in (Speaker.__doc__ or "")
    agenda = sample.Agenda(loop)
    assert agenda.speaker == Speaker("nobody", False)
    changes = Changes(agenda)
    ada = Speaker("Ada", False, "ada@example.org")
    agenda.speaker = ada
    assert agenda.speaker == ada and isinstance(agenda.speaker, Speaker)
    assert changes.take() == [("speaker", ada, ada)]
    # Arguments (a record, a map) and results, arrays and optionals, records in records.
    assert agenda.add(ada) == 1
    assert agenda.add({"name": "Grace", "is_completed": True}) == 2
    assert agenda.speakers == [ada, Speaker("Grace", True)]
    assert agenda.next() == ada._replace(is_completed=True)
    assert agenda.next() is None
    agenda.slot = Slot(ada, None, 25)
    assert agenda.slot == Slot(ada, None, 25) and isinstance(agenda.slot.speaker, Speaker)
    agenda.slot = Slot(ada, Speaker("Grace", True), 30)
    assert agenda.slot.backup == Speaker("Grace", True)
    # A refusal of its make: INVALID_ARGUMENT naming the member, with make's own words.
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        agenda.speaker = Speaker("", False)
    assert refused.value.message == ('agenda.speaker cannot hold {"name": "", "is_completed": false, "email": null}: '
                                     'a speaker has a name')
    with pytest.raises(mvvm.InvalidArgumentError) as argument:
        agenda.add(Speaker("", True))
    assert argument.value.message.startswith("argument 1 of agenda.add (speaker) cannot hold")
    assert agenda.speaker == ada._replace(is_completed=True) and len(agenda.speakers) == 2


def test_a_callback_property_is_heard_as_a_signal(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    """Agenda's speakerChangedAction and speakerAddedAction, exported with c.signal(name, \\.action)."""
    agenda = sample.Agenda(loop)
    heard: List[Tuple[str, Any]] = []
    agenda.subscribe("speaker_added", lambda name, value: heard.append((name, value)))
    agenda.subscribe("speaker_changed", lambda name, value: heard.append((name, value)))
    ada = sample.Speaker("Ada", False)
    agenda.add(ada)
    agenda.next()
    assert heard == [("speaker_added", ada), ("speaker_changed", None)]
    assert agenda.own_calls == 1  # the app's own callback, set before, still runs
    agenda.replace_callback()  # the app's own assignment disconnects the signal
    agenda.add(ada)
    agenda.next()
    assert heard[2:] == [("speaker_added", ada)] and agenda.own_calls == 101
    signals = {s["name"]: s for s in mvvm.describe(agenda)["signals"]}
    assert signals["speaker_added"]["record"] == "speaker" and signals["speaker_changed"]["type"] == "none"


def test_a_callback_called_from_another_thread_is_heard_on_the_loops_thread(sample: mvvm.Library) -> None:
    import threading
    with sample.Loop.manual() as manual:
        agenda = sample.Agenda(manual)
        threads: List[threading.Thread] = []
        agenda.subscribe("speaker_changed", lambda name, value: threads.append(threading.current_thread()))
        agenda.change_speaker_elsewhere()
        for _ in range(500):
            if threads:
                break
            manual.run_for(10)
        assert threads == [threading.current_thread()]
        agenda.close()


# ------------------------------------------------------------------------------------------------
# Members win their names
# ------------------------------------------------------------------------------------------------


def test_a_dialogs_members_win_the_packages_names(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    dialog = sample.Dialog(loop)
    assert (dialog.description, dialog.closed, dialog.handle, dialog.loop, dialog.id, dialog.class_) == \
        ("A dialog", False, 7, "main", 42, "modal")
    bound: List[str] = []
    mvvm.subscribe(dialog, "bind", lambda name, text: bound.append(text))
    dialog.close()  # the command: the dialog is closed, the object is not
    assert dialog.closed is True and not mvvm.is_closed(dialog)
    for name in ("subscribe", "unsubscribe", "get", "set", "describe", "snapshot"):
        assert getattr(dialog, name)() is None
    dialog.send("hello")
    dialog.move(from_=1, to=2)
    dialog.move(3, 4)
    assert dialog.log == ["close", "subscribe", "unsubscribe", "get", "set", "describe", "snapshot", "send hello",
                          "move 1 2", "move 3 4"]
    assert bound == ["hello"]
    dialog.description, dialog.loop, dialog.class_ = "Changed", "other", "sheet"
    assert mvvm.get(dialog, "class") == "sheet" and mvvm.get(dialog, "loop") == "other"
    mvvm.set(dialog, "class", "modal")
    assert dialog.class_ == "modal"
    mvvm.call(dialog, "move", from_=5, to=6)
    mvvm.send(dialog, "send", "again")
    assert dialog.log[-2:] == ["move 5 6", "send again"] and bound == ["hello", "again"]
    # The package's own operations, by the route no member takes.
    assert mvvm.loop_of(dialog) is loop and mvvm.library_of(dialog) is sample
    assert isinstance(mvvm.handle(dialog), int) and mvvm.handle(dialog) != 7
    assert mvvm.class_name(dialog) == "dialog" and mvvm.describe(dialog)["class"] == "dialog"
    assert mvvm.snapshot(dialog)["class"] == "modal"
    assert mvvm.object_id(dialog) == mvvm.object_id(dialog)
    handle = mvvm.handle(dialog)
    mvvm.close(dialog)
    assert mvvm.is_closed(dialog)
    with pytest.raises(mvvm.ClosedError):
        dialog.close()
    with pytest.raises(mvvm.InvalidHandleError):
        sample.functions.mvvm_release(handle)
    with sample.Dialog(loop) as other:  # with: the package's close
        other.close()
    assert mvvm.is_closed(other)


def test_a_keyword_or_taken_name_gets_a_trailing_underscore_everywhere() -> None:
    def displayed(names: List[str]) -> List[Tuple[str, str]]:
        return [(name, camel(name)) for name in names]

    classes, records, requests = namespace_names(
        displayed(["subscription", "loop", "service", "none", "sign_up_view_model", "a_1", "a1"]),
        displayed(["address", "loop"]), {"sign_up_view_model"})
    assert NAMESPACE_NAMES == ("Loop", "Service")
    assert classes == {"subscription": "Subscription", "loop": "Loop_", "service": "Service_", "none": "None_",
                       "sign_up_view_model": "SignUpViewModel", "a_1": "A1", "a1": "A1_"}
    assert records == {"address": "Address", "loop": "Loop__"}
    assert requests == {"sign_up_view_model": "SignUpRequest"}


def test_a_class_named_as_the_namespaces_own_is_reachable(sample: mvvm.Library) -> None:
    """Built from a description: a class ``loop`` of the sample library is ``Loop_`` (the
    namespace's ``Loop`` stays the library's loop class); a class ``subscription`` is
    ``Subscription`` (classes are no attributes of the package: its ``mvvm.Subscription`` stays
    its own)."""
    import json

    raw = raw_descriptions(sample)
    renamed = [dict(cls, **{"class": "loop", "display": "Loop"}) if cls["class"] == "dialog" else
               dict(cls, **{"class": "subscription", "display": "Subscription"}) if cls["class"] == "greeter" else cls
               for cls in raw]
    namespace = Namespace(sample, Description(json.dumps(renamed)))
    assert namespace.by_name["Loop_"] is namespace.classes["loop"] and "Loop" not in namespace.by_name
    assert issubclass(namespace.Loop, mvvm.Loop) and not issubclass(namespace.Loop, mvvm.MvvmObject)
    assert namespace.by_name["Subscription"] is namespace.classes["subscription"]
    assert mvvm.Subscription.__module__ == "mvvm._object"


# ------------------------------------------------------------------------------------------------
# Lists of view models
# ------------------------------------------------------------------------------------------------


def test_list_items_compare_and_hash_by_their_object(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    playlist = sample.Playlist(loop)
    playlist.add_many("a,b")
    songs = playlist.songs
    first, again, second = songs[0], songs[0], songs[1]
    assert first is not again and first == again and hash(first) == hash(again)
    assert first != second and len({first, again, second}) == 2
    assert songs.index(again) == 0 and again in songs
    playlist.reverse()
    assert playlist.songs[1] == first  # moved: the same object


def test_async_list_changes_can_be_applied_when_the_task_runs(sample: mvvm.Library, loop: mvvm.Loop) -> None:
    """mvvm.aio.changes on a list: each splice carries the items it inserted, read while it was
    delivered, so a task applying them later (the list has moved on meanwhile, items inserted
    then removed included) rebuilds the list."""
    import asyncio

    import mvvm.aio

    playlist = sample.Playlist(loop)
    playlist.add_many("x,y")

    async def main() -> Tuple[List[int], List[int]]:
        copy: List[Any] = [song.object_id for song in playlist.songs]
        heard: List[mvvm.Splice] = []
        async with mvvm.aio.changes(playlist, "songs") as changes:
            with playlist.subscribe("songs", lambda name, splice: heard.append(splice)):
                playlist.add_many("a,b,c")  # all of it before the task reads a single change
                playlist.remove_first()
                playlist.reverse()
                playlist.filter = "b"
                playlist.filter = ""
                playlist.rotate()
                playlist.remove_first()
            assert len(heard) >= 7
            for expected in heard:
                name, splice = await changes.__anext__()
                assert name == "songs" and splice == expected
                assert splice.items is not None and len(splice.items) == splice.inserted
                splice.apply(copy)
        return [getattr(item, "object_id", item) for item in copy], playlist.songs.ids()

    applied, final = asyncio.run(asyncio.wait_for(main(), 30))
    assert applied == final and len(final) == 3


# ------------------------------------------------------------------------------------------------
# Libraries side by side
# ------------------------------------------------------------------------------------------------


def test_the_catalog_and_the_sample_load_side_by_side(sample: mvvm.Library) -> None:
    assert mvvm.load(catalog.path) is catalog and mvvm.load(Path(catalog.path).resolve()) is catalog  # loaded once
    assert mvvm.load(library_path("MVVM_SAMPLE_LIBRARY")) is sample
    assert sample is not catalog and sample.tag != catalog.tag
    assert "Profile" in sample.names and "Profile" not in catalog.names
    # The sample does not carry the catalog: only a library whose hook registers it does.
    assert "Counter" in catalog.names and "Counter" not in sample.names
    assert catalog.Counter is catalog.classes["counter"]
    with catalog.Loop.virtual() as catalog_loop, sample.Loop.virtual() as sample_loop:
        mine, theirs = catalog.Counter(catalog_loop), sample.Tally(sample_loop, 0)
        mine.increment()
        theirs.add()
        theirs.add()
        assert (mine.count, theirs.total) == (1, 2)
        assert mvvm.library_of(mine) is catalog and mvvm.library_of(theirs) is sample
        # A handle of one library given to the other: refused, never taken for its own.
        with pytest.raises(mvvm.InvalidHandleError) as loop_elsewhere:
            sample.Profile(catalog_loop)
        assert "another libmvvm library" in loop_elsewhere.value.message
        with pytest.raises(mvvm.InvalidHandleError):
            catalog.CounterViewModel(catalog_loop, theirs)
        with pytest.raises(mvvm.InvalidHandleError):
            catalog.functions.mvvm_release(mvvm.handle(theirs))
        assert theirs.total == 2 and mine != theirs
