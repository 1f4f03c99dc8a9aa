# pyright: strict
"""A typed program over the installed wheels: the catalog's typed package and a user package's
(Tests/outside's Sample), each shipped by `python3 -m mvvm_gen.package` as a wheel of its own
(`catalog`, `sample`), over the mvvm wheel. `mypy --strict` and pyright (strict) must find no
error here; Tests/packaging/test_packaging.sh runs both, and the program, in a virtualenv holding
only the three wheels."""

from __future__ import annotations

from typing import List, Literal, Optional

import catalog
import mvvm
import sample
from catalog import StopWatch
from sample import Greeter, Tally


def city_of(profile: sample.Profile) -> str:
    address: Optional[sample.Address] = profile.address
    return address.city if address is not None else ""


def main() -> List[str]:
    seen: List[str] = []
    with catalog.Loop.virtual() as loop:
        watch = StopWatch(loop)
        watch.start()
        loop.advance(120)
        elapsed: int = watch.time_ms
        state: Literal["startable", "stoppable", "resumable"] = watch.state
        seen += [str(elapsed), state]
        mvvm.close(watch)
    with sample.Loop.virtual() as loop:
        greeter = Greeter(loop, "Ada")
        greeter.subscribe("greeting", lambda name, value: seen.append(value))
        greeter.name = "Bob"
        loop.advance(0)
        greeter.greet()
        count: int = greeter.greet_count
        tally = Tally(loop, 4)
        tally.step = 3
        tally.add()
        tally.add_many(2)
        total: int = tally.total
        even: bool = tally.is_even
        profile = sample.Profile(loop)
        profile.address = sample.Address("Main 1", "Oslo")
        seen += [greeter.greeting, str(count), str(total), str(even), city_of(profile), sample.library.path.name]
    return seen


if __name__ == "__main__":
    print(main())
