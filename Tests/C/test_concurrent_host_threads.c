/*
 * test_concurrent_host_threads.c - host threads hammering one loop, meant for ThreadSanitizer
 * (Tests/sanitize.sh thread) but run by every C test run: several host threads set bindings, send commands, subscribe,
 * unsubscribe, answer host-service requests and release objects of ONE thread loop while its
 * stopwatch timers tick on the loop's own thread. At the end every notification that was due has
 * arrived (each thread's counter increments seen by its own subscription, in order, before the
 * call returned; each stopwatch's last time event equals its final time), each destroy function
 * has run exactly once, no callback ran after its destroy function, and nothing crashed.
 *
 * HAMMER_ROUNDS (default 24) sets how many rounds each host thread runs.
 *
 * Worker threads never use CHECK (check.h's failure count is not thread-safe): they record what
 * went wrong in their own struct or in atomics, and the test's thread checks those at the end.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdatomic.h>

#include <sched.h>

#include "mvvm_catalog.h"
#include "check.h"

#define HOST_THREADS 4
#define INCREMENTS 40
/* The longest any wait for a real-time event may take before the test gives up. */
#define GIVE_UP_MS 5000

static int hammer_rounds(void) {
    const char *text = getenv("HAMMER_ROUNDS");
    int n = text ? atoi(text) : 0;
    return n > 0 ? n : 24;
}

/* ------------------------------------------------------------------------------------------ */
/* Subscriptions that check themselves                                                        */
/* ------------------------------------------------------------------------------------------ */

/* The user data of one subscription. Everything the callbacks touch is atomic. */
typedef struct sub_data {
    atomic_int events;
    atomic_int destroyed;       /* must end at exactly 1 */
    atomic_int after_destroy;   /* callbacks after the destroy function: must stay 0 */
    atomic_int out_of_order;    /* counts not one more than the last, times not later */
    atomic_int read_mismatch;   /* the getter inside the callback disagreed with the event */
    atomic_int wrong_thread;    /* a host call's change notified on another thread */
    atomic_llong last;          /* the last count seen */
    atomic_int released_source; /* the callback released its source */
    int release_after;          /* release the source from the callback at this event (0: never) */
    pthread_t caller;           /* the thread whose calls cause the changes (counter subscriptions) */
    bool check_thread;
    pthread_mutex_t mutex;      /* guards last_text */
    char last_text[32];
} sub_data;

/* A pool of sub_data, so the end of the test can check every subscription ever made. */
static sub_data *pool;
static int pool_size;
static atomic_int pool_used;
static atomic_int subscribe_attempts; /* calls of mvvm_subscribe with a callback: each owes one destroy */

static sub_data *sub_data_new(void) {
    int i = atomic_fetch_add(&pool_used, 1);
    if (i >= pool_size) {
        fprintf(stderr, "test_concurrent_host_threads: the sub_data pool (%d) is too small\n", pool_size);
        abort();
    }
    sub_data *d = &pool[i];
    pthread_mutex_init(&d->mutex, NULL);
    return d;
}

static void pool_setup(int size) {
    pool = calloc((size_t)size, sizeof *pool);
    if (!pool) abort();
    pool_size = size;
    atomic_store(&pool_used, 0);
    atomic_store(&subscribe_attempts, 0);
}

static void pool_teardown(void) {
    int used = atomic_load(&pool_used);
    for (int i = 0; i < used; i++) pthread_mutex_destroy(&pool[i].mutex);
    free(pool);
    pool = NULL;
}

static void sub_destroy(void *user_data) {
    sub_data *d = user_data;
    atomic_fetch_add(&d->destroyed, 1);
}

static void note_event(sub_data *d) {
    if (atomic_load(&d->destroyed) != 0) atomic_fetch_add(&d->after_destroy, 1);
    atomic_fetch_add(&d->events, 1);
}

/* counter_view_model "count": each event one more than the last, on the caller's thread, and the
 * getter called back inside the callback returns the event's value. */
static void count_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    sub_data *d = user_data;
    note_event(d);
    if (d->check_thread && !pthread_equal(pthread_self(), d->caller)) atomic_fetch_add(&d->wrong_thread, 1);
    if (event->value.type != MVVM_TYPE_STRING || !event->value.string) {
        atomic_fetch_add(&d->out_of_order, 1);
        return;
    }
    long long value = strtoll(event->value.string, NULL, 10);
    if (value != atomic_load(&d->last) + 1) atomic_fetch_add(&d->out_of_order, 1);
    atomic_store(&d->last, value);
    char *read = NULL;
    if (mvvm_get_string(source, "count", &read) != MVVM_OK || !read || strcmp(read, event->value.string) != 0)
        atomic_fetch_add(&d->read_mismatch, 1);
    mvvm_string_free(read);
}

/* Any event: counts it. */
static void any_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    note_event(user_data);
}

/* stop_watch_view_model "time": every event later than the last ("HH:MM:SS.cc" compares as text),
 * the getter inside the callback agrees, and the source is released from here when asked. */
static void time_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    sub_data *d = user_data;
    note_event(d);
    if (event->value.type != MVVM_TYPE_STRING || !event->value.string) {
        atomic_fetch_add(&d->out_of_order, 1);
        return;
    }
    pthread_mutex_lock(&d->mutex);
    if (d->last_text[0] && strcmp(event->value.string, d->last_text) <= 0) atomic_fetch_add(&d->out_of_order, 1);
    snprintf(d->last_text, sizeof d->last_text, "%s", event->value.string);
    pthread_mutex_unlock(&d->mutex);
    if (atomic_load(&d->released_source)) return;
    char *read = NULL;
    if (mvvm_get_string(source, "time", &read) != MVVM_OK || !read || strcmp(read, event->value.string) != 0)
        atomic_fetch_add(&d->read_mismatch, 1);
    mvvm_string_free(read);
    if (d->release_after > 0 && atomic_load(&d->events) >= d->release_after) {
        atomic_store(&d->released_source, 1);
        if (mvvm_release(source) != MVVM_OK) atomic_fetch_add(&d->read_mismatch, 1000);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Host threads                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct host_service {
    atomic_llong request;  /* the open request, 0 when none */
    atomic_int calls;
    atomic_int destroyed;
} host_service;

static void service_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm;
    (void)argument;
    host_service *s = user_data;
    atomic_fetch_add(&s->calls, 1);
    atomic_store(&s->request, (long long)request);
}

static void service_destroy(void *user_data) {
    atomic_fetch_add(&((host_service *)user_data)->destroyed, 1);
}

typedef struct worker {
    int id, rounds;
    mvvm_handle loop, shared_sign_up;
    int failures;
    char first_failure[256];
    int time_events, services;
    host_service *service_list;
} worker;

static void worker_fail(worker *w, const char *format, ...) {
    if (w->failures++ > 0) return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(w->first_failure, sizeof w->first_failure, format, args);
    va_end(args);
    if (n >= 0 && (size_t)n < sizeof w->first_failure)
        snprintf(w->first_failure + n, sizeof w->first_failure - (size_t)n, " [%s]", mvvm_last_error());
}

#define EXPECT(w, call, expected)                                                                        \
    do {                                                                                                 \
        mvvm_status got_ = (call);                                                                       \
        if (got_ != (expected))                                                                          \
            worker_fail((w), "line %d: %s gave %s, expected %s", __LINE__, #call, mvvm_status_name(got_), \
                        mvvm_status_name(expected));                                                     \
    } while (0)

#define EXPECT_TRUE(w, cond)                                                 \
    do {                                                                     \
        if (!(cond)) worker_fail((w), "line %d: %s is false", __LINE__, #cond); \
    } while (0)

static mvvm_handle subscribe(worker *w, mvvm_handle object, const char *name, mvvm_callback callback, sub_data *d) {
    mvvm_handle subscription = 0;
    atomic_fetch_add(&subscribe_attempts, 1);
    EXPECT(w, mvvm_subscribe(object, name, callback, d, sub_destroy, &subscription), MVVM_OK);
    return subscription;
}

/* One round with a counter: increments seen in order, before each call returns, on this thread. */
static void counter_round(worker *w, int round) {
    mvvm_handle counter = 0, vm = 0;
    EXPECT(w, mvvm_counter_new(w->loop, &counter), MVVM_OK);
    EXPECT(w, mvvm_counter_view_model_new(w->loop, counter, &vm), MVVM_OK);
    sub_data *counts = sub_data_new(), *all = sub_data_new();
    counts->caller = pthread_self();
    counts->check_thread = true;
    mvvm_handle s_counts = subscribe(w, vm, "count", count_callback, counts);
    mvvm_handle s_all = subscribe(w, vm, NULL, any_callback, all);
    /* The view model keeps its model alive: the model's handle may go first. */
    if (round % 3 == 0) EXPECT(w, mvvm_release(counter), MVVM_OK);

    for (int i = 1; i <= INCREMENTS; i++) {
        EXPECT(w, mvvm_send(vm, "increment", NULL), MVVM_OK);
        /* Notified before the call returned. */
        if (atomic_load(&counts->last) != i) worker_fail(w, "round %d: after increment %d the callback saw %lld", round, i,
                                                         (long long)atomic_load(&counts->last));
        if (i == INCREMENTS / 2) {
            EXPECT(w, mvvm_unsubscribe(s_all), MVVM_OK);
            EXPECT_TRUE(w, atomic_load(&all->destroyed) == 1);
            EXPECT(w, mvvm_unsubscribe(s_all), MVVM_ERR_INVALID_HANDLE);
        }
    }
    char expected[16];
    snprintf(expected, sizeof expected, "%d", INCREMENTS);
    char *text = NULL;
    EXPECT(w, mvvm_get_string(vm, "count", &text), MVVM_OK);
    EXPECT_TRUE(w, text && strcmp(text, expected) == 0);
    mvvm_string_free(text);
    if (round % 3 != 0) {
        int64_t count = -1;
        EXPECT(w, mvvm_get_int(counter, "count", &count), MVVM_OK);
        EXPECT_TRUE(w, count == INCREMENTS);
    }
    EXPECT_TRUE(w, atomic_load(&counts->events) == INCREMENTS);
    EXPECT_TRUE(w, atomic_load(&all->events) == INCREMENTS / 2);

    if (round % 2 == 0) {
        /* Releasing the object ends its subscription: the destroy function has run on return. */
        EXPECT(w, mvvm_release(vm), MVVM_OK);
        EXPECT_TRUE(w, atomic_load(&counts->destroyed) == 1);
        EXPECT(w, mvvm_unsubscribe(s_counts), MVVM_ERR_INVALID_HANDLE);
    } else {
        EXPECT(w, mvvm_release(s_counts), MVVM_OK);
        EXPECT_TRUE(w, atomic_load(&counts->destroyed) == 1);
        EXPECT(w, mvvm_release(vm), MVVM_OK);
    }
    EXPECT(w, mvvm_send(vm, "increment", NULL), MVVM_ERR_INVALID_HANDLE);
    if (round % 3 != 0) EXPECT(w, mvvm_release(counter), MVVM_OK);
}

/* A sign-up with the host's service, answered from this thread (or abandoned by releasing the view model). */
static void sign_up_round(worker *w, int round, host_service *service) {
    mvvm_handle vm = 0;
    EXPECT(w, mvvm_sign_up_view_model_new_with_service(w->loop, service_request, service, service_destroy, &vm), MVVM_OK);
    sub_data *alert = sub_data_new(), *enabled = sub_data_new();
    mvvm_handle s_alert = subscribe(w, vm, "is_completion_alert_presented", any_callback, alert);
    subscribe(w, vm, "is_sign_up_enabled", any_callback, enabled); /* ended by the release below */
    char user_id[32];
    snprintf(user_id, sizeof user_id, "user-%d-%d", w->id, round);
    EXPECT(w, mvvm_set_string(vm, "user_id", user_id), MVVM_OK);
    EXPECT(w, mvvm_set_string(vm, "password", "password1"), MVVM_OK);
    EXPECT(w, mvvm_set_string(vm, "confirm_password", "password1"), MVVM_OK);
    EXPECT(w, mvvm_set_bool(vm, "agreed", true), MVVM_OK);
    EXPECT_TRUE(w, atomic_load(&enabled->events) == 1);
    /* The shared form: other threads set it too, so only its shape is certain. */
    EXPECT(w, mvvm_set_string(w->shared_sign_up, "user_id", user_id), MVVM_OK);
    char *text = NULL;
    EXPECT(w, mvvm_get_string(w->shared_sign_up, "user_id", &text), MVVM_OK);
    EXPECT_TRUE(w, text && strncmp(text, "user-", 5) == 0);
    mvvm_string_free(text);

    EXPECT(w, mvvm_send(vm, "sign_up_tapped", NULL), MVVM_OK);
    EXPECT_TRUE(w, atomic_load(&service->calls) == 1);
    mvvm_handle request = (mvvm_handle)atomic_load(&service->request);
    mvvm_value yes = value_bool(true);
    if (round % 2 == 0) {
        EXPECT(w, mvvm_complete(request, &yes), MVVM_OK);
        EXPECT_TRUE(w, atomic_load(&alert->events) == 1); /* notified before mvvm_complete returned */
        EXPECT(w, mvvm_complete(request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
        EXPECT(w, mvvm_unsubscribe(s_alert), MVVM_OK);
        EXPECT(w, mvvm_release(vm), MVVM_OK);
    } else {
        /* Released with the request pending: the request is cancelled, the service ends once. */
        EXPECT(w, mvvm_release(vm), MVVM_OK);
        EXPECT(w, mvvm_complete(request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
        EXPECT_TRUE(w, atomic_load(&alert->events) == 0);
    }
    EXPECT_TRUE(w, atomic_load(&service->destroyed) == 1);
    EXPECT_TRUE(w, atomic_load(&alert->destroyed) == 1);
    EXPECT_TRUE(w, atomic_load(&enabled->destroyed) == 1);
}

/* A stopwatch ticking on the loop's thread while this thread works; stopped (its last time event
 * must then equal its time) or released while it ticks. */
static mvvm_handle start_stop_watch(worker *w, sub_data **out) {
    mvvm_handle watch = 0;
    EXPECT(w, mvvm_stop_watch_view_model_new(w->loop, &watch), MVVM_OK);
    *out = sub_data_new();
    subscribe(w, watch, "time", time_callback, *out);
    EXPECT(w, mvvm_send(watch, "main_action", NULL), MVVM_OK);
    return watch;
}

static void finish_stop_watch(worker *w, int round, mvvm_handle watch, sub_data *times) {
    /* Let it tick at least once. */
    int64_t deadline = check_now_ms() + GIVE_UP_MS;
    while (atomic_load(&times->events) == 0 && check_now_ms() < deadline) check_sleep_ms(1);
    if (atomic_load(&times->events) == 0) worker_fail(w, "round %d: the stopwatch never ticked", round);
    if (round % 2 == 0) {
        EXPECT(w, mvvm_send(watch, "main_action", NULL), MVVM_OK); /* stop */
        char *time = NULL;
        EXPECT(w, mvvm_get_string(watch, "time", &time), MVVM_OK);
        pthread_mutex_lock(&times->mutex);
        if (!time || strcmp(time, times->last_text) != 0)
            worker_fail(w, "round %d: stopped at %s but the last time event was %s", round, time ? time : "NULL",
                        times->last_text);
        pthread_mutex_unlock(&times->mutex);
        mvvm_string_free(time);
    }
    /* Even rounds release it stopped, odd rounds while it ticks. */
    EXPECT(w, mvvm_release(watch), MVVM_OK);
    EXPECT_TRUE(w, atomic_load(&times->destroyed) == 1);
    w->time_events += atomic_load(&times->events);
}

/* A stopwatch whose own callback releases it on its 3rd tick, while this thread reads it. */
static void source_released_by_its_callback(worker *w, int round) {
    mvvm_handle watch = 0;
    EXPECT(w, mvvm_stop_watch_view_model_new(w->loop, &watch), MVVM_OK);
    sub_data *d = sub_data_new();
    d->release_after = 3;
    subscribe(w, watch, "time", time_callback, d);
    EXPECT(w, mvvm_send(watch, "main_action", NULL), MVVM_OK);
    int64_t deadline = check_now_ms() + GIVE_UP_MS;
    for (;;) {
        char *time = NULL;
        mvvm_status status = mvvm_get_string(watch, "time", &time);
        mvvm_string_free(time);
        if (status == MVVM_ERR_INVALID_HANDLE) break;
        if (status != MVVM_OK) {
            worker_fail(w, "round %d: reading a stopwatch its callback may release gave %s", round,
                        mvvm_status_name(status));
            break;
        }
        if (check_now_ms() > deadline) {
            worker_fail(w, "round %d: the callback never released its source", round);
            EXPECT(w, mvvm_release(watch), MVVM_OK);
            break;
        }
        check_sleep_ms(1);
    }
    /* The handle is invalid before the release runs the destroy functions (mvvm.h), on the loop's
     * thread: this thread may see the one before the other. */
    while (atomic_load(&d->destroyed) == 0 && check_now_ms() <= deadline) check_sleep_ms(1);
    EXPECT_TRUE(w, atomic_load(&d->destroyed) == 1);
    EXPECT(w, mvvm_release(watch), MVVM_ERR_INVALID_HANDLE);
}

static atomic_int workers_done;

static void *host_thread(void *arg) {
    worker *w = arg;
    for (int round = 0; round < w->rounds; round++) {
        sub_data *times = NULL;
        mvvm_handle watch = start_stop_watch(w, &times);
        counter_round(w, round);
        sign_up_round(w, round, &w->service_list[round]);
        finish_stop_watch(w, round, watch, times);
        if (round % 4 == 1) source_released_by_its_callback(w, round);
    }
    atomic_fetch_add(&workers_done, 1);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Tests                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void check_every_subscription_ended_once(void) {
    int used = atomic_load(&pool_used), bad = 0, after = 0, disorder = 0, mismatch = 0, wrong_thread = 0;
    for (int i = 0; i < used; i++) {
        if (atomic_load(&pool[i].destroyed) != 1) bad++;
        after += atomic_load(&pool[i].after_destroy);
        disorder += atomic_load(&pool[i].out_of_order);
        mismatch += atomic_load(&pool[i].read_mismatch);
        wrong_thread += atomic_load(&pool[i].wrong_thread);
    }
    CHECK_EQ_INT(used, atomic_load(&subscribe_attempts));
    CHECK_EQ_INT(bad, 0);          /* destroy functions that did not run exactly once */
    CHECK_EQ_INT(after, 0);        /* callbacks after the destroy function */
    CHECK_EQ_INT(disorder, 0);     /* counts out of order, times not increasing */
    CHECK_EQ_INT(mismatch, 0);     /* getters inside callbacks that disagreed with the event */
    CHECK_EQ_INT(wrong_thread, 0); /* host-call changes notified on another thread */
}

/* Four host threads on one thread loop while its stopwatches tick; the test's thread meanwhile
 * subscribes to and unsubscribes from a shared ticking stopwatch. */
static void host_threads_hammer_one_thread_loop(void) {
    const int rounds = hammer_rounds();
    pool_setup(HOST_THREADS * rounds * 8 + 20000);
    mvvm_handle loop = 0, shared_watch = 0, shared_sign_up = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &loop), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &shared_watch), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &shared_sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(shared_watch), MVVM_OK);
    /* Kept to the end: ended by the loop's release. */
    sub_data *kept = sub_data_new();
    mvvm_handle kept_subscription = 0;
    atomic_fetch_add(&subscribe_attempts, 1);
    CHECK_STATUS(mvvm_subscribe(shared_watch, "time", time_callback, kept, sub_destroy, &kept_subscription), MVVM_OK);

    worker workers[HOST_THREADS];
    pthread_t threads[HOST_THREADS];
    int started = 0;
    atomic_store(&workers_done, 0);
    for (int t = 0; t < HOST_THREADS; t++) {
        workers[t] = (worker){ .id = t, .rounds = rounds, .loop = loop, .shared_sign_up = shared_sign_up };
        workers[t].service_list = calloc((size_t)rounds, sizeof(host_service));
        if (!workers[t].service_list) abort();
    }
    for (int t = 0; t < HOST_THREADS; t++)
        if (CHECK(pthread_create(&threads[t], NULL, host_thread, &workers[t]) == 0)) started++;

    /* Meanwhile: subscribe and unsubscribe on the ticking stopwatch; once unsubscribe returns, the
     * destroy function has run and the callback is never called again. */
    int churned = 0, churn_failures = 0;
    while (atomic_load(&workers_done) < started && atomic_load(&pool_used) < pool_size - 1000) {
        sub_data *d = sub_data_new();
        mvvm_handle s = 0;
        atomic_fetch_add(&subscribe_attempts, 1);
        if (mvvm_subscribe(shared_watch, churned % 2 ? NULL : "time", churned % 2 ? any_callback : time_callback, d,
                           sub_destroy, &s) != MVVM_OK)
            churn_failures++;
        check_sleep_ms(churned % 3);
        if (mvvm_unsubscribe(s) != MVVM_OK || atomic_load(&d->destroyed) != 1) churn_failures++;
        churned++;
    }
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    CHECK_EQ_INT(churn_failures, 0);

    int time_events = 0;
    for (int t = 0; t < started; t++) {
        if (!CHECK_EQ_INT(workers[t].failures, 0)) printf("    host thread %d: %s\n", t, workers[t].first_failure);
        time_events += workers[t].time_events;
        for (int r = 0; r < rounds; r++) {
            CHECK_EQ_INT(atomic_load(&workers[t].service_list[r].destroyed), 1);
            CHECK_EQ_INT(atomic_load(&workers[t].service_list[r].calls), 1);
        }
    }
    CHECK(time_events >= started * rounds);
    CHECK(atomic_load(&kept->events) > 0);
    CHECK_EQ_INT(atomic_load(&kept->destroyed), 0);

    /* Releasing the loop ends the kept subscription; its objects then answer LOOP_RELEASED. */
    RELEASE(loop);
    CHECK_EQ_INT(atomic_load(&kept->destroyed), 1);
    int events_at_release = atomic_load(&kept->events);
    check_sleep_ms(30);
    CHECK_EQ_INT(atomic_load(&kept->events), events_at_release);
    char *text = NULL;
    CHECK_STATUS(mvvm_get_string(shared_watch, "time", &text), MVVM_ERR_LOOP_RELEASED);
    CHECK_STATUS(mvvm_set_string(shared_sign_up, "user_id", "after"), MVVM_ERR_LOOP_RELEASED);
    CHECK_STATUS(mvvm_unsubscribe(kept_subscription), MVVM_ERR_INVALID_HANDLE);
    RELEASE(shared_watch);
    RELEASE(shared_sign_up);

    check_every_subscription_ended_once();
    printf("    %d host threads x %d rounds, %d churned subscriptions, %d subscriptions in all, %d time events\n",
           started, rounds, churned, atomic_load(&pool_used), time_events + atomic_load(&kept->events));
    for (int t = 0; t < HOST_THREADS; t++) free(workers[t].service_list);
    pool_teardown();
}

/* Host threads keep calling while the loop is released under them: every call answers a
 * documented status (OK before, LOOP_RELEASED or INVALID_HANDLE after), with a message for each
 * failure, and every subscription still ends exactly once. */
typedef struct racer {
    mvvm_handle loop;
    atomic_int *stop;
    int unexpected;
    char first_unexpected[256];
    int calls, after_release;
} racer;

static void racer_saw(racer *r, mvvm_status status, const char *call) {
    r->calls++;
    if (status == MVVM_OK) return;
    if ((status == MVVM_ERR_LOOP_RELEASED || status == MVVM_ERR_INVALID_HANDLE) && mvvm_last_error()[0] != '\0') {
        r->after_release++;
        return;
    }
    if (r->unexpected++ == 0)
        snprintf(r->first_unexpected, sizeof r->first_unexpected, "%s gave %s (\"%s\")", call, mvvm_status_name(status),
                 mvvm_last_error());
}

static void *racer_thread(void *arg) {
    racer *r = arg;
    while (!atomic_load(r->stop)) {
        mvvm_handle counter = 0, vm = 0, watch = 0, s = 0;
        mvvm_status status = mvvm_counter_new(r->loop, &counter);
        racer_saw(r, status, "mvvm_counter_new");
        if (status != MVVM_OK) continue;
        racer_saw(r, mvvm_counter_view_model_new(r->loop, counter, &vm), "mvvm_counter_view_model_new");
        racer_saw(r, mvvm_stop_watch_view_model_new(r->loop, &watch), "mvvm_stop_watch_view_model_new");
        racer_saw(r, mvvm_send(watch, "main_action", NULL), "mvvm_send(main_action)");
        if (atomic_load(&pool_used) < pool_size - HOST_THREADS) {
            sub_data *d = sub_data_new();
            atomic_fetch_add(&subscribe_attempts, 1);
            racer_saw(r, mvvm_subscribe(vm, "count", any_callback, d, sub_destroy, &s), "mvvm_subscribe");
        }
        for (int i = 0; i < 5; i++) racer_saw(r, mvvm_send(vm, "increment", NULL), "mvvm_send(increment)");
        char *text = NULL;
        racer_saw(r, mvvm_get_string(watch, "time", &text), "mvvm_get_string(time)");
        mvvm_string_free(text);
        if (s) racer_saw(r, mvvm_unsubscribe(s), "mvvm_unsubscribe");
        if (watch) racer_saw(r, mvvm_release(watch), "mvvm_release(watch)");
        if (vm) racer_saw(r, mvvm_release(vm), "mvvm_release(vm)");
        racer_saw(r, mvvm_release(counter), "mvvm_release(counter)");
        /* A racer never blocks: let the others (the test's main thread, asleep until it releases
         * the loop) run, which a one-thread-at-a-time scheduler such as valgrind's needs. */
        sched_yield();
    }
    return NULL;
}

static void loop_released_while_host_threads_call(void) {
    pool_setup(100000);
    mvvm_handle loop = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &loop), MVVM_OK);
    atomic_int stop = 0;
    racer racers[HOST_THREADS];
    pthread_t threads[HOST_THREADS];
    int started = 0;
    for (int t = 0; t < HOST_THREADS; t++) {
        racers[t] = (racer){ .loop = loop, .stop = &stop };
        if (CHECK(pthread_create(&threads[t], NULL, racer_thread, &racers[t]) == 0)) started++;
    }
    check_sleep_ms(150);
    RELEASE(loop);
    check_sleep_ms(50);
    atomic_store(&stop, 1);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
    int calls = 0, after = 0;
    for (int t = 0; t < started; t++) {
        if (!CHECK_EQ_INT(racers[t].unexpected, 0)) printf("    racer %d: %s\n", t, racers[t].first_unexpected);
        calls += racers[t].calls;
        after += racers[t].after_release;
    }
    CHECK(after > 0); /* the release did land while they called */
    check_every_subscription_ended_once();
    printf("    %d calls, %d refused after the loop's release\n", calls, after);
    pool_teardown();
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(host_threads_hammer_one_thread_loop),
        CHECK_TEST(loop_released_while_host_threads_call),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
