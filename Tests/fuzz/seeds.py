#!/usr/bin/env python3
"""Writes the seed corpora of fuzz_abi.c: Tests/fuzz/corpus/ (the catalog, fuzz_abi), a handful
of inputs that each drive one screen through the decoder's byte format (see fuzz_abi.c), and
Tests/fuzz/corpus-sample/ and corpus-todo/ (fuzz_sample, fuzz_todo: values of every kind, calls,
async calls, lists under feedback, hostile storage paths), so the fuzzer starts from meaningful
call sequences. Run from anywhere: python3 Tests/fuzz/seeds.py

The byte format, as LLVMFuzzerTestOneInput decodes it: a first byte < 200 makes a virtual loop
(pool index 0); then operations, each an op byte (taken % 20) and its arguments. Handles are pool
indices (a byte < 200 picks pool[b % n]); names and strings are an index into fuzz_abi.c's
known_names / known_strings (a byte < 160) or raw bytes. In fuzz_sample and fuzz_todo, op bytes
from 100 up are the newer operations (take_op: 100 + their number), and known_names goes on with
the sample's and the todo app's names.
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
    # mvvm_value_copy of a host's map whose one name is an int (op byte 206: value_copy): a
    # malformed value, refused with INVALID_ARGUMENT (it once gave TYPE_MISMATCH, unlisted)
    "copy_of_a_map_with_a_name_that_is_no_string": b"\x00" + bytes([206, 12, 0, 1, 200, 2, 0, 0, 1, 0, 1, 0])
    + bytes([0, 0, 0]),
}

# --- fuzz_sample and fuzz_todo: the newer operations (take_op) -----------------------------------
NEW = dict(value_get=0, value_set=1, call=2, call_async=3, cancel=4, new_named=5, value_copy=6, list=7,
           todo_path=9, new_target=10)
SAMPLE_CLASSES = dict(playlist=0, board=1, profile=2, wishlist=3, tally=4, greeter=5, dialog=6)
PATHS = dict(fifo=0, directory=1, symlink_loop=2, link_to_fifo=3, link_to_directory=4, dev_null=5, dev_zero=6,
             dev_urandom=7, huge=8, not_utf8=9, not_a_database=10, empty_file=11, missing_directory=12,
             scratch_itself=13, socket=14, dangling_link=15, under_a_file=16, new_database=17)


def op(name):
    return bytes([100 + NEW[name]])


def new_name(n):
    """take_new_name: a known name by its index."""
    return bytes([0, NAMES.index(n.encode())])


def new_target(loop, cls=None, extra=b"", positional=True):
    which = SAMPLE_CLASSES[cls] if cls else 0
    return op("new_target") + bytes([loop, which]) + extra + bytes([1 if positional else 0])


def list_change(obj, command_byte, text_index=0, extra=b""):
    """op_list's change: a text, then the owner's command (playlist: 0 add, 1 add_many, 2 remove_first,
    3 reverse, 4 rotate, 5 sort_by_title, 6 filter; board: 0 add, 1 remove_odd, 2 reverse; todo list:
    0 add the text, 1 clear_completed, 2 filter, 3 all_completed)."""
    return op("list") + bytes([obj, 0, 1, text_index, command_byte]) + extra


def list_read(obj, at=0):
    return op("list") + bytes([obj, 0, 0, 0, at])


def call_async_load(obj, count, mode=0, shape=0):
    # c < 64: "load"; no arguments given (then the count is made), by position
    return op("call_async") + bytes([obj, 0, 0, 0, 0, count, shape, mode, 0])


def recipe(which, n, *rest):
    return bytes([224, 0, which, n]) + bytes(rest)


def value_set(obj, prop, value_bytes):
    return op("value_set") + bytes([obj]) + new_name(prop) + value_bytes + bytes([0])


def value_get(obj, prop):
    return op("value_get") + bytes([obj]) + new_name(prop) + bytes([0])


def call(obj, command, args, how=0):
    """args: the bytes of take_call_args (a count byte, the values, a names byte)."""
    return op("call") + bytes([obj]) + new_name(command) + args + bytes([how])


def string_value(index):
    return bytes([4, 0, 0, index, 0])  # a string from known_strings, `integer` garbage 0


DEEP = bytes([14, 1, 12]) + bytes([0, 1] * 20)   # arrays and records 40 deep
SELF = bytes([15, 1, 4])                          # an array that holds itself
SELF_MAP = bytes([15, 0, 14])                     # a map whose value is itself
HUGE = bytes([10, 1, 230, 2])                     # 2^24 + 1 items, NULL
NEGATIVE = bytes([12, 0, 230, 0])                 # a map of -1 pairs

SAMPLE_SEEDS = {
    # pool: 0 loop, 1 playlist, 2 a callback adding a song per splice it hears, 3 a watcher of all
    "playlist_callback_adds_to_the_list_it_hears": b"\x00" + new_target(0, "playlist")
    + subscribe(1, "songs", "send", cb_name="add", cb_value=value("string", string="abcdef"))
    + subscribe(1) + list_change(1, 0, 4) + list_read(1) + list_change(1, 3),
    # pool: 0 loop, 1 board; three tallies; 2 subscribes another during each splice; 3 watches;
    # reverse is several splices: a late subscriber hears the next change only
    "board_subscribed_to_during_a_splice": b"\x00" + new_target(0, "board")
    + list_change(1, 0, extra=bytes([1])) + list_change(1, 0, extra=bytes([2])) + list_change(1, 0, extra=bytes([3]))
    + subscribe(1, "tallies", "subscribe_more", cb_name="tallies") + subscribe(1, "tallies")
    + list_change(1, 2) + list_change(1, 0, extra=bytes([4])) + list_change(1, 1),
    # pool: 0 loop, 1 profile, 2 a load of 3 tags; a second advanced, then the profile released
    "profile_load_cancelled_by_its_release": b"\x00" + new_target(0, "profile") + subscribe(1, "tags")
    + call_async_load(1, 3, mode=2) + advance(0, 1000) + call_async_load(1, 2, mode=3) + advance(0, 1000)
    + release(1) + advance(0, 5000),
    # the completion releases the loop
    "profile_load_completion_releases_the_loop": b"\x00" + new_target(0, "profile")
    + call_async_load(1, 1, mode=4) + advance(0, 1000) + advance(0, 1000),
    # pool: 0 loop, 1 profile: arrays, records by name and in order, bytes, null; read back
    "profile_values_of_every_kind": b"\x00" + new_target(0, "profile") + subscribe(1)
    + value_set(1, "tags", recipe(0, 3, 4, 5, 6)) + value_set(1, "address", recipe(2, 0, 4, 5))
    + value_set(1, "address", recipe(3, 2, 4, 5, 1)) + value_set(1, "avatar", recipe(4, 0, 5, 0, 0xff, 0, 1, 2))
    + value_set(1, "limit", recipe(5, 0)) + value_set(1, "scores", recipe(1, 3, 10, 70, 200))
    + value_get(1, "address") + value_get(1, "tags")
    + call(1, "contact", bytes([3]) + string_value(4) + string_value(5) + string_value(6) + bytes([0]))
    + call(1, "save", bytes([0, 0, 0])) + call(1, "move_tag", bytes([2, 2, 0, 0, 2, 0, 1, 0])),
    # load with an argument of the wrong type: refused after its handle was made, the out-pointer
    # left as it was (it once was set to 0)
    "call_async_refused_after_its_handle_was_made": b"\x00" + new_target(0, "profile")
    + op("call_async") + bytes([1, 0, 1, 0, 0, 0, 0, 0, 0]),
    # hostile values: too deep, holding themselves, counts past the limit or negative
    "profile_hostile_values": b"\x00" + new_target(0, "profile") + new_target(0, "wishlist")
    + value_set(1, "tags", DEEP) + value_set(1, "tags", SELF) + value_set(2, "home", SELF_MAP)
    + value_set(1, "tags", HUGE) + value_set(1, "address", NEGATIVE)
    + op("value_copy") + DEEP + bytes([0]) + new_name("street") + bytes([0])
    + op("value_copy") + SELF + bytes([0]) + new_name("street") + bytes([0]),
}

def round_four(sub, *rest):
    """Op byte 255, then the operation of the fourth reliability round: 0 two threads ending one
    handle, 1 a cancel against what ends its call, 2 (fuzz_sample) values narrower than their C
    types on a Booking."""
    return bytes([255, sub]) + bytes(rest)


def narrow_stay(nights, rate_index, by_name=False):
    return bytes([nights & 0xFF, rate_index, 0, 0 if by_name else 1])


ROUND_FOUR_SEEDS = {
    # pool: 0 loop, 1 booking, 2 a booking refused ("BK-123"), then "BK-1234" taken; every way a
    # value enters with one its Swift type refuses: an enum that is no case, a malformed reference,
    # a stay of negative nights, Floats beyond range, an async book refused at its start; then a
    # well-formed book completed by an advance
    "booking_values_its_swift_types_refuse": b"\x00" + round_four(2, 0, 0) + round_four(2, 1, 8)
    + round_four(2, 3, 6) + subscribe(1) + round_four(2, 24, 2) + round_four(2, 25, 11)
    + round_four(2, 26, *narrow_stay(-2, 1)) + round_four(2, 27, 5) + round_four(2, 28, 5, 10, 8, 1, 4)
    + round_four(2, 29, 0, 2, 0) + round_four(2, 29, 1, 9, 1) + round_four(2, 30, *narrow_stay(-5, 5, True), 0)
    + round_four(2, 31, *narrow_stay(-1, 1), 2, 0) + round_four(2, 31, *narrow_stay(3, 1), 0, 0) + advance(0, 1000),
    # pool: 0 loop, 1 playlist, 2 its subscription: two threads release the subscription at once,
    # then the playlist, then the loop
    "two_threads_end_one_handle": b"\x00" + new_target(0, "playlist") + subscribe(1) + round_four(0, 2, 0)
    + round_four(0, 2, 1 + 3 * 2) + round_four(0, 1, 0) + round_four(0, 0, 0),
    # pool: 0 loop, 1 profile, 2 a load of 3 tags: a cancel against an advance of 1 s, then a load
    # cancelled against the loop's release
    "a_cancel_races_the_end_of_its_call": b"\x00" + new_target(0, "profile") + call_async_load(1, 1)
    + round_four(1, 4) + call_async_load(1, 3) + round_four(1, 1),
}
SAMPLE_SEEDS.update(ROUND_FOUR_SEEDS)

TODO_SEEDS = {
    # pool: 0 loop, 1 todo list in memory (a SpliceList), 2 a callback adding a todo per splice
    "todo_list_callback_adds_to_the_list_it_hears": b"\x00" + new_target(0) + subscribe(1, "items")
    + subscribe(1, "items", "send", cb_name="add") + list_change(1, 0, 4) + list_read(1),
    # the todo list: items under filters, a late subscriber during a splice
    "todo_list_filters_and_a_late_subscriber": b"\x00" + new_target(0)
    + list_change(1, 0, 4) + list_change(1, 0, 5) + list_change(1, 0, 6) + list_read(1, 1)
    + subscribe(1, "items", "subscribe_more", cb_name="items") + subscribe(1, "items")
    + list_change(1, 3, extra=bytes([1])) + list_change(1, 2, extra=bytes([1])) + list_change(1, 2, extra=bytes([0]))
    + list_change(1, 1),
    # every kind of hostile storage path, then a new database
    "todo_hostile_paths": b"\x00" + b"".join(
        op("todo_path") + bytes([0, PATHS[k], 0, 1]) + extra + bytes([how])
        for k, extra, how in [
            ("fifo", b"", 0), ("directory", b"", 2), ("symlink_loop", b"", 0), ("link_to_fifo", b"", 0),
            ("link_to_directory", b"", 0), ("dev_null", b"", 0), ("dev_zero", b"", 2), ("dev_urandom", b"", 0),
            ("huge", bytes([1, 0]), 0), ("huge", bytes([2, 1]), 0), ("not_utf8", bytes([0]), 0),
            ("not_utf8", bytes([1]), 1), ("not_a_database", bytes([1, 20]) + b"x" * 20, 0),
            ("not_a_database", bytes([2, 5]) + b"hello", 0), ("empty_file", b"", 0),
            ("missing_directory", bytes([0]), 0), ("scratch_itself", bytes([1]), 0), ("socket", b"", 0),
            ("dangling_link", b"", 0), ("under_a_file", b"", 0), ("new_database", b"", 0)]),
}

for folder, seeds in (("corpus", SEEDS), ("corpus-sample", SAMPLE_SEEDS), ("corpus-todo", TODO_SEEDS)):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    for seed_name, data in seeds.items():
        with open(os.path.join(HERE, folder, seed_name), "wb") as f:
            f.write(data)
    print("wrote %d seeds to %s" % (len(seeds), os.path.join(HERE, folder)))
