"""Reads the benchmark programs' lines ("<case> <value> <deliveries>", one per repetition) and
prints one table: min and median per case, the ratio of medians to the baseline measured in the
same run, and whether each target of BENCHMARKS.md is met."""
import statistics
import sys
from collections import defaultdict

# case: (what it measures, unit, baseline case(s) or None, target ratio or None, target absolute or None);
# with several baselines, the target ratio is to the first, and the others are shown after it.
ROWS = [
    ("c_round_trip_sign_up", "C: set password -> is_sign_up_enabled -> C callback", "ns",
     ("swift_round_trip_sign_up", "c_baseline_struct_fnptr"), 1.2, 1100),
    ("swift_round_trip_sign_up", "Swift: the same flip, no C layer", "ns", None, None, None),
    ("c_baseline_struct_fnptr", "C: hand-written struct + function pointer", "ns", None, None, None),
    ("c_get_bool", "C: mvvm_get_bool (handle check included)", "ns", None, None, 100),
    ("c_send_command", "C: mvvm_send counter increment -> callback", "ns", None, None, None),
    ("c_create_subscribe_release", "C: create + subscribe + release SignUp", "ns", None, None, None),
    ("c_fan_out_10_subscribers", "C: one change to 10 subscribers", "ns", "c_round_trip_sign_up", None, None),
    ("c_stopwatch_tick", "C: one stopwatch tick, one subscriber", "ns", None, None, None),
    ("py_round_trip_sign_up", "Python: the SignUp flip to a Python callback", "ns",
     ("py_ctypes_floor", "py_pure_python_view_model"), 2.0, 1600),
    ("py_ctypes_floor", "Python: ctypes call with a string + CFUNCTYPE callback", "ns", None, None, None),
    ("py_pure_python_view_model", "Python: pure-Python view model, plain callbacks", "ns", None, None, None),
    ("py_stopwatch_tick", "Python: one stopwatch tick, one subscriber", "ns", None, None, 1600),
    ("c_create_live_sign_up", "C: create + subscribe, 100,000 live", "ns", None, None, None),
    ("c_memory_per_live_sign_up_bytes", "C: RSS per live SignUp with a subscription", "B", None, None, 5 * 1024),
    ("c_round_trip_alone", "C: round trip, no other live objects", "ns", None, None, None),
    ("c_round_trip_among_100k", "C: round trip among 100,000 live objects", "ns", "c_round_trip_alone", 1.2, None),
]


def main(paths):
    samples = defaultdict(list)
    for path in paths:
        with open(path) as lines:
            for line in lines:
                parts = line.split()
                if len(parts) == 3 and parts[0][0].isalpha():
                    case, value, deliveries = parts[0], float(parts[1]), int(parts[2])
                    if deliveries <= 0:
                        sys.exit(f"{case}: no deliveries counted; the figure would be meaningless")
                    samples[case].append(value)
    medians = {case: statistics.median(values) for case, values in samples.items()}
    header = f"{'case':34} {'reps':>4} {'min':>10} {'median':>10} {'unit':>4}  {'vs baseline (ratio of medians, of minimums)':86} {'target':>14}  result"
    print(header)
    print("-" * len(header))
    missed = 0
    for case, _, unit, baseline, ratio_target, absolute_target in ROWS:
        if case not in samples:
            print(f"{case:34} (not measured in this run)")
            continue
        values = samples[case]
        median = medians[case]
        targets, verdicts, versus = [], [], []
        baselines = (baseline,) if isinstance(baseline, str) else baseline or ()
        for position, other in enumerate(baselines):
            if other not in medians:
                continue
            ratio = median / medians[other]
            # The ratio of the minimums too: on this shared machine, noise only ever adds.
            versus.append(f"{ratio:.2f}x (min {min(values) / min(samples[other]):.2f}x) {other}")
            if position == 0 and ratio_target is not None:
                targets.append(f"<={ratio_target}x")
                verdicts.append(ratio <= ratio_target)
        versus = ", ".join(versus)
        if absolute_target is not None:
            targets.append(f"<={absolute_target}{unit}")
            verdicts.append(median <= absolute_target)
        result = "" if not verdicts else ("met" if all(verdicts) else "NOT MET")
        missed += result == "NOT MET"
        print(f"{case:34} {len(values):4} {min(values):10.1f} {median:10.1f} {unit:>4}  {versus:86} "
              f"{' '.join(targets):>14}  {result}")
    print()
    for case, description, *_ in ROWS:
        print(f"  {case}: {description}")
    print(f"\ntargets not met: {missed} (BENCHMARKS.md explains where the time goes)")


if __name__ == "__main__":
    main(sys.argv[1:])
