"""Reads the benchmark programs' lines ("<case> <value> <deliveries>", one per repetition) and
prints one table: min and median per case, beside its GObject twin and its other baselines
measured in the same run (ratio of medians, and of minimums), and whether each target of
BENCHMARKS.md is met."""
import statistics
import sys
from collections import defaultdict

# case: (what it measures, unit, baseline cases (the GObject twin first, when there is one),
# targets). A target is (baseline, ratio of medians at most) or (None, absolute median at most).
GOBJECT = "GObject twin"
ROWS = [
    ("c_round_trip_sign_up", "C: mvvm_set_string password -> is_sign_up_enabled -> C callback", "ns",
     ("gobject_set_round_trip", "swift_round_trip_sign_up", "c_baseline_struct_fnptr"),
     [("gobject_set_round_trip", 1.0), ("swift_round_trip_sign_up", 1.2), (None, 1100)]),
    ("gobject_set_round_trip", "GObject: g_object_set password -> notify::is-sign-up-enabled -> handler reads it",
     "ns", None, []),
    ("c_typed_set_sign_up", "C: the typed setter mvvm_sign_up_view_model_set_password, the same flip", "ns",
     ("gobject_typed_set_round_trip", "c_round_trip_sign_up"), []),
    ("gobject_typed_set_round_trip", "GObject: the typed setter bench_sign_up_set_password, the same flip",
     "ns", None, []),
    ("c_typed_set_observable_sign_up", "C: @Observable SignUp, typed setter, the same flip", "ns",
     ("gobject_typed_set_round_trip", "c_typed_set_sign_up"), [("gobject_typed_set_round_trip", 1.0)]),
    ("c_round_trip_observable_sign_up", "C: @Observable SignUp, mvvm_set_string, the same flip", "ns",
     ("gobject_set_round_trip", "c_round_trip_sign_up"), []),
    ("swift_round_trip_sign_up", "Swift: the same flip, no C layer", "ns", None, []),
    ("c_baseline_struct_fnptr", "C: hand-written struct + function pointer", "ns", None, []),
    ("c_get_bool", "C: mvvm_get_bool (handle check included)", "ns", None, [(None, 100)]),
    ("c_typed_get_bool", "C: the typed getter mvvm_sign_up_view_model_get_agreed", "ns", ("c_get_bool",), []),
    ("c_send_command", "C: mvvm_send counter increment -> callback", "ns", None, []),
    ("c_create_subscribe_release", "C: create + subscribe to everything + release SignUp", "ns",
     ("gobject_create_subscribe_release",), [("gobject_create_subscribe_release", 5.0)]),
    ("c_create_subscribe_release_observable", "C: the same with the @Observable SignUp", "ns",
     ("gobject_create_subscribe_release", "c_create_subscribe_release"), [("gobject_create_subscribe_release", 5.0)]),
    ("gobject_create_subscribe_release", "GObject: g_object_new + notify handler + g_object_unref", "ns", None, []),
    ("c_fan_out_10_subscribers", "C: one change to 10 subscribers", "ns", ("c_round_trip_sign_up",), []),
    ("c_stopwatch_tick", "C: one stopwatch tick, one subscriber", "ns", None, []),
    ("c_idle_dispatch_manual", "C: mvvm_loop_dispatch of a manual loop, nothing due", "ns", None, []),
    ("c_idle_dispatch_main", "C: mvvm_loop_dispatch of the main loop, nothing due", "ns", ("c_idle_dispatch_manual",),
     []),
    ("py_round_trip_sign_up", "Python: form.password = ... flip to a Python callback (the C extension)", "ns",
     ("pygobject_round_trip_sign_up", "py_round_trip_sign_up_ctypes", "py_ctypes_floor", "py_pure_python_view_model"),
     [("pygobject_round_trip_sign_up", 0.5), ("py_ctypes_floor", 2.0), (None, 1600)]),
    ("py_round_trip_sign_up_ctypes", "Python: the same over ctypes alone (MVVM_FASTPATH=0)", "ns",
     ("pygobject_round_trip_sign_up",), [("pygobject_round_trip_sign_up", 1.0)]),
    ("py_round_trip_observable_sign_up", "Python: the same flip on the @Observable SignUp (the C extension)", "ns",
     ("pygobject_round_trip_sign_up", "py_round_trip_observable_sign_up_ctypes", "py_round_trip_sign_up"), []),
    ("py_round_trip_observable_sign_up_ctypes", "Python: the @Observable flip over ctypes alone", "ns",
     ("pygobject_round_trip_sign_up",), []),
    ("pygobject_round_trip_sign_up", "PyGObject: form.password = ... -> notify handler reads the value", "ns",
     None, []),
    ("py_ctypes_floor", "Python: ctypes call with a string + CFUNCTYPE callback", "ns", None, []),
    ("py_pure_python_view_model", "Python: pure-Python view model, plain callbacks", "ns", None, []),
    ("py_stopwatch_tick", "Python: one stopwatch tick, one subscriber (the C extension)", "ns",
     ("py_stopwatch_tick_ctypes",), [(None, 1600)]),
    ("py_stopwatch_tick_ctypes", "Python: one stopwatch tick over ctypes alone", "ns", None, []),
    ("node_round_trip_sign_up", "Node.js: form.password = ... flip to a JavaScript callback that reads the value", "ns",
     ("py_round_trip_sign_up", "c_round_trip_sign_up"), []),
    ("node_stopwatch_tick", "Node.js: one stopwatch tick, one subscriber", "ns", ("py_stopwatch_tick",), []),
    ("c_create_live_sign_up", "C: create + subscribe, 100,000 live", "ns", ("gobject_create_live_sign_up",), []),
    ("gobject_create_live_sign_up", "GObject: g_object_new + notify handler, 100,000 live", "ns", None, []),
    ("c_memory_per_live_sign_up_bytes", "C: RSS per live SignUp with a subscription", "B",
     ("gobject_memory_per_live_sign_up_bytes",), [("gobject_memory_per_live_sign_up_bytes", 5.0), (None, 5 * 1024)]),
    ("c_memory_per_live_observable_sign_up_bytes", "C: RSS per live @Observable SignUp with a subscription", "B",
     ("gobject_memory_per_live_sign_up_bytes", "c_memory_per_live_sign_up_bytes"),
     [("gobject_memory_per_live_sign_up_bytes", 5.0)]),
    ("c_memory_per_live_observable_sign_up_all_bytes",
     "C: RSS per live @Observable SignUp with every property subscribed to", "B",
     ("c_memory_per_live_observable_sign_up_bytes",), []),
    ("gobject_memory_per_live_sign_up_bytes", "GObject: RSS per live form with a notify handler", "B", None, []),
    ("c_round_trip_alone", "C: round trip, no other live objects", "ns", None, []),
    ("c_round_trip_among_100k", "C: round trip among 100,000 live objects", "ns", ("c_round_trip_alone",),
     [("c_round_trip_alone", 1.2)]),
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
    header = (f"{'case':40} {'reps':>4} {'min':>9} {'median':>9} {'unit':>4}  "
              f"{'vs baseline: ratio of medians (of minimums)':100} targets and results")
    print(header)
    print("-" * (len(header) + 30))
    missed = 0
    for case, _, unit, baselines, targets in ROWS:
        if case not in samples:
            print(f"{case:40} (not measured in this run)")
            continue
        values = samples[case]
        median = medians[case]
        versus = []
        for other in baselines or ():
            if other in medians:
                # The ratio of the minimums too: on this shared machine, noise only ever adds.
                versus.append(f"{median / medians[other]:.2f}x ({min(values) / min(samples[other]):.2f}x) {other}")
        verdicts = []
        for other, bound in targets:
            if other is None:
                met = median <= bound
                verdicts.append(f"<={bound}{unit} {'met' if met else 'NOT MET'}")
            elif other in medians:
                met = median / medians[other] <= bound
                verdicts.append(f"<={bound}x {'GObject' if other.startswith(('gobject', 'pygobject')) else other} "
                                f"{'met' if met else 'NOT MET'}")
            else:
                met = True
                verdicts.append(f"<={bound}x {other}: not measured")
            missed += not met
        print(f"{case:40} {len(values):4} {min(values):9.1f} {median:9.1f} {unit:>4}  {', '.join(versus):100} "
              f"{'; '.join(verdicts)}")
    print()
    for case, description, *_ in ROWS:
        print(f"  {case}: {description}")
    print(f"\ntargets not met: {missed} (BENCHMARKS.md explains where the time goes)")


if __name__ == "__main__":
    main(sys.argv[1:])
