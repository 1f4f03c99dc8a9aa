/*
 * test_outside.c - a C host of Tests/outside's libsample.so: a package outside libmvvm that
 * registered Greeter (an ObservableObject) and Tally (an @Observable class) through the public
 * export API, with no C written for them. Everything here goes through the generic ABI, and
 * checks the notification rules of docs/notifications.md hold for both kinds of view model.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sample.h"

/* Its own classes and no others: the catalog is carried only by a library that asks for it. */
static void the_package_exports_its_classes_and_not_the_catalogs(void) {
    char *json = NULL;
    CHECK_STATUS(mvvm_classes(&json), MVVM_OK);
    if (!CHECK(json != NULL)) return;
    CHECK(strstr(json, "{\"class\": \"greeter\", \"display\": \"Greeter\", \"swift_name\": \"Greeter\"") != NULL);
    CHECK(strstr(json, "{\"class\": \"tally\", \"display\": \"Tally\", \"swift_name\": \"Tally\"") != NULL);
    CHECK(strstr(json, "{\"class\": \"meter\", \"display\": \"Odometer\", \"swift_name\": \"Meter\"") != NULL);
    CHECK(strstr(json, "{\"class\": \"sign_up_view_model\"") == NULL);
    CHECK(strstr(json, "{\"class\": \"counter\"") == NULL);
    CHECK(strstr(json, "\"swift_module\": \"MVVMViewModels\"") == NULL);
    mvvm_handle loop = new_virtual_loop(), made = 0;
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, &made), MVVM_ERR_UNKNOWN_NAME);
    RELEASE(loop);
    CHECK(strstr(json, "{\"name\": \"step\", \"type\": \"int\", \"access\": \"rw\"") != NULL);
    CHECK(strstr(json, "{\"name\": \"is_even\", \"type\": \"bool\", \"access\": \"ro\"") != NULL);
    mvvm_string_free(json);
}

static void an_observable_object_notifies_after_each_change_once(void) {
    mvvm_handle loop = new_virtual_loop(), greeter = 0, sub = 0;
    mvvm_value name = value_string("Ada");
    CHECK_STATUS(mvvm_new(loop, "greeter", &name, 1, &greeter), MVVM_OK); /* new_with_name */
    CHECK_GET_STRING(greeter, "greeting", "Hello, Ada!");
    recorder *r = recorder_new();
    r->read_back = true;
    CHECK_STATUS(mvvm_subscribe(greeter, NULL, recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(greeter, "name", "Grace"), MVVM_OK);
    /* name then greeting (class order), each once, and a getter in the callback agrees. */
    CHECK_EQ_INT(rec_count(r, NULL), 2);
    CHECK_EQ_STR(rec_text(r, NULL, 0), "Grace");
    CHECK_EQ_STR(r->name[1], "greeting");
    CHECK_EQ_STR(rec_text(r, "greeting", 0), "Hello, Grace!");
    CHECK_EQ_STR(r->read[1], "Hello, Grace!");
    /* Setting the same value changes nothing: no notification. */
    CHECK_STATUS(mvvm_set_string(greeter, "name", "Grace"), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 2);
    /* A command: the count and the signal, in one operation. */
    CHECK_STATUS(mvvm_send(greeter, "greet", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "greet_count"), 1);
    CHECK_EQ_STR(rec_text(r, "greeted", 0), "Hello, Grace!");
    CHECK_EQ_INT(r->kind[rec_index(r, "greeted", 0)], MVVM_EVENT_SIGNAL);
    /* Read-only outputs stay so. */
    CHECK_STATUS(mvvm_set_string(greeter, "greeting", "Hi"), MVVM_ERR_READ_ONLY);
    CHECK_STATUS(mvvm_release(greeter), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    recorder_free(r);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

static void an_observable_class_coalesces_each_operation(void) {
    mvvm_handle loop = new_virtual_loop(), tally = 0, first = 0, second = 0;
    mvvm_value start = value_int(10);
    CHECK_STATUS(mvvm_new(loop, "tally", &start, 1, &tally), MVVM_OK);
    CHECK_GET_INT(tally, "total", 10);
    CHECK_GET_BOOL(tally, "is_even", true);
    recorder *r = recorder_new(), *order = recorder_new();
    r->read_back = true;
    CHECK_STATUS(mvvm_subscribe(tally, NULL, recorder_callback, r, recorder_destroy, &first), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(tally, "total", recorder_callback, order, recorder_destroy, &second), MVVM_OK);
    /* One command adding five times: total once, with the sum; is_even once (10 -> 15). */
    mvvm_value five = value_int(5);
    CHECK_STATUS(mvvm_send(tally, "add_many", &five), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "total"), 1);
    CHECK_EQ_STR(rec_text(r, "total", 0), "15");
    CHECK_EQ_STR(r->read[rec_index(r, "total", 0)], "15");
    CHECK_EQ_INT(rec_count(r, "is_even"), 1);
    CHECK_EQ_STR(rec_text(r, "is_even", 0), "false");
    CHECK_EQ_INT(rec_count(order, "total"), 1);
    /* A binding; then the change it makes to the next command. Watches re-arm after each change. */
    CHECK_STATUS(mvvm_set_int(tally, "step", 2), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "step", 0), "2");
    for (int i = 0; i < 3; i++) CHECK_STATUS(mvvm_send(tally, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "total"), 4);
    CHECK_EQ_STR(rec_text(r, "total", -1), "21");
    CHECK_EQ_INT(rec_count(r, "is_even"), 1); /* 15, 17, 19, 21: odd throughout */
    /* A change that ends where it began is no change. */
    CHECK_STATUS(mvvm_set_int(tally, "step", 2), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "step"), 1);
    CHECK_STATUS(mvvm_send(tally, "reset", NULL), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "total", -1), "0");
    CHECK_EQ_STR(rec_text(r, "is_even", -1), "true");
    CHECK_STATUS(mvvm_set_string(tally, "title", "Score"), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "title", -1), "Score");
    CHECK_STATUS(mvvm_set_bool(tally, "is_even", false), MVVM_ERR_READ_ONLY);
    CHECK_STATUS(mvvm_set_string(tally, "step", "3"), MVVM_ERR_TYPE_MISMATCH);
    mvvm_value text = value_string("many");
    CHECK_STATUS(mvvm_send(tally, "add_many", &text), MVVM_ERR_TYPE_MISMATCH);
    CHECK_STATUS(mvvm_release(tally), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    CHECK_EQ_INT(rec_destroyed(order), 1);
    recorder_free(r);
    recorder_free(order);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

/* Subscribed to total: sets step from inside the callback, which changes the next add. */
static void step_setter(mvvm_handle source, const mvvm_event *event, void *user_data) {
    recorder_callback(source, event, user_data);
    if (strcmp(event->name, "total") == 0 && event->value.integer == 1) mvvm_set_int(source, "step", 100);
}

static void an_observable_class_may_be_changed_from_its_callbacks(void) {
    mvvm_handle loop = new_virtual_loop(), tally = 0, sub = 0, later = 0;
    mvvm_value zero = value_int(0);
    CHECK_STATUS(mvvm_new(loop, "tally", &zero, 1, &tally), MVVM_OK);
    recorder *r = recorder_new(), *late = recorder_new();
    CHECK_STATUS(mvvm_subscribe(tally, NULL, step_setter, r, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_send(tally, "add", NULL), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "step", 0), "100");
    CHECK_GET_INT(tally, "step", 100);
    CHECK_STATUS(mvvm_subscribe(tally, "total", recorder_callback, late, recorder_destroy, &later), MVVM_OK);
    CHECK_STATUS(mvvm_send(tally, "add", NULL), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "total", -1), "101");
    CHECK_EQ_STR(rec_text(late, "total", 0), "101");
    CHECK_EQ_INT(rec_count(late, NULL), 1);
    /* Releasing the loop ends the subscriptions; the handle is still the host's to release. */
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
    CHECK_STATUS(mvvm_release(tally), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    CHECK_EQ_INT(rec_destroyed(late), 1);
    recorder_free(r);
    recorder_free(late);
}

/* After a change, an @Observable object's watch is not armed again at once (arming is most of
 * what a change costs): its loop reads it after each operation until it is quiet. Two handles
 * to one Tally: changes made through either reach a subscriber of the other, once per
 * operation, whether the watched one is still changing or quiet and armed again. */
static void a_changing_observable_object_hears_every_operation_of_its_loop(void) {
    mvvm_handle loop = new_virtual_loop(), board = 0, watched = 0, other = 0, sub = 0;
    mvvm_value one = value_int(1), three = value_int(3);
    CHECK_STATUS(mvvm_new(loop, "board", NULL, 0, &board), MVVM_OK);
    CHECK_STATUS(mvvm_send(board, "add", &one), MVVM_OK);
    CHECK_STATUS(mvvm_list_item(board, "tallies", 0, &watched), MVVM_OK);
    CHECK_STATUS(mvvm_list_item(board, "tallies", 0, &other), MVVM_OK);
    int64_t watched_id = 0, other_id = -1;
    CHECK_STATUS(mvvm_object_id(watched, &watched_id), MVVM_OK);
    CHECK_STATUS(mvvm_object_id(other, &other_id), MVVM_OK);
    CHECK(watched != other && watched_id == other_id);
    recorder *r = recorder_new();
    r->read_back = true;
    CHECK_STATUS(mvvm_subscribe(watched, "total", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    /* Through the watched handle (its armed watch tells), then through the other one while the
     * watched one is changing (read at the end of the other's operation). */
    CHECK_STATUS(mvvm_send(watched, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 1);
    CHECK_EQ_STR(rec_text(r, "total", 0), "2");
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 2);
    CHECK_EQ_STR(rec_text(r, "total", 1), "3");
    CHECK_EQ_STR(r->read[1], "3");
    /* Several changes in one operation of the other handle: once, with the sum. */
    CHECK_STATUS(mvvm_send(other, "add_many", &three), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 3);
    CHECK_EQ_STR(rec_text(r, "total", 2), "6");
    /* An operation that leaves total alone finds it quiet (no event) and arms its watch again;
     * the next change is told by the watch. */
    CHECK_STATUS(mvvm_set_string(other, "title", "Quiet"), MVVM_OK);
    CHECK_STATUS(mvvm_set_int(other, "step", 1), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 3);
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), 4);
    CHECK_EQ_STR(rec_text(r, "total", 3), "7");
    int before = rec_count(r, NULL);
    /* Released while changing: its subscription ends once, and later changes reach nobody. */
    CHECK_STATUS(mvvm_release(watched), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, NULL), before);
    CHECK_GET_INT(other, "total", 8);
    /* Released while its watch is armed: Observation keeps that watch until the Tally next
     * changes, and that change must reach nobody (nor the released object's memory). */
    mvvm_handle armed = 0, armed_sub = 0;
    recorder *late = recorder_new();
    CHECK_STATUS(mvvm_list_item(board, "tallies", 0, &armed), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(armed, "total", recorder_callback, late, recorder_destroy, &armed_sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(other, "title", "Armed"), MVVM_OK); /* quiet: its watch is armed */
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);           /* told by the armed watch */
    CHECK_EQ_INT(rec_count(late, NULL), 1);
    CHECK_STATUS(mvvm_set_string(other, "title", "Armed again"), MVVM_OK);
    CHECK_STATUS(mvvm_release(armed), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(late), 1);
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);
    CHECK_STATUS(mvvm_send(other, "add", NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(late, NULL), 1);
    CHECK_GET_INT(other, "total", 11);
    recorder_free(late);
    recorder_free(r);
    CHECK_STATUS(mvvm_release(other), MVVM_OK);
    CHECK_STATUS(mvvm_release(board), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

/* The typed calls mvvm_gen.py --module Sample wrote into include/sample.h and the package. */
static void the_packages_typed_calls_are_generated_and_checked(void) {
    mvvm_handle loop = new_virtual_loop(), greeter = 0, tally = 0, out = 0;
    CHECK_STATUS(mvvm_greeter_new_with_name(loop, "Ada", &greeter), MVVM_OK);
    char *text = NULL;
    CHECK_STATUS(mvvm_greeter_get_greeting(greeter, &text), MVVM_OK);
    CHECK_EQ_STR(text, "Hello, Ada!");
    mvvm_string_free(text);
    CHECK_STATUS(mvvm_greeter_set_name(greeter, "Grace"), MVVM_OK);
    CHECK_GET_STRING(greeter, "greeting", "Hello, Grace!");
    CHECK_STATUS(mvvm_greeter_set_name(greeter, "\xff"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_greeter_greet(greeter), MVVM_OK);
    int64_t count = 0;
    CHECK_STATUS(mvvm_greeter_get_greet_count(greeter, &count), MVVM_OK);
    CHECK_EQ_INT(count, 1);
    CHECK_STATUS(mvvm_tally_new(loop, 4, &tally), MVVM_OK);
    CHECK_STATUS(mvvm_tally_add_many(tally, 3), MVVM_OK);
    CHECK_STATUS(mvvm_tally_get_total(tally, &count), MVVM_OK);
    CHECK_EQ_INT(count, 7);
    bool even = true;
    CHECK_STATUS(mvvm_tally_get_is_even(tally, &even), MVVM_OK);
    CHECK(!even);
    /* The class is checked, and the statuses are the generic calls'. */
    CHECK_STATUS(mvvm_tally_add(greeter), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_greeter_get_greet_count(greeter, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_STATUS(mvvm_tally_new(greeter, 1, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_greeter_new(0, &out), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(tally), MVVM_OK);
    CHECK_STATUS(mvvm_tally_add(tally), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(greeter), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

/* Typed calls that name what the library does not register, as a stale generated file would
 * (Sources/Sample/StaleTypedCalls.swift): an error status and a message, never a crash. */
mvvm_status mvvm_sample_stale_class_get(mvvm_handle object, int64_t *out);
mvvm_status mvvm_sample_stale_property_get(mvvm_handle object, int64_t *out);
mvvm_status mvvm_sample_stale_command(mvvm_handle object);

static void a_stale_typed_call_is_an_internal_error(void) {
    mvvm_handle loop = new_virtual_loop(), greeter = 0;
    CHECK_STATUS(mvvm_greeter_new(loop, &greeter), MVVM_OK);
    int64_t out = 42;
    for (int round = 0; round < 2; round++) { /* the second call reuses the failed look-up */
        CHECK_STATUS(mvvm_sample_stale_class_get(greeter, &out), MVVM_ERR_INTERNAL);
        CHECK(strstr(mvvm_last_error(), "no class no_such_class is registered (a stale typed call)") != NULL);
        CHECK_STATUS(mvvm_sample_stale_property_get(greeter, &out), MVVM_ERR_INTERNAL);
        CHECK(strstr(mvvm_last_error(), "greeter has no property no_such_property (a stale typed call)") != NULL);
        CHECK_STATUS(mvvm_sample_stale_command(greeter), MVVM_ERR_INTERNAL);
        CHECK(strstr(mvvm_last_error(), "greeter has no command no_such_command (a stale typed call)") != NULL);
    }
    CHECK_EQ_INT(out, 42);
    CHECK_GET_STRING(greeter, "greeting", "Hello!");
    CHECK_STATUS(mvvm_release(greeter), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

/* A UInt64 crosses out as MVVM_TYPE_UINT (its number, whatever the host's language makes of an
 * int64_t); the typed calls take and give uint64_t; mvvm_get_int still reads its bits. */
static void a_uint64_is_handed_out_as_an_unsigned(void) {
    mvvm_handle loop = new_virtual_loop(), meter = 0, with_reading = 0;
    CHECK_STATUS(mvvm_meter_new(loop, &meter), MVVM_OK);
    mvvm_value value = {0};
    CHECK_STATUS(mvvm_get(meter, "reading", &value), MVVM_OK);
    CHECK(value.type == MVVM_TYPE_UINT && (uint64_t)value.integer == UINT64_C(9223372036854775808));
    uint64_t reading = 0, ahead = 0;
    CHECK_STATUS(mvvm_meter_get_reading(meter, &reading), MVVM_OK);
    CHECK(reading == UINT64_C(9223372036854775808));
    CHECK_STATUS(mvvm_meter_ahead(meter, UINT64_C(5), &ahead), MVVM_OK);
    CHECK(ahead == UINT64_C(9223372036854775813));
    mvvm_value steps = {.type = MVVM_TYPE_INT, .integer = 1}, result = {0};
    CHECK_STATUS(mvvm_call(meter, "ahead", &steps, 1, &result), MVVM_OK);
    CHECK(result.type == MVVM_TYPE_UINT && (uint64_t)result.integer == UINT64_C(9223372036854775809));
    int64_t bits = 0;
    CHECK_STATUS(mvvm_get_int(meter, "reading", &bits), MVVM_OK);
    CHECK(bits == INT64_MIN);
    CHECK_STATUS(mvvm_meter_new_with_reading(loop, UINT64_MAX, &with_reading), MVVM_OK);
    CHECK_STATUS(mvvm_meter_get_reading(with_reading, &reading), MVVM_OK);
    CHECK(reading == UINT64_MAX);
    char *described = NULL;
    CHECK_STATUS(mvvm_describe(with_reading, &described), MVVM_OK);
    CHECK(described && strstr(described, "\"constructor\": \"new_with_reading\"") != NULL);
    mvvm_string_free(described);
    CHECK_STATUS(mvvm_release(with_reading), MVVM_OK);
    CHECK_STATUS(mvvm_release(meter), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(the_package_exports_its_classes_and_not_the_catalogs),
        CHECK_TEST(an_observable_object_notifies_after_each_change_once),
        CHECK_TEST(an_observable_class_coalesces_each_operation),
        CHECK_TEST(an_observable_class_may_be_changed_from_its_callbacks),
        CHECK_TEST(a_changing_observable_object_hears_every_operation_of_its_loop),
        CHECK_TEST(the_packages_typed_calls_are_generated_and_checked),
        CHECK_TEST(a_stale_typed_call_is_an_internal_error),
        CHECK_TEST(a_uint64_is_handed_out_as_an_unsigned),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
