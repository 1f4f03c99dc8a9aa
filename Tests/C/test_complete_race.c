/*
 * test_complete_race.c - mvvm_complete racing the release of its view model, a million times
 * natively (COMPLETE_RACE_ROUNDS: the valgrind and sanitizer runs set fewer): a request answered
 * while its view model is released on another thread is answered (MVVM_OK) or refused as
 * unknown (MVVM_ERR_UNKNOWN_REQUEST), never taken for an invalid handle.
 * Each round races a batch of pending requests: one thread answers them in order while another
 * releases them in order, so the two meet at every point of the batch. A request is released
 * with its view model (one view model each: VIEW_MODEL_RACE_ROUNDS of them) or by its own handle
 * (one view model asking again and again: the million, since a view model costs far more to make
 * than a request); either way its handle goes the same way, and the answer must not mistake it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include "check.h"

#define BATCH 64

typedef struct {
    pthread_barrier_t start, end;
    mvvm_handle requests[BATCH], view_models[BATCH];
    /* Release the view models (true) or the requests themselves. */
    bool release_view_models;
    int made, asked;
    atomic_int stop;
    atomic_long wrong, late;
    _Atomic mvvm_status last_wrong;
} race;

static void race_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm; (void)argument;
    race *r = user_data;
    r->requests[r->asked++] = request;
}

static void *race_completer(void *argument) {
    race *r = argument;
    mvvm_value hello = value_string("Welcome!");
    for (;;) {
        pthread_barrier_wait(&r->start);
        if (atomic_load(&r->stop)) return NULL;
        for (int k = 0; k < r->made; k++) {
            mvvm_status status = mvvm_complete(r->requests[k], &hello);
            if (status == MVVM_ERR_UNKNOWN_REQUEST) atomic_fetch_add(&r->late, 1);
            else if (status != MVVM_OK) { atomic_fetch_add(&r->wrong, 1); atomic_store(&r->last_wrong, status); }
        }
        pthread_barrier_wait(&r->end);
    }
}

static void *race_releaser(void *argument) {
    race *r = argument;
    for (;;) {
        pthread_barrier_wait(&r->start);
        if (atomic_load(&r->stop)) return NULL;
        for (int k = 0; k < r->made; k++) mvvm_release(r->release_view_models ? r->view_models[k] : r->requests[k]);
        pthread_barrier_wait(&r->end);
    }
}

/* Races `rounds` requests, each released with its own view model or by its request handle. */
static void race_requests(long rounds, bool release_view_models) {
    mvvm_handle loop = new_virtual_loop(), service = 0, asker = 0;
    race *r = calloc(1, sizeof *r);
    r->release_view_models = release_view_models;
    pthread_barrier_init(&r->start, NULL, 3);
    pthread_barrier_init(&r->end, NULL, 3);
    CHECK_STATUS(mvvm_service_new(race_request, r, NULL, &service), MVVM_OK);
    mvvm_value over = value_object(service);
    if (!release_view_models) CHECK_STATUS(mvvm_new(loop, "welcome_view_model", &over, 1, &asker), MVVM_OK);
    pthread_t completer, releaser;
    pthread_create(&completer, NULL, race_completer, r);
    pthread_create(&releaser, NULL, race_releaser, r);
    long raced = 0;
    while (raced < rounds) {
        r->made = r->asked = 0;
        while (r->made < BATCH && raced + r->made < rounds) {
            mvvm_handle view_model = asker;
            if (release_view_models && mvvm_new(loop, "welcome_view_model", &over, 1, &view_model) != MVVM_OK) break;
            r->view_models[r->made] = view_model;
            mvvm_send(view_model, "view_did_load", NULL);
            r->made++;
        }
        if (!CHECK_EQ_INT(r->asked, r->made) || r->made == 0) break;
        pthread_barrier_wait(&r->start);
        pthread_barrier_wait(&r->end);
        raced += r->made;
    }
    atomic_store(&r->stop, 1);
    pthread_barrier_wait(&r->start);
    pthread_join(completer, NULL);
    pthread_join(releaser, NULL);
    CHECK_EQ_INT(atomic_load(&r->wrong), 0);
    if (atomic_load(&r->wrong)) printf("      the last wrong status: %s\n", mvvm_status_name(atomic_load(&r->last_wrong)));
    printf("      %ld raced, %ld answered after the release\n", raced, atomic_load(&r->late));
    if (asker) RELEASE(asker);
    RELEASE(service);
    RELEASE(loop);
    pthread_barrier_destroy(&r->start);
    pthread_barrier_destroy(&r->end);
    free(r);
}

static void completing_while_the_view_model_is_released_is_answered_or_unknown(void) {
    race_requests(check_rounds("VIEW_MODEL_RACE_ROUNDS", 20000), true);
}

static void completing_while_the_request_is_released_is_answered_or_unknown(void) {
    race_requests(check_rounds("COMPLETE_RACE_ROUNDS", 1000000), false);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(completing_while_the_view_model_is_released_is_answered_or_unknown),
        /* A million races natively: twice the usual limit. */
        CHECK_LONG_TEST(completing_while_the_request_is_released_is_answered_or_unknown, 2),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
