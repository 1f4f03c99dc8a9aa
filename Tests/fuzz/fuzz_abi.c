/*
 * fuzz_abi.c - a coverage-guided fuzzer (libFuzzer) over the C ABI of libmvvm.
 *
 * Each input is decoded into a sequence of C ABI calls: any function of mvvm.h, on any class,
 * with valid, released (stale), zero and forged handles, real and random names, random bytes as
 * strings (invalid UTF-8 included), random values of every type (unknown types included), loop
 * advances on virtual loops, dispatches of manual loops, thread loops ticking meanwhile, host
 * services that answer at once, late, wrongly or never, and callbacks that call back in (read,
 * set, send, subscribe, unsubscribe, release the source or anything else, complete requests,
 * try to advance their own loop, and read, set and send on objects of other loops, from the
 * main thread and from thread loops' threads), two threads advancing one virtual loop at once,
 * and a loop released while another thread is in its run_for.
 *
 * After every call it checks (and abort()s, which libFuzzer reports as a crash, when one fails):
 *  - the status is one mvvm.h documents for that function (and is within 0..11);
 *  - a failed call sets a non-empty mvvm_last_error() and leaves its out-pointers untouched;
 *    mvvm_status_name() names every status;
 *  - a string in of invalid UTF-8 is never accepted; strings out are valid UTF-8;
 *  - a getter of a binding just set returns the value set (unless a callback changed it);
 *  - a handle released by mvvm_release() is then invalid (INVALID_HANDLE everywhere) and a typed
 *    call on a live object of another class is WRONG_TYPE;
 *  - in callbacks: the event is well formed, the source is the subscribed object, the getter of
 *    the notified property returns the event's value, no call comes after the destroy function,
 *    and advancing or dispatching the loop that runs the callback is refused;
 *  - two threads advancing a virtual loop 1 ms at a time move it exactly by the sum; a manual
 *    loop released during a 1 s run_for on another thread wakes it (it returns well before 1 s);
 *    a deadlock (callbacks of two loops calling each other's objects) is a libFuzzer timeout;
 *  - each destroy function (subscriptions, host services) runs exactly once: at the end of the
 *    input everything created is released and every destroy function has run once, and every
 *    handle the input ever saw is invalid (nothing leaks from one input to the next).
 *
 *
 * The same source builds three targets (FUZZ_TARGET), each against a library carrying the whole
 * ABI and the catalog (the sample's and the todo app's composed with it for the fuzzers:
 * Tests/fuzz/build.sh): 0, fuzz_abi, libcatalog.so; 1, fuzz_sample, Tests/outside's libsample.so,
 * whose classes hold every value kind, commands with several arguments, results and errors,
 * async commands and lists (Playlist, Board); 2, fuzz_todo, examples/todo's libtodo.so: its
 * list on a SpliceList, and its constructor given hostile storage paths. Op bytes below 200
 * (below 100 in targets 1 and 2) decode as they always have, so committed inputs keep their
 * meaning; the others are the newer operations (take_op), which also check:
 *  - values of every kind built hostile (nesting past MVVM_MAX_VALUE_DEPTH, values that contain
 *    themselves, more than 2^24 items or negative counts with NULL pointers, bytes holding NUL,
 *    invalid UTF-8, unknown kinds, `object` left as garbage for the kinds that do not use it)
 *    are refused with a documented status and change nothing; a value set is read back equal;
 *    every value the library hands out (mvvm_get, results, events, request arguments) is well
 *    formed, its copy (mvvm_value_copy) equal, its record fields found (mvvm_record_field), and
 *    mvvm_value_free leaves MVVM_TYPE_NONE;
 *  - mvvm_call, mvvm_call_named, mvvm_new_named with any names and counts; mvvm_call_async and
 *    mvvm_cancel: every call's completion runs exactly once (with the handle *out got, a
 *    documented status, a result or message as documented), then its destroy function once;
 *    completions call back in (read, copy, release the object or its loop, cancel, start more);
 *  - lists: each subscription to a list keeps a copy built from its splices, and during each
 *    splice mvvm_list_count and mvvm_list_item must show the list as that splice leaves it;
 *    after each operation every copy equals the list; a subscription made during a splice must
 *    not hear the rest of that change; callbacks that change the list they hear end at
 *    MVVM_MAX_NESTED_CALLS with MVVM_ERR_INVALID_ARGUMENT;
 *  - (fuzz_todo) the todo constructor given a FIFO, a device, a directory, a symlink loop, a
 *    huge or non-UTF-8 path, a file that is not a database: MVVM_ERR_INVALID_ARGUMENT within
 *    seconds, a short message, and every file untouched (nothing made beside them).
 * Op byte 255 (take_round_four_op) opens the operations of the fourth reliability round:
 *  - two threads release, unsubscribe or cancel one handle at once: exactly one is told MVVM_OK,
 *    and a call whose cancel won completed CANCELLED (op_race_end);
 *  - a cancel or release of a call against the advance or the loop release that ends it: a cancel
 *    told MVVM_OK decided the outcome (CANCELLED), LOOP_RELEASED is documented (op_race_cancel);
 *  - (fuzz_sample) values narrower than their C types, on Tests/outside's Booking: an enum that
 *    is no case, a malformed reference, a record its init(from:) refuses, Floats beyond range,
 *    through set, call, send, an async call and the constructor: taken or INVALID_ARGUMENT, never
 *    a crash; a refused set changes nothing (op_narrow_values).
 *
 * Build and run: Tests/fuzz/build.sh, Tests/fuzz/run.sh SECONDS (0 replays the corpora only).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "mvvm_catalog.h" /* the catalog's typed calls, and mvvm.h */

#ifndef FUZZ_TARGET
#define FUZZ_TARGET 0 /* 0: libcatalog.so (the catalog); 1: libsample.so; 2: libtodo.so */
#endif

/* ------------------------------------------------------------------------------------------ */
/* Failing                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The call being checked, for the report (per thread: thread loops call back on their own). */
static _Thread_local const char *current_call = "";

#if FUZZ_TARGET == 2
static void remove_scratch(void);
#endif

static void fail(const char *file, int line, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "\nfuzz_abi: invariant broken at %s:%d (in %s): ", file, line, current_call);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\n  mvvm_last_error(): \"%s\"\n", mvvm_last_error());
    fflush(stderr);
#if FUZZ_TARGET == 2
    remove_scratch(); /* abort() runs no atexit handler */
#endif
    abort();
}
#define FAIL(...) fail(__FILE__, __LINE__, __VA_ARGS__)
#define REQUIRE(cond)                                   \
    do {                                                \
        if (!(cond)) FAIL("%s does not hold", #cond);   \
    } while (0)

#define B(status) (1u << (status))
/* The statuses mvvm.h documents per function. */
#define S_GET (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
               B(MVVM_ERR_UNKNOWN_NAME) | B(MVVM_ERR_TYPE_MISMATCH) | B(MVVM_ERR_LOOP_RELEASED) |           \
               B(MVVM_ERR_INVALID_ARGUMENT) /* a name of bad UTF-8 */)
#define S_SET (S_GET | B(MVVM_ERR_READ_ONLY) | B(MVVM_ERR_INVALID_ARGUMENT))
#define S_SEND (S_GET | B(MVVM_ERR_INVALID_ARGUMENT) | B(MVVM_ERR_COMMAND_FAILED))
#define S_CALL S_SEND
#define S_CALL_ASYNC S_GET /* and INVALID_ARGUMENT, which S_GET has */
#define S_CANCEL (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_LOOP_RELEASED))
#define S_COPY (B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER) | B(MVVM_ERR_INVALID_ARGUMENT))
#define S_FIELD (B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER) | B(MVVM_ERR_TYPE_MISMATCH) | B(MVVM_ERR_UNKNOWN_NAME) | \
                 B(MVVM_ERR_INVALID_ARGUMENT))
#define S_LIST S_GET
#define S_OBJECT_ID (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
                     B(MVVM_ERR_LOOP_RELEASED))
#define S_CHILD (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
                 B(MVVM_ERR_UNKNOWN_NAME) | B(MVVM_ERR_LOOP_RELEASED) | B(MVVM_ERR_INVALID_ARGUMENT))
#define S_CLASS (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_NULL_POINTER))
#define S_JSON (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
                B(MVVM_ERR_LOOP_RELEASED))
#define S_RELEASE (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE))
#define S_SUBSCRIBE (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
                     B(MVVM_ERR_UNKNOWN_NAME) | B(MVVM_ERR_INVALID_ARGUMENT) | B(MVVM_ERR_LOOP_RELEASED))
#define S_UNSUBSCRIBE (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE))
#define S_COMPLETE (B(MVVM_OK) | B(MVVM_ERR_UNKNOWN_REQUEST) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | \
                    B(MVVM_ERR_NULL_POINTER) | B(MVVM_ERR_TYPE_MISMATCH) | B(MVVM_ERR_INVALID_ARGUMENT) |          \
                    B(MVVM_ERR_LOOP_RELEASED))
/* mvvm_complete's (its INVALID_ARGUMENT is bad UTF-8 only: no nesting limit). */
#define S_COMPLETE_SOON S_COMPLETE
#define S_NEW (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
               B(MVVM_ERR_INVALID_ARGUMENT) | B(MVVM_ERR_LOOP_RELEASED))
#define S_MVVM_NEW (S_NEW | B(MVVM_ERR_UNKNOWN_NAME) | B(MVVM_ERR_TYPE_MISMATCH))
#define S_SERVICE_NEW (B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER))
#define S_LOOP_NEW (B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER) | B(MVVM_ERR_INVALID_ARGUMENT) | B(MVVM_ERR_INTERNAL))
#define S_LOOP_FD (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER) | \
                   B(MVVM_ERR_WRONG_LOOP_KIND))
#define S_LOOP_RUN (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_WRONG_LOOP_KIND) | \
                    B(MVVM_ERR_INVALID_ARGUMENT))
#define S_LOOP_QUERY (B(MVVM_OK) | B(MVVM_ERR_INVALID_HANDLE) | B(MVVM_ERR_WRONG_TYPE) | B(MVVM_ERR_NULL_POINTER))

/* FUZZ_TRACE=1 prints every call and its status (to replay a finding by hand); FUZZ_TRACE=ops
 * prints where each operation starts in the input. */
static int trace = -1;
static bool trace_ops(void) {
    static int ops = -1;
    if (ops < 0) ops = getenv("FUZZ_TRACE") && strcmp(getenv("FUZZ_TRACE"), "ops") == 0;
    return ops;
}

/* Checks a status against the documented set; a failure must leave a message. */
static mvvm_status checked(mvvm_status status, unsigned allowed, const char *call) {
    current_call = call;
    if (trace < 0) trace = getenv("FUZZ_TRACE") && strcmp(getenv("FUZZ_TRACE"), "1") == 0;
    if (trace) fprintf(stderr, "  %s -> %s\n", call, mvvm_status_name(status));
    if ((unsigned)status > MVVM_ERR_WRONG_THREAD) FAIL("status %u is not one of mvvm.h's", (unsigned)status);
    if (!(allowed & B(status))) FAIL("status %s is not documented for this call", mvvm_status_name(status));
    if (status != MVVM_OK) {
        const char *error = mvvm_last_error();
        if (!error || !error[0]) FAIL("%s without a message in mvvm_last_error()", mvvm_status_name(status));
    }
    return status;
}
#define CALL(call, allowed) checked((call), (allowed), #call)

/* ------------------------------------------------------------------------------------------ */
/* UTF-8, as Swift's String(validatingCString:) judges it                                     */
/* ------------------------------------------------------------------------------------------ */

/* The `n` bytes at `s` (NUL included, as a string the library hands out may hold). */
static bool utf8_valid_n(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        int n;
        uint32_t cp;
        if ((*p & 0xE0) == 0xC0) n = 1, cp = *p & 0x1F;
        else if ((*p & 0xF0) == 0xE0) n = 2, cp = *p & 0x0F;
        else if ((*p & 0xF8) == 0xF0) n = 3, cp = *p & 0x07;
        else return false;
        if (end - p <= n) return false;
        for (int i = 1; i <= n; i++) {
            if ((p[i] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += n + 1;
    }
    return true;
}

static bool utf8_valid(const char *s) { return utf8_valid_n(s, strlen(s)); }

/* ------------------------------------------------------------------------------------------ */
/* Reading the input                                                                          */
/* ------------------------------------------------------------------------------------------ */

static const mvvm_handle SENTINEL = 0xDEADBEEFCAFEF00DULL;

typedef struct reader {
    const uint8_t *data;
    size_t size, pos;
} reader;

static uint8_t u8(reader *r) { return r->pos < r->size ? r->data[r->pos++] : 0; }
static bool exhausted(const reader *r) { return r->pos >= r->size; }
static uint64_t u64(reader *r) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | u8(r);
    return v;
}

/* Every name the catalog knows, and some it does not. */
static const char *const known_names[] = {
    "full_count", "count", "remaining_time", "is_doing", "is_show_alert", "is_stop_enabled", "is_play_timer",
    "time_ms", "state", "time", "main_action_title", "clear_action_title", "main_action_enabled",
    "clear_action_enabled", "input", "label", "message", "user_id", "password", "confirm_password", "agreed",
    "is_completion_alert_presented", "is_sign_up_enabled", "read_me", "start", "pause", "stop", "reset", "tapped",
    "main_action", "clear_action", "sign_up_tapped", "view_did_load", "tap_button", "increment", "decrement",
    "resume", "clear", "on_show_welcome", "on_show_text", "on_show_only_first", "display", "player",
    "first_counter", "second_counter", "", "COUNT", "count ", "user_id\xff", "\xc0\xaf",
#if FUZZ_TARGET != 0
    /* Tests/outside's classes (the sample library), then the todo app's, then their arguments
     * and record fields. Appended: the catalog target's indices above never change. */
    "first", "last", "full_name", "limit", "tags", "scores", "address", "avatar", "saves", "move_tag", "contact",
    "save", "saved", "load", "ping", "description", "closed", "handle", "loop", "id", "class", "log", "bind",
    "close", "subscribe", "unsubscribe", "get", "set", "describe", "snapshot", "send", "move", "items", "prices",
    "budget", "home", "total", "add", "item", "name", "greeting", "greet_count", "greet", "greeted", "step",
    "title", "is_even", "add_many", "songs", "all", "filter", "remove_first", "reverse", "rotate", "sort_by_title",
    "tallies", "remove_odd", "new_todo_title", "active_count", "completed_count", "items_left", "storage_error",
    "all_completed", "has_todos", "is_clear_completed_visible", "clear_completed", "completed", "is_editing",
    "edit_text", "begin_edit", "commit_edit", "cancel_edit", "destroy", "from", "to", "street", "city",
    "zip_code", "index", "price", "text", "start", "times", "titles", "storage_path", "count", "seed",
    /* Booking (values narrower than their C types) and Finder (an async command over a service). */
    "urgency", "reference", "stay", "rate", "rates", "booked", "mark", "refer", "stay_for", "book", "nights",
    "find", "is_finding", "found", "cancellations", "query", "delay",
#endif
};
#define KNOWN_NAMES (sizeof known_names / sizeof known_names[0])

/* Strings worth trying as values. */
static const char *const known_strings[] = {
    "", "start", "pause", "stop", "abcdef", "abcde", "password1", "passwor", "password", "user-1",
    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7", "e\xcc\x81", "\"quoted\\\"\n\t",
    "\xff\xfe", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "ok\x80", "Start", "\x01\x1f",
};
#define KNOWN_STRINGS (sizeof known_strings / sizeof known_strings[0])

/* Text worth trying for each of the description's kinds of string (`"type": "uuid"` ...): what its
 * grammar takes, and what Foundation's lenient parsers would take but the library refuses. Added
 * to the strings when the library's description has a member of that kind (learn_names). */
static const struct { const char *kind; const char *texts[5]; } kind_strings[] = {
    { "\"type\": \"uuid\"", { "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                              "e621e1f8-c36c-495a-93fc-0c247a3e6e5", "not-a-uuid" } },
    { "\"type\": \"decimal\"", { "1.50", "-1e-128", "1e165", "1.2.3", "NaN" } },
    { "\"type\": \"url\"", { "https://\xe4\xbe\x8b.jp/a b", "not a url", "mailto:", "file:///tmp" } },
};

/* What the library's own description names (members, arguments, record fields) beyond the lists
 * above, and the kinds' texts, learnt at start-up (learn_names): a class or a kind added to a
 * library is driven with no edit here. Appended, so the lists' own entries come first. */
#define LEARNT_MAX 512
static const char *learnt_names[LEARNT_MAX];
static size_t nlearnt_names;
static const char *learnt_strings[LEARNT_MAX];
static size_t nlearnt_strings;

static const char *name_at(size_t i) {
    i %= KNOWN_NAMES + nlearnt_names;
    return i < KNOWN_NAMES ? known_names[i] : learnt_names[i - KNOWN_NAMES];
}

static const char *string_at(size_t i) {
    i %= KNOWN_STRINGS + nlearnt_strings;
    return i < KNOWN_STRINGS ? known_strings[i] : learnt_strings[i - KNOWN_STRINGS];
}

static bool is_known_name(const char *name, size_t length) {
    for (size_t i = 0; i < KNOWN_NAMES + nlearnt_names; i++) {
        const char *known = name_at(i);
        if (strlen(known) == length && memcmp(known, name, length) == 0) return true;
    }
    return false;
}

/* Every `"name": "..."` of the description (a member's, an argument's, a field's) not known yet,
 * and the texts of each kind of string it uses. */
static void learn_names(const char *json) {
    for (const char *p = json; (p = strstr(p, "\"name\": \"")) != NULL && nlearnt_names < LEARNT_MAX;) {
        p += strlen("\"name\": \"");
        const char *end = strchr(p, '"');
        if (!end) break;
        if (!is_known_name(p, (size_t)(end - p))) learnt_names[nlearnt_names++] = strndup(p, (size_t)(end - p));
        p = end;
    }
    for (size_t k = 0; k < sizeof kind_strings / sizeof kind_strings[0]; k++) {
        if (!strstr(json, kind_strings[k].kind)) continue;
        for (size_t t = 0; t < 5 && kind_strings[k].texts[t] && nlearnt_strings < LEARNT_MAX; t++)
            learnt_strings[nlearnt_strings++] = kind_strings[k].texts[t];
    }
}

#define TEXT_MAX 40

/* A string from the input: a known one, or raw bytes (NUL-terminated, perhaps invalid UTF-8). */
static void take_text(reader *r, char out[TEXT_MAX], bool names) {
    uint8_t b = u8(r);
    if (b < 160) {
        const char *s = names ? name_at(b) : string_at(b);
        snprintf(out, TEXT_MAX, "%s", s);
        return;
    }
    size_t n = (size_t)(b - 160) % (TEXT_MAX - 1);
    for (size_t i = 0; i < n; i++) out[i] = (char)u8(r);
    out[n] = '\0';
}

/* A name, or NULL now and then. */
static const char *take_name(reader *r, char buffer[TEXT_MAX]) {
    if (u8(r) == 0xFF) return NULL;
    take_text(r, buffer, true);
    return buffer;
}

/* A value of any type (unknown types included); its string lives in `text`. */
static mvvm_value take_value(reader *r, char text[TEXT_MAX]) {
    mvvm_value v;
    memset(&v, 0, sizeof v);
    uint8_t t = u8(r);
    v.type = t < 240 ? (mvvm_type)(t % 5) : (mvvm_type)(t == 255 ? 0x7FFFFFFF : t);
    v.boolean = u8(r) & 1;
    uint8_t k = u8(r);
    v.integer = k < 128 ? (int64_t)(k % 8) - 2 : (int64_t)u64(r);
    uint64_t bits = k & 1 ? u64(r) : 0;
    memcpy(&v.number, &bits, sizeof v.number);
    if (u8(r) == 0xFF) v.string = NULL;
    else {
        take_text(r, text, false);
        v.string = text;
    }
    return v;
}

static bool value_clean(const mvvm_value *v) {
    if ((unsigned)v->type > MVVM_TYPE_STRING) return false;
    if (v->type == MVVM_TYPE_STRING) return v->string && utf8_valid(v->string);
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Values of every kind: built hostile, and checked as the library hands them out             */
/* ------------------------------------------------------------------------------------------ */

#define MAX_ITEMS (1 << 24) /* the most items mvvm.h lets one array, record or map hold */

/* The library's values (mvvm_get, results, events, request arguments, copies): the kinds it
 * hands out, strings UTF-8 with `integer` their length and a NUL after them, bytes with a NUL
 * after them, items where MVVM_VALUE_ITEMS says, records named. */
static void value_check_out(const mvvm_value *v, int depth, const char *what) {
    if (depth > MVVM_MAX_VALUE_DEPTH + 1) FAIL("%s nests deeper than MVVM_MAX_VALUE_DEPTH", what);
    switch (v->type) {
    case MVVM_TYPE_NONE: case MVVM_TYPE_NULL: case MVVM_TYPE_BOOL: case MVVM_TYPE_INT: case MVVM_TYPE_DOUBLE: break;
    case MVVM_TYPE_STRING:
        if (!v->string || v->integer < 0) FAIL("%s: a string with no text or a negative length", what);
        if (v->string[v->integer] != '\0') FAIL("%s: a string not NUL-terminated at its length", what);
        if (!utf8_valid_n(v->string, (size_t)v->integer)) FAIL("%s: a string that is not UTF-8", what);
        break;
    case MVVM_TYPE_BYTES:
        if (v->integer < 0 || (v->integer > 0 && !v->string)) FAIL("%s: bytes with a bad count or no pointer", what);
        if (v->string && v->string[v->integer] != '\0') FAIL("%s: bytes without a NUL after them", what);
        break;
    case MVVM_TYPE_RECORD:
        if (!v->string || !v->string[0] || !utf8_valid(v->string)) FAIL("%s: a record without a name", what);
        /* fall through */
    case MVVM_TYPE_ARRAY: {
        if (v->integer < 0 || v->integer > MAX_ITEMS) FAIL("%s: %" PRId64 " items", what, v->integer);
        const mvvm_value *items = MVVM_VALUE_ITEMS(v);
        if (v->integer > 0 && !items) FAIL("%s: items without a pointer", what);
        for (int64_t i = 0; i < v->integer; i++) value_check_out(&items[i], depth + 1, what);
        break;
    }
    default: FAIL("%s: a value of type %d handed out", what, (int)v->type);
    }
}

static bool same_double(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* Two values the library handed out: equal in every field their kind uses. */
static bool value_equal(const mvvm_value *a, const mvvm_value *b) {
    if (a->type != b->type) return false;
    switch (a->type) {
    case MVVM_TYPE_BOOL: return a->boolean == b->boolean;
    case MVVM_TYPE_INT: return a->integer == b->integer;
    case MVVM_TYPE_DOUBLE: return same_double(a->number, b->number);
    case MVVM_TYPE_STRING: case MVVM_TYPE_BYTES:
        return a->integer == b->integer && (a->integer == 0 || memcmp(a->string, b->string, (size_t)a->integer) == 0);
    case MVVM_TYPE_RECORD:
        if (strcmp(a->string, b->string) != 0) return false;
        /* fall through */
    case MVVM_TYPE_ARRAY:
        if (a->integer != b->integer) return false;
        for (int64_t i = 0; i < a->integer; i++)
            if (!value_equal(&MVVM_VALUE_ITEMS(a)[i], &MVVM_VALUE_ITEMS(b)[i])) return false;
        return true;
    default: return true;
    }
}

/* A value a host built (`set`) against what the library read back (`got`): 1 equal, 0 not,
 * -1 when a conversion stands between them (an int for a double, a map for a record...). */
static int value_matches(const mvvm_value *set, const mvvm_value *got) {
    if (set->type == MVVM_TYPE_BYTES && got->type == MVVM_TYPE_STRING) {
        return set->integer == got->integer && (set->integer == 0 || memcmp(set->string, got->string, (size_t)set->integer) == 0);
    }
    if (set->type == MVVM_TYPE_UINT && got->type == MVVM_TYPE_INT) return set->integer == got->integer;
    if (set->type != got->type) return -1;
    switch (set->type) {
    case MVVM_TYPE_NULL: return 1;
    case MVVM_TYPE_BOOL: return set->boolean == got->boolean;
    case MVVM_TYPE_INT: return set->integer == got->integer;
    case MVVM_TYPE_DOUBLE: return same_double(set->number, got->number);
    case MVVM_TYPE_STRING: return strlen(set->string) == (size_t)got->integer && memcmp(set->string, got->string, (size_t)got->integer) == 0;
    case MVVM_TYPE_BYTES: return set->integer == got->integer && (set->integer == 0 || memcmp(set->string, got->string, (size_t)set->integer) == 0);
    case MVVM_TYPE_ARRAY: case MVVM_TYPE_RECORD: {
        if (set->integer != got->integer) return set->type == MVVM_TYPE_RECORD ? -1 : 0;
        int result = 1;
        for (int64_t i = 0; i < set->integer && result != 0; i++) {
            int item = value_matches(&MVVM_VALUE_ITEMS(set)[i], &MVVM_VALUE_ITEMS(got)[i]);
            if (item < result) result = item;
        }
        return result;
    }
    default: return -1;
    }
}

/* The names of records and their fields, for mvvm_record_field. */
static const char *const field_names[] = { "street", "city", "zip_code", "name", "address", "tags", "", "STREET",
                                          "city\xff", "zip_code ", "nope" };

/* Everything a host may do with a value it was given or lent: copy it (equal), find its record
 * fields, free the copy (MVVM_TYPE_NONE after, and again a no-op). Recurses into items. */
static void value_exercise(const mvvm_value *v, int depth) {
    mvvm_value copy;
    memset(&copy, 0x5A, sizeof copy);
    if (CALL(mvvm_value_copy(v, &copy), S_COPY) != MVVM_OK) FAIL("a value the library handed out could not be copied");
    value_check_out(&copy, 0, "a copy");
    if (!value_equal(v, &copy)) FAIL("a copy differs from its value");
    if (v->type == MVVM_TYPE_RECORD) {
        for (size_t i = 0; i < sizeof field_names / sizeof field_names[0]; i++) {
            const mvvm_value *field = (const mvvm_value *)(uintptr_t)1;
            mvvm_status status = CALL(mvvm_record_field(&copy, field_names[i], &field), S_FIELD);
            if (status == MVVM_OK) {
                const mvvm_value *items = MVVM_VALUE_ITEMS(&copy);
                if (field < items || field >= items + copy.integer) FAIL("a record field outside its record");
            } else {
                if (field != (const mvvm_value *)(uintptr_t)1) FAIL("a failed mvvm_record_field wrote its out-pointer");
                if (status != MVVM_ERR_UNKNOWN_NAME && status != MVVM_ERR_INVALID_ARGUMENT)
                    FAIL("a field of a record the library gave: %s", mvvm_status_name(status));
            }
        }
    } else {
        const mvvm_value *field = NULL;
        if (CALL(mvvm_record_field(&copy, "street", &field), S_FIELD) != MVVM_ERR_TYPE_MISMATCH)
            FAIL("mvvm_record_field took a value that is no record");
    }
    if ((v->type == MVVM_TYPE_ARRAY || v->type == MVVM_TYPE_RECORD) && depth < 4)
        for (int64_t i = 0; i < v->integer && i < 8; i++) value_exercise(&MVVM_VALUE_ITEMS(v)[i], depth + 1);
    mvvm_value_free(&copy);
    if (copy.type != MVVM_TYPE_NONE) FAIL("mvvm_value_free left type %d", (int)copy.type);
    mvvm_value_free(&copy);
}

/* A host's values, built in one arena per operation (main thread only). */
#define NODES 1024
#define TEXTS 96
typedef struct vbuild {
    mvvm_value nodes[NODES];
    int used;
    char texts[TEXTS][TEXT_MAX];
    int ntexts;
    bool for_copy; /* strings get their length in `integer`, as mvvm_value_copy reads them */
} vbuild;
static vbuild arena;

static mvvm_value *new_nodes(vbuild *b, int n) {
    if (b->used + n > NODES) return NULL;
    mvvm_value *v = &b->nodes[b->used];
    b->used += n;
    memset(v, 0, sizeof *v * (size_t)n);
    return v;
}

static char *new_text(vbuild *b) { return b->ntexts < TEXTS ? b->texts[b->ntexts++] : b->texts[TEXTS - 1]; }

static mvvm_handle take_handle(reader *r, int *index);

/* Counts worth trying for arrays, records, maps and bytes: the ones past the limit and the
 * negative ones go with a NULL pointer (the host's pointers must be valid for its counts). */
static int64_t hostile_count(reader *r) {
    static const int64_t counts[] = { -1, INT64_MIN, MAX_ITEMS + 1, INT64_MAX, MAX_ITEMS, (int64_t)1 << 40, 3, -MAX_ITEMS };
    return counts[u8(r) % (sizeof counts / sizeof counts[0])];
}

static mvvm_value *take_deep_value(reader *r, vbuild *b, int depth);

/* Fills a container of `count` items (pairs for a map) from the input. */
static void fill_items(reader *r, vbuild *b, mvvm_value *v, int count, int depth) {
    int n = v->type == MVVM_TYPE_MAP ? 2 * count : count;
    mvvm_value *items = new_nodes(b, n);
    if (!items) {
        v->integer = 0;
        return;
    }
    for (int i = 0; i < n; i++) {
        if (v->type == MVVM_TYPE_MAP && i % 2 == 0 && u8(r) < 200) {
            items[i].type = MVVM_TYPE_STRING;
            char *t = new_text(b);
            snprintf(t, TEXT_MAX, "%s", field_names[u8(r) % (sizeof field_names / sizeof field_names[0])]);
            items[i].string = t;
            items[i].integer = (int64_t)strlen(t);
        } else {
            items[i] = *take_deep_value(r, b, depth + 1);
        }
    }
    v->integer = count;
    MVVM_VALUE_SET_ITEMS(v, items);
}

/* Well-formed values of the sample's kinds, so that sets and calls get past the type checks. */
static void take_recipe(reader *r, vbuild *b, mvvm_value *v, int depth) {
    uint8_t which = u8(r) % 8;
    int n = u8(r) % 4;
    switch (which) {
    case 0: /* [String] */
    case 1: { /* [Double?] */
        v->type = MVVM_TYPE_ARRAY;
        mvvm_value *items = new_nodes(b, n);
        if (!items) return;
        for (int i = 0; i < n; i++) {
            if (which == 0) {
                char *t = new_text(b);
                take_text(r, t, false);
                items[i].type = MVVM_TYPE_STRING, items[i].string = t, items[i].integer = (int64_t)strlen(t);
            } else {
                uint8_t k = u8(r);
                items[i].type = k < 64 ? MVVM_TYPE_NULL : k < 128 ? MVVM_TYPE_INT : MVVM_TYPE_DOUBLE;
                items[i].integer = k % 7;
                items[i].number = k / 3.0;
            }
        }
        v->integer = n;
        MVVM_VALUE_SET_ITEMS(v, items);
        break;
    }
    case 2: /* an address by its fields' names */
    case 3: { /* an address, or a contact, in order */
        bool contact = which == 3 && (n & 1) && depth < 4;
        v->type = which == 2 ? MVVM_TYPE_MAP : MVVM_TYPE_RECORD;
        int fields = contact ? 3 : 2 + (n >> 1);
        mvvm_value *items = new_nodes(b, which == 2 ? 2 * fields : fields);
        if (!items) return;
        static const char *const address[] = { "street", "city", "zip_code" };
        static const char *const contact_fields[] = { "name", "address", "tags" };
        for (int i = 0; i < fields; i++) {
            mvvm_value *item = which == 2 ? &items[2 * i + 1] : &items[i];
            if (which == 2) {
                items[2 * i].type = MVVM_TYPE_STRING;
                items[2 * i].string = contact ? contact_fields[i] : address[i];
                items[2 * i].integer = (int64_t)strlen(items[2 * i].string);
            }
            if (contact && i == 1) {
                v->string = u8(r) & 1 ? NULL : "contact";
                memset(item, 0, sizeof *item); /* the address: a record, in order */
                item->type = MVVM_TYPE_RECORD;
                mvvm_value *fields2 = new_nodes(b, 2);
                if (!fields2) return;
                for (int j = 0; j < 2; j++) fields2[j].type = MVVM_TYPE_STRING, fields2[j].string = "Main St";
                fields2[0].integer = fields2[1].integer = 7;
                item->integer = 2;
                MVVM_VALUE_SET_ITEMS(item, fields2);
            } else if (contact && i == 2) {
                item->type = MVVM_TYPE_ARRAY;
            } else if (i == 2 && (u8(r) & 1)) {
                item->type = MVVM_TYPE_NULL;
            } else {
                char *t = new_text(b);
                take_text(r, t, false);
                item->type = MVVM_TYPE_STRING, item->string = t, item->integer = (int64_t)strlen(t);
            }
        }
        v->integer = fields;
        MVVM_VALUE_SET_ITEMS(v, items);
        break;
    }
    case 4: { /* bytes, NUL and bad UTF-8 included */
        char *t = new_text(b);
        int len = u8(r) % (TEXT_MAX - 1);
        for (int i = 0; i < len; i++) t[i] = (char)u8(r);
        v->type = MVVM_TYPE_BYTES, v->string = t, v->integer = len;
        break;
    }
    case 5: v->type = MVVM_TYPE_NULL; break;
    case 6: v->type = MVVM_TYPE_INT, v->integer = (int64_t)(u8(r) % 9) - 2; break;
    default: v->type = MVVM_TYPE_UINT, v->integer = (int64_t)u64(r); break;
    }
}

/* A value of any kind, or hostile: nested deeper than MVVM_MAX_VALUE_DEPTH, containing itself,
 * with counts past the limit, negative or with NULL pointers, unknown kinds. */
static mvvm_value *take_deep_value(reader *r, vbuild *b, int depth) {
    static mvvm_value spare;
    mvvm_value *v = new_nodes(b, 1);
    if (!v) {
        memset(&spare, 0, sizeof spare);
        return &spare;
    }
    uint8_t k = u8(r);
    /* The kinds that do not use `object` must not read it: a 0.2 host leaves it unset. */
    if (u8(r) & 1) v->object = (mvvm_handle)0xBAD0BAD0BAD0BAD0ULL;
    if (k >= 224) {
        take_recipe(r, b, v, depth);
        return v;
    }
    switch (k % 16) {
    case 0: v->type = MVVM_TYPE_NONE; break;
    case 1: v->type = MVVM_TYPE_BOOL, v->boolean = u8(r) & 1; break;
    case 2: case 8: {
        static const int64_t ints[] = { 0, 1, -1, 2, 5, 100, INT64_MAX, INT64_MIN, (int64_t)1 << 53, 255, 256, 65536 };
        v->type = k % 16 == 2 ? MVVM_TYPE_INT : MVVM_TYPE_UINT;
        uint8_t i = u8(r);
        v->integer = i < 200 ? ints[i % (sizeof ints / sizeof ints[0])] : (int64_t)u64(r);
        break;
    }
    case 3: {
        static const double doubles[] = { 0.0, -0.0, 1.5, -2.25, 1e300, 9007199254740993.0, 1e-310 };
        v->type = MVVM_TYPE_DOUBLE;
        uint8_t i = u8(r);
        v->number = i < 7 ? doubles[i] : i < 9 ? NAN : i < 11 ? (i & 1 ? INFINITY : -INFINITY) : (double)(int8_t)i;
        break;
    }
    case 4: {
        v->type = MVVM_TYPE_STRING;
        uint8_t s = u8(r);
        if (s == 0xFF) {
            v->string = NULL;
        } else {
            char *t = new_text(b);
            take_text(r, t, s & 1);
            v->string = t;
        }
        /* `integer` is not a host string's length (NUL ends it): garbage must not matter,
         * except to mvvm_value_copy, which reads strings by their lengths. */
        v->integer = b->for_copy && v->string ? (int64_t)strlen(v->string) : (int64_t)u8(r) * 1000003;
        break;
    }
    case 5: {
        int index;
        v->type = MVVM_TYPE_OBJECT;
        v->object = take_handle(r, &index);
        break;
    }
    case 6: v->type = MVVM_TYPE_LIST; break;
    case 7: v->type = MVVM_TYPE_NULL; break;
    case 9: {
        v->type = MVVM_TYPE_BYTES;
        uint8_t c = u8(r);
        if (c < 200) {
            char *t = new_text(b);
            int len = c % (TEXT_MAX - 1);
            for (int i = 0; i < len; i++) t[i] = (char)u8(r);
            v->string = len || (c & 1) ? t : NULL;
            v->integer = len;
        } else {
            v->string = NULL;
            v->integer = c < 230 ? hostile_count(r) : 1 + u8(r);
        }
        break;
    }
    case 10: case 11: case 12: {
        v->type = k % 16 == 10 ? MVVM_TYPE_ARRAY : k % 16 == 11 ? MVVM_TYPE_RECORD : MVVM_TYPE_MAP;
        if (v->type == MVVM_TYPE_RECORD) {
            uint8_t n = u8(r);
            v->string = n < 100 ? NULL : n < 170 ? "address" : n < 230 ? "contact" : "no_such_record";
        }
        uint8_t c = u8(r);
        v->object = 0;
        if (c < 224) fill_items(r, b, v, depth < 8 ? c % 5 : 0, depth);
        else v->integer = c < 240 ? hostile_count(r) : 1 + u8(r) % 4; /* and NULL for items */
        break;
    }
    case 13: v->type = (mvvm_type)(u8(r) < 128 ? 13 + u8(r) % 4 : -1); break;
    case 14: { /* arrays or records nested 28 to 40 deep */
        int levels = 28 + u8(r) % 13;
        mvvm_value *chain = new_nodes(b, levels);
        if (!chain) break;
        *v = (mvvm_value){ .type = MVVM_TYPE_ARRAY, .integer = 1 };
        MVVM_VALUE_SET_ITEMS(v, chain);
        for (int i = 0; i < levels; i++) {
            chain[i].type = (u8(r) & 1) ? MVVM_TYPE_ARRAY : MVVM_TYPE_RECORD;
            chain[i].integer = i + 1 < levels ? 1 : 0;
            if (i + 1 < levels) MVVM_VALUE_SET_ITEMS(&chain[i], &chain[i + 1]);
        }
        break;
    }
    default: { /* a value that contains itself, at once or through another */
        uint8_t c = u8(r);
        v->type = c % 3 == 0 ? MVVM_TYPE_ARRAY : c % 3 == 1 ? MVVM_TYPE_RECORD : MVVM_TYPE_MAP;
        if (c & 4) {
            v->integer = v->type == MVVM_TYPE_MAP ? 0 : 1;
            MVVM_VALUE_SET_ITEMS(v, v);
            if (v->type == MVVM_TYPE_MAP) {
                mvvm_value *pair = new_nodes(b, 2);
                if (!pair) break;
                pair[0].type = MVVM_TYPE_STRING, pair[0].string = "street", pair[0].integer = 6;
                pair[1] = *v;
                MVVM_VALUE_SET_ITEMS(&pair[1], pair);
                pair[1].integer = 1;
                v->integer = 1;
                MVVM_VALUE_SET_ITEMS(v, pair);
            }
        } else {
            mvvm_value *other = new_nodes(b, 1);
            if (!other) break;
            other->type = MVVM_TYPE_ARRAY, other->integer = 1;
            MVVM_VALUE_SET_ITEMS(other, v);
            v->integer = 1;
            if (v->type == MVVM_TYPE_MAP) v->type = MVVM_TYPE_ARRAY;
            MVVM_VALUE_SET_ITEMS(v, other);
        }
        break;
    }
    }
    return v;
}

/* Whether a host value could be accepted at all (the kinds a host may pass, well formed);
 * false means every call must refuse it. Nesting: containers deeper than
 * MVVM_MAX_VALUE_DEPTH + 1 levels are surely refused (the count at the limit is left open). */
static bool value_acceptable(const mvvm_value *v, int depth) {
    switch (v->type) {
    case MVVM_TYPE_NONE: case MVVM_TYPE_NULL: case MVVM_TYPE_BOOL: case MVVM_TYPE_INT: case MVVM_TYPE_UINT:
    case MVVM_TYPE_DOUBLE: case MVVM_TYPE_OBJECT:
        return true;
    case MVVM_TYPE_STRING: return v->string && utf8_valid(v->string);
    case MVVM_TYPE_BYTES: return v->integer >= 0 && v->integer <= INT32_MAX && (v->integer == 0 || v->string);
    case MVVM_TYPE_ARRAY: case MVVM_TYPE_RECORD: case MVVM_TYPE_MAP: {
        int64_t n = v->type == MVVM_TYPE_MAP ? 2 * v->integer : v->integer;
        if (depth > MVVM_MAX_VALUE_DEPTH) return false;
        if (v->type == MVVM_TYPE_RECORD && v->string && !utf8_valid(v->string)) return false; /* a name no record has */
        if (v->integer < 0 || v->integer > MAX_ITEMS || (n > 0 && !MVVM_VALUE_ITEMS(v))) return false;
        for (int64_t i = 0; i < n; i++) {
            const mvvm_value *item = &MVVM_VALUE_ITEMS(v)[i];
            if (v->type == MVVM_TYPE_MAP && i % 2 == 0 && item->type != MVVM_TYPE_STRING) return false;
            if (!value_acceptable(item, depth + 1)) return false;
        }
        return true;
    }
    default: return false;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* What one input created                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* An asynchronous call (mvvm_call_async): its completion and destroy function are counted. */
typedef struct async_data {
    atomic_int done, destroyed, destroyed_before_done;
    atomic_int status;
    mvvm_handle handle; /* *out: the library sets it before the call can end */
    mvvm_handle object, loop;
    int mode, target;
    bool started, expect_destroy;
} async_data;
#define ASYNCS 64
static async_data asyncs[ASYNCS];
static int nasyncs;

typedef enum kind { K_LOOP, K_OBJECT, K_SUBSCRIPTION, K_REQUEST, K_CALL } kind;

typedef struct entry {
    mvvm_handle h;
    kind kind;
    int loop_kind;   /* loops: their kind; objects: their loop's kind (-1 unknown) */
    mvvm_handle loop; /* objects: their loop */
    bool dead;       /* released by a call that said MVVM_OK: every later call must refuse it */
    bool answered;   /* requests: mvvm_complete_soon said MVVM_OK (the handle lives until the
                        loop applies the answer): no later answer may be taken */
    int async;       /* calls: their index in asyncs[] */
} entry;

#define POOL 128
static entry pool[POOL];
static int npool;
static pthread_t main_thread;
static int thread_loops; /* thread loops created by this input (each costs a thread) */

/* Increments whenever a callback or a service changed something, so that a set-then-get check
 * knows when another hand was at work. */
static atomic_int mutations;

static int find_entry(mvvm_handle h) {
    for (int i = 0; i < npool; i++)
        if (pool[i].h == h && h != 0) return i;
    return -1;
}

static void mark_dead(mvvm_handle h) {
    int i = find_entry(h);
    if (i >= 0) pool[i].dead = true;
}

/* After mvvm_release(h) said OK: h is invalid from now on. */
static void check_released(mvvm_handle h) {
    const char *name = NULL;
    if (CALL(mvvm_class_name(h, &name), S_CLASS) != MVVM_ERR_INVALID_HANDLE) FAIL("a released handle still has a class");
    if (CALL(mvvm_release(h), S_RELEASE) != MVVM_ERR_INVALID_HANDLE) FAIL("a released handle was released again");
    mark_dead(h);
}

/* Adds a new handle (main thread only); when the pool is full it is released at once. */
static void add_entry(mvvm_handle h, kind k, int loop_kind, mvvm_handle loop) {
    if (h == 0) FAIL("a call said MVVM_OK but gave handle 0");
    int existing = find_entry(h);
    if (existing >= 0 && !pool[existing].dead) FAIL("a new handle equals a live one: 0x%" PRIx64, h);
    if (npool == POOL) {
        if (CALL(mvvm_release(h), S_RELEASE) != MVVM_OK) FAIL("releasing a new handle failed");
        return;
    }
    pool[npool++] = (entry){ .h = h, .kind = k, .loop_kind = loop_kind, .loop = loop };
}

static void add_call_entry(mvvm_handle h, async_data *d, int loop_kind) {
    int before = npool;
    add_entry(h, K_CALL, loop_kind, d->loop);
    if (npool > before) pool[npool - 1].async = (int)(d - asyncs);
    else if (atomic_load(&d->done) != 1) FAIL("a call released at once did not complete");
}

/* Requests issued on a thread loop's thread wait here until the main thread adopts them. */
static pthread_mutex_t side_mutex = PTHREAD_MUTEX_INITIALIZER;
static mvvm_handle side_requests[64];
static int nside;

static void adopt_side_requests(void) {
    pthread_mutex_lock(&side_mutex);
    int n = nside;
    mvvm_handle taken[64];
    memcpy(taken, side_requests, sizeof(mvvm_handle) * (size_t)n);
    nside = 0;
    pthread_mutex_unlock(&side_mutex);
    for (int i = 0; i < n; i++) add_entry(taken[i], K_REQUEST, -1, 0);
}

/* A handle to use: from the pool (live or stale), zero, or forged. *index gets its pool index
 * when it is one of the pool's as it is (-1 otherwise). */
static mvvm_handle take_handle(reader *r, int *index) {
    uint8_t b = u8(r);
    *index = -1;
    if (b < 200 && npool > 0) {
        *index = b % npool;
        return pool[*index].h;
    }
    if (b < 215 || npool == 0) return b & 1 ? 0 : u64(r);
    if (b < 245) {
        mvvm_handle h = pool[u8(r) % npool].h ^ ((mvvm_handle)1 << (u8(r) % 64));
        int same = find_entry(h);
        if (same >= 0) *index = same;
        return h;
    }
    return u64(r);
}


/* Whether the pool entry at `index` is one released by us (every call must refuse it), or a
 * call whose completion ran. Asked before the call: a callback or a service may release the
 * handle during it. */
static bool known_dead(int index) {
    if (index < 0) return false;
    if (pool[index].dead) return true;
    return pool[index].kind == K_CALL && atomic_load(&asyncs[pool[index].async].done) > 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Callbacks                                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef enum cb_mode {
    CB_NOTHING, CB_SET, CB_SEND, CB_UNSUBSCRIBE_SELF, CB_RELEASE_SOURCE, CB_SUBSCRIBE_MORE, CB_ADVANCE_OWN_LOOP,
    CB_RELEASE_ANY, CB_SNAPSHOT, CB_COMPLETE_ANY, CB_CROSS_LOOP, CB_MODES
} cb_mode;

/* The last objects made, for CB_CROSS_LOOP callbacks on any thread: calls on an object of
 * another loop (a released one answers INVALID_HANDLE or LOOP_RELEASED). */
#define CROSS_TARGETS 4
static _Atomic mvvm_handle cross_targets[CROSS_TARGETS];
static int ncross;

/* A subscription's copy of one list, rebuilt from the splices it hears (object ids). */
#define MODEL_MAX 64
typedef struct list_model {
    const char *name;
    bool known;      /* ids hold the list as the splices heard so far leave it */
    bool late;       /* made during a splice of this list: must not hear the rest of that change */
    int mutations_at_subscribe;
    int n;
    int64_t ids[MODEL_MAX];
} list_model;

typedef struct sub_data {
    atomic_int destroyed;
    atomic_int calls;
    atomic_int in_callback;
    bool used;
    bool expect_destroy; /* subscribe was called with a callback: the destroy function must run once */
    cb_mode mode;
    mvvm_handle source, self, loop;
    int loop_kind;
    int target;          /* CB_RELEASE_ANY, CB_COMPLETE_ANY: a pool index */
    char name[TEXT_MAX];
    mvvm_value value;
    char text[TEXT_MAX];
    list_model models[2]; /* the source's lists this subscription hears (virtual and manual loops) */
    int nmodels;
    int fb_ok, fb_refused; /* changes made from splices of this operation, and refusals */
} sub_data;

#define SUBS 160
static sub_data subs[SUBS];
static int nsubs;

/* Counts a destroy function's run; a second run of the same one breaks the rule. */
static void count_destroy(atomic_int *destroyed, const char *whose) {
    if (atomic_fetch_add(destroyed, 1) != 0) FAIL("a %s's destroy function ran twice", whose);
}

static void sub_destroy(void *user_data) { count_destroy(&((sub_data *)user_data)->destroyed, "subscription"); }

#define FEEDBACK_BUDGET 1024
static bool is_class(mvvm_handle h, const char *cls);
static void tame_args(const char *command, mvvm_value *args, size_t count);

/* The getter of a notified property returns the event's value. */
static void read_back(mvvm_handle source, const mvvm_event *event) {
    mvvm_status status;
    switch (event->value.type) {
    case MVVM_TYPE_BOOL: {
        bool b = !event->value.boolean;
        status = CALL(mvvm_get_bool(source, event->name, &b), S_GET);
        if (status != MVVM_OK || b != event->value.boolean) FAIL("in a callback, bool %s read back differently", event->name);
        break;
    }
    case MVVM_TYPE_INT: {
        int64_t i = event->value.integer + 1;
        status = CALL(mvvm_get_int(source, event->name, &i), S_GET);
        if (status != MVVM_OK || i != event->value.integer)
            FAIL("in a callback, int %s = %" PRId64 " read back as %" PRId64, event->name, event->value.integer, i);
        break;
    }
    case MVVM_TYPE_STRING: {
        char *s = NULL;
        status = CALL(mvvm_get_string(source, event->name, &s), S_GET);
        if (status != MVVM_OK || !s || strcmp(s, event->value.string) != 0)
            FAIL("in a callback, string %s = \"%s\" read back as \"%s\"", event->name, event->value.string, s ? s : "(NULL)");
        mvvm_string_free(s);
        break;
    }
    case MVVM_TYPE_NONE: FAIL("a property event without a value");
    default: break;
    }
    /* Every kind, through mvvm_get: the same value. */
    mvvm_value got;
    memset(&got, 0, sizeof got);
    if (CALL(mvvm_get(source, event->name, &got), S_GET) != MVVM_OK) FAIL("in a callback, %s could not be read", event->name);
    value_check_out(&got, 0, "a value from mvvm_get");
    if (!value_equal(&got, &event->value)) FAIL("in a callback, %s read back with mvvm_get differently", event->name);
    mvvm_value_free(&got);
}

/* Lists: which classes have which (Tests/outside's and the todo app's). */
static int list_names_of(mvvm_handle h, const char *names[2]);
static bool in_loop_run; /* the operation runs the loop's time: several changes may come */

/* Reads a list whole: *n its count (also when longer than MODEL_MAX: then false), ids each
 * item's identity. False when it could not be read (released meanwhile...). */
static bool read_list(mvvm_handle h, const char *name, int64_t *ids, int *n) {
    int64_t count = -1;
    *n = -1;
    if (CALL(mvvm_list_count(h, name, &count), S_LIST) != MVVM_OK) return false;
    if (count < 0) FAIL("list %s has %" PRId64 " items", name, count);
    *n = count > INT32_MAX ? INT32_MAX : (int)count;
    if (count > MODEL_MAX) return false;
    for (int64_t i = 0; i < count; i++) {
        mvvm_handle item = SENTINEL;
        mvvm_status status = CALL(mvvm_list_item(h, name, i, &item), S_LIST);
        /* A read, as mvvm_list_count: it works MVVM_MAX_NESTED_CALLS deep too (seed
         * corpus-sample/playlist_callback_adds_to_the_list_it_hears). */
        if (status == MVVM_ERR_INVALID_ARGUMENT) FAIL("item %" PRId64 " of %s, of %" PRId64 " items, was refused", i, name, count);
        if (status != MVVM_OK) return false;
        int64_t id = -1;
        if (CALL(mvvm_object_id(item, &id), S_OBJECT_ID) != MVVM_OK) FAIL("an item of %s has no object id", name);
        if (CALL(mvvm_release(item), S_RELEASE) != MVVM_OK) FAIL("an item handle of %s would not release", name);
        ids[i] = id;
    }
    mvvm_handle past = SENTINEL;
    if (CALL(mvvm_list_item(h, name, count, &past), S_LIST) != MVVM_ERR_INVALID_ARGUMENT || past != SENTINEL)
        FAIL("item %" PRId64 " of %s, of %" PRId64 " items, was given", count, name, count);
    return true;
}

/* A new subscription's copies of the lists it hears. Made by the host outside callbacks: read
 * now. Made in a callback: unknown until the operation ends (the list as the splice being
 * delivered leaves it is not the list the next change starts from). */
static void setup_models(sub_data *d, mvvm_handle h, const char *name, const mvvm_event *during) {
    d->nmodels = 0;
    if (d->loop_kind != MVVM_LOOP_VIRTUAL && d->loop_kind != MVVM_LOOP_MANUAL) return;
    const char *names[2];
    int n = list_names_of(h, names);
    for (int i = 0; i < n; i++) {
        if (name && strcmp(name, names[i]) != 0) continue;
        list_model *m = &d->models[d->nmodels++];
        memset(m, 0, sizeof *m);
        m->name = names[i];
        if (during) {
            m->late = during->kind == MVVM_EVENT_SPLICE && strcmp(during->name, names[i]) == 0;
            m->mutations_at_subscribe = atomic_load(&mutations);
        } else {
            m->known = read_list(h, names[i], m->ids, &m->n);
        }
    }
}

/* A splice heard by a subscription: it fits the copy, and reads during it show the list as it
 * leaves it (the items it did not touch where they were, the count it says). */
static void check_splice(sub_data *d, mvvm_handle source, const mvvm_event *event) {
    if (event->value.type != MVVM_TYPE_NONE) FAIL("a splice with a value of type %d", (int)event->value.type);
    if (event->index < 0 || event->removed < 0 || event->inserted < 0 || event->removed + event->inserted == 0)
        FAIL("splice %" PRId64 " -%" PRId64 " +%" PRId64, event->index, event->removed, event->inserted);
    list_model *m = NULL;
    for (int i = 0; i < d->nmodels; i++)
        if (strcmp(d->models[i].name, event->name) == 0) m = &d->models[i];
    if (!m) {
        if (d->nmodels > 0) FAIL("a splice of %s, which it did not subscribe to", event->name);
        return;
    }
    if (!m->known) {
        if (m->late && atomic_load(&mutations) == m->mutations_at_subscribe && !in_loop_run)
            FAIL("a subscription made during a splice of %s heard the rest of that change", event->name);
        return;
    }
    if (event->index + event->removed > m->n)
        FAIL("splice %" PRId64 " -%" PRId64 " +%" PRId64 " of %s does not fit a copy of %d items", event->index,
             event->removed, event->inserted, event->name, m->n);
    int expected = m->n - (int)event->removed + (int)event->inserted;
    int64_t now[MODEL_MAX];
    int n = 0;
    bool whole = read_list(source, event->name, now, &n);
    if (n < 0) {
        m->known = false;
        return;
    }
    if (n != expected)
        FAIL("during splice %" PRId64 " -%" PRId64 " +%" PRId64 " of %s, the list has %d items; the copy it leaves has %d",
             event->index, event->removed, event->inserted, event->name, n, expected);
    if (!whole) {
        m->known = false;
        return;
    }
    int at = (int)event->index;
    for (int i = 0; i < at; i++)
        if (now[i] != m->ids[i]) FAIL("during a splice at %d of %s, item %d is not the one before it", at, event->name, i);
    for (int i = at + (int)event->inserted; i < n; i++)
        if (now[i] != m->ids[i - (int)event->inserted + (int)event->removed])
            FAIL("during splice %d -%" PRId64 " +%" PRId64 " of %s, item %d is not the one the copy has there", at,
                 event->removed, event->inserted, event->name, i);
    memcpy(m->ids, now, sizeof now[0] * (size_t)n);
    m->n = n;
}

static sub_data *new_sub_data(void);
static void callback(mvvm_handle source, const mvvm_event *event, void *user_data);

static void callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    sub_data *d = user_data;
    const char *saved_call = current_call;
    if (atomic_load(&d->destroyed)) FAIL("a callback ran after its destroy function");
    atomic_fetch_add(&d->calls, 1);
    atomic_fetch_add(&d->in_callback, 1);
    if (!event) FAIL("a NULL event");
    if (source != d->source) FAIL("the event's source is not the subscribed object");
    if (!event->name || !event->name[0]) FAIL("an event without a name");
    if (event->kind != MVVM_EVENT_PROPERTY && event->kind != MVVM_EVENT_SIGNAL && event->kind != MVVM_EVENT_SPLICE)
        FAIL("event kind %d", (int)event->kind);
    value_check_out(&event->value, 0, "an event's value");
    if (event->kind != MVVM_EVENT_SPLICE && (event->index || event->removed || event->inserted))
        FAIL("a %s event with splice fields", event->kind == MVVM_EVENT_PROPERTY ? "property" : "signal");
    if (event->kind == MVVM_EVENT_PROPERTY) read_back(source, event);
    /* A lent value is kept by copying it (mvvm_value_copy), never by freeing it. */
    value_exercise(&event->value, 0);

    bool on_main = pthread_equal(pthread_self(), main_thread);
    if (on_main && event->kind == MVVM_EVENT_SPLICE) check_splice(d, source, event);
    if (on_main) {
        switch (d->mode) {
        case CB_NOTHING: break;
        case CB_SET:
            atomic_fetch_add(&mutations, 1);
            switch (d->value.type) {
            case MVVM_TYPE_BOOL: CALL(mvvm_set_bool(source, d->name, d->value.boolean), S_SET); break;
            case MVVM_TYPE_INT: CALL(mvvm_set_int(source, d->name, d->value.integer), S_SET); break;
            default: CALL(mvvm_set_string(source, d->name, d->value.string), S_SET); break;
            }
            break;
        case CB_SEND: {
            /* On a splice, a change of the list heard is feedback: it must end at the nesting
             * limit (the budget only bounds a fan-out that several such callbacks make). */
            const bool feedback = event->kind == MVVM_EVENT_SPLICE;
            if (feedback && d->fb_ok >= FEEDBACK_BUDGET) break;
            atomic_fetch_add(&mutations, 1);
            mvvm_value argument = d->value;
            tame_args(d->name, &argument, 1);
            if (feedback && strcmp(d->name, "add") == 0 && is_class(source, "todo_list_view_model"))
                CALL(mvvm_set_string(source, "new_todo_title", "feedback"), S_SET);
            mvvm_status status = CALL(mvvm_send(source, d->name, argument.type == MVVM_TYPE_NONE ? NULL : &argument), S_SEND);
            if (feedback && status == MVVM_OK) d->fb_ok++;
            if (feedback && status == MVVM_ERR_INVALID_ARGUMENT) d->fb_refused++;
            break;
        }
        case CB_UNSUBSCRIBE_SELF:
            if (d->self) {
                if (CALL(mvvm_unsubscribe(d->self), S_UNSUBSCRIBE) != MVVM_OK) FAIL("a callback could not end its own subscription");
                if (atomic_load(&d->destroyed) != 1) FAIL("unsubscribe returned before the destroy function ran");
                check_released(d->self);
            }
            break;
        case CB_RELEASE_SOURCE:
            atomic_fetch_add(&mutations, 1);
            if (CALL(mvvm_release(source), S_RELEASE) != MVVM_OK) FAIL("a callback could not release its source");
            if (atomic_load(&d->destroyed) != 1) FAIL("releasing the source did not end its subscription at once");
            check_released(source);
            break;
        case CB_SUBSCRIBE_MORE: {
            sub_data *more = new_sub_data();
            if (!more) break;
            more->source = source;
            more->loop = d->loop;
            more->loop_kind = d->loop_kind;
            more->expect_destroy = true;
            setup_models(more, source, d->name[0] ? d->name : NULL, event);
            mvvm_handle s = 0;
            if (CALL(mvvm_subscribe(source, d->name[0] ? d->name : NULL, callback, more, sub_destroy, &s), S_SUBSCRIBE) ==
                MVVM_OK) {
                more->self = s;
                add_entry(s, K_SUBSCRIPTION, d->loop_kind, d->loop);
            } else if (atomic_load(&more->destroyed) != 1) {
                FAIL("a failed subscribe did not run its destroy function");
            }
            break;
        }
        case CB_ADVANCE_OWN_LOOP: {
            mvvm_status status = d->loop_kind == MVVM_LOOP_MANUAL
                                     ? CALL(mvvm_loop_dispatch(d->loop, NULL), S_LOOP_RUN)
                                     : CALL(mvvm_loop_advance(d->loop, 1), S_LOOP_RUN);
            mvvm_status expected = d->loop_kind == MVVM_LOOP_THREAD ? MVVM_ERR_WRONG_LOOP_KIND : MVVM_ERR_INVALID_ARGUMENT;
            /* The loop's handle may have been released (its objects then notify nothing, so we
             * would not be here, unless it was released by an earlier callback of this turn). */
            if (status != expected && status != MVVM_ERR_INVALID_HANDLE)
                FAIL("a callback advancing its own loop got %s", mvvm_status_name(status));
            break;
        }
        case CB_RELEASE_ANY:
            if (npool > 0) {
                entry *e = &pool[d->target % npool];
                atomic_fetch_add(&mutations, 1);
                if (CALL(mvvm_release(e->h), S_RELEASE) == MVVM_OK) check_released(e->h);
            }
            break;
        case CB_SNAPSHOT: {
            char *json = NULL;
            if (CALL(mvvm_snapshot(source, &json), S_JSON) != MVVM_OK || !json || json[0] != '{')
                FAIL("a callback could not snapshot its source");
            mvvm_string_free(json);
            break;
        }
        case CB_COMPLETE_ANY:
            if (npool > 0) {
                entry *e = &pool[d->target % npool];
                atomic_fetch_add(&mutations, 1);
                if (CALL(mvvm_complete(e->h, &d->value), S_COMPLETE) == MVVM_OK) mark_dead(e->h);
            }
            break;
        default: break;
        }
    } else {
        /* On a thread loop's thread: reads only (the pool belongs to the main thread). */
        char *json = NULL;
        if (CALL(mvvm_snapshot(source, &json), S_JSON) == MVVM_OK) mvvm_string_free(json);
    }
    if (d->mode == CB_CROSS_LOOP) {
        /* Read, set and send on another object, most often of another loop, from whichever
         * thread runs this callback: loops calling each other's objects must not deadlock. */
        mvvm_handle other = atomic_load(&cross_targets[d->target % CROSS_TARGETS]);
        if (other && other != source) {
            char *json = NULL;
            if (CALL(mvvm_snapshot(other, &json), S_JSON) == MVVM_OK) mvvm_string_free(json);
            atomic_fetch_add(&mutations, 1);
            (void)CALL(mvvm_set_string(other, "input", "cross"), S_SET);
            (void)CALL(mvvm_send(other, "increment", NULL), S_SEND);
            (void)CALL(mvvm_send(other, "main_action", NULL), S_SEND);
        }
    }
    atomic_fetch_sub(&d->in_callback, 1);
    current_call = saved_call;
}

static sub_data *new_sub_data(void) {
    if (nsubs == SUBS) return NULL;
    sub_data *d = &subs[nsubs++];
    memset(d, 0, sizeof *d);
    d->used = true;
    return d;
}

/* ------------------------------------------------------------------------------------------ */
/* Host services                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef enum svc_mode { SVC_KEEP, SVC_ANSWER_AT_ONCE, SVC_ANSWER_WRONG_TYPE, SVC_RELEASE_VM, SVC_CANCEL, SVC_MODES } svc_mode;

typedef struct svc_data {
    atomic_int destroyed;
    atomic_int calls;
    bool welcome; /* answers are strings (welcome API), else bools (sign-up) */
    svc_mode mode;
} svc_data;

#define SVCS 32
static svc_data svcs[SVCS];
static int nsvcs;

static void svc_destroy(void *user_data) { count_destroy(&((svc_data *)user_data)->destroyed, "service"); }

static void request_fn(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    svc_data *s = user_data;
    const char *saved_call = current_call;
    if (atomic_load(&s->destroyed)) FAIL("a service was asked after its destroy function ran");
    atomic_fetch_add(&s->calls, 1);
    if (vm == 0 || request == 0 || !argument) FAIL("a request without view model, request or argument");
    mvvm_type expected = s->welcome ? MVVM_TYPE_NONE : MVVM_TYPE_STRING;
    if (argument->type != expected) FAIL("a request argument of type %d", (int)argument->type);
    if (argument->type == MVVM_TYPE_STRING && (!argument->string || !utf8_valid(argument->string)))
        FAIL("a request argument that is not UTF-8");
    const char *name = NULL;
    if (CALL(mvvm_class_name(request, &name), S_CLASS) != MVVM_OK || strcmp(name, "request") != 0)
        FAIL("a request handle that is not a request");
    bool on_main = pthread_equal(pthread_self(), main_thread);
    mvvm_value answer;
    memset(&answer, 0, sizeof answer);
    answer.type = s->welcome ? MVVM_TYPE_STRING : MVVM_TYPE_BOOL;
    answer.boolean = true;
    answer.string = "Hello";
    switch (on_main ? s->mode : SVC_KEEP) {
    case SVC_ANSWER_AT_ONCE:
        atomic_fetch_add(&mutations, 1);
        if (CALL(mvvm_complete(request, &answer), S_COMPLETE) != MVVM_OK) FAIL("answering a request at once failed");
        if (CALL(mvvm_complete(request, &answer), S_COMPLETE) != MVVM_ERR_UNKNOWN_REQUEST) FAIL("a request was answered twice");
        current_call = saved_call;
        return;
    case SVC_ANSWER_WRONG_TYPE:
        answer.type = s->welcome ? MVVM_TYPE_BOOL : MVVM_TYPE_STRING;
        if (CALL(mvvm_complete(request, &answer), S_COMPLETE) != MVVM_ERR_TYPE_MISMATCH) FAIL("an answer of the wrong type was taken");
        break;
    case SVC_RELEASE_VM:
        atomic_fetch_add(&mutations, 1);
        if (CALL(mvvm_release(vm), S_RELEASE) != MVVM_OK) FAIL("a service could not release its view model");
        check_released(vm);
        if (CALL(mvvm_complete(request, &answer), S_COMPLETE) != MVVM_ERR_UNKNOWN_REQUEST)
            FAIL("a request of a released view model was answered");
        current_call = saved_call;
        return;
    case SVC_CANCEL:
        if (CALL(mvvm_release(request), S_RELEASE) != MVVM_OK) FAIL("a request could not be cancelled");
        if (CALL(mvvm_complete(request, &answer), S_COMPLETE) != MVVM_ERR_UNKNOWN_REQUEST)
            FAIL("a cancelled request was answered");
        current_call = saved_call;
        return;
    default: break;
    }
    if (on_main) {
        add_entry(request, K_REQUEST, -1, 0);
    } else {
        pthread_mutex_lock(&side_mutex);
        if (nside < 64) side_requests[nside++] = request;
        else mvvm_release(request);
        pthread_mutex_unlock(&side_mutex);
    }
    current_call = saved_call;
}

static svc_data *new_svc_data(reader *r, bool welcome) {
    if (nsvcs == SVCS) return NULL;
    svc_data *s = &svcs[nsvcs++];
    memset(s, 0, sizeof *s);
    s->welcome = welcome;
    s->mode = (svc_mode)(u8(r) % SVC_MODES);
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* The typed calls, by signature, with the class each is for                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct { mvvm_status (*fn)(mvvm_handle); const char *cls; } typed_cmd;
typedef struct { mvvm_status (*fn)(mvvm_handle, int64_t *); const char *cls; } typed_get_int;
typedef struct { mvvm_status (*fn)(mvvm_handle, bool *); const char *cls; } typed_get_bool;
typedef struct { mvvm_status (*fn)(mvvm_handle, char **); const char *cls; } typed_get_string;
typedef struct { mvvm_status (*fn)(mvvm_handle, bool); const char *cls; } typed_set_bool;
typedef struct { mvvm_status (*fn)(mvvm_handle, const char *); const char *cls; bool is_command; } typed_set_string;
typedef struct { mvvm_status (*fn)(mvvm_handle, mvvm_handle *); const char *cls; } typed_child;

#include "typed_calls.h" /* the tables, generated (make generate) from the registered classes */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const char *const other_class_names[] = { "loop", "subscription", "request", "service", "call" };
static bool is_library_class(const char *name);

/* The class of a handle if it is live (NULL if not). */
static const char *class_of(mvvm_handle h) {
    const char *name = NULL;
    if (h == 0) return NULL;
    mvvm_status status = CALL(mvvm_class_name(h, &name), S_CLASS);
    if (status != MVVM_OK) return NULL;
    if (!name) FAIL("mvvm_class_name said OK with NULL");
    bool known = is_library_class(name);
    for (size_t i = 0; i < COUNT(catalog_class_names); i++) known |= strcmp(name, catalog_class_names[i]) == 0;
    for (size_t i = 0; i < COUNT(other_class_names); i++) known |= strcmp(name, other_class_names[i]) == 0;
    if (!known) FAIL("unknown class name \"%s\"", name);
    const char *again = NULL;
    if (CALL(mvvm_class_name(h, &again), S_CLASS) != MVVM_OK || again != name) FAIL("a class name that is not static");
    return name;
}

/* Before a typed call of class `cls` on h: the status it must give, if certain (or -1). */
static int typed_expectation(mvvm_handle h, int index, const char *cls) {
    if (known_dead(index)) return MVVM_ERR_INVALID_HANDLE;
    const char *actual = class_of(h);
    if (!actual) return -1;
    if (strcmp(actual, cls) != 0) return MVVM_ERR_WRONG_TYPE;
    return -1;
}

static void expect(int expected, mvvm_status got) {
    if (expected >= 0 && (int)got != expected)
        FAIL("expected %s, got %s", mvvm_status_name((mvvm_status)expected), mvvm_status_name(got));
}

/* Objects of a loop we know the kind of; -1 when unknown. */
static int loop_kind_of(mvvm_handle loop) {
    int i = find_entry(loop);
    return i >= 0 && pool[i].kind == K_LOOP ? pool[i].loop_kind : -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The operations                                                                             */
/* ------------------------------------------------------------------------------------------ */


static void op_loop_new(reader *r) {
    uint8_t b = u8(r);
    mvvm_loop_kind k = b < 120 ? MVVM_LOOP_VIRTUAL : b < 200 ? MVVM_LOOP_MANUAL : b < 230 ? MVVM_LOOP_THREAD
                                                                       : (mvvm_loop_kind)(b == 255 ? -1 : b);
    if (k == MVVM_LOOP_THREAD && thread_loops >= 2) k = MVVM_LOOP_VIRTUAL;
    mvvm_handle h = SENTINEL;
    mvvm_status status = CALL(mvvm_loop_new(k, &h), S_LOOP_NEW);
    if ((unsigned)k > MVVM_LOOP_VIRTUAL) {
        if (status != MVVM_ERR_INVALID_ARGUMENT) FAIL("a loop of unknown kind %d was made", (int)k);
    } else if (status != MVVM_OK) {
        FAIL("a loop could not be made");
    }
    if (status != MVVM_OK) {
        if (h != SENTINEL) FAIL("a failed call wrote its out-pointer");
        return;
    }
    if (k == MVVM_LOOP_THREAD) thread_loops++;
    const char *cls = class_of(h);
    if (!cls || strcmp(cls, "loop") != 0) FAIL("a new loop is not a loop");
    add_entry(h, K_LOOP, k, h);
}

static void op_construct(reader *r) {
    int li = -1, mi = -1;
    mvvm_handle loop = take_handle(r, &li);
    const bool was_dead = known_dead(li);
    uint8_t which = u8(r) % 19;
    mvvm_handle out = SENTINEL, *outp = u8(r) == 0xFF ? NULL : &out;
    mvvm_status status;
    svc_data *svc = NULL;
    bool svc_null_fn = false;
    switch (which) {
    case 0: status = CALL(mvvm_count_down_timer_new(loop, (int64_t)(u8(r) < 250 ? u8(r) % 8 : u64(r)), outp), S_NEW); break;
    case 1: status = CALL(mvvm_timer_view_model_new(loop, take_handle(r, &mi), outp), S_NEW); break;
    case 2: status = CALL(mvvm_stop_watch_new(loop, outp), S_NEW); break;
    case 3: status = CALL(mvvm_stop_watch_view_model_new(loop, outp), S_NEW); break;
    case 4: status = CALL(mvvm_input_echo_view_model_new(loop, outp), S_NEW); break;
    case 5: status = CALL(mvvm_sign_up_view_model_new(loop, outp), S_NEW); break;
    case 6:
    case 8:
        svc = new_svc_data(r, which == 8);
        if (!svc) return;
        svc_null_fn = u8(r) == 0xFF;
        status = which == 6 ? CALL(mvvm_sign_up_view_model_new_with_service(loop, svc_null_fn ? NULL : request_fn, svc,
                                                                            svc_destroy, outp), S_NEW)
                            : CALL(mvvm_welcome_view_model_new_with_api(loop, svc_null_fn ? NULL : request_fn, svc,
                                                                        svc_destroy, outp), S_NEW);
        if (svc_null_fn && status != MVVM_ERR_NULL_POINTER) FAIL("a NULL request_fn was taken");
        break;
    case 7: status = CALL(mvvm_welcome_view_model_new(loop, outp), S_NEW); break;
    case 9: status = CALL(mvvm_counter_new(loop, outp), S_NEW); break;
    case 10: status = CALL(mvvm_random_counter_new(loop, u64(r), outp), S_NEW); break;
    case 11: status = CALL(mvvm_counter_view_model_new(loop, take_handle(r, &mi), outp), S_NEW); break;
    case 12: status = CALL(mvvm_counter_page_view_model_new(loop, outp), S_NEW); break;
    case 13: status = CALL(mvvm_counter_page_view_model_new_with_seed(loop, u64(r), outp), S_NEW); break;
    case 14:
    case 15: {
        /* mvvm_new: a real class or any name, 0 to 2 arguments of any type, handles included. */
        char name_buffer[TEXT_MAX], texts[2][TEXT_MAX];
        const char *name = u8(r) < 200 ? catalog_class_names[u8(r) % COUNT(catalog_class_names)] : take_name(r, name_buffer);
        mvvm_value args[2];
        size_t count = u8(r) % 3;
        for (size_t i = 0; i < count; i++) {
            if (u8(r) < 128) {
                args[i] = take_value(r, texts[i]);
            } else {
                memset(&args[i], 0, sizeof args[i]);
                args[i].type = MVVM_TYPE_OBJECT;
                args[i].object = take_handle(r, &mi);
            }
        }
        status = CALL(mvvm_new(loop, u8(r) == 0xFE ? NULL : name, count ? args : NULL, count, outp), S_MVVM_NEW);
        break;
    }
    case 16:
    case 17: {
        /* A service handle, shared by the view model made with it; released at once. */
        svc = new_svc_data(r, which == 17);
        if (!svc) return;
        mvvm_handle service = 0;
        if (CALL(mvvm_service_new(request_fn, svc, svc_destroy, &service), S_SERVICE_NEW) != MVVM_OK)
            FAIL("mvvm_service_new refused a request function");
        mvvm_value arg;
        memset(&arg, 0, sizeof arg);
        arg.type = MVVM_TYPE_OBJECT;
        arg.object = service;
        status = CALL(mvvm_new(loop, which == 17 ? "welcome_view_model" : "sign_up_view_model", &arg, 1, outp),
                      S_MVVM_NEW);
        if (CALL(mvvm_release(service), S_RELEASE) != MVVM_OK) FAIL("a service handle would not release");
        if (status == MVVM_OK && atomic_load(&svc->destroyed) != 0)
            FAIL("a service was destroyed while its view model lives");
        break;
    }
    default: status = CALL(mvvm_stop_watch_view_model_new(loop, outp), S_NEW); break;
    }
    if (svc && status != MVVM_OK && atomic_load(&svc->destroyed) != 1)
        FAIL("a constructor with a service failed without running its destroy function");
    if (!outp && status != MVVM_ERR_NULL_POINTER && !svc_null_fn) FAIL("a NULL out-pointer was taken");
    if (was_dead && outp && !svc_null_fn && status != MVVM_ERR_INVALID_HANDLE) FAIL("a released loop made an object");
    if (status != MVVM_OK) {
        if (out != SENTINEL) FAIL("a failed constructor wrote its out-pointer");
        return;
    }
    if (!class_of(out)) FAIL("a new object is not live");
    add_entry(out, K_OBJECT, loop_kind_of(loop), loop);
    atomic_store(&cross_targets[ncross++ % CROSS_TARGETS], out);
}

/* A generic getter of any type. */
static void op_get(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *name = take_name(r, nb);
    uint8_t t = u8(r) % 4;
    bool null_out = u8(r) == 0xFF;
    mvvm_status status;
    switch (t) {
    case 0: {
        bool v = true;
        status = CALL(mvvm_get_bool(h, name, null_out ? NULL : &v), S_GET);
        if (status != MVVM_OK && !v) FAIL("a failed getter wrote its out-pointer");
        break;
    }
    case 1: {
        int64_t v = 12345;
        status = CALL(mvvm_get_int(h, name, null_out ? NULL : &v), S_GET);
        if (status != MVVM_OK && v != 12345) FAIL("a failed getter wrote its out-pointer");
        break;
    }
    case 2: {
        double v = 1.5;
        status = CALL(mvvm_get_double(h, name, null_out ? NULL : &v), S_GET);
        if (status != MVVM_OK && v != 1.5) FAIL("a failed getter wrote its out-pointer");
        break;
    }
    default: {
        char *v = (char *)"untouched";
        status = CALL(mvvm_get_string(h, name, null_out ? NULL : &v), S_GET);
        if (status == MVVM_OK) {
            if (!v || !utf8_valid(v)) FAIL("a string out that is NULL or not UTF-8");
            mvvm_string_free(v);
        } else if (strcmp(v, "untouched") != 0) {
            FAIL("a failed getter wrote its out-pointer");
        }
        break;
    }
    }
    if (null_out && status == MVVM_OK) FAIL("a NULL out-pointer was taken");
    if (!null_out && was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
}

/* Reads back a binding just set: it must hold the value set, unless another hand was at work. */
static void check_set(mvvm_handle h, const char *name, const mvvm_value *v, int mutations_before, int index) {
    if (atomic_load(&mutations) != mutations_before) return;
    if (index >= 0 && pool[index].loop_kind == MVVM_LOOP_THREAD) return; /* time may change bindings */
    if (index < 0 || pool[index].loop_kind < 0) return;
    switch (v->type) {
    case MVVM_TYPE_BOOL: {
        bool b = !v->boolean;
        if (CALL(mvvm_get_bool(h, name, &b), S_GET) != MVVM_OK || b != v->boolean) FAIL("bool %s set but not read back", name);
        break;
    }
    case MVVM_TYPE_INT: {
        int64_t i = v->integer + 1;
        if (CALL(mvvm_get_int(h, name, &i), S_GET) != MVVM_OK || i != v->integer) FAIL("int %s set but not read back", name);
        break;
    }
    case MVVM_TYPE_DOUBLE: {
        double d = 0;
        if (CALL(mvvm_get_double(h, name, &d), S_GET) != MVVM_OK || memcmp(&d, &v->number, sizeof d) != 0)
            FAIL("double %s set but not read back", name);
        break;
    }
    case MVVM_TYPE_STRING: {
        char *s = NULL;
        if (CALL(mvvm_get_string(h, name, &s), S_GET) != MVVM_OK || !s || strcmp(s, v->string) != 0)
            FAIL("string %s set to \"%s\" but read back as \"%s\"", name, v->string, s ? s : "(NULL)");
        mvvm_string_free(s);
        break;
    }
    default: break;
    }
}

static void op_set(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX], tb[TEXT_MAX];
    const char *name = take_name(r, nb);
    mvvm_value v = take_value(r, tb);
    int before = atomic_load(&mutations);
    mvvm_status status;
    switch (v.type) {
    case MVVM_TYPE_BOOL: status = CALL(mvvm_set_bool(h, name, v.boolean), S_SET); break;
    case MVVM_TYPE_INT: status = CALL(mvvm_set_int(h, name, v.integer), S_SET); break;
    case MVVM_TYPE_DOUBLE: status = CALL(mvvm_set_double(h, name, v.number), S_SET); break;
    default:
        v.type = MVVM_TYPE_STRING;
        status = CALL(mvvm_set_string(h, name, v.string), S_SET);
        if (status == MVVM_OK && (!v.string || !utf8_valid(v.string))) FAIL("a string of bad UTF-8 (or NULL) was set");
        break;
    }
    if (status == MVVM_OK) check_set(h, name, &v, before, index);
    else if (was_dead && name && value_clean(&v)) expect(MVVM_ERR_INVALID_HANDLE, status);
}

static void op_send(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX], tb[TEXT_MAX];
    const char *name = take_name(r, nb);
    mvvm_value v = take_value(r, tb);
    bool with_argument = u8(r) & 1;
    tame_args(name, &v, 1);
    mvvm_status status = CALL(mvvm_send(h, name, with_argument ? &v : NULL), S_SEND);
    if (status == MVVM_OK && with_argument && !value_clean(&v)) FAIL("a command took a bad argument");
    if (was_dead && name && (!with_argument || value_clean(&v))) expect(MVVM_ERR_INVALID_HANDLE, status);
}

static void op_child(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *name = take_name(r, nb);
    mvvm_handle out = SENTINEL;
    bool null_out = u8(r) == 0xFF;
    mvvm_status status = CALL(mvvm_child(h, name, null_out ? NULL : &out), S_CHILD);
    if (status != MVVM_OK) {
        if (out != SENTINEL) FAIL("a failed mvvm_child wrote its out-pointer");
        if (!null_out && was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    const char *cls = class_of(out);
    if (!cls || (strcmp(cls, "display_view_model") && strcmp(cls, "player_view_model") && strcmp(cls, "counter_view_model")))
        FAIL("a child of class %s", cls ? cls : "(dead)");
    add_entry(out, K_OBJECT, index >= 0 ? pool[index].loop_kind : -1, index >= 0 ? pool[index].loop : 0);
}

static void op_class_name(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    if (u8(r) == 0xFF) {
        if (CALL(mvvm_class_name(h, NULL), S_CLASS) == MVVM_OK) FAIL("a NULL out-pointer was taken");
        return;
    }
    const char *cls = class_of(h);
    if (was_dead && cls) FAIL("a released handle has a class");
}

static void op_json(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    bool snapshot = u8(r) & 1, null_out = u8(r) == 0xFF;
    char *json = (char *)"untouched";
    mvvm_status status = snapshot ? CALL(mvvm_snapshot(h, null_out ? NULL : &json), S_JSON)
                                  : CALL(mvvm_describe(h, null_out ? NULL : &json), S_JSON);
    if (status == MVVM_OK) {
        if (!json || json[0] != '{' || json[strlen(json) - 1] != '}' || !utf8_valid(json)) FAIL("bad JSON out");
        mvvm_string_free(json);
    } else {
        if (strcmp(json, "untouched") != 0) FAIL("a failed call wrote its out-pointer");
        if (!null_out && was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
    }
}

/* mvvm_release or mvvm_unsubscribe: a handle known dead stays dead, one that ended is gone. */
static void op_end(reader *r, bool unsubscribe) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    mvvm_status status = unsubscribe ? CALL(mvvm_unsubscribe(h), S_UNSUBSCRIBE) : CALL(mvvm_release(h), S_RELEASE);
    if (was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
    if (status == MVVM_OK) check_released(h);
}

static void op_subscribe(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *name = u8(r) & 1 ? NULL : take_name(r, nb);
    sub_data *d = new_sub_data();
    if (!d) return;
    d->mode = (cb_mode)(u8(r) % CB_MODES);
    d->source = h;
    d->loop = index >= 0 ? pool[index].loop : 0;
    d->loop_kind = index >= 0 ? pool[index].loop_kind : -1;
    d->target = u8(r);
    take_text(r, d->name, true);
    d->value = take_value(r, d->text);
    if (d->value.string) d->value.string = d->text;
    if (d->mode == CB_ADVANCE_OWN_LOOP && d->loop_kind < 0) d->mode = CB_NOTHING;
    uint8_t shape = u8(r);
    bool null_callback = shape == 0xFF, null_out = shape == 0xFE, no_destroy = shape == 0xFD;
    d->expect_destroy = !null_callback && !no_destroy;
    mvvm_handle out = SENTINEL;
    mvvm_status status = CALL(mvvm_subscribe(h, name, null_callback ? NULL : callback, d, no_destroy ? NULL : sub_destroy,
                                             null_out ? NULL : &out), S_SUBSCRIBE);
    if (status != MVVM_OK) {
        if (out != SENTINEL) FAIL("a failed subscribe wrote its out-pointer");
        int destroyed = atomic_load(&d->destroyed);
        if (d->expect_destroy && destroyed != 1) FAIL("a failed subscribe did not run its destroy function");
        if (!d->expect_destroy && destroyed != 0) FAIL("a destroy function ran that was not given");
        if (was_dead && !null_callback && !null_out && (!name || utf8_valid(name)))
            expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    if (null_callback || null_out) FAIL("a subscribe with a NULL pointer said OK");
    d->self = out;
    const char *cls = class_of(out);
    if (!cls || strcmp(cls, "subscription") != 0) FAIL("a new subscription is not a subscription");
    add_entry(out, K_SUBSCRIPTION, d->loop_kind, d->loop);
    setup_models(d, h, name, NULL);
}

static void op_complete(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char tb[TEXT_MAX];
    mvvm_value v = take_value(r, tb);
    const uint8_t how = u8(r);
    const bool null_value = how == 0xFF;
    /* 0x80-0xFE: the answer as work of the request's loop (mvvm_complete_soon); below: at once. */
    const bool soon = how >= 0x80 && !null_value;
    const bool was_answered = index >= 0 && pool[index].answered;
    atomic_fetch_add(&mutations, 1);
    mvvm_status status = soon ? CALL(mvvm_complete_soon(h, &v), S_COMPLETE_SOON)
                              : CALL(mvvm_complete(h, null_value ? NULL : &v), S_COMPLETE);
    if (status == MVVM_OK) {
        if (null_value || !value_clean(&v)) FAIL("a request took a bad answer");
        if (was_answered) FAIL("a request answered with mvvm_complete_soon took a second answer");
        if (CALL(mvvm_complete(h, &v), S_COMPLETE) != MVVM_ERR_UNKNOWN_REQUEST) FAIL("a request was answered twice");
        if (CALL(mvvm_complete_soon(h, &v), S_COMPLETE_SOON) != MVVM_ERR_UNKNOWN_REQUEST)
            FAIL("a request was answered twice (the second time soon)");
        if (soon) {
            if (index >= 0) pool[index].answered = true;
        } else {
            const char *name = NULL;
            if (CALL(mvvm_class_name(h, &name), S_CLASS) != MVVM_ERR_INVALID_HANDLE) FAIL("an answered request lives on");
            mark_dead(h);
        }
    } else if (was_dead && pool[index].kind == K_REQUEST && !null_value && value_clean(&v)) {
        expect(MVVM_ERR_UNKNOWN_REQUEST, status);
    }
}

/* A second thread on a loop: advancing it 1 ms at a time, or in a long run_for. */
typedef struct helper {
    mvvm_handle loop;
    int steps;
    int failed;
    mvvm_status status;
} helper;

static void *helper_advance(void *h_) {
    helper *h = h_;
    current_call = "mvvm_loop_advance on a second thread";
    for (int i = 0; i < h->steps; i++)
        if (mvvm_loop_advance(h->loop, 1) != MVVM_OK) h->failed++;
    return NULL;
}

static void *helper_run_for(void *h_) {
    helper *h = h_;
    current_call = "mvvm_loop_run_for on a second thread";
    h->status = mvvm_loop_run_for(h->loop, 1000);
    return NULL;
}

static int64_t monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Two threads advance one virtual loop 1 ms at a time: time moves by exactly the sum. */
static void concurrent_advance(mvvm_handle h, int steps) {
    int64_t before = 0, after = 0;
    if (CALL(mvvm_loop_now_ms(h, &before), S_LOOP_QUERY) != MVVM_OK) return;
    if (before > MVVM_LOOP_TIME_LIMIT_MS - 2 * steps) return;
    helper other = { h, steps, 0, MVVM_OK };
    pthread_t thread;
    if (pthread_create(&thread, NULL, helper_advance, &other) != 0) return;
    int failed = 0;
    for (int i = 0; i < steps; i++)
        if (CALL(mvvm_loop_advance(h, 1), S_LOOP_RUN) != MVVM_OK) failed++;
    pthread_join(thread, NULL);
    /* A callback may have released the loop meanwhile; then nothing is promised. */
    if (failed || other.failed || CALL(mvvm_loop_now_ms(h, &after), S_LOOP_QUERY) != MVVM_OK) return;
    if (after != before + 2 * steps)
        FAIL("two threads advancing %d x 1 ms each moved the loop from %" PRId64 " to %" PRId64 " ms", steps, before, after);
}

/* Another thread runs a manual loop for 1 s; this one releases the loop: run_for wakes. */
static void release_during_run_for(mvvm_handle h, int index) {
    helper other = { h, 0, 0, MVVM_ERR_INTERNAL };
    pthread_t thread;
    int64_t started = monotonic_ms();
    if (pthread_create(&thread, NULL, helper_run_for, &other) != 0) return;
    struct timespec pause = { 0, 2000000 };
    nanosleep(&pause, NULL);
    atomic_fetch_add(&mutations, 1);
    mvvm_status status = CALL(mvvm_release(h), S_RELEASE);
    pthread_join(thread, NULL);
    int64_t took = monotonic_ms() - started;
    if (status == MVVM_OK) {
        check_released(h);
        if (index >= 0) pool[index].dead = true;
        if (took >= 900) FAIL("run_for went on for %" PRId64 " ms after its loop was released", took);
        if (other.status != MVVM_OK && other.status != MVVM_ERR_LOOP_RELEASED && other.status != MVVM_ERR_INVALID_HANDLE)
            FAIL("run_for on a loop released meanwhile gave %s", mvvm_status_name(other.status));
    }
}

static void op_loop_run(reader *r) {
    in_loop_run = true;
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    uint8_t b = u8(r);
    int kind = index >= 0 && pool[index].kind == K_LOOP && !pool[index].dead ? pool[index].loop_kind : -1;
    mvvm_status status;
    if (b >= 240 && b < 250) {
        if (kind == MVVM_LOOP_VIRTUAL) concurrent_advance(h, 1 + u8(r) % 200);
        else if (kind == MVVM_LOOP_MANUAL) release_during_run_for(h, index);
        return;
    }
    switch (b % 4) {
    case 0: {
        static const int64_t steps[] = { 0, 1, 9, 10, 11, 100, 999, 1000, 1001, 2500, 5000, 10000, -1, -1000 };
        int64_t ms = steps[u8(r) % COUNT(steps)];
        if (b >= 250) {
            /* A huge step, only when nothing repeats (else it would run every tick up to then). */
            int64_t next = 0;
            if (CALL(mvvm_loop_next_timeout_ms(h, &next), S_LOOP_QUERY) == MVVM_OK && next == -1) ms = INT64_MAX;
        }
        /* Time stops at MVVM_LOOP_TIME_LIMIT_MS: a step past it is refused, not saturated. */
        int64_t now = 0;
        bool past_limit = kind == MVVM_LOOP_VIRTUAL && ms >= 0 &&
                          CALL(mvvm_loop_now_ms(h, &now), S_LOOP_QUERY) == MVVM_OK && ms > MVVM_LOOP_TIME_LIMIT_MS - now;
        status = CALL(mvvm_loop_advance(h, ms), S_LOOP_RUN);
        if (kind == MVVM_LOOP_VIRTUAL) expect(ms < 0 || past_limit ? MVVM_ERR_INVALID_ARGUMENT : MVVM_OK, status);
        if (kind == MVVM_LOOP_MANUAL || kind == MVVM_LOOP_THREAD) expect(MVVM_ERR_WRONG_LOOP_KIND, status);
        break;
    }
    case 1: {
        int64_t ran = -7;
        bool null_ran = u8(r) & 1;
        status = CALL(mvvm_loop_dispatch(h, null_ran ? NULL : &ran), S_LOOP_RUN);
        if (status == MVVM_OK && !null_ran && ran < 0) FAIL("dispatch ran %" PRId64 " pieces of work", ran);
        if (status != MVVM_OK && ran != -7) FAIL("a failed dispatch wrote its out-pointer");
        if (kind == MVVM_LOOP_MANUAL) expect(MVVM_OK, status);
        if (kind == MVVM_LOOP_VIRTUAL || kind == MVVM_LOOP_THREAD) expect(MVVM_ERR_WRONG_LOOP_KIND, status);
        break;
    }
    case 2: {
        int64_t ms = (int64_t)(u8(r) % 4) - 1; /* -1 .. 2 ms of real time */
        /* A callback of the work it runs may release this very loop (CB_RELEASE_ANY): run_for
         * then ends with LOOP_RELEASED, as mvvm.h says, its handle dead by then (found by the
         * fuzzer, seed Tests/fuzz/corpus/manual_loop_released_by_a_callback_of_its_run_for). */
        status = CALL(mvvm_loop_run_for(h, ms), S_LOOP_RUN | B(MVVM_ERR_LOOP_RELEASED));
        if (status == MVVM_ERR_LOOP_RELEASED) {
            if (kind != MVVM_LOOP_MANUAL) FAIL("run_for gave LOOP_RELEASED on a loop that is not manual");
            check_released(h);
            break;
        }
        if (kind == MVVM_LOOP_MANUAL) expect(ms < 0 ? MVVM_ERR_INVALID_ARGUMENT : MVVM_OK, status);
        break;
    }
    default:
        status = CALL(mvvm_loop_advance(h, 0), S_LOOP_RUN);
        break;
    }
    if (was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
}

static void op_loop_query(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    uint8_t b = u8(r);
    bool null_out = u8(r) == 0xFF;
    int kind = index >= 0 && pool[index].kind == K_LOOP && !pool[index].dead ? pool[index].loop_kind : -1;
    mvvm_status status;
    switch (b % 3) {
    case 0: {
        int64_t ms = -99;
        status = CALL(mvvm_loop_next_timeout_ms(h, null_out ? NULL : &ms), S_LOOP_QUERY);
        if (status == MVVM_OK && ms < -1) FAIL("next timeout %" PRId64, ms);
        if (status != MVVM_OK && ms != -99) FAIL("a failed call wrote its out-pointer");
        break;
    }
    case 1: {
        int64_t ms = -99;
        status = CALL(mvvm_loop_now_ms(h, null_out ? NULL : &ms), S_LOOP_QUERY);
        if (status == MVVM_OK && ms < 0) FAIL("now %" PRId64, ms);
        if (status != MVVM_OK && ms != -99) FAIL("a failed call wrote its out-pointer");
        break;
    }
    default: {
        int fd = -99;
        status = CALL(mvvm_loop_fd(h, null_out ? NULL : &fd), S_LOOP_FD);
        if (status == MVVM_OK && fd < 0) FAIL("fd %d", fd);
        if (status != MVVM_OK && fd != -99) FAIL("a failed call wrote its out-pointer");
        if (kind == MVVM_LOOP_MANUAL && !null_out) expect(MVVM_OK, status);
        if ((kind == MVVM_LOOP_VIRTUAL || kind == MVVM_LOOP_THREAD) && !null_out) expect(MVVM_ERR_WRONG_LOOP_KIND, status);
        break;
    }
    }
    if (null_out && status == MVVM_OK) FAIL("a NULL out-pointer was taken");
    if (!null_out && was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
}

static void op_typed(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    uint8_t group = u8(r) % 7, which = u8(r);
    mvvm_status status;
    int expected;
    switch (group) {
    case 0: {
        const typed_cmd *c = &cmds[which % COUNT(cmds)];
        expected = typed_expectation(h, index, c->cls);
        status = CALL(c->fn(h), S_SEND);
        break;
    }
    case 1: {
        const typed_get_int *c = &get_ints[which % COUNT(get_ints)];
        expected = typed_expectation(h, index, c->cls);
        int64_t v = 4242;
        status = CALL(c->fn(h, &v), S_GET);
        if (status != MVVM_OK && v != 4242) FAIL("a failed getter wrote its out-pointer");
        break;
    }
    case 2: {
        const typed_get_bool *c = &get_bools[which % COUNT(get_bools)];
        expected = typed_expectation(h, index, c->cls);
        bool v = true;
        status = CALL(c->fn(h, &v), S_GET);
        if (status != MVVM_OK && !v) FAIL("a failed getter wrote its out-pointer");
        break;
    }
    case 3: {
        const typed_get_string *c = &get_strings[which % COUNT(get_strings)];
        expected = typed_expectation(h, index, c->cls);
        char *v = NULL;
        status = CALL(c->fn(h, &v), S_GET);
        if (status == MVVM_OK && (!v || !utf8_valid(v))) FAIL("a string out that is NULL or not UTF-8");
        if (status != MVVM_OK && v) FAIL("a failed getter wrote its out-pointer");
        mvvm_string_free(v);
        break;
    }
    case 4: {
        const typed_set_bool *c = &set_bools[which % COUNT(set_bools)];
        expected = typed_expectation(h, index, c->cls);
        status = CALL(c->fn(h, u8(r) & 1), S_SET);
        break;
    }
    case 5: {
        const typed_set_string *c = &set_strings[which % COUNT(set_strings)];
        char tb[TEXT_MAX];
        take_text(r, tb, false);
        const char *value = u8(r) == 0xFF ? NULL : tb;
        expected = value && utf8_valid(value) ? typed_expectation(h, index, c->cls) : -1;
        status = CALL(c->fn(h, value), c->is_command ? S_SEND : S_SET);
        if (status == MVVM_OK && (!value || !utf8_valid(value))) FAIL("a string of bad UTF-8 (or NULL) was taken");
        break;
    }
    default: {
        const typed_child *c = &typed_children[which % COUNT(typed_children)];
        expected = typed_expectation(h, index, c->cls);
        mvvm_handle out = SENTINEL;
        status = CALL(c->fn(h, &out), S_CHILD);
        if (status == MVVM_OK) add_entry(out, K_OBJECT, index >= 0 ? pool[index].loop_kind : -1, index >= 0 ? pool[index].loop : 0);
        else if (out != SENTINEL) FAIL("a failed call wrote its out-pointer");
        break;
    }
    }
    expect(expected, status);
}

static void op_misc(reader *r) {
    uint8_t b = u8(r);
    switch (b % 4) {
    case 0: {
        int s = (int)(int8_t)u8(r);
        const char *name = mvvm_status_name((mvvm_status)s);
        if (!name) FAIL("mvvm_status_name gave NULL");
        bool known = s >= 0 && s <= MVVM_ERR_WRONG_THREAD;
        if (known != (strcmp(name, "MVVM_UNKNOWN_STATUS") != 0)) FAIL("status %d is named %s", s, name);
        break;
    }
    case 1:
    {
        char expected[32];
        snprintf(expected, sizeof expected, "%d.%d.%d", MVVM_VERSION_MAJOR, MVVM_VERSION_MINOR, MVVM_VERSION_PATCH);
        if (strcmp(mvvm_version(), expected) != 0) FAIL("version %s, not %s", mvvm_version(), expected);
    }
        break;
    case 2: mvvm_string_free(NULL); break;
    default: {
        const char *e = mvvm_last_error();
        if (!e) FAIL("mvvm_last_error gave NULL");
        break;
    }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Classes of the library this target links                                                   */
/* ------------------------------------------------------------------------------------------ */

#define CLASSES_MAX 64
static char *library_classes[CLASSES_MAX];
static int nlibrary_classes;

/* Every class mvvm_classes lists, once per process. */
static void load_classes(void) {
    if (nlibrary_classes) return;
    char *json = NULL;
    if (CALL(mvvm_classes(&json), B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER)) != MVVM_OK || !json) FAIL("mvvm_classes failed");
    if (CALL(mvvm_classes(NULL), B(MVVM_OK) | B(MVVM_ERR_NULL_POINTER)) != MVVM_ERR_NULL_POINTER) FAIL("mvvm_classes took NULL");
    if (!utf8_valid(json) || json[0] != '[') FAIL("mvvm_classes gave no JSON array");
    for (const char *p = json; (p = strstr(p, "\"class\": \"")) != NULL && nlibrary_classes < CLASSES_MAX;) {
        p += strlen("\"class\": \"");
        const char *end = strchr(p, '"');
        if (!end) FAIL("a class name without its end in mvvm_classes");
        library_classes[nlibrary_classes++] = strndup(p, (size_t)(end - p));
        p = end;
    }
    learn_names(json);
    mvvm_string_free(json);
    if (nlibrary_classes < (int)COUNT(catalog_class_names)) FAIL("mvvm_classes lists %d classes", nlibrary_classes);
}

static bool is_library_class(const char *name) {
    for (int i = 0; i < nlibrary_classes; i++)
        if (strcmp(library_classes[i], name) == 0) return true;
    return false;
}

static bool is_class(mvvm_handle h, const char *cls) {
    const char *name = NULL;
    return h && mvvm_class_name(h, &name) == MVVM_OK && name && strcmp(name, cls) == 0;
}

static int list_names_of(mvvm_handle h, const char *names[2]) {
    const char *cls = NULL;
    if (!h || mvvm_class_name(h, &cls) != MVVM_OK || !cls) return 0;
    if (strcmp(cls, "playlist") == 0) return names[0] = "songs", names[1] = "all", 2;
    if (strcmp(cls, "board") == 0) return names[0] = "tallies", 1;
    if (strcmp(cls, "todo_list_view_model") == 0) return names[0] = "items", 1;
    return 0;
}

/* Commands whose count argument is work (Tally.add_many loops that often, Profile.load sleeps
 * that many seconds): kept small, so that an input ends. */
static void tame_args(const char *command, mvvm_value *args, size_t count) {
    if (!command || (strcmp(command, "add_many") != 0 && strcmp(command, "load") != 0)) return;
    for (size_t i = 0; i < count; i++) {
        if (args[i].type == MVVM_TYPE_INT || args[i].type == MVVM_TYPE_UINT)
            args[i].integer = (int64_t)((uint64_t)args[i].integer % 24) - 3;
        if (args[i].type == MVVM_TYPE_DOUBLE) args[i].number = 3;
    }
}

/* The todo constructor makes a database at any path it is given: a path from the fuzzer's
 * bytes is replaced, so that only op_todo_path's paths (in its scratch folder) ever reach it. */
static void tame_paths(const char *cls, mvvm_value *args, size_t count) {
    if (!cls || strcmp(cls, "todo_list_view_model") != 0) return;
    for (size_t i = 0; i < count; i++)
        if (args[i].type == MVVM_TYPE_STRING || args[i].type == MVVM_TYPE_BYTES) args[i].string = "", args[i].integer = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* The newer operations: values of every kind, calls, async calls, lists, storage paths      */
/* ------------------------------------------------------------------------------------------ */

/* A name for the newer operations: one of the known ones (their tables differ by target), or
 * the input's bytes, or NULL. */
static const char *take_new_name(reader *r, char buffer[TEXT_MAX]) {
    uint8_t b = u8(r);
    if (b == 0xFF) return NULL;
    if (b < 200) return name_at(u8(r));
    take_text(r, buffer, true);
    return buffer;
}

static bool out_untouched(const mvvm_value *v) {
    mvvm_value pattern;
    memset(&pattern, 0x5A, sizeof pattern);
    return memcmp(v, &pattern, sizeof pattern) == 0;
}

/* Classes with a member of one of Foundation's kinds ("type": "uuid", "date", "url" or "decimal"
 * anywhere in their description): a value set there is made canonical (a UUID in upper case, a
 * decimal's exact text, a URL's absoluteString) or held as a Date holds it, so it is not read back
 * byte for byte as it was set. */
static char *kind_classes[CLASSES_MAX];
static int nkind_classes = -1;

static void load_kind_classes(void) {
    if (nkind_classes >= 0) return;
    nkind_classes = 0;
    char *json = NULL;
    if (mvvm_classes(&json) != MVVM_OK || !json) FAIL("mvvm_classes failed");
    static const char *const kinds[] = { "\"type\": \"uuid\"", "\"type\": \"date\"", "\"type\": \"url\"",
                                         "\"type\": \"decimal\"" };
    for (char *p = strstr(json, "{\"class\": \""); p && nkind_classes < CLASSES_MAX;) {
        char *name = p + strlen("{\"class\": \"");
        char *next = strstr(name, "{\"class\": \"");
        char *segment = next ? strndup(p, (size_t)(next - p)) : strdup(p);
        bool has_kind = false;
        for (size_t i = 0; i < COUNT(kinds); i++) has_kind = has_kind || strstr(segment, kinds[i]) != NULL;
        if (has_kind) kind_classes[nkind_classes++] = strndup(name, strcspn(name, "\""));
        free(segment);
        p = next;
    }
    mvvm_string_free(json);
}

/* Bindings whose value a set does not decide alone (all_completed stays false on an empty list),
 * and every value of a class holding Foundation's kinds (above). */
static bool read_back_exempt(mvvm_handle h, const char *name) {
    if (strcmp(name, "all_completed") == 0) return true;
    load_kind_classes();
    for (int i = 0; i < nkind_classes; i++)
        if (is_class(h, kind_classes[i])) return true;
    return false;
}

/* mvvm_get of any property (or anything else): the value well formed, copied, freed. */
static void op_value_get(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *name = take_new_name(r, nb);
    bool null_out = u8(r) == 0xFF;
    mvvm_value v;
    memset(&v, 0x5A, sizeof v);
    mvvm_status status = CALL(mvvm_get(h, name, null_out ? NULL : &v), S_GET);
    if (status != MVVM_OK) {
        if (!out_untouched(&v)) FAIL("a failed mvvm_get wrote its out-pointer");
        if (!null_out && name && utf8_valid(name) && was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    if (null_out || !name) FAIL("mvvm_get took a NULL pointer");
    value_check_out(&v, 0, "a value from mvvm_get");
    if (v.type == MVVM_TYPE_NONE) FAIL("mvvm_get gave MVVM_TYPE_NONE");
    value_exercise(&v, 0);
    mvvm_value_free(&v);
    if (v.type != MVVM_TYPE_NONE) FAIL("mvvm_value_free left a type");
    mvvm_value_free(&v);
}

/* mvvm_set with a value of any kind, hostile ones included: refused unless acceptable, read
 * back equal when nothing else was at work. */
static void op_value_set(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *name = take_new_name(r, nb);
    arena.used = arena.ntexts = 0;
    arena.for_copy = false;
    mvvm_value *v = take_deep_value(r, &arena, 0);
    bool null_value = u8(r) == 0xFF;
    int before = atomic_load(&mutations);
    mvvm_status status = CALL(mvvm_set(h, name, null_value ? NULL : v), S_SET);
    if (status != MVVM_OK) {
        /* A released handle must say so, given a value surely acceptable: one level within the
         * nesting limit, since a value at the limit may be refused first, as too deep (seed
         * corpus-sample/a_value_at_the_nesting_limit_set_on_a_released_handle). */
        if (was_dead && name && utf8_valid(name) && !null_value && value_acceptable(v, 1))
            expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    if (null_value || !name) FAIL("mvvm_set took a NULL pointer");
    if (!value_acceptable(v, 0)) FAIL("mvvm_set took a value no call may take (type %d)", (int)v->type);
    if (atomic_load(&mutations) != before || index < 0 || pool[index].loop_kind < 0 ||
        pool[index].loop_kind == MVVM_LOOP_THREAD || read_back_exempt(h, name))
        return;
    mvvm_value got;
    memset(&got, 0, sizeof got);
    if (CALL(mvvm_get(h, name, &got), S_GET) != MVVM_OK) FAIL("%s set but not readable", name);
    value_check_out(&got, 0, "a value set and read back");
    if (value_matches(v, &got) == 0) FAIL("%s set (type %d) but read back differently (type %d)", name, (int)v->type, (int)got.type);
    mvvm_value_free(&got);
}

/* Arguments for a call: 0 to 4 values of any kind, names for some, or a hostile count. */
typedef struct call_args {
    mvvm_value *args;
    const char *names_storage[8];
    const char *const *names;
    size_t count;
    char texts[8][TEXT_MAX];
    bool null_args;
} call_args;

static void take_call_args(reader *r, call_args *a) {
    arena.used = arena.ntexts = 0;
    arena.for_copy = false;
    uint8_t c = u8(r);
    a->null_args = false;
    a->names = NULL;
    if (c >= 250) {
        /* A count with NULL arguments: refused before anything is read. */
        static const size_t counts[] = { 1, 2, (size_t)MAX_ITEMS + 1, SIZE_MAX, (size_t)1 << 40, 3 };
        a->count = counts[c % 6];
        a->args = NULL;
        a->null_args = true;
        return;
    }
    a->count = c % 5;
    a->args = a->count ? new_nodes(&arena, (int)a->count) : (u8(r) & 1 ? NULL : arena.nodes);
    for (size_t i = 0; i < a->count; i++) a->args[i] = *take_deep_value(r, &arena, 1);
    uint8_t n = u8(r);
    if (n < 128) return; /* by position */
    for (size_t i = 0; i < a->count && i < 8; i++) {
        uint8_t k = u8(r);
        a->names_storage[i] = k < 64 ? NULL : k < 224 ? name_at(u8(r)) : (take_text(r, a->texts[i], true), a->texts[i]);
    }
    a->names = a->names_storage;
}

static bool args_acceptable(const call_args *a) {
    if (a->null_args) return false;
    for (size_t i = 0; i < a->count; i++)
        if (!value_acceptable(&a->args[i], 1)) return false;
    if (a->names)
        for (size_t i = 0; i < a->count; i++)
            if (a->names[i] && !utf8_valid(a->names[i])) return false;
    return true;
}

/* Arguments with which a released object must answer INVALID_HANDLE: acceptable, and by
 * position (names given twice are refused whatever the object). */
static bool args_clean(const call_args *a) { return args_acceptable(a) && !a->names; }

/* A result the library gave: well formed, copied, freed. */
static void take_result(mvvm_value *result) {
    value_check_out(result, 0, "a command's result");
    value_exercise(result, 0);
    mvvm_value_free(result);
    if (result->type != MVVM_TYPE_NONE) FAIL("mvvm_value_free left a type");
}

/* mvvm_call, mvvm_call_named or mvvm_send with any command and arguments. */
static void op_call(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    const char *command = take_new_name(r, nb);
    call_args a;
    take_call_args(r, &a);
    tame_args(command, a.args, a.null_args ? 0 : a.count);
    uint8_t how = u8(r);
    bool null_result = how & 0x80;
    mvvm_value result;
    memset(&result, 0x5A, sizeof result);
    mvvm_status status;
    switch (how % 3) {
    case 0: status = CALL(mvvm_call(h, command, a.args, a.count, null_result ? NULL : &result), S_CALL); break;
    case 1: status = CALL(mvvm_call_named(h, command, a.names, a.args, a.count, null_result ? NULL : &result), S_CALL); break;
    default:
        status = CALL(mvvm_send(h, command, a.count && !a.null_args ? &a.args[0] : NULL), S_CALL);
        null_result = true;
        break;
    }
    if (status == MVVM_OK) {
        if (!command || (a.count && !args_acceptable(&a))) FAIL("a call took a NULL command or arguments no call may take");
        if (!null_result) take_result(&result);
    } else {
        if (!out_untouched(&result)) FAIL("a failed call wrote its result");
        if (was_dead && command && utf8_valid(command) && args_clean(&a)) expect(MVVM_ERR_INVALID_HANDLE, status);
    }
}

/* Completions: checked, and they call back in. */
typedef enum done_mode { DONE_NOTHING, DONE_COPY, DONE_READ, DONE_RELEASE_OBJECT, DONE_RELEASE_LOOP, DONE_CANCEL_ANY,
                         DONE_START_MORE, DONE_MODES } done_mode;

static void async_destroy(void *user_data) {
    async_data *d = user_data;
    if (atomic_fetch_add(&d->destroyed, 1) != 0) FAIL("an async call's destroy function ran twice");
    if (atomic_load(&d->done) == 0) atomic_store(&d->destroyed_before_done, 1);
}

static async_data *new_async_data(void) {
    if (nasyncs == ASYNCS) return NULL;
    async_data *d = &asyncs[nasyncs++];
    memset(d, 0, sizeof *d);
    return d;
}

static void start_async(mvvm_handle object, int index, const char *command, call_args *a, uint8_t shape, int mode, int target);

static void done_fn(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    async_data *d = user_data;
    const char *saved_call = current_call;
    if (atomic_fetch_add(&d->done, 1) != 0) FAIL("an async call completed twice");
    if (atomic_load(&d->destroyed)) FAIL("an async call completed after its destroy function");
    if (call == 0 || call != d->handle) FAIL("a completion's call 0x%" PRIx64 " is not the handle given, 0x%" PRIx64, call, d->handle);
    atomic_store(&d->status, (int)status);
    switch (status) {
    case MVVM_OK:
        if (!result) FAIL("a completion with MVVM_OK and no result");
        value_check_out(result, 0, "an async result");
        break;
    case MVVM_ERR_COMMAND_FAILED:
        if (!message || !message[0] || !utf8_valid(message)) FAIL("a failed async call without a message");
        break;
    case MVVM_ERR_CANCELLED: break;
    default: FAIL("a completion with status %s", mvvm_status_name(status));
    }
    if (result) value_check_out(result, 0, "an async result");
    /* The call's handle is gone before its completion runs. */
    if (CALL(mvvm_cancel(call), S_CANCEL) != MVVM_ERR_INVALID_HANDLE) FAIL("a call was cancelled in its own completion");
    if (pthread_equal(pthread_self(), main_thread)) {
        switch (d->mode) {
        case DONE_COPY:
            if (result) value_exercise(result, 0);
            break;
        case DONE_READ: {
            char *json = NULL;
            if (CALL(mvvm_snapshot(d->object, &json), S_JSON) == MVVM_OK) mvvm_string_free(json);
            mvvm_value tags;
            memset(&tags, 0, sizeof tags);
            if (CALL(mvvm_get(d->object, "tags", &tags), S_GET) == MVVM_OK) take_result(&tags);
            break;
        }
        case DONE_RELEASE_OBJECT:
        case DONE_RELEASE_LOOP: {
            mvvm_handle victim = d->mode == DONE_RELEASE_OBJECT ? d->object : d->loop;
            atomic_fetch_add(&mutations, 1);
            if (victim && CALL(mvvm_release(victim), S_RELEASE) == MVVM_OK) check_released(victim);
            break;
        }
        case DONE_CANCEL_ANY:
            if (npool > 0) {
                entry *e = &pool[d->target % npool];
                atomic_fetch_add(&mutations, 1);
                mvvm_status s = CALL(mvvm_cancel(e->h), S_CANCEL);
                if (s == MVVM_OK && e->kind == K_CALL && atomic_load(&asyncs[e->async].done) != 1)
                    FAIL("mvvm_cancel returned before the completion ran");
            }
            break;
        case DONE_START_MORE: {
            int index = find_entry(d->object);
            call_args a = { .args = NULL, .names = NULL, .count = 0 };
            if (index >= 0 && !pool[index].dead) start_async(d->object, index, "ping", &a, 0, DONE_NOTHING, 0);
            break;
        }
        default: break;
        }
    }
    current_call = saved_call;
}

/* Starts a call and checks the rules of its start: *out set, or the destroy function run. */
static void start_async(mvvm_handle object, int index, const char *command, call_args *a, uint8_t shape, int mode, int target) {
    async_data *d = new_async_data();
    if (!d) return;
    const bool was_dead = known_dead(index);
    d->mode = mode;
    d->target = target;
    d->object = object;
    d->loop = index >= 0 ? pool[index].loop : 0;
    const bool null_done = shape == 0xFF, null_out = shape == 0xFE, no_destroy = shape == 0xFD;
    d->expect_destroy = !null_done && !no_destroy;
    d->handle = SENTINEL;
    atomic_fetch_add(&mutations, 1);
    mvvm_status status = CALL(mvvm_call_async(object, command, a->names, a->args, a->count, null_done ? NULL : done_fn, d,
                                              no_destroy ? NULL : async_destroy, null_out ? NULL : &d->handle),
                              S_CALL_ASYNC);
    if (status != MVVM_OK) {
        /* Also when refused once its handle was made, an argument of the wrong type or count
         * (seed corpus-sample/call_async_refused_after_its_handle_was_made). */
        if (d->handle != SENTINEL) FAIL("a failed mvvm_call_async wrote its out-pointer");
        if (atomic_load(&d->done)) FAIL("a call that could not start completed");
        if (atomic_load(&d->destroyed) != (d->expect_destroy ? 1 : 0))
            FAIL("a call that could not start ran its destroy function %d times", atomic_load(&d->destroyed));
        if (was_dead && !null_done && !null_out && command && utf8_valid(command) && args_clean(a))
            expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    if (null_done || null_out || !command) FAIL("mvvm_call_async took a NULL pointer");
    if (a->count && !args_acceptable(a)) FAIL("mvvm_call_async took arguments no call may take");
    d->started = true;
    if (atomic_load(&d->destroyed_before_done)) FAIL("an async call's destroy function ran before its completion");
    if (atomic_load(&d->done) == 0) add_call_entry(d->handle, d, index >= 0 ? pool[index].loop_kind : -1);
    else if (CALL(mvvm_cancel(d->handle), S_CANCEL) != MVVM_ERR_INVALID_HANDLE) FAIL("a call that ended could be cancelled");
}

static void op_call_async(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    char nb[TEXT_MAX];
    uint8_t c = u8(r);
    const char *command = c < 96 ? "load" : c < 128 ? "ping" : take_new_name(r, nb);
    call_args a;
    take_call_args(r, &a);
    if (c < 64 && !a.null_args && a.count == 0) {
        /* load(count): mostly well formed, so that the call suspends on the loop's clock */
        a.args = new_nodes(&arena, 1);
        if (a.args) a.args[0] = (mvvm_value){ .type = MVVM_TYPE_INT, .integer = u8(r) % 5 }, a.count = 1;
    }
    tame_args(command, a.args, a.null_args ? 0 : a.count);
    uint8_t shape = u8(r);
    uint8_t mode = u8(r);
    start_async(h, index, command, &a, shape, mode % DONE_MODES, u8(r));
}

/* mvvm_cancel (or mvvm_release) of any handle, calls most often. */
static void op_cancel(reader *r) {
    int index;
    mvvm_handle h;
    uint8_t b = u8(r);
    /* Most often the newest outstanding call. */
    int call_index = -1;
    for (int i = npool - 1; i >= 0 && b < 128; i--)
        if (pool[i].kind == K_CALL && !known_dead(i)) {
            call_index = i;
            break;
        }
    if (call_index >= 0) index = call_index, h = pool[call_index].h;
    else h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    const bool release = u8(r) & 1;
    atomic_fetch_add(&mutations, 1);
    mvvm_status status = release ? CALL(mvvm_release(h), S_RELEASE) : CALL(mvvm_cancel(h), S_CANCEL);
    if (was_dead) expect(MVVM_ERR_INVALID_HANDLE, status);
    if (status == MVVM_OK && index >= 0 && pool[index].kind == K_CALL) {
        async_data *d = &asyncs[pool[index].async];
        if (atomic_load(&d->done) != 1) FAIL("a cancelled call's completion had not run when cancel returned");
        if (d->expect_destroy && atomic_load(&d->destroyed) != 1) FAIL("a cancelled call's destroy function had not run");
        check_released(h);
    } else if (status == MVVM_OK && release) {
        check_released(h);
    }
}

/* mvvm_new_named (and mvvm_new) with any class, names and arguments. */
static void op_new_named(reader *r) {
    int index;
    mvvm_handle loop = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    char nb[TEXT_MAX];
    uint8_t c = u8(r);
    const char *cls = c < 200 && nlibrary_classes ? library_classes[u8(r) % nlibrary_classes] : take_new_name(r, nb);
    call_args a;
    take_call_args(r, &a);
    tame_paths(cls, a.args, a.null_args ? 0 : a.count);
    bool positional = u8(r) & 1;
    if (positional) a.names = NULL; /* mvvm_new takes no names: theirs cannot make it refuse (seed
                                     * corpus/positional_arguments_with_names_of_bad_utf8) */
    mvvm_handle out = SENTINEL;
    mvvm_status status = positional ? CALL(mvvm_new(loop, cls, a.args, a.count, &out), S_MVVM_NEW)
                                    : CALL(mvvm_new_named(loop, cls, a.names, a.args, a.count, &out), S_MVVM_NEW);
    if (status != MVVM_OK) {
        if (out != SENTINEL) FAIL("a failed constructor wrote its out-pointer");
        if (was_dead && cls && utf8_valid(cls) && args_clean(&a)) expect(MVVM_ERR_INVALID_HANDLE, status);
        return;
    }
    if (!cls || (a.count && !args_acceptable(&a))) FAIL("a constructor took a NULL class or arguments no call may take");
    const char *made = class_of(out);
    if (!made || strcmp(made, cls) != 0) FAIL("mvvm_new of %s made %s", cls, made ? made : "(dead)");
    add_entry(out, K_OBJECT, loop_kind_of(loop), loop);
    atomic_store(&cross_targets[ncross++ % CROSS_TARGETS], out);
}

/* mvvm_value_copy and mvvm_record_field of a host's values, hostile ones included. */
static void op_value_copy(reader *r) {
    arena.used = arena.ntexts = 0;
    arena.for_copy = true;
    mvvm_value *v = take_deep_value(r, &arena, 0);
    arena.for_copy = false;
    uint8_t how = u8(r);
    mvvm_value copy;
    memset(&copy, 0x5A, sizeof copy);
    /* A map whose names are not all strings is malformed: INVALID_ARGUMENT (seed
     * corpus/copy_of_a_map_with_a_name_that_is_no_string). */
    mvvm_status status = CALL(mvvm_value_copy(how == 0xFF ? NULL : v, how == 0xFE ? NULL : &copy), S_COPY);
    if (status != MVVM_OK) {
        if (!out_untouched(&copy)) FAIL("a failed mvvm_value_copy wrote its out-pointer");
    } else {
        if (how >= 0xFE) FAIL("mvvm_value_copy took NULL");
        /* A host's value may hold kinds only hosts pass (uint, map, object): copied as they are. */
        if (!value_acceptable(v, 0)) FAIL("mvvm_value_copy copied a value nested too deep or malformed");
        mvvm_value_free(&copy);
        if (copy.type != MVVM_TYPE_NONE) FAIL("mvvm_value_free left a type");
    }
    const mvvm_value *field = (const mvvm_value *)(uintptr_t)1;
    char nb[TEXT_MAX];
    const char *name = take_new_name(r, nb);
    status = CALL(mvvm_record_field(how == 0xFD ? NULL : v, name, u8(r) == 0xFF ? NULL : &field), S_FIELD);
    if (status == MVVM_OK) {
        if (v->type != MVVM_TYPE_RECORD || field < MVVM_VALUE_ITEMS(v) || field >= MVVM_VALUE_ITEMS(v) + v->integer)
            FAIL("mvvm_record_field gave a field outside its record");
    } else if (field != (const mvvm_value *)(uintptr_t)1) {
        FAIL("a failed mvvm_record_field wrote its out-pointer");
    }
    /* The library's tag: one, static, 1 to 255. */
    uint8_t tag = mvvm_library_tag();
    if (tag == 0 || tag != mvvm_library_tag()) FAIL("mvvm_library_tag gave %u", tag);
}

/* Lists: reads (count, items, identities, out of range) and changes, on the sample's and the
 * todo app's list owners; item handles join the pool. */
static void op_list(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    const char *names[2];
    int nnames = list_names_of(h, names);
    char nb[TEXT_MAX];
    uint8_t b = u8(r);
    const char *name = nnames && b < 200 ? names[b % nnames] : take_new_name(r, nb);
    uint8_t what = u8(r);
    switch (what % 4) {
    case 0: { /* count and an item, anywhere */
        int64_t n = -7;
        bool null_out = u8(r) == 0xFF;
        mvvm_status status = CALL(mvvm_list_count(h, name, null_out ? NULL : &n), S_LIST);
        if (status != MVVM_OK) {
            if (n != -7) FAIL("a failed mvvm_list_count wrote its out-pointer");
            if (was_dead && !null_out && name && utf8_valid(name)) expect(MVVM_ERR_INVALID_HANDLE, status);
            return;
        }
        if (n < 0 || null_out) FAIL("mvvm_list_count: %" PRId64 " items, or a NULL out-pointer taken", n);
        static const int64_t at[] = { 0, 1, -1, INT64_MIN, INT64_MAX, 2, 3 };
        uint8_t k = u8(r);
        int64_t i = k < 64 && n > 0 ? (int64_t)(k % n) : k < 100 ? n : at[k % 7];
        mvvm_handle item = SENTINEL;
        status = CALL(mvvm_list_item(h, name, i, &item), S_LIST);
        if (status == MVVM_OK) {
            if (i < 0 || i >= n) FAIL("item %" PRId64 " of a list of %" PRId64 " was given", i, n);
            int64_t id = 0;
            if (CALL(mvvm_object_id(item, &id), S_OBJECT_ID) != MVVM_OK) FAIL("a list item has no object id");
            add_entry(item, K_OBJECT, index >= 0 ? pool[index].loop_kind : -1, index >= 0 ? pool[index].loop : 0);
        } else {
            if (item != SENTINEL) FAIL("a failed mvvm_list_item wrote its out-pointer");
            if (i >= 0 && i < n && status == MVVM_ERR_INVALID_ARGUMENT && index >= 0 &&
                (pool[index].loop_kind == MVVM_LOOP_VIRTUAL || pool[index].loop_kind == MVVM_LOOP_MANUAL))
                FAIL("item %" PRId64 " of a list of %" PRId64 " was refused", i, n);
        }
        break;
    }
    default: { /* a change of the list, through its owner's commands */
        char text[TEXT_MAX];
        take_text(r, text, false);
        mvvm_value arg;
        memset(&arg, 0, sizeof arg);
        const char *command = NULL;
        uint8_t c = u8(r);
        if (is_class(h, "playlist")) {
            static const char *const commands[] = { "add", "add_many", "remove_first", "reverse", "rotate", "sort_by_title", "filter" };
            command = commands[c % 7];
            if (c % 7 < 2) arg = (mvvm_value){ .type = MVVM_TYPE_STRING, .string = c % 7 ? "a,b,ab,c" : text };
            if (c % 7 == 6) {
                mvvm_value filter = { .type = MVVM_TYPE_STRING, .string = (c & 8) ? "" : (c & 16) ? "a" : text };
                (void)CALL(mvvm_set(h, "filter", &filter), S_SET);
                return;
            }
        } else if (is_class(h, "board")) {
            static const char *const commands[] = { "add", "remove_odd", "reverse" };
            command = commands[c % 3];
            if (c % 3 == 0) arg = (mvvm_value){ .type = MVVM_TYPE_INT, .integer = (int8_t)u8(r) };
        } else if (is_class(h, "todo_list_view_model")) {
            static const char *const filters[] = { "all", "active", "completed" };
            switch (c % 4) {
            case 0:
                (void)CALL(mvvm_set_string(h, "new_todo_title", text), S_SET);
                command = "add";
                break;
            case 1: command = "clear_completed"; break;
            case 2: (void)CALL(mvvm_set_string(h, "filter", filters[u8(r) % 3]), S_SET); return;
            default: (void)CALL(mvvm_set_bool(h, "all_completed", u8(r) & 1), S_SET); return;
            }
        } else if (is_class(h, "todo_item_view_model")) {
            static const char *const commands[] = { "destroy", "begin_edit", "commit_edit", "cancel_edit", "completed" };
            command = commands[c % 5];
            if (c % 5 == 4) {
                (void)CALL(mvvm_set_bool(h, "completed", u8(r) & 1), S_SET);
                return;
            }
            if (c % 5 == 2) (void)CALL(mvvm_set_string(h, "edit_text", (c & 32) ? "" : text), S_SET);
        } else if (is_class(h, "tally")) {
            command = c & 1 ? "add" : "reset";
        } else {
            return;
        }
        (void)CALL(mvvm_send(h, command, arg.type ? &arg : NULL), S_SEND);
        break;
    }
    }
}

#if FUZZ_TARGET != 0
/* The classes of this target, made with well-formed arguments. */
static void op_new_target(reader *r) {
    int index;
    mvvm_handle loop = take_handle(r, &index);
    uint8_t which = u8(r);
    mvvm_value arg;
    memset(&arg, 0, sizeof arg);
    const char *cls;
    size_t count = 0;
    char text[TEXT_MAX];
#if FUZZ_TARGET == 2
    (void)which;
    (void)text;
    cls = "todo_list_view_model";
    arg = (mvvm_value){ .type = MVVM_TYPE_STRING, .string = "" }; /* in memory: a SpliceList */
    count = 1;
#else
    static const char *const classes[] = { "playlist", "board", "profile", "wishlist", "tally", "greeter", "dialog", "playlist", "board" };
    cls = classes[which % COUNT(classes)];
    if (strcmp(cls, "tally") == 0) arg = (mvvm_value){ .type = MVVM_TYPE_INT, .integer = (int8_t)u8(r) }, count = 1;
    if (strcmp(cls, "greeter") == 0 && (which & 16)) {
        take_text(r, text, false);
        arg = (mvvm_value){ .type = MVVM_TYPE_STRING, .string = text };
        count = 1;
    }
#endif
    const char *name = strcmp(cls, "tally") == 0 ? "start" : strcmp(cls, "greeter") == 0 ? "name" : "storage_path";
    mvvm_handle out = SENTINEL;
    mvvm_status status = u8(r) & 1 ? CALL(mvvm_new(loop, cls, count ? &arg : NULL, count, &out), S_MVVM_NEW)
                                   : CALL(mvvm_new_named(loop, cls, (const char *const[]){ name }, &arg, count, &out), S_MVVM_NEW);
    if (status != MVVM_OK) {
        if (out != SENTINEL) FAIL("a failed constructor wrote its out-pointer");
        if (known_dead(index)) expect(MVVM_ERR_INVALID_HANDLE, status);
        const bool clean = !count || arg.type != MVVM_TYPE_STRING || utf8_valid(arg.string);
        if (clean && index >= 0 && pool[index].kind == K_LOOP && !known_dead(index) && status != MVVM_ERR_INVALID_HANDLE)
            FAIL("%s could not be made on a live loop: %s", cls, mvvm_status_name(status));
        return;
    }
    add_entry(out, K_OBJECT, loop_kind_of(loop), loop);
    atomic_store(&cross_targets[ncross++ % CROSS_TARGETS], out);
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* The todo constructor and hostile storage paths (fuzz_todo)                                */
/* ------------------------------------------------------------------------------------------ */

#if FUZZ_TARGET == 2
/* A folder of this process's own for the paths, emptied after each input. */
static char scratch[128];

static void remove_tree(const char *path) {
    DIR *dir = opendir(path);
    if (!dir) return;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char child[512];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            chmod(child, 0700);
            remove_tree(child);
            rmdir(child);
        } else {
            unlink(child);
        }
    }
    closedir(dir);
}

/* Whatever is at `path` (never following a link), gone. */
static void clear_path(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        remove_tree(path);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static void remove_scratch(void) {
    if (!scratch[0]) return;
    remove_tree(scratch);
    rmdir(scratch);
}

/* What a path names, to tell that a refused constructor left it exactly as it was. */
typedef struct file_state {
    bool exists;
    struct stat st;
    uint64_t hash;
} file_state;

static file_state state_of(const char *path, bool follow) {
    file_state s;
    memset(&s, 0, sizeof s);
    if ((follow ? stat(path, &s.st) : lstat(path, &s.st)) != 0) return s;
    s.exists = true;
    if (S_ISREG(s.st.st_mode)) {
        int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            char buffer[4096];
            ssize_t n;
            s.hash = 1469598103934665603ULL;
            while ((n = read(fd, buffer, sizeof buffer)) > 0)
                for (ssize_t i = 0; i < n; i++) s.hash = (s.hash ^ (uint8_t)buffer[i]) * 1099511628211ULL;
            close(fd);
        }
    }
    return s;
}

static bool same_state(const file_state *a, const file_state *b, bool device) {
    if (a->exists != b->exists) return false;
    if (!a->exists) return true;
    if (a->st.st_ino != b->st.st_ino || a->st.st_dev != b->st.st_dev || a->st.st_mode != b->st.st_mode) return false;
    if (device) return true; /* others may use /dev/null meanwhile */
    return a->st.st_size == b->st.st_size && a->st.st_mtim.tv_sec == b->st.st_mtim.tv_sec &&
           a->st.st_mtim.tv_nsec == b->st.st_mtim.tv_nsec && a->hash == b->hash;
}

/* The names in the scratch folder, one string. */
static void listing(char *out, size_t size) {
    out[0] = '\0';
    DIR *dir = opendir(scratch);
    if (!dir) return;
    struct dirent *e;
    size_t used = 0;
    while ((e = readdir(dir)) != NULL && used + 2 < size) {
        int n = snprintf(out + used, size - used, "%s/", e->d_name);
        if (n < 0) break;
        used += (size_t)n;
    }
    closedir(dir);
}

static int count_entries(const char *listing_text) {
    int n = 0;
    for (const char *p = listing_text; *p; p++) n += *p == '/';
    return n;
}

typedef enum path_kind {
    P_FIFO, P_DIRECTORY, P_SYMLINK_LOOP, P_LINK_TO_FIFO, P_LINK_TO_DIRECTORY, P_DEV_NULL, P_DEV_ZERO, P_DEV_URANDOM,
    P_HUGE, P_NOT_UTF8, P_NOT_A_DATABASE, P_EMPTY_FILE, P_MISSING_DIRECTORY, P_SCRATCH_ITSELF, P_SOCKET,
    P_DANGLING_LINK, P_UNDER_A_FILE, P_NEW_DATABASE, P_KINDS
} path_kind;

static void op_todo_path(reader *r) {
    int index;
    mvvm_handle loop = take_handle(r, &index);
    if (index < 0 || pool[index].kind != K_LOOP || known_dead(index)) return;
    path_kind kind = (path_kind)(u8(r) % P_KINDS);
    static char path_buffer[1 << 17];
    char *path = path_buffer, target[256];
    snprintf(path, 256, "%s/db%u", scratch, u8(r) % 4);
    snprintf(target, sizeof target, "%s/target%u", scratch, u8(r) % 4);
    clear_path(path);
    clear_path(target);
    bool device = false, allowed = false;
    switch (kind) {
    case P_FIFO: mkfifo(path, 0600); break;
    case P_DIRECTORY: mkdir(path, 0700); break;
    case P_SYMLINK_LOOP: symlink(target, path), symlink(path, target); break;
    case P_LINK_TO_FIFO: mkfifo(target, 0600), symlink(target, path); break;
    case P_LINK_TO_DIRECTORY: mkdir(target, 0700), symlink(target, path); break;
    case P_DEV_NULL: path = "/dev/null", device = true; break;
    case P_DEV_ZERO: path = "/dev/zero", device = true; break;
    case P_DEV_URANDOM: path = "/dev/urandom", device = true; break;
    case P_HUGE: {
        static const size_t lengths[] = { 300, 4097, 70000, (1 << 17) - 1 };
        size_t length = lengths[u8(r) % 4];
        size_t at = (size_t)snprintf(path, 256, "%s/", scratch);
        bool slashes = u8(r) & 1;
        for (; at < length - 1; at++) path[at] = slashes && at % 2 ? '/' : 'a';
        path[at] = '\0';
        break;
    }
    case P_NOT_UTF8: {
        size_t at = strlen(path);
        static const char *const bad[] = { "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\x80x" };
        snprintf(path + at, 64, "%s", bad[u8(r) % 5]);
        break;
    }
    case P_NOT_A_DATABASE: {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
        if (fd < 0) return;
        uint8_t how = u8(r);
        if (how & 1) (void)!write(fd, "SQLite format 3", 16); /* the magic with its NUL, then garbage */
        size_t n = u8(r) % 200;
        for (size_t i = 0; i < n; i++) {
            char c = (char)u8(r);
            (void)!write(fd, &c, 1);
        }
        if (how & 2) (void)!ftruncate(fd, 4096 + (how & 0xF0) * 16);
        close(fd);
        break;
    }
    case P_EMPTY_FILE: {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0600);
        if (fd >= 0) close(fd);
        break;
    }
    case P_MISSING_DIRECTORY: snprintf(path, 256, "%s/missing%u/db", scratch, u8(r) % 2); break;
    case P_SCRATCH_ITSELF: snprintf(path, 256, u8(r) & 1 ? "%s/" : "%s/.", scratch); break;
    case P_SOCKET: {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_un address = { .sun_family = AF_UNIX };
        snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
        if (fd >= 0) {
            (void)!bind(fd, (struct sockaddr *)&address, sizeof address);
            close(fd);
        }
        break;
    }
    case P_DANGLING_LINK: symlink(target, path); break;
    case P_UNDER_A_FILE: {
        int fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0600);
        if (fd >= 0) close(fd);
        snprintf(path, 256, "%s/db", target);
        break;
    }
    default: allowed = true; break; /* a new database where no file is: made at once */
    }
    file_state before = state_of(path, false), target_before = state_of(target, false);
    char names_before[2048], names_after[2048];
    listing(names_before, sizeof names_before);
    mvvm_value arg;
    memset(&arg, 0, sizeof arg);
    uint8_t how = u8(r);
    const bool as_bytes = how & 1;
    arg.type = as_bytes ? MVVM_TYPE_BYTES : MVVM_TYPE_STRING;
    arg.string = path;
    arg.integer = as_bytes ? (int64_t)strlen(path) : 0;
    mvvm_handle out = SENTINEL;
    int64_t started = monotonic_ms();
    mvvm_status status = how & 2 ? CALL(mvvm_new(loop, "todo_list_view_model", &arg, 1, &out), S_MVVM_NEW)
                                 : CALL(mvvm_new_named(loop, "todo_list_view_model", (const char *const[]){ "storage_path" },
                                                       &arg, 1, &out), S_MVVM_NEW);
    int64_t took = monotonic_ms() - started;
    if (took > 3000) FAIL("the todo constructor took %" PRId64 " ms on a path of kind %d", took, (int)kind);
    if (status == MVVM_ERR_LOOP_RELEASED) return;
    /* mvvm_new takes strings for string arguments, and may refuse bytes; mvvm_new_named
     * converts bytes that are UTF-8 as mvvm_set does. */
    const bool bytes_refusable = as_bytes && ((how & 2) || kind == P_NOT_UTF8);
    if (bytes_refusable && status == MVVM_ERR_TYPE_MISMATCH) allowed = false;
    if (allowed) {
        if (status != MVVM_OK) FAIL("a new database could not be made: %s", mvvm_status_name(status));
        add_entry(out, K_OBJECT, pool[index].loop_kind, loop);
        return;
    }
    if (status == MVVM_OK && kind == P_NEW_DATABASE) FAIL("a new database refused by type was made");
    if (status == MVVM_OK) FAIL("the todo constructor took a path of kind %d (%.100s)", (int)kind, path);
    if (out != SENTINEL) FAIL("a refused constructor wrote its out-pointer");
    /* Bytes that are not UTF-8 are no string: a type mismatch, or invalid, as the header's rule says. */
    if (status != MVVM_ERR_INVALID_ARGUMENT && !(bytes_refusable && status == MVVM_ERR_TYPE_MISMATCH))
        FAIL("the todo constructor refused a path of kind %d with %s", (int)kind, mvvm_status_name(status));
    size_t length = strlen(mvvm_last_error());
    if (length >= 400) FAIL("the constructor's message has %zu bytes", length);
    file_state after = state_of(path, false), target_after = state_of(target, false);
    if (!same_state(&before, &after, device) || !same_state(&target_before, &target_after, false))
        FAIL("a refused path of kind %d was changed", (int)kind);
    listing(names_after, sizeof names_after);
    if (count_entries(names_after) != count_entries(names_before))
        FAIL("a refused path of kind %d left files behind: %s (before: %s)", (int)kind, names_after, names_before);
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* One input                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void release_everything(bool loops_first) {
    adopt_side_requests();
    for (int pass = 0; pass < 2; pass++) {
        for (int i = npool - 1; i >= 0; i--) {
            entry *e = &pool[i];
            bool is_loop = e->kind == K_LOOP;
            if (e->dead || (pass == 0) != (is_loop == loops_first)) continue;
            mvvm_status status = CALL(mvvm_release(e->h), S_RELEASE);
            if (status == MVVM_OK) check_released(e->h);
            e->dead = true;
        }
    }
    adopt_side_requests();
    for (int i = 0; i < npool; i++) {
        if (!pool[i].dead && CALL(mvvm_release(pool[i].h), S_RELEASE) == MVVM_OK) check_released(pool[i].h);
        pool[i].dead = true;
    }
}

/* After each operation, outside every callback: each subscription's copy of a list equals the
 * list; copies made in callbacks are taken now; a callback that kept changing the list it
 * hears was stopped by the nesting limit. */
static void check_after_operation(void) {
    for (int i = 0; i < nsubs; i++) {
        sub_data *d = &subs[i];
        if (d->fb_ok >= FEEDBACK_BUDGET && d->fb_refused == 0) {
            int feeders = 0;
            for (int j = 0; j < nsubs; j++) feeders += subs[j].fb_ok > 0 && subs[j].source == d->source;
            if (feeders == 1)
                FAIL("a callback changing the list it hears made %d nested changes, none refused at MVVM_MAX_NESTED_CALLS",
                     d->fb_ok);
        }
        d->fb_ok = d->fb_refused = 0;
        if (d->nmodels == 0) continue;
        const char *cls = NULL;
        if (atomic_load(&d->destroyed) || !d->self || mvvm_class_name(d->self, &cls) != MVVM_OK) {
            d->nmodels = 0; /* the subscription ended */
            continue;
        }
        for (int k = 0; k < d->nmodels; k++) {
            list_model *m = &d->models[k];
            int64_t now[MODEL_MAX];
            int n = 0;
            bool whole = read_list(d->source, m->name, now, &n);
            if (n < 0) continue;
            if (m->known) {
                if (n != m->n) FAIL("after the operation, %s has %d items; the copy rebuilt from its splices %d", m->name, n, m->n);
                if (whole)
                    for (int j = 0; j < n; j++)
                        if (now[j] != m->ids[j]) FAIL("after the operation, item %d of %s differs from the copy's", j, m->name);
            }
            m->known = whole;
            m->late = false;
            if (whole) memcpy(m->ids, now, sizeof now[0] * (size_t)n);
            m->n = n;
        }
    }
}

/* Op bytes below this decode as they always have (committed inputs keep their meaning); the
 * rest are the newer operations. */
#define OLD_OPS_BELOW (FUZZ_TARGET == 0 ? 200 : 100)

/* ------------------------------------------------------------------------------------------ */
/* Races: two threads ending one handle, a cancel against the work that completes its call   */
/* ------------------------------------------------------------------------------------------ */

typedef enum end_how { END_RELEASE, END_UNSUBSCRIBE, END_CANCEL, END_HOWS } end_how;

static mvvm_status end_handle(mvvm_handle h, end_how how) {
    switch (how) {
    case END_RELEASE: return CALL(mvvm_release(h), S_RELEASE);
    case END_UNSUBSCRIBE: return CALL(mvvm_unsubscribe(h), S_UNSUBSCRIBE);
    default: return CALL(mvvm_cancel(h), S_CANCEL);
    }
}

/* One side of a race, started with the other at a barrier: it ends a handle, or advances or
 * releases a loop. */
typedef struct racer {
    pthread_barrier_t *start;
    mvvm_handle h;
    int action; /* an end_how, or RACE_ADVANCE, RACE_RELEASE_LOOP */
    int64_t ms;
    mvvm_status status;
} racer;
enum { RACE_ADVANCE = END_HOWS, RACE_RELEASE_LOOP };

static void *race_side(void *r_) {
    racer *r = r_;
    pthread_barrier_wait(r->start);
    if (r->action == RACE_ADVANCE) r->status = CALL(mvvm_loop_advance(r->h, r->ms), S_LOOP_RUN);
    else if (r->action == RACE_RELEASE_LOOP) r->status = CALL(mvvm_release(r->h), S_RELEASE);
    else r->status = end_handle(r->h, (end_how)r->action);
    return NULL;
}

/* Runs `a` on another thread and `b` on this one, started together. */
static bool race(racer *a, racer *b) {
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    a->start = b->start = &start;
    pthread_t thread;
    atomic_fetch_add(&mutations, 1);
    if (pthread_create(&thread, NULL, race_side, a) != 0) {
        pthread_barrier_destroy(&start);
        return false;
    }
    race_side(b);
    pthread_join(thread, NULL);
    pthread_barrier_destroy(&start);
    return true;
}

/* Two threads release, unsubscribe or cancel one handle at once: exactly one of them ends it
 * (MVVM_OK); the other is told INVALID_HANDLE. A call whose cancel won completed CANCELLED. */
static void op_race_end(reader *r) {
    int index;
    mvvm_handle h = take_handle(r, &index);
    const bool was_dead = known_dead(index);
    uint8_t how = u8(r);
    racer a = { .h = h, .action = how % END_HOWS }, b = { .h = h, .action = (how / END_HOWS) % END_HOWS };
    if (!race(&a, &b)) return;
    const int wins = (a.status == MVVM_OK) + (b.status == MVVM_OK);
    if (wins > 1) FAIL("two threads ending handle 0x%" PRIx64 " at once were both told MVVM_OK", h);
    if (was_dead && wins) FAIL("a handle known dead was ended again");
    if (!wins) return;
    if (index >= 0 && pool[index].kind == K_CALL) {
        async_data *d = &asyncs[pool[index].async];
        if (atomic_load(&d->done) != 1) FAIL("a call ended by a race had not completed when its end returned");
        const bool cancel_won = (a.status == MVVM_OK ? a.action : b.action) != END_UNSUBSCRIBE;
        if (cancel_won && atomic_load(&d->status) != MVVM_ERR_CANCELLED)
            FAIL("a cancel said MVVM_OK but the call completed with %s", mvvm_status_name(atomic_load(&d->status)));
    }
    check_released(h);
}

/* A cancel (or the call's release) on this thread against what completes the call on another:
 * an advance of its virtual loop, or the release of its loop. A cancel that says MVVM_OK decided
 * the outcome: the completion says CANCELLED. Racing the loop's release it may also be told
 * LOOP_RELEASED or INVALID_HANDLE, never anything undocumented. */
static void op_race_cancel(reader *r) {
    int call_index = -1;
    for (int i = npool - 1; i >= 0; i--)
        if (pool[i].kind == K_CALL && !known_dead(i)) {
            call_index = i;
            break;
        }
    if (call_index < 0) return;
    entry *e = &pool[call_index];
    async_data *d = &asyncs[e->async];
    const int loop_index = find_entry(d->loop);
    if (loop_index < 0 || pool[loop_index].dead) return;
    uint8_t how = u8(r);
    const bool release_loop = how & 1;
    if (!release_loop && pool[loop_index].loop_kind != MVVM_LOOP_VIRTUAL) return;
    racer other = { .h = d->loop, .action = release_loop ? RACE_RELEASE_LOOP : RACE_ADVANCE, .ms = (how >> 2) % 4 ? 1000 : 0 };
    racer self = { .h = e->h, .action = how & 2 ? END_RELEASE : END_CANCEL };
    if (!race(&other, &self)) return;
    if (release_loop && other.status == MVVM_OK) {
        check_released(d->loop);
        pool[loop_index].dead = true;
    }
    if (self.status == MVVM_OK) {
        if (atomic_load(&d->done) != 1) FAIL("a cancelled call's completion had not run when cancel returned");
        if (atomic_load(&d->status) != MVVM_ERR_CANCELLED)
            FAIL("a cancel said MVVM_OK but the call completed with %s", mvvm_status_name(atomic_load(&d->status)));
        check_released(e->h);
    }
}

#if FUZZ_TARGET == 1
/* Values narrower than their C types, as real models' are (Tests/outside's Booking): a String
 * enum that is not CaseIterable, a record whose init(from:) refuses a negative number of nights,
 * a reference whose failable init takes only "BK-" and four digits, Floats. Strings that are
 * almost right and numbers beyond Float's range, through every way a value enters: set, call,
 * send, async call, constructor. Each is taken or refused with INVALID_ARGUMENT (never a crash);
 * a refused set leaves the property as it was, a taken one reads back. */
static const char *const narrow_strings[] = {
    "low", "high", "grumpy", "LOW", "", "low ", "BK-1234", "BK-0000", "BK-123", "BK-12345", "bk-1234", "BK-12a4",
    "BK-\xd9\xa1\xd9\xa2\xd9\xa3\xd9\xa4", "BK-1234\xff", "00000000-0000-0000-0000-000000000000", "high\xcc\x81",
};
static const double narrow_doubles[] = { 0, 1.5, -2, 3.4028234663852886e38, 3.4028235677973366e38, 1e300, -1e300,
                                         1e-46, INFINITY, -INFINITY, NAN, -0.0 };

static mvvm_value narrow_string(reader *r) {
    return (mvvm_value){ .type = MVVM_TYPE_STRING, .string = narrow_strings[u8(r) % COUNT(narrow_strings)] };
}

/* A stay, by position or by field name, its nights perhaps negative and its rate perhaps beyond
 * Float's range; `fields` holds its items. */
static mvvm_value narrow_stay(reader *r, mvvm_value fields[4]) {
    const int64_t nights = (int64_t)(int8_t)u8(r);
    const double rate = narrow_doubles[u8(r) % COUNT(narrow_doubles)];
    mvvm_value v = { .type = MVVM_TYPE_RECORD, .integer = 2, .string = u8(r) & 1 ? NULL : "stay" };
    if (u8(r) & 1) {
        fields[0] = (mvvm_value){ .type = MVVM_TYPE_INT, .integer = nights };
        fields[1] = (mvvm_value){ .type = MVVM_TYPE_DOUBLE, .number = rate };
    } else {
        v = (mvvm_value){ .type = MVVM_TYPE_MAP, .integer = 2 };
        fields[0] = (mvvm_value){ .type = MVVM_TYPE_STRING, .string = "rate" };
        fields[1] = (mvvm_value){ .type = MVVM_TYPE_DOUBLE, .number = rate };
        fields[2] = (mvvm_value){ .type = MVVM_TYPE_STRING, .string = "nights" };
        fields[3] = (mvvm_value){ .type = MVVM_TYPE_INT, .integer = nights };
    }
    MVVM_VALUE_SET_ITEMS(&v, fields);
    return v;
}

/* A refusal of a value of the right kind: the library's, with its reason. */
static void expect_taken_or_refused(mvvm_status status, bool live) {
    if (!live) return;
    if (status != MVVM_OK && status != MVVM_ERR_INVALID_ARGUMENT)
        FAIL("a value of the right kind was answered %s, not OK or INVALID_ARGUMENT", mvvm_status_name(status));
}

static void op_narrow_values(reader *r) {
    int index = -1;
    for (int i = npool - 1; i >= 0 && index < 0; i--)
        if (pool[i].kind == K_OBJECT && !known_dead(i) && is_class(pool[i].h, "booking")) index = i;
    const uint8_t what = u8(r);
    if (index < 0 || what < 24) {
        int loop = -1;
        for (int i = npool - 1; i >= 0 && loop < 0; i--)
            if (pool[i].kind == K_LOOP && !known_dead(i)) loop = i;
        if (loop < 0) return;
        mvvm_value arg = narrow_string(r);
        const size_t count = what & 1;
        mvvm_handle out = SENTINEL;
        mvvm_status status = CALL(mvvm_new(pool[loop].h, "booking", count ? &arg : NULL, count, &out), S_MVVM_NEW);
        if (status != MVVM_OK) {
            if (out != SENTINEL) FAIL("a failed constructor wrote its out-pointer");
            expect_taken_or_refused(status, count && utf8_valid(arg.string) && status != MVVM_ERR_INVALID_HANDLE &&
                                                status != MVVM_ERR_LOOP_RELEASED);
            return;
        }
        add_entry(out, K_OBJECT, pool[loop].loop_kind, pool[loop].h);
        atomic_store(&cross_targets[ncross++ % CROSS_TARGETS], out);
        return;
    }
    const mvvm_handle h = pool[index].h;
    mvvm_value fields[4], arg;
    const char *name = NULL;
    bool call = false;
    switch (what % 8) {
    case 0: name = "urgency", arg = narrow_string(r); break;
    case 1: name = "reference", arg = narrow_string(r); break;
    case 2: name = "stay", arg = narrow_stay(r, fields); break;
    case 3: name = "rate", arg = (mvvm_value){ .type = MVVM_TYPE_DOUBLE, .number = narrow_doubles[u8(r) % COUNT(narrow_doubles)] }; break;
    case 4: {
        for (int i = 0; i < 4; i++) fields[i] = (mvvm_value){ .type = MVVM_TYPE_DOUBLE, .number = narrow_doubles[u8(r) % COUNT(narrow_doubles)] };
        name = "rates", arg = (mvvm_value){ .type = MVVM_TYPE_ARRAY, .integer = u8(r) % 5 };
        MVVM_VALUE_SET_ITEMS(&arg, fields);
        break;
    }
    case 5: call = true, name = (const char *[]){ "mark", "refer" }[u8(r) & 1], arg = narrow_string(r); break;
    case 6: call = true, name = "stay_for", arg = narrow_stay(r, fields); break;
    default: {
        /* book(stay, urgency), asynchronously: refused at its start, or completed once. */
        mvvm_value args[2] = { narrow_stay(r, fields), narrow_string(r) };
        call_args a = { .args = args, .names = NULL, .count = 2 };
        start_async(h, index, "book", &a, u8(r) & 0xF0, DONE_NOTHING, 0);
        return;
    }
    }
    atomic_fetch_add(&mutations, 1);
    if (call) {
        mvvm_value result;
        memset(&result, 0, sizeof result);
        const mvvm_status status = u8(r) & 1 ? CALL(mvvm_send(h, name, &arg), S_SEND) : CALL(mvvm_call(h, name, &arg, 1, &result), S_CALL);
        if (status == MVVM_OK) take_result(&result);
        expect_taken_or_refused(status, value_acceptable(&arg, 1) && status != MVVM_ERR_INVALID_HANDLE && status != MVVM_ERR_LOOP_RELEASED);
        return;
    }
    mvvm_value before;
    memset(&before, 0, sizeof before);
    const bool read_before = CALL(mvvm_get(h, name, &before), S_GET) == MVVM_OK;
    const int mutations_before = atomic_load(&mutations);
    const mvvm_status status = CALL(mvvm_set(h, name, &arg), S_SET);
    expect_taken_or_refused(status, value_acceptable(&arg, 1) && status != MVVM_ERR_INVALID_HANDLE && status != MVVM_ERR_LOOP_RELEASED);
    mvvm_value after;
    memset(&after, 0, sizeof after);
    if (read_before && CALL(mvvm_get(h, name, &after), S_GET) == MVVM_OK) {
        /* A refused value changed nothing (unless a callback of this loop's was at work). */
        if (status == MVVM_ERR_INVALID_ARGUMENT && atomic_load(&mutations) == mutations_before && !value_equal(&before, &after))
            FAIL("a refused value of %s changed it", name);
        take_result(&after);
    }
    if (read_before) take_result(&before);
}
#endif

/* The operations of op byte 255, each chosen by the byte after it (earlier inputs gave 255 to
 * the operation its place in take_op's table names; the newer decoders keep theirs). */
static void take_round_four_op(reader *r) {
    switch (u8(r) % 3) {
    case 0: op_race_end(r); break;
    case 1: op_race_cancel(r); break;
#if FUZZ_TARGET == 1
    default: op_narrow_values(r); break;
#else
    default: op_race_end(r); break;
#endif
    }
}

static void take_op(reader *r, uint8_t b) {
    if (b < OLD_OPS_BELOW) {
        switch (b % 20) {
        case 0: op_loop_new(r); break;
        case 1:
        case 2: op_construct(r); break;
        case 3: op_get(r); break;
        case 4: op_set(r); break;
        case 5: op_send(r); break;
        case 6: op_child(r); break;
        case 7: op_class_name(r); break;
        case 8: op_json(r); break;
        case 9: op_end(r, false); break;
        case 10:
        case 11: op_subscribe(r); break;
        case 12: op_end(r, true); break;
        case 13: op_complete(r); break;
        case 14:
        case 15: op_loop_run(r); break;
        case 16: op_loop_query(r); break;
        case 17:
        case 18: op_typed(r); break;
        default: op_misc(r); break;
        }
        return;
    }
    if (b == 255) {
        take_round_four_op(r);
        return;
    }
    switch ((b - OLD_OPS_BELOW) % 12) {
    case 0: op_value_get(r); break;
    case 1: op_value_set(r); break;
    case 2: op_call(r); break;
    case 3: op_call_async(r); break;
    case 4: op_cancel(r); break;
    case 5: op_new_named(r); break;
    case 6: op_value_copy(r); break;
    case 7:
    case 8: op_list(r); break;
#if FUZZ_TARGET == 2
    case 9: op_todo_path(r); break;
#endif
#if FUZZ_TARGET == 0
    default: op_new_named(r); break; /* the catalog's classes: op_construct makes them well */
#else
    default: op_new_target(r); break;
#endif
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* LeakSanitizer's one suppression, compiled in so that a replay by hand applies it too.
 * libdispatch frees a disposed queue's queue-specific data later, from a continuation it posts
 * to a global queue (_dispatch_queue_dispose -> _dispatch_barrier_async_detached_f). GRDB keys its
 * database queues that way, so a todo database closed just before the process ends leaves that
 * continuation, and the entries it would free, pending at exit: libdispatch's deferred free, not a
 * leak (fuzz_todo, fourth run: 64 bytes direct, 3,776 reachable only from it). Leaks reachable
 * only from a suppressed block are not reported either; any other leak still fails the run. */
const char *__lsan_default_suppressions(void) {
    return "leak:_dispatch_barrier_async_detached_f\n";
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    load_classes();
    fprintf(stderr, "fuzz: %d classes; %zu names and %zu texts learnt from the library's description\n",
            nlibrary_classes, nlearnt_names, nlearnt_strings);
#if FUZZ_TARGET == 2
    snprintf(scratch, sizeof scratch, "/tmp/mvvm-fuzz-todo.XXXXXX");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(1);
    }
    atexit(remove_scratch);
#endif
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = { data, size, 0 };
    main_thread = pthread_self();
    load_classes();
    npool = nsubs = nsvcs = thread_loops = ncross = nasyncs = 0;
    for (int i = 0; i < CROSS_TARGETS; i++) atomic_store(&cross_targets[i], 0);
    nside = 0;
    /* Most inputs start with a virtual loop, so that the rest has something to work on. */
    if (u8(&r) < 200) {
        mvvm_handle loop = 0;
        if (CALL(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), S_LOOP_NEW) != MVVM_OK) FAIL("no loop");
        add_entry(loop, K_LOOP, MVVM_LOOP_VIRTUAL, loop);
    }
    int ops = 0;
    while (!exhausted(&r) && ops++ < 400) {
        adopt_side_requests();
        if (trace_ops()) fprintf(stderr, "op at %zu: %u\n", r.pos, r.data[r.pos]);
        take_op(&r, u8(&r));
        in_loop_run = false;
        check_after_operation();
    }
    current_call = "the end of the input";
    release_everything(size & 1);
#if FUZZ_TARGET == 2
    remove_tree(scratch); /* the databases made, now closed */
#endif
    for (int i = 0; i < nasyncs; i++) {
        async_data *d = &asyncs[i];
        int done = atomic_load(&d->done), destroyed = atomic_load(&d->destroyed);
        if (done != (d->started ? 1 : 0)) FAIL("async call %d (started: %d): its completion ran %d times", i, d->started, done);
        if (destroyed != (d->expect_destroy ? 1 : 0))
            FAIL("async call %d: its destroy function ran %d times (expected %d)", i, destroyed, d->expect_destroy ? 1 : 0);
    }

    /* Every handle this input saw is invalid now; every destroy function ran once. */
    for (int i = 0; i < npool; i++) {
        const char *name = NULL;
        if (CALL(mvvm_class_name(pool[i].h, &name), S_CLASS) != MVVM_ERR_INVALID_HANDLE)
            FAIL("handle 0x%" PRIx64 " (%s) outlived the release of everything", pool[i].h, name);
    }
    for (int i = 0; i < nsubs; i++) {
        int destroyed = atomic_load(&subs[i].destroyed);
        if (destroyed != (subs[i].expect_destroy ? 1 : 0))
            FAIL("subscription data %d: its destroy function ran %d times (expected %d)", i, destroyed,
                 subs[i].expect_destroy ? 1 : 0);
    }
    for (int i = 0; i < nsvcs; i++) {
        if (atomic_load(&svcs[i].destroyed) != 1)
            FAIL("service %d: its destroy function ran %d times", i, atomic_load(&svcs[i].destroyed));
    }
    return 0;
}
