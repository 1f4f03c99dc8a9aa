#!/usr/bin/env bash
# Instructions per Python round trip (bench_python.py's case alone), libmvvm beside PyGObject,
# counted by callgrind: exact for a given binary, unlike timings on a shared machine. Each case
# runs for N and 2N operations; the difference over N leaves start-up out; the count is split as
# callgrind.sh splits it (the Swift runtime's type look-ups against the rest). Needs the release
# build of `make bench` (.build-release) or LIBDIR, and python3-gi for the PyGObject row.
# Usage: Tests/bench/callgrind_python.sh [N]   (N default 2000)
set -euo pipefail
# Swift's hashing (and Python's) seeded the same in every run: with a random seed, hash
# collisions, and so the counts, differ from run to run and with the load layout.
export SWIFT_DETERMINISTIC_HASHING=1 PYTHONHASHSEED=0
cd "$(dirname "$0")/../.."
n=${1:-2000}
libdir=${LIBDIR:-.build-release/release}
out=build/bench/callgrind-python
mkdir -p "$out"
# A copy without DWARF: valgrind 3.19 gives up on the toolchain's.
objcopy --strip-debug "$libdir/libmvvm.so" "$out/libmvvm.so"
python=python3
if /usr/bin/python3 -c 'import gi' 2>/dev/null; then python=/usr/bin/python3; fi
profile() { # case ops out-file: one run under callgrind; fails if the run does
    MVVM_LIBRARY="$out/libmvvm.so" PYTHONPATH=bindings/python valgrind --tool=callgrind \
        --callgrind-out-file="$3" "$python" Tests/bench/bench_python.py 1 "$2" "$1" >/dev/null 2>"$out/last.err"
}
declare -A per_op
for case in py_round_trip_sign_up pygobject_round_trip_sign_up; do
    if ! profile "$case" "$n" "$out/one.out" || ! profile "$case" $((2 * n)) "$out/last.out"; then
        echo "$case: not measured"; continue
    fi
    line=$(python3 Tests/bench/callgrind_split.py "$case" "$n" "$out/one.out" "$out/last.out") || continue
    echo "$line"
    per_op[$case]=$(awk '{ print $2 }' <<<"$line")
done
if [ -n "${per_op[py_round_trip_sign_up]:-}" ] && [ -n "${per_op[pygobject_round_trip_sign_up]:-}" ]; then
    awk -v a="${per_op[py_round_trip_sign_up]}" -v b="${per_op[pygobject_round_trip_sign_up]}" \
        'BEGIN { printf "py_round_trip_sign_up / pygobject_round_trip_sign_up = %.3f\n", a / b }'
fi
