"""View models written as apps write them (Tests/outside's libappsample.so: a @MainActor class
with a Foundation Timer, Task { @MainActor in }, DispatchQueue.main.async, a main-actor async
command; a class whose property a private queue sets) on ``Loop.main()`` under asyncio, which only
waits on the loop's fd; and what a main-actor object refuses from another thread."""

from __future__ import annotations

import asyncio
import gc
import os
import threading
from typing import Any, List

import pytest

import mvvm
import mvvm.aio
from conftest import errors_elsewhere

APP_SAMPLE = os.environ.get("MVVM_APP_SAMPLE_LIBRARY")
pytestmark = pytest.mark.skipif(not APP_SAMPLE, reason="MVVM_APP_SAMPLE_LIBRARY is not set (build Tests/outside)")


@pytest.fixture(scope="module")
def app() -> mvvm.Library:
    assert APP_SAMPLE is not None
    return mvvm.load(APP_SAMPLE)


async def until(obj: Any, name: str, wanted: Any) -> None:
    """Waits for ``obj.name == wanted``, hearing its changes (asyncio only waits meanwhile)."""
    async with mvvm.aio.changes(obj, name) as changes:
        if getattr(obj, name) == wanted:
            return
        async for _, value in changes:
            if value == wanted:
                return


def test_a_main_actor_view_model_under_asyncio(app: mvvm.Library) -> None:
    async def main() -> List[Any]:
        loop = app.Loop.main()
        meeting = app.MeetingViewModel(loop)
        sign_in = app.SignInViewModel(loop)
        with mvvm.aio.attach(loop):
            meeting.start()  # a Foundation Timer, ticking every 50 ms
            await until(meeting, "seconds_elapsed", 3)
            meeting.stop()
            meeting.skip_speaker()  # Task { @MainActor in }
            await until(meeting, "speaker", 1)
            meeting.refresh()  # a background queue, then DispatchQueue.main.async
            await until(meeting, "status", "fetched")
            polls = await meeting.fetch()  # a main-actor async method
            sign_in.sign_in("ada")  # its token is set on a private queue
            await until(sign_in, "token", "token-ada")
        seen = [meeting.seconds_elapsed, meeting.speaker, meeting.status, polls, sign_in.token]
        loop.close()
        return seen

    seconds, speaker, status, polls, token = asyncio.run(asyncio.wait_for(main(), 30))
    assert seconds >= 3 and speaker == 1 and status == "fetched" and polls == 1 and token == "token-ada"


def test_a_main_actor_view_model_refuses_other_loops_and_threads(app: mvvm.Library) -> None:
    with app.Loop.manual() as manual:
        with pytest.raises(mvvm.InvalidArgumentError, match="lives on the main loop"):
            app.MeetingViewModel(manual)
    loop = app.Loop.main()
    try:
        meeting = app.MeetingViewModel(loop)
        errors = errors_elsewhere(lambda: meeting.speaker, meeting.skip_speaker, lambda: app.MeetingViewModel(loop))
        assert [type(error) for error in errors] == [mvvm.WrongThreadError] * 3
        # Closed on another thread (a finalizer may run anywhere): carried out on the main loop.
        closer = threading.Thread(target=meeting.close)
        closer.start()
        closer.join()
        loop.run_for(10)
        with pytest.raises(mvvm.ClosedError):
            meeting.speaker
    finally:
        loop.close()
        gc.collect()
