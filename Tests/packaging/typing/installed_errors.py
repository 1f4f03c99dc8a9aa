# pyright: strict
"""Mistakes the type checkers must report over the installed wheels (the catalog's typed package
and the user package `sample`'s, over the mvvm wheel): each line ending in an "error:" comment must give an error, in
`mypy --strict` and in pyright (strict), and no other line may (Tests/packaging/test_packaging.sh)."""

from __future__ import annotations

import catalog
import mvvm
import sample


def mistakes(loop: mvvm.Loop) -> None:
    tally = sample.Tally(loop, 1)
    tally.total = 3  # error: writing an output
    player = catalog.TimerViewModel(loop, catalog.CountDownTimer(loop, 5)).player
    player.tapped("play")  # error: a value outside a String enum ("start", "pause", "stop")
    tally.add_many("2")  # error: a wrong argument type (an int)
    sample.Tally(loop)  # error: a missing constructor argument (start)
    count: int = tally.count  # error: an unknown member
