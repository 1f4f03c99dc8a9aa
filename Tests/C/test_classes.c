/*
 * test_classes.c - introspection and construction through the generic ABI: mvvm_classes,
 * mvvm_new with value, model and service arguments, mvvm_service_new, and every error path.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

static const char *const catalog[] = {
    "count_down_timer", "timer_view_model", "display_view_model", "player_view_model", "stop_watch",
    "stop_watch_view_model", "input_echo_view_model", "sign_up_view_model", "welcome_view_model", "counter",
    "random_counter", "counter_view_model", "counter_page_view_model",
};

static void classes_describe_the_whole_catalog(void) {
    char *json = NULL;
    CHECK_STATUS(mvvm_classes(&json), MVVM_OK);
    if (!CHECK(json != NULL)) return;
    CHECK(json[0] == '[');
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++) {
        char needle[96];
        snprintf(needle, sizeof needle, "{\"class\": \"%s\"", catalog[i]);
        if (!CHECK(strstr(json, needle) != NULL)) printf("    missing %s\n", catalog[i]);
    }
    /* What it takes to make one, and names as in Swift. */
    CHECK(strstr(json, "\"swift_name\": \"CountDownTimer\"") != NULL);
    CHECK(strstr(json, "{\"name\": \"full_count\", \"type\": \"int\", \"c_type\": \"int64_t\"}") != NULL);
    CHECK(strstr(json, "{\"name\": \"seed\", \"type\": \"int\", \"c_type\": \"uint64_t\"}") != NULL);
    CHECK(strstr(json, "\"type\": \"object\", \"classes\": [\"counter\", \"random_counter\"]") != NULL);
    CHECK(strstr(json, "\"type\": \"service\", \"request_argument\": \"string\", \"result\": \"bool\"") != NULL);
    CHECK(strstr(json, "\"child_classes\": {\"display\": \"display_view_model\", \"player\": \"player_view_model\"}") != NULL);
    mvvm_string_free(json);
    CHECK_STATUS(mvvm_classes(NULL), MVVM_ERR_NULL_POINTER);
    CHECK(mvvm_last_error()[0] != '\0');
}

static void new_makes_what_the_typed_constructors_make(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, vm = 0, timer = 0, page = 0, random = 0, typed = 0;
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, &counter), MVVM_OK);
    const char *name = NULL;
    CHECK_STATUS(mvvm_class_name(counter, &name), MVVM_OK);
    CHECK_EQ_STR(name, "counter");
    mvvm_value model = value_object(counter);
    CHECK_STATUS(mvvm_new(loop, "counter_view_model", &model, 1, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_send(vm, "increment", NULL), MVVM_OK);
    CHECK_GET_STRING(vm, "count", "1");
    CHECK_GET_INT(counter, "count", 1);
    /* The typed calls work on objects mvvm_new made. */
    CHECK_STATUS(mvvm_counter_view_model_increment(vm), MVVM_OK);
    CHECK_GET_INT(counter, "count", 2);

    mvvm_value five = value_int(5);
    CHECK_STATUS(mvvm_new(loop, "count_down_timer", &five, 1, &timer), MVVM_OK);
    CHECK_GET_INT(timer, "full_count", 5);

    /* Two constructors: the count picks new (0) or new_with_seed (1); a seed repeats its numbers. */
    mvvm_value seed = value_int(42);
    CHECK_STATUS(mvvm_new(loop, "counter_page_view_model", NULL, 0, &page), MVVM_OK);
    CHECK_STATUS(mvvm_new(loop, "random_counter", &seed, 1, &random), MVVM_OK);
    CHECK_STATUS(mvvm_random_counter_new(loop, 42, &typed), MVVM_OK);
    for (int i = 0; i < 5; i++) {
        CHECK_STATUS(mvvm_send(random, "increment", NULL), MVVM_OK);
        CHECK_STATUS(mvvm_random_counter_increment(typed), MVVM_OK);
        int64_t a = -1, b = -2;
        CHECK_STATUS(mvvm_get_int(random, "count", &a), MVVM_OK);
        CHECK_STATUS(mvvm_random_counter_get_count(typed, &b), MVVM_OK);
        CHECK_EQ_INT(a, b);
    }
    mvvm_handle handles[] = { vm, counter, timer, page, random, typed, loop };
    for (size_t i = 0; i < sizeof handles / sizeof handles[0]; i++) CHECK_STATUS(mvvm_release(handles[i]), MVVM_OK);
}

/* Every refusal leaves *out alone and says why. */
static void expect_refused(mvvm_handle loop, const char *class_name, const mvvm_value *args, size_t count,
                           mvvm_status expected, const char *message_part) {
    mvvm_handle out = 777;
    mvvm_status status = mvvm_new(loop, class_name, args, count, &out);
    if (!CHECK_STATUS(status, expected)) printf("    (class %s)\n", class_name ? class_name : "NULL");
    CHECK_EQ_INT(out, 777);
    if (message_part && !CHECK(strstr(mvvm_last_error(), message_part) != NULL))
        printf("    message \"%s\" does not name \"%s\"\n", mvvm_last_error(), message_part);
}

static void new_refuses_bad_calls_with_a_status_and_a_message(void) {
    mvvm_handle loop = new_virtual_loop(), other_loop = new_virtual_loop(), watch = 0, far_counter = 0, dead = 0;
    CHECK_STATUS(mvvm_stop_watch_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(other_loop, &far_counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &dead), MVVM_OK);
    CHECK_STATUS(mvvm_release(dead), MVVM_OK);
    mvvm_value text = value_string("five"), zero = value_int(0), big = value_int((int64_t)1 << 40);
    mvvm_value two[2] = { value_int(1), value_int(2) };
    mvvm_value bad_type = value_int(1);
    bad_type.type = (mvvm_type)99;
    mvvm_value bad_utf8 = value_string("\xff\xfe");

    expect_refused(loop, "no_such_class", NULL, 0, MVVM_ERR_UNKNOWN_NAME, "no_such_class");
    expect_refused(loop, NULL, NULL, 0, MVVM_ERR_NULL_POINTER, "class_name");
    expect_refused(loop, "\xff\xfe", NULL, 0, MVVM_ERR_INVALID_ARGUMENT, "UTF-8");
    expect_refused(0, "counter", NULL, 0, MVVM_ERR_INVALID_HANDLE, NULL);
    expect_refused(watch, "counter", NULL, 0, MVVM_ERR_WRONG_TYPE, NULL);
    expect_refused(loop, "count_down_timer", NULL, 0, MVVM_ERR_INVALID_ARGUMENT, "full_count: int");
    expect_refused(loop, "count_down_timer", two, 2, MVVM_ERR_INVALID_ARGUMENT, "not 2 arguments");
    expect_refused(loop, "count_down_timer", NULL, 1, MVVM_ERR_NULL_POINTER, "args");
    expect_refused(loop, "count_down_timer", &text, 1, MVVM_ERR_TYPE_MISMATCH, "full_count");
    expect_refused(loop, "count_down_timer", &zero, 1, MVVM_ERR_INVALID_ARGUMENT, "full_count must be");
    expect_refused(loop, "count_down_timer", &big, 1, MVVM_ERR_INVALID_ARGUMENT, "full_count must be");
    expect_refused(loop, "count_down_timer", &bad_type, 1, MVVM_ERR_INVALID_ARGUMENT, "unknown type");
    expect_refused(loop, "tally_that_is_not_here", &zero, 1, MVVM_ERR_UNKNOWN_NAME, NULL);
    expect_refused(loop, "input_echo_view_model", &bad_utf8, 1, MVVM_ERR_INVALID_ARGUMENT, NULL);
    expect_refused(loop, "display_view_model", NULL, 0, MVVM_ERR_INVALID_ARGUMENT, "no constructor");
    expect_refused(loop, "counter", NULL, 65, MVVM_ERR_INVALID_ARGUMENT, "count");
    mvvm_value model = value_object(watch);
    expect_refused(loop, "counter_view_model", &model, 1, MVVM_ERR_WRONG_TYPE, "stop_watch");
    model = value_object(far_counter);
    expect_refused(loop, "counter_view_model", &model, 1, MVVM_ERR_INVALID_ARGUMENT, "another loop");
    model = value_object(dead);
    expect_refused(loop, "counter_view_model", &model, 1, MVVM_ERR_INVALID_HANDLE, NULL);
    model = value_object(loop);
    expect_refused(loop, "counter_view_model", &model, 1, MVVM_ERR_WRONG_TYPE, NULL);
    mvvm_value seed_text = value_string("42");
    expect_refused(loop, "counter_page_view_model", &seed_text, 1, MVVM_ERR_TYPE_MISMATCH, "seed");
    mvvm_handle out = 0;
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, &out), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(other_loop), MVVM_OK);
}

/* A host sign-up service that remembers the user ids it was asked for and answers at once. */
typedef struct host_service {
    int requests;
    char last_user[64];
    bool answer;
    mvvm_status completed;
    int destroyed;
} host_service;

static void answering_service(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)view_model;
    host_service *s = user_data;
    s->requests++;
    if (argument->type == MVVM_TYPE_STRING) snprintf(s->last_user, sizeof s->last_user, "%s", argument->string);
    mvvm_value result = value_bool(s->answer);
    s->completed = mvvm_complete(request, &result);
}

static void service_destroyed(void *user_data) { ((host_service *)user_data)->destroyed++; }

static void a_service_handle_serves_view_models_until_all_are_gone(void) {
    mvvm_handle loop = new_virtual_loop(), service = 0, first = 0, second = 0;
    host_service s = { .answer = true };
    CHECK_STATUS(mvvm_service_new(answering_service, &s, service_destroyed, &service), MVVM_OK);
    const char *name = NULL;
    CHECK_STATUS(mvvm_class_name(service, &name), MVVM_OK);
    CHECK_EQ_STR(name, "service");
    mvvm_value argument = value_object(service);
    CHECK_STATUS(mvvm_new(loop, "sign_up_view_model", &argument, 1, &first), MVVM_OK);
    CHECK_STATUS(mvvm_new(loop, "sign_up_view_model", &argument, 1, &second), MVVM_OK);
    fill_sign_up(first, "alice01", "password1", "password1", true);
    fill_sign_up(second, "bobby02", "password2", "password2", true);
    CHECK_STATUS(mvvm_send(first, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_INT(s.requests, 1);
    CHECK_EQ_STR(s.last_user, "alice01");
    CHECK_STATUS(s.completed, MVVM_OK);
    CHECK_GET_BOOL(first, "is_completion_alert_presented", true);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(second), MVVM_OK);
    CHECK_EQ_STR(s.last_user, "bobby02");
    CHECK_GET_BOOL(second, "is_completion_alert_presented", true);
    /* Released handle first: the view models still use it; the destroy waits for the last. */
    CHECK_STATUS(mvvm_release(service), MVVM_OK);
    CHECK_STATUS(mvvm_release(service), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(first), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 0);
    CHECK_STATUS(mvvm_set_string(second, "user_id", "carol03"), MVVM_OK);
    CHECK_STATUS(mvvm_send(second, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_STR(s.last_user, "carol03");
    CHECK_STATUS(mvvm_release(second), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 1);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 1);
}

static void a_service_outliving_its_view_models_is_destroyed_at_its_release(void) {
    mvvm_handle loop = new_virtual_loop(), service = 0, vm = 0;
    host_service s = { .answer = false };
    CHECK_STATUS(mvvm_service_new(answering_service, &s, service_destroyed, &service), MVVM_OK);
    mvvm_value argument = value_object(service);
    CHECK_STATUS(mvvm_new(loop, "welcome_view_model", &argument, 1, &vm), MVVM_OK); /* the api constructor */
    CHECK_STATUS(mvvm_release(vm), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 0);
    CHECK_STATUS(mvvm_release(service), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 1);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

static void services_and_models_are_not_interchangeable(void) {
    mvvm_handle loop = new_virtual_loop(), service = 0, counter = 0, out = 0;
    host_service s = { .answer = true };
    CHECK_STATUS(mvvm_service_new(answering_service, &s, service_destroyed, &service), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    mvvm_value as_model = value_object(service), as_service = value_object(counter);
    CHECK_STATUS(mvvm_new(loop, "counter_view_model", &as_model, 1, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_new(loop, "sign_up_view_model", &as_service, 1, &out), MVVM_ERR_WRONG_TYPE);
    /* A service handle is for construction only. */
    CHECK_STATUS(mvvm_send(service, "increment", NULL), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_subscribe(service, NULL, recorder_callback, NULL, NULL, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_release(service), MVVM_OK);
    CHECK_EQ_INT(s.destroyed, 1);
    int destroyed = 0;
    CHECK_STATUS(mvvm_service_new(NULL, &destroyed, count_destroy, &out), MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(destroyed, 1);
    CHECK_STATUS(mvvm_service_new(answering_service, &destroyed, count_destroy, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(destroyed, 2);
    /* A typed constructor that fails runs its service's destroy function once, at once. */
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(counter, answering_service, &destroyed, count_destroy, &out),
                 MVVM_ERR_WRONG_TYPE);
    CHECK_EQ_INT(destroyed, 3);
    CHECK_STATUS(mvvm_release(counter), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(classes_describe_the_whole_catalog),
        CHECK_TEST(new_makes_what_the_typed_constructors_make),
        CHECK_TEST(new_refuses_bad_calls_with_a_status_and_a_message),
        CHECK_TEST(a_service_handle_serves_view_models_until_all_are_gone),
        CHECK_TEST(a_service_outliving_its_view_models_is_destroyed_at_its_release),
        CHECK_TEST(services_and_models_are_not_interchangeable),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
