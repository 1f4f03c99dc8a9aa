"""Greeter and Tally of Tests/outside (libsample.so: a package of its own registering an
ObservableObject and an @Observable class), driven from Python with no binding code written for
them, checking the notification rules of docs/notifications.md.

The library is loaded by its path (tests/libraries.py), beside the catalog's.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Callable, List, Tuple

import pytest

import mvvm
from libraries import library_path
from conftest import Recorder
from mvvm._values import take_string

#: The library of this module's tests (conftest's loop is of it).
LIBRARY = sample = mvvm.load(library_path("MVVM_SAMPLE_LIBRARY"))


class Reading:
    """A subscriber that records (name, value, the getter's value inside the callback)."""

    def __init__(self, source: mvvm.MvvmObject, *also: str) -> None:
        self.source = source
        self.also = also
        self.events: List[Tuple[Any, ...]] = []

    def __call__(self, name: str, value: Any) -> None:
        read = self.source.get(name) if name in self.source.snapshot() else None
        self.events.append((name, value, read) + tuple(self.source.get(other) for other in self.also))


def test_the_sample_classes_are_made_from_the_library() -> None:
    assert {"greeter", "tally"} <= set(sample.classes)
    assert "counter" not in sample.classes  # the sample does not carry the catalog
    assert sample.Greeter.c_class == "greeter" and sample.Tally.c_class == "tally"
    assert "Greeter" in dir(sample) and "Tally" in sample.names
    assert not hasattr(mvvm, "Greeter"), "the package has no default library, no class of any"
    assert sample.Greeter.__doc__.startswith("Greets whoever the view names.")
    assert sample.Tally.add_many.__doc__.startswith("Adds step that many times, as one change.")
    assert "Who to greet." in (sample.Greeter.name.__doc__ or "")


def test_greeter_constructors_properties_and_read_only_outputs(loop: mvvm.Loop) -> None:
    anonymous = sample.Greeter(loop)
    assert (anonymous.name, anonymous.greeting, anonymous.greet_count) == ("", "Hello!", 0)
    for named in (sample.Greeter(loop, "Ada"), sample.Greeter(loop, name="Ada"), mvvm.new(loop, "greeter", "Ada")):
        assert type(named) is sample.Greeter
        assert named.snapshot() == {"name": "Ada", "greeting": "Hello, Ada!", "greet_count": 0}
    with pytest.raises(mvvm.ReadOnlyError):
        anonymous.greeting = "Hi"  # type: ignore[misc]
    with pytest.raises(mvvm.ReadOnlyError):
        anonymous.greet_count = 3  # type: ignore[misc]
    with pytest.raises(mvvm.TypeMismatchError):
        anonymous.name = 3  # type: ignore[assignment]
    with pytest.raises(mvvm.TypeMismatchError):
        sample.Greeter(loop, 3)
    with pytest.raises(mvvm.InvalidArgumentError) as two:
        sample.Greeter(loop, "a", "b")  # type: ignore[call-overload]
    assert two.value.message == "greeter takes () or (name: string), not 2 arguments"
    with pytest.raises(mvvm.TypeMismatchError):
        mvvm.new(loop, "greeter", 3)
    with pytest.raises(mvvm.InvalidArgumentError):
        mvvm.new(loop, "greeter", "a", "b")
    assert anonymous.greeting == "Hello!" and anonymous.greet_count == 0


def test_greeter_notifies_after_the_change_once_per_set_and_not_for_the_same_value(loop: mvvm.Loop) -> None:
    greeter = sample.Greeter(loop)
    seen = Reading(greeter, "name", "greeting")
    greeter.subscribe(None, seen)
    greeter.name = "Ada"
    # Each changed property once, after the whole change: inside the callback every getter
    # already gives the new values (never Combine's willSet value).
    assert sorted(seen.events) == sorted([("name", "Ada", "Ada", "Ada", "Hello, Ada!"),
                                          ("greeting", "Hello, Ada!", "Hello, Ada!", "Ada", "Hello, Ada!")])
    seen.events.clear()
    greeter.name = "Ada"  # the same value: nothing changed, nothing notified
    loop.advance(0)
    assert seen.events == []
    greeter.name = ""
    assert sorted(e[:2] for e in seen.events) == [("greeting", "Hello!"), ("name", "")]


def test_greeter_signal_is_delivered_with_the_greeting(loop: mvvm.Loop) -> None:
    greeter = sample.Greeter(loop, name="Bo")
    seen = Reading(greeter, "greet_count")
    greeter.subscribe(None, seen)
    greeted = Recorder()
    greeter.subscribe("greeted", greeted)
    greeter.greet()
    greeter.greet()
    assert greeted.events == [("greeted", "Hello, Bo!")] * 2  # signals are never merged
    assert ("greet_count", 1, 1, 1) in seen.events and ("greet_count", 2, 2, 2) in seen.events
    assert [e[1] for e in seen.events if e[0] == "greeted"] == ["Hello, Bo!"] * 2
    assert greeter.greet_count == 2


def test_subscribers_are_notified_in_the_order_they_subscribed(loop: mvvm.Loop) -> None:
    greeter, tally = sample.Greeter(loop), sample.Tally(loop, 0)
    order: List[Tuple[str, int]] = []

    def subscriber(index: int) -> Callable[[str, Any], None]:
        return lambda name, value: order.append((name, index))

    for index in range(8):
        greeter.subscribe("name", subscriber(index))
        tally.subscribe("total", subscriber(index))
    greeter.name = "x"
    tally.add()
    assert order == [("name", i) for i in range(8)] + [("total", i) for i in range(8)]


def test_tally_an_observable_class(loop: mvvm.Loop) -> None:
    tally = sample.Tally(loop, 3)
    assert tally.snapshot() == {"total": 3, "step": 1, "title": "Tally", "is_even": False}
    assert sample.Tally(loop, start=4).is_even is True
    with pytest.raises(mvvm.InvalidArgumentError) as none:
        sample.Tally(loop)  # type: ignore[call-arg]  # its one constructor takes start
    assert none.value.message == "tally takes (start: int), not 0 arguments"
    with pytest.raises(mvvm.ReadOnlyError):
        tally.total = 0  # type: ignore[misc]
    with pytest.raises(mvvm.ReadOnlyError):
        tally.is_even = True  # type: ignore[misc]
    with pytest.raises(mvvm.TypeMismatchError):
        tally.add_many("5")
    with pytest.raises(mvvm.TypeMismatchError):
        tally.step = 1.5  # type: ignore[assignment]
    with pytest.raises(mvvm.InvalidArgumentError):
        tally.add_many(2**63)
    for wide in (2**63, -2**63 - 1, 2**64):  # ints C's int64_t cannot hold: refused, never wrapped
        with pytest.raises(mvvm.InvalidArgumentError):
            tally.step = wide
    tally.step = -2**63
    assert (tally.total, tally.step) == (3, -2**63)


def test_tally_notifies_once_per_operation_with_the_final_value(loop: mvvm.Loop) -> None:
    tally = sample.Tally(loop, 0)
    seen = Reading(tally, "total", "is_even")
    tally.subscribe(None, seen)
    tally.step = 2
    assert seen.events == [("step", 2, 2, 0, True)]
    seen.events.clear()
    tally.add_many(5)  # five additions, one operation: total once, with the sum
    assert [e for e in seen.events if e[0] == "total"] == [("total", 10, 10, 10, True)]
    assert [e for e in seen.events if e[0] == "is_even"] == []  # even before, even after: no change
    seen.events.clear()
    tally.step = 1
    seen.events.clear()
    tally.add()  # 11: is_even follows total, notified after the change
    assert sorted(seen.events) == sorted([("total", 11, 11, 11, False), ("is_even", False, False, 11, False)])
    seen.events.clear()
    tally.add_many(0)  # nothing changes: nothing notified
    tally.step = 1  # the same value
    tally.title = "Tally"  # the same value
    loop.advance(0)
    assert seen.events == []
    tally.title = "Score"
    assert seen.events == [("title", "Score", "Score", 11, False)]
    seen.events.clear()
    tally.reset()
    assert sorted(seen.events) == sorted([("total", 0, 0, 0, True), ("is_even", True, True, 0, True)])
    seen.events.clear()
    tally.reset()  # already 0
    assert seen.events == []


def test_a_subscription_made_during_a_delivery_hears_the_next_change(loop: mvvm.Loop) -> None:
    tally = sample.Tally(loop, 0)
    late = Recorder()
    subscriptions: List[mvvm.Subscription] = []

    def first(name: str, value: Any) -> None:
        if not subscriptions:
            subscriptions.append(tally.subscribe("total", late))

    tally.subscribe("total", first)
    tally.add()
    assert late.events == []
    tally.add()
    assert late.events == [("total", 2)]
    subscriptions[0].unsubscribe()
    tally.add()
    assert late.events == [("total", 2)]


def test_callbacks_may_call_back_in(loop: mvvm.Loop) -> None:
    tally, greeter = sample.Tally(loop, 0), sample.Greeter(loop)
    tally.subscribe("total", lambda name, value: setattr(greeter, "name", "n%d" % value))
    names = Recorder()
    greeter.subscribe("greeting", names)
    tally.add_many(3)
    assert names.events == [("greeting", "Hello, n3!")]
    tally.close()
    greeter.close()


# --- Foundation's values (Order: UUID, Date, URL, Decimal) ------------------------------------

ID = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
DIGITS_38 = "12345678901234567890123456789012345678"


def test_a_uuid_is_a_uuid_and_a_str_is_taken(loop: mvvm.Loop) -> None:
    import uuid
    order = sample.Order(loop)
    assert order.id == uuid.UUID("00000000-0000-0000-0000-000000000001") and type(order.id) is uuid.UUID
    order.id = ID.lower()  # a str, any case
    assert order.id == uuid.UUID(ID) and mvvm.get(order, "id") == uuid.UUID(ID)
    order.id = uuid.UUID(int=0xABC)
    assert order.id == uuid.UUID(int=0xABC)
    assert sample.Order(loop, uuid.UUID(ID)).id == uuid.UUID(ID) == sample.Order(loop, id=ID.lower()).id
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        order.id = ID.replace("-", "")
    assert refused.value.message == ('order.id cannot hold "%s": it is no UUID (8-4-4-4-12 hexadecimal digits)'
                                  % ID.replace("-", ""))
    assert order.id == uuid.UUID(int=0xABC)
    order.related = [uuid.UUID(ID), "00000000-0000-0000-0000-00000000000a"]
    assert order.related == [uuid.UUID(ID), uuid.UUID(int=10)]


def test_a_date_is_an_aware_datetime_in_utc(loop: mvvm.Loop) -> None:
    from datetime import datetime, timedelta, timezone
    order = sample.Order(loop)
    assert order.placed == datetime(1970, 1, 1, tzinfo=timezone.utc)
    moment = datetime(1969, 7, 20, 20, 17, 40, 123456, tzinfo=timezone(timedelta(hours=-5)))
    order.placed = moment
    assert order.placed == moment and order.placed.tzinfo is timezone.utc
    assert mvvm.get(order, "placed").microsecond == 123456
    for first_and_last in (datetime(1, 1, 1, tzinfo=timezone.utc), datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone.utc)):
        order.placed = first_and_last
        assert order.placed == first_and_last
    order.placed = -86400  # a number of seconds
    assert order.placed == datetime(1969, 12, 31, tzinfo=timezone.utc)
    with pytest.raises(mvvm.InvalidArgumentError, match="naive datetime"):
        order.placed = datetime(2024, 1, 1)
    # Beyond datetime's years: the library holds it; reading it raises, naming the member.
    order.placed = 253402300800.5  # 10000-01-01T00:00:00.5Z
    with pytest.raises(OverflowError, match=r"^Order\.placed: 253402300800\.5 seconds since 1970 is outside"):
        order.placed
    order.placed = -62135596801.0  # before year 1
    with pytest.raises(OverflowError, match="Order.placed"):
        order.placed
    with pytest.raises(OverflowError, match="^placed: "):
        order.snapshot()
    order.placed = 0
    assert order.due is None
    order.due = moment
    assert order.due == moment and order.snapshot()["due"] == moment


def test_a_snapshot_holds_nan_and_infinities_as_reading_does(loop: mvvm.Loop) -> None:
    """Issue 48, item 4: a double JSON has no number for is no null in a snapshot (null is "no
    value"): a snapshot gives what reading gives, and raises what reading raises."""
    import math
    from datetime import datetime, timezone
    order = sample.Order(loop)
    for seconds in (math.inf, -math.inf, math.nan):
        order.placed = seconds
        with pytest.raises(OverflowError, match=r"^Order\.placed: "):
            order.placed
        with pytest.raises(OverflowError, match=r"^placed: (inf|-inf|nan) seconds since 1970 is outside"):
            order.snapshot()
    order.placed = 0
    order.line = sample.LineItem(order.id, math.inf, "https://example.com/", 1, None)
    with pytest.raises(OverflowError, match=r"^line\.at: inf seconds since 1970"):
        order.snapshot()
    order.line = None
    assert order.snapshot()["placed"] == datetime(1970, 1, 1, tzinfo=timezone.utc) and order.snapshot()["line"] is None
    wishlist = sample.Wishlist(loop)
    wishlist.budget = math.nan
    wishlist.prices = [math.inf, None, -math.inf, math.nan]
    snapshot = wishlist.snapshot()
    assert math.isnan(snapshot["budget"]) and math.isnan(wishlist.budget)  # an optional NaN is no None
    assert snapshot["prices"][:3] == [math.inf, None, -math.inf] and math.isnan(snapshot["prices"][3])
    # As mvvm_snapshot writes them, JSON having no such numbers: strings, never null.
    functions, out = mvvm.library_of(wishlist).functions, ctypes.c_void_p()
    functions.mvvm_snapshot(wishlist, ctypes.byref(out))
    raw = json.loads(take_string(functions.mvvm_string_free, out, "mvvm_snapshot"))
    assert (raw["budget"], raw["prices"]) == ("NaN", ["Infinity", None, "-Infinity", "NaN"])


def test_a_url_is_its_absolute_string(loop: mvvm.Loop) -> None:
    order = sample.Order(loop)
    assert order.link == "https://example.com/"
    order.link = "https://例え.jp/パス?q=ü#frag"
    assert order.link == "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BC#frag"
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        order.link = "not a url"
    assert refused.value.message == 'order.link cannot hold "not a url": it is no URL: it has no scheme (as https: or mailto:)'


def test_a_decimal_is_a_decimal_never_rounded(loop: mvvm.Loop) -> None:
    from decimal import Decimal
    order = sample.Order(loop)
    assert order.cost == Decimal(0) and type(order.cost) is Decimal
    order.cost = Decimal(DIGITS_38)
    assert str(order.cost) == DIGITS_38
    order.cost = Decimal("-" + DIGITS_38 + "E-128")
    assert order.cost == Decimal("-" + DIGITS_38 + "E-128")
    order.cost = 7  # an int
    assert order.cost == Decimal(7)
    order.cost = "0.0015"
    assert order.cost == Decimal("0.0015")
    for refused_text in ("1.2.3", "NaN", "Infinity", DIGITS_38 + "9"):
        with pytest.raises(mvvm.InvalidArgumentError, match="^mvvm_set: order.cost cannot hold"):
            order.cost = Decimal(refused_text) if refused_text[0].isalpha() else refused_text
    assert order.cost == Decimal("0.0015")


def test_a_record_built_with_any_accepted_form_equals_itself_read_back(loop: mvvm.Loop) -> None:
    import uuid
    from datetime import datetime, timezone
    from decimal import Decimal
    order = sample.Order(loop)
    # A UUID's text (any case), a date's seconds, a decimal's text or int: held as Python's types.
    line = sample.LineItem(ID.lower(), 0.5, "https://a.example/", "-0.00100", None)
    assert line.id == uuid.UUID(ID) and type(line.id) is uuid.UUID
    assert line.at == datetime(1970, 1, 1, 0, 0, 0, 500000, tzinfo=timezone.utc)
    assert line.price == Decimal("-0.001") and type(line.price) is Decimal
    order.line = line
    assert order.line == line and hash(order.line) == hash(line)
    counted = line._replace(price=7, due=86400)
    assert counted.price == Decimal(7) and counted.due == datetime(1970, 1, 2, tzinfo=timezone.utc)
    order.line = counted
    assert order.line == counted
    # What Python cannot read as the kind stays as given, for the library to refuse.
    for wrong in (dict(id="not a uuid"), dict(price="1,5"), dict(at="yesterday"), dict(price=1.5)):
        kept = line._replace(**wrong)
        assert getattr(kept, next(iter(wrong))) == next(iter(wrong.values()))
        with pytest.raises((mvvm.InvalidArgumentError, mvvm.TypeMismatchError)):
            order.line = kept
    assert order.line == counted


def test_records_commands_and_async_commands_of_the_kinds(loop: mvvm.Loop) -> None:
    import uuid
    from datetime import datetime, timezone
    from decimal import Decimal
    order = sample.Order(loop)
    before_1970 = datetime(1900, 1, 1, 0, 0, 0, 500000, tzinfo=timezone.utc)
    line = order.make_line(ID.lower(), before_1970, "https://a.example/ü", Decimal("-0.00100"))
    assert line == sample.LineItem(uuid.UUID(ID), before_1970, "https://a.example/%C3%BC", Decimal("-0.001"), None)
    order.line = line
    assert order.line == line and order.snapshot()["line"] == line
    with pytest.raises(mvvm.InvalidArgumentError) as refused:
        order.line = line._replace(price="1,5")
    assert refused.value.message.startswith('order.line.price cannot hold "1,5": it is no decimal number')
    heard: List[Any] = []
    order.subscribe("placed", lambda name, value: heard.append(value))
    order.placed = before_1970
    assert heard == [before_1970]
    call = order.postpone(before_1970)
    loop.advance(0)
    assert call.result() is None
    call = order.postpone(datetime(2030, 1, 1, tzinfo=timezone.utc))
    loop.advance(0)
    assert call.result() == before_1970
