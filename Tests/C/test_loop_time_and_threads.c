/*
 * test_loop_time_and_threads.c - loops under threads and at the edge of time: two thread loops
 * whose callbacks call each other's objects, a manual loop released while another thread is in
 * its run_for, two threads advancing one virtual loop at once, and time at the loop's limit.
 * A hang fails the test within a bound; it never hangs the run.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

#include <stdatomic.h>

/*
 * Runs `body(argument)` on a thread and waits at most `seconds` for it. A hang must fail the
 * test, not hang the run: on time-out the process ends at once with status 1 (the forked test
 * fails; run in-process, the program ends without its summary line, which the runner counts as
 * a failure).
 */
typedef struct watched {
    void (*body)(void *);
    void *argument;
    atomic_bool done;
} watched;

static void *watched_main(void *w_) {
    watched *w = w_;
    w->body(w->argument);
    atomic_store(&w->done, true);
    return NULL;
}

static void finishes_within(int seconds, const char *what, void (*body)(void *), void *argument) {
    watched w = { body, argument, false };
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, watched_main, &w) == 0)) return;
    int64_t deadline = check_now_ms() + (int64_t)seconds * 1000;
    while (!atomic_load(&w.done) && check_now_ms() < deadline) check_sleep_ms(10);
    if (!atomic_load(&w.done)) {
        printf("    %s did not finish within %d s (hung)\n", what, seconds);
        fflush(stdout);
        _exit(1);
    }
    pthread_join(thread, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Cross-loop calls from callbacks                                                             */
/* ------------------------------------------------------------------------------------------ */

/* One side: a stopwatch ticking on a thread loop, and the other side's objects its callbacks use. */
typedef struct side {
    mvvm_handle loop, stop_watch, echo, counter;
    struct side *other;
    atomic_int ticks, cross_ok, cross_failed, cross_late, echo_heard;
} side;

/* Set before the scenario releases anything: a callback already running on one loop's thread
 * (its subscription may end meanwhile: a thread waiting for another loop lets go of its own)
 * may then find the other side's objects released. */
static atomic_int shutting_down;

static void tick_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    side *s = user_data;
    atomic_fetch_add(&s->ticks, 1);
    int64_t time_ms = 0;
    char text[32];
    int n = atomic_load(&s->ticks);
    snprintf(text, sizeof text, "%d", n);
    /* Read, set and send on the other loop's objects while this loop delivers. */
    bool ok = mvvm_get_int(s->other->stop_watch, "time_ms", &time_ms) == MVVM_OK
        && mvvm_set_string(s->other->echo, "input", text) == MVVM_OK
        && mvvm_send(s->other->counter, "increment", NULL) == MVVM_OK;
    atomic_fetch_add(ok ? &s->cross_ok : atomic_load(&shutting_down) ? &s->cross_late : &s->cross_failed, 1);
}

/* The echo's subscriber, run on whichever thread set it: calls back across once more. */
static void echo_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    side *s = user_data;
    int64_t time_ms = 0;
    if (mvvm_get_int(s->other->stop_watch, "time_ms", &time_ms) == MVVM_OK) atomic_fetch_add(&s->echo_heard, 1);
}

static void cross_loop_scenario(void *sides_) {
    side *sides = sides_;
    mvvm_handle subscriptions[4] = { 0 };
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &sides[i].loop), MVVM_OK);
        CHECK_STATUS(mvvm_stop_watch_new(sides[i].loop, &sides[i].stop_watch), MVVM_OK);
        CHECK_STATUS(mvvm_input_echo_view_model_new(sides[i].loop, &sides[i].echo), MVVM_OK);
        CHECK_STATUS(mvvm_counter_new(sides[i].loop, &sides[i].counter), MVVM_OK);
    }
    for (int i = 0; i < 2; i++) {
        CHECK_STATUS(mvvm_subscribe(sides[i].stop_watch, "time_ms", tick_callback, &sides[i], NULL, &subscriptions[i]),
                     MVVM_OK);
        CHECK_STATUS(mvvm_subscribe(sides[i].echo, "label", echo_callback, &sides[i], NULL, &subscriptions[2 + i]),
                     MVVM_OK);
    }
    for (int i = 0; i < 2; i++) CHECK_STATUS(mvvm_send(sides[i].stop_watch, "start", NULL), MVVM_OK);
    /* A deadlock would come within 2 s; a host thread calls in too, and the test waits until
       both sides have called across many times. */
    int64_t deadline = check_now_ms() + 3000;
    while (check_now_ms() < deadline) {
        int64_t time_ms = 0;
        CHECK_STATUS(mvvm_get_int(sides[0].stop_watch, "time_ms", &time_ms), MVVM_OK);
        CHECK_STATUS(mvvm_set_string(sides[1].echo, "input", "host"), MVVM_OK);
        check_sleep_ms(5);
    }
    atomic_store(&shutting_down, 1);
    for (int i = 0; i < 4; i++) RELEASE(subscriptions[i]);
    for (int i = 0; i < 2; i++) {
        RELEASE(sides[i].stop_watch);
        RELEASE(sides[i].echo);
        RELEASE(sides[i].counter);
        RELEASE(sides[i].loop);
    }
}

static void two_thread_loops_calling_each_other_from_callbacks_do_not_deadlock(void) {
    static side sides[2];
    memset(sides, 0, sizeof sides);
    atomic_store(&shutting_down, 0);
    sides[0].other = &sides[1];
    sides[1].other = &sides[0];
    finishes_within(60, "two thread loops calling each other's objects from their callbacks",
                    cross_loop_scenario, sides);
    for (int i = 0; i < 2; i++) {
        /* Each side ticked and called across many times (every 10 ms for 3 s: ~300), every call OK. */
        CHECK(atomic_load(&sides[i].ticks) >= 20);
        CHECK_EQ_INT(atomic_load(&sides[i].cross_failed), 0);
        CHECK(atomic_load(&sides[i].cross_late) <= 2);
        CHECK_EQ_INT(atomic_load(&sides[i].cross_ok) + atomic_load(&sides[i].cross_late), atomic_load(&sides[i].ticks));
        CHECK(atomic_load(&sides[i].echo_heard) >= 20);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Releasing a loop wakes its run_for                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct runner {
    mvvm_handle loop;
    atomic_bool started;
    mvvm_status status;
} runner;

static void *run_for_a_long_time(void *r_) {
    runner *r = r_;
    atomic_store(&r->started, true);
    r->status = mvvm_loop_run_for(r->loop, 1000000000);
    return NULL;
}

static void release_while_running(void *with_work) {
    runner r = { 0, false, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MANUAL, &r.loop), MVVM_OK);
    mvvm_handle stop_watch = 0;
    if (with_work) {
        /* A stopwatch ticking every 10 ms: run_for sleeps until its next tick, not forever. */
        CHECK_STATUS(mvvm_stop_watch_new(r.loop, &stop_watch), MVVM_OK);
        CHECK_STATUS(mvvm_send(stop_watch, "start", NULL), MVVM_OK);
    }
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, run_for_a_long_time, &r) == 0);
    while (!atomic_load(&r.started)) check_sleep_ms(1);
    check_sleep_ms(100);
    RELEASE(r.loop);
    pthread_join(thread, NULL);
    CHECK_STATUS(r.status, MVVM_ERR_LOOP_RELEASED);
    if (stop_watch) RELEASE(stop_watch);
}

/* run_for(1e9) on a manual loop, idle or ticking, returns LOOP_RELEASED soon after its release. */
static void releasing_a_manual_loop_wakes_its_run_for(void) {
    finishes_within(10, "run_for on an idle manual loop after its release", release_while_running, NULL);
    finishes_within(10, "run_for on a ticking manual loop after its release", release_while_running, (void *)1);
}

/* ------------------------------------------------------------------------------------------ */
/* Concurrent advances are serialised                                                          */
/* ------------------------------------------------------------------------------------------ */

static mvvm_handle advanced_loop;

static void *advance_50000_times(void *unused) {
    (void)unused;
    for (int i = 0; i < 50000; i++)
        if (mvvm_loop_advance(advanced_loop, 1) != MVVM_OK) return (void *)1;
    return NULL;
}

/* 2 threads x 50,000 x advance(1) move time by exactly 100,000 ms, and every tick runs. */
static void concurrent_advances_each_move_time_by_their_whole_step(void) {
    advanced_loop = new_virtual_loop();
    mvvm_handle stop_watch = 0;
    CHECK_STATUS(mvvm_stop_watch_new(advanced_loop, &stop_watch), MVVM_OK);
    CHECK_STATUS(mvvm_send(stop_watch, "start", NULL), MVVM_OK);
    pthread_t threads[2];
    void *failed[2] = { (void *)1, (void *)1 };
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&threads[i], NULL, advance_50000_times, NULL) == 0);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], &failed[i]);
    CHECK(failed[0] == NULL && failed[1] == NULL);
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_now_ms(advanced_loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 100000);
    /* Time the stopwatch measured too: every 10 ms tick ran. */
    CHECK_GET_INT(stop_watch, "time_ms", 100000);
    RELEASE(stop_watch);
    RELEASE(advanced_loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Time at the loop's limit                                                                   */
/* ------------------------------------------------------------------------------------------ */

/*
 * A loop's time ends at MVVM_LOOP_TIME_LIMIT_MS (2^62 ns): an advance or run_for past it is
 * refused with INVALID_ARGUMENT and does nothing, and work scheduled at the end (a stopwatch
 * started there) saturates instead of overflowing. The fuzzer's seed
 * Tests/fuzz/corpus/stop_watch_started_at_the_end_of_time drives the same case.
 */
static void time_past_the_loops_limit_is_refused_and_the_end_is_safe(void) {
    const int64_t limit_ms = MVVM_LOOP_TIME_LIMIT_MS;
    CHECK_EQ_INT(limit_ms, (INT64_C(1) << 62) / 1000000); /* the Swift side's LoopTime.limit */
    mvvm_handle loop = new_virtual_loop(), manual = 0, watch = 0;
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_advance(loop, INT64_MAX), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_loop_advance(loop, limit_ms + 1), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 0);
    CHECK_STATUS(mvvm_loop_advance(loop, limit_ms), MVVM_OK);
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, limit_ms);
    CHECK_STATUS(mvvm_loop_advance(loop, 1), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_stop_watch_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_start(watch), MVVM_OK);
    CHECK_STATUS(mvvm_loop_advance(loop, 0), MVVM_OK);
    int64_t ms = -1;
    CHECK_STATUS(mvvm_stop_watch_get_time_ms(watch, &ms), MVVM_OK);
    CHECK_EQ_INT(ms, 0);
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MANUAL, &manual), MVVM_OK);
    CHECK_STATUS(mvvm_loop_run_for(manual, INT64_MAX), MVVM_ERR_INVALID_ARGUMENT);
    RELEASE(watch);
    RELEASE(manual);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(two_thread_loops_calling_each_other_from_callbacks_do_not_deadlock),
        CHECK_TEST(releasing_a_manual_loop_wakes_its_run_for),
        CHECK_TEST(concurrent_advances_each_move_time_by_their_whole_step),
        CHECK_TEST(time_past_the_loops_limit_is_refused_and_the_end_is_safe),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
