"""A typed program over a library composed of two Swift modules (Tests/outside's libappsample.so:
AppSample's classes and AppSampleSwift5's, which AppSample's hook registers too), through the one
typed wheel ``python3 -m mvvm_gen.package`` makes of it (every module but the catalog's, by
default). ``mypy --strict`` and ``pyright`` must find no error here (tests/test_typing.py runs both
over the unpacked wheel); it is also run."""

# pyright: strict
from __future__ import annotations

import appsample


def main() -> None:
    loop = appsample.Loop.main()
    try:
        meeting = appsample.MeetingViewModel(loop)  # module AppSample
        vote = appsample.VoteViewModel(loop)  # module AppSampleSwift5
        sign_in = appsample.SignInViewModel(loop)
        vote.vote()
        votes: int = vote.votes
        speaker: int = meeting.speaker
        status: str = meeting.status
        sign_in.sign_in(user="ada")
        token: str = sign_in.token
        print(votes, speaker, status, repr(token))
    finally:
        loop.close()


if __name__ == "__main__":
    main()
