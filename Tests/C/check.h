/*
 * check.h - a tiny test harness for the C tests of libmvvm, and the helpers they share.
 *
 * A test program is one executable with several test functions:
 *
 *     static void counter_counts(void) {
 *         mvvm_handle loop = 0;
 *         CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK);
 *         CHECK(loop != 0);
 *         ...
 *     }
 *     int main(int argc, char **argv) {
 *         static const check_test tests[] = { CHECK_TEST(counter_counts), ... };
 *         return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
 *     }
 *
 * Each test runs in a child process of its own (fork), under a time limit, so one crash or hang
 * fails that test only; CHECK_NO_FORK=1 runs them in-process (for a debugger). CHECK_TIMEOUT_S
 * sets the limit (default 60 s). Arguments name the tests to run (default: all).
 * The last line printed is "<program>: N passed, N failed" (N counts test functions); the exit
 * status is non-zero when any test failed.
 *
 * The including file must define _POSIX_C_SOURCE (200809L) before any #include.
 */
#ifndef MVVM_C_TESTS_CHECK_H
#define MVVM_C_TESTS_CHECK_H

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mvvm.h"

/* Built with ThreadSanitizer (clang's -fsanitize=thread or GCC's). TSan does not support fork()
 * in a process with threads: a child can hang inside TSan's own runtime, whatever the library
 * does, so tests that fork with a loop's thread running leave it out (they run natively, under
 * valgrind and under AddressSanitizer). */
#if defined(__SANITIZE_THREAD__)
#define CHECK_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CHECK_UNDER_TSAN 1
#endif
#endif

/* ------------------------------------------------------------------------------------------ */
/* Recording failures                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Failed checks in the running test; a test passes when it ends with none. */
static int check_failures;

static inline void check_fail_header(const char *file, int line) {
    printf("    %s:%d: ", file, line);
}

static inline void check_fail_footer(void) {
    const char *error = mvvm_last_error();
    printf("    (mvvm_last_error: \"%s\")\n", error ? error : "(NULL)");
    fflush(stdout);
    check_failures++;
}

static inline bool check_true(bool ok, const char *expression, const char *file, int line) {
    if (ok) return true;
    check_fail_header(file, line);
    printf("CHECK(%s) failed\n", expression);
    check_fail_footer();
    return false;
}

static inline const char *check_status_name(mvvm_status status) {
    const char *name = mvvm_status_name(status);
    return name ? name : "(NULL)";
}

static inline bool check_status(mvvm_status got, mvvm_status expected, const char *call,
                                const char *file, int line) {
    if (got == expected) return true;
    check_fail_header(file, line);
    printf("%s\n      returned %s (%d), expected %s (%d)\n", call, check_status_name(got), (int)got,
           check_status_name(expected), (int)expected);
    check_fail_footer();
    return false;
}

static inline bool check_int_eq(int64_t got, int64_t expected, const char *expression,
                                const char *file, int line) {
    if (got == expected) return true;
    check_fail_header(file, line);
    printf("%s is %" PRId64 ", expected %" PRId64 "\n", expression, got, expected);
    check_fail_footer();
    return false;
}

static inline bool check_str_eq(const char *got, const char *expected, const char *expression,
                                const char *file, int line) {
    if (got && expected && strcmp(got, expected) == 0) return true;
    if (!got && !expected) return true;
    check_fail_header(file, line);
    printf("%s is %s%s%s, expected %s%s%s\n", expression, got ? "\"" : "", got ? got : "NULL",
           got ? "\"" : "", expected ? "\"" : "", expected ? expected : "NULL", expected ? "\"" : "");
    check_fail_footer();
    return false;
}

/** Checks a condition; evaluates to whether it held. */
#define CHECK(cond) check_true((cond) ? true : false, #cond, __FILE__, __LINE__)
/** Checks that a call returns the expected status; evaluates to whether it did. */
#define CHECK_STATUS(call, expected) check_status((call), (expected), #call, __FILE__, __LINE__)
/** Checks two integers are equal, printing both when not. */
#define CHECK_EQ_INT(got, expected) check_int_eq((int64_t)(got), (int64_t)(expected), #got, __FILE__, __LINE__)
/** Checks two strings (either may be NULL) are equal, printing both when not. */
#define CHECK_EQ_STR(got, expected) check_str_eq((got), (expected), #got, __FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------ */
/* Reading properties                                                                         */
/* ------------------------------------------------------------------------------------------ */

static inline bool check_get_int(mvvm_handle h, const char *name, int64_t expected, const char *file, int line) {
    int64_t value = -77777;
    mvvm_status status = mvvm_get_int(h, name, &value);
    if (status != MVVM_OK) {
        check_fail_header(file, line);
        printf("mvvm_get_int(\"%s\") returned %s, expected MVVM_OK\n", name, check_status_name(status));
        check_fail_footer();
        return false;
    }
    if (value == expected) return true;
    check_fail_header(file, line);
    printf("int property \"%s\" is %" PRId64 ", expected %" PRId64 "\n", name, value, expected);
    check_fail_footer();
    return false;
}

static inline bool check_get_bool(mvvm_handle h, const char *name, bool expected, const char *file, int line) {
    bool value = !expected;
    mvvm_status status = mvvm_get_bool(h, name, &value);
    if (status != MVVM_OK) {
        check_fail_header(file, line);
        printf("mvvm_get_bool(\"%s\") returned %s, expected MVVM_OK\n", name, check_status_name(status));
        check_fail_footer();
        return false;
    }
    if (value == expected) return true;
    check_fail_header(file, line);
    printf("bool property \"%s\" is %s, expected %s\n", name, value ? "true" : "false", expected ? "true" : "false");
    check_fail_footer();
    return false;
}

static inline bool check_get_string(mvvm_handle h, const char *name, const char *expected, const char *file, int line) {
    char *value = NULL;
    mvvm_status status = mvvm_get_string(h, name, &value);
    if (status != MVVM_OK) {
        check_fail_header(file, line);
        printf("mvvm_get_string(\"%s\") returned %s, expected MVVM_OK\n", name, check_status_name(status));
        check_fail_footer();
        return false;
    }
    bool ok = value && strcmp(value, expected) == 0;
    if (!ok) {
        check_fail_header(file, line);
        printf("string property \"%s\" is %s%s%s, expected \"%s\"\n", name, value ? "\"" : "",
               value ? value : "NULL", value ? "\"" : "", expected);
        check_fail_footer();
    }
    mvvm_string_free(value);
    return ok;
}

/** Checks the int property `name` of `h` reads OK and equals `expected`. */
#define CHECK_GET_INT(h, name, expected) check_get_int((h), (name), (expected), __FILE__, __LINE__)
/** Checks the bool property `name` of `h` reads OK and equals `expected`. */
#define CHECK_GET_BOOL(h, name, expected) check_get_bool((h), (name), (expected), __FILE__, __LINE__)
/** Checks the string property `name` of `h` reads OK and equals `expected`; frees it. */
#define CHECK_GET_STRING(h, name, expected) check_get_string((h), (name), (expected), __FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------ */
/* Objects the tests share                                                                    */
/* ------------------------------------------------------------------------------------------ */

static inline mvvm_handle new_virtual_loop(void) {
    mvvm_handle loop = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK);
    CHECK(loop != 0);
    return loop;
}

#ifdef MVVM_CATALOG_H /* the catalog's typed calls: a test of the catalog includes mvvm_catalog.h first */
/* Sets the four bindings of a sign-up form through its typed setters. */
static inline void fill_sign_up(mvvm_handle vm, const char *user_id, const char *password, const char *confirm,
                                bool agreed) {
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, user_id), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_set_password(vm, password), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_set_confirm_password(vm, confirm), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_set_agreed(vm, agreed), MVVM_OK);
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static inline mvvm_value value_none(void) { mvvm_value v = {0}; v.type = MVVM_TYPE_NONE; return v; }
static inline mvvm_value value_bool(bool b) { mvvm_value v = {0}; v.type = MVVM_TYPE_BOOL; v.boolean = b; return v; }
static inline mvvm_value value_int(int64_t i) { mvvm_value v = {0}; v.type = MVVM_TYPE_INT; v.integer = i; return v; }
static inline mvvm_value value_double(double d) { mvvm_value v = {0}; v.type = MVVM_TYPE_DOUBLE; v.number = d; return v; }
static inline mvvm_value value_string(const char *s) { mvvm_value v = {0}; v.type = MVVM_TYPE_STRING; v.string = s; return v; }
static inline mvvm_value value_object(mvvm_handle h) { mvvm_value v = {0}; v.type = MVVM_TYPE_OBJECT; v.object = h; return v; }

static inline mvvm_value value_null(void) { mvvm_value v = {0}; v.type = MVVM_TYPE_NULL; return v; }
static inline mvvm_value value_bytes(const void *bytes, int64_t length) {
    mvvm_value v = {0}; v.type = MVVM_TYPE_BYTES; v.string = bytes; v.integer = length; return v;
}
/** An array, record or map value over `count` items (pairs, for a map) the caller keeps. */
static inline mvvm_value value_items(mvvm_type type, const mvvm_value *items, int64_t count) {
    mvvm_value v = {0}; v.type = type; v.integer = count; MVVM_VALUE_SET_ITEMS(&v, items); return v;
}

/**
 * A value as text: "true"/"false", decimal integers, "%g" doubles, strings as they are (up to
 * their length), "" for none, "null", "bytes:N", arrays as "[a, b]", records as "name{a, b}".
 */
static inline void value_to_text(const mvvm_value *value, char *out, size_t size) {
    if (size == 0) return;
    out[0] = '\0';
    switch (value->type) {
    case MVVM_TYPE_BOOL: snprintf(out, size, "%s", value->boolean ? "true" : "false"); break;
    case MVVM_TYPE_INT: snprintf(out, size, "%" PRId64, value->integer); break;
    case MVVM_TYPE_DOUBLE: snprintf(out, size, "%g", value->number); break;
    case MVVM_TYPE_STRING: snprintf(out, size, "%s", value->string ? value->string : "(NULL)"); break;
    case MVVM_TYPE_NONE: break;
    case MVVM_TYPE_NULL: snprintf(out, size, "null"); break;
    case MVVM_TYPE_BYTES: snprintf(out, size, "bytes:%" PRId64, value->integer); break;
    case MVVM_TYPE_ARRAY: case MVVM_TYPE_RECORD: {
        size_t used = (size_t)snprintf(out, size, "%s%s", value->type == MVVM_TYPE_RECORD && value->string ? value->string : "",
                                       value->type == MVVM_TYPE_RECORD ? "{" : "[");
        for (int64_t i = 0; i < value->integer && used < size; i++) {
            if (i > 0) used += (size_t)snprintf(out + used, size - used, ", ");
            if (used >= size) break;
            value_to_text(MVVM_VALUE_ITEMS(value) + i, out + used, size - used);
            used += strlen(out + used);
        }
        if (used < size) snprintf(out + used, size - used, "%s", value->type == MVVM_TYPE_RECORD ? "}" : "]");
        break;
    }
    default: snprintf(out, size, "(bad type %d)", (int)value->type); break;
    }
}

/** Reads property `name` of type `type` from `h` as text (see value_to_text); any type but the
 *  plain ones through mvvm_get. */
static inline mvvm_status read_property_text(mvvm_handle h, const char *name, mvvm_type type, char *out, size_t size) {
    mvvm_value v = {0};
    mvvm_status status;
    char *s = NULL;
    v.type = type;
    switch (type) {
    case MVVM_TYPE_BOOL: status = mvvm_get_bool(h, name, &v.boolean); break;
    case MVVM_TYPE_INT: status = mvvm_get_int(h, name, &v.integer); break;
    case MVVM_TYPE_DOUBLE: status = mvvm_get_double(h, name, &v.number); break;
    case MVVM_TYPE_STRING: status = mvvm_get_string(h, name, &s); v.string = s; break;
    default:
        status = mvvm_get(h, name, &v);
        if (status == MVVM_OK) value_to_text(&v, out, size);
        mvvm_value_free(&v);
        return status;
    }
    if (status == MVVM_OK) value_to_text(&v, out, size);
    mvvm_string_free(s);
    return status;
}

/** Reads any property with mvvm_get as text; "(failed: STATUS)" when it fails. */
static inline const char *get_text(mvvm_handle h, const char *name, char *out, size_t size) {
    mvvm_value v = {0};
    mvvm_status status = mvvm_get(h, name, &v);
    if (status == MVVM_OK) value_to_text(&v, out, size);
    else snprintf(out, size, "(failed: %s)", check_status_name(status));
    mvvm_value_free(&v);
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* A recording callback                                                                       */
/* ------------------------------------------------------------------------------------------ */

#define RECORDER_MAX 512
#define RECORDER_TEXT 160

/**
 * user_data for recorder_callback / recorder_destroy: every event as arrays (the first
 * RECORDER_MAX of them; `count` counts all), the thread each ran on, and how often the
 * subscription's destroy function ran. With `read_back` set, the callback also reads each
 * notified property with the getter of its type, inside the callback, into `read[i]`.
 * Thread-safe: the callback may run on any thread.
 */
typedef struct recorder {
    pthread_mutex_t mutex;
    int count;
    mvvm_handle source[RECORDER_MAX];
    mvvm_event_kind kind[RECORDER_MAX];
    mvvm_type type[RECORDER_MAX];
    char name[RECORDER_MAX][48];
    char text[RECORDER_MAX][RECORDER_TEXT];
    char read[RECORDER_MAX][RECORDER_TEXT];
    pthread_t thread[RECORDER_MAX];
    bool read_back;
    int destroyed;
    int calls_after_destroy;
} recorder;

static inline recorder *recorder_new(void) {
    recorder *r = calloc(1, sizeof *r);
    if (!r) abort();
    pthread_mutex_init(&r->mutex, NULL);
    return r;
}

static inline void recorder_free(recorder *r) {
    if (!r) return;
    pthread_mutex_destroy(&r->mutex);
    free(r);
}

static inline void recorder_clear(recorder *r) {
    pthread_mutex_lock(&r->mutex);
    r->count = 0;
    pthread_mutex_unlock(&r->mutex);
}

static inline void recorder_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    recorder *r = user_data;
    char read[RECORDER_TEXT] = "";
    if (r->read_back && event->kind == MVVM_EVENT_PROPERTY) {
        mvvm_status status = read_property_text(source, event->name, event->value.type, read, sizeof read);
        if (status != MVVM_OK) snprintf(read, sizeof read, "(read failed: %s)", check_status_name(status));
    }
    pthread_mutex_lock(&r->mutex);
    if (r->destroyed) r->calls_after_destroy++;
    int i = r->count++;
    if (i < RECORDER_MAX) {
        r->source[i] = source;
        r->kind[i] = event->kind;
        r->type[i] = event->value.type;
        snprintf(r->name[i], sizeof r->name[i], "%s", event->name ? event->name : "(NULL)");
        value_to_text(&event->value, r->text[i], sizeof r->text[i]);
        snprintf(r->read[i], sizeof r->read[i], "%s", read);
        r->thread[i] = pthread_self();
    }
    pthread_mutex_unlock(&r->mutex);
}

static inline void recorder_destroy(void *user_data) {
    recorder *r = user_data;
    pthread_mutex_lock(&r->mutex);
    r->destroyed++;
    pthread_mutex_unlock(&r->mutex);
}

/** How many events were recorded in all (NULL name) or for `name`. */
static inline int rec_count(recorder *r, const char *name) {
    pthread_mutex_lock(&r->mutex);
    int n = 0, stored = r->count < RECORDER_MAX ? r->count : RECORDER_MAX;
    if (!name) n = r->count;
    else
        for (int i = 0; i < stored; i++)
            if (strcmp(r->name[i], name) == 0) n++;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

/** The index of the `nth` event (0 first, -1 last) named `name` (NULL: any), or -1. */
static inline int rec_index(recorder *r, const char *name, int nth) {
    pthread_mutex_lock(&r->mutex);
    int stored = r->count < RECORDER_MAX ? r->count : RECORDER_MAX, found = -1;
    int matches[RECORDER_MAX], n = 0;
    for (int i = 0; i < stored; i++)
        if (!name || strcmp(r->name[i], name) == 0) matches[n++] = i;
    if (nth < 0) nth += n;
    if (nth >= 0 && nth < n) found = matches[nth];
    pthread_mutex_unlock(&r->mutex);
    return found;
}

/** The text of the `nth` event (0 first, -1 last) named `name` (NULL: any), or NULL. */
static inline const char *rec_text(recorder *r, const char *name, int nth) {
    int i = rec_index(r, name, nth);
    return i < 0 ? NULL : r->text[i];
}

/** How many events named `name` carried the value `text`. */
static inline int rec_count_text(recorder *r, const char *name, const char *text) {
    pthread_mutex_lock(&r->mutex);
    int n = 0, stored = r->count < RECORDER_MAX ? r->count : RECORDER_MAX;
    for (int i = 0; i < stored; i++)
        if (strcmp(r->name[i], name) == 0 && strcmp(r->text[i], text) == 0) n++;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

/** How many recorded events ran on a thread other than `thread`. */
static inline int rec_count_off_thread(recorder *r, pthread_t thread) {
    pthread_mutex_lock(&r->mutex);
    int n = 0, stored = r->count < RECORDER_MAX ? r->count : RECORDER_MAX;
    for (int i = 0; i < stored; i++)
        if (!pthread_equal(r->thread[i], thread)) n++;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

static inline int rec_destroyed(recorder *r) {
    pthread_mutex_lock(&r->mutex);
    int n = r->destroyed;
    pthread_mutex_unlock(&r->mutex);
    return n;
}

/** A destroy function whose user_data is an int counter. */
static inline void count_destroy(void *user_data) {
    (*(int *)user_data)++;
}

/* ------------------------------------------------------------------------------------------ */
/* Small things                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** Monotonic milliseconds. */
static inline int64_t check_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void check_sleep_ms(int64_t ms) {
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/** poll() on fd for at most timeout_ms: 1 when readable, 0 when not, -1 on error. */
static inline int check_fd_readable(int fd, int timeout_ms) {
    struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
    int n;
    do n = poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    if (n < 0) return -1;
    return n > 0 && (p.revents & POLLIN) ? 1 : 0;
}

/**
 * In a JSON text, the start of the value of the first "key" (skipping the colon and blanks),
 * or NULL when the key is absent: strncmp(json_value_of(j, "count"), "3", 1).
 */
static inline const char *json_value_of(const char *json, const char *key) {
    char quoted[128];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *p = json;
    while ((p = strstr(p, quoted)) != NULL) {
        const char *q = p + strlen(quoted);
        while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r') q++;
        if (*q == ':') {
            q++;
            while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r') q++;
            return q;
        }
        p = q;
    }
    return NULL;
}

/**
 * Whether the JSON text has "key" with the value `value`, written as JSON: "3", "true",
 * "\"abc\"" (a string value is matched whole, quotes included; a number or literal must not
 * be followed by more of itself, so "2" does not match 20).
 */
static inline bool json_has(const char *json, const char *key, const char *value) {
    const char *v = json ? json_value_of(json, key) : NULL;
    size_t n = strlen(value);
    if (!v || strncmp(v, value, n) != 0) return false;
    if (value[0] == '"') return true;
    char next = v[n];
    return !((next >= '0' && next <= '9') || (next >= 'a' && next <= 'z') || next == '.');
}

/** Releases a handle, checking MVVM_OK. */
#define RELEASE(h) CHECK_STATUS(mvvm_release(h), MVVM_OK)
/** How many rounds a race runs: the environment's `variable` when set to a positive number (the
 * valgrind and sanitizer runs set fewer), else `otherwise`. */
static inline long check_rounds(const char *variable, long otherwise) {
    const char *text = getenv(variable);
    long n = text ? atol(text) : 0;
    return n > 0 ? n : otherwise;
}

/** Copies the file at `from` to `to` (a library to open from a path of its own); true when done. */
static inline bool check_copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    bool ok = in && out;
    char buffer[1 << 16];
    size_t got;
    while (ok && (got = fread(buffer, 1, sizeof buffer, in)) > 0) ok = fwrite(buffer, 1, got, out) == got;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = false;
    return ok;
}

/** Advances a virtual loop, checking MVVM_OK. */
#define ADVANCE(loop, ms) CHECK_STATUS(mvvm_loop_advance((loop), (ms)), MVVM_OK)

/* ------------------------------------------------------------------------------------------ */
/* Running tests                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef void (*check_test_fn)(void);
/* `scale`: how many times the usual time limit the test may take (0 means 1): a test that runs a
 * long race on purpose says so. */
typedef struct check_test { const char *name; check_test_fn fn; unsigned scale; } check_test;

/** A table entry for the test function `fn`. */
#define CHECK_TEST(fn) { #fn, fn, 1 }
#define CHECK_LONG_TEST(fn, scale) { #fn, fn, scale }

static inline bool check_selected(const char *name, int argc, char **argv) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0) return true;
    return false;
}

/** Runs one test in this process; true when it passed. */
static inline bool check_run_here(const check_test *test) {
    check_failures = 0;
    test->fn();
    fflush(stdout);
    return check_failures == 0;
}

static inline void *check_run_on_thread(void *test) {
    check_run_here((const check_test *)test);
    return NULL;
}

/*
 * Runs one test in a child process under a time limit; true when it passed.
 *
 * In the child the test runs on a thread of its own, not on the child's main thread: the Swift
 * runtime's Linux lock (swift/Threading/Impl/Linux/ulock.h) caches each thread's id in a
 * thread-local, so a forked child's main thread keeps its parent's id; when it then holds such a
 * lock (a first-use once of the runtime: metadata, globals) while a loop's thread waits for it,
 * the priority-inheriting futex names a thread of another process and both wait forever. A
 * thread created in the child has its own id. (RELIABILITY.md, "a forked child's main thread".)
 */
static inline bool check_run_forked(const check_test *test, unsigned timeout_s) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        printf("    fork failed: %s\n", strerror(errno));
        return false;
    }
    if (pid == 0) {
        pthread_t thread;
        bool passed = false;
        if (pthread_create(&thread, NULL, check_run_on_thread, (void *)test) != 0) {
            printf("    pthread_create failed\n");
        } else {
            pthread_join(thread, NULL);
            passed = check_failures == 0;
        }
        fflush(stdout);
        fflush(stderr);
        _exit(passed ? 0 : 1);
    }
    /* The parent enforces the limit with SIGKILL: an alarm in the child can be starved or
     * ignored (under valgrind a signal waits for the thread that holds its big lock), SIGKILL
     * cannot. The parent polls rather than sleeping in waitpid so it needs no signal either. */
    int status = 0;
    const long long deadline = check_now_ms() + (long long)timeout_s * 1000;
    bool timed_out = false;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            printf("    waitpid failed: %s\n", strerror(errno));
            kill(pid, SIGKILL);
            return false;
        }
        if (!timed_out && check_now_ms() >= deadline) {
            timed_out = true;
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
            break;
        }
        check_sleep_ms(20);
    }
    if (timed_out) {
        printf("    timed out after %u s (hung?): killed\n", timeout_s);
        return false;
    }
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code == 0) return true;
        if (code == 99) printf("    valgrind reported errors (exit 99)\n");
        else if (code != 1) printf("    the test exited with status %d\n", code);
        return false;
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        printf("    crashed: killed by signal %d (%s)\n", sig, strsignal(sig));
    }
    return false;
}

/** Runs the selected tests; prints "<program>: N passed, N failed" last; returns the exit status. */
static inline int check_main(int argc, char **argv, const check_test *tests, size_t count) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *program = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    const char *no_fork = getenv("CHECK_NO_FORK");
    const char *timeout_text = getenv("CHECK_TIMEOUT_S");
    unsigned timeout_s = timeout_text && atoi(timeout_text) > 0 ? (unsigned)atoi(timeout_text) : 60;
    bool fork_tests = !(no_fork && strcmp(no_fork, "1") == 0);
    int passed = 0, failed = 0;
    for (size_t i = 0; i < count; i++) {
        if (!check_selected(tests[i].name, argc, argv)) continue;
        unsigned limit = timeout_s * (tests[i].scale ? tests[i].scale : 1);
        bool ok = fork_tests ? check_run_forked(&tests[i], limit) : check_run_here(&tests[i]);
        printf("  %s %s\n", ok ? "ok  " : "FAIL", tests[i].name);
        if (ok) passed++;
        else failed++;
    }
    printf("%s: %d passed, %d failed\n", program, passed, failed);
    fflush(stdout);
    return failed ? 1 : 0;
}

#endif /* MVVM_C_TESTS_CHECK_H */
