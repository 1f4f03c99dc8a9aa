#!/usr/bin/env bash
# The todo benchmark (make bench runs it last; alone: bash Tests/bench/run_todo.sh [REPS] [N]):
# examples/todo's libtodo.so in a release build (MVVM_RELEASE_SWIFT_FLAGS, in
# examples/todo/.build-release) driven from C (bench_todo.c) against the same work on GLib's
# GListStore (glist_store_todo.c), taking turns REPS times (default 5) with N todos (default
# 10,000); the table gives each phase's median in ms, its splices (items-changed emissions) and
# the ratio mvvm / GListStore. A second table: the app with storage (a SQLite database, which
# GListStore has no twin of): building N todos one by one, then single changes at N todos (the
# median of 101 of each, per run) against the target of 1 ms each, and reopening the N-todo
# database against 50 ms; medians over the REPS runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=${1:-5} n=${2:-10000}
. bindings/c/common.sh
(cd examples/todo && swift build "${MVVM_RELEASE_SWIFT_FLAGS[@]}" --scratch-path .build-release >&2)
libdir=$(cd examples/todo && swift build "${MVVM_RELEASE_SWIFT_FLAGS[@]}" --scratch-path .build-release --show-bin-path)
out=build/bench
mkdir -p "$out"
cc -O2 -std=c11 -Wall -Wextra Tests/bench/bench_todo.c -Iinclude -L"$libdir" -ltodo -Wl,-rpath,"$libdir" \
    -o "$out/bench_todo"
cc -O2 -std=c11 -Wall -Wextra Tests/bench/glist_store_todo.c $(pkg-config --cflags --libs gio-2.0) \
    -o "$out/glist_store_todo"
: > "$out/todo.txt"
for rep in $(seq "$reps"); do
    echo "todo repetition $rep of $reps: libmvvm, then GListStore ($n todos)" >&2
    "$out/bench_todo" "$n" >> "$out/todo.txt"
    "$out/glist_store_todo" "$n" >> "$out/todo.txt"
done
python3 - "$out/todo.txt" "$n" <<'PY' | tee "$out/todo_table.txt"
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    side, phase, ms, splices = line.split()
    rows.setdefault(phase, {}).setdefault(side, []).append((float(ms), int(splices)))
n = int(sys.argv[2])
print(f"todo app, {n:,} todos: median ms of each phase (splices = items-changed emissions)")
print(f"{'phase':<18}{'libmvvm ms':>12}{'splices':>9}{'GListStore ms':>15}{'splices':>9}{'ratio':>8}")
for phase, sides in rows.items():
    if "glist" not in sides:
        continue
    m = statistics.median(ms for ms, _ in sides["mvvm"]); g = statistics.median(ms for ms, _ in sides["glist"])
    print(f"{phase:<18}{m:>12.2f}{sides['mvvm'][0][1]:>9}{g:>15.2f}{sides['glist'][0][1]:>9}{m / max(g, 0.01):>7.1f}x")
targets = {"storage_add": 1.0, "storage_toggle": 1.0, "storage_rename": 1.0, "storage_destroy": 1.0,
           "storage_reopen": 50.0}
print()
print(f"with storage (SQLite through GRDB, WAL, synchronous=NORMAL), {n:,} todos: median ms")
print(f"{'phase':<18}{'libmvvm ms':>12}{'splices':>9}{'target ms':>11}{'':>6}")
for phase, sides in rows.items():
    if "glist" in sides:
        continue
    m = statistics.median(ms for ms, _ in sides["mvvm"])
    target = targets.get(phase)
    verdict = "" if target is None else ("met" if m <= target else "MISSED")
    print(f"{phase:<18}{m:>12.3f}{sides['mvvm'][0][1]:>9}{'' if target is None else f'<= {target:g}':>11}{verdict:>6}")
PY
