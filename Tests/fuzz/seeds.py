#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_abi.c into Tests/fuzz/corpus/: a handful of inputs that each
drive one screen of the catalog through the decoder's byte format (see fuzz_abi.c), so the
fuzzer starts from meaningful call sequences. Run from anywhere: python3 Tests/fuzz/seeds.py

The byte format, as LLVMFuzzerTestOneInput decodes it: a first byte < 200 makes a virtual loop
(pool index 0); then operations, each an op byte (taken % 20) and its arguments. Handles are pool
indices (a byte < 200 picks pool[b % n]); names and strings are an index into fuzz_abi.c's
known_names / known_strings (a byte < 160) or raw bytes.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = open(os.path.join(HERE, "fuzz_abi.c"), encoding="latin-1").read()


def c_strings(array):
    body = re.search(r"%s\[\] = \{(.*?)\};" % array, SOURCE, re.S).group(1)
    return [eval('b"%s"' % s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', body)]


NAMES = c_strings("known_names")
STRINGS = c_strings("known_strings")
OPS = dict(loop_new=0, construct=1, get=3, set=4, send=5, child=6, class_name=7, json=8, release=9,
           subscribe=10, unsubscribe=12, complete=13, loop_run=14, loop_query=16, typed=17, misc=19)
CLASSES = dict(count_down_timer=0, timer_view_model=1, stop_watch=2, stop_watch_view_model=3,
               input_echo_view_model=4, sign_up_view_model=5, sign_up_with_service=6, welcome_view_model=7,
               welcome_with_api=8, counter=9, random_counter=10, counter_view_model=11,
               counter_page_view_model=12, counter_page_with_seed=13)
CB = dict(nothing=0, set=1, send=2, unsubscribe_self=3, release_source=4, subscribe_more=5,
          advance_own_loop=6, release_any=7, snapshot=8, complete_any=9, cross_loop=10)
SVC = dict(keep=0, answer_at_once=1, answer_wrong_type=2, release_vm=3, cancel=4)
STEPS = [0, 1, 9, 10, 11, 100, 999, 1000, 1001, 2500, 5000, 10000, -1, -1000]


def name(n):
    return bytes([0, NAMES.index(n.encode())])


def text(s, names=False):
    return bytes([(NAMES if names else STRINGS).index(s.encode())])


def value(kind, boolean=False, integer=0, string=""):
    types = dict(none=0, bool=1, int=2, double=3, string=4)
    return bytes([types[kind], int(boolean), integer + 2, 0]) + text(string)


def construct(loop, cls, *extra):
    return bytes([OPS["construct"], loop, CLASSES[cls], 0]) + bytes(extra)


def subscribe(obj, prop=None, mode="nothing", target=0, cb_name="count", cb_value=None):
    out = bytes([OPS["subscribe"], obj])
    out += bytes([1]) if prop is None else bytes([0]) + name(prop)
    out += bytes([CB[mode], target]) + text(cb_name, names=True) + (cb_value or value("none"))
    return out + bytes([0])


def set_(obj, prop, val):
    return bytes([OPS["set"], obj]) + name(prop) + val


def send(obj, command, val=None):
    return bytes([OPS["send"], obj]) + name(command) + (val or value("none")) + bytes([0 if val is None else 1])


def get(obj, prop, kind):
    return bytes([OPS["get"], obj]) + name(prop) + bytes([dict(bool=0, int=1, double=2, string=3)[kind], 0])


def advance(loop, ms):
    return bytes([OPS["loop_run"], loop, 0, STEPS.index(ms)])


def dispatch(loop):
    return bytes([OPS["loop_run"], loop, 1, 0])


def child(obj, child_name):
    return bytes([OPS["child"], obj]) + name(child_name) + bytes([0])


def release(obj):
    return bytes([OPS["release"], obj])


def complete(request, val, soon=False):
    """mvvm_complete, or with `soon` mvvm_complete_soon (the answer as work of the loop)."""
    return bytes([OPS["complete"], request]) + val + bytes([0x80 if soon else 0])


SEEDS = {
    # pool: 0 loop, 1 echo, 2 sub A (sets "input" from its callback), 3 sub B (reads back)
    "echo_set_from_callback": b"\x00" + construct(0, "input_echo_view_model")
    + subscribe(1, "input", "set", cb_name="input", cb_value=value("string", string="start"))
    + subscribe(1, "input") + set_(1, "input", value("string", string="abcdef")) + get(1, "message", "string"),
    # pool: 0 loop, 1 stopwatch vm, 2 subscription
    "stop_watch_ticks": b"\x00" + construct(0, "stop_watch_view_model") + subscribe(1)
    + send(1, "main_action") + advance(0, 1000) + send(1, "main_action") + send(1, "clear_action")
    + get(1, "time", "string") + release(0) + release(1),
    # pool: 0 loop, 1 sign-up with a service (keeps the request), 2 subscription, 3 request
    "sign_up_with_service": b"\x00" + construct(0, "sign_up_with_service", SVC["keep"], 0)
    + subscribe(1, "is_completion_alert_presented", "release_source")
    + set_(1, "user_id", value("string", string="abcdef")) + set_(1, "password", value("string", string="password1"))
    + set_(1, "confirm_password", value("string", string="password1")) + set_(1, "agreed", value("bool", True))
    + send(1, "sign_up_tapped") + complete(3, value("bool", True)),
    # the same answered as work of the loop, which the advance runs
    "sign_up_answered_soon": b"\x00" + construct(0, "sign_up_with_service", SVC["keep"], 0)
    + subscribe(1, "is_completion_alert_presented")
    + set_(1, "user_id", value("string", string="abcdef")) + set_(1, "password", value("string", string="password1"))
    + set_(1, "confirm_password", value("string", string="password1")) + set_(1, "agreed", value("bool", True))
    + send(1, "sign_up_tapped") + complete(3, value("bool", True), soon=True) + complete(3, value("bool", True))
    + advance(0, 0) + get(1, "is_completion_alert_presented", "bool"),
    # pool: 0 loop, 1 timer, 2 timer vm, 3 player, 4 display, 5 subscription
    "timer_runs_out": b"\x00" + construct(0, "count_down_timer", 0, 5) + construct(0, "timer_view_model", 1)
    + child(2, "player") + child(2, "display") + subscribe(4, None, "advance_own_loop")
    + send(3, "tapped", value("string", string="start")) + advance(0, 1) + advance(0, 5000)
    + get(2, "is_show_alert", "bool") + release(2) + release(3),
    # pool: 0 virtual loop (unused), 1 manual loop, 2 welcome vm, 3 subscription
    "welcome_on_a_manual_loop": b"\x00" + bytes([OPS["loop_new"], 150]) + construct(1, "welcome_view_model")
    + subscribe(2, None, "unsubscribe_self") + send(2, "view_did_load") + dispatch(1)
    + send(2, "tap_button", value("string", string="abcdef")) + dispatch(1),
    # pool: 0 loop, 1 page, 2 first counter, 3 second counter, 4 subscription
    "counter_page_loop_released_first": b"\x00" + construct(0, "counter_page_with_seed", *([7] * 8))
    + child(1, "first_counter") + child(1, "second_counter") + subscribe(2, "count", "release_any", target=0)
    + send(2, "increment") + send(3, "increment") + get(3, "count", "string") + send(2, "decrement"),
    # pool: 0 loop, 1 thread loop, 2 stopwatch vm, 3 subscription
    "thread_loop_stop_watch": b"\x00" + bytes([OPS["loop_new"], 210]) + construct(1, "stop_watch_view_model")
    + subscribe(2, "time") + send(2, "main_action") + bytes([OPS["loop_run"], 0, 2, 3]) * 4
    + get(2, "time", "string") + release(1),
    # pool: 0 loop, 1 and 2 thread loops, 3 and 4 their stopwatches, 5 echo on 1, 6 counter on 2,
    # 7 and 8 subscriptions whose callbacks call the other loop's objects, 9 a manual loop whose
    # run_for lets time pass (issue 16: this deadlocked within two seconds)
    "thread_loops_call_each_other": b"\x00" + bytes([OPS["loop_new"], 210]) * 2 + construct(1, "stop_watch")
    + construct(2, "stop_watch") + construct(1, "input_echo_view_model") + construct(2, "counter")
    + subscribe(3, "time_ms", "cross_loop", target=1) + subscribe(4, "time_ms", "cross_loop", target=2)
    + send(3, "start") + send(4, "start") + bytes([OPS["loop_new"], 150])
    + bytes([OPS["loop_run"], 9, 2, 3]) * 100 + release(1) + release(2),
    # pool: 0 loop, 1 stopwatch, 2 subscription; two threads advance the loop 200 x 1 ms each
    "two_threads_advance_one_loop": b"\x00" + construct(0, "stop_watch") + subscribe(1, "time_ms")
    + send(1, "start") + bytes([OPS["loop_run"], 0, 240, 199]) + get(1, "time_ms", "int"),
    # pool: 0 loop, 1 manual loop, 2 stopwatch on it; a second thread runs it for 1 s, this one releases it
    "manual_loop_released_during_run_for": b"\x00" + bytes([OPS["loop_new"], 150]) + construct(1, "stop_watch")
    + send(2, "start") + bytes([OPS["loop_run"], 1, 241, 0]) + get(2, "time_ms", "int"),
}

os.makedirs(os.path.join(HERE, "corpus"), exist_ok=True)
for seed_name, data in SEEDS.items():
    with open(os.path.join(HERE, "corpus", seed_name), "wb") as f:
        f.write(data)
print("wrote %d seeds to %s" % (len(SEEDS), os.path.join(HERE, "corpus")))
