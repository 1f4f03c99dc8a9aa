#!/usr/bin/env bash
# The todo benchmark (make bench runs it last; alone: bash Tests/bench/run_todo.sh [REPS] [N]):
# examples/todo's libtodo.so in a release build (MVVM_RELEASE_SWIFT_FLAGS, in
# examples/todo/.build-release) driven from C (bench_todo.c) against the same work on GLib's
# GListStore (glist_store_todo.c), taking turns REPS times (default 5) with N todos (default
# 10,000); the table gives each phase's median in ms, its splices (items-changed emissions), the
# ratio mvvm / GListStore and the targets, and the resident memory the list adds per todo (B).
# A second table: the app with storage (a SQLite database, which
# GListStore has no twin of): building N todos one by one, then single changes at N todos (the
# median of 101 of each, per run) against the target of 1 ms each, and reopening the N-todo
# database against 50 ms; medians over the REPS runs.
set -euo pipefail
# No settings saver thread waking during the timings (docs/loops-and-threads.md, "Settings").
export MVVM_SETTINGS=off
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
# The tables (Tests/bench/summarize_todo.py): the targets are set at 10,000 todos; other sizes are reported.
reported=()
if [ "$n" != 10000 ]; then reported=(--reported); fi
python3 Tests/bench/summarize_todo.py "$out/todo.txt" "$n" "${reported[@]+"${reported[@]}"}" | tee "$out/todo_table.txt"
