"""Reads the lines of bench_todo.c and glist_store_todo.c ("<side> <phase> <value> <splices>",
one per phase and run) and prints the todo tables of BENCHMARKS.md: each phase's median for
libmvvm and for GListStore, their ratio (of medians), and each target with its status; then the
phases with storage, which GListStore has no twin of, against their absolute targets.
Tests/bench/run_todo.sh runs it on what the programs printed.
Usage: summarize_todo.py FILE N [--reported]   (--reported: no targets; they are set at 10,000 todos)"""
import statistics
import sys
from collections import defaultdict

# phase: (what it is, unit, must-meet ratio of medians to GListStore at most, aimed-for ratio or
# None), at 10,000 todos. A filter switch must also make at most one splice and take at most
# FILTER_MS. Memory per row must not exceed GListStore's.
MEMORY_PHASES = [
    ("build", "adds, one at a time", "ms", 5.0, 2.0),
    ("mark_all_on", "mark all completed", "ms", 10.0, 3.0),
    ("mark_all_off", "mark all active", "ms", 10.0, 3.0),
    ("filter_active", "filter all -> active", "ms", 2.0, None),
    ("filter_completed", "filter active -> completed", "ms", 2.0, None),
    ("filter_all", "filter completed -> all", "ms", 2.0, None),
    ("memory_per_row_bytes", "resident memory the list adds, per todo (RSS after the build less before)", "B", 1.0, None),
]
FILTER_MS = 20.0
# phase: (what it is, target in ms at most)
STORAGE_PHASES = [
    ("storage_build", "adds, one at a time", None),
    ("storage_add", "one add", 1.0),
    ("storage_toggle", "one toggle", 1.0),
    ("storage_rename", "one rename (begin, edit, commit)", 1.0),
    ("storage_destroy", "one destroy", 1.0),
    ("storage_reopen", "reopen the database", 50.0),
]


def verdict(met):
    return "met" if met else "MISSED"


def main(path, n, reported):
    values = defaultdict(lambda: defaultdict(list))
    splices = {}
    runs = defaultdict(int)
    with open(path) as lines:
        for line in lines:
            side, phase, value, count = line.split()
            values[phase][side].append(float(value))
            splices[side, phase] = int(count)
            if phase == "build" or phase == "storage_build":
                runs[side, phase] += 1
    median = {(side, phase): statistics.median(v) for phase, sides in values.items() for side, v in sides.items()}
    reps = max(runs.values(), default=0)
    missed = 0

    print(f"todo app, {n:,} todos, release build: median of {reps} run{'s' * (reps != 1)} "
          "(libmvvm and GListStore take turns, each run a process of its own)")
    header = f"{'phase':<26}{'libmvvm':>10}{'splices':>9}{'GListStore':>12}{'splices':>9}{'ratio':>8}"
    print(header + ("" if reported else "  targets"))
    for phase, what, unit, bound, aim in MEMORY_PHASES:
        if ("mvvm", phase) not in median or ("glist", phase) not in median:
            continue
        m, g = median["mvvm", phase], median["glist", phase]
        ratio = m / max(g, 0.01)  # a phase GListStore does in under 10 us counts as 0.01 ms
        name = f"{phase} ({unit})"
        if unit == "B":
            cells = f"{m:>10.0f}{'':>9}{g:>12.0f}{'':>9}"
            ratio = m / max(g, 1.0)
        else:
            cells = f"{m:>10.2f}{splices['mvvm', phase]:>9}{g:>12.2f}{splices['glist', phase]:>9}"
        notes = []
        if bound is not None and not reported:
            met = ratio <= bound
            notes.append(f"<= {bound:g}x {verdict(met)}")
            missed += not met
            if aim is not None:
                notes.append(f"aim <= {aim:g}x {'met' if ratio <= aim else 'not yet'}")
            if phase.startswith("filter_"):
                met = splices["mvvm", phase] <= 1 and m <= FILTER_MS
                notes.append(f"one splice, <= {FILTER_MS:g} ms {verdict(met)}")
                missed += not met
        print(f"{name:<26}{cells}{ratio:>7.2f}x  {'; '.join(notes)}")

    if any(("mvvm", phase) in median for phase, *_ in STORAGE_PHASES):
        print()
        print(f"with storage (a SQLite database through GRDB, WAL, synchronous = NORMAL), {n:,} todos: "
              "median ms (one change: the median of 101, each timed alone)")
        print(f"{'phase':<22}{'libmvvm ms':>12}{'splices':>9}" + ("" if reported else "  target"))
        for phase, what, bound in STORAGE_PHASES:
            if ("mvvm", phase) not in median:
                continue
            m = median["mvvm", phase]
            note = ""
            if bound is not None and not reported:
                note = f"<= {bound:g} ms {verdict(m <= bound)}"
                missed += m > bound
            print(f"{phase:<22}{m:>12.3f}{splices['mvvm', phase]:>9}  {note}")
    print()
    for phase, what, *_ in MEMORY_PHASES + STORAGE_PHASES:
        print(f"  {phase}: {what}")
    if not reported:
        print(f"\ntodo targets missed: {missed}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), "--reported" in sys.argv[3:])
