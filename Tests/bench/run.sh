#!/usr/bin/env bash
# make bench: release builds (as shipped: MVVM_RELEASE_SWIFT_FLAGS of Tests/packaging/common.sh,
# in .build-release), then the C, Swift and Python benchmarks, each case repeated REPS times
# (default 7), then one table.
# Usage: Tests/bench/run.sh [REPS] [N]     (N: operations per repetition, default 20000)
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-7} n=${2:-20000}
. Tests/packaging/common.sh
release=("${MVVM_RELEASE_SWIFT_FLAGS[@]}" --scratch-path .build-release)
swift build "${release[@]}" --product mvvm
swift build "${release[@]}" --product mvvm-bench
libdir=$(swift build "${release[@]}" --show-bin-path)
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -Wall -Wextra Tests/bench/bench_c.c -Iinclude -L"$libdir" -lmvvm -Wl,-rpath,"$libdir" -o "$out/bench_c"
# The programs take turns, one repetition each, so that a noisy minute on this shared machine
# falls on both sides of a ratio. A process per population repetition: freed pages stay
# resident, so a second population in the same process would measure no growth.
for file in c population swift python; do : > "$out/$file.txt"; done
python_ok=1
for rep in $(seq "$reps"); do
    echo "repetition $rep of $reps: C, Swift, Python, then C with 100,000 live objects" >&2
    "$out/bench_c" 1 "$n" >> "$out/c.txt"
    "$libdir/mvvm-bench" 1 "$n" >> "$out/swift.txt"
    if [ "$python_ok" = 1 ] && ! MVVM_LIBRARY="$libdir/libmvvm.so" PYTHONPATH=bindings/python \
            python3 Tests/bench/bench_python.py 1 "$n" >> "$out/python.txt"; then
        echo "Python benchmarks failed; the table has no Python rows" >&2
        python_ok=0
    fi
    "$out/bench_c" 1 "$n" population >> "$out/population.txt"
done
results=("$out/c.txt" "$out/population.txt" "$out/swift.txt")
if [ "$python_ok" = 1 ]; then results+=("$out/python.txt"); fi
python3 Tests/bench/summarize.py "${results[@]}" | tee "$out/table.txt"
