/*
 * test_errors.c - every error status provoked, each with a non-empty mvvm_last_error(), and the
 * library's static facts: status names, version, class names.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"
#include "status_names.h"

/* Checks a call fails with `expected` and leaves a message in mvvm_last_error(). */
static bool check_error(mvvm_status got, mvvm_status expected, const char *call, const char *file, int line) {
    if (!check_status(got, expected, call, file, line)) return false;
    const char *message = mvvm_last_error();
    if (message && message[0] != '\0') return true;
    check_fail_header(file, line);
    printf("%s: mvvm_last_error() is %s after a failed call\n", call, message ? "\"\"" : "NULL");
    check_fail_footer();
    return false;
}
#define CHECK_ERROR(call, expected) check_error((call), (expected), #call, __FILE__, __LINE__)

static mvvm_handle new_loop(mvvm_loop_kind kind) {
    mvvm_handle loop = 0;
    CHECK_STATUS(mvvm_loop_new(kind, &loop), MVVM_OK);
    return loop;
}

static void noop_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    (void)user_data;
}

static void noop_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm;
    (void)argument;
    *(mvvm_handle *)user_data = request;
}

/* ------------------------------------------------------------------------------------------ */
/* Handles                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Every kind of call on a handle that names no object. */
static void check_invalid_everywhere(mvvm_handle h, const char *file, int line) {
    int64_t i = 7;
    bool b = true;
    char *s = NULL;
    const char *cs = NULL;
    mvvm_handle out = 99;
    int fd = -5;
    mvvm_value yes = value_bool(true);
    int before = check_failures;
    CHECK_ERROR(mvvm_get_int(h, "count", &i), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_get_bool(h, "agreed", &b), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_get_string(h, "input", &s), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_set_string(h, "input", "x"), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_set_bool(h, "agreed", true), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_send(h, "increment", NULL), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_child(h, "display", &out), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_class_name(h, &cs), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_describe(h, &s), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_snapshot(h, &s), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_subscribe(h, NULL, noop_callback, NULL, NULL, &out), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_unsubscribe(h), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_release(h), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_complete(h, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_advance(h, 0), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_dispatch(h, NULL), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_now_ms(h, &i), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_fd(h, &fd), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_next_timeout_ms(h, &i), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_loop_run_for(h, 0), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_counter_new(h, &out), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_counter_increment(h), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_stop_watch_view_model_main_action(h), MVVM_ERR_INVALID_HANDLE);
    /* Out-pointers untouched. */
    CHECK_EQ_INT(i, 7);
    CHECK(b == true);
    CHECK(s == NULL);
    CHECK(cs == NULL);
    CHECK_EQ_INT(out, 99);
    CHECK_EQ_INT(fd, -5);
    if (check_failures != before) printf("    ^ for handle 0x%" PRIx64 ", checked at %s:%d\n", h, file, line);
}
#define CHECK_INVALID_EVERYWHERE(h) check_invalid_everywhere((h), __FILE__, __LINE__)

static void zero_and_forged_handles_are_invalid(void) {
    CHECK_INVALID_EVERYWHERE(0);
    CHECK_INVALID_EVERYWHERE(0x1234567);
    CHECK_INVALID_EVERYWHERE(UINT64_MAX);
    CHECK_INVALID_EVERYWHERE((mvvm_handle)1 << 63);
    /* With live objects around too. */
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_INVALID_EVERYWHERE(0);
    CHECK_INVALID_EVERYWHERE(0x1234567);
    CHECK_GET_INT(counter, "count", 0);
    RELEASE(counter);
    RELEASE(loop);
}

static void released_handles_are_invalid(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, echo = 0, sub = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(echo, NULL, noop_callback, NULL, NULL, &sub), MVVM_OK);
    RELEASE(counter);
    CHECK_INVALID_EVERYWHERE(counter);
    CHECK_ERROR(mvvm_release(counter), MVVM_ERR_INVALID_HANDLE); /* double release */
    RELEASE(sub);
    CHECK_ERROR(mvvm_unsubscribe(sub), MVVM_ERR_INVALID_HANDLE); /* double unsubscribe */
    CHECK_INVALID_EVERYWHERE(sub);
    CHECK_STATUS(mvvm_subscribe(echo, NULL, noop_callback, NULL, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_unsubscribe(sub), MVVM_OK);
    CHECK_ERROR(mvvm_unsubscribe(sub), MVVM_ERR_INVALID_HANDLE);
    RELEASE(echo);
    CHECK_INVALID_EVERYWHERE(echo);
    RELEASE(loop);
    CHECK_INVALID_EVERYWHERE(loop);
    CHECK_ERROR(mvvm_release(loop), MVVM_ERR_INVALID_HANDLE);
}

#define MANY 1000

static void stale_handles_never_reach_new_objects(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), old = 0;
    static mvvm_handle released[MANY], live[100];
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &old), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(old, "input", "old"), MVVM_OK);
    RELEASE(old);

    /* Create and release many: each slot reused many times. */
    for (int i = 0; i < MANY; i++) {
        released[i] = 0;
        if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &released[i]), MVVM_OK)) break;
        RELEASE(released[i]);
    }
    /* Then keep some alive, each with its own input. */
    for (int i = 0; i < 100; i++) {
        char text[32];
        snprintf(text, sizeof text, "new-%d", i);
        CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &live[i]), MVVM_OK);
        CHECK_STATUS(mvvm_set_string(live[i], "input", text), MVVM_OK);
    }

    /* Every handle ever issued is different. */
    int duplicates = 0;
    for (int i = 0; i < MANY; i++) {
        if (released[i] == old) duplicates++;
        for (int j = 0; j < i; j++)
            if (released[j] == released[i]) duplicates++;
        for (int j = 0; j < 100; j++)
            if (live[j] == released[i]) duplicates++;
    }
    for (int j = 0; j < 100; j++)
        if (live[j] == old) duplicates++;
    CHECK_EQ_INT(duplicates, 0);

    /* The stale handles fail and touch none of the live objects. */
    char *text = NULL;
    CHECK_ERROR(mvvm_get_string(old, "input", &text), MVVM_ERR_INVALID_HANDLE);
    CHECK(text == NULL);
    CHECK_ERROR(mvvm_set_string(old, "input", "written through a stale handle"), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_release(old), MVVM_ERR_INVALID_HANDLE);
    int stale_ok = 0;
    for (int i = 0; i < MANY; i++) {
        if (mvvm_set_string(released[i], "input", "written through a stale handle") != MVVM_ERR_INVALID_HANDLE)
            stale_ok++;
        if (mvvm_release(released[i]) != MVVM_ERR_INVALID_HANDLE) stale_ok++;
    }
    CHECK_EQ_INT(stale_ok, 0);
    for (int i = 0; i < 100; i++) {
        char expected[32];
        snprintf(expected, sizeof expected, "new-%d", i);
        CHECK_GET_STRING(live[i], "input", expected);
        RELEASE(live[i]);
    }
    RELEASE(loop);
}

static void handles_of_the_wrong_class(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), manual = new_loop(MVVM_LOOP_MANUAL);
    mvvm_handle watch = 0, counter = 0, echo = 0, sub = 0, out = 77, timer = 0, request = 0, sign_up = 0;
    int64_t i = 7;
    int fd = -5;
    char *s = NULL;
    mvvm_value yes = value_bool(true);
    CHECK_STATUS(mvvm_stop_watch_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(echo, NULL, noop_callback, NULL, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, noop_request, &request, NULL, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(sign_up, "user_id", "abcdef"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(sign_up, "password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(sign_up, "confirm_password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(sign_up, "agreed", true), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(sign_up), MVVM_OK);
    CHECK(request != 0);

    /* A loop where an object is wanted. */
    CHECK_ERROR(mvvm_get_int(loop, "count", &i), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_set_string(loop, "input", "x"), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_send(loop, "increment", NULL), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_child(loop, "display", &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_describe(loop, &s), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_snapshot(loop, &s), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_subscribe(loop, NULL, noop_callback, NULL, NULL, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_counter_increment(loop), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_unsubscribe(loop), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_complete(loop, &yes), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_counter_view_model_new(loop, loop, &out), MVVM_ERR_WRONG_TYPE);

    /* Objects where a loop is wanted. */
    CHECK_ERROR(mvvm_loop_advance(echo, 0), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_loop_dispatch(counter, NULL), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_loop_fd(counter, &fd), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_loop_now_ms(sub, &i), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_loop_next_timeout_ms(echo, &i), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_loop_run_for(echo, 0), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_counter_new(echo, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_count_down_timer_new(counter, 5, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_stop_watch_view_model_new(sub, &out), MVVM_ERR_WRONG_TYPE);

    /* Models of the wrong class. */
    CHECK_ERROR(mvvm_counter_view_model_new(loop, watch, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_counter_view_model_new(loop, echo, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_timer_view_model_new(loop, counter, &out), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_timer_view_model_new(loop, sub, &out), MVVM_ERR_WRONG_TYPE);

    /* Subscriptions and requests are not objects, objects not subscriptions or requests. */
    CHECK_ERROR(mvvm_get_int(sub, "count", &i), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_send(sub, "increment", NULL), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_get_bool(request, "agreed", &(bool){ false }), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_unsubscribe(echo), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_unsubscribe(request), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_complete(echo, &yes), MVVM_ERR_WRONG_TYPE);
    CHECK_ERROR(mvvm_complete(sub, &yes), MVVM_ERR_WRONG_TYPE);

    CHECK_EQ_INT(i, 7);
    CHECK_EQ_INT(fd, -5);
    CHECK_EQ_INT(out, 77);
    CHECK(s == NULL);
    /* Nothing was harmed. */
    CHECK_GET_INT(counter, "count", 0);
    CHECK_STATUS(mvvm_complete(request, &yes), MVVM_OK);
    CHECK_GET_BOOL(sign_up, "is_completion_alert_presented", true);
    RELEASE(sub);
    RELEASE(sign_up);
    RELEASE(timer);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(watch);
    RELEASE(manual);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Arguments                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void null_pointers(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), manual = new_loop(MVVM_LOOP_MANUAL);
    mvvm_handle counter = 0, echo = 0, timer = 0, timer_vm = 0, player = 0, welcome = 0, out = 55;
    int64_t i = 7;
    char *s = NULL;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);

    CHECK_ERROR(mvvm_loop_new(MVVM_LOOP_VIRTUAL, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_loop_fd(manual, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_loop_now_ms(loop, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_loop_next_timeout_ms(loop, NULL), MVVM_ERR_NULL_POINTER);

    CHECK_ERROR(mvvm_get_int(counter, NULL, &i), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_get_int(counter, "count", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_get_bool(timer, "is_doing", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_get_string(echo, "input", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_get_string(echo, NULL, &s), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_set_string(echo, NULL, "x"), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_set_string(echo, "input", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_set_bool(echo, NULL, true), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_set_int(counter, NULL, 1), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_send(counter, NULL, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_child(timer_vm, NULL, &out), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_child(timer_vm, "display", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_class_name(counter, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_describe(counter, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_snapshot(counter, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_subscribe(counter, NULL, NULL, NULL, NULL, &out), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_subscribe(counter, "count", noop_callback, NULL, NULL, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_counter_new(loop, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_count_down_timer_new(loop, 5, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_counter_get_count(counter, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_input_echo_view_model_set_input(echo, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_player_view_model_tapped(player, NULL), MVVM_ERR_NULL_POINTER);
    CHECK_ERROR(mvvm_welcome_view_model_tap_button(welcome, NULL), MVVM_ERR_NULL_POINTER);
    /* A string value whose pointer is NULL: refused (NULL_POINTER or INVALID_ARGUMENT), not a crash. */
    mvvm_value null_string = value_string(NULL);
    mvvm_status status = mvvm_send(welcome, "tap_button", &null_string);
    CHECK(status == MVVM_ERR_NULL_POINTER || status == MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) > 0);

    /* A NULL service: an error, and its destroy function still runs once. */
    int destroyed = 0;
    CHECK_ERROR(mvvm_sign_up_view_model_new_with_service(loop, NULL, &destroyed, count_destroy, &out),
                MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(destroyed, 1);
    destroyed = 0;
    CHECK_ERROR(mvvm_welcome_view_model_new_with_api(loop, NULL, &destroyed, count_destroy, &out),
                MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(destroyed, 1);
    destroyed = 0;
    CHECK_ERROR(mvvm_sign_up_view_model_new_with_service(loop, noop_request, &destroyed, count_destroy, NULL),
                MVVM_ERR_NULL_POINTER);
    CHECK_EQ_INT(destroyed, 1);
    destroyed = 0;
    CHECK_ERROR(mvvm_sign_up_view_model_new_with_service(0, noop_request, &destroyed, count_destroy, &out),
                MVVM_ERR_INVALID_HANDLE);
    CHECK_EQ_INT(destroyed, 1);

    CHECK_EQ_INT(i, 7);
    CHECK(s == NULL);
    CHECK_EQ_INT(out, 55);
    mvvm_string_free(NULL); /* allowed, does nothing */
    RELEASE(welcome);
    RELEASE(player);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(manual);
    RELEASE(loop);
}

static void invalid_utf8_is_an_invalid_argument(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), echo = 0, welcome = 0, sign_up = 0, timer = 0, timer_vm = 0,
                player = 0, out = 0;
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);
    recorder *all = recorder_new();
    mvvm_handle sub = 0;
    CHECK_STATUS(mvvm_subscribe(echo, NULL, recorder_callback, all, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(echo, "input", "before"), MVVM_OK);

    static const char *const bad[] = {
        "\xff\xfe",             /* bytes that are never UTF-8 */
        "ok\xc3",               /* a truncated sequence */
        "\xc0\xaf",             /* an overlong "/" */
        "\xed\xa0\x80",         /* a surrogate */
        "\xf4\x90\x80\x80",     /* beyond U+10FFFF */
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int before = check_failures;
        mvvm_value bad_value = value_string(bad[k]);
        CHECK_ERROR(mvvm_set_string(echo, "input", bad[k]), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_ERROR(mvvm_input_echo_view_model_set_input(echo, bad[k]), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_ERROR(mvvm_set_string(sign_up, "user_id", bad[k]), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_ERROR(mvvm_send(welcome, "tap_button", &bad_value), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_ERROR(mvvm_welcome_view_model_tap_button(welcome, bad[k]), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_ERROR(mvvm_player_view_model_tapped(player, bad[k]), MVVM_ERR_INVALID_ARGUMENT);
        int destroyed = 0;
        CHECK_ERROR(mvvm_subscribe(echo, bad[k], noop_callback, &destroyed, count_destroy, &out),
                    MVVM_ERR_INVALID_ARGUMENT);
        CHECK_EQ_INT(destroyed, 1);
        if (check_failures != before) printf("    ^ with bad string #%zu\n", k);
    }
    /* Nothing changed, nothing was notified. */
    CHECK_GET_STRING(echo, "input", "before");
    CHECK_GET_STRING(sign_up, "user_id", "");
    CHECK_EQ_INT(rec_count(all, "input"), 1);
    CHECK_EQ_INT(rec_count(all, NULL), 3);

    RELEASE(sub);
    RELEASE(player);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(sign_up);
    RELEASE(welcome);
    RELEASE(echo);
    RELEASE(loop);
    recorder_free(all);
}

static void unknown_names(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, echo = 0, timer = 0, timer_vm = 0, out = 88;
    int64_t i = 7;
    char *s = NULL;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);

    CHECK_ERROR(mvvm_get_int(counter, "nope", &i), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_get_int(counter, "increment", &i), MVVM_ERR_UNKNOWN_NAME); /* a command */
    CHECK_ERROR(mvvm_get_int(counter, "", &i), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_get_int(counter, "Count", &i), MVVM_ERR_UNKNOWN_NAME); /* names are exact */
    CHECK_ERROR(mvvm_get_string(echo, "nope", &s), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_set_string(echo, "nope", "x"), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_set_int(counter, "nope", 1), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_send(counter, "nope", NULL), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_send(counter, "count", NULL), MVVM_ERR_UNKNOWN_NAME); /* a property */
    CHECK_ERROR(mvvm_send(echo, "increment", NULL), MVVM_ERR_UNKNOWN_NAME); /* another class's */
    CHECK_ERROR(mvvm_child(timer_vm, "nope", &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_child(counter, "display", &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK_ERROR(mvvm_subscribe(counter, "nope", noop_callback, NULL, NULL, &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK_EQ_INT(i, 7);
    CHECK(s == NULL);
    CHECK_EQ_INT(out, 88);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(loop);
}

static void read_only_properties(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, echo = 0, sign_up = 0, watch = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    CHECK_ERROR(mvvm_set_int(counter, "count", 3), MVVM_ERR_READ_ONLY);
    CHECK_ERROR(mvvm_set_string(echo, "label", "x"), MVVM_ERR_READ_ONLY);
    CHECK_ERROR(mvvm_set_string(echo, "message", "x"), MVVM_ERR_READ_ONLY);
    CHECK_ERROR(mvvm_set_bool(sign_up, "is_sign_up_enabled", true), MVVM_ERR_READ_ONLY);
    CHECK_ERROR(mvvm_set_string(watch, "time", "12:00:00.00"), MVVM_ERR_READ_ONLY);
    CHECK_ERROR(mvvm_set_bool(watch, "clear_action_enabled", true), MVVM_ERR_READ_ONLY);
    CHECK_GET_INT(counter, "count", 0);
    CHECK_GET_STRING(echo, "label", "");
    CHECK_GET_BOOL(sign_up, "is_sign_up_enabled", false);
    CHECK_GET_STRING(watch, "time", "00:00:00.00");
    RELEASE(watch);
    RELEASE(sign_up);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(loop);
}

static void type_mismatches(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, echo = 0, sign_up = 0, welcome = 0, timer = 0,
                timer_vm = 0, player = 0;
    bool b = true;
    int64_t i = 7;
    double d = 1.5;
    char *s = NULL;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);

    CHECK_ERROR(mvvm_get_bool(counter, "count", &b), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_get_double(counter, "count", &d), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_get_string(counter, "count", &s), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_get_int(echo, "input", &i), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_get_string(sign_up, "agreed", &s), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_get_int(timer, "is_doing", &i), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_set_int(sign_up, "agreed", 1), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_set_bool(echo, "input", true), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_set_double(echo, "input", 1.0), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_set_string(sign_up, "agreed", "true"), MVVM_ERR_TYPE_MISMATCH);
    CHECK_EQ_INT(i, 7);
    CHECK(b == true);
    CHECK(d == 1.5);
    CHECK(s == NULL);
    CHECK_GET_BOOL(sign_up, "agreed", false);

    /* Command arguments: of the wrong type, or missing. */
    mvvm_value one = value_int(1), yes = value_bool(true), none = value_none(), text = value_string("start"),
               pi = value_double(3.14);
    CHECK_ERROR(mvvm_send(welcome, "tap_button", &one), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(welcome, "tap_button", &yes), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(welcome, "tap_button", NULL), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(welcome, "tap_button", &none), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(player, "tapped", &one), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(player, "tapped", &pi), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(player, "tapped", NULL), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(counter, "increment", &text), MVVM_ERR_TYPE_MISMATCH);
    CHECK_ERROR(mvvm_send(counter, "increment", &one), MVVM_ERR_TYPE_MISMATCH);
    /* A command without argument takes NULL or a value of MVVM_TYPE_NONE. */
    CHECK_STATUS(mvvm_send(counter, "increment", NULL), MVVM_OK);
    CHECK_STATUS(mvvm_send(counter, "increment", &none), MVVM_OK);
    CHECK_GET_INT(counter, "count", 2);
    /* The player's command takes a string. */
    CHECK_STATUS(mvvm_send(player, "tapped", &text), MVVM_OK);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(timer, "is_doing", true);

    RELEASE(player);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(welcome);
    RELEASE(sign_up);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(loop);
}

static void values_out_of_range(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), timer = 0, timer_vm = 0, player = 0, out = 66;
    CHECK_ERROR(mvvm_count_down_timer_new(loop, 0, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_count_down_timer_new(loop, -5, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(out, 66);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 1, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);
    mvvm_value jump = value_string("jump");
    CHECK_ERROR(mvvm_player_view_model_tapped(player, "jump"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_player_view_model_tapped(player, "Start"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_player_view_model_tapped(player, ""), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_send(player, "tapped", &jump), MVVM_ERR_INVALID_ARGUMENT);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(timer, "is_doing", false);
    /* The refused taps were not throttled taps: a good one acts at once. */
    CHECK_STATUS(mvvm_player_view_model_tapped(player, "start"), MVVM_OK);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(timer, "is_doing", true);
    RELEASE(player);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Loops                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void loop_calls_for_another_kind_of_loop(void) {
    mvvm_handle manual = new_loop(MVVM_LOOP_MANUAL), thread = new_loop(MVVM_LOOP_THREAD),
                virtual_loop = new_loop(MVVM_LOOP_VIRTUAL), out = 44;
    int fd = -5;
    int64_t n = 7;
    CHECK_ERROR(mvvm_loop_advance(manual, 0), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_advance(thread, 10), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_dispatch(virtual_loop, &n), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_dispatch(thread, &n), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_fd(virtual_loop, &fd), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_fd(thread, &fd), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_run_for(virtual_loop, 10), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_ERROR(mvvm_loop_run_for(thread, 10), MVVM_ERR_WRONG_LOOP_KIND);
    CHECK_EQ_INT(fd, -5);
    CHECK_EQ_INT(n, 7);

    CHECK_ERROR(mvvm_loop_advance(virtual_loop, -1), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_loop_advance(virtual_loop, INT64_MIN), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_loop_run_for(manual, -1), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_loop_new((mvvm_loop_kind)99, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_loop_new((mvvm_loop_kind)-1, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(out, 44);
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_now_ms(virtual_loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 0);

    /* Every kind answers next_timeout_ms and now_ms. */
    mvvm_handle loops[3] = { manual, thread, virtual_loop };
    for (int k = 0; k < 3; k++) {
        int64_t next = -7;
        CHECK_STATUS(mvvm_loop_next_timeout_ms(loops[k], &next), MVVM_OK);
        CHECK_EQ_INT(next, -1);
        now = -1;
        CHECK_STATUS(mvvm_loop_now_ms(loops[k], &now), MVVM_OK);
        CHECK(now >= 0);
    }
    CHECK_STATUS(mvvm_loop_run_for(manual, 0), MVVM_OK);
    CHECK_STATUS(mvvm_loop_dispatch(manual, NULL), MVVM_OK);
    n = -1;
    CHECK_STATUS(mvvm_loop_dispatch(manual, &n), MVVM_OK);
    CHECK_EQ_INT(n, 0);
    RELEASE(manual);
    RELEASE(thread);
    RELEASE(virtual_loop);
}

static void a_view_model_over_a_model_of_another_loop(void) {
    mvvm_handle a = new_loop(MVVM_LOOP_VIRTUAL), b = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, random = 0, timer = 0,
                out = 33;
    CHECK_STATUS(mvvm_counter_new(a, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_random_counter_new(a, 1, &random), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(a, 5, &timer), MVVM_OK);
    CHECK_ERROR(mvvm_counter_view_model_new(b, counter, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_counter_view_model_new(b, random, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_ERROR(mvvm_timer_view_model_new(b, timer, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(out, 33);
    CHECK_STATUS(mvvm_counter_view_model_new(a, counter, &out), MVVM_OK);
    RELEASE(out);
    RELEASE(timer);
    RELEASE(random);
    RELEASE(counter);
    RELEASE(b);
    RELEASE(a);
}

static void objects_of_a_released_loop_can_only_be_released(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), counter = 0, echo = 0, timer = 0, timer_vm = 0, display = 0,
                sign_up = 0, request = 0, out = 22;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_display(timer_vm, &display), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, noop_request, &request, NULL, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    RELEASE(loop);

    int64_t i = 7;
    char *s = NULL;
    CHECK_ERROR(mvvm_get_int(counter, "count", &i), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_counter_get_count(counter, &i), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_send(counter, "increment", NULL), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_counter_increment(counter), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_set_string(echo, "input", "x"), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_get_string(echo, "input", &s), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_get_int(display, "remaining_time", &i), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_child(timer_vm, "player", &out), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_describe(echo, &s), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_snapshot(echo, &s), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_subscribe(echo, NULL, noop_callback, NULL, NULL, &out), MVVM_ERR_LOOP_RELEASED);
    CHECK_ERROR(mvvm_sign_up_view_model_sign_up_tapped(sign_up), MVVM_ERR_LOOP_RELEASED);
    CHECK_EQ_INT(i, 7);
    CHECK(s == NULL);
    CHECK_EQ_INT(out, 22);
    /* The loop itself is gone. */
    CHECK_ERROR(mvvm_loop_advance(loop, 0), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_counter_new(loop, &out), MVVM_ERR_INVALID_HANDLE);

    RELEASE(display);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(echo);
    RELEASE(counter);
    RELEASE(sign_up);
    CHECK_ERROR(mvvm_release(counter), MVVM_ERR_INVALID_HANDLE);
    CHECK_ERROR(mvvm_get_int(counter, "count", &i), MVVM_ERR_INVALID_HANDLE);
}

typedef struct reentry {
    mvvm_handle loop;
    int calls;
    mvvm_status advance_status, dispatch_status, run_for_status;
} reentry;

static void advance_from_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    reentry *r = user_data;
    if (r->calls++ == 0) r->advance_status = mvvm_loop_advance(r->loop, 10);
}

static void dispatch_from_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    reentry *r = user_data;
    if (r->calls++ == 0) {
        r->dispatch_status = mvvm_loop_dispatch(r->loop, NULL);
        r->run_for_status = mvvm_loop_run_for(r->loop, 5);
    }
}

static void advancing_a_loop_from_its_own_timed_callback(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), watch = 0, sub = 0;
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    reentry r = { loop, 0, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(watch, "time", advance_from_callback, &r, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    ADVANCE(loop, 10);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_STATUS(r.advance_status, MVVM_ERR_INVALID_ARGUMENT);
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    CHECK_EQ_INT(now, 10);
    ADVANCE(loop, 10);
    CHECK_GET_STRING(watch, "time", "00:00:00.02");
    RELEASE(sub);
    RELEASE(watch);
    RELEASE(loop);
}

static void advancing_a_loop_from_a_setter_callback(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), echo = 0, sub = 0;
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    reentry r = { loop, 0, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(echo, "input", advance_from_callback, &r, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(echo, "input", "x"), MVVM_OK);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_STATUS(r.advance_status, MVVM_ERR_INVALID_ARGUMENT);
    RELEASE(sub);
    RELEASE(echo);
    RELEASE(loop);
}

static void dispatching_a_manual_loop_from_its_own_callback(void) {
    mvvm_handle loop = new_loop(MVVM_LOOP_MANUAL), welcome = 0, sub = 0;
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    reentry r = { loop, 0, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(welcome, "on_show_welcome", dispatch_from_callback, &r, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(welcome), MVVM_OK);
    int64_t ran = -1;
    CHECK_STATUS(mvvm_loop_dispatch(loop, &ran), MVVM_OK); /* the built-in API answers now */
    CHECK(ran >= 1);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_STATUS(r.dispatch_status, MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(r.run_for_status, MVVM_ERR_INVALID_ARGUMENT);
    RELEASE(sub);
    RELEASE(welcome);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Static facts                                                                               */
/* ------------------------------------------------------------------------------------------ */

static void status_names(void) {
    /* The header's statuses, generated from it (status_names.h: make generate). */
    const size_t count = sizeof status_names_of_the_header / sizeof status_names_of_the_header[0];
    CHECK(count >= 15);
    int after_the_last = 0;
    for (size_t k = 0; k < count; k++) {
        CHECK_EQ_STR(mvvm_status_name(status_names_of_the_header[k].status), status_names_of_the_header[k].name);
        if ((int)status_names_of_the_header[k].status >= after_the_last) after_the_last = (int)status_names_of_the_header[k].status + 1;
    }
    CHECK_EQ_STR(mvvm_status_name((mvvm_status)after_the_last), "MVVM_UNKNOWN_STATUS");
    CHECK_EQ_STR(mvvm_status_name((mvvm_status)99), "MVVM_UNKNOWN_STATUS");
    CHECK_EQ_STR(mvvm_status_name((mvvm_status)-1), "MVVM_UNKNOWN_STATUS");
}

static void version_matches_the_header(void) {
    char expected[64];
    snprintf(expected, sizeof expected, "%d.%d.%d", MVVM_VERSION_MAJOR, MVVM_VERSION_MINOR, MVVM_VERSION_PATCH);
    const char *version = mvvm_version();
    CHECK(version != NULL);
    CHECK_EQ_STR(version, expected);
    CHECK(mvvm_version() == version || strcmp(mvvm_version(), version) == 0);
}

static void check_class(mvvm_handle h, const char *expected, const char **saved, const char *file, int line) {
    const char *name = NULL;
    mvvm_status status = mvvm_class_name(h, &name);
    if (!check_status(status, MVVM_OK, "mvvm_class_name", file, line)) return;
    check_str_eq(name, expected, "class name", file, line);
    *saved = name;
}
#define CHECK_CLASS(h, expected, saved) check_class((h), (expected), (saved), __FILE__, __LINE__)

static void class_names_are_static_strings(void) {
    static const char *const expected[] = {
        "loop", "subscription", "request", "count_down_timer", "timer_view_model", "display_view_model",
        "player_view_model", "stop_watch", "stop_watch_view_model", "input_echo_view_model", "sign_up_view_model",
        "welcome_view_model", "counter", "random_counter", "counter_view_model", "counter_page_view_model",
    };
    enum { N = sizeof expected / sizeof expected[0] };
    mvvm_handle h[N] = {0};
    const char *saved[N] = {0};
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL), request = 0;
    h[0] = loop;
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, noop_request, &request, NULL, &h[10]), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(h[10], NULL, noop_callback, NULL, NULL, &h[1]), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(h[10], "user_id", "abcdef"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(h[10], "password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(h[10], "confirm_password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(h[10], "agreed", true), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(h[10]), MVVM_OK);
    h[2] = request;
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &h[3]), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, h[3], &h[4]), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_display(h[4], &h[5]), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(h[4], &h[6]), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_new(loop, &h[7]), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &h[8]), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &h[9]), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &h[11]), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &h[12]), MVVM_OK);
    CHECK_STATUS(mvvm_random_counter_new(loop, 3, &h[13]), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_new(loop, h[13], &h[14]), MVVM_OK);
    CHECK_STATUS(mvvm_counter_page_view_model_new(loop, &h[15]), MVVM_OK);
    for (int k = 0; k < N; k++) CHECK_CLASS(h[k], expected[k], &saved[k]);

    /* Children of the page are counter view models. */
    mvvm_handle child = 0;
    const char *child_class = NULL;
    CHECK_STATUS(mvvm_counter_page_view_model_first_counter(h[15], &child), MVVM_OK);
    CHECK_CLASS(child, "counter_view_model", &child_class);
    RELEASE(child);

    /* Static: still valid after everything is released. */
    RELEASE(h[1]);
    CHECK_STATUS(mvvm_release(h[2]), MVVM_OK); /* cancels the request */
    for (int k = N - 1; k >= 3; k--) RELEASE(h[k]);
    RELEASE(h[0]);
    for (int k = 0; k < N; k++)
        if (saved[k]) CHECK_EQ_STR(saved[k], expected[k]);
    const char *status_name = mvvm_status_name(MVVM_ERR_READ_ONLY);
    CHECK_EQ_STR(status_name, "MVVM_ERR_READ_ONLY");
}

typedef struct thread_errors {
    char before[256];
    char after_own_failure[256];
    mvvm_status status;
} thread_errors;

static void *errors_on_a_thread(void *arg) {
    thread_errors *t = arg;
    snprintf(t->before, sizeof t->before, "%s", mvvm_last_error() ? mvvm_last_error() : "(NULL)");
    t->status = mvvm_loop_new(MVVM_LOOP_VIRTUAL, NULL);
    snprintf(t->after_own_failure, sizeof t->after_own_failure, "%s", mvvm_last_error() ? mvvm_last_error() : "");
    return NULL;
}

static void last_error_is_per_thread(void) {
    /* A failure here does not show on a fresh thread, whose own failure does not show here. */
    CHECK_ERROR(mvvm_release(0), MVVM_ERR_INVALID_HANDLE);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", mvvm_last_error());
    thread_errors t = { "", "", MVVM_OK };
    pthread_t thread;
    if (CHECK(pthread_create(&thread, NULL, errors_on_a_thread, &t) == 0)) {
        pthread_join(thread, NULL);
        CHECK_EQ_STR(t.before, "");
        CHECK_STATUS(t.status, MVVM_ERR_NULL_POINTER);
        CHECK(strlen(t.after_own_failure) > 0);
        CHECK_EQ_STR(mvvm_last_error(), mine);
    }
    /* Succeeding calls leave the message of the last failure. */
    mvvm_handle loop = new_loop(MVVM_LOOP_VIRTUAL);
    CHECK_EQ_STR(mvvm_last_error(), mine);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(zero_and_forged_handles_are_invalid),
        CHECK_TEST(released_handles_are_invalid),
        CHECK_TEST(stale_handles_never_reach_new_objects),
        CHECK_TEST(handles_of_the_wrong_class),
        CHECK_TEST(null_pointers),
        CHECK_TEST(invalid_utf8_is_an_invalid_argument),
        CHECK_TEST(unknown_names),
        CHECK_TEST(read_only_properties),
        CHECK_TEST(type_mismatches),
        CHECK_TEST(values_out_of_range),
        CHECK_TEST(loop_calls_for_another_kind_of_loop),
        CHECK_TEST(a_view_model_over_a_model_of_another_loop),
        CHECK_TEST(objects_of_a_released_loop_can_only_be_released),
        CHECK_TEST(advancing_a_loop_from_its_own_timed_callback),
        CHECK_TEST(advancing_a_loop_from_a_setter_callback),
        CHECK_TEST(dispatching_a_manual_loop_from_its_own_callback),
        CHECK_TEST(status_names),
        CHECK_TEST(version_matches_the_header),
        CHECK_TEST(class_names_are_static_strings),
        CHECK_TEST(last_error_is_per_thread),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
