"""Async services (issue 18, item 3): an ``async def`` service runs on the asyncio loop the
loop is attached to and its result answers; a plain return value answers; without an asyncio
loop a clear error (and no "never awaited" warning, no hang); a request dropped unanswered
gives a ResourceWarning under -X dev."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from typing import Any, List

import mvvm
import mvvm.aio
from conftest import Unraisables
from libraries import catalog


def test_an_async_service_answers_through_the_attached_asyncio_loop() -> None:
    async def main() -> List[Any]:
        seen: List[Any] = []
        with catalog.Loop.manual() as loop, mvvm.aio.attach(loop):
            async def api(request: catalog.WelcomeRequest) -> str:
                await asyncio.sleep(0.01)
                return "Hi"

            vm = catalog.WelcomeViewModel(loop, api=api)
            vm.subscribe("on_show_welcome", lambda name, value: seen.append(value))
            vm.view_did_load()
            for _ in range(200):
                if seen:
                    break
                await asyncio.sleep(0.01)
            vm.close()
        return seen

    assert asyncio.run(main()) == ["Hi"]


def test_a_plain_return_value_is_the_answer(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop, service=lambda request: True)
    form.user_id, form.password, form.confirm_password, form.agreed = "abcdef", "password1", "password1", True
    form.sign_up_tapped()
    loop.advance(0)
    assert form.is_completion_alert_presented is True
    form.close()


def test_an_async_service_without_an_asyncio_loop_is_a_clear_error(loop: mvvm.Loop, unraisables: Unraisables) -> None:
    async def api(request: Any) -> str:
        return "never"

    vm = catalog.WelcomeViewModel(loop, api=api)
    vm.view_did_load()
    loop.advance(0)
    assert len(unraisables.seen) == 1
    assert "mvvm.aio.attach" in str(unraisables.seen[0].exc_value)
    unraisables.seen.clear()
    vm.close()


def test_a_request_dropped_unanswered_warns_under_dev_mode() -> None:
    code = textwrap.dedent("""
        import os, gc, mvvm
        catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
        loop = catalog.Loop.virtual()
        vm = catalog.WelcomeViewModel(loop, api=lambda request: None)  # keeps nothing
        vm.view_did_load()
        gc.collect()
        loop.close()
    """)
    done = subprocess.run([sys.executable, "-X", "dev", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ResourceWarning" in done.stderr and "dropped without an answer" in done.stderr, done.stderr
    assert "never awaited" not in done.stderr


def test_the_safe_path_from_a_worker_thread_notifies_on_the_loops_thread() -> None:
    """Issue 18, item 5: completing from a worker notifies on the worker; completing through
    the asyncio loop (call_soon_threadsafe, as the README says) notifies on the loop's thread."""
    import threading
    from pathlib import Path

    readme = (Path(mvvm.__file__).resolve().parent.parent / "README.md").read_text()
    assert "call_soon_threadsafe" in readme and "on that" in readme

    async def main() -> List[Any]:
        threads: List[Any] = []
        asyncio_loop = asyncio.get_running_loop()
        with catalog.Loop.manual() as loop, mvvm.aio.attach(loop):
            def api(request: Any) -> None:
                threading.Thread(target=lambda: asyncio_loop.call_soon_threadsafe(request.complete, "Hi")).start()

            vm = catalog.WelcomeViewModel(loop, api=api)
            vm.subscribe("on_show_welcome", lambda name, value: threads.append(threading.get_ident()))
            vm.view_did_load()
            for _ in range(200):
                if threads:
                    break
                await asyncio.sleep(0.01)
            vm.close()
        return threads

    assert asyncio.run(main()) == [threading.get_ident()]
