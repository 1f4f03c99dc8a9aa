#!/usr/bin/env bash
# Runs the Tk app's tests (examples/python/test_tk_app.py) on a private virtual X server:
#   bash examples/python/run_tk_tests.sh LIBDIR     (the folder of libcatalog.so, or the file)
# Needs Xvfb (Debian: xvfb) and a python3 with tkinter (Debian: python3-tk); installs neither.
# The main loop's test needs MVVM_APP_SAMPLE_LIBRARY (Tests/outside's libappsample.so; make test-tk
# sets it).
# Uses the virtualenv build/venv (made as bindings/python/run_tests.sh makes it, with pytest,
# when missing). Screenshots of every screen go to build/screenshots/. Pytest's closing line is
# the last line of the output; the exit status is pytest's ("no tests ran" is a failure).
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/Tests/locate_library.sh"
venv="$root/build/venv"
python=${PYTHON:-python3}
me=run_tk_tests.sh

if [ $# -lt 1 ] || [ -z "$1" ]; then
    echo "usage: $me LIBDIR   (the folder holding libcatalog.so, e.g. build/catalog)" >&2
    exit 2
fi
library=$(mvvm_locate_library "$me" "$1") || exit 2

if ! command -v Xvfb >/dev/null 2>&1; then
    echo "$me: Xvfb is missing. Install the Debian package xvfb (apt-get install xvfb)." >&2
    exit 2
fi

# The project's virtualenv, with pytest.
if ! "$venv/bin/python" -c 'import pytest' >/dev/null 2>&1; then
    if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
        rm -rf "$venv"
        mkdir -p "$root/build"
        if ! "$python" -m venv "$venv" >&2; then
            rm -rf "$venv"
            echo "$me: $python cannot make a virtualenv: apt-get install python3-venv" >&2
            exit 2
        fi
    fi
    "$venv/bin/python" -m pip --disable-pip-version-check -q install pytest >&2 \
        || { echo "$me: cannot install pytest into $venv" >&2; exit 2; }
fi
if ! "$venv/bin/python" -c 'import tkinter' >/dev/null 2>&1; then
    echo "$me: $venv/bin/python has no tkinter. On Debian: apt-get install python3-tk" >&2
    exit 2
fi

# A private X server (Tests/xvfb.sh); its screen is also a file (XWD) in $MVVM_XVFB_DIR, which
# the tests crop into screenshots.
. "$root/Tests/xvfb.sh"
trap mvvm_xvfb_stop EXIT
trap 'exit 130' INT TERM
mvvm_xvfb_start -screen 0 1024x768x24 -fbdir "$MVVM_XVFB_DIR" || exit 2
xdir=$MVVM_XVFB_DIR display=$MVVM_XVFB_DISPLAY
if [ ! -f "$xdir/Xvfb_screen0" ]; then
    echo "$me: Xvfb wrote no framebuffer in $xdir" >&2
    exit 2
fi

# The todo app's library (examples/todo, `make todo`), loaded beside libcatalog.so: the app then shows
# its Todos tab on a loop of that library, and the tests drive it. MVVM_TODO_LIBRARY names it;
# unset, build/todo/libtodo.so (the tests fail without it).
MVVM_TODO_LIBRARY=${MVVM_TODO_LIBRARY:-$root/build/todo/libtodo.so}
if [ ! -f "$MVVM_TODO_LIBRARY" ]; then
    echo "$me: MVVM_TODO_LIBRARY=$MVVM_TODO_LIBRARY is no file (make todo)" >&2
    exit 2
fi
export MVVM_TODO_LIBRARY

cd "$root"
mkdir -p build/screenshots
DISPLAY=":$display" MVVM_XVFB_FB="$xdir/Xvfb_screen0" MVVM_SCREENSHOTS="$root/build/screenshots" \
    MVVM_CATALOG_LIBRARY="$library" PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}" \
    "$venv/bin/python" -m pytest examples/python/test_tk_app.py -v -p no:cacheprovider
status=$?
if [ $status -eq 5 ]; then exit 1; fi
exit $status
