/*
 * test_async.c - asynchronous commands from C (Tests/outside's Profile.load, a Swift `async`
 * function that sleeps on its loop's clock, and Profile.ping, which never suspends): started
 * with mvvm_call_async, run as the loop's work, exact on a virtual loop; their completion runs
 * once, after the changes are notified, then the destroy function once; cancelled by the host,
 * by the release of the object or of the loop (valgrind checks that nothing is left behind).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sample.h"

typedef struct {
    int done, destroyed, tags_seen_at_done;
    mvvm_handle call, tags_source;
    mvvm_status status;
    char result[256], message[256];
    pthread_t thread;
} completion;

static void on_done(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    completion *c = user_data;
    c->done++;
    c->call = call;
    c->status = status;
    value_to_text(result, c->result, sizeof c->result);
    snprintf(c->message, sizeof c->message, "%s", message);
    c->thread = pthread_self();
    /* The completion may call back in: the changes it follows are already readable. */
    if (c->tags_source) {
        mvvm_value tags = {0};
        if (mvvm_get(c->tags_source, "tags", &tags) == MVVM_OK) c->tags_seen_at_done = (int)tags.integer;
        mvvm_value_free(&tags);
    }
}

static void on_destroy(void *user_data) { ((completion *)user_data)->destroyed++; }

static mvvm_handle new_profile(mvvm_handle loop) {
    mvvm_handle profile = 0;
    CHECK_STATUS(mvvm_profile_new(loop, &profile), MVVM_OK);
    return profile;
}

static void an_async_command_runs_on_virtual_time_and_completes_once(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), call = 0, sub = 0;
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, "tags", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    completion c = {0};
    c.tags_source = profile;
    mvvm_value three = value_int(3);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &three, 1, on_done, &c, on_destroy, &call), MVVM_OK);
    CHECK(call != 0);
    /* Started: asleep on the loop's clock, nothing changed yet. */
    CHECK_EQ_INT(c.done, 0);
    CHECK_EQ_INT(rec_count(r, "tags"), 0);
    ADVANCE(loop, 999);
    CHECK_EQ_INT(rec_count(r, "tags"), 0);
    ADVANCE(loop, 1);
    CHECK_EQ_INT(rec_count(r, "tags"), 1);
    CHECK_EQ_STR(rec_text(r, "tags", 0), "[t0]");
    ADVANCE(loop, 1000);
    CHECK_EQ_INT(c.done, 0);
    ADVANCE(loop, 1000);
    /* Ended: its last change notified first, then the completion once, then the destroy. */
    CHECK_EQ_INT(rec_count(r, "tags"), 3);
    CHECK_EQ_INT(c.done, 1);
    CHECK_EQ_INT(c.destroyed, 1);
    CHECK_EQ_INT(c.status, MVVM_OK);
    CHECK_EQ_STR(c.result, "[t0, t1, t2]");
    CHECK_EQ_INT(c.call, call);
    CHECK_EQ_INT(c.tags_seen_at_done, 3);
    CHECK(pthread_equal(c.thread, pthread_self()));
    int64_t now = 0;
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 3000);
    /* Its handle is gone; nothing more comes. */
    CHECK_STATUS(mvvm_cancel(call), MVVM_ERR_INVALID_HANDLE);
    ADVANCE(loop, 5000);
    CHECK_EQ_INT(c.done, 1);
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void a_call_that_never_suspends_or_fails_at_once_completes_before_returning(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), call = 0;
    completion ping = {0}, failing = {0};
    CHECK_STATUS(mvvm_profile_ping(profile, on_done, &ping, on_destroy, &call), MVVM_OK);
    CHECK_EQ_INT(ping.done, 1);
    CHECK_EQ_INT(ping.destroyed, 1);
    CHECK_EQ_STR(ping.result, "0");
    CHECK_EQ_INT(ping.call, call);
    mvvm_value minus = value_int(-1);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &minus, 1, on_done, &failing, on_destroy, &call), MVVM_OK);
    CHECK_EQ_INT(failing.done, 1);
    CHECK_EQ_INT(failing.status, MVVM_ERR_COMMAND_FAILED);
    CHECK_EQ_STR(failing.message, "profile.load failed: cannot load -1 tags");
    CHECK_EQ_INT(failing.destroyed, 1);
    /* Synchronous calls of an async command are refused; a call that cannot start runs only its
     * destroy function. */
    CHECK_STATUS(mvvm_call(profile, "load", &minus, 1, NULL), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "mvvm_call_async") != NULL);
    completion refused = {0};
    mvvm_value text = value_string("x");
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &text, 1, on_done, &refused, on_destroy, &call),
                 MVVM_ERR_TYPE_MISMATCH);
    CHECK_EQ_INT(refused.done, 0);
    CHECK_EQ_INT(refused.destroyed, 1);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &minus, 1, NULL, &refused, on_destroy, &call),
                 MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(refused.destroyed, 1);
    RELEASE(profile);
    RELEASE(loop);
}

static void a_cancelled_call_completes_at_once_and_changes_nothing_more(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), call = 0;
    completion c = {0};
    mvvm_value five = value_int(5);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &five, 1, on_done, &c, on_destroy, &call), MVVM_OK);
    ADVANCE(loop, 1000);
    CHECK_STATUS(mvvm_cancel(call), MVVM_OK);
    CHECK_EQ_INT(c.done, 1);
    CHECK_EQ_INT(c.destroyed, 1);
    CHECK_EQ_INT(c.status, MVVM_ERR_CANCELLED);
    CHECK(strstr(c.message, "profile.load was cancelled") != NULL);
    ADVANCE(loop, 10000);
    char text[64];
    CHECK_EQ_STR(get_text(profile, "tags", text, sizeof text), "[t0]");
    CHECK_EQ_INT(c.done, 1);
    /* Releasing a call's handle cancels it as mvvm_cancel does. */
    completion released = {0};
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &five, 1, on_done, &released, on_destroy, &call), MVVM_OK);
    RELEASE(call);
    CHECK_EQ_INT(released.done, 1);
    CHECK_EQ_INT(released.status, MVVM_ERR_CANCELLED);
    RELEASE(profile);
    RELEASE(loop);
}

static void releasing_the_object_or_the_loop_cancels_what_is_outstanding(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), other = new_profile(loop), call = 0;
    completion first = {0}, second = {0}, third = {0};
    mvvm_value five = value_int(5);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &five, 1, on_done, &first, on_destroy, &call), MVVM_OK);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &five, 1, on_done, &second, on_destroy, &call), MVVM_OK);
    CHECK_STATUS(mvvm_call_async(other, "load", NULL, &five, 1, on_done, &third, on_destroy, &call), MVVM_OK);
    ADVANCE(loop, 1500);
    RELEASE(profile);
    CHECK_EQ_INT(first.done, 1);
    CHECK_EQ_INT(second.done, 1);
    CHECK_EQ_INT(first.status, MVVM_ERR_CANCELLED);
    CHECK(strstr(first.message, "its object was released") != NULL);
    CHECK_EQ_INT(first.destroyed + second.destroyed, 2);
    CHECK_EQ_INT(third.done, 0);
    /* The loop's release: each outstanding call once, on this thread; the stopped loop's
     * jobs are drained (valgrind finds nothing left). */
    RELEASE(loop);
    CHECK_EQ_INT(third.done, 1);
    CHECK_EQ_INT(third.status, MVVM_ERR_CANCELLED);
    CHECK_EQ_INT(third.destroyed, 1);
    CHECK(pthread_equal(third.thread, pthread_self()));
    RELEASE(other);
}

typedef struct {
    completion c;
    pthread_mutex_t mutex;
    pthread_cond_t ended;
} waited;

static void on_done_signalled(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message,
                              void *user_data) {
    waited *w = user_data;
    pthread_mutex_lock(&w->mutex);
    on_done(call, status, result, message, &w->c);
    pthread_cond_signal(&w->ended);
    pthread_mutex_unlock(&w->mutex);
}

static void on_a_thread_loop_the_completion_runs_on_the_loops_thread(void) {
    mvvm_handle loop = 0, profile = 0, call = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &loop), MVVM_OK);
    profile = new_profile(loop);
    waited w;
    memset(&w, 0, sizeof w);
    pthread_mutex_init(&w.mutex, NULL);
    pthread_cond_init(&w.ended, NULL);
    mvvm_value one = value_int(1);
    CHECK_STATUS(mvvm_call_async(profile, "load", NULL, &one, 1, on_done_signalled, &w, NULL, &call), MVVM_OK);
    pthread_mutex_lock(&w.mutex);
    while (w.c.done == 0) pthread_cond_wait(&w.ended, &w.mutex);
    pthread_mutex_unlock(&w.mutex);
    CHECK_EQ_INT(w.c.status, MVVM_OK);
    CHECK_EQ_STR(w.c.result, "[t0]");
    CHECK(!pthread_equal(w.c.thread, pthread_self()));
    RELEASE(profile);
    RELEASE(loop);
    pthread_cond_destroy(&w.ended);
    pthread_mutex_destroy(&w.mutex);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(an_async_command_runs_on_virtual_time_and_completes_once),
        CHECK_TEST(a_call_that_never_suspends_or_fails_at_once_completes_before_returning),
        CHECK_TEST(a_cancelled_call_completes_at_once_and_changes_nothing_more),
        CHECK_TEST(releasing_the_object_or_the_loop_cancels_what_is_outstanding),
        CHECK_TEST(on_a_thread_loop_the_completion_runs_on_the_loops_thread),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
