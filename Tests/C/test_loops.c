/*
 * test_loops.c - loops in real time: a manual loop driven by poll() on its file descriptor,
 * mvvm_loop_run_for(), a thread loop of the library's own, and many host threads calling into
 * one loop's objects at once. Every wait is bounded.
 */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdatomic.h>

#include "mvvm_catalog.h"
#include "check.h"

/* The longest any wait for a real-time event may take before the test gives up. */
#define GIVE_UP_MS 5000

static mvvm_handle new_loop(mvvm_loop_kind kind) {
    mvvm_handle loop = 0;
    CHECK_STATUS(mvvm_loop_new(kind, &loop), MVVM_OK);
    return loop;
}

static int64_t next_timeout(mvvm_handle loop) {
    int64_t ms = -99;
    CHECK_STATUS(mvvm_loop_next_timeout_ms(loop, &ms), MVVM_OK);
    return ms;
}

/* Waits (sleeping 2 ms at a time) until r has `count` events named `name`, for GIVE_UP_MS at most. */
static bool wait_for_events(recorder *r, const char *name, int count) {
    int64_t deadline = check_now_ms() + GIVE_UP_MS;
    while (rec_count(r, name) < count) {
        if (check_now_ms() > deadline) return false;
        check_sleep_ms(2);
    }
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Manual loops                                                                               */
/* ------------------------------------------------------------------------------------------ */

static void manual_loop_driven_by_poll_on_its_fd(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_MANUAL), watch = 0, sub = 0;
    int fd = -1;
    if (!CHECK_STATUS(mvvm_loop_fd(loop, &fd), MVVM_OK)) return;
    CHECK(fd >= 0);
    int fd_again = -2;
    CHECK_STATUS(mvvm_loop_fd(loop, &fd_again), MVVM_OK);
    CHECK_EQ_INT(fd_again, fd);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    CHECK_EQ_INT(next_timeout(loop), -1);
    CHECK_EQ_INT(check_fd_readable(fd, 0), 0); /* nothing due */

    recorder *times = recorder_new();
    times->read_back = true;
    CHECK_STATUS(mvvm_subscribe(watch, "time", recorder_callback, times, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    int64_t next = next_timeout(loop);
    CHECK(next >= 0 && next <= 10);

    /* The host's own event loop: poll, dispatch when readable. */
    int64_t start = check_now_ms(), ran_total = 0;
    int wakeups = 0;
    while (rec_count(times, NULL) < 3 && check_now_ms() - start < GIVE_UP_MS) {
        int readable = check_fd_readable(fd, 100);
        if (!CHECK(readable >= 0)) break;
        if (!readable) continue;
        wakeups++;
        int64_t ran = -1;
        if (!CHECK_STATUS(mvvm_loop_dispatch(loop, &ran), MVVM_OK)) break;
        CHECK(ran >= 0);
        ran_total += ran;
    }
    int64_t elapsed = check_now_ms() - start;
    CHECK(elapsed < GIVE_UP_MS);
    CHECK(rec_count(times, NULL) >= 3);
    CHECK(ran_total >= 3);
    CHECK(wakeups >= 1);
    /* Changes caused by a dispatch are notified on the dispatching thread. */
    CHECK_EQ_INT(rec_count_off_thread(times, pthread_self()), 0);
    /* Each event's value was the property's value inside the callback, and time only grows. */
    int stored = times->count < RECORDER_MAX ? times->count : RECORDER_MAX;
    for (int i = 0; i < stored; i++) {
        CHECK_EQ_STR(times->read[i], times->text[i]);
        if (i > 0) CHECK(strcmp(times->text[i - 1], times->text[i]) < 0);
    }
    CHECK(strcmp(rec_text(times, NULL, -1) ? rec_text(times, NULL, -1) : "", "00:00:00.00") > 0);

    /* The loop's clock is real time. */
    int64_t t1 = -1, t2 = -1;
    CHECK_STATUS(mvvm_loop_now_ms(loop, &t1), MVVM_OK);
    check_sleep_ms(30);
    CHECK_STATUS(mvvm_loop_now_ms(loop, &t2), MVVM_OK);
    CHECK(t2 - t1 >= 25 && t2 - t1 < GIVE_UP_MS);

    RELEASE(sub);
    RELEASE(watch);
    RELEASE(loop);
    CHECK_EQ_INT(rec_destroyed(times), 1);
    recorder_free(times);
}

static void manual_loop_fd_is_readable_only_while_work_is_due(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_MANUAL), welcome = 0, sub = 0;
    int fd = -1;
    if (!CHECK_STATUS(mvvm_loop_fd(loop, &fd), MVVM_OK)) return;
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    recorder *welcomes = recorder_new();
    CHECK_STATUS(mvvm_subscribe(welcome, "on_show_welcome", recorder_callback, welcomes, recorder_destroy, &sub),
                 MVVM_OK);
    for (int round = 1; round <= 3; round++) {
        int before = check_failures;
        CHECK_EQ_INT(check_fd_readable(fd, 0), 0);
        CHECK_EQ_INT(next_timeout(loop), -1);
        CHECK_STATUS(mvvm_welcome_view_model_view_did_load(welcome), MVVM_OK);
        CHECK_EQ_INT(rec_count(welcomes, NULL), round - 1); /* the answer comes on a dispatch */
        CHECK_EQ_INT(next_timeout(loop), 0);
        CHECK_EQ_INT(check_fd_readable(fd, 1000), 1);
        int64_t ran = -1;
        CHECK_STATUS(mvvm_loop_dispatch(loop, &ran), MVVM_OK);
        CHECK(ran >= 1);
        CHECK_EQ_INT(rec_count(welcomes, NULL), round);
        CHECK_EQ_STR(rec_text(welcomes, NULL, -1), "Welcome!");
        /* Nothing left: the fd is quiet again. */
        CHECK_EQ_INT(next_timeout(loop), -1);
        CHECK_EQ_INT(check_fd_readable(fd, 0), 0);
        ran = -1;
        CHECK_STATUS(mvvm_loop_dispatch(loop, &ran), MVVM_OK);
        CHECK_EQ_INT(ran, 0);
        if (check_failures != before) printf("    ^ in round %d\n", round);
    }
    CHECK_EQ_INT(rec_count_off_thread(welcomes, pthread_self()), 0);
    RELEASE(sub);
    RELEASE(welcome);
    RELEASE(loop);
    recorder_free(welcomes);
}

static void next_timeout_says_when_work_is_due(void) {
    /* Virtual: exact. */
    mvvm_handle virtual_loop = new_loop(MVVM_LOOP_VIRTUAL), watch = 0, timer = 0;
    CHECK_STATUS(mvvm_stop_watch_view_model_new(virtual_loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(virtual_loop, 5, &timer), MVVM_OK);
    CHECK_EQ_INT(next_timeout(virtual_loop), -1);
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    CHECK_EQ_INT(next_timeout(virtual_loop), 1000);
    ADVANCE(virtual_loop, 1);
    CHECK_EQ_INT(next_timeout(virtual_loop), 999);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    CHECK_EQ_INT(next_timeout(virtual_loop), 10);
    ADVANCE(virtual_loop, 3);
    CHECK_EQ_INT(next_timeout(virtual_loop), 7);
    ADVANCE(virtual_loop, 7);
    CHECK_EQ_INT(next_timeout(virtual_loop), 10);
    RELEASE(timer);
    RELEASE(watch);
    RELEASE(virtual_loop);

    /* Manual and thread: -1 with nothing scheduled, 0..10 while a stopwatch runs. */
    mvvm_loop_kind kinds[2] = { MVVM_LOOP_MANUAL, MVVM_LOOP_THREAD };
    for (int k = 0; k < 2; k++) {
        mvvm_handle loop = new_loop(kinds[k]);
        CHECK_EQ_INT(next_timeout(loop), -1);
        CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
        CHECK_EQ_INT(next_timeout(loop), -1);
        CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
        for (int i = 0; i < 5; i++) {
            int64_t next = next_timeout(loop);
            if (!CHECK(next >= 0 && next <= 10)) printf("    next_timeout_ms %" PRId64 " on loop kind %d\n", next, k);
            if (kinds[k] == MVVM_LOOP_MANUAL) CHECK_STATUS(mvvm_loop_run_for(loop, 7), MVVM_OK);
            else check_sleep_ms(7);
        }
        RELEASE(watch);
        RELEASE(loop);
    }
}

typedef struct run_for_job {
    mvvm_handle loop;
    int64_t ms;
    mvvm_status status;
    int64_t elapsed;
    pthread_t thread;
} run_for_job;

static void *run_for_on_a_thread(void *arg) {
    run_for_job *job = arg;
    job->thread = pthread_self();
    int64_t start = check_now_ms();
    job->status = mvvm_loop_run_for(job->loop, job->ms);
    job->elapsed = check_now_ms() - start;
    return NULL;
}

static void run_for_dispatches_on_the_calling_thread(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_MANUAL), watch = 0, sub = 0;
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    recorder *times = recorder_new();
    CHECK_STATUS(mvvm_subscribe(watch, "time", recorder_callback, times, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    CHECK_EQ_INT(rec_count(times, NULL), 0); /* nothing runs without the host */
    check_sleep_ms(30);
    CHECK_EQ_INT(rec_count(times, NULL), 0);

    int64_t start = check_now_ms();
    CHECK_STATUS(mvvm_loop_run_for(loop, 50), MVVM_OK);
    int64_t elapsed = check_now_ms() - start;
    CHECK(elapsed >= 45 && elapsed < GIVE_UP_MS);
    int n = rec_count(times, NULL);
    if (!CHECK(n >= 1 && n <= 10)) printf("    %d time events in run_for(50)\n", n);
    CHECK_EQ_INT(rec_count_off_thread(times, pthread_self()), 0);

    /* From another thread: notified on that thread. */
    recorder_clear(times);
    run_for_job job = { loop, 50, MVVM_ERR_INTERNAL, 0, pthread_self() };
    pthread_t thread;
    if (CHECK(pthread_create(&thread, NULL, run_for_on_a_thread, &job) == 0)) {
        pthread_join(thread, NULL);
        CHECK_STATUS(job.status, MVVM_OK);
        CHECK(job.elapsed >= 45 && job.elapsed < GIVE_UP_MS);
        n = rec_count(times, NULL);
        CHECK(n >= 1 && n <= 10);
        CHECK_EQ_INT(rec_count_off_thread(times, job.thread), 0);
    }
    RELEASE(sub);
    RELEASE(watch);
    RELEASE(loop);
    recorder_free(times);
}

/* ------------------------------------------------------------------------------------------ */
/* Thread loops                                                                               */
/* ------------------------------------------------------------------------------------------ */

static void thread_loop_notifies_time_on_its_own_thread_until_released(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_THREAD), watch = 0, s_time = 0, s_title = 0;
    if (!CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK)) return;
    recorder *times = recorder_new(), *titles = recorder_new();
    CHECK_STATUS(mvvm_subscribe(watch, "time", recorder_callback, times, recorder_destroy, &s_time), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(watch, "main_action_title", recorder_callback, titles, recorder_destroy, &s_title),
                 MVVM_OK);

    /* A host call: notified on the caller's thread before it returns. */
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    if (CHECK_EQ_INT(rec_count(titles, NULL), 1)) {
        CHECK_EQ_STR(rec_text(titles, NULL, 0), "Stop");
        CHECK(pthread_equal(titles->thread[0], pthread_self()));
    }

    /* Time: notified on the loop's thread, with nothing from the host. */
    CHECK(wait_for_events(times, NULL, 3));
    int n = rec_count(times, NULL);
    CHECK(n >= 3);
    CHECK_EQ_INT(rec_count_off_thread(times, pthread_self()), n < RECORDER_MAX ? n : RECORDER_MAX);
    if (n > 0) CHECK_EQ_INT(rec_count_off_thread(times, times->thread[0]), 0); /* one loop thread */

    /* Release stops it: no more events, each subscription's destroy once. */
    RELEASE(loop);
    int after_release = rec_count(times, NULL);
    check_sleep_ms(30);
    CHECK_EQ_INT(rec_count(times, NULL), after_release);
    CHECK_EQ_INT(rec_destroyed(times), 1);
    CHECK_EQ_INT(rec_destroyed(titles), 1);
    CHECK_EQ_INT(times->calls_after_destroy, 0);
    char *text = NULL;
    CHECK_STATUS(mvvm_get_string(watch, "time", &text), MVVM_ERR_LOOP_RELEASED);
    CHECK(text == NULL);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_ERR_LOOP_RELEASED);
    RELEASE(watch);
    CHECK_EQ_INT(rec_destroyed(times), 1);
    recorder_free(times);
    recorder_free(titles);
}

static void thread_loop_runs_due_work_without_the_host(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_THREAD), welcome = 0, sub = 0;
    if (!CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK)) return;
    recorder *welcomes = recorder_new();
    CHECK_STATUS(mvvm_subscribe(welcome, "on_show_welcome", recorder_callback, welcomes, recorder_destroy, &sub),
                 MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(welcome), MVVM_OK);
    if (CHECK(wait_for_events(welcomes, NULL, 1))) {
        CHECK_EQ_STR(rec_text(welcomes, NULL, 0), "Welcome!");
        CHECK(!pthread_equal(welcomes->thread[0], pthread_self()));
    }
    check_sleep_ms(20);
    CHECK_EQ_INT(rec_count(welcomes, NULL), 1);
    RELEASE(sub);
    RELEASE(welcome);
    RELEASE(loop);
    recorder_free(welcomes);
}

/* ------------------------------------------------------------------------------------------ */
/* Many host threads on one loop                                                              */
/* ------------------------------------------------------------------------------------------ */

#define THREADS 4
#define ITERATIONS 2000

typedef struct serial_check {
    atomic_int in_callback;   /* 1 while some callback of the loop runs */
    atomic_int overlaps;      /* callbacks that found another one running */
    atomic_int calls;
    atomic_int user_id_events;
    atomic_int count_events;
    atomic_int count_out_of_order;
    atomic_llong last_count;
    atomic_int ticks;
} serial_check;

static void serial_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    serial_check *c = user_data;
    if (atomic_exchange(&c->in_callback, 1) != 0) atomic_fetch_add(&c->overlaps, 1);
    atomic_fetch_add(&c->calls, 1);
    if (strcmp(event->name, "user_id") == 0) atomic_fetch_add(&c->user_id_events, 1);
    if (strcmp(event->name, "time") == 0) atomic_fetch_add(&c->ticks, 1);
    if (strcmp(event->name, "count") == 0 && event->value.type == MVVM_TYPE_STRING && event->value.string) {
        long long value = strtoll(event->value.string, NULL, 10);
        if (value != atomic_load(&c->last_count) + 1) atomic_fetch_add(&c->count_out_of_order, 1);
        atomic_store(&c->last_count, value);
        atomic_fetch_add(&c->count_events, 1);
    }
    /* Stay a little, so that an overlap would be seen. */
    for (volatile int spin = 0; spin < 200; spin++) {}
    atomic_store(&c->in_callback, 0);
}

typedef struct worker {
    int id;
    mvvm_handle sign_up, counter_vm;
    int failures;
    mvvm_status first_failure;
    int failed_at;
} worker;

static void worker_failed(worker *w, mvvm_status status, int at) {
    if (w->failures++ == 0) {
        w->first_failure = status;
        w->failed_at = at;
    }
}

static void *hammer(void *arg) {
    worker *w = arg;
    for (int i = 0; i < ITERATIONS; i++) {
        char user_id[32];
        snprintf(user_id, sizeof user_id, "user-%d-%d", w->id, i);
        mvvm_status status = mvvm_set_string(w->sign_up, "user_id", user_id);
        if (status != MVVM_OK) worker_failed(w, status, i);
        char *text = NULL;
        status = mvvm_get_string(w->sign_up, "user_id", &text);
        if (status != MVVM_OK || !text || strncmp(text, "user-", 5) != 0) worker_failed(w, status, i);
        mvvm_string_free(text);
        status = mvvm_send(w->counter_vm, "increment", NULL);
        if (status != MVVM_OK) worker_failed(w, status, i);
        text = NULL;
        status = mvvm_get_string(w->counter_vm, "count", &text);
        if (status != MVVM_OK || !text || atoi(text) < 1) worker_failed(w, status, i);
        mvvm_string_free(text);
        if (i % 500 == 0) {
            status = mvvm_send(w->sign_up, "sign_up_tapped", NULL); /* disabled: does nothing */
            if (status != MVVM_OK) worker_failed(w, status, i);
        }
    }
    return NULL;
}

static void concurrent_callers_on_one_thread_loop_are_serialised(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_THREAD), sign_up = 0, counter = 0, counter_vm = 0, watch = 0;
    mvvm_handle subs[3] = {0};
    serial_check *c = calloc(1, sizeof *c);
    if (!c) abort();
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_new(loop, counter, &counter_vm), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(sign_up, NULL, serial_callback, c, NULL, &subs[0]), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter_vm, NULL, serial_callback, c, NULL, &subs[1]), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(watch, "time", serial_callback, c, NULL, &subs[2]), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK); /* the loop ticks meanwhile */

    worker workers[THREADS];
    pthread_t threads[THREADS];
    int started = 0;
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (worker){ t, sign_up, counter_vm, 0, MVVM_OK, -1 };
        if (CHECK(pthread_create(&threads[t], NULL, hammer, &workers[t]) == 0)) started++;
    }
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    /* Let the stopwatch tick at least once if the run was shorter than a tick. */
    int64_t deadline = check_now_ms() + GIVE_UP_MS;
    while (atomic_load(&c->ticks) == 0 && check_now_ms() < deadline) check_sleep_ms(2);

    for (int t = 0; t < started; t++) {
        if (!CHECK_EQ_INT(workers[t].failures, 0))
            printf("    thread %d: first failure %s at iteration %d\n", t, mvvm_status_name(workers[t].first_failure),
                   workers[t].failed_at);
    }
    const int increments = started * ITERATIONS;
    CHECK_GET_INT(counter, "count", increments);
    char expected[32];
    snprintf(expected, sizeof expected, "%d", increments);
    CHECK_GET_STRING(counter_vm, "count", expected);
    CHECK_EQ_INT(atomic_load(&c->overlaps), 0);
    CHECK_EQ_INT(atomic_load(&c->count_events), increments);
    CHECK_EQ_INT(atomic_load(&c->count_out_of_order), 0);
    CHECK_EQ_INT(atomic_load(&c->user_id_events), increments);
    CHECK(atomic_load(&c->ticks) >= 1);
    CHECK_GET_BOOL(sign_up, "is_sign_up_enabled", false);
    CHECK_GET_BOOL(sign_up, "is_completion_alert_presented", false);

    for (int k = 0; k < 3; k++) RELEASE(subs[k]);
    RELEASE(watch);
    RELEASE(counter_vm);
    RELEASE(counter);
    RELEASE(sign_up);
    RELEASE(loop);
    free(c);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(manual_loop_driven_by_poll_on_its_fd),
        CHECK_TEST(manual_loop_fd_is_readable_only_while_work_is_due),
        CHECK_TEST(next_timeout_says_when_work_is_due),
        CHECK_TEST(run_for_dispatches_on_the_calling_thread),
        CHECK_TEST(thread_loop_notifies_time_on_its_own_thread_until_released),
        CHECK_TEST(thread_loop_runs_due_work_without_the_host),
        CHECK_TEST(concurrent_callers_on_one_thread_loop_are_serialised),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
