"""The fast path (issue 53): the C extension mvvm._fast runs the hot paths when it should
(run_tests.sh runs the whole suite twice and says which run this is: MVVM_TEST_FAST_PATH=1 with
the extension built in place, 0 with MVVM_FASTPATH=0), and a Python or a build that cannot use it
runs everything over ctypes, silently but discoverably (mvvm.fast_path, mvvm.fast_path_reason)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, List, Optional

import pytest

import mvvm
from mvvm import _fastpath
from libraries import catalog

PACKAGE_ROOT = Path(mvvm.__file__).resolve().parent.parent
EXPECTED = os.environ.get("MVVM_TEST_FAST_PATH")

#: A round trip and a read, whichever way runs them: prints what it saw and the way.
ROUND_TRIP = """
    import os, mvvm
    catalog = mvvm.load(os.environ["MVVM_CATALOG_LIBRARY"])
    with catalog.Loop.virtual() as loop, catalog.SignUpViewModel(loop) as form:
        seen = []
        form.subscribe("is_sign_up_enabled", lambda name, value: seen.append(value))
        form.user_id, form.password, form.confirm_password, form.agreed = "newuser", "password1", "password1", True
        form.password = "short"
        print(mvvm.fast_path, seen, form.password, form.agreed)
        print(mvvm.fast_path_reason)
"""


def run(program: str, python: str = sys.executable, **environ: Optional[str]) -> "subprocess.CompletedProcess[str]":
    """``program`` in a new interpreter with this one's environment, changed by ``environ`` (None
    removes a variable), the package from this tree."""
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
    env.pop("MVVM_FASTPATH", None)
    for name, value in environ.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run([python, "-c", textwrap.dedent(program)], capture_output=True, text=True, timeout=120,
                          env=env)


@pytest.mark.skipif(EXPECTED is None, reason="MVVM_TEST_FAST_PATH is not set (run_tests.sh sets it for each run)")
def test_the_extension_is_in_use_exactly_when_it_should_be() -> None:
    assert mvvm.fast_path is (EXPECTED == "1"), mvvm.fast_path_reason
    if EXPECTED == "1":
        assert mvvm.fast_path_reason == "in use: %s" % _fastpath.fast.__file__  # type: ignore[union-attr]
        assert Path(_fastpath.fast.__file__).parent == Path(mvvm.__file__).parent  # type: ignore[union-attr]
    else:
        assert mvvm.fast_path_reason == "not in use: MVVM_FASTPATH=0" and _fastpath.fast is None


def test_the_hot_paths_run_where_the_way_in_use_says(loop: mvvm.Loop) -> None:
    """With the extension, a set reaches the subscriber through no Python frame (no Python
    setter, no Python trampoline) and a read calls no Python function; over ctypes, the event
    trampoline is the Python function _on_event and a read is the property's Python reader."""
    form = catalog.SignUpViewModel(loop)
    callers: List[str] = []
    form.subscribe("password", lambda name, value: callers.append(sys._getframe(1).f_code.co_name))
    form.password = "password1"
    called: List[str] = []

    def profile(frame: Any, event: str, argument: Any) -> None:
        if event == "call":
            called.append(frame.f_code.co_name)
    sys.setprofile(profile)
    try:
        agreed, password = form.agreed, form.password
    finally:
        sys.setprofile(None)
    assert (agreed, password) == (False, "password1")
    if mvvm.fast_path:
        assert callers == ["test_the_hot_paths_run_where_the_way_in_use_says"]
        assert called == []
        assert type(form).__dict__["password"].__set__.__objclass__.__name__ == "PropertyBase"  # type: ignore[attr-defined]
    else:
        assert callers == ["_on_event"]
        assert {"_get", "read_typed", "read_string"} <= set(called), called


def test_the_extensions_refusals_are_errors_not_crashes() -> None:
    if not mvvm.fast_path:
        pytest.skip("the extension is not in use in this run")
    fast: Any = _fastpath.fast
    with pytest.raises(ValueError):
        fast.Functions(0)
    libc = __import__("ctypes").CDLL(None)
    with pytest.raises(ImportError, match="has no mvvm_get_bool"):
        fast.Functions(libc._handle)  # a library that is not libmvvm

    class Unbound(fast.PropertyBase):  # type: ignore[misc,name-defined]
        pass

    class Holder:
        value = Unbound()
    with pytest.raises(TypeError, match="never bound"):
        Holder().value
    with pytest.raises(TypeError, match="never bound"):
        Holder().value = 1
    assert isinstance(Holder.value, Unbound)  # read on its class: itself
    library = catalog
    with pytest.raises(ValueError, match="no fast path for the mvvm_type 9"):
        Unbound()._bind_fast_path(library.fast_functions, b"name", 9, 0, print, print, print, print, [])


def test_deleting_a_property_is_refused_as_before(loop: mvvm.Loop) -> None:
    form = catalog.SignUpViewModel(loop)
    with pytest.raises(AttributeError, match="__delete__"):
        del form.password


def test_a_missing_extension_falls_back_silently_and_says_why() -> None:
    done = run("import sys; sys.modules['mvvm._fast'] = None\n" + textwrap.dedent(ROUND_TRIP))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines()[0] == "False [True, False] short True"
    assert done.stdout.splitlines()[1] == ("not in use: mvvm._fast cannot be imported (ModuleNotFoundError: import of "
                                           "mvvm._fast halted; None in sys.modules)")


def test_an_extension_that_fails_to_load_falls_back_too() -> None:
    failing = """
        import importlib.abc, sys
        class Broken(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "mvvm._fast":
                    raise RuntimeError("built for another platform")
                return None
        sys.meta_path.insert(0, Broken())
    """
    done = run(textwrap.dedent(failing) + textwrap.dedent(ROUND_TRIP))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.splitlines() == [
        "False [True, False] short True",
        "not in use: mvvm._fast cannot be imported (RuntimeError: built for another platform)"]


def test_MVVM_FASTPATH_0_turns_it_off_and_1_demands_it() -> None:
    off = run(ROUND_TRIP, MVVM_FASTPATH="0")
    assert (off.returncode, off.stderr) == (0, "")
    assert off.stdout.splitlines() == ["False [True, False] short True", "not in use: MVVM_FASTPATH=0"]
    demanded = run("import sys; sys.modules['mvvm._fast'] = None\nimport mvvm", MVVM_FASTPATH="1")
    assert demanded.returncode != 0
    assert "ImportError: MVVM_FASTPATH=1, but the extension mvvm._fast cannot be used: mvvm._fast cannot be " \
           "imported" in demanded.stderr


def test_a_free_threaded_python_is_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "_is_gil_enabled", lambda: False, raising=False)
    assert _fastpath._unloadable() == "a free-threaded CPython, which loads no abi3 extension"
    monkeypatch.setattr(sys, "version_info", (3, 9, 18, "final", 0))
    assert _fastpath._unloadable() == "Python 3.9 (the extension needs CPython 3.10 or newer)"


def _python_3_9() -> Optional[str]:
    """A CPython 3.9 of this machine (on PATH, or pyenv's), or None."""
    found = [shutil.which("python3.9") or ""] + sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9*/bin/python3.9")))
    for python in found:
        try:
            if python and subprocess.run([python, "-c", "import sys; sys.exit(sys.version_info[:2] != (3, 9))"],
                                         capture_output=True, timeout=60).returncode == 0:
                return python
        except OSError:
            continue
    return None


def test_python_3_9_runs_the_package_over_ctypes() -> None:
    python = _python_3_9()
    if python is None:
        pytest.skip("no CPython 3.9 on this machine")
    done = run(ROUND_TRIP, python=python)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout.splitlines() == ["False [True, False] short True",
                                        "not in use: Python 3.9 (the extension needs CPython 3.10 or newer)"]


def test_a_subscribers_exception_is_reported_as_being_handled_both_ways(loop: mvvm.Loop,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook sees the exception as the one being handled (sys.exc_info(), as inside the ctypes
    trampoline's except block), its traceback ending in the subscriber; the caller sees nothing."""
    form = catalog.SignUpViewModel(loop)

    def failing(name: str, value: Any) -> None:
        raise ValueError("from the subscriber")
    form.subscribe("password", failing)
    seen: List[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: seen.append((args, sys.exc_info()[1])))
    form.password = "password1"
    assert sys.exc_info() == (None, None, None)
    ((args, handled),) = seen
    assert handled is args.exc_value and type(handled) is ValueError and args.object is failing
    assert args.err_msg == "Exception ignored in mvvm callback %s.%s (subscribed to 'password' of SignUpViewModel)" \
        % (__name__, failing.__qualname__)
    frames = [frame.name for frame in __import__("traceback").extract_tb(args.exc_traceback)]
    assert frames[-1] == "failing" and frames[:-1] == ([] if mvvm.fast_path else ["_on_event"])
