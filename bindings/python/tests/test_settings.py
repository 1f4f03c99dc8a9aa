"""Settings that persist as on the app's platform, from Python: Tests/outside's Expenses (iExpense's
model: its items kept in UserDefaults by its own code, which never calls synchronize()) keeps them
from one Python process to the next, in a file named after the library (not after python3), so a
C or Node host of the same library reads them too. Each test runs its processes in a settings
folder of its own (XDG_CONFIG_HOME)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

APP_SAMPLE = os.environ.get("MVVM_APP_SAMPLE_LIBRARY")

SCRIPT = """
import os, signal, sys, time
import mvvm
app = mvvm.load(os.environ["MVVM_APP_SAMPLE_LIBRARY"])
loop = app.Loop.manual()
action = sys.argv[1]
if action == "other":
    app.SignInViewModel(loop).token
    sys.exit(0)
expenses = app.Expenses(loop)
if action == "list":
    print(",".join(expenses.names))
elif action == "add":
    expenses.add(sys.argv[2], "Personal", 12.5)
elif action == "add-idle-add-kill":
    expenses.add(sys.argv[2], "Personal", 12.5)
    saved = os.path.join(os.environ["XDG_CONFIG_HOME"], "appsample.plist")
    for _ in range(2000):  # idle, the loop waiting, until the first item is saved
        if os.path.exists(saved) and sys.argv[2].encode() in open(saved, "rb").read():
            break
        loop.run_for(10)
    else:
        sys.exit(3)
    expenses.add(sys.argv[3], "Personal", 1.0)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def run(folder: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    assert APP_SAMPLE, "MVVM_APP_SAMPLE_LIBRARY is not set (make test-python sets it)"
    env = dict(os.environ, XDG_CONFIG_HOME=str(folder), MVVM_APP_SAMPLE_LIBRARY=APP_SAMPLE)
    return subprocess.run([sys.executable, "-c", SCRIPT, *arguments], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_setting_written_in_one_process_is_read_in_the_next(tmp_path: Path) -> None:
    assert run(tmp_path, "add", "Lunch").returncode == 0
    assert run(tmp_path, "list").stdout.strip() == "Lunch"
    assert run(tmp_path, "add", "Taxi").returncode == 0
    assert run(tmp_path, "list").stdout.strip() == "Lunch,Taxi"
    # Named after the library, so every host of it shares them.
    assert [p.name for p in tmp_path.iterdir()] == ["appsample.plist"]


def test_a_kill_loses_at_most_the_changes_since_the_last_idle_save(tmp_path: Path) -> None:
    killed = run(tmp_path, "add-idle-add-kill", "Taxi", "Bus")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert run(tmp_path, "list").stdout.strip() in ("Taxi", "Taxi,Bus")


def test_nothing_is_written_when_nothing_changed(tmp_path: Path) -> None:
    assert run(tmp_path, "other").returncode == 0
    assert list(tmp_path.iterdir()) == []
    assert run(tmp_path, "add", "Lunch").returncode == 0
    saved = tmp_path / "appsample.plist"
    before = saved.stat()
    assert run(tmp_path, "other").returncode == 0
    after = saved.stat()
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)
