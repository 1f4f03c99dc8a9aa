"""Mistakes the type checkers must report over a library of one's own (its generated stubs): each
line ending in an "error:" comment must give an error, in ``mypy --strict`` and in ``pyright``
(tests/test_typing.py), and no other line may."""

from __future__ import annotations

import mvvm
import sample


def mistakes(loop: mvvm.Loop) -> None:
    profile = sample.Profile(loop)
    profile.limit = "3"  # error: an optional int
    profile.full_name = "Ada"  # error: an output is read-only
    profile.scores = ["1"]  # error: an array of doubles
    address = sample.Address("Main 1")  # error: city is missing
    address.city = "Oslo"  # error: a record is frozen
    profile.contact(name="Bob", street="Elm 2")  # error: city is missing
    profile.move_tag(frm=0, to=1)  # error: no argument frm (from is from_)
    name: int = profile.contact("Bob", "Elm 2", "Bergen").name  # error: a str
    wishlist = sample.Wishlist(loop)
    text: str = wishlist.add("pen", 1.0)  # error: add gives an int
    dialog = sample.Dialog(loop)
    dialog.close(True)  # error: the command close takes nothing
    dialog.subscribe("bind", print)  # error: the command subscribe takes nothing
    dialog.id = 3  # error: an output
    profile.load("3")  # error: count is an int
    saves: int = profile.ping()  # error: an async command gives a call, not its result
    order = sample.Order(loop)
    when: float = order.placed  # error: a date reads as a datetime
    order.cost = 1.5  # error: a decimal is not given as a float
    order.id = 7  # error: a UUID is given as a uuid.UUID or a str


async def async_mistakes(profile: sample.Profile) -> None:
    tags: str = await profile.load(1)  # error: load gives a list of str
    await profile.load(count=1).result()  # error: a list is not awaitable
