"""Shared fixtures: a virtual loop of the catalog's library (tests/libraries.py), an event
recorder, captured unraisable exceptions, and a check after every test that every callback the
library held was released (destroy ran)."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import threading
from typing import Any, Iterator, List, Optional, Tuple

import pytest

# Hypothesis keeps its files out of the working tree (it writes .hypothesis/ in the current folder).
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "mvvm-hypothesis"))

import mvvm  # noqa: E402
from libraries import catalog  # noqa: E402
from mvvm._loop import _live_loops  # noqa: E402
from mvvm._registry import registry  # noqa: E402

#: "👨‍👩‍👧‍👦": one grapheme cluster of seven scalars.
FAMILY = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"
#: "é" as "e" and a combining acute accent: one grapheme cluster of two scalars.
E_ACUTE_DECOMPOSED = "e\u0301"


class Recorder:
    """A subscriber that records (name, value, thread id) of every event."""

    def __init__(self) -> None:
        self.events: List[Tuple[str, Any]] = []
        self.threads: List[int] = []
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)

    def __call__(self, name: str, value: Any) -> None:
        with self.lock:
            self.events.append((name, value))
            self.threads.append(threading.get_ident())
            self.changed.notify_all()

    def values(self, name: Optional[str] = None) -> List[Any]:
        with self.lock:
            return [v for n, v in self.events if name is None or n == name]

    def count(self, name: Optional[str] = None) -> int:
        return len(self.values(name))

    def wait_for(self, predicate: Any, timeout: float = 10.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def loop(request: pytest.FixtureRequest) -> Iterator[mvvm.Loop]:
    """A virtual loop of the test module's library: its ``LIBRARY``, else the catalog's."""
    library = getattr(request.module, "LIBRARY", catalog)
    with library.Loop.virtual() as virtual:
        yield virtual


class Unraisables:
    def __init__(self) -> None:
        self.seen: List[Any] = []

    def __call__(self, args: Any) -> None:
        self.seen.append(args)

    def messages(self) -> List[str]:
        return [str(args.err_msg) for args in self.seen]


@pytest.fixture
def unraisables(monkeypatch: pytest.MonkeyPatch) -> Unraisables:
    captured = Unraisables()
    monkeypatch.setattr(sys, "unraisablehook", captured)
    return captured


@pytest.fixture(autouse=True)
def every_callback_released() -> Iterator[None]:
    """After each test: close the loops it left open, collect garbage, run the deferred
    releases, and check that the library ran the destroy function of every callback."""
    before = set(registry.keys())
    late_before = registry.late_calls
    yield
    for open_loop in list(_live_loops):
        open_loop.close()
    for _ in range(3):  # garbage freed by a collection may free more: a few rounds when needed
        gc.collect()
        mvvm.release_pending()
        if not set(registry.keys()) - before:
            break
    leaked = set(registry.keys()) - before
    assert not leaked, "callbacks never destroyed: %r" % [registry.get(k).what for k in leaked]
    assert registry.late_calls == late_before, "the library called a callback after its destroy function"


def errors_elsewhere(*attempts: Any) -> List[BaseException]:
    """Runs each attempt on another thread, in turn; the library errors they raised, in order
    (what a main-actor object or the main loop refuses off the main thread)."""
    errors: List[BaseException] = []

    def run() -> None:
        for attempt in attempts:
            try:
                attempt()
            except mvvm.MvvmError as error:
                errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return errors
