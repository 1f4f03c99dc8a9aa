#!/usr/bin/env bash
# make bench: release builds (as shipped: MVVM_RELEASE_SWIFT_FLAGS of bindings/c/common.sh,
# in examples/catalog/.build-release: the catalog's library and its Swift baseline), then the C, Swift, Python and Node.js benchmarks, each case repeated REPS times
# (default 7), then one table. Every libmvvm case is printed beside its GObject twin (C:
# Tests/bench/gobject_sign_up.c; Python: a GObject.Object subclass in bench_python.py), measured
# in the same run.
# Usage: Tests/bench/run.sh [REPS] [N]     (N: operations per repetition, default 20000)
set -euo pipefail
# No settings saver thread waking during the timings (docs/loops-and-threads.md, "Settings").
export MVVM_SETTINGS=off
cd "$(dirname "$0")/../.."
reps=${1:-7} n=${2:-20000}
. bindings/c/common.sh
# The catalog's library and its Swift baseline (examples/catalog), as shipped.
release=("${MVVM_RELEASE_SWIFT_FLAGS[@]}" --scratch-path .build-release)
(cd examples/catalog && swift build "${release[@]}" --product catalog && swift build "${release[@]}" --product catalog-bench)
libdir=$(cd examples/catalog && cd "$(swift build "${release[@]}" --show-bin-path)" && pwd)
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -Wall -Wextra Tests/bench/bench_c.c Tests/bench/gobject_sign_up.c -Iinclude -Iexamples/catalog/include \
    $(pkg-config --cflags gobject-2.0) -L"$libdir" -lcatalog -Wl,-rpath,"$libdir" $(pkg-config --libs gobject-2.0) \
    -o "$out/bench_c"
# The Python benchmarks run under a python that sees python3-gi (Debian's, where PyGObject is
# installed by `make deps`) for the PyGObject twin; the mvvm package runs there too, with its C
# extension built in place (bindings/python/build_fast.py: one abi3 build for every CPython 3.10+),
# and each repetition runs its cases a second time over ctypes alone (MVVM_FASTPATH=0: the rows
# ending in _ctypes), so that both ways are measured in one run.
python=python3
if /usr/bin/python3 -c 'import gi' 2>/dev/null; then python=/usr/bin/python3; fi
"$python" bindings/python/build_fast.py >&2 || echo "no C extension: the Python rows are the ctypes ones" >&2
# The programs take turns, one repetition each, so that a noisy minute on this shared machine
# falls on both sides of a ratio. A process per population repetition: freed pages stay
# resident, so a second population in the same process would measure no growth.
for file in c population observable_population observable_all_population gobject_population swift python node; do : > "$out/$file.txt"; done
python_ok=1
# The Node.js binding's rows (bench_node.js) need its addon: built here, as `make node` does.
node_ok=0
if command -v node >/dev/null && make --no-print-directory node >&2; then node_ok=1; fi
for rep in $(seq "$reps"); do
    echo "repetition $rep of $reps: C, Swift, Python, then C with 100,000 live objects, then 100,000 GObjects" >&2
    "$out/bench_c" 1 "$n" >> "$out/c.txt"
    "$libdir/catalog-bench" 1 "$n" >> "$out/swift.txt"
    if [ "$python_ok" = 1 ] && ! { MVVM_CATALOG_LIBRARY="$libdir/libcatalog.so" PYTHONPATH=bindings/python \
            "$python" Tests/bench/bench_python.py 1 "$n" >> "$out/python.txt" &&
            MVVM_FASTPATH=0 MVVM_CATALOG_LIBRARY="$libdir/libcatalog.so" PYTHONPATH=bindings/python \
            "$python" Tests/bench/bench_python.py 1 "$n" --mvvm-only >> "$out/python.txt"; }; then
        echo "Python benchmarks failed; the table has no Python rows" >&2
        python_ok=0
    fi
    if [ "$node_ok" = 1 ] && ! MVVM_LIBRARY="$libdir/libcatalog.so" node Tests/bench/bench_node.js 1 "$n" >> "$out/node.txt"; then
        echo "Node.js benchmarks failed; the table has no Node.js rows" >&2
        node_ok=0
    fi
    "$out/bench_c" 1 "$n" population >> "$out/population.txt"
    "$out/bench_c" 1 "$n" observable-population >> "$out/observable_population.txt"
    "$out/bench_c" 1 "$n" observable-all-population >> "$out/observable_all_population.txt"
    "$out/bench_c" 1 "$n" gobject-population >> "$out/gobject_population.txt"
done
results=("$out/c.txt" "$out/population.txt" "$out/observable_population.txt" "$out/observable_all_population.txt"
         "$out/gobject_population.txt" "$out/swift.txt")
if [ "$python_ok" = 1 ]; then results+=("$out/python.txt"); fi
if [ "$node_ok" = 1 ]; then results+=("$out/node.txt"); fi
python3 Tests/bench/summarize.py "${results[@]}" | tee "$out/table.txt"
bash Tests/bench/run_todo.sh "$reps"   # the todo app against GListStore (its own table)
