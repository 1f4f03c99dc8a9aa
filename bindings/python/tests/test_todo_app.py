"""The todo app from Python: todo_cases.py against build/todo/libtodo.so (examples/todo, built by
`make todo`), in a process of its own (a process loads one library). MVVM_TODO_LIBRARY names the
library (`make test-python` sets it, so these always run in `make test`); when it is unset the
test runs if build/todo/libtodo.so exists and is skipped only when it does not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mvvm

HERE = Path(__file__).resolve().parent
BUILT = HERE.parents[2] / "build" / "todo" / "libtodo.so"
TODO = os.environ.get("MVVM_TODO_LIBRARY") or (str(BUILT) if BUILT.is_file() else None)


@pytest.mark.skipif(not TODO, reason="MVVM_TODO_LIBRARY is not set and build/todo/libtodo.so is not built (make todo)")
def test_the_todo_app_from_python() -> None:
    assert TODO is not None
    if Path(mvvm.library_path).resolve() == Path(TODO).resolve():
        pytest.skip("this process loaded the todo library: the cases run here directly")
    assert Path(TODO).is_file(), "MVVM_TODO_LIBRARY=%s is not a file (make todo)" % TODO
    env = dict(os.environ, MVVM_LIBRARY=TODO)
    done = subprocess.run([sys.executable, "-m", "pytest", str(HERE / "todo_cases.py"), "-q",
                           "-p", "no:cacheprovider", "-rs"],
                          cwd=str(HERE), env=env, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "11 passed" in output and "skipped" not in output, output
