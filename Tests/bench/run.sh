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
echo "C..." >&2
"$out/bench_c" "$reps" "$n" > "$out/c.txt"
echo "C, 100,000 live objects..." >&2
# A process per repetition: freed pages stay resident, so a second population in the same
# process would measure no growth.
for _ in $(seq "$reps"); do "$out/bench_c" 1 "$n" population; done > "$out/population.txt"
echo "Swift..." >&2
"$libdir/mvvm-bench" "$reps" "$n" > "$out/swift.txt"
results=("$out/c.txt" "$out/population.txt" "$out/swift.txt")
if python=$(bash bindings/python/run_tests.sh --print-python 2>/dev/null) && [ -n "$python" ]; then :; else python=python3; fi
echo "Python..." >&2
if MVVM_LIBRARY="$libdir/libmvvm.so" PYTHONPATH=bindings/python "$python" Tests/bench/bench_python.py "$reps" "$n" > "$out/python.txt"; then
    results+=("$out/python.txt")
else
    echo "Python benchmarks failed; the table has no Python rows" >&2
fi
python3 Tests/bench/summarize.py "${results[@]}" | tee "$out/table.txt"
