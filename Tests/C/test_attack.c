/*
 * test_attack.c - the failures an independent attack on the C ABI found (issue 16), each kept
 * as a test so it stays fixed: stale handles after the generation wraps, cross-loop calls from
 * callbacks, run_for not woken by a release, concurrent advances losing time, forged request
 * handles, long names copied whole into the last error, release inside a destroy function.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdatomic.h>

/* This program's path, so a test can run another test of it in a fresh process. */
static const char *self_path;

/*
 * Runs `body(argument)` on a thread and waits at most `seconds` for it. A hang regression must
 * fail, not hang the run: on time-out the process ends at once with status 1 (the forked test
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
/* 1. A stale handle must not come back when its slot's generations run out                   */
/* ------------------------------------------------------------------------------------------ */

/*
 * The attack: release an object, then create and release another 16,777,214 times; slots are
 * reused last-in-first-out, the 24-bit generation wrapped, and the first handle reached the last
 * object. Now a slot whose generations are spent is retired. MVVM_TESTING_HANDLE_GENERATION_BITS
 * makes generations 2 bits wide (1, 2, 3) so that happens within a few releases; the test runs
 * itself again in a fresh process with it set, since the library reads it once.
 */
static void spent_generations_retire_the_slot_in_this_process(void) {
    mvvm_handle loop = new_virtual_loop(), first = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &first), MVVM_OK);
    RELEASE(first);
    mvvm_handle seen[64];
    for (int i = 0; i < 64; i++) {
        mvvm_handle next = 0;
        CHECK_STATUS(mvvm_counter_new(loop, &next), MVVM_OK);
        seen[i] = next;
        CHECK(next != first);
        /* The old handle reaches nothing: not the new object's class, command or release. */
        const char *name = NULL;
        CHECK_STATUS(mvvm_class_name(first, &name), MVVM_ERR_INVALID_HANDLE);
        CHECK_STATUS(mvvm_send(first, "increment", NULL), MVVM_ERR_INVALID_HANDLE);
        CHECK_GET_INT(next, "count", 0);
        CHECK_STATUS(mvvm_release(first), MVVM_ERR_INVALID_HANDLE);
        for (int j = 0; j < i; j++) CHECK(seen[j] != next);
        RELEASE(next);
        CHECK_STATUS(mvvm_class_name(next, &name), MVVM_ERR_INVALID_HANDLE);
    }
    RELEASE(loop);
}

static void a_stale_handle_never_comes_back_when_generations_run_out(void) {
    if (getenv("MVVM_TESTING_HANDLE_GENERATION_BITS")) {
        spent_generations_retire_the_slot_in_this_process();
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("MVVM_TESTING_HANDLE_GENERATION_BITS", "2", 1);
        setenv("CHECK_NO_FORK", "1", 1);
        execl(self_path, self_path, "a_stale_handle_never_comes_back_when_generations_run_out", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ------------------------------------------------------------------------------------------ */
/* 2. Cross-loop calls from callbacks                                                          */
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
    /* The attack deadlocked within 2 s; a host thread calls in too, and the test waits until
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
/* 3. Releasing a loop wakes its run_for                                                       */
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

/* The attack: run_for(1e9) on an idle manual loop was still asleep in poll() 10 s after release. */
static void releasing_a_manual_loop_wakes_its_run_for(void) {
    finishes_within(10, "run_for on an idle manual loop after its release", release_while_running, NULL);
    finishes_within(10, "run_for on a ticking manual loop after its release", release_while_running, (void *)1);
}

/* ------------------------------------------------------------------------------------------ */
/* 4. Concurrent advances are serialised                                                       */
/* ------------------------------------------------------------------------------------------ */

static mvvm_handle advanced_loop;

static void *advance_50000_times(void *unused) {
    (void)unused;
    for (int i = 0; i < 50000; i++)
        if (mvvm_loop_advance(advanced_loop, 1) != MVVM_OK) return (void *)1;
    return NULL;
}

/* The attack: 2 threads x 50,000 x advance(1) ended at 99,984 ms: the target was taken before the lock. */
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
/* 5. A forged request handle is an invalid handle; an answered one is an unknown request     */
/* ------------------------------------------------------------------------------------------ */

typedef struct asked { int calls; mvvm_handle request; } asked;

static void remember_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm;
    (void)argument;
    asked *a = user_data;
    a->calls++;
    a->request = request;
}

static void a_forged_request_handle_is_invalid_and_an_answered_one_unknown(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, counter = 0;
    asked a = { 0, 0 };
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, remember_request, &a, NULL, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    mvvm_value yes = value_bool(true);
    const mvvm_handle request_tag = (mvvm_handle)4 << 56;
    /* Never issued: the attack's case (the request tag, a generation and slot no request had). */
    CHECK_STATUS(mvvm_complete(request_tag | ((mvvm_handle)1 << 24) | 12345, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(request_tag | 1, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(request_tag | 0x00FFFFFFFFFFFFFFull, &yes), MVVM_ERR_INVALID_HANDLE);
    /* A live object's slot and generation under the request tag: no request was ever there. */
    CHECK_STATUS(mvvm_complete(request_tag | (counter & 0x00FFFFFFFFFFFFFFull), &yes), MVVM_ERR_INVALID_HANDLE);

    fill_sign_up(vm, "abcdef", "12345678", "12345678", true);
    CHECK_STATUS(mvvm_send(vm, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_INT(a.calls, 1);
    /* Its generation plus one in the same slot: not issued yet. */
    CHECK_STATUS(mvvm_complete(a.request + ((mvvm_handle)1 << 24), &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_OK);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
    /* Still unknown (answered) after its slot is used again by another handle. */
    mvvm_handle reuse = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &reuse), MVVM_OK);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
    RELEASE(reuse);
    RELEASE(counter);
    RELEASE(vm);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Also: long names in the last error; release inside the object's own destroy function       */
/* ------------------------------------------------------------------------------------------ */

/* The attack: a 10 MB invalid name was copied whole into mvvm_last_error(). */
static void a_long_invalid_name_is_cut_short_in_the_last_error(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, timer = 0, vm = 0, player = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    size_t size = 10u * 1024 * 1024;
    char *name = malloc(size + 1);
    if (!CHECK(name != NULL)) return;
    memset(name, 'n', size);
    memcpy(name, "start_of_the_name", 17);
    name[size] = '\0';
    int64_t out = 0;
    CHECK_STATUS(mvvm_get_int(counter, name, &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK(strstr(mvvm_last_error(), "start_of_the_name") != NULL);
    CHECK_STATUS(mvvm_send(counter, name, NULL), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(counter, name, recorder_callback, NULL, NULL, &subscription), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    /* A command argument that is not one of those allowed is cut the same way. */
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_child(vm, "player", &player), MVVM_OK);
    mvvm_value argument = value_string(name);
    CHECK_STATUS(mvvm_send(player, "tapped", &argument), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK(strstr(mvvm_last_error(), "start_of_the_name") != NULL);
    free(name);
    RELEASE(player);
    RELEASE(vm);
    RELEASE(timer);
    RELEASE(counter);
    RELEASE(loop);
}

typedef struct self_release { mvvm_handle object; mvvm_status status; int runs; } self_release;

static void ignore_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    (void)user_data;
}

static void release_the_object_again(void *user_data) {
    self_release *s = user_data;
    s->runs++;
    s->status = mvvm_release(s->object);
}

/* The attack: releasing an object inside its own destroy_fn gave two OKs for one object. */
static void releasing_an_object_inside_its_own_destroy_fn_is_an_invalid_handle(void) {
    mvvm_handle loop = new_virtual_loop(), subscription = 0;
    self_release s = { 0, MVVM_OK, 0 };
    CHECK_STATUS(mvvm_counter_new(loop, &s.object), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(s.object, "count", ignore_event, &s, release_the_object_again, &subscription),
                 MVVM_OK);
    RELEASE(s.object);
    CHECK_EQ_INT(s.runs, 1);
    CHECK_STATUS(s.status, MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(s.object), MVVM_ERR_INVALID_HANDLE);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    self_path = argv[0];
    static const check_test tests[] = {
        CHECK_TEST(a_stale_handle_never_comes_back_when_generations_run_out),
        CHECK_TEST(two_thread_loops_calling_each_other_from_callbacks_do_not_deadlock),
        CHECK_TEST(releasing_a_manual_loop_wakes_its_run_for),
        CHECK_TEST(concurrent_advances_each_move_time_by_their_whole_step),
        CHECK_TEST(a_forged_request_handle_is_invalid_and_an_answered_one_unknown),
        CHECK_TEST(a_long_invalid_name_is_cut_short_in_the_last_error),
        CHECK_TEST(releasing_an_object_inside_its_own_destroy_fn_is_an_invalid_handle),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
