#!/usr/bin/env bash
# Runs the Python bindings' tests: bash bindings/python/run_tests.sh CATALOG (build/catalog, the
# folder of libcatalog.so, or the file)
# Makes the virtualenv build/venv (at the repository root) when missing, installs pytest,
# hypothesis, jsonschema, mypy, pyright and the package (editable), builds the package's C
# extension in place (build_fast.py: mvvm/_fast.abi3.so, warnings errors; a failed build fails the run),
# then runs the whole suite twice: with the extension (the fast path), then with MVVM_FASTPATH=0
# (ctypes alone; without the two modules that never run the package's code, below). MVVM_TEST_FAST_PATH tells each run which it is (tests/test_fast_path.py checks
# mvvm.fast_path against it). Exits non-zero when either run fails; "no tests ran" (5) is a
# failure. PYTEST_ARGS: more arguments for pytest (e.g. -x, or a test file); PASSES=fast: the
# fast path's pass alone.
# The package has no default library: the suite loads each library by the path it is given
# (tests/libraries.py), the catalog's from CATALOG (MVVM_CATALOG_LIBRARY), and, as `make
# test-python` sets them, MVVM_SAMPLE_LIBRARY and MVVM_APP_SAMPLE_LIBRARY (Tests/outside's
# libsample.so and libappsample.so) and MVVM_TODO_LIBRARY (build/todo/libtodo.so); when one is
# unset and its default build exists, that build is used. A test that needs a library it is not
# given fails. The catalog's typed package (examples/catalog/python: `import catalog`) is on
# PYTHONPATH.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/Tests/locate_library.sh"
venv="$root/build/venv"
python=${PYTHON:-python3}

if [ $# -lt 1 ] || [ -z "$1" ]; then
    echo "usage: run_tests.sh CATALOG   (the folder holding libcatalog.so, e.g. build/catalog, or the file)" >&2
    exit 2
fi
MVVM_CATALOG_LIBRARY=$(mvvm_locate_library run_tests.sh "$1") || exit 2
export MVVM_CATALOG_LIBRARY
export PYTHONPATH="$root/examples/catalog/python${PYTHONPATH:+:$PYTHONPATH}"

default_build() {  # default_build VARIABLE FILE: VARIABLE=FILE when unset and FILE is built
    if [ -z "${!1:-}" ] && [ -f "$2" ]; then export "$1=$2"; fi
}
default_build MVVM_SAMPLE_LIBRARY "$root/Tests/outside/.build/debug/libsample.so"
default_build MVVM_APP_SAMPLE_LIBRARY "$root/Tests/outside/.build/debug/libappsample.so"
default_build MVVM_TODO_LIBRARY "$root/build/todo/libtodo.so"

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
# The package and its generator, editable, from this tree (reinstalled when the venv's copy of
# either points elsewhere or is missing: an install made before mvvm_gen joined the package).
installed=$("$venv/bin/python" -c '
import importlib.util as u, os
for name in ("mvvm", "mvvm_gen"):
    s = u.find_spec(name)
    print(os.path.realpath(s.submodule_search_locations[0]) if s and s.submodule_search_locations else "")' 2>/dev/null)
if [ "$installed" != "$root/bindings/python/mvvm
$root/tools/mvvm_gen" ]; then
    pip install -e "$root/bindings/python" >&2 || { echo "run_tests.sh: cannot install bindings/python" >&2; exit 2; }
fi

"$venv/bin/python" "$root/bindings/python/build_fast.py" >&2 || { echo "run_tests.sh: cannot build mvvm/_fast.abi3.so" >&2; exit 2; }

cd "$root"
logs=$(mktemp -d "${TMPDIR:-/tmp}/mvvm-python-tests.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# run_suite LOG NAME VALUE_OF_MVVM_FASTPATH: one pass of the suite, its output also in LOG; its
# status, "no tests ran" a failure.
# The ctypes pass leaves out what never reaches the fast path, whose result is the same whichever
# path runs: the modules that do not run the package's code (the type checkers over its sources,
# the generator's files under each language's tools, the generator alone and its names, the
# package's layout and installation), settings kept across processes, and the 256 copies of a
# library loaded (the refusal comes from mvvm_classes, which both passes call over ctypes).
tests=bindings/python/tests
static_modules="--ignore=$tests/test_typing.py --ignore=$tests/test_generator_text.py --ignore=$tests/test_generator_alone.py
    --ignore=$tests/test_generator_names.py --ignore=$tests/test_layout.py --ignore=$tests/test_install.py
    --ignore=$tests/test_settings.py --deselect=$tests/test_loading.py::test_the_256th_copy_of_the_library_is_refused"
run_suite() {
    echo "== the Python suite, $2" >&2
    MVVM_FASTPATH=$3 MVVM_TEST_FAST_PATH=$([ "$3" = 0 ] && echo 0 || echo 1) \
        "$venv/bin/python" -m pytest bindings/python/tests -q -p no:cacheprovider ${4:-} ${PYTEST_ARGS:-} 2>&1 | tee "$1"
    local status=${PIPESTATUS[0]}
    [ $status -eq 5 ] && status=1
    echo "== the Python suite, $2: $([ $status -eq 0 ] && echo passed || echo "FAILED (pytest status $status)")" >&2
    return $status
}
# PASSES=fast: the first pass alone (make check's quick loop); the full suite is both.
run_suite "$logs/fast" "with the C extension (the fast path)" ""; fast=$?
ctypes=0
if [ "${PASSES:-both}" = fast ]; then : > "$logs/ctypes"; else
    run_suite "$logs/ctypes" "with ctypes alone (MVVM_FASTPATH=0)" 0 "$static_modules"; ctypes=$?
fi
# One closing line in pytest's form for both runs (Tests/summarize.sh sums the last such line).
count() { # count WHAT: the sum of "N WHAT" over both runs' closing lines
    cat "$logs/fast" "$logs/ctypes" | grep -E '^=*[[:space:]]*([0-9]+ [a-z]+(, )?)+ in [0-9.]+s' |
        grep -oE "[0-9]+ $1" | awk '{ n += $1 } END { print n + 0 }'
}
echo "== $(( $(count failed) + $(count 'errors?') )) failed, $(count passed) passed, $(count skipped) skipped in ${SECONDS}s:" \
    "$([ "${PASSES:-both}" = fast ] && echo "the fast path's run alone" || echo "both runs, with the C extension and with ctypes alone")"
[ $fast -eq 0 ] && [ $ctypes -eq 0 ]
