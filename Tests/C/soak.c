/*
 * soak.c - long runs through the C ABI that must leave nothing behind.
 *
 *   soak [CYCLES]        (default 1000000; Tests/soak.sh builds and runs it)
 *
 * 1. CYCLES create / subscribe / notify / release cycles, over every few kinds of object, with a
 *    new loop (virtual, and now and then a manual one with its file descriptor) every 1000 cycles.
 *    RSS (from /proc/self/statm) is reported at the start, midway and at the end; the run fails
 *    if the end exceeds the midway RSS by more than RSS_BOUND_MIB, if a file descriptor is left
 *    open, or if any notification or destroy function is missing or extra.
 * 2. An hour of stopwatch ticks compressed on a virtual loop: 3,600,000 ms advanced in uneven
 *    steps; at the end the time reads exactly "01:00:00.00" and "time" was notified exactly
 *    360,000 times (one per 10 ms tick, each a real change, in order).
 * 3. Generations run out (issue 16): a handle is released, then one slot is used again and again
 *    until its generations are spent and it is retired; the first handle must never come back.
 *    Handles have 32-bit generations, so the full length is 2^32 create/release cycles (hours):
 *    this runs in a child process with MVVM_TESTING_HANDLE_GENERATION_BITS=16 (the test-only
 *    width), 65,536 + 1000 cycles, and checks the slot served exactly 2^16 - 2 more handles.
 *    `soak generations CYCLES` runs that part alone, at the library's own width (against a
 *    library before the fix, 16,777,214 cycles let the stale handle reach a new object).
 *
 * The last line is "soak: passed" or "soak: FAILED"; the exit status says the same.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>

#include "mvvm_catalog.h"
#include "check.h"

#define RSS_BOUND_MIB 4
#define LOOP_EVERY 1000

static double rss_mib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

static int open_fds(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

typedef struct tally {
    long events, destroyed, wrong;
    char last[32];
} tally;

static void count_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    tally *t = user_data;
    t->events++;
    if (!event || !event->name || event->kind != MVVM_EVENT_PROPERTY) t->wrong++;
}

static void count_destroy_fn(void *user_data) { ((tally *)user_data)->destroyed++; }

/* One cycle: a new object on `loop`, a subscription, one notifying operation, the release. */
static void cycle(mvvm_handle loop, long i, tally *t, long *expected_events) {
    mvvm_handle object = 0, extra = 0, subscription = 0;
    switch (i % 4) {
    case 0: /* a counter: increment notifies count */
        CHECK_STATUS(mvvm_counter_new(loop, &object), MVVM_OK);
        CHECK_STATUS(mvvm_subscribe(object, "count", count_event, t, count_destroy_fn, &subscription), MVVM_OK);
        CHECK_STATUS(mvvm_counter_increment(object), MVVM_OK);
        *expected_events += 1;
        break;
    case 1: /* an echo: setting input notifies input, label and message */
        CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &object), MVVM_OK);
        CHECK_STATUS(mvvm_subscribe(object, NULL, count_event, t, count_destroy_fn, &subscription), MVVM_OK);
        CHECK_STATUS(mvvm_set_string(object, "input", i % 8 == 1 ? "soak" : "\xc3\xa9t\xc3\xa9"), MVVM_OK);
        *expected_events += 3;
        break;
    case 2: /* a counter view model over a counter: the model's handle goes first */
        CHECK_STATUS(mvvm_counter_new(loop, &extra), MVVM_OK);
        CHECK_STATUS(mvvm_counter_view_model_new(loop, extra, &object), MVVM_OK);
        RELEASE(extra);
        CHECK_STATUS(mvvm_subscribe(object, "count", count_event, t, count_destroy_fn, &subscription), MVVM_OK);
        CHECK_STATUS(mvvm_counter_view_model_increment(object), MVVM_OK);
        *expected_events += 1;
        break;
    default: /* a sign-up form: agreeing notifies agreed; the subscription ends by unsubscribe */
        CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &object), MVVM_OK);
        CHECK_STATUS(mvvm_subscribe(object, "agreed", count_event, t, count_destroy_fn, &subscription), MVVM_OK);
        CHECK_STATUS(mvvm_set_bool(object, "agreed", true), MVVM_OK);
        CHECK_STATUS(mvvm_unsubscribe(subscription), MVVM_OK);
        *expected_events += 1;
        break;
    }
    RELEASE(object);
}

static bool soak_cycles(long cycles) {
    int failures_before = check_failures;
    tally t = {0};
    long expected_events = 0;
    /* A first loop of each kind before counting: libdispatch opens its main queue's eventfd
     * once per process, when the library first asks for it (wake-ups of the main thread). */
    tally warm_up = {0};
    long warm_up_events = 0;
    for (int kind = MVVM_LOOP_MANUAL; kind <= MVVM_LOOP_VIRTUAL; kind++) {
        mvvm_handle first = 0;
        if (kind == MVVM_LOOP_THREAD) continue;
        CHECK_STATUS(mvvm_loop_new((mvvm_loop_kind)kind, &first), MVVM_OK);
        cycle(first, 0, &warm_up, &warm_up_events);
        RELEASE(first);
    }
    int fds_start = open_fds();
    double start = rss_mib(), mid = 0;
    int64_t t0 = check_now_ms();
    printf("soak: %ld create/subscribe/notify/release cycles\n", cycles);
    printf("soak:   RSS at the start %.1f MiB, %d open file descriptors\n", start, fds_start);
    mvvm_handle loop = 0;
    for (long i = 0; i < cycles; i++) {
        if (i % LOOP_EVERY == 0) {
            if (loop) RELEASE(loop);
            /* Now and then a manual loop, whose file descriptor must be closed on release. */
            mvvm_loop_kind kind = (i / LOOP_EVERY) % 10 == 9 ? MVVM_LOOP_MANUAL : MVVM_LOOP_VIRTUAL;
            CHECK_STATUS(mvvm_loop_new(kind, &loop), MVVM_OK);
            if (kind == MVVM_LOOP_MANUAL) {
                int fd = -1;
                CHECK_STATUS(mvvm_loop_fd(loop, &fd), MVVM_OK);
                CHECK(fd >= 0);
            }
        }
        cycle(loop, i, &t, &expected_events);
        if (i == cycles / 2) {
            mid = rss_mib();
            printf("soak:   RSS midway (%ld cycles) %.1f MiB, after %.1f s\n", i, mid, (check_now_ms() - t0) / 1000.0);
        }
        if (check_failures > failures_before + 5) {
            printf("soak:   giving up after cycle %ld\n", i);
            break;
        }
    }
    if (loop) RELEASE(loop);
    double end = rss_mib();
    int fds_end = open_fds();
    printf("soak:   RSS at the end %.1f MiB (%+.1f MiB since midway), %d open file descriptors, %.1f s\n", end,
           end - mid, fds_end, (check_now_ms() - t0) / 1000.0);
    CHECK_EQ_INT(t.events, expected_events);
    CHECK_EQ_INT(t.destroyed, cycles);
    CHECK_EQ_INT(t.wrong, 0);
    CHECK_EQ_INT(fds_end, fds_start);
    if (!CHECK(end - mid <= RSS_BOUND_MIB))
        printf("soak:   memory grew by %.1f MiB in the second half (bound %d MiB)\n", end - mid, RSS_BOUND_MIB);
    return check_failures == failures_before;
}

/* "time": each event later than the last, which is a real change. */
typedef struct watch_tally {
    long events, not_later;
    char last[32];
} watch_tally;

static void time_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    watch_tally *t = user_data;
    t->events++;
    if (event->value.type != MVVM_TYPE_STRING || strcmp(event->value.string, t->last) <= 0) t->not_later++;
    snprintf(t->last, sizeof t->last, "%s", event->value.string ? event->value.string : "");
}

static bool soak_hour_of_stop_watch(void) {
    int failures_before = check_failures;
    int64_t t0 = check_now_ms();
    mvvm_handle loop = 0, watch = 0, subscription = 0;
    watch_tally t = { 0, 0, "00:00:00.00" };
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(watch, "time", time_event, &t, NULL, &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    /* Uneven steps (1, 9, 10, 990 and 2990 ms), summing to exactly one hour. */
    static const int64_t steps[] = { 1, 9, 10, 990, 2990 }; /* 4000 ms per round */
    int64_t advanced = 0;
    while (advanced < 3600000) {
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            ADVANCE(loop, steps[k]);
            advanced += steps[k];
        }
    }
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 3600000);
    CHECK_EQ_INT(advanced, 3600000);
    CHECK_GET_STRING(watch, "time", "01:00:00.00");
    CHECK_EQ_INT(t.events, 360000);
    CHECK_EQ_INT(t.not_later, 0);
    CHECK_EQ_STR(t.last, "01:00:00.00");
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK); /* stop: no change at 01:00:00.00 */
    CHECK_GET_STRING(watch, "time", "01:00:00.00");
    CHECK_EQ_INT(t.events, 360000);
    RELEASE(subscription);
    RELEASE(watch);
    RELEASE(loop);
    printf("soak: an hour of stopwatch ticks on a virtual loop: %ld time notifications, last \"%s\", %.1f s\n",
           t.events, t.last, (check_now_ms() - t0) / 1000.0);
    return check_failures == failures_before;
}

#define GENERATION_BITS 16

/* Part 3, in this process: `cycles` create/release cycles after a first handle's release. */
static int soak_generations(long cycles) {
    int failures = 0;
    mvvm_handle loop = 0, first = 0;
    if (mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop) != MVVM_OK || mvvm_counter_new(loop, &first) != MVVM_OK ||
        mvvm_release(first) != MVVM_OK) {
        printf("generations: setup failed: %s\n", mvvm_last_error());
        return 0;
    }
    long same_slot = 0;
    for (long i = 0; i < cycles && failures < 5; i++) {
        mvvm_handle next = 0;
        const char *name = NULL;
        if (mvvm_counter_new(loop, &next) != MVVM_OK) {
            printf("generations: cycle %ld: no counter: %s\n", i, mvvm_last_error());
            failures++;
            break;
        }
        if (next == first || mvvm_class_name(first, &name) != MVVM_ERR_INVALID_HANDLE) {
            printf("generations: after %ld cycles the first handle 0x%" PRIx64 " reaches a new object (0x%" PRIx64 ")\n",
                   i + 1, first, next);
            failures++;
        }
        if ((next & 0xFFFFFF) == (first & 0xFFFFFF)) same_slot++;
        if (mvvm_release(next) != MVVM_OK) failures++;
    }
    const char *bits = getenv("MVVM_TESTING_HANDLE_GENERATION_BITS");
    long expected = bits ? (1L << atoi(bits)) - 2 : -1;
    printf("generations: %ld cycles; the first handle's slot served %ld more handles%s\n", cycles, same_slot,
           expected >= 0 ? ", then was retired" : "");
    if (expected >= 0 && same_slot != expected) {
        printf("generations: expected the slot to serve exactly %ld (generations 2 .. 2^%s - 1)\n", expected, bits);
        failures++;
    }
    mvvm_release(loop);
    printf("generations: %s\n", failures ? "FAILED" : "passed");
    return failures == 0;
}

/* Part 3, in a child process: the library reads the generation width once, at its first use. */
static int soak_generations_in_child(const char *self) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char width[8], cycles[32];
        snprintf(width, sizeof width, "%d", GENERATION_BITS);
        snprintf(cycles, sizeof cycles, "%ld", (1L << GENERATION_BITS) + 1000);
        setenv("MVVM_TESTING_HANDLE_GENERATION_BITS", width, 1);
        execl(self, self, "generations", cycles, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "generations") == 0)
        return soak_generations(argc > 2 ? strtol(argv[2], NULL, 10) : 1L << 24) ? 0 : 1;
    long cycles = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    if (cycles <= 0) {
        fprintf(stderr, "usage: soak [CYCLES] (CYCLES > 0, default 1000000)\n");
        return 2;
    }
    int passed = 0;
    passed += soak_cycles(cycles);
    passed += soak_hour_of_stop_watch();
    passed += soak_generations_in_child(argv[0]);
    printf("soak: %d passed, %d failed\n", passed, 3 - passed);
    return passed == 3 ? 0 : 1;
}
