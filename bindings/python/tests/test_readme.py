"""The package README's examples run as written (but for their paths): the first one, over the
default library, and the one loading two libraries side by side (with MVVM_SAMPLE_LIBRARY)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

import mvvm

README = Path(__file__).resolve().parent.parent / "README.md"


def blocks() -> List[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def run(code: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_first_example_runs_and_prints_what_it_says() -> None:
    done = run(blocks()[0])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["is_show_alert True",
                                        "5 {'full_count': 5, 'count': 0, 'remaining_time': 5, 'is_doing': False}"]


@pytest.mark.skipif(not os.environ.get("MVVM_SAMPLE_LIBRARY"), reason="MVVM_SAMPLE_LIBRARY is not set")
def test_the_example_loading_two_libraries_runs() -> None:
    (code,) = [block for block in blocks() if "mvvm.load(" in block]
    code = code.replace('"build/release-static/libmvvm.so"', repr(str(mvvm.library_path)))
    code = code.replace('"Tests/outside/.build/debug/libsample.so"', repr(os.environ["MVVM_SAMPLE_LIBRARY"]))
    # The sample does not carry the catalog (its hook does not register it).
    code += "    print(profile.address, catalog.Counter is mvvm.Counter, 'Counter' in sample.names)\n"
    done = run("import mvvm\n" + code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Address(street='Main 1', city='Oslo', zip_code=None) True False\n"


@pytest.mark.skipif(not os.environ.get("MVVM_SAMPLE_LIBRARY"), reason="MVVM_SAMPLE_LIBRARY is not set")
def test_the_async_command_example_runs_and_prints_what_it_says() -> None:
    (code,) = [block for block in blocks() if "await profile.load" in block]
    done = run("import asyncio, mvvm, mvvm.aio\nsample = mvvm.load(%r)\n" % os.environ["MVVM_SAMPLE_LIBRARY"] + code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['t0', 't1', 't2']", "['t0']"]
