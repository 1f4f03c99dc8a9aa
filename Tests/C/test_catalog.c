/*
 * test_catalog.c - every class of the catalog driven through the C ABI on a virtual loop,
 * where time moves only with mvvm_loop_advance(), so every scenario is exact.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

/* "👨‍👩‍👧‍👦": one grapheme cluster of seven scalars, 25 bytes. */
#define FAMILY "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"
/* "é" as "e" and a combining acute accent: one grapheme cluster of two scalars. */
#define E_ACUTE_DECOMPOSED "e\u0301"


static int64_t now_ms(mvvm_handle loop) {
    int64_t now = -1;
    CHECK_STATUS(mvvm_loop_now_ms(loop, &now), MVVM_OK);
    return now;
}

/* ------------------------------------------------------------------------------------------ */
/* count_down_timer, timer_view_model, display_view_model, player_view_model                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct timer_screen {
    mvvm_handle loop, timer, view_model, display, player;
} timer_screen;

static bool open_timer_screen(timer_screen *s, int64_t full_count) {
    memset(s, 0, sizeof *s);
    s->loop = new_virtual_loop();
    return CHECK_STATUS(mvvm_count_down_timer_new(s->loop, full_count, &s->timer), MVVM_OK)
        && CHECK_STATUS(mvvm_timer_view_model_new(s->loop, s->timer, &s->view_model), MVVM_OK)
        && CHECK_STATUS(mvvm_timer_view_model_display(s->view_model, &s->display), MVVM_OK)
        && CHECK_STATUS(mvvm_timer_view_model_player(s->view_model, &s->player), MVVM_OK);
}

static void close_timer_screen(timer_screen *s) {
    RELEASE(s->player);
    RELEASE(s->display);
    RELEASE(s->view_model);
    RELEASE(s->timer);
    RELEASE(s->loop);
}

#define TAP(screen, action) CHECK_STATUS(mvvm_player_view_model_tapped((screen)->player, (action)), MVVM_OK)

static void timer_counts_down_five_seconds_and_alerts_once(void) {
    timer_screen s;
    if (!open_timer_screen(&s, 5)) return;
    recorder *alerts = recorder_new();
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(s.view_model, "is_show_alert", recorder_callback, alerts, recorder_destroy,
                                &subscription), MVVM_OK);

    CHECK_GET_BOOL(s.view_model, "is_show_alert", false);
    CHECK_GET_BOOL(s.player, "is_play_timer", false);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", false);
    CHECK_GET_INT(s.display, "remaining_time", 5);

    TAP(&s, "start");
    CHECK_GET_BOOL(s.timer, "is_doing", false); /* a tap acts on the next dispatch */
    ADVANCE(s.loop, 0);
    CHECK_GET_BOOL(s.timer, "is_doing", true);
    CHECK_GET_BOOL(s.player, "is_play_timer", true);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", false);

    ADVANCE(s.loop, 4999);
    CHECK_GET_INT(s.display, "remaining_time", 1);
    CHECK_GET_INT(s.timer, "count", 4);
    CHECK_GET_INT(s.timer, "remaining_time", 1);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", true);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", false);
    CHECK_EQ_INT(rec_count(alerts, NULL), 0);

    ADVANCE(s.loop, 1);
    CHECK_EQ_INT(now_ms(s.loop), 5000);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", true);
    CHECK_GET_INT(s.timer, "count", 0);
    CHECK_GET_INT(s.timer, "remaining_time", 5);
    CHECK_GET_INT(s.display, "remaining_time", 5);
    CHECK_GET_BOOL(s.timer, "is_doing", false);
    CHECK_GET_BOOL(s.player, "is_play_timer", false);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", false);
    if (CHECK_EQ_INT(rec_count(alerts, NULL), 1)) {
        CHECK(alerts->kind[0] == MVVM_EVENT_PROPERTY);
        CHECK_EQ_STR(alerts->name[0], "is_show_alert");
        CHECK(alerts->type[0] == MVVM_TYPE_BOOL);
        CHECK_EQ_STR(alerts->text[0], "true");
        CHECK(alerts->source[0] == s.view_model);
    }

    /* It stays stopped. */
    ADVANCE(s.loop, 10000);
    CHECK_GET_INT(s.timer, "count", 0);
    CHECK_GET_BOOL(s.timer, "is_doing", false);
    CHECK_EQ_INT(rec_count(alerts, NULL), 1);

    CHECK_STATUS(mvvm_unsubscribe(subscription), MVVM_OK);
    CHECK_EQ_INT(rec_destroyed(alerts), 1);
    CHECK_EQ_INT(alerts->calls_after_destroy, 0);
    close_timer_screen(&s);
    recorder_free(alerts);
}

static void timer_pause_and_resume_keep_the_count(void) {
    timer_screen s;
    if (!open_timer_screen(&s, 5)) return;
    TAP(&s, "start");
    ADVANCE(s.loop, 0);
    ADVANCE(s.loop, 2000);
    CHECK_GET_INT(s.timer, "count", 2);

    TAP(&s, "pause");
    ADVANCE(s.loop, 0);
    CHECK_GET_BOOL(s.timer, "is_doing", false);
    CHECK_GET_BOOL(s.player, "is_play_timer", false);

    ADVANCE(s.loop, 3000);
    CHECK_GET_INT(s.timer, "count", 2);
    CHECK_GET_INT(s.display, "remaining_time", 3);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", true);

    TAP(&s, "start");
    ADVANCE(s.loop, 0);
    CHECK_GET_BOOL(s.timer, "is_doing", true);
    ADVANCE(s.loop, 999);
    CHECK_GET_INT(s.timer, "count", 2);
    ADVANCE(s.loop, 1);
    CHECK_GET_INT(s.timer, "count", 3);
    CHECK_GET_INT(s.display, "remaining_time", 2);

    TAP(&s, "stop");
    ADVANCE(s.loop, 0);
    CHECK_GET_INT(s.timer, "count", 0);
    CHECK_GET_BOOL(s.timer, "is_doing", false);
    CHECK_GET_BOOL(s.player, "is_stop_enabled", false);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", false);
    close_timer_screen(&s);
}

static void timer_taps_are_throttled_keeping_the_first(void) {
    timer_screen s;
    if (!open_timer_screen(&s, 5)) return;
    TAP(&s, "start"); /* t = 0: acts on the next dispatch */
    ADVANCE(s.loop, 0);
    CHECK_GET_BOOL(s.timer, "is_doing", true);

    ADVANCE(s.loop, 300);
    TAP(&s, "pause"); /* t = 300: waits for the second to be over */
    ADVANCE(s.loop, 200);
    TAP(&s, "stop"); /* t = 500: dropped, one is waiting */
    ADVANCE(s.loop, 499);
    CHECK_EQ_INT(now_ms(s.loop), 999);
    CHECK_GET_BOOL(s.timer, "is_doing", true);

    ADVANCE(s.loop, 1); /* t = 1000: the pause acts; the tick of the first second counted */
    CHECK_GET_BOOL(s.timer, "is_doing", false);
    CHECK_GET_INT(s.timer, "count", 1);

    ADVANCE(s.loop, 5000); /* the stop was dropped: the count stays */
    CHECK_GET_INT(s.timer, "count", 1);
    CHECK_GET_BOOL(s.timer, "is_doing", false);

    /* More than a second after the last action, a tap acts on the next dispatch again. */
    TAP(&s, "stop");
    ADVANCE(s.loop, 0);
    CHECK_GET_INT(s.timer, "count", 0);
    CHECK_GET_INT(s.display, "remaining_time", 5);
    close_timer_screen(&s);
}

static void timer_display_follows_and_stop_is_enabled_after_first_tick(void) {
    timer_screen s;
    if (!open_timer_screen(&s, 5)) return;
    recorder *remaining = recorder_new();
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(s.display, "remaining_time", recorder_callback, remaining, recorder_destroy,
                                &subscription), MVVM_OK);
    int64_t value = -1;
    bool enabled = true;
    CHECK_STATUS(mvvm_display_view_model_get_remaining_time(s.display, &value), MVVM_OK);
    CHECK_EQ_INT(value, 5);

    TAP(&s, "start");
    ADVANCE(s.loop, 0);
    CHECK_STATUS(mvvm_player_view_model_get_is_stop_enabled(s.player, &enabled), MVVM_OK);
    CHECK(enabled == false);
    CHECK_EQ_INT(rec_count(remaining, NULL), 0);

    ADVANCE(s.loop, 1000);
    CHECK_STATUS(mvvm_display_view_model_get_remaining_time(s.display, &value), MVVM_OK);
    CHECK_EQ_INT(value, 4);
    CHECK_STATUS(mvvm_player_view_model_get_is_stop_enabled(s.player, &enabled), MVVM_OK);
    CHECK(enabled == true);

    ADVANCE(s.loop, 2000);
    CHECK_GET_INT(s.display, "remaining_time", 2);
    if (CHECK_EQ_INT(rec_count(remaining, "remaining_time"), 3)) {
        CHECK_EQ_STR(rec_text(remaining, NULL, 0), "4");
        CHECK_EQ_STR(rec_text(remaining, NULL, 1), "3");
        CHECK_EQ_STR(rec_text(remaining, NULL, 2), "2");
        CHECK(remaining->source[0] == s.display);
        CHECK(remaining->type[0] == MVVM_TYPE_INT);
    }
    bool playing = false;
    CHECK_STATUS(mvvm_player_view_model_get_is_play_timer(s.player, &playing), MVVM_OK);
    CHECK(playing == true);

    /* A second handle to the same child sees the same state. */
    mvvm_handle display_again = 0;
    CHECK_STATUS(mvvm_child(s.view_model, "display", &display_again), MVVM_OK);
    CHECK(display_again != 0 && display_again != s.display);
    CHECK_GET_INT(display_again, "remaining_time", 2);
    RELEASE(display_again);
    CHECK_GET_INT(s.display, "remaining_time", 2);

    RELEASE(subscription);
    CHECK_EQ_INT(rec_destroyed(remaining), 1);
    close_timer_screen(&s);
    recorder_free(remaining);
}

static void count_down_timer_typed_commands(void) {
    mvvm_handle loop = new_virtual_loop(), timer = 0;
    if (!CHECK_STATUS(mvvm_count_down_timer_new(loop, 3, &timer), MVVM_OK)) return;
    int64_t value = -1;
    bool doing = true;
    CHECK_STATUS(mvvm_count_down_timer_get_full_count(timer, &value), MVVM_OK);
    CHECK_EQ_INT(value, 3);
    CHECK_STATUS(mvvm_count_down_timer_get_count(timer, &value), MVVM_OK);
    CHECK_EQ_INT(value, 0);
    CHECK_STATUS(mvvm_count_down_timer_get_remaining_time(timer, &value), MVVM_OK);
    CHECK_EQ_INT(value, 3);
    CHECK_STATUS(mvvm_count_down_timer_get_is_doing(timer, &doing), MVVM_OK);
    CHECK(doing == false);

    /* start acts at once (no throttle on the model); start while running does nothing. */
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    CHECK_GET_BOOL(timer, "is_doing", true);
    ADVANCE(loop, 500);
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    ADVANCE(loop, 500);
    CHECK_GET_INT(timer, "count", 1);
    CHECK_GET_INT(timer, "remaining_time", 2);

    /* pause while paused does nothing. */
    CHECK_STATUS(mvvm_count_down_timer_pause(timer), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_pause(timer), MVVM_OK);
    CHECK_GET_BOOL(timer, "is_doing", false);
    ADVANCE(loop, 3000);
    CHECK_GET_INT(timer, "count", 1);

    /* reset: count 0 without starting. */
    CHECK_STATUS(mvvm_count_down_timer_reset(timer), MVVM_OK);
    CHECK_GET_INT(timer, "count", 0);
    CHECK_GET_INT(timer, "remaining_time", 3);
    CHECK_GET_BOOL(timer, "is_doing", false);

    /* stop: stops and resets. */
    CHECK_STATUS(mvvm_send(timer, "start", NULL), MVVM_OK);
    ADVANCE(loop, 2000);
    CHECK_GET_INT(timer, "count", 2);
    CHECK_STATUS(mvvm_count_down_timer_stop(timer), MVVM_OK);
    CHECK_GET_INT(timer, "count", 0);
    CHECK_GET_BOOL(timer, "is_doing", false);
    ADVANCE(loop, 2000);
    CHECK_GET_INT(timer, "count", 0);

    /* Without a view model, running out also stops and resets. */
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    ADVANCE(loop, 3000);
    CHECK_GET_INT(timer, "count", 0);
    CHECK_GET_INT(timer, "remaining_time", 3);
    CHECK_GET_BOOL(timer, "is_doing", false);
    CHECK_GET_INT(timer, "full_count", 3);

    RELEASE(timer);
    RELEASE(loop);
}

static void timer_alert_is_dismissed_by_the_view_and_raised_again(void) {
    timer_screen s;
    if (!open_timer_screen(&s, 2)) return;
    TAP(&s, "start");
    ADVANCE(s.loop, 0);
    ADVANCE(s.loop, 2000);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", true);
    CHECK_STATUS(mvvm_timer_view_model_set_is_show_alert(s.view_model, false), MVVM_OK);
    bool shown = true;
    CHECK_STATUS(mvvm_timer_view_model_get_is_show_alert(s.view_model, &shown), MVVM_OK);
    CHECK(shown == false);
    TAP(&s, "start");
    ADVANCE(s.loop, 0);
    ADVANCE(s.loop, 1999);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", false);
    ADVANCE(s.loop, 1);
    CHECK_GET_BOOL(s.view_model, "is_show_alert", true);
    close_timer_screen(&s);
}

/* ------------------------------------------------------------------------------------------ */
/* stop_watch, stop_watch_view_model                                                          */
/* ------------------------------------------------------------------------------------------ */

static void check_stop_watch_screen_quiet(mvvm_handle vm, const char *time, const char *main_title,
                                          bool main_enabled, bool clear_enabled);

/* Checks the whole stopwatch screen; a failure also names the line of this check. */
#define CHECK_SCREEN(vm, time, title, main_enabled, clear_enabled)                                   \
    do {                                                                                            \
        int before_ = check_failures;                                                               \
        check_stop_watch_screen_quiet((vm), (time), (title), (main_enabled), (clear_enabled));      \
        if (check_failures != before_) printf("    ^ in the screen checked at %s:%d\n", __FILE__, __LINE__); \
    } while (0)

static void check_stop_watch_screen_quiet(mvvm_handle vm, const char *time, const char *main_title,
                                          bool main_enabled, bool clear_enabled) {
    CHECK_GET_STRING(vm, "time", time);
    CHECK_GET_STRING(vm, "main_action_title", main_title);
    CHECK_GET_STRING(vm, "clear_action_title", "Clear");
    CHECK_GET_BOOL(vm, "main_action_enabled", main_enabled);
    CHECK_GET_BOOL(vm, "clear_action_enabled", clear_enabled);
}

static void stop_watch_view_model_starts_stops_resumes_and_clears(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &vm), MVVM_OK)) return;
    CHECK_SCREEN(vm, "00:00:00.00", "Start", true, false);

    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(vm), MVVM_OK);
    CHECK_SCREEN(vm, "00:00:00.00", "Stop", true, false);
    ADVANCE(loop, 1230);
    CHECK_SCREEN(vm, "00:00:01.23", "Stop", true, false);

    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(vm), MVVM_OK);
    CHECK_SCREEN(vm, "00:00:01.23", "Resume", true, true);
    ADVANCE(loop, 500);
    CHECK_SCREEN(vm, "00:00:01.23", "Resume", true, true);

    CHECK_STATUS(mvvm_send(vm, "main_action", NULL), MVVM_OK); /* resume */
    CHECK_SCREEN(vm, "00:00:01.23", "Stop", true, false);
    ADVANCE(loop, 770);
    CHECK_SCREEN(vm, "00:00:02.00", "Stop", true, false);

    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(vm), MVVM_OK);
    CHECK_SCREEN(vm, "00:00:02.00", "Resume", true, true);
    CHECK_STATUS(mvvm_stop_watch_view_model_clear_action(vm), MVVM_OK);
    CHECK_SCREEN(vm, "00:00:00.00", "Start", true, false);

    /* The typed getters agree. */
    char *text = NULL;
    bool flag = false;
    CHECK_STATUS(mvvm_stop_watch_view_model_get_time(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "00:00:00.00");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_stop_watch_view_model_get_main_action_title(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "Start");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_stop_watch_view_model_get_clear_action_title(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "Clear");
    mvvm_string_free(text);
    CHECK_STATUS(mvvm_stop_watch_view_model_get_main_action_enabled(vm, &flag), MVVM_OK);
    CHECK(flag == true);
    CHECK_STATUS(mvvm_stop_watch_view_model_get_clear_action_enabled(vm, &flag), MVVM_OK);
    CHECK(flag == false);

    /* Minutes and seconds. */
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(vm), MVVM_OK);
    ADVANCE(loop, 61230);
    CHECK_SCREEN(vm, "00:01:01.23", "Stop", true, false);

    RELEASE(vm);
    RELEASE(loop);
}

static void stop_watch_view_model_clear_while_running_does_nothing(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &vm), MVVM_OK)) return;
    CHECK_STATUS(mvvm_stop_watch_view_model_clear_action(vm), MVVM_OK); /* startable: nothing */
    CHECK_SCREEN(vm, "00:00:00.00", "Start", true, false);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(vm), MVVM_OK);
    ADVANCE(loop, 100);
    CHECK_STATUS(mvvm_stop_watch_view_model_clear_action(vm), MVVM_OK);
    CHECK_SCREEN(vm, "00:00:00.10", "Stop", true, false);
    ADVANCE(loop, 100);
    CHECK_SCREEN(vm, "00:00:00.20", "Stop", true, false);
    RELEASE(vm);
    RELEASE(loop);
}

#define CHECK_STATE(sw, expected)                                                    \
    do {                                                                             \
        char *state_ = NULL;                                                         \
        if (CHECK_STATUS(mvvm_stop_watch_get_state((sw), &state_), MVVM_OK))         \
            CHECK_EQ_STR(state_, (expected));                                        \
        mvvm_string_free(state_);                                                    \
    } while (0)

static void stop_watch_model_time_and_states(void) {
    mvvm_handle loop = new_virtual_loop(), sw = 0;
    if (!CHECK_STATUS(mvvm_stop_watch_new(loop, &sw), MVVM_OK)) return;
    int64_t ms = -1;
    CHECK_STATUS(mvvm_stop_watch_get_time_ms(sw, &ms), MVVM_OK);
    CHECK_EQ_INT(ms, 0);
    CHECK_STATE(sw, "startable");

    /* Only start acts when startable. */
    CHECK_STATUS(mvvm_stop_watch_stop(sw), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_resume(sw), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_clear(sw), MVVM_OK);
    CHECK_STATE(sw, "startable");
    ADVANCE(loop, 100);
    CHECK_GET_INT(sw, "time_ms", 0);

    CHECK_STATUS(mvvm_stop_watch_start(sw), MVVM_OK);
    CHECK_STATE(sw, "stoppable");
    ADVANCE(loop, 1000);
    CHECK_GET_INT(sw, "time_ms", 1000);
    /* start, resume and clear do nothing while running. */
    CHECK_STATUS(mvvm_stop_watch_start(sw), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_resume(sw), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_clear(sw), MVVM_OK);
    CHECK_STATE(sw, "stoppable");
    ADVANCE(loop, 10);
    CHECK_GET_INT(sw, "time_ms", 1010);

    CHECK_STATUS(mvvm_stop_watch_stop(sw), MVVM_OK);
    CHECK_STATE(sw, "resumable");
    CHECK_GET_STRING(sw, "state", "resumable");
    CHECK_GET_INT(sw, "time_ms", 1010);
    ADVANCE(loop, 500);
    CHECK_GET_INT(sw, "time_ms", 1010);
    CHECK_STATUS(mvvm_stop_watch_start(sw), MVVM_OK); /* not startable: nothing */
    CHECK_STATE(sw, "resumable");

    CHECK_STATUS(mvvm_stop_watch_resume(sw), MVVM_OK);
    CHECK_STATE(sw, "stoppable");
    ADVANCE(loop, 250);
    CHECK_STATUS(mvvm_stop_watch_get_time_ms(sw, &ms), MVVM_OK);
    CHECK_EQ_INT(ms, 1260);

    CHECK_STATUS(mvvm_send(sw, "stop", NULL), MVVM_OK);
    CHECK_STATUS(mvvm_send(sw, "clear", NULL), MVVM_OK);
    CHECK_STATE(sw, "startable");
    CHECK_GET_INT(sw, "time_ms", 0);
    RELEASE(sw);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* input_echo_view_model                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void input_echo_echoes_utf8_input(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_input_echo_view_model_new(loop, &vm), MVVM_OK)) return;
    CHECK_GET_STRING(vm, "input", "");
    CHECK_GET_STRING(vm, "label", "");
    CHECK_GET_STRING(vm, "message", "Your input is ''!");

    CHECK_STATUS(mvvm_input_echo_view_model_set_input(vm, "h\u00e9llo"), MVVM_OK);
    char *text = NULL;
    CHECK_STATUS(mvvm_input_echo_view_model_get_input(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "h\u00e9llo");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_input_echo_view_model_get_label(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "h\u00e9llo");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_input_echo_view_model_get_message(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "Your input is 'h\u00e9llo'!");
    mvvm_string_free(text);

    /* The generic setter, emoji, and the input string copied (the caller keeps ownership). */
    char buffer[64];
    snprintf(buffer, sizeof buffer, "%s!", FAMILY);
    CHECK_STATUS(mvvm_set_string(vm, "input", buffer), MVVM_OK);
    memset(buffer, 'x', sizeof buffer - 1);
    buffer[sizeof buffer - 1] = '\0';
    CHECK_GET_STRING(vm, "label", FAMILY "!");
    CHECK_GET_STRING(vm, "message", "Your input is '" FAMILY "!'!");

    CHECK_STATUS(mvvm_set_string(vm, "input", ""), MVVM_OK);
    CHECK_GET_STRING(vm, "label", "");
    CHECK_GET_STRING(vm, "message", "Your input is ''!");
    RELEASE(vm);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* sign_up_view_model                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void sign_up_enabled_only_at_the_boundaries(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    bool enabled = true;
    CHECK_STATUS(mvvm_sign_up_view_model_get_is_sign_up_enabled(vm, &enabled), MVVM_OK);
    CHECK(enabled == false);
    CHECK_GET_STRING(vm, "user_id", "");
    CHECK_GET_BOOL(vm, "agreed", false);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);

    fill_sign_up(vm, "abcdef", "12345678", "12345678", true);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);

    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, "abcde"), MVVM_OK); /* 5 */
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, "abcdef"), MVVM_OK); /* 6 */
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);

    CHECK_STATUS(mvvm_set_string(vm, "password", "1234567"), MVVM_OK); /* 7 */
    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "1234567"), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_set_string(vm, "password", "12345678"), MVVM_OK); /* 8, confirm differs */
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "12345678"), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);

    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "12345679"), MVVM_OK); /* mismatch */
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_set_string(vm, "confirm_password", "12345678"), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);

    CHECK_STATUS(mvvm_set_bool(vm, "agreed", false), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_sign_up_view_model_set_agreed(vm, true), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);

    char *text = NULL;
    CHECK_STATUS(mvvm_sign_up_view_model_get_user_id(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "abcdef");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_sign_up_view_model_get_password(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "12345678");
    mvvm_string_free(text);
    text = NULL;
    CHECK_STATUS(mvvm_sign_up_view_model_get_confirm_password(vm, &text), MVVM_OK);
    CHECK_EQ_STR(text, "12345678");
    mvvm_string_free(text);
    bool agreed = false;
    CHECK_STATUS(mvvm_sign_up_view_model_get_agreed(vm, &agreed), MVVM_OK);
    CHECK(agreed == true);
    RELEASE(vm);
    RELEASE(loop);
}

static void sign_up_counts_grapheme_clusters(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    fill_sign_up(vm, FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY, "12345678", "12345678", true);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true); /* 6 characters, 150 bytes */
    CHECK_GET_STRING(vm, "user_id", FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY);
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, FAMILY FAMILY FAMILY FAMILY FAMILY), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false); /* 5 characters, 125 bytes */

    /* Combining sequences count once: 5 "é" + "a" is 6 characters. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED
                                                         E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED "a"), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED
                                                         E_ACUTE_DECOMPOSED E_ACUTE_DECOMPOSED), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);

    /* Passwords too: 7 family emoji are 7 characters, 8 are enough. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_user_id(vm, "abcdef"), MVVM_OK);
    const char *seven = FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY;
    const char *eight = FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY FAMILY;
    CHECK_STATUS(mvvm_sign_up_view_model_set_password(vm, seven), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_set_confirm_password(vm, seven), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", false);
    CHECK_STATUS(mvvm_sign_up_view_model_set_password(vm, eight), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_set_confirm_password(vm, eight), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_sign_up_enabled", true);
    RELEASE(vm);
    RELEASE(loop);
}

static void sign_up_tapped_with_the_built_in_service(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &vm), MVVM_OK)) return;
    /* Disabled: tapping does nothing. */
    fill_sign_up(vm, "abcdef", "12345678", "12345678", false);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);
    CHECK_STATUS(mvvm_send(vm, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);

    /* Enabled: the built-in service answers at once with success. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_agreed(vm, true), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    bool presented = false;
    CHECK_STATUS(mvvm_sign_up_view_model_get_is_completion_alert_presented(vm, &presented), MVVM_OK);
    CHECK(presented == true);

    /* The view dismisses it. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_is_completion_alert_presented(vm, false), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);
    RELEASE(vm);
    RELEASE(loop);
}

/* A host sign-up service that records its requests and, if told to, answers at once. */
#define SERVICE_MAX 8
typedef struct service_log {
    int calls;
    mvvm_handle view_model[SERVICE_MAX];
    mvvm_handle request[SERVICE_MAX];
    int argument_type[SERVICE_MAX]; /* -1: NULL argument */
    char argument[SERVICE_MAX][200];
    char password[SERVICE_MAX][64];
    char request_class[SERVICE_MAX][32];
    bool answer_at_once;
    mvvm_value answer;
    mvvm_status answer_status;
    int destroyed;
} service_log;

static void service_request(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    service_log *log = user_data;
    int i = log->calls++;
    if (i >= SERVICE_MAX) return;
    log->view_model[i] = view_model;
    log->request[i] = request;
    log->argument_type[i] = argument ? (int)argument->type : -1;
    if (argument) value_to_text(argument, log->argument[i], sizeof log->argument[i]);
    char *password = NULL;
    if (mvvm_get_string(view_model, "password", &password) == MVVM_OK)
        snprintf(log->password[i], sizeof log->password[i], "%s", password);
    else
        snprintf(log->password[i], sizeof log->password[i], "(get failed: %s)", mvvm_last_error());
    mvvm_string_free(password);
    const char *class_name = NULL;
    if (mvvm_class_name(request, &class_name) == MVVM_OK && class_name)
        snprintf(log->request_class[i], sizeof log->request_class[i], "%s", class_name);
    if (log->answer_at_once) log->answer_status = mvvm_complete(request, &log->answer);
}

static void service_destroy(void *user_data) {
    ((service_log *)user_data)->destroyed++;
}

static void sign_up_with_a_host_service(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    service_log log = {0};
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        return;
    recorder *alerts = recorder_new();
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(vm, "is_completion_alert_presented", recorder_callback, alerts, recorder_destroy,
                                &subscription), MVVM_OK);

    fill_sign_up(vm, "abcdef", "password1", "password1", true);
    CHECK_EQ_INT(log.calls, 0);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 1)) goto done;
    CHECK(log.view_model[0] == vm);
    CHECK(log.request[0] != 0);
    CHECK_EQ_INT(log.argument_type[0], MVVM_TYPE_STRING);
    CHECK_EQ_STR(log.argument[0], "abcdef");
    CHECK_EQ_STR(log.password[0], "password1");
    CHECK_EQ_STR(log.request_class[0], "request");
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false); /* not answered yet */
    ADVANCE(loop, 1000);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);

    mvvm_value yes = value_bool(true), no = value_bool(false), one = value_int(1), text = value_string("yes");
    CHECK_STATUS(mvvm_complete(log.request[0], &yes), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", true);
    CHECK_EQ_INT(rec_count(alerts, NULL), 1);
    CHECK_EQ_STR(rec_text(alerts, NULL, 0), "true");
    CHECK_STATUS(mvvm_complete(log.request[0], &yes), MVVM_ERR_UNKNOWN_REQUEST);
    CHECK(strlen(mvvm_last_error()) > 0);

    /* A failed answer, after answers of the wrong type, which leave the request open. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_is_completion_alert_presented(vm, false), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 2)) goto done;
    CHECK(log.request[1] != 0 && log.request[1] != log.request[0]);
    CHECK_STATUS(mvvm_complete(log.request[1], &one), MVVM_ERR_TYPE_MISMATCH);
    CHECK(strlen(mvvm_last_error()) > 0);
    CHECK_STATUS(mvvm_complete(log.request[1], &text), MVVM_ERR_TYPE_MISMATCH);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);
    CHECK_STATUS(mvvm_complete(log.request[1], &no), MVVM_OK);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);
    CHECK_STATUS(mvvm_complete(log.request[1], &yes), MVVM_ERR_UNKNOWN_REQUEST);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);

    /* Disabled: no request. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_agreed(vm, false), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    CHECK_EQ_INT(log.calls, 2);

    /* A service may answer inside the request call. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_agreed(vm, true), MVVM_OK);
    log.answer_at_once = true;
    log.answer = yes;
    log.answer_status = MVVM_ERR_INTERNAL;
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    CHECK_EQ_INT(log.calls, 3);
    CHECK_STATUS(log.answer_status, MVVM_OK);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", true);

done:
    CHECK_EQ_INT(log.destroyed, 0);
    RELEASE(subscription);
    RELEASE(vm);
    CHECK_EQ_INT(log.destroyed, 1);
    RELEASE(loop);
    CHECK_EQ_INT(log.destroyed, 1);
    recorder_free(alerts);
}

static void sign_up_request_of_a_released_view_model_is_unknown(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    service_log log = {0};
    mvvm_value yes = value_bool(true);
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        return;
    fill_sign_up(vm, "abcdef", "password1", "password1", true);

    /* A request the host releases is cancelled: answering it later is an error. */
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 1)) goto done;
    CHECK_STATUS(mvvm_release(log.request[0]), MVVM_OK);
    CHECK_STATUS(mvvm_complete(log.request[0], &yes), MVVM_ERR_UNKNOWN_REQUEST);
    CHECK(strlen(mvvm_last_error()) > 0);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);

    /* A request pending when its view model is released. */
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 2)) goto done;
    CHECK_EQ_INT(log.destroyed, 0);
done:
    RELEASE(vm);
    CHECK_EQ_INT(log.destroyed, 1);
    if (log.calls == 2) {
        CHECK_STATUS(mvvm_complete(log.request[1], &yes), MVVM_ERR_UNKNOWN_REQUEST);
        CHECK(strlen(mvvm_last_error()) > 0);
    }
    RELEASE(loop);
    CHECK_EQ_INT(log.destroyed, 1);
}

typedef struct completer {
    mvvm_handle request, view_model;
    mvvm_status status;
    bool presented_when_returned;
    mvvm_status get_status;
    pthread_t thread;
} completer;

static void *complete_on_a_thread(void *arg) {
    completer *c = arg;
    c->thread = pthread_self();
    mvvm_value yes = value_bool(true);
    c->status = mvvm_complete(c->request, &yes);
    c->get_status = mvvm_get_bool(c->view_model, "is_completion_alert_presented", &c->presented_when_returned);
    return NULL;
}

static void sign_up_request_completed_from_another_thread(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0;
    service_log log = {0};
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        return;
    recorder *alerts = recorder_new();
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(vm, "is_completion_alert_presented", recorder_callback, alerts, recorder_destroy,
                                &subscription), MVVM_OK);
    fill_sign_up(vm, "abcdef", "password1", "password1", true);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (CHECK_EQ_INT(log.calls, 1)) {
        completer c = { .request = log.request[0], .view_model = vm, .status = MVVM_ERR_INTERNAL,
                        .get_status = MVVM_ERR_INTERNAL };
        pthread_t thread;
        if (CHECK(pthread_create(&thread, NULL, complete_on_a_thread, &c) == 0)) {
            pthread_join(thread, NULL);
            CHECK_STATUS(c.status, MVVM_OK);
            CHECK_STATUS(c.get_status, MVVM_OK);
            CHECK(c.presented_when_returned == true);
            CHECK_GET_BOOL(vm, "is_completion_alert_presented", true);
            if (CHECK_EQ_INT(rec_count(alerts, NULL), 1)) {
                CHECK_EQ_STR(alerts->text[0], "true");
                /* Notified on the completing thread, before mvvm_complete returned. */
                CHECK(pthread_equal(alerts->thread[0], c.thread));
            }
        }
    }
    RELEASE(subscription);
    RELEASE(vm);
    CHECK_EQ_INT(log.destroyed, 1);
    RELEASE(loop);
    recorder_free(alerts);
}

static void *complete_soon_on_a_thread(void *arg) {
    completer *c = arg;
    c->thread = pthread_self();
    mvvm_value yes = value_bool(true);
    c->status = mvvm_complete_soon(c->request, &yes);
    c->get_status = mvvm_get_bool(c->view_model, "is_completion_alert_presented", &c->presented_when_returned);
    return NULL;
}

/* mvvm_complete_soon answers as work of the loop: on a virtual loop at the next advance, on the
 * advancing thread; the request is checked at once and cannot be answered twice. */
static void sign_up_request_completed_soon_from_another_thread(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, subscription = 0;
    service_log log = {0};
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        return;
    recorder *alerts = recorder_new();
    CHECK_STATUS(mvvm_subscribe(vm, "is_completion_alert_presented", recorder_callback, alerts, recorder_destroy,
                                &subscription), MVVM_OK);
    fill_sign_up(vm, "abcdef", "password1", "password1", true);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    mvvm_value yes = value_bool(true), one = value_int(1);
    if (!CHECK_EQ_INT(log.calls, 1)) goto done;
    CHECK_STATUS(mvvm_complete_soon(log.request[0], &one), MVVM_ERR_TYPE_MISMATCH);
    CHECK_STATUS(mvvm_complete_soon(log.request[0], NULL), MVVM_ERR_NULL_POINTER);
    CHECK_STATUS(mvvm_complete_soon(0, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete_soon(vm, &yes), MVVM_ERR_WRONG_TYPE);
    completer c = { .request = log.request[0], .view_model = vm, .status = MVVM_ERR_INTERNAL,
                    .get_status = MVVM_ERR_INTERNAL };
    pthread_t thread;
    if (!CHECK(pthread_create(&thread, NULL, complete_soon_on_a_thread, &c) == 0)) goto done;
    pthread_join(thread, NULL);
    CHECK_STATUS(c.status, MVVM_OK);
    CHECK_STATUS(c.get_status, MVVM_OK);
    CHECK(c.presented_when_returned == false);       /* not applied on the worker */
    CHECK_EQ_INT(rec_count(alerts, NULL), 0);
    CHECK_STATUS(mvvm_complete(log.request[0], &yes), MVVM_ERR_UNKNOWN_REQUEST);  /* answered */
    CHECK_STATUS(mvvm_complete_soon(log.request[0], &yes), MVVM_ERR_UNKNOWN_REQUEST);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", true);
    if (CHECK_EQ_INT(rec_count(alerts, NULL), 1)) CHECK(pthread_equal(alerts->thread[0], pthread_self()));
    CHECK_STATUS(mvvm_complete_soon(log.request[0], &yes), MVVM_ERR_UNKNOWN_REQUEST);

    /* Cancelled before the loop runs the answer: it is dropped. */
    CHECK_STATUS(mvvm_sign_up_view_model_set_is_completion_alert_presented(vm, false), MVVM_OK);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 2)) goto done;
    CHECK_STATUS(mvvm_complete_soon(log.request[1], &yes), MVVM_OK);
    CHECK_STATUS(mvvm_release(log.request[1]), MVVM_OK);
    ADVANCE(loop, 0);
    CHECK_GET_BOOL(vm, "is_completion_alert_presented", false);
done:
    RELEASE(subscription);
    RELEASE(vm);
    CHECK_EQ_INT(log.destroyed, 1);
    RELEASE(loop);
    recorder_free(alerts);
}

/* On a thread loop the answer is applied, and notified, on the loop's own thread. */
static void sign_up_request_completed_soon_runs_on_a_thread_loops_thread(void) {
    mvvm_handle loop = 0, vm = 0, subscription = 0;
    service_log log = {0};
    if (!CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &loop), MVVM_OK)) return;
    if (!CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        goto done;
    recorder *alerts = recorder_new();
    CHECK_STATUS(mvvm_subscribe(vm, "is_completion_alert_presented", recorder_callback, alerts, recorder_destroy,
                                &subscription), MVVM_OK);
    fill_sign_up(vm, "abcdef", "password1", "password1", true);
    CHECK_STATUS(mvvm_sign_up_view_model_sign_up_tapped(vm), MVVM_OK);
    mvvm_value yes = value_bool(true);
    if (CHECK_EQ_INT(log.calls, 1)) {
        CHECK_STATUS(mvvm_complete_soon(log.request[0], &yes), MVVM_OK);
        int64_t deadline = check_now_ms() + 10000;
        while (rec_count(alerts, NULL) == 0 && check_now_ms() < deadline) check_sleep_ms(1);
        if (CHECK_EQ_INT(rec_count(alerts, NULL), 1)) {
            CHECK_EQ_STR(rec_text(alerts, NULL, 0), "true");
            CHECK(!pthread_equal(alerts->thread[0], pthread_self()));
        }
    }
    RELEASE(subscription);
    RELEASE(vm);
    recorder_free(alerts);
done:
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* welcome_view_model                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void welcome_shows_the_welcome_after_a_dispatch_and_text_on_taps(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, subscription = 0;
    if (!CHECK_STATUS(mvvm_welcome_view_model_new(loop, &vm), MVVM_OK)) return;
    recorder *all = recorder_new();
    CHECK_STATUS(mvvm_subscribe(vm, NULL, recorder_callback, all, recorder_destroy, &subscription), MVVM_OK);

    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(all, "on_show_welcome"), 0);
    ADVANCE(loop, 0);
    if (CHECK_EQ_INT(rec_count(all, "on_show_welcome"), 1)) {
        int i = rec_index(all, "on_show_welcome", 0);
        CHECK(all->kind[i] == MVVM_EVENT_SIGNAL);
        CHECK(all->type[i] == MVVM_TYPE_STRING);
        CHECK_EQ_STR(all->text[i], "Welcome!");
        CHECK(all->source[i] == vm);
    }

    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, "A"), MVVM_OK);
    if (CHECK_EQ_INT(rec_count(all, "on_show_text"), 1)) {
        int i = rec_index(all, "on_show_text", 0);
        CHECK(all->kind[i] == MVVM_EVENT_SIGNAL);
        CHECK(all->type[i] == MVVM_TYPE_STRING);
        CHECK_EQ_STR(all->text[i], "A show!!");
    }
    mvvm_value b = value_string("B");
    CHECK_STATUS(mvvm_send(vm, "tap_button", &b), MVVM_OK);
    CHECK_EQ_STR(rec_text(all, "on_show_text", -1), "B show!!");
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, ""), MVVM_OK);
    CHECK_EQ_STR(rec_text(all, "on_show_text", -1), " show!!");
    CHECK_EQ_INT(rec_count(all, "on_show_text"), 3);

    /* Two loads at one instant: two signals, never merged. */
    CHECK_STATUS(mvvm_send(vm, "view_did_load", NULL), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(all, "on_show_welcome"), 1);
    ADVANCE(loop, 0);
    CHECK_EQ_INT(rec_count(all, "on_show_welcome"), 3);
    CHECK_EQ_INT(rec_count_text(all, "on_show_welcome", "Welcome!"), 3);

    RELEASE(subscription);
    CHECK_EQ_INT(rec_destroyed(all), 1);
    RELEASE(vm);
    RELEASE(loop);
    recorder_free(all);
}

static void welcome_only_first_pairs_loads_with_taps_like_zip(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, subscription = 0;
    if (!CHECK_STATUS(mvvm_welcome_view_model_new(loop, &vm), MVVM_OK)) return;
    recorder *only_first = recorder_new();
    CHECK_STATUS(mvvm_subscribe(vm, "on_show_only_first", recorder_callback, only_first, recorder_destroy,
                                &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, "early"), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 0);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 1);
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, "again"), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, "and again"), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 1);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 2);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 3);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 3);
    CHECK_STATUS(mvvm_welcome_view_model_tap_button(vm, "pairs the fourth load"), MVVM_OK);
    CHECK_EQ_INT(rec_count(only_first, NULL), 4);
    ADVANCE(loop, 0); /* the welcomes of the loads arrive; they are not this signal */
    CHECK_EQ_INT(rec_count(only_first, NULL), 4);
    CHECK_EQ_INT(rec_count(only_first, "on_show_only_first"), 4);
    if (rec_count(only_first, NULL) > 0) {
        CHECK(only_first->kind[0] == MVVM_EVENT_SIGNAL);
        CHECK(only_first->type[0] == MVVM_TYPE_NONE);
    }
    RELEASE(subscription);
    RELEASE(vm);
    RELEASE(loop);
    recorder_free(only_first);
}

static void welcome_with_a_host_api(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, subscription = 0;
    service_log log = {0};
    if (!CHECK_STATUS(mvvm_welcome_view_model_new_with_api(loop, service_request, &log, service_destroy, &vm),
                      MVVM_OK))
        return;
    recorder *welcomes = recorder_new();
    CHECK_STATUS(mvvm_subscribe(vm, "on_show_welcome", recorder_callback, welcomes, recorder_destroy, &subscription),
                 MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 1)) goto done;
    CHECK(log.view_model[0] == vm);
    CHECK_EQ_INT(log.argument_type[0], MVVM_TYPE_NONE);
    CHECK_EQ_STR(log.request_class[0], "request");
    ADVANCE(loop, 0);
    CHECK_EQ_INT(rec_count(welcomes, NULL), 0); /* not answered yet */

    mvvm_value hi = value_string("Hi"), wrong = value_bool(true), hello = value_string("Hello again");
    CHECK_STATUS(mvvm_complete(log.request[0], &wrong), MVVM_ERR_TYPE_MISMATCH);
    CHECK_EQ_INT(rec_count(welcomes, NULL), 0);
    CHECK_STATUS(mvvm_complete(log.request[0], &hi), MVVM_OK);
    if (CHECK_EQ_INT(rec_count(welcomes, NULL), 1)) {
        CHECK_EQ_STR(welcomes->text[0], "Hi");
        CHECK(welcomes->type[0] == MVVM_TYPE_STRING);
    }
    CHECK_STATUS(mvvm_complete(log.request[0], &hi), MVVM_ERR_UNKNOWN_REQUEST);

    /* Every load asks again. */
    CHECK_STATUS(mvvm_welcome_view_model_view_did_load(vm), MVVM_OK);
    if (!CHECK_EQ_INT(log.calls, 2)) goto done;
    CHECK_STATUS(mvvm_complete(log.request[1], &hello), MVVM_OK);
    CHECK_EQ_INT(rec_count(welcomes, NULL), 2);
    CHECK_EQ_STR(rec_text(welcomes, NULL, -1), "Hello again");
done:
    RELEASE(subscription);
    CHECK_EQ_INT(log.destroyed, 0);
    RELEASE(vm);
    CHECK_EQ_INT(log.destroyed, 1);
    RELEASE(loop);
    recorder_free(welcomes);
}

/* ------------------------------------------------------------------------------------------ */
/* counter, random_counter, counter_view_model, counter_page_view_model                       */
/* ------------------------------------------------------------------------------------------ */

static void counter_view_models_over_one_counter_stay_in_step(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, first = 0, second = 0;
    if (!CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK)) return;
    CHECK_STATUS(mvvm_counter_view_model_new(loop, counter, &first), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_new(loop, counter, &second), MVVM_OK);
    char *label = NULL;
    CHECK_STATUS(mvvm_counter_view_model_get_label(first, &label), MVVM_OK);
    CHECK_EQ_STR(label, "Counter");
    mvvm_string_free(label);
    CHECK_GET_STRING(second, "label", "Counter");
    CHECK_GET_STRING(first, "count", "0");

    CHECK_STATUS(mvvm_counter_view_model_increment(first), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_increment(first), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_decrement(second), MVVM_OK);
    CHECK_GET_STRING(first, "count", "1");
    CHECK_GET_STRING(second, "count", "1");
    CHECK_STATUS(mvvm_send(second, "decrement", NULL), MVVM_OK);
    CHECK_STATUS(mvvm_counter_view_model_decrement(second), MVVM_OK);
    char *count = NULL;
    CHECK_STATUS(mvvm_counter_view_model_get_count(first, &count), MVVM_OK);
    CHECK_EQ_STR(count, "-1");
    mvvm_string_free(count);
    int64_t value = 99;
    CHECK_STATUS(mvvm_counter_get_count(counter, &value), MVVM_OK);
    CHECK_EQ_INT(value, -1);

    /* The model's own commands reach both view models. */
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_increment(counter), MVVM_OK);
    CHECK_STATUS(mvvm_counter_decrement(counter), MVVM_OK);
    CHECK_GET_INT(counter, "count", 1);
    CHECK_GET_STRING(first, "count", "1");
    CHECK_GET_STRING(second, "count", "1");

    RELEASE(first);
    CHECK_STATUS(mvvm_counter_view_model_increment(second), MVVM_OK);
    CHECK_GET_STRING(second, "count", "2");
    RELEASE(second);
    RELEASE(counter);
    RELEASE(loop);
}

static void draw_random_counts(mvvm_handle loop, uint64_t seed, int64_t counts[20]) {
    mvvm_handle counter = 0;
    for (int i = 0; i < 20; i++) counts[i] = -1;
    if (!CHECK_STATUS(mvvm_random_counter_new(loop, seed, &counter), MVVM_OK)) return;
    CHECK_GET_INT(counter, "count", 0);
    for (int i = 0; i < 20; i++) {
        CHECK_STATUS(i % 2 == 0 ? mvvm_random_counter_increment(counter) : mvvm_random_counter_decrement(counter),
                     MVVM_OK);
        CHECK_STATUS(mvvm_random_counter_get_count(counter, &counts[i]), MVVM_OK);
    }
    RELEASE(counter);
}

static void random_counter_repeats_its_sequence_for_a_seed(void) {
    mvvm_handle loop = new_virtual_loop();
    int64_t first[20], again[20], other[20];
    draw_random_counts(loop, 42, first);
    draw_random_counts(loop, 42, again);
    draw_random_counts(loop, 43, other);
    bool same = true, differs = false;
    int in_range = 0, distinct = 0;
    for (int i = 0; i < 20; i++) {
        if (first[i] != again[i]) same = false;
        if (first[i] != other[i]) differs = true;
        if (first[i] >= 1 && first[i] <= 10) in_range++;
        bool seen = false;
        for (int j = 0; j < i; j++)
            if (first[j] == first[i]) seen = true;
        if (!seen) distinct++;
    }
    CHECK(same);
    CHECK(differs);
    CHECK_EQ_INT(in_range, 20);
    CHECK(distinct >= 4);
    if (!same || in_range != 20) {
        printf("    seed 42: ");
        for (int i = 0; i < 20; i++) printf("%" PRId64 " ", first[i]);
        printf("\n    again:   ");
        for (int i = 0; i < 20; i++) printf("%" PRId64 " ", again[i]);
        printf("\n");
    }
    RELEASE(loop);
}

static void counter_view_model_over_a_random_counter(void) {
    mvvm_handle loop = new_virtual_loop(), model = 0, vm = 0;
    int64_t expected[20];
    draw_random_counts(loop, 42, expected);
    if (!CHECK_STATUS(mvvm_random_counter_new(loop, 42, &model), MVVM_OK)) return;
    CHECK_STATUS(mvvm_counter_view_model_new(loop, model, &vm), MVVM_OK);
    CHECK_GET_STRING(vm, "label", "Random Counter");
    CHECK_GET_STRING(vm, "count", "0");
    for (int i = 0; i < 20; i++) {
        char text[32];
        snprintf(text, sizeof text, "%" PRId64, expected[i]);
        CHECK_STATUS(i % 2 == 0 ? mvvm_counter_view_model_increment(vm) : mvvm_counter_view_model_decrement(vm),
                     MVVM_OK);
        CHECK_GET_STRING(vm, "count", text);
        CHECK_GET_INT(model, "count", expected[i]);
    }
    RELEASE(vm);
    RELEASE(model);
    RELEASE(loop);
}

static void counter_page_has_a_read_me_and_two_counters(void) {
    mvvm_handle loop = new_virtual_loop(), page = 0, first = 0, second = 0, second_again = 0, random = 0;
    if (!CHECK_STATUS(mvvm_counter_page_view_model_new_with_seed(loop, 7, &page), MVVM_OK)) return;
    char *read_me = NULL;
    if (CHECK_STATUS(mvvm_counter_page_view_model_get_read_me(page, &read_me), MVVM_OK)) {
        CHECK(read_me != NULL && strlen(read_me) > 0);
        mvvm_string_free(read_me);
    }
    CHECK_STATUS(mvvm_counter_page_view_model_first_counter(page, &first), MVVM_OK);
    CHECK_STATUS(mvvm_counter_page_view_model_second_counter(page, &second), MVVM_OK);
    CHECK_STATUS(mvvm_child(page, "second_counter", &second_again), MVVM_OK);
    CHECK_GET_STRING(first, "label", "Counter");
    CHECK_GET_STRING(second, "label", "Random Counter");
    CHECK_GET_STRING(first, "count", "0");
    CHECK_GET_STRING(second, "count", "0");
    const char *class_name = NULL;
    CHECK_STATUS(mvvm_class_name(first, &class_name), MVVM_OK);
    CHECK_EQ_STR(class_name, "counter_view_model");
    CHECK_STATUS(mvvm_class_name(page, &class_name), MVVM_OK);
    CHECK_EQ_STR(class_name, "counter_page_view_model");

    CHECK_STATUS(mvvm_counter_view_model_increment(first), MVVM_OK);
    CHECK_GET_STRING(first, "count", "1");
    /* The second counter draws as a random_counter seeded with 7 does. */
    CHECK_STATUS(mvvm_counter_view_model_increment(second), MVVM_OK);
    CHECK_STATUS(mvvm_random_counter_new(loop, 7, &random), MVVM_OK);
    CHECK_STATUS(mvvm_random_counter_increment(random), MVVM_OK);
    int64_t drawn = -1;
    CHECK_STATUS(mvvm_random_counter_get_count(random, &drawn), MVVM_OK);
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, drawn);
    CHECK_GET_STRING(second, "count", text);
    CHECK_GET_STRING(second_again, "count", text); /* another handle to the same child */

    RELEASE(random);
    RELEASE(second_again);
    RELEASE(second);
    RELEASE(first);
    RELEASE(page);

    /* Seeded from the system: still a page of a counter and a random counter. */
    if (CHECK_STATUS(mvvm_counter_page_view_model_new(loop, &page), MVVM_OK)) {
        CHECK_STATUS(mvvm_counter_page_view_model_second_counter(page, &second), MVVM_OK);
        CHECK_GET_STRING(second, "label", "Random Counter");
        CHECK_STATUS(mvvm_counter_view_model_increment(second), MVVM_OK);
        char *count = NULL;
        if (CHECK_STATUS(mvvm_get_string(second, "count", &count), MVVM_OK)) {
            int n = atoi(count);
            CHECK(n >= 1 && n <= 10);
            mvvm_string_free(count);
        }
        RELEASE(second);
        RELEASE(page);
    }
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* describe, snapshot                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void check_json_contains(const char *json, const char *needle, const char *file, int line) {
    if (json && strstr(json, needle)) return;
    check_fail_header(file, line);
    printf("JSON lacks %s: %s\n", needle, json ? json : "NULL");
    check_fail_footer();
}
#define CHECK_JSON_CONTAINS(json, needle) check_json_contains((json), (needle), __FILE__, __LINE__)

static void check_json_has(const char *json, const char *key, const char *value, const char *file, int line) {
    if (json_has(json, key, value)) return;
    check_fail_header(file, line);
    printf("JSON lacks \"%s\": %s in %s\n", key, value, json ? json : "NULL");
    check_fail_footer();
}
#define CHECK_JSON_HAS(json, key, value) check_json_has((json), (key), (value), __FILE__, __LINE__)

static void describe_and_snapshot_give_json_with_names_and_values(void) {
    mvvm_handle loop = new_virtual_loop(), sign_up = 0, timer = 0, timer_vm = 0, player = 0, welcome = 0, watch = 0;
    char *json = NULL;
    CHECK_STATUS(mvvm_sign_up_view_model_new(loop, &sign_up), MVVM_OK);
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &timer_vm), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_player(timer_vm, &player), MVVM_OK);
    CHECK_STATUS(mvvm_welcome_view_model_new(loop, &welcome), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);

    if (CHECK_STATUS(mvvm_describe(sign_up, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "class", "\"sign_up_view_model\"");
        CHECK_JSON_CONTAINS(json, "\"properties\"");
        CHECK_JSON_CONTAINS(json, "\"user_id\"");
        CHECK_JSON_CONTAINS(json, "\"password\"");
        CHECK_JSON_CONTAINS(json, "\"confirm_password\"");
        CHECK_JSON_CONTAINS(json, "\"agreed\"");
        CHECK_JSON_CONTAINS(json, "\"is_completion_alert_presented\"");
        CHECK_JSON_CONTAINS(json, "\"is_sign_up_enabled\"");
        CHECK_JSON_CONTAINS(json, "\"sign_up_tapped\"");
        CHECK_JSON_CONTAINS(json, "\"rw\"");
        CHECK_JSON_CONTAINS(json, "\"ro\"");
        CHECK_JSON_CONTAINS(json, "\"string\"");
        CHECK_JSON_CONTAINS(json, "\"bool\"");
        mvvm_string_free(json);
        json = NULL;
    }
    CHECK_STATUS(mvvm_set_string(sign_up, "user_id", "abc"), MVVM_OK);
    if (CHECK_STATUS(mvvm_snapshot(sign_up, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "user_id", "\"abc\"");
        CHECK_JSON_HAS(json, "password", "\"\"");
        CHECK_JSON_HAS(json, "agreed", "false");
        CHECK_JSON_HAS(json, "is_sign_up_enabled", "false");
        CHECK_JSON_HAS(json, "is_completion_alert_presented", "false");
        mvvm_string_free(json);
        json = NULL;
    }

    if (CHECK_STATUS(mvvm_describe(timer, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "class", "\"count_down_timer\"");
        CHECK_JSON_CONTAINS(json, "\"full_count\"");
        CHECK_JSON_CONTAINS(json, "\"remaining_time\"");
        CHECK_JSON_CONTAINS(json, "\"is_doing\"");
        CHECK_JSON_CONTAINS(json, "\"int\"");
        CHECK_JSON_CONTAINS(json, "\"start\"");
        CHECK_JSON_CONTAINS(json, "\"pause\"");
        CHECK_JSON_CONTAINS(json, "\"stop\"");
        CHECK_JSON_CONTAINS(json, "\"reset\"");
        mvvm_string_free(json);
        json = NULL;
    }
    CHECK_STATUS(mvvm_count_down_timer_start(timer), MVVM_OK);
    ADVANCE(loop, 2000);
    if (CHECK_STATUS(mvvm_snapshot(timer, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "full_count", "5");
        CHECK_JSON_HAS(json, "count", "2");
        CHECK_JSON_HAS(json, "remaining_time", "3");
        CHECK_JSON_HAS(json, "is_doing", "true");
        mvvm_string_free(json);
        json = NULL;
    }

    if (CHECK_STATUS(mvvm_describe(timer_vm, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "class", "\"timer_view_model\"");
        CHECK_JSON_CONTAINS(json, "\"is_show_alert\"");
        CHECK_JSON_CONTAINS(json, "\"children\"");
        CHECK_JSON_CONTAINS(json, "\"display\"");
        CHECK_JSON_CONTAINS(json, "\"player\"");
        mvvm_string_free(json);
        json = NULL;
    }
    if (CHECK_STATUS(mvvm_describe(player, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "class", "\"player_view_model\"");
        CHECK_JSON_CONTAINS(json, "\"tapped\"");
        CHECK_JSON_CONTAINS(json, "\"start\"");
        CHECK_JSON_CONTAINS(json, "\"pause\"");
        CHECK_JSON_CONTAINS(json, "\"stop\"");
        CHECK_JSON_CONTAINS(json, "\"is_stop_enabled\"");
        CHECK_JSON_CONTAINS(json, "\"is_play_timer\"");
        mvvm_string_free(json);
        json = NULL;
    }
    if (CHECK_STATUS(mvvm_snapshot(player, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "is_stop_enabled", "true");
        CHECK_JSON_HAS(json, "is_play_timer", "true");
        mvvm_string_free(json);
        json = NULL;
    }
    if (CHECK_STATUS(mvvm_describe(welcome, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "class", "\"welcome_view_model\"");
        CHECK_JSON_CONTAINS(json, "\"signals\"");
        CHECK_JSON_CONTAINS(json, "\"on_show_welcome\"");
        CHECK_JSON_CONTAINS(json, "\"on_show_text\"");
        CHECK_JSON_CONTAINS(json, "\"on_show_only_first\"");
        CHECK_JSON_CONTAINS(json, "\"view_did_load\"");
        CHECK_JSON_CONTAINS(json, "\"tap_button\"");
        CHECK_JSON_CONTAINS(json, "\"none\"");
        mvvm_string_free(json);
        json = NULL;
    }
    if (CHECK_STATUS(mvvm_snapshot(watch, &json), MVVM_OK)) {
        CHECK_JSON_HAS(json, "time", "\"00:00:00.00\"");
        CHECK_JSON_HAS(json, "main_action_title", "\"Start\"");
        CHECK_JSON_HAS(json, "clear_action_title", "\"Clear\"");
        CHECK_JSON_HAS(json, "main_action_enabled", "true");
        CHECK_JSON_HAS(json, "clear_action_enabled", "false");
        mvvm_string_free(json);
        json = NULL;
    }
    RELEASE(watch);
    RELEASE(welcome);
    RELEASE(player);
    RELEASE(timer_vm);
    RELEASE(timer);
    RELEASE(sign_up);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(timer_counts_down_five_seconds_and_alerts_once),
        CHECK_TEST(timer_pause_and_resume_keep_the_count),
        CHECK_TEST(timer_taps_are_throttled_keeping_the_first),
        CHECK_TEST(timer_display_follows_and_stop_is_enabled_after_first_tick),
        CHECK_TEST(count_down_timer_typed_commands),
        CHECK_TEST(timer_alert_is_dismissed_by_the_view_and_raised_again),
        CHECK_TEST(stop_watch_view_model_starts_stops_resumes_and_clears),
        CHECK_TEST(stop_watch_view_model_clear_while_running_does_nothing),
        CHECK_TEST(stop_watch_model_time_and_states),
        CHECK_TEST(input_echo_echoes_utf8_input),
        CHECK_TEST(sign_up_enabled_only_at_the_boundaries),
        CHECK_TEST(sign_up_counts_grapheme_clusters),
        CHECK_TEST(sign_up_tapped_with_the_built_in_service),
        CHECK_TEST(sign_up_with_a_host_service),
        CHECK_TEST(sign_up_request_of_a_released_view_model_is_unknown),
        CHECK_TEST(sign_up_request_completed_from_another_thread),
        CHECK_TEST(sign_up_request_completed_soon_from_another_thread),
        CHECK_TEST(sign_up_request_completed_soon_runs_on_a_thread_loops_thread),
        CHECK_TEST(welcome_shows_the_welcome_after_a_dispatch_and_text_on_taps),
        CHECK_TEST(welcome_only_first_pairs_loads_with_taps_like_zip),
        CHECK_TEST(welcome_with_a_host_api),
        CHECK_TEST(counter_view_models_over_one_counter_stay_in_step),
        CHECK_TEST(random_counter_repeats_its_sequence_for_a_seed),
        CHECK_TEST(counter_view_model_over_a_random_counter),
        CHECK_TEST(counter_page_has_a_read_me_and_two_counters),
        CHECK_TEST(describe_and_snapshot_give_json_with_names_and_values),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
