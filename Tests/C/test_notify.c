/*
 * test_notify.c - the notification rules of mvvm.h: notified only on a real change, after it is
 * complete; one event per changed property per operation, with its final value; subscribers in
 * subscription order; NULL names every property and signal; callbacks that call back in; and
 * destroy functions that run exactly once.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"


static mvvm_handle subscribe(mvvm_handle object, const char *name, recorder *r) {
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(object, name, recorder_callback, r, recorder_destroy, &subscription), MVVM_OK);
    return subscription;
}

/* Every property event of the recorder (with read_back) read back its own value inside the callback. */
static void check_read_back(recorder *r, const char *file, int line) {
    int stored = r->count < RECORDER_MAX ? r->count : RECORDER_MAX;
    for (int i = 0; i < stored; i++) {
        if (r->kind[i] != MVVM_EVENT_PROPERTY || strcmp(r->read[i], r->text[i]) == 0) continue;
        check_fail_header(file, line);
        printf("inside the callback of \"%s\" (event value \"%s\"), the getter gave \"%s\"\n", r->name[i], r->text[i],
               r->read[i]);
        check_fail_footer();
    }
}
#define CHECK_READ_BACK(r) check_read_back((r), __FILE__, __LINE__)

/* ------------------------------------------------------------------------------------------ */
/* Only real changes, after they are complete                                                 */
/* ------------------------------------------------------------------------------------------ */

static void notified_only_on_a_real_change(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, sign_up = 0, watch = 0;
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    recorder *input = recorder_new(), *label = recorder_new(), *agreed = recorder_new(), *all_watch = recorder_new();
    mvvm_handle s1 = subscribe(echo, "input", input), s2 = subscribe(echo, "label", label);
    mvvm_handle s3 = subscribe(sign_up, "agreed", agreed), s4 = subscribe(watch, NULL, all_watch);
    /* Subscribing notifies nothing. */
    CHECK_EQ_INT(rec_count(input, NULL) + rec_count(label, NULL) + rec_count(agreed, NULL), 0);

    CHECK_STATUS(mvvm_set_string(echo, "input", "a"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(echo, "input", "a"), MVVM_OK);
    CHECK_EQ_INT(rec_count(input, NULL), 1);
    CHECK_EQ_INT(rec_count(label, NULL), 1);
    CHECK_STATUS(mvvm_set_string(echo, "input", "b"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(echo, "input", "b"), MVVM_OK);
    CHECK_EQ_INT(rec_count(input, NULL), 2);
    CHECK_EQ_STR(rec_text(input, NULL, 0), "a");
    CHECK_EQ_STR(rec_text(input, NULL, 1), "b");
    CHECK_EQ_STR(rec_text(label, NULL, 1), "b");

    CHECK_STATUS(mvvm_set_bool(sign_up, "agreed", false), MVVM_OK); /* already false */
    CHECK_EQ_INT(rec_count(agreed, NULL), 0);
    CHECK_STATUS(mvvm_set_bool(sign_up, "agreed", true), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(sign_up, "agreed", true), MVVM_OK);
    CHECK_EQ_INT(rec_count(agreed, NULL), 1);
    CHECK_EQ_STR(rec_text(agreed, NULL, 0), "true");

    /* A command that changes nothing notifies nothing. */
    CHECK_STATUS(mvvm_stop_watch_view_model_clear_action(watch), MVVM_OK);
    ADVANCE(loop, 1000);
    CHECK_EQ_INT(rec_count(all_watch, NULL), 0);

    RELEASE(s1);
    RELEASE(s2);
    RELEASE(s3);
    RELEASE(s4);
    RELEASE(watch);
    RELEASE(sign_up);
    RELEASE(echo);
    RELEASE(loop);
    recorder_free(input);
    recorder_free(label);
    recorder_free(agreed);
    recorder_free(all_watch);
}

static void getter_inside_the_callback_returns_the_new_value(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, sign_up = 0, timer = 0, timer_vm = 0, display = 0, player = 0;
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 3, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_display(timer_vm, &display), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);
    recorder *r[6];
    mvvm_handle objects[6] = { echo, sign_up, timer, timer_vm, display, player }, subs[6];
    for (int i = 0; i < 6; i++) {
        r[i] = recorder_new();
        r[i]->read_back = true;
        subs[i] = subscribe(objects[i], NULL, r[i]);
    }

    CHECK_STATUS(mvvm_set_string(echo, "input", "x"), MVVM_OK);
    CHECK_EQ_INT(rec_count(r[0], NULL), 3);
    CHECK_EQ_STR(rec_text(r[0], "input", 0), "x");
    CHECK_EQ_STR(rec_text(r[0], "label", 0), "x");
    CHECK_EQ_STR(rec_text(r[0], "message", 0), "Your input is 'x'!");

    CHECK_STATUS(mvvm_set_string(sign_up, "user_id", "abcdef"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(sign_up, "password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(sign_up, "confirm_password", "12345678"), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(sign_up, "agreed", true), MVVM_OK);
    CHECK_EQ_STR(rec_text(r[1], "is_sign_up_enabled", -1), "true");
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(sign_up), MVVM_OK);
    CHECK_EQ_STR(rec_text(r[1], "is_completion_alert_presented", -1), "true");

    CHECK_STATUS(mvvm_player_view_model_tapped(player, "start"), MVVM_OK);
    ADVANCE(loop, 0);
    ADVANCE(loop, 3000);
    CHECK_EQ_STR(rec_text(r[3], "is_show_alert", -1), "true");
    CHECK(rec_count(r[2], "count") >= 3);
    CHECK(rec_count(r[4], "remaining_time") >= 3);
    CHECK(rec_count(r[5], "is_stop_enabled") >= 2);

    for (int i = 0; i < 6; i++) {
        CHECK_READ_BACK(r[i]);
        RELEASE(subs[i]);
        CHECK_EQ_INT(rec_destroyed(r[i]), 1);
        recorder_free(r[i]);
    }
    RELEASE(player);
    RELEASE(display);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(sign_up);
    RELEASE(echo);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* One event per changed property per operation                                               */
/* ------------------------------------------------------------------------------------------ */

static void a_setter_notifies_each_changed_property_once(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    CHECK_STATUS(mvvm_set_string(vm, "user_id", "abcde"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(vm, "password", "password"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "password"), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(vm, "agreed", true), MVVM_OK);
    recorder *all = recorder_new();
    all->read_back = true;
    mvvm_handle sub = subscribe(vm, NULL, all);

    /* user_id flips is_sign_up_enabled: one event for each. */
    CHECK_STATUS(mvvm_set_string(vm, "user_id", "abcdef"), MVVM_OK);
    CHECK_EQ_INT(rec_count(all, NULL), 2);
    CHECK_EQ_INT(rec_count(all, "user_id"), 1);
    CHECK_EQ_STR(rec_text(all, "user_id", 0), "abcdef");
    CHECK_EQ_INT(rec_count(all, "is_sign_up_enabled"), 1);
    CHECK_EQ_STR(rec_text(all, "is_sign_up_enabled", 0), "true");

    /* Still enabled: only user_id. */
    recorder_clear(all);
    CHECK_STATUS(mvvm_set_string(vm, "user_id", "abcdefg"), MVVM_OK);
    CHECK_EQ_INT(rec_count(all, NULL), 1);
    CHECK_EQ_STR(rec_text(all, "user_id", 0), "abcdefg");

    /* agreed off: agreed and is_sign_up_enabled. */
    recorder_clear(all);
    CHECK_STATUS(mvvm_set_bool(vm, "agreed", false), MVVM_OK);
    CHECK_EQ_INT(rec_count(all, NULL), 2);
    CHECK_EQ_STR(rec_text(all, "agreed", 0), "false");
    CHECK_EQ_STR(rec_text(all, "is_sign_up_enabled", 0), "false");
    CHECK_READ_BACK(all);

    RELEASE(sub);
    RELEASE(vm);
    RELEASE(loop);
    recorder_free(all);
}

static void the_countdown_end_notifies_final_values_only(void) {
    mvvm_handle loop = new_virtual_loop(), timer = 0, vm = 0, display = 0, player = 0;
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_display(vm, &display), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(vm, &player), MVVM_OK);
    recorder *on_timer = recorder_new(), *on_vm = recorder_new(), *on_display = recorder_new(),
             *on_player = recorder_new();
    on_timer->read_back = on_vm->read_back = on_display->read_back = on_player->read_back = true;
    mvvm_handle subs[4] = { subscribe(timer, NULL, on_timer), subscribe(vm, NULL, on_vm),
                            subscribe(display, NULL, on_display), subscribe(player, NULL, on_player) };

    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK); /* the model: no throttle */
    ADVANCE(loop, 4999);
    CHECK_EQ_STR(rec_text(on_timer, "count", -1), "4");
    CHECK_EQ_STR(rec_text(on_display, "remaining_time", -1), "1");
    recorder_clear(on_timer);
    recorder_clear(on_vm);
    recorder_clear(on_display);
    recorder_clear(on_player);

    /* At 5 s count goes 4 -> 5 -> 0 and remaining_time 1 -> 0 -> 5 inside one instant. */
    ADVANCE(loop, 1);
    CHECK_EQ_INT(rec_count(on_timer, "count"), 1);
    CHECK_EQ_STR(rec_text(on_timer, "count", 0), "0");
    CHECK_EQ_INT(rec_count(on_timer, "remaining_time"), 1);
    CHECK_EQ_STR(rec_text(on_timer, "remaining_time", 0), "5");
    CHECK_EQ_INT(rec_count_text(on_timer, "remaining_time", "0"), 0);
    CHECK_EQ_INT(rec_count_text(on_timer, "count", "5"), 0);
    CHECK_EQ_INT(rec_count(on_timer, "is_doing"), 1);
    CHECK_EQ_STR(rec_text(on_timer, "is_doing", 0), "false");
    CHECK_EQ_INT(rec_count(on_timer, "full_count"), 0);
    CHECK_EQ_INT(rec_count(on_timer, NULL), 3);

    CHECK_EQ_INT(rec_count(on_display, NULL), 1);
    CHECK_EQ_STR(rec_text(on_display, "remaining_time", 0), "5");
    CHECK_EQ_INT(rec_count_text(on_display, "remaining_time", "0"), 0);

    CHECK_EQ_INT(rec_count(on_player, NULL), 2);
    CHECK_EQ_INT(rec_count(on_player, "is_stop_enabled"), 1);
    CHECK_EQ_STR(rec_text(on_player, "is_stop_enabled", 0), "false");
    CHECK_EQ_INT(rec_count(on_player, "is_play_timer"), 1);
    CHECK_EQ_STR(rec_text(on_player, "is_play_timer", 0), "false");

    CHECK_EQ_INT(rec_count(on_vm, NULL), 1);
    CHECK_EQ_STR(rec_text(on_vm, "is_show_alert", 0), "true");

    CHECK_READ_BACK(on_timer);
    CHECK_READ_BACK(on_vm);
    CHECK_READ_BACK(on_display);
    CHECK_READ_BACK(on_player);
    for (int i = 0; i < 4; i++) RELEASE(subs[i]);
    RELEASE(player);
    RELEASE(display);
    RELEASE(vm);
    RELEASE(timer);
    RELEASE(loop);
    recorder_free(on_timer);
    recorder_free(on_vm);
    recorder_free(on_display);
    recorder_free(on_player);
}

static void commands_and_time_notify_once_per_instant(void) {
    mvvm_handle loop = new_virtual_loop(), watch = 0, counter = 0, counter_vm = 0;
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_new(loop, counter, &counter_vm), MVVM_OK);
    recorder *w = recorder_new(), *c = recorder_new(), *cvm = recorder_new();
    w->read_back = c->read_back = cvm->read_back = true;
    mvvm_handle s1 = subscribe(watch, NULL, w), s2 = subscribe(counter, NULL, c), s3 = subscribe(counter_vm, NULL, cvm);

    /* Start: only the title changes. */
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    CHECK_EQ_INT(rec_count(w, NULL), 1);
    CHECK_EQ_STR(rec_text(w, "main_action_title", 0), "Stop");

    /* 100 ms: ten instants, ten time events, in order. */
    recorder_clear(w);
    ADVANCE(loop, 100);
    if (CHECK_EQ_INT(rec_count(w, NULL), 10)) {
        for (int i = 0; i < 10; i++) {
            char expected[16];
            snprintf(expected, sizeof expected, "00:00:00.%02d", i + 1);
            CHECK_EQ_STR(rec_text(w, "time", i), expected);
        }
    }

    /* Stop on a tick: the title and the clear button change, the time does not. */
    recorder_clear(w);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    CHECK_EQ_INT(rec_count(w, NULL), 2);
    CHECK_EQ_STR(rec_text(w, "main_action_title", 0), "Resume");
    CHECK_EQ_STR(rec_text(w, "clear_action_enabled", 0), "true");

    /* Clear: time, title and clear button, once each. */
    recorder_clear(w);
    CHECK_STATUS(mvvm_stop_watch_view_model_clear_action(watch), MVVM_OK);
    CHECK_EQ_INT(rec_count(w, NULL), 3);
    CHECK_EQ_STR(rec_text(w, "time", 0), "00:00:00.00");
    CHECK_EQ_STR(rec_text(w, "main_action_title", 0), "Start");
    CHECK_EQ_STR(rec_text(w, "clear_action_enabled", 0), "false");

    /* A command through a view model: the model and the view model, once each. */
    CHECK_STATUS(mvvm_counter_view_model_increment(counter_vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(c, NULL), 1);
    CHECK_EQ_STR(rec_text(c, "count", 0), "1");
    CHECK_EQ_INT(rec_count(cvm, NULL), 1);
    CHECK_EQ_STR(rec_text(cvm, "count", 0), "1");
    CHECK_READ_BACK(w);
    CHECK_READ_BACK(c);
    CHECK_READ_BACK(cvm);

    RELEASE(s1);
    RELEASE(s2);
    RELEASE(s3);
    RELEASE(counter_vm);
    RELEASE(counter);
    RELEASE(watch);
    RELEASE(loop);
    recorder_free(w);
    recorder_free(c);
    recorder_free(cvm);
}

/* ------------------------------------------------------------------------------------------ */
/* Order, names                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct order_log {
    int count;
    int id[256];
    char name[256][32];
} order_log;

typedef struct order_subscriber {
    int id;
    order_log *log;
} order_subscriber;

static void order_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    order_subscriber *s = user_data;
    if (s->log->count < 256) {
        s->log->id[s->log->count] = s->id;
        snprintf(s->log->name[s->log->count], sizeof s->log->name[0], "%s", event->name);
    }
    s->log->count++;
}

/* The ids of the log's events named `name`, as "0 1 2". */
static void order_of(const order_log *log, const char *name, char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < log->count && i < 256; i++) {
        if (strcmp(log->name[i], name) != 0) continue;
        int n = snprintf(out + used, size - used, used ? " %d" : "%d", log->id[i]);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
}

static void subscribers_are_notified_in_subscription_order(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK)) return;
    order_log log = {0};
    order_subscriber subscribers[12];
    mvvm_handle subs[12] = {0};
    char order[256];

    /* Three subscribers into one log. */
    for (int i = 0; i < 3; i++) {
        subscribers[i] = (order_subscriber){ i, &log };
        CHECK_STATUS(mvvm_subscribe(echo, "input", order_callback, &subscribers[i], NULL, &subs[i]), MVVM_OK);
    }
    CHECK_STATUS(mvvm_set_string(echo, "input", "one"), MVVM_OK);
    order_of(&log, "input", order, sizeof order);
    CHECK_EQ_STR(order, "0 1 2");

    /* Ten, named and unnamed mixed (even ids: every property; odd: "input" only). */
    for (int i = 3; i < 10; i++) {
        subscribers[i] = (order_subscriber){ i, &log };
        CHECK_STATUS(mvvm_subscribe(echo, i % 2 ? "input" : NULL, order_callback, &subscribers[i], NULL, &subs[i]),
                     MVVM_OK);
    }
    log.count = 0;
    CHECK_STATUS(mvvm_set_string(echo, "input", "two"), MVVM_OK);
    order_of(&log, "input", order, sizeof order);
    CHECK_EQ_STR(order, "0 1 2 3 4 5 6 7 8 9");
    order_of(&log, "label", order, sizeof order);
    CHECK_EQ_STR(order, "4 6 8");

    /* Unsubscribing keeps the others' order; new subscribers come last. */
    CHECK_STATUS(mvvm_unsubscribe(subs[1]), MVVM_OK);
    CHECK_STATUS(mvvm_unsubscribe(subs[6]), MVVM_OK);
    for (int i = 10; i < 12; i++) {
        subscribers[i] = (order_subscriber){ i, &log };
        CHECK_STATUS(mvvm_subscribe(echo, NULL, order_callback, &subscribers[i], NULL, &subs[i]), MVVM_OK);
    }
    log.count = 0;
    CHECK_STATUS(mvvm_set_string(echo, "input", "three"), MVVM_OK);
    order_of(&log, "input", order, sizeof order);
    CHECK_EQ_STR(order, "0 2 3 4 5 7 8 9 10 11");
    order_of(&log, "message", order, sizeof order);
    CHECK_EQ_STR(order, "4 8 10 11");

    for (int i = 0; i < 12; i++)
        if (i != 1 && i != 6) RELEASE(subs[i]);
    RELEASE(echo);
    RELEASE(loop);
}

static void a_null_name_gets_everything_and_a_name_only_that(void) {
    mvvm_handle loop = new_virtual_loop(), welcome = 0, echo = 0;
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK);
    recorder *all_w = recorder_new(), *text_w = recorder_new(), *all_e = recorder_new(), *label_e = recorder_new();
    mvvm_handle subs[4] = { subscribe(welcome, NULL, all_w), subscribe(welcome, "on_show_text", text_w),
                            subscribe(echo, NULL, all_e), subscribe(echo, "label", label_e) };

    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(welcome), MVVM_OK);
    ADVANCE(loop, 0);
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(welcome, "A"), MVVM_OK);
    CHECK_EQ_INT(rec_count(all_w, NULL), 3);
    CHECK_EQ_INT(rec_count(all_w, "on_show_welcome"), 1);
    CHECK_EQ_INT(rec_count(all_w, "on_show_text"), 1);
    CHECK_EQ_INT(rec_count(all_w, "on_show_only_first"), 1);
    CHECK_EQ_INT(rec_count(text_w, NULL), 1);
    CHECK_EQ_STR(rec_text(text_w, "on_show_text", 0), "A show!!");

    CHECK_STATUS(mvvm_set_string(echo, "input", "q"), MVVM_OK);
    CHECK_EQ_INT(rec_count(all_e, NULL), 3);
    CHECK_EQ_INT(rec_count(all_e, "input"), 1);
    CHECK_EQ_INT(rec_count(all_e, "label"), 1);
    CHECK_EQ_INT(rec_count(all_e, "message"), 1);
    CHECK_EQ_INT(rec_count(label_e, NULL), 1);
    CHECK_EQ_STR(rec_text(label_e, "label", 0), "q");
    if (rec_count(label_e, NULL) == 1) {
        CHECK(label_e->source[0] == echo);
        CHECK(label_e->kind[0] == MVVM_EVENT_PROPERTY);
        CHECK(label_e->type[0] == MVVM_TYPE_STRING);
    }

    for (int i = 0; i < 4; i++) RELEASE(subs[i]);
    RELEASE(echo);
    RELEASE(welcome);
    RELEASE(loop);
    recorder_free(all_w);
    recorder_free(text_w);
    recorder_free(all_e);
    recorder_free(label_e);
}

/* The event's name is static: still readable after everything is released. */
static const char *saved_name;
static void save_name_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)user_data;
    saved_name = event->name;
}

static void event_names_are_static(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, sub = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, NULL, save_name_callback, NULL, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    RELEASE(sub);
    RELEASE(counter);
    RELEASE(loop);
    CHECK(saved_name != NULL);
    if (saved_name) CHECK_EQ_STR(saved_name, "count");
}

/* ------------------------------------------------------------------------------------------ */
/* Callbacks that call back in                                                                */
/* ------------------------------------------------------------------------------------------ */

typedef struct setter_context {
    const char *property;
    const char *value;
    int calls;
    mvvm_status status;
} setter_context;

/* Sets context->property to context->value (once), from inside a callback. */
static void set_other_binding_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)event;
    setter_context *c = user_data;
    if (c->calls++ == 0) c->status = mvvm_set_string(source, c->property, c->value);
}

static void a_callback_may_set_another_binding(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, s1 = 0, s2 = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    setter_context context = { "password", "set-in-a-callback", 0, MVVM_ERR_INTERNAL };
    recorder *password = recorder_new();
    password->read_back = true;
    CHECK_STATUS(mvvm_subscribe(vm, "user_id", set_other_binding_callback, &context, NULL, &s1), MVVM_OK);
    s2 = subscribe(vm, "password", password);

    CHECK_STATUS(mvvm_set_string(vm, "user_id", "abcdef"), MVVM_OK);
    CHECK_EQ_INT(context.calls, 1);
    CHECK_STATUS(context.status, MVVM_OK);
    /* The nested change was notified before the outer setter returned. */
    CHECK_EQ_INT(rec_count(password, NULL), 1);
    CHECK_EQ_STR(rec_text(password, "password", 0), "set-in-a-callback");
    CHECK_READ_BACK(password);
    CHECK_GET_STRING(vm, "password", "set-in-a-callback");
    CHECK_GET_STRING(vm, "user_id", "abcdef");

    RELEASE(s1);
    RELEASE(s2);
    RELEASE(vm);
    RELEASE(loop);
    recorder_free(password);
}

/* is_sign_up_enabled is a combineLatest of four @Published bindings. A set made inside a callback,
 * on another binding or on the combined property's own, reaches it as any set does. (A value sent
 * into a CombineLatest from inside its own delivery makes no combination, as Apple's; callbacks run
 * once the operation's change is complete, so a host's set never arrives there.) */
static void a_set_inside_a_callback_updates_is_sign_up_enabled(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, s1 = 0, s2 = 0, s3 = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    CHECK_STATUS(mvvm_set_string(vm, "user_id", "newuser"), MVVM_OK);
    CHECK_STATUS(mvvm_set_bool(vm, "agreed", true), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "other"), MVVM_OK);
    recorder *enabled = recorder_new();
    enabled->read_back = true;
    s1 = subscribe(vm, "is_sign_up_enabled", enabled);

    /* The password alone leaves the form incomplete; the confirmation set by its callback completes it. */
    setter_context confirm = { "confirm_password", "password1", 0, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(vm, "password", set_other_binding_callback, &confirm, NULL, &s2), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(vm, "password", "password1"), MVVM_OK);
    CHECK_EQ_INT(confirm.calls, 1);
    CHECK_STATUS(confirm.status, MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);
    CHECK_EQ_INT(rec_count(enabled, "is_sign_up_enabled"), 1);
    CHECK_EQ_STR(rec_text(enabled, "is_sign_up_enabled", -1), "true");

    /* A new password disables it; the callback of is_sign_up_enabled itself confirms it again. */
    setter_context reconfirm = { "confirm_password", "password2", 0, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(vm, "is_sign_up_enabled", set_other_binding_callback, &reconfirm, NULL, &s3),
                 MVVM_OK);
    CHECK_STATUS(mvvm_set_string(vm, "password", "password2"), MVVM_OK);
    CHECK_EQ_INT(reconfirm.calls, 2);
    CHECK_STATUS(reconfirm.status, MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);
    CHECK_EQ_INT(rec_count(enabled, "is_sign_up_enabled"), 3);
    CHECK_EQ_STR(rec_text(enabled, "is_sign_up_enabled", 1), "false");
    CHECK_EQ_STR(rec_text(enabled, "is_sign_up_enabled", 2), "true");
    CHECK_READ_BACK(enabled);

    RELEASE(s1);
    RELEASE(s2);
    RELEASE(s3);
    RELEASE(vm);
    RELEASE(loop);
    recorder_free(enabled);
}

typedef struct unsubscriber {
    mvvm_handle self;     /* the subscription to end at the first call */
    int calls;
    int destroyed;
    int calls_after_destroy;
    mvvm_status status;
} unsubscriber;

static void unsubscribe_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    unsubscriber *u = user_data;
    if (u->destroyed) u->calls_after_destroy++;
    if (u->calls++ == 0) u->status = mvvm_unsubscribe(u->self);
}

static void unsubscriber_destroy(void *user_data) {
    ((unsubscriber *)user_data)->destroyed++;
}

static void a_callback_may_unsubscribe_itself(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, other = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK)) return;
    unsubscriber u = { 0, 0, 0, 0, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(echo, NULL, unsubscribe_callback, &u, unsubscriber_destroy, &u.self), MVVM_OK);
    recorder *later = recorder_new();
    other = subscribe(echo, "input", later);

    CHECK_STATUS(mvvm_set_string(echo, "input", "a"), MVVM_OK);
    CHECK_EQ_INT(u.calls, 1);
    CHECK_STATUS(u.status, MVVM_OK);
    CHECK_EQ_INT(u.destroyed, 1);
    CHECK_EQ_INT(rec_count(later, NULL), 1); /* the others still hear this change */
    CHECK_STATUS(mvvm_set_string(echo, "input", "b"), MVVM_OK);
    CHECK_EQ_INT(u.calls, 1);
    CHECK_EQ_INT(u.calls_after_destroy, 0);
    CHECK_EQ_INT(rec_count(later, NULL), 2);
    CHECK_STATUS(mvvm_unsubscribe(u.self), MVVM_ERR_INVALID_HANDLE);
    CHECK_EQ_INT(u.destroyed, 1);

    RELEASE(other);
    RELEASE(echo);
    CHECK_EQ_INT(u.destroyed, 1);
    RELEASE(loop);
    recorder_free(later);
}

static void a_callback_may_unsubscribe_the_next_subscriber(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, first = 0, second = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK)) return;
    recorder *victim = recorder_new();
    unsubscriber u = { 0, 0, 0, 0, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_subscribe(echo, "input", unsubscribe_callback, &u, unsubscriber_destroy, &first), MVVM_OK);
    second = subscribe(echo, "input", victim);
    u.self = second; /* the first subscriber ends the second */

    CHECK_STATUS(mvvm_set_string(echo, "input", "a"), MVVM_OK);
    CHECK_STATUS(u.status, MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(victim), 1);
    /* Ended before its turn: not called, and never after its destroy function. */
    CHECK_EQ_INT(rec_count(victim, NULL), 0);
    CHECK_EQ_INT(victim->calls_after_destroy, 0);
    CHECK_STATUS(mvvm_set_string(echo, "input", "b"), MVVM_OK);
    CHECK_EQ_INT(rec_count(victim, NULL), 0);
    CHECK_EQ_INT(u.calls, 2);

    RELEASE(first);
    CHECK_EQ_INT(u.destroyed, 1);
    RELEASE(echo);
    RELEASE(loop);
    CHECK_EQ_INT(rec_destroyed(victim), 1);
    recorder_free(victim);
}

typedef struct releaser {
    int calls;
    int destroyed;
    int calls_after_destroy;
    mvvm_status status;
} releaser;

static void release_source_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)event;
    releaser *r = user_data;
    if (r->destroyed) r->calls_after_destroy++;
    if (r->calls++ == 0) r->status = mvvm_release(source);
}

static void releaser_destroy(void *user_data) {
    ((releaser *)user_data)->destroyed++;
}

static void a_callback_may_release_its_source(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, s_release = 0, s_label = 0, s_all = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK)) return;
    releaser r = { 0, 0, 0, MVVM_ERR_INTERNAL };
    recorder *label = recorder_new(), *all = recorder_new();
    s_label = subscribe(echo, "label", label);
    CHECK_STATUS(mvvm_subscribe(echo, NULL, release_source_callback, &r, releaser_destroy, &s_release), MVVM_OK);
    s_all = subscribe(echo, NULL, all);

    CHECK_STATUS(mvvm_set_string(echo, "input", "x"), MVVM_OK);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_STATUS(r.status, MVVM_OK);
    /* Every subscription of the object ended, each destroy function once, no call after it. */
    CHECK_EQ_INT(r.destroyed, 1);
    CHECK_EQ_INT(rec_destroyed(label), 1);
    CHECK_EQ_INT(rec_destroyed(all), 1);
    CHECK_EQ_INT(r.calls_after_destroy, 0);
    CHECK_EQ_INT(label->calls_after_destroy, 0);
    CHECK_EQ_INT(all->calls_after_destroy, 0);

    char *text = NULL;
    CHECK_STATUS(mvvm_get_string(echo, "input", &text), MVVM_ERR_INVALID_HANDLE);
    CHECK(text == NULL);
    CHECK_STATUS(mvvm_set_string(echo, "input", "y"), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(echo), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_unsubscribe(s_release), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_unsubscribe(s_label), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_unsubscribe(s_all), MVVM_ERR_INVALID_HANDLE);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_EQ_INT(r.destroyed, 1);
    CHECK_EQ_INT(rec_destroyed(label), 1);
    CHECK_EQ_INT(rec_destroyed(all), 1);

    RELEASE(loop);
    CHECK_EQ_INT(r.destroyed, 1);
    recorder_free(label);
    recorder_free(all);
}

static void a_callback_run_by_time_may_release_its_source(void) {
    mvvm_handle loop = new_virtual_loop(), watch = 0, sub = 0;
    if (!CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK)) return;
    releaser r = { 0, 0, 0, MVVM_ERR_INTERNAL };
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(watch, "time", release_source_callback, &r, releaser_destroy, &sub), MVVM_OK);
    ADVANCE(loop, 100); /* the first tick releases the stopwatch; its timer must not tick on */
    CHECK_EQ_INT(r.calls, 1);
    CHECK_STATUS(r.status, MVVM_OK);
    CHECK_EQ_INT(r.destroyed, 1);
    ADVANCE(loop, 1000);
    CHECK_EQ_INT(r.calls, 1);
    CHECK_EQ_INT(r.calls_after_destroy, 0);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_ERR_INVALID_HANDLE);
    int64_t next = -2;
    CHECK_STATUS(mvvm_loop_next_timeout_ms(loop, &next), MVVM_OK);
    RELEASE(loop);
    CHECK_EQ_INT(r.destroyed, 1);
}

typedef struct subscriber_in_callback {
    recorder *late;
    mvvm_handle subscription;
    mvvm_status status;
    int calls;
} subscriber_in_callback;

static void subscribe_in_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)event;
    subscriber_in_callback *s = user_data;
    if (s->calls++ == 0)
        s->status = mvvm_subscribe(source, "input", recorder_callback, s->late, recorder_destroy, &s->subscription);
}

static void a_callback_may_subscribe(void) {
    mvvm_handle loop = new_virtual_loop(), echo = 0, sub = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &echo), MVVM_OK)) return;
    subscriber_in_callback s = { recorder_new(), 0, MVVM_ERR_INTERNAL, 0 };
    CHECK_STATUS(mvvm_subscribe(echo, "input", subscribe_in_callback, &s, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(echo, "input", "a"), MVVM_OK);
    CHECK_STATUS(s.status, MVVM_OK);
    CHECK(s.subscription != 0);
    int before = rec_count(s.late, NULL); /* 0 or 1: the rules leave it open */
    CHECK(before == 0 || before == 1);
    CHECK_STATUS(mvvm_set_string(echo, "input", "b"), MVVM_OK);
    CHECK_EQ_INT(rec_count(s.late, NULL), before + 1);
    CHECK_EQ_STR(rec_text(s.late, "input", -1), "b");
    RELEASE(s.subscription);
    CHECK_EQ_INT(rec_destroyed(s.late), 1);
    RELEASE(sub);
    RELEASE(echo);
    RELEASE(loop);
    recorder_free(s.late);
}

/* ------------------------------------------------------------------------------------------ */
/* destroy_fn: exactly once                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void noop_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    (void)user_data;
}

static void destroy_runs_once_on_unsubscribe(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, a = 0, b = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    int destroyed_a = 0, destroyed_b = 0;
    CHECK_STATUS(mvvm_subscribe(counter, "count", noop_callback, &destroyed_a, count_destroy, &a), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, NULL, noop_callback, &destroyed_b, count_destroy, &b), MVVM_OK);
    CHECK(a != 0 && b != 0 && a != b);
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    CHECK_EQ_INT(destroyed_a, 0);

    CHECK_STATUS(mvvm_unsubscribe(a), MVVM_OK);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_STATUS(mvvm_unsubscribe(a), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(a), MVVM_ERR_INVALID_HANDLE);
    CHECK_EQ_INT(destroyed_a, 1);

    /* mvvm_release of a subscription is mvvm_unsubscribe. */
    CHECK_STATUS(mvvm_release(b), MVVM_OK);
    CHECK_EQ_INT(destroyed_b, 1);
    CHECK_STATUS(mvvm_unsubscribe(b), MVVM_ERR_INVALID_HANDLE);

    RELEASE(counter);
    RELEASE(loop);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_EQ_INT(destroyed_b, 1);

    /* No destroy function at all is fine. */
    loop = new_virtual_loop();
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, NULL, noop_callback, NULL, NULL, &a), MVVM_OK);
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    RELEASE(a);
    RELEASE(counter);
    RELEASE(loop);
}

static void destroy_runs_once_on_object_release(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, a = 0, b = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    int destroyed_a = 0, destroyed_b = 0;
    CHECK_STATUS(mvvm_subscribe(counter, "count", noop_callback, NULL, NULL, &a), MVVM_OK);
    CHECK_STATUS(mvvm_unsubscribe(a), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, "count", noop_callback, &destroyed_a, count_destroy, &a), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(counter, NULL, noop_callback, &destroyed_b, count_destroy, &b), MVVM_OK);
    RELEASE(counter);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_EQ_INT(destroyed_b, 1);
    CHECK_STATUS(mvvm_unsubscribe(a), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(b), MVVM_ERR_INVALID_HANDLE);
    RELEASE(loop);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_EQ_INT(destroyed_b, 1);
}

static void destroy_runs_once_on_loop_release(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, watch = 0, a = 0, b = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    recorder *ticks = recorder_new();
    int destroyed_a = 0;
    CHECK_STATUS(mvvm_subscribe(counter, "count", noop_callback, &destroyed_a, count_destroy, &a), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    b = subscribe(watch, "time", ticks);
    ADVANCE(loop, 50);
    CHECK_EQ_INT(rec_count(ticks, NULL), 5);

    RELEASE(loop);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_EQ_INT(rec_destroyed(ticks), 1);
    CHECK_STATUS(mvvm_unsubscribe(a), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_unsubscribe(b), MVVM_ERR_INVALID_HANDLE);
    RELEASE(counter);
    RELEASE(watch);
    CHECK_EQ_INT(destroyed_a, 1);
    CHECK_EQ_INT(rec_destroyed(ticks), 1);
    CHECK_EQ_INT(rec_count(ticks, NULL), 5);
    CHECK_EQ_INT(ticks->calls_after_destroy, 0);
    recorder_free(ticks);
}

static void destroy_runs_once_when_subscribing_fails(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    int destroyed = 0;
    mvvm_handle out = 12345;
    CHECK_STATUS(mvvm_subscribe(counter, "no_such_property", noop_callback, &destroyed, count_destroy, &out),
                 MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) > 0);
    CHECK_EQ_INT(destroyed, 1);
    CHECK_EQ_INT(out, 12345);

    destroyed = 0;
    CHECK_STATUS(mvvm_subscribe(counter, "\xff\xfe", noop_callback, &destroyed, count_destroy, &out),
                 MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(destroyed, 1);
    CHECK_EQ_INT(out, 12345);

    /* A command is not something to subscribe to. */
    destroyed = 0;
    CHECK_STATUS(mvvm_subscribe(counter, "increment", noop_callback, &destroyed, count_destroy, &out),
                 MVVM_ERR_UNKNOWN_NAME);
    CHECK_EQ_INT(destroyed, 1);

    RELEASE(counter);
    RELEASE(loop);
    CHECK_EQ_INT(destroyed, 1);
}

static void a_child_keeps_its_parent_alive(void) {
    mvvm_handle loop = new_virtual_loop(), timer = 0, vm = 0, display = 0, player = 0, sub = 0;
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_display(vm, &display), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(vm, &player), MVVM_OK);
    recorder *remaining = recorder_new();
    sub = subscribe(display, "remaining_time", remaining);
    RELEASE(vm);
    RELEASE(timer);
    CHECK_EQ_INT(rec_destroyed(remaining), 0);
    CHECK_STATUS(mvvm_get_int(timer, "count", &(int64_t){ 0 }), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_get_bool(vm, "is_show_alert", &(bool){ false }), MVVM_ERR_INVALID_HANDLE);
    /* The view model and its timer live on through the children's handles. */
    CHECK_GET_INT(display, "remaining_time", 5);
    CHECK_STATUS(mvvm_player_view_model_tapped(player, "start"), MVVM_OK);
    ADVANCE(loop, 0);
    ADVANCE(loop, 2000);
    CHECK_GET_INT(display, "remaining_time", 3);
    CHECK_EQ_INT(rec_count(remaining, NULL), 2);
    CHECK_GET_BOOL(player, "is_play_timer", true);
    RELEASE(player);
    ADVANCE(loop, 1000);
    CHECK_GET_INT(display, "remaining_time", 2);
    RELEASE(display);
    CHECK_EQ_INT(rec_destroyed(remaining), 1);
    CHECK_STATUS(mvvm_unsubscribe(sub), MVVM_ERR_INVALID_HANDLE);
    ADVANCE(loop, 5000);
    CHECK_EQ_INT(rec_count(remaining, NULL), 3);
    CHECK_EQ_INT(remaining->calls_after_destroy, 0);
    RELEASE(loop);
    CHECK_EQ_INT(rec_destroyed(remaining), 1);
    recorder_free(remaining);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(notified_only_on_a_real_change),
        CHECK_TEST(getter_inside_the_callback_returns_the_new_value),
        CHECK_TEST(a_setter_notifies_each_changed_property_once),
        CHECK_TEST(the_countdown_end_notifies_final_values_only),
        CHECK_TEST(commands_and_time_notify_once_per_instant),
        CHECK_TEST(subscribers_are_notified_in_subscription_order),
        CHECK_TEST(a_null_name_gets_everything_and_a_name_only_that),
        CHECK_TEST(event_names_are_static),
        CHECK_TEST(a_callback_may_set_another_binding),
        CHECK_TEST(a_set_inside_a_callback_updates_is_sign_up_enabled),
        CHECK_TEST(a_callback_may_unsubscribe_itself),
        CHECK_TEST(a_callback_may_unsubscribe_the_next_subscriber),
        CHECK_TEST(a_callback_may_release_its_source),
        CHECK_TEST(a_callback_run_by_time_may_release_its_source),
        CHECK_TEST(a_callback_may_subscribe),
        CHECK_TEST(destroy_runs_once_on_unsubscribe),
        CHECK_TEST(destroy_runs_once_on_object_release),
        CHECK_TEST(destroy_runs_once_on_loop_release),
        CHECK_TEST(destroy_runs_once_when_subscribing_fails),
        CHECK_TEST(a_child_keeps_its_parent_alive),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
