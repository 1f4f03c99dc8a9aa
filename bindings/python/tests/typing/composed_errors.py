"""Mistakes over the one typed wheel of a library composed of two Swift modules (Tests/outside's
libappsample.so): each line marked as an error must be reported there by ``mypy --strict`` and by
``pyright`` (tests/test_typing.py), one from each module's classes."""

# pyright: strict
from __future__ import annotations

import appsample


def mistakes(loop: appsample.Loop) -> None:
    vote = appsample.VoteViewModel(loop)  # module AppSampleSwift5
    meeting = appsample.MeetingViewModel(loop)  # module AppSample
    vote.votes = 3  # error: an output is read-only
    label: str = vote.votes  # error: an int
    meeting.status = "done"  # error: an output is read-only
    appsample.SignInViewModel(loop).sign_in(user=7)  # error: a str argument
