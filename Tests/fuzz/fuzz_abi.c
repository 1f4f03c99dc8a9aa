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
 * Build and run: Tests/fuzz/build.sh, Tests/fuzz/run.sh SECONDS (0 replays the corpus only).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mvvm.h"

/* ------------------------------------------------------------------------------------------ */
/* Failing                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The call being checked, for the report (per thread: thread loops call back on their own). */
static _Thread_local const char *current_call = "";

static void fail(const char *file, int line, const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "\nfuzz_abi: invariant broken at %s:%d (in %s): ", file, line, current_call);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\n  mvvm_last_error(): \"%s\"\n", mvvm_last_error());
    fflush(stderr);
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
#define S_SEND (S_GET | B(MVVM_ERR_INVALID_ARGUMENT))
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

/* FUZZ_TRACE=1 prints every call and its status (to replay a finding by hand). */
static int trace = -1;

/* Checks a status against the documented set; a failure must leave a message. */
static mvvm_status checked(mvvm_status status, unsigned allowed, const char *call) {
    current_call = call;
    if (trace < 0) trace = getenv("FUZZ_TRACE") && strcmp(getenv("FUZZ_TRACE"), "1") == 0;
    if (trace) fprintf(stderr, "  %s -> %s\n", call, mvvm_status_name(status));
    if ((unsigned)status > MVVM_ERR_LOOP_RELEASED) FAIL("status %u is not one of mvvm.h's", (unsigned)status);
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

static bool utf8_valid(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
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

/* ------------------------------------------------------------------------------------------ */
/* Reading the input                                                                          */
/* ------------------------------------------------------------------------------------------ */

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
};
#define KNOWN_NAMES (sizeof known_names / sizeof known_names[0])

/* Strings worth trying as values. */
static const char *const known_strings[] = {
    "", "start", "pause", "stop", "abcdef", "abcde", "password1", "passwor", "password", "user-1",
    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7", "e\xcc\x81", "\"quoted\\\"\n\t",
    "\xff\xfe", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "ok\x80", "Start", "\x01\x1f",
};
#define KNOWN_STRINGS (sizeof known_strings / sizeof known_strings[0])

#define TEXT_MAX 40

/* A string from the input: a known one, or raw bytes (NUL-terminated, perhaps invalid UTF-8). */
static void take_text(reader *r, char out[TEXT_MAX], bool names) {
    uint8_t b = u8(r);
    if (b < 160) {
        const char *s = names ? known_names[b % KNOWN_NAMES] : known_strings[b % KNOWN_STRINGS];
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
/* What one input created                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef enum kind { K_LOOP, K_OBJECT, K_SUBSCRIPTION, K_REQUEST } kind;

typedef struct entry {
    mvvm_handle h;
    kind kind;
    int loop_kind;   /* loops: their kind; objects: their loop's kind (-1 unknown) */
    mvvm_handle loop; /* objects: their loop */
    bool dead;       /* released by a call that said MVVM_OK: every later call must refuse it */
    bool answered;   /* requests: mvvm_complete_soon said MVVM_OK (the handle lives until the
                        loop applies the answer): no later answer may be taken */
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

/* Whether the pool entry at `index` is one released by us (every call must refuse it). Asked
 * before the call: a callback or a service may release the handle during it. */
static bool known_dead(int index) { return index >= 0 && pool[index].dead; }

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
} sub_data;

#define SUBS 160
static sub_data subs[SUBS];
static int nsubs;

/* Counts a destroy function's run; a second run of the same one breaks the rule. */
static void count_destroy(atomic_int *destroyed, const char *whose) {
    if (atomic_fetch_add(destroyed, 1) != 0) FAIL("a %s's destroy function ran twice", whose);
}

static void sub_destroy(void *user_data) { count_destroy(&((sub_data *)user_data)->destroyed, "subscription"); }

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
    default: FAIL("a property event of type %d", (int)event->value.type);
    }
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
    if (event->kind != MVVM_EVENT_PROPERTY && event->kind != MVVM_EVENT_SIGNAL) FAIL("event kind %d", (int)event->kind);
    if ((unsigned)event->value.type > MVVM_TYPE_STRING) FAIL("event value type %d", (int)event->value.type);
    if (event->value.type == MVVM_TYPE_STRING && (!event->value.string || !utf8_valid(event->value.string)))
        FAIL("an event string that is NULL or not UTF-8");
    if (event->kind == MVVM_EVENT_PROPERTY) read_back(source, event);

    bool on_main = pthread_equal(pthread_self(), main_thread);
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
        case CB_SEND:
            atomic_fetch_add(&mutations, 1);
            CALL(mvvm_send(source, d->name, d->value.type == MVVM_TYPE_NONE ? NULL : &d->value), S_SEND);
            break;
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

static const char *const other_class_names[] = { "loop", "subscription", "request", "service" };

/* The class of a handle if it is live (NULL if not). */
static const char *class_of(mvvm_handle h) {
    const char *name = NULL;
    if (h == 0) return NULL;
    mvvm_status status = CALL(mvvm_class_name(h, &name), S_CLASS);
    if (status != MVVM_OK) return NULL;
    if (!name) FAIL("mvvm_class_name said OK with NULL");
    bool known = false;
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

static const mvvm_handle SENTINEL = 0xDEADBEEFCAFEF00DULL;

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
        bool known = s >= 0 && s <= MVVM_ERR_LOOP_RELEASED;
        if (known != (strcmp(name, "MVVM_UNKNOWN_STATUS") != 0)) FAIL("status %d is named %s", s, name);
        break;
    }
    case 1:
        if (strcmp(mvvm_version(), "0.2.0") != 0) FAIL("version %s", mvvm_version());
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = { data, size, 0 };
    main_thread = pthread_self();
    npool = nsubs = nsvcs = thread_loops = ncross = 0;
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
        switch (u8(&r) % 20) {
        case 0: op_loop_new(&r); break;
        case 1:
        case 2: op_construct(&r); break;
        case 3: op_get(&r); break;
        case 4: op_set(&r); break;
        case 5: op_send(&r); break;
        case 6: op_child(&r); break;
        case 7: op_class_name(&r); break;
        case 8: op_json(&r); break;
        case 9: op_end(&r, false); break;
        case 10:
        case 11: op_subscribe(&r); break;
        case 12: op_end(&r, true); break;
        case 13: op_complete(&r); break;
        case 14:
        case 15: op_loop_run(&r); break;
        case 16: op_loop_query(&r); break;
        case 17:
        case 18: op_typed(&r); break;
        default: op_misc(&r); break;
        }
    }
    current_call = "the end of the input";
    release_everything(size & 1);

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
