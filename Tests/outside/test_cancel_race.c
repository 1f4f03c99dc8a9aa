/*
 * test_cancel_race.c - cancelling an asynchronous call (Tests/outside's Finder.find, which asks
 * the host's service and waits for the answer) while it ends, and from inside its own request.
 *
 * Races: mvvm_cancel, or the release of the call's handle, against the answer that ends the call
 * on another thread (mvvm_complete from a thread of the test; mvvm_complete_soon, applied by a
 * thread loop's thread), and against the release of the call's loop. The cancel decides the
 * outcome exactly once: MVVM_OK means the completion reports MVVM_ERR_CANCELLED; when the answer
 * won, the cancel gives MVVM_ERR_INVALID_HANDLE and the completion the answer; racing the loop's
 * release it may give MVVM_ERR_LOOP_RELEASED, and the completion reports CANCELLED. Each
 * completion and destroy function runs once. CANCEL_RACE_ROUNDS calls per mode: 100,000 natively
 * (the valgrind run sets fewer); batches of calls are cancelled in the order they are answered,
 * so the two meet at every point of the batch.
 *
 * A host-service request function that cancels (or releases) the call whose task asked it: the
 * request is withdrawn there (an answer then or later is UNKNOWN_REQUEST), the task sees its
 * cancellation (is_finding back to false, cancellations counted, found unchanged).
 */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdatomic.h>
#include "check.h"
#include "sample.h"

#define BATCH 64

/* One call's completion. */
typedef struct {
    atomic_int done, destroyed;
    _Atomic mvvm_status status;
    pthread_t thread; /* the completion's */
} ending;

static void on_done(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    (void)call; (void)result; (void)message;
    ending *e = user_data;
    e->thread = pthread_self();
    atomic_store(&e->status, status);
    atomic_fetch_add(&e->done, 1);
}

static void on_destroy(void *user_data) { atomic_fetch_add(&((ending *)user_data)->destroyed, 1); }

typedef enum {
    ANSWER_FROM_A_THREAD,  /* mvvm_complete from the answering thread, against mvvm_cancel */
    ANSWER_SOON,           /* mvvm_complete_soon in the request function, applied by the loop's thread */
    RELEASE_THE_LOOP,      /* the loop released by the other thread mid-batch */
    RELEASE_THE_OBJECT,    /* the calls' object released by the other thread mid-batch */
} mode;

typedef struct {
    pthread_barrier_t start, end;
    mode how;
    /* Release the call's handle instead of mvvm_cancel. */
    bool by_release;
    mvvm_handle loop, finder, calls[BATCH], requests[BATCH];
    ending endings[BATCH];
    mvvm_status cancelled[BATCH], answered[BATCH];
    int count, asked;
    atomic_int stop;
} race;

static void race_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm; (void)argument;
    race *r = user_data;
    r->requests[r->asked++] = request;
    if (r->how == ANSWER_SOON) {
        mvvm_value answer = value_string("found");
        CHECK_STATUS(mvvm_complete_soon(request, &answer), MVVM_OK);
    }
}

/* The other side of the race: answers the batch in order, or releases the loop mid-way. */
static void *race_other(void *argument) {
    race *r = argument;
    mvvm_value answer = value_string("found");
    for (;;) {
        pthread_barrier_wait(&r->start);
        if (atomic_load(&r->stop)) return NULL;
        if (r->how == ANSWER_FROM_A_THREAD) {
            for (int k = 0; k < r->count; k++) r->answered[k] = mvvm_complete(r->requests[k], &answer);
        } else if (r->how == RELEASE_THE_LOOP) {
            r->answered[0] = mvvm_release(r->loop);
        } else if (r->how == RELEASE_THE_OBJECT) {
            r->answered[0] = mvvm_release(r->finder);
        }
        pthread_barrier_wait(&r->end);
    }
}

static void race_cancels(mode how, bool by_release) {
    long rounds = check_rounds("CANCEL_RACE_ROUNDS", 100000);
    race *r = calloc(1, sizeof *r);
    r->how = how;
    r->by_release = by_release;
    pthread_barrier_init(&r->start, NULL, 2);
    pthread_barrier_init(&r->end, NULL, 2);
    pthread_t other;
    pthread_create(&other, NULL, race_other, r);
    long raced = 0, wrong = 0, cancel_ok = 0, answer_won = 0, loop_released = 0;
    while (raced < rounds) {
        /* A loop (an object) per batch when the race releases it; one for the whole race otherwise. */
        if (!r->loop || how == RELEASE_THE_LOOP) {
            if (!CHECK_STATUS(mvvm_loop_new(how == ANSWER_FROM_A_THREAD ? MVVM_LOOP_VIRTUAL : MVVM_LOOP_THREAD, &r->loop),
                              MVVM_OK)) break;
            r->finder = 0;
        }
        if (!r->finder && !CHECK_STATUS(mvvm_finder_new(r->loop, race_request, r, NULL, &r->finder), MVVM_OK)) break;
        r->count = r->asked = 0;
        memset(r->endings, 0, sizeof r->endings);
        while (r->count < BATCH && raced + r->count < rounds) {
            if (!CHECK_STATUS(mvvm_finder_find(r->finder, on_done, &r->endings[r->count], on_destroy, &r->calls[r->count]),
                              MVVM_OK)) break;
            r->count++;
        }
        if (!CHECK_EQ_INT(r->asked, r->count) || r->count == 0) break;
        pthread_barrier_wait(&r->start);
        /* On this thread: the cancels, meeting the answers (or the loop's release) mid-batch. */
        for (int k = 0; k < r->count; k++)
            r->cancelled[k] = by_release ? mvvm_release(r->calls[k]) : mvvm_cancel(r->calls[k]);
        pthread_barrier_wait(&r->end);
        /* A call the loop's thread ended is completed there, at the end of its turn: waited for
         * (the harness's limit ends a test that would wait for good). */
        for (int k = 0; k < r->count; k++)
            while (atomic_load(&r->endings[k].destroyed) == 0) sched_yield();
        for (int k = 0; k < r->count; k++) {
            ending *e = &r->endings[k];
            mvvm_status cancel = r->cancelled[k], status = atomic_load(&e->status);
            bool ok = atomic_load(&e->done) == 1 && atomic_load(&e->destroyed) == 1;
            if (cancel == MVVM_OK) {
                cancel_ok++;
                /* The answer may still have reached the task before the cancel reached the loop
                 * (answered: OK); the call's outcome is the cancel's all the same, and its
                 * completion ran here, in the cancel, not in a release on the other thread. */
                ok = ok && status == MVVM_ERR_CANCELLED && pthread_equal(e->thread, pthread_self());
                if (how == ANSWER_FROM_A_THREAD)
                    ok = ok && (r->answered[k] == MVVM_OK || r->answered[k] == MVVM_ERR_UNKNOWN_REQUEST);
            } else if (cancel == MVVM_ERR_INVALID_HANDLE) {
                /* Ended first: by the answer, or by the release of the loop or the object. */
                answer_won++;
                bool by_a_release = how == RELEASE_THE_LOOP || how == RELEASE_THE_OBJECT;
                ok = ok && status == (by_a_release ? MVVM_ERR_CANCELLED : MVVM_OK);
                if (how == ANSWER_FROM_A_THREAD) ok = ok && r->answered[k] == MVVM_OK;
            } else if (cancel == MVVM_ERR_LOOP_RELEASED && how == RELEASE_THE_LOOP && !by_release) {
                loop_released++;
                ok = ok && status == MVVM_ERR_CANCELLED;
            } else {
                ok = false;
            }
            if (!ok) {
                if (wrong++ < 5)
                    printf("      call %d: cancel %s, completion %s (%d run, %d destroyed), answer %s\n", k,
                           mvvm_status_name(cancel), mvvm_status_name(status), atomic_load(&e->done),
                           atomic_load(&e->destroyed), how == ANSWER_FROM_A_THREAD ? mvvm_status_name(r->answered[k]) : "-");
            }
        }
        if (how == RELEASE_THE_LOOP) {
            CHECK_STATUS(r->answered[0], MVVM_OK);
            CHECK_STATUS(mvvm_release(r->finder), MVVM_OK);
            r->loop = r->finder = 0;
        } else if (how == RELEASE_THE_OBJECT) {
            CHECK_STATUS(r->answered[0], MVVM_OK);
            r->finder = 0;
        }
        raced += r->count;
    }
    atomic_store(&r->stop, 1);
    pthread_barrier_wait(&r->start);
    pthread_join(other, NULL);
    printf("      %ld raced: %ld cancelled, %ld ended first, %ld LOOP_RELEASED; %ld wrong\n", raced, cancel_ok,
           answer_won, loop_released, wrong);
    CHECK_EQ_INT(raced, rounds);
    CHECK_EQ_INT(wrong, 0);
    if (r->finder) RELEASE(r->finder);
    if (r->loop) RELEASE(r->loop);
    pthread_barrier_destroy(&r->start);
    pthread_barrier_destroy(&r->end);
    free(r);
}

static void a_cancel_racing_the_answer_on_another_thread_decides_once(void) { race_cancels(ANSWER_FROM_A_THREAD, false); }

static void a_release_of_the_call_racing_the_answer_decides_once(void) { race_cancels(ANSWER_FROM_A_THREAD, true); }

static void a_cancel_racing_the_end_on_the_loops_thread_decides_once(void) { race_cancels(ANSWER_SOON, false); }

static void a_release_of_the_call_racing_the_end_on_the_loops_thread_decides_once(void) { race_cancels(ANSWER_SOON, true); }

static void a_cancel_racing_the_loops_release_is_ok_loop_released_or_ended(void) { race_cancels(RELEASE_THE_LOOP, false); }

static void a_release_of_the_call_racing_the_loops_release_decides_once(void) { race_cancels(RELEASE_THE_LOOP, true); }

static void a_cancel_racing_the_objects_release_decides_once(void) { race_cancels(RELEASE_THE_OBJECT, false); }

static void a_release_of_the_call_racing_the_objects_release_decides_once(void) { race_cancels(RELEASE_THE_OBJECT, true); }

/* ------------------------------------------------------------------------------------------ */
/* A cancel from inside the call's own request                                                */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    mvvm_handle call, request;
    bool by_release, answer_inside;
    mvvm_status cancelled, answered_inside;
    int asked;
} own;

static void cancelling_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm; (void)argument;
    own *o = user_data;
    o->asked++;
    o->request = request;
    o->cancelled = o->by_release ? mvvm_release(o->call) : mvvm_cancel(o->call);
    if (o->answer_inside) {
        mvvm_value answer = value_string("too late");
        o->answered_inside = mvvm_complete(request, &answer);
    }
}

static void check_cancelled_from_its_own_request(int delay, bool by_release, bool answer_inside) {
    mvvm_handle loop = new_virtual_loop(), finder = 0;
    own o = { .by_release = by_release, .answer_inside = answer_inside };
    CHECK_STATUS(mvvm_finder_new(loop, cancelling_request, &o, NULL, &finder), MVVM_OK);
    CHECK_STATUS(mvvm_finder_set_query(finder, "dune"), MVVM_OK);
    CHECK_STATUS(mvvm_finder_set_delay(finder, delay), MVVM_OK);
    ending e = {0};
    /* *out is set before the task runs: the request function cancels the call by it. */
    CHECK_STATUS(mvvm_finder_find(finder, on_done, &e, on_destroy, &o.call), MVVM_OK);
    if (delay) {
        CHECK_EQ_INT(o.asked, 0);
        CHECK_GET_BOOL(finder, "is_finding", true);
        ADVANCE(loop, delay);
    }
    CHECK_EQ_INT(o.asked, 1);
    CHECK_STATUS(o.cancelled, MVVM_OK);
    if (answer_inside) CHECK_STATUS(o.answered_inside, MVVM_ERR_UNKNOWN_REQUEST);
    CHECK_EQ_INT(atomic_load(&e.done), 1);
    CHECK_EQ_INT(atomic_load(&e.destroyed), 1);
    CHECK_STATUS(atomic_load(&e.status), MVVM_ERR_CANCELLED);
    /* The task was told: it stopped waiting, and what it changed is undone. */
    CHECK_GET_BOOL(finder, "is_finding", false);
    CHECK_GET_INT(finder, "cancellations", 1);
    /* The request was withdrawn: a late answer is refused and changes nothing. */
    mvvm_value answer = value_string("too late");
    CHECK_STATUS(mvvm_complete(o.request, &answer), MVVM_ERR_UNKNOWN_REQUEST);
    ADVANCE(loop, 1000);
    CHECK_GET_STRING(finder, "found", "");
    CHECK_EQ_INT(atomic_load(&e.done), 1);
    CHECK_STATUS(mvvm_cancel(o.call), MVVM_ERR_INVALID_HANDLE);
    RELEASE(finder);
    RELEASE(loop);
}

static void a_call_cancelled_from_its_own_request_tells_its_task(void) {
    for (int delay = 0; delay <= 10; delay += 10)
        for (int by_release = 0; by_release <= 1; by_release++)
            for (int answer_inside = 0; answer_inside <= 1; answer_inside++)
                check_cancelled_from_its_own_request(delay, by_release, answer_inside);
}

int main(int argc, char **argv) {
    /* 100,000 races per mode natively: longer than the usual limit. */
    static const check_test tests[] = {
        CHECK_TEST(a_call_cancelled_from_its_own_request_tells_its_task),
        CHECK_LONG_TEST(a_cancel_racing_the_answer_on_another_thread_decides_once, 3),
        CHECK_LONG_TEST(a_release_of_the_call_racing_the_answer_decides_once, 3),
        CHECK_LONG_TEST(a_cancel_racing_the_end_on_the_loops_thread_decides_once, 3),
        CHECK_LONG_TEST(a_release_of_the_call_racing_the_end_on_the_loops_thread_decides_once, 3),
        CHECK_LONG_TEST(a_cancel_racing_the_loops_release_is_ok_loop_released_or_ended, 3),
        CHECK_LONG_TEST(a_release_of_the_call_racing_the_loops_release_decides_once, 3),
        CHECK_LONG_TEST(a_cancel_racing_the_objects_release_decides_once, 3),
        CHECK_LONG_TEST(a_release_of_the_call_racing_the_objects_release_decides_once, 3),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
