/*
 * test_callback_feedback.c - host code that changes what it is being told about: a callback
 * setting the property it hears (later subscribers hear only the final value), and a callback
 * or host service that keeps causing the change that calls it (the feedback ends in a status at
 * MVVM_MAX_NESTED_CALLS, never in a stack overflow).
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

/* A subscriber that, on seeing `when`, sets the property it watches to `to`. */
typedef struct setter {
    const char *property, *when, *to;
    recorder *seen;
    mvvm_status status;
} setter;

static void setter_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    setter *s = user_data;
    recorder_callback(source, event, s->seen);
    if (event->value.type == MVVM_TYPE_STRING && strcmp(event->value.string, s->when) == 0)
        s->status = mvvm_set_string(source, s->property, s->to);
}

/*
 * A subscriber's callback changes the property it is told about: the subscribers after it
 * hear only the final value, once (the nested announcement supersedes the rest of the outer
 * one), and a getter inside any callback agrees with its event. The rule: one operation
 * notifies each changed property once, with its final value. The fuzzer's seed
 * Tests/fuzz/corpus/echo_set_from_callback drives the same case.
 */
static void a_change_made_in_a_callback_supersedes_the_outer_announcement(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, first = 0, middle = 0, last = 0;
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    recorder *before = recorder_new(), *after = recorder_new();
    before->read_back = after->read_back = true;
    setter s = { "input", "x", "y", recorder_new(), MVVM_ERR_INTERNAL };
    s.seen->read_back = true;
    CHECK_STATUS(mvvm_subscribe(echo, "input", recorder_callback, before, recorder_destroy, &first), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(echo, "input", setter_callback, &s, NULL, &middle), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(echo, "input", recorder_callback, after, recorder_destroy, &last), MVVM_OK);

    CHECK_STATUS(mvvm_set_string(echo, "input", "x"), MVVM_OK);
    CHECK_STATUS(s.status, MVVM_OK);
    CHECK_GET_STRING(echo, "input", "y");
    /* The setter itself saw x, then (nested) y. */
    CHECK_EQ_INT(rec_count(s.seen, NULL), 2);
    CHECK_EQ_STR(rec_text(s.seen, NULL, 0), "x");
    CHECK_EQ_STR(rec_text(s.seen, NULL, 1), "y");
    /* The one before it saw x, then y: each was the value at the time. */
    CHECK_EQ_INT(rec_count(before, NULL), 2);
    CHECK_EQ_STR(rec_text(before, NULL, -1), "y");
    /* The one after it saw only the final value, once, and read it back inside its callback. */
    CHECK_EQ_INT(rec_count(after, NULL), 1);
    CHECK_EQ_STR(rec_text(after, NULL, -1), "y");
    for (int i = 0; i < rec_count(after, NULL) && i < RECORDER_MAX; i++) CHECK_EQ_STR(after->read[i], after->text[i]);
    for (int i = 0; i < rec_count(before, NULL) && i < RECORDER_MAX; i++) CHECK_EQ_STR(before->read[i], before->text[i]);

    RELEASE(first);
    RELEASE(middle);
    RELEASE(last);
    RELEASE(echo);
    RELEASE(loop);
    CHECK_EQ_INT(rec_destroyed(before), 1);
    CHECK_EQ_INT(rec_destroyed(after), 1);
    recorder_free(before);
    recorder_free(after);
    recorder_free(s.seen);
}

/* A subscriber that answers every change of the counter with another increment. */
typedef struct feedback {
    int calls;
    mvvm_status refused;        /* the first failed send's status; not OK: record nothing */
    mvvm_status release_status; /* of the release made at the refusal */
} feedback;

static void increment_again(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)event;
    feedback *f = user_data;
    f->calls++;
    mvvm_status status = mvvm_send(source, "increment", NULL);
    if (status != MVVM_OK && f->refused == MVVM_OK) {
        f->refused = status;
        CHECK(strstr(mvvm_last_error(), "nested") != NULL);
        /* The innermost level may still read, and release. */
        CHECK_GET_INT(source, "count", MVVM_MAX_NESTED_CALLS);
        mvvm_handle more = 0;
        CHECK_STATUS(mvvm_subscribe(source, NULL, increment_again, f, NULL, &more), MVVM_ERR_INVALID_ARGUMENT);
        f->release_status = mvvm_release(source);
    }
}

/*
 * A callback sending a command whose change notifies that callback again: host code nests at
 * most MVVM_MAX_NESTED_CALLS deep per loop, so the runaway feedback ends in INVALID_ARGUMENT
 * (never a stack overflow): every level below runs, exactly, and release still works there.
 */
static void a_callback_that_keeps_causing_its_change_ends_in_a_status(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, subscription = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    feedback f = { 0, MVVM_OK, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(counter, "count", increment_again, &f, NULL, &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_send(counter, "increment", NULL), MVVM_OK);
    CHECK_EQ_INT(f.calls, MVVM_MAX_NESTED_CALLS);
    CHECK_STATUS(f.refused, MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(f.release_status, MVVM_OK);
    CHECK_STATUS(mvvm_send(counter, "increment", NULL), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_unsubscribe(subscription), MVVM_ERR_INVALID_HANDLE);

    /* Without the release, the counter is left at one increment per level, and works on. */
    feedback g = { 0, MVVM_OK, MVVM_ERR_INTERNAL };
    mvvm_handle other = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, "count", increment_again, &g, NULL, &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &other), MVVM_OK);
    g.refused = MVVM_ERR_INTERNAL; /* record nothing, release nothing */
    CHECK_STATUS(mvvm_send(counter, "increment", NULL), MVVM_OK);
    CHECK_EQ_INT(g.calls, MVVM_MAX_NESTED_CALLS);
    CHECK_GET_INT(counter, "count", MVVM_MAX_NESTED_CALLS);
    RELEASE(subscription);
    CHECK_STATUS(mvvm_send(counter, "increment", NULL), MVVM_OK);
    CHECK_GET_INT(counter, "count", MVVM_MAX_NESTED_CALLS + 1);
    CHECK_STATUS(mvvm_send(other, "increment", NULL), MVVM_OK);
    CHECK_GET_INT(other, "count", 1);
    RELEASE(other);
    RELEASE(counter);
    RELEASE(loop);
}

/* A sign-up service that answers each request by tapping the button again. */
static void tap_again(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)request;
    (void)argument;
    feedback *f = user_data;
    f->calls++;
    mvvm_status status = mvvm_send(view_model, "sign_up_tapped", NULL);
    if (status != MVVM_OK && f->refused == MVVM_OK) f->refused = status;
}

/* The same runaway through a host service's request function, with no callback in between. */
static void a_service_that_keeps_asking_again_ends_in_a_status(void) {
    mvvm_handle loop = new_virtual_loop(), form = 0;
    feedback f = { 0, MVVM_OK, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, tap_again, &f, NULL, &form), MVVM_OK);
    fill_sign_up(form, "abcdef", "password1", "password1", true); /* valid: a tap asks the service */
    CHECK_STATUS(mvvm_send(form, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_INT(f.calls, MVVM_MAX_NESTED_CALLS);
    CHECK_STATUS(f.refused, MVVM_ERR_INVALID_ARGUMENT);
    CHECK_GET_BOOL(form, "is_sign_up_enabled", true);
    RELEASE(form);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_change_made_in_a_callback_supersedes_the_outer_announcement),
        CHECK_TEST(a_callback_that_keeps_causing_its_change_ends_in_a_status),
        CHECK_TEST(a_service_that_keeps_asking_again_ends_in_a_status),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
