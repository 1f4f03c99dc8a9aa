"""A typed program over a library of one's own (Tests/outside's libsample.so) through its typed
package (``python3 -m mvvm_gen --py-package``, ``import sample``): records, optionals, arrays,
bytes, commands with keyword arguments and results, async commands as awaitable calls, members
winning their names. ``mypy --strict`` and ``pyright`` must find no error here
(tests/test_typing.py runs both against the package it generates, the library beside it); it is
also run so."""

from __future__ import annotations

import asyncio
import datetime
import decimal
import uuid
from typing import Any, List, Optional

import mvvm
import sample


def on_saved(name: str, contact: sample.Contact) -> None:
    print(name, contact.address.city)


async def loaded(profile: sample.Profile) -> List[str]:
    tags: List[str] = await profile.load(count=0)  # an async command: awaited, its result typed
    pinged: int = await profile.ping()
    return tags + [str(pinged)]


def main() -> List[str]:
    seen: List[str] = []
    with sample.Loop.virtual() as loop:
        profile = sample.Profile(loop)
        profile.first, profile.last = "Ada", "Lovelace"
        full_name: str = profile.full_name
        profile.limit = 3
        limit: Optional[int] = profile.limit
        profile.tags = ("b", "a")
        tags: List[str] = profile.tags
        profile.scores = [1, 2.5]
        profile.address = sample.Address("Main 1", "Oslo")
        profile.address = {"street": "Elm 2", "city": "Bergen"}
        address: Optional[sample.Address] = profile.address
        street = address.street if address is not None else ""
        profile.avatar = bytearray(b"\x00\x01")
        avatar: bytes = profile.avatar
        contact: sample.Contact = profile.contact(name="Bob", street="Elm 2", city="Bergen")
        city: str = contact.address.city
        zip_code: Optional[str] = contact.address.zip_code
        profile.move_tag(from_=0, to=1)
        try:
            profile.move_tag(0, to=9)
        except mvvm.CommandError as error:
            seen.append(error.message)
        profile.subscribe("saved", on_saved)
        profile.subscribe("limit", lambda name, value: seen.append(str(value)))
        saved: sample.Contact = profile.save()
        call: mvvm.AsyncCall[List[str]] = profile.load(1)
        loop.advance(1000)
        loaded_tags: List[str] = call.result()
        cancelled = profile.load(5)
        cancelled.cancel()
        if isinstance(cancelled.exception(), mvvm.CallCancelledError):
            seen.append("cancelled")
        seen += asyncio.run(loaded(profile)) + loaded_tags
        snapshot = profile.snapshot()
        avatar_then: bytes = snapshot["avatar"]
        seen += [full_name, str(limit), ",".join(tags), street, str(avatar), city, str(zip_code), saved.name,
                 str(avatar_then)]

        dialog = sample.Dialog(loop)
        dialog.close()  # the command
        closed: bool = dialog.closed
        where: str = dialog.loop
        dialog.class_ = "sheet"
        kind: str = dialog.class_
        dialog.move(from_=1, to=2)
        dialog.send("hi")
        log: List[str] = dialog.log
        value: Any = mvvm.get(dialog, "class")
        mvvm.subscribe(dialog, "bind", lambda name, text: seen.append(text))
        mvvm.close(dialog)
        seen += [str(closed), where, kind, ",".join(log), str(value), str(mvvm.is_closed(dialog))]

        wishlist = sample.Wishlist(loop)
        count: int = wishlist.add("pen", 2.5) + wishlist.add("ink")
        item: str = wishlist.item(0)
        prices: List[Optional[float]] = wishlist.prices
        home: Optional[sample.Address] = wishlist.home
        seen += [str(count), item, str(prices), str(home)]

        # Foundation's values as Python's own types, given as those or as their plain forms.
        order = sample.Order(loop, id="e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        order.id = uuid.UUID(int=1)
        order_id: uuid.UUID = order.id
        order.placed = datetime.datetime(1900, 1, 1, tzinfo=datetime.timezone.utc)
        order.placed = -86400.0
        placed: datetime.datetime = order.placed
        order.link = "https://example.com/"
        link: str = order.link
        order.cost = decimal.Decimal("1.50")
        order.cost = 7
        cost: decimal.Decimal = order.cost
        due: Optional[datetime.datetime] = order.due
        line: sample.LineItem = order.make_line(order_id, placed, link, cost)
        price: decimal.Decimal = line.price
        postponed: mvvm.AsyncCall[Optional[datetime.datetime]] = order.postpone(placed)
        loop.advance(0)
        seen += [str(order_id), placed.isoformat(), link, str(cost), str(due), str(price), str(postponed.result())]
    return seen


if __name__ == "__main__":
    print(main())
