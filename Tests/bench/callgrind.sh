#!/usr/bin/env bash
# Instructions per operation of bench cases, counted by callgrind (they repeat exactly for the same
# binary and input, unlike timings on this shared machine). Each case runs alone (bench_c's case
# argument) for N and 2N operations; the difference, divided by the operations it added, leaves
# set-up out. Each count is also split (callgrind_split.py): the Swift runtime's type look-ups
# (generic metadata, conformances), whose cost moves with where the library's types were loaded,
# against the rest, which with the number of look-ups is what a change of code is judged on.
# Needs the release build of `make bench` (examples/catalog/.build-release) or LIBDIR.
# Usage: Tests/bench/callgrind.sh [N] [CASE...]   (N default 2000)
set -euo pipefail
# Swift's hashing (and Python's) seeded the same in every run: with a random seed, hash
# collisions, and so the counts, differ from run to run and with the load layout.
export SWIFT_DETERMINISTIC_HASHING=1 PYTHONHASHSEED=0
# No settings saver thread waking during the counts (docs/loops-and-threads.md, "Settings").
export MVVM_SETTINGS=off
cd "$(dirname "$0")/../.."
n=${1:-2000}
shift || true
libdir=${LIBDIR:-examples/catalog/.build-release/release}
include=${INCLUDE:-include}
catalog_include=${CATALOG_INCLUDE:-examples/catalog/include}
out=build/bench/callgrind
mkdir -p "$out/lib"
# Copies without DWARF: valgrind 3.19 gives up on the toolchain's (symbols stay, for profiles).
objcopy --strip-debug "$libdir/libcatalog.so" "$out/lib/libcatalog.so"
objcopy --strip-debug "$libdir/catalog-bench" "$out/catalog-bench"
cc -O2 -std=c11 -Wall -Wextra Tests/bench/bench_c.c Tests/bench/gobject_sign_up.c -I"$include" -I"$catalog_include" \
    $(pkg-config --cflags gobject-2.0) -L"$out/lib" -lcatalog -Wl,-rpath,"$(realpath "$out/lib")" \
    $(pkg-config --libs gobject-2.0) -o "$out/bench_c"
cases=("$@")
if [ ${#cases[@]} = 0 ]; then
    cases=(c_round_trip_sign_up gobject_set_round_trip c_typed_set_sign_up gobject_typed_set_round_trip
           c_typed_set_observable_sign_up c_round_trip_observable_sign_up c_get_bool c_typed_get_bool
           c_create_subscribe_release gobject_create_subscribe_release c_create_subscribe_release_observable
           c_create_subscribe_release_armed_observable
           swift_round_trip_sign_up c_fan_out_10_subscribers c_stopwatch_tick c_send_command
           c_idle_dispatch_manual c_idle_dispatch_main)
fi
profile() { # out-file program args...: one run under callgrind
    local file=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$file" "$@" >/dev/null 2>"$out/last.err"
}
for case in "${cases[@]}"; do
    # One repetition after the warm-up of a tenth: N ops run 1.1 N times (bench_c's main); the
    # lifecycle cases run a tenth of N.
    scale=11
    case $case in *create_subscribe_release*) scale=1.1 ;; c_get_bool|c_typed_get_bool|c_baseline_struct_fnptr) scale=110 ;; esac
    if [ "$case" = swift_round_trip_sign_up ]; then
        profile "$out/one.out" "$out/catalog-bench" 1 "$n"; profile "$out/last.out" "$out/catalog-bench" 1 $((2 * n))
    else
        profile "$out/one.out" "$out/bench_c" 1 "$n" "$case"; profile "$out/last.out" "$out/bench_c" 1 $((2 * n)) "$case"
    fi
    python3 Tests/bench/callgrind_split.py "$case" "$(python3 -c "print($n * $scale / 10)")" "$out/one.out" "$out/last.out"
done
