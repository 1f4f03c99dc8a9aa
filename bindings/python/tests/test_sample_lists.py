"""Lists of child view models from Python: sample_list_cases.py against Tests/outside's
libsample.so (MVVM_SAMPLE_LIBRARY: Playlist and Board), in a process of its own (a process loads
one library). Skipped only when MVVM_SAMPLE_LIBRARY is not set; run_tests.sh sets it when
libsample.so is built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mvvm

SAMPLE = os.environ.get("MVVM_SAMPLE_LIBRARY")
HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(not SAMPLE, reason="MVVM_SAMPLE_LIBRARY is not set (build Tests/outside: libsample.so)")
def test_the_sample_librarys_lists_from_python() -> None:
    assert SAMPLE is not None
    if Path(mvvm.library_path).resolve() == Path(SAMPLE).resolve():
        pytest.skip("this process loaded the sample library: the cases run here directly")
    assert Path(SAMPLE).is_file(), "MVVM_SAMPLE_LIBRARY=%s is not a file" % SAMPLE
    env = dict(os.environ, MVVM_LIBRARY=SAMPLE)
    done = subprocess.run([sys.executable, "-m", "pytest", str(HERE / "sample_list_cases.py"), "-q",
                           "-p", "no:cacheprovider", "-rs"],
                          cwd=str(HERE), env=env, capture_output=True, text=True, timeout=600)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert " passed" in output and "skipped" not in output, output
    assert "11 passed" in output, output
