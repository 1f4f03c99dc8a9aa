#!/usr/bin/env bash
# Runs the Python bindings' tests: bash bindings/python/run_tests.sh [FOLDER_OF_libmvvm.so]
# Makes the virtualenv build/venv (at the repository root) when missing, installs pytest,
# hypothesis, jsonschema, mypy, pyright and the package (editable), then runs pytest with MVVM_LIBRARY set to the folder
# given (e.g. .build/debug). Exits with pytest's status; "no tests ran" (5) is a failure.
# MVVM_SAMPLE_LIBRARY (Tests/outside's libsample.so, a library of one's own) runs
# tests/sample_library_cases.py against it; when unset, it is set to
# Tests/outside/.build/debug/libsample.so if that is built (else those tests are skipped).
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/Tests/locate_library.sh"
venv="$root/build/venv"
python=${PYTHON:-python3}

if [ $# -ge 1 ] && [ -n "$1" ]; then
    library=$(mvvm_locate_library run_tests.sh "$1") || exit 2
    export MVVM_LIBRARY="$library"
fi

if [ -z "${MVVM_SAMPLE_LIBRARY:-}" ] && [ -f "$root/Tests/outside/.build/debug/libsample.so" ]; then
    export MVVM_SAMPLE_LIBRARY="$root/Tests/outside/.build/debug/libsample.so"
fi
if [ -z "${MVVM_APP_SAMPLE_LIBRARY:-}" ] && [ -f "$root/Tests/outside/.build/debug/libappsample.so" ]; then
    export MVVM_APP_SAMPLE_LIBRARY="$root/Tests/outside/.build/debug/libappsample.so"
fi

venv_hint() {
    echo "run_tests.sh: $python cannot make a virtualenv (its venv module or ensurepip is missing)." >&2
    echo "  On Debian or Ubuntu: apt-get install python3-venv (the Makefile's deps target installs it)." >&2
}
# A venv without a working pip (a failed earlier attempt) is made again.
if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        venv_hint
        exit 2
    fi
    rm -rf "$venv"
    mkdir -p "$root/build"
    if ! "$python" -m venv "$venv" >&2; then
        rm -rf "$venv"
        venv_hint
        exit 2
    fi
fi

pip() { "$venv/bin/python" -m pip --disable-pip-version-check -q "$@"; }

# jsonschema: tests/test_description.py validates every library's description against
# docs/description.schema.json.
if ! "$venv/bin/python" -c 'import pytest, hypothesis, jsonschema' >/dev/null 2>&1; then
    pip install pytest hypothesis jsonschema >&2 || { echo "run_tests.sh: cannot install pytest, hypothesis and jsonschema" >&2; exit 2; }
fi
# The type checkers of tests/test_typing.py (mypy --strict and pyright, from PyPI; pyright's
# [nodejs] extra brings its own Node.js). Required: their tests fail, not skip, without them.
if ! "$venv/bin/python" -c 'import mypy' >/dev/null 2>&1 || [ ! -x "$venv/bin/pyright" ]; then
    pip install mypy "pyright[nodejs]" >&2 || { echo "run_tests.sh: cannot install mypy and pyright" >&2; exit 2; }
fi
export MVVM_REQUIRE_TYPE_CHECKERS=1
# The package, editable, from this tree (reinstalled when the venv's copy points elsewhere).
installed=$("$venv/bin/python" -c 'import importlib.util as u; s = u.find_spec("mvvm"); print(s.submodule_search_locations[0] if s and s.submodule_search_locations else "")' 2>/dev/null)
if [ "$installed" != "$root/bindings/python/mvvm" ]; then
    pip install -e "$root/bindings/python" >&2 || { echo "run_tests.sh: cannot install bindings/python" >&2; exit 2; }
fi

cd "$root"
"$venv/bin/python" -m pytest bindings/python/tests -q -p no:cacheprovider
status=$?
if [ $status -eq 5 ]; then exit 1; fi
exit $status
