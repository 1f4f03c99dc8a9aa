"""The libraries the suite loads, each by the path the Makefile gives (run_tests.sh passes them
on): there is no default library. A library the Makefile always builds fails the tests that need
it when its variable is missing, never skips them.

* ``catalog``: examples/catalog's library, build/catalog/libcatalog.so (``MVVM_CATALOG_LIBRARY``,
  ``make catalog``), loaded as the module is imported: most tests drive its classes
  (``catalog.SignUpViewModel(loop)``) on loops of it (conftest's ``loop``).
* :func:`library_path` for the others: Tests/outside's libsample.so (``MVVM_SAMPLE_LIBRARY``) and
  libappsample.so (``MVVM_APP_SAMPLE_LIBRARY``), ``make sample``; the todo app's libtodo.so
  (``MVVM_TODO_LIBRARY``), ``make todo``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import mvvm

#: How each library is built, by the variable that names it.
BUILT_BY = {"MVVM_CATALOG_LIBRARY": "make catalog: build/catalog/libcatalog.so",
            "MVVM_SAMPLE_LIBRARY": "make sample: Tests/outside/.build/debug/libsample.so",
            "MVVM_APP_SAMPLE_LIBRARY": "make sample: Tests/outside/.build/debug/libappsample.so",
            "MVVM_TODO_LIBRARY": "make todo: build/todo/libtodo.so"}


def library_path(variable: str) -> str:
    """The library ``variable`` names; the calling test (or module) fails when it names no file."""
    path = os.environ.get(variable, "")
    if not path or not Path(path).is_file():
        pytest.fail("%s=%r names no library (%s; make test-python sets it)" % (variable, path, BUILT_BY[variable]),
                    pytrace=False)
    return path


#: The catalog's library (examples/catalog).
CATALOG_PATH = library_path("MVVM_CATALOG_LIBRARY")
catalog = mvvm.load(CATALOG_PATH)
