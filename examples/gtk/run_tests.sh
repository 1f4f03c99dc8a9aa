#!/usr/bin/env bash
# make test-gtk: the GLib bridge's tests and TodoMVC in GTK 4, from C and from Python, on a
# private virtual X server (Xvfb) with GSK_RENDERER=cairo:
#   1. build/gtk/test_mvvm_glib   the bridge (bindings/glib) over libsample.so, libtodo.so,
#                                 libsearch.so, libappsample.so (on the main loop) and libcatalog.so
#   2. build/gtk/test_todo_gtk    the C app (examples/gtk/todo_window.c) through its widgets
#   3. both again under valgrind  memory errors fail, and definite leaks in our code
#                                 (examples/gtk/valgrind_verdict.py); GLib's and GTK's
#                                 suppressions, the Swift runtime's, examples/gtk/valgrind.supp
#   4. examples/gtk/test_bridge_gjs.js    the typelib from GJS
#   6. examples/gtk/test_todo_gtk_py.py   the Python app (PyGObject over the typelib), pytest
# Screenshots of each state: build/screenshots/gtk_c_todo_*.png and gtk_py_todo_*.png.
#
# Needs `make lib gtk todo sample search` (the Makefile's test-gtk does them) and MVVM_TODO_LIBRARY,
# MVVM_SAMPLE_LIBRARY, MVVM_SEARCH_LIBRARY, MVVM_APP_SAMPLE_LIBRARY, MVVM_CATALOG_LIBRARY (default: the debug build's
# libcatalog.so). Each test program reports in TAP; the last line is
# "gtk: N passed, N failed" (N counts test functions of every run; a run that crashed counts the
# tests it did not report as failed).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
out=build/gtk
me=run_tests.sh
# The catalog's libcatalog.so, for the tests of catalog classes: neither the todo app nor the sample
# carries the catalog.
export MVVM_CATALOG_LIBRARY=${MVVM_CATALOG_LIBRARY:-$root/build/catalog/libcatalog.so}
for variable in MVVM_TODO_LIBRARY MVVM_SAMPLE_LIBRARY MVVM_SEARCH_LIBRARY MVVM_APP_SAMPLE_LIBRARY MVVM_CATALOG_LIBRARY; do
    if [ -z "${!variable:-}" ] || [ ! -f "${!variable}" ]; then
        echo "$me: $variable=${!variable:-} is no file (make todo sample search)"
        echo "gtk: 0 passed, 1 failed"
        exit 1
    fi
done
for file in test_mvvm_glib test_todo_gtk MvvmGlib-1.0.typelib libmvvm-glib.so; do
    if [ ! -f "$out/$file" ]; then
        echo "$me: $out/$file is missing (make gtk)"
        echo "gtk: 0 passed, 1 failed"
        exit 1
    fi
done
if ! command -v Xvfb >/dev/null 2>&1; then
    echo "$me: Xvfb is missing. Install the Debian package xvfb (make deps)."
    echo "gtk: 0 passed, 1 failed"
    exit 1
fi

passed=0 failed=0
logs=$out/logs
mkdir -p "$logs" build/screenshots
rm -f build/screenshots/gtk_*.png

# A private X server (Tests/xvfb.sh).
. Tests/xvfb.sh
trap mvvm_xvfb_stop EXIT
trap 'exit 130' INT TERM
if ! mvvm_xvfb_start -screen 0 1280x1024x24; then
    echo "gtk: 0 passed, 1 failed"
    exit 1
fi
# GTK on the virtual display, drawn by cairo (no GL), no accessibility bus (no D-Bus session).
export DISPLAY=":$MVVM_XVFB_DISPLAY" GDK_BACKEND=x11 GSK_RENDERER=cairo GDK_DEBUG=gl-disable GTK_A11Y=none NO_AT_BRIDGE=1
export MVVM_SCREENSHOTS="$root/build/screenshots"

# Adds a TAP log's results: "ok" passes, "not ok" fails, and a plan ("1..N") not met counts the
# tests never reported (a crash) as failed; no plan at all is one failure.
tally_tap() {
    local log=$1 ok bad planned
    ok=$(grep -cE '^ok ' "$log")
    bad=$(grep -cE '^not ok ' "$log")
    planned=$(grep -oE '^1\.\.[0-9]+' "$log" | head -1 | cut -c4-)
    if [ -z "$planned" ]; then
        planned=$((ok + bad + 1))
        echo "$me: $log has no TAP plan"
    fi
    [ "$planned" -gt $((ok + bad)) ] && echo "$me: $log reported $((ok + bad)) of $planned tests"
    [ "$planned" -lt $((ok + bad)) ] && planned=$((ok + bad))
    passed=$((passed + ok)) failed=$((failed + planned - ok))
}

run_tap() { # NAME SECONDS PROGRAM...: a TAP test program, killed after SECONDS (a hang fails it
    # alone), its output shown and kept in $logs/NAME.log
    local name=$1 limit=$2
    shift 2
    echo "== $name"
    timeout --kill-after=10 "$limit" "$@" --tap 2>&1 | tee "$logs/$name.log"
    local status=${PIPESTATUS[0]}
    tally_tap "$logs/$name.log"
    if [ "$status" -ne 0 ] && ! grep -qE '^not ok ' "$logs/$name.log"; then
        echo "$me: $name exited with status $status"
        failed=$((failed + 1))
    fi
}

run_tap bridge 300 "$out/test_mvvm_glib"
run_tap todo-gtk 300 "$out/test_todo_gtk"

# Under valgrind: copies of the Swift libraries without DWARF (valgrind 3.19 cannot read the
# debug build's), a verdict on the XML report (our code only, for leaks).
valgrind_libs=$out/valgrind-lib
mkdir -p "$valgrind_libs"
objcopy --strip-debug "$MVVM_TODO_LIBRARY" "$valgrind_libs/libtodo.so"
objcopy --strip-debug "$MVVM_SAMPLE_LIBRARY" "$valgrind_libs/libsample.so"
objcopy --strip-debug "$MVVM_SEARCH_LIBRARY" "$valgrind_libs/libsearch.so"
objcopy --strip-debug "$MVVM_APP_SAMPLE_LIBRARY" "$valgrind_libs/libappsample.so"
objcopy --strip-debug "$MVVM_CATALOG_LIBRARY" "$valgrind_libs/libcatalog.so"
valgrind_run() { # NAME PROGRAM
    local name=$1 program=$2
    MVVM_TODO_LIBRARY="$root/$valgrind_libs/libtodo.so" MVVM_SAMPLE_LIBRARY="$root/$valgrind_libs/libsample.so" \
        MVVM_SEARCH_LIBRARY="$root/$valgrind_libs/libsearch.so" \
        MVVM_APP_SAMPLE_LIBRARY="$root/$valgrind_libs/libappsample.so" MVVM_CATALOG_LIBRARY="$root/$valgrind_libs/libcatalog.so" \
        GLIB_CANCEL_ROUNDS=200 run_tap "$name" 600 valgrind -q --child-silent-after-fork=yes --fair-sched=yes --leak-check=full \
        --show-leak-kinds=definite --num-callers=40 --xml=yes --xml-file="$logs/$name.xml" \
        --suppressions=/usr/share/glib-2.0/valgrind/glib.supp --suppressions=/usr/share/gtk-4.0/valgrind/gtk.supp \
        --suppressions=Tests/C/valgrind.supp --suppressions=examples/gtk/valgrind.supp "$program"
    echo "== $name: valgrind's verdict"
    if python3 examples/gtk/valgrind_verdict.py "$logs/$name.xml" "/$out/" "/$valgrind_libs/"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}
valgrind_run bridge-valgrind "$out/test_mvvm_glib"
valgrind_run todo-gtk-valgrind "$out/test_todo_gtk"

# The typelib from GJS (GNOME's JavaScript).
echo "== bridge-gjs"
GI_TYPELIB_PATH="$root/$out${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}" timeout --kill-after=10 120 \
    gjs examples/gtk/test_bridge_gjs.js 2>&1 \
    | tee "$logs/bridge-gjs.log"
tally_tap "$logs/bridge-gjs.log"

# The Python app: Debian's python3 (python3-gi, python3-pytest), the typelib in build/gtk. Its
# lines are prefixed so that pytest's closing line does not close this suite's output.
echo "== todo-gtk-python"
GI_TYPELIB_PATH="$root/$out${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}" \
    timeout --kill-after=10 300 /usr/bin/python3 -m pytest examples/gtk/test_todo_gtk_py.py -v -p no:cacheprovider \
    --junitxml="$logs/todo-gtk-python.xml" 2>&1 | sed 's/^/[python] /' | tee "$logs/todo-gtk-python.log"
status=${PIPESTATUS[0]}
if counts=$(python3 - "$logs/todo-gtk-python.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
suites = ET.parse(sys.argv[1]).getroot()
suites = [suites] if suites.tag == "testsuite" else list(suites)
tests = sum(int(s.get("tests", 0)) for s in suites)
bad = sum(int(s.get(k, 0)) for s in suites for k in ("failures", "errors", "skipped"))
print(tests - bad, bad)
PY
); then
    read -r p f <<<"$counts"
    passed=$((passed + p)) failed=$((failed + f))
    if [ "$p" -eq 0 ] || { [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; }; then
        echo "$me: pytest exited with status $status after $p passed"
        failed=$((failed + 1))
    fi
else
    echo "$me: pytest wrote no report (status $status)"
    failed=$((failed + 1))
fi

shots=$(ls build/screenshots/gtk_*.png 2>/dev/null | wc -l)
echo "screenshots: $shots in build/screenshots/ (gtk_*.png)"
echo "gtk: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
