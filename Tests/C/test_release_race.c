/*
 * test_release_race.c - two threads releasing one handle at once: exactly one gets MVVM_OK, the
 * other MVVM_ERR_INVALID_HANDLE (mvvm.h: "one release, one OK"), for objects, subscriptions
 * (released by one thread, unsubscribed by the other in every other batch), requests and loops,
 * while a third thread keeps the objects' loop busy. A subscription's destroy function runs once.
 * RELEASE_RACE_ROUNDS handles per kind: 100,000 natively (the valgrind and sanitizer runs set
 * fewer). Each batch of handles is released by both threads in the same order, so the two meet
 * at every point of the batch.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include "mvvm_catalog.h"
#include "check.h"

#define BATCH 64

typedef enum { KIND_OBJECT, KIND_SUBSCRIPTION, KIND_REQUEST, KIND_LOOP } kind;

typedef struct {
    pthread_barrier_t start, end;
    mvvm_handle handles[BATCH];
    mvvm_status seen[2][BATCH];
    int count;
    /* Odd batches of subscriptions: the second thread unsubscribes instead of releasing. */
    bool unsubscribe;
    atomic_int stop;
    atomic_long destroyed;
    int asked;
} race;

typedef struct {
    race *r;
    int index;
} racer;

static void *race_releaser(void *argument) {
    racer *me = argument;
    race *r = me->r;
    for (;;) {
        pthread_barrier_wait(&r->start);
        if (atomic_load(&r->stop)) return NULL;
        for (int k = 0; k < r->count; k++)
            r->seen[me->index][k] = me->index == 1 && r->unsubscribe ? mvvm_unsubscribe(r->handles[k])
                                                                      : mvvm_release(r->handles[k]);
        pthread_barrier_wait(&r->end);
    }
}

typedef struct {
    mvvm_handle view_model;
    atomic_int stop;
} busy;

/* Keeps the loop's work lock in demand: what makes the two releases overlap in practice. */
static void *keep_busy(void *argument) {
    busy *b = argument;
    while (!atomic_load(&b->stop)) mvvm_send(b->view_model, "increment", NULL);
    return NULL;
}

static void race_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm; (void)argument;
    race *r = user_data;
    r->handles[r->asked++] = request;
}

static void on_count(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source; (void)event; (void)user_data;
}

static void on_destroy(void *user_data) { atomic_fetch_add(&((race *)user_data)->destroyed, 1); }

/* Races `rounds` handles of `what`; every handle is released exactly once with MVVM_OK. */
static void race_releases(kind what) {
    long rounds = check_rounds("RELEASE_RACE_ROUNDS", 100000);
    mvvm_handle loop = new_virtual_loop(), counter = 0, busy_vm = 0, service = 0, asker = 0;
    race *r = calloc(1, sizeof *r);
    pthread_barrier_init(&r->start, NULL, 3);
    pthread_barrier_init(&r->end, NULL, 3);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_new(loop, counter, &busy_vm), MVVM_OK);
    if (what == KIND_REQUEST) {
        CHECK_STATUS(mvvm_service_new(race_request, r, NULL, &service), MVVM_OK);
        mvvm_value over = value_object(service);
        CHECK_STATUS(mvvm_new(loop, "welcome_view_model", &over, 1, &asker), MVVM_OK);
    }
    busy b = { .view_model = busy_vm };
    racer racers[2] = { { r, 0 }, { r, 1 } };
    pthread_t threads[2], busy_thread;
    for (int t = 0; t < 2; t++) pthread_create(&threads[t], NULL, race_releaser, &racers[t]);
    pthread_create(&busy_thread, NULL, keep_busy, &b);
    long raced = 0, twice = 0, never = 0, wrong = 0, batches = 0, made = 0;
    while (raced < rounds) {
        r->count = r->asked = 0;
        r->unsubscribe = what == KIND_SUBSCRIPTION && batches % 2 == 1;
        while (r->count < BATCH && raced + r->count < rounds) {
            mvvm_handle h = 0;
            mvvm_status status = MVVM_OK;
            switch (what) {
            case KIND_OBJECT: status = mvvm_counter_new(loop, &h); break;
            case KIND_SUBSCRIPTION: status = mvvm_subscribe(busy_vm, "count", on_count, r, on_destroy, &h); break;
            case KIND_REQUEST: status = mvvm_send(asker, "view_did_load", NULL); break;
            case KIND_LOOP: status = mvvm_loop_new(MVVM_LOOP_VIRTUAL, &h); break;
            }
            if (!CHECK_STATUS(status, MVVM_OK)) break;
            if (what != KIND_REQUEST) r->handles[r->count] = h;
            r->count++;
        }
        if (what == KIND_REQUEST && !CHECK_EQ_INT(r->asked, r->count)) break;
        if (r->count == 0) break;
        made += r->count;
        pthread_barrier_wait(&r->start);
        pthread_barrier_wait(&r->end);
        for (int k = 0; k < r->count; k++) {
            mvvm_status a = r->seen[0][k], c = r->seen[1][k];
            if (a == MVVM_OK && c == MVVM_OK) twice++;
            else if (a != MVVM_OK && c != MVVM_OK) never++;
            else if ((a == MVVM_OK ? c : a) != MVVM_ERR_INVALID_HANDLE) wrong++;
        }
        raced += r->count;
        batches++;
    }
    atomic_store(&r->stop, 1);
    pthread_barrier_wait(&r->start);
    for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
    atomic_store(&b.stop, 1);
    pthread_join(busy_thread, NULL);
    printf("      %ld raced: %ld released twice with MVVM_OK, %ld never, %ld with another status\n", raced, twice,
           never, wrong);
    CHECK_EQ_INT(raced, rounds);
    CHECK_EQ_INT(twice, 0);
    CHECK_EQ_INT(never, 0);
    CHECK_EQ_INT(wrong, 0);
    if (what == KIND_SUBSCRIPTION) CHECK_EQ_INT(atomic_load(&r->destroyed), made);
    if (asker) RELEASE(asker);
    if (service) RELEASE(service);
    RELEASE(busy_vm);
    RELEASE(counter);
    RELEASE(loop);
    pthread_barrier_destroy(&r->start);
    pthread_barrier_destroy(&r->end);
    free(r);
}

static void two_threads_releasing_one_object_give_one_ok(void) { race_releases(KIND_OBJECT); }

static void two_threads_releasing_one_subscription_give_one_ok(void) { race_releases(KIND_SUBSCRIPTION); }

static void two_threads_releasing_one_request_give_one_ok(void) { race_releases(KIND_REQUEST); }

static void two_threads_releasing_one_loop_give_one_ok(void) { race_releases(KIND_LOOP); }

int main(int argc, char **argv) {
    /* 100,000 races each natively: twice the usual limit. */
    static const check_test tests[] = {
        CHECK_LONG_TEST(two_threads_releasing_one_object_give_one_ok, 2),
        CHECK_LONG_TEST(two_threads_releasing_one_subscription_give_one_ok, 2),
        CHECK_LONG_TEST(two_threads_releasing_one_request_give_one_ok, 2),
        CHECK_LONG_TEST(two_threads_releasing_one_loop_give_one_ok, 2),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
