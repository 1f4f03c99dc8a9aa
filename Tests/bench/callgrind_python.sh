#!/usr/bin/env bash
# Instructions per Python round trip (bench_python.py's cases alone), libmvvm beside PyGObject,
# counted by callgrind: exact for a given binary, unlike timings on a shared machine. Each case
# runs for N and 2N operations; the difference over N leaves start-up out; the count is split as
# callgrind.sh splits it (the Swift runtime's type look-ups against the rest). The mvvm package's
# cases (the Combine SignUp's round trip, the @Observable SignUp's) are counted both ways: with its
# C extension (MVVM_FASTPATH=1: the run fails rather than fall back; built in place first,
# bindings/python/build_fast.py) and over ctypes alone (MVVM_FASTPATH=0, the rows ending in
# _ctypes). Needs the release build of `make bench` (examples/catalog/.build-release) or LIBDIR, and python3-gi for
# the PyGObject row.
# Usage: Tests/bench/callgrind_python.sh [N]   (N default 2000)
set -euo pipefail
# Swift's hashing (and Python's) seeded the same in every run: with a random seed, hash
# collisions, and so the counts, differ from run to run and with the load layout.
export SWIFT_DETERMINISTIC_HASHING=1 PYTHONHASHSEED=0
# No settings saver thread waking during the counts (docs/loops-and-threads.md, "Settings").
export MVVM_SETTINGS=off
cd "$(dirname "$0")/../.."
n=${1:-2000}
libdir=${LIBDIR:-examples/catalog/.build-release/release}
out=build/bench/callgrind-python
mkdir -p "$out"
# A copy without DWARF: valgrind 3.19 gives up on the toolchain's.
objcopy --strip-debug "$libdir/libcatalog.so" "$out/libcatalog.so"
python=python3
if /usr/bin/python3 -c 'import gi' 2>/dev/null; then python=/usr/bin/python3; fi
"$python" bindings/python/build_fast.py >&2 || echo "no C extension: the fast rows are not measured" >&2
profile() { # case ops out-file MVVM_FASTPATH: one run under callgrind; fails if the run does
    MVVM_FASTPATH=$4 MVVM_CATALOG_LIBRARY="$out/libcatalog.so" PYTHONPATH=bindings/python valgrind --tool=callgrind \
        --callgrind-out-file="$3" "$python" Tests/bench/bench_python.py 1 "$2" "$1" >/dev/null 2>"$out/last.err"
}
declare -A per_op
# row: the name printed, the case of bench_python.py, MVVM_FASTPATH (auto: whichever way imports)
for row in "py_round_trip_sign_up py_round_trip_sign_up 1" "py_round_trip_sign_up_ctypes py_round_trip_sign_up 0" \
           "py_round_trip_observable_sign_up py_round_trip_observable_sign_up 1" \
           "py_round_trip_observable_sign_up_ctypes py_round_trip_observable_sign_up 0" \
           "pygobject_round_trip_sign_up pygobject_round_trip_sign_up auto"; do
    read -r name case fast <<<"$row"
    if ! profile "$case" "$n" "$out/one.out" "$fast" || ! profile "$case" $((2 * n)) "$out/last.out" "$fast"; then
        echo "$name: not measured ($(tail -1 "$out/last.err"))"; continue
    fi
    line=$(python3 Tests/bench/callgrind_split.py "$name" "$n" "$out/one.out" "$out/last.out") || continue
    echo "$line"
    per_op[$name]=$(awk '{ print $2 }' <<<"$line")
done
for name in py_round_trip_sign_up py_round_trip_sign_up_ctypes py_round_trip_observable_sign_up \
            py_round_trip_observable_sign_up_ctypes; do
    if [ -n "${per_op[$name]:-}" ] && [ -n "${per_op[pygobject_round_trip_sign_up]:-}" ]; then
        awk -v a="${per_op[$name]}" -v b="${per_op[pygobject_round_trip_sign_up]}" -v name="$name" \
            'BEGIN { printf "%s / pygobject_round_trip_sign_up = %.3f\n", name, a / b }'
    fi
done
