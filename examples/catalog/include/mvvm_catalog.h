/*
 * mvvm_catalog.h - the typed C calls of the catalog's classes (docs/catalog.md), which libmvvm.so
 * serves, and any library whose hook registers the catalog (Catalog.register()). Generated, as any
 * package's typed calls are, by `python3 -m mvvm_gen --module MVVMCatalog --module
 * MVVMViewModels --module MVVMModels` from the classes the catalog registers (`make generate`):
 * the part between the @generated markers is not to be edited.
 * The generic ABI, its types and rules are mvvm.h's; each call here is the generic call of the
 * same meaning, with the same errors, plus MVVM_ERR_WRONG_TYPE for an object of another class.
 */
#ifndef MVVM_CATALOG_H
#define MVVM_CATALOG_H

#include "mvvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* @generated typed calls begin: python3 -m mvvm_gen writes this part; do not edit. */

/* count_down_timer (CountDownTimer): A countdown of whole seconds, ticking once a second while running.
 * Properties: full_count: int ro; count: int ro; remaining_time: int ro; is_doing: bool ro. */
/** A timer of `full_count` seconds, from 1 to 2147483647. */
mvvm_status mvvm_count_down_timer_new(mvvm_handle loop, int64_t full_count, mvvm_handle *out);
/** Starts or resumes; does nothing while running. */
mvvm_status mvvm_count_down_timer_start(mvvm_handle object);
/** Pauses, keeping the count; does nothing while paused. */
mvvm_status mvvm_count_down_timer_pause(mvvm_handle object);
/** Stops and resets the count to 0. */
mvvm_status mvvm_count_down_timer_stop(mvvm_handle object);
/** Resets the count to 0, running or not. */
mvvm_status mvvm_count_down_timer_reset(mvvm_handle object);
/** full_count: The seconds it counts down from. */
mvvm_status mvvm_count_down_timer_get_full_count(mvvm_handle object, int64_t *out);
/** count: Seconds elapsed: from 0 to full_count, and back to 0 on stop, on reset and when the time runs out. */
mvvm_status mvvm_count_down_timer_get_count(mvvm_handle object, int64_t *out);
/** remaining_time: Seconds left: full_count - count. */
mvvm_status mvvm_count_down_timer_get_remaining_time(mvvm_handle object, int64_t *out);
/** is_doing: Whether it is running: true from start to pause, stop or the time running out. */
mvvm_status mvvm_count_down_timer_get_is_doing(mvvm_handle object, bool *out);

/* timer_view_model (TimerViewModel): The timer screen: an alert when the time runs out, a display and a player.
 * Properties: is_show_alert: bool rw. */
/** Over `timer`, a count_down_timer of the same loop. */
mvvm_status mvvm_timer_view_model_new(mvvm_handle loop, mvvm_handle timer, mvvm_handle *out);
/** is_show_alert: Becomes true when the timer runs out; the view sets it false to dismiss. */
mvvm_status mvvm_timer_view_model_get_is_show_alert(mvvm_handle object, bool *out);
mvvm_status mvvm_timer_view_model_set_is_show_alert(mvvm_handle object, bool value);
/** A new handle to the display child (display_view_model); the caller releases it. */
mvvm_status mvvm_timer_view_model_display(mvvm_handle object, mvvm_handle *out);
/** A new handle to the player child (player_view_model); the caller releases it. */
mvvm_status mvvm_timer_view_model_player(mvvm_handle object, mvvm_handle *out);

/* display_view_model (DisplayViewModel): What the timer screen shows.
 * Properties: remaining_time: int ro.
 * Made by its parent (a child): no constructor. */
/** remaining_time: Seconds left. */
mvvm_status mvvm_display_view_model_get_remaining_time(mvvm_handle object, int64_t *out);

/* player_view_model (PlayerViewModel): The timer's buttons.
 * Properties: is_stop_enabled: bool ro; is_play_timer: bool ro.
 * Made by its parent (a child): no constructor. */
/** A button was tapped ("start", "pause" or "stop"), through throttle(for: 1 s, latest: false). */
mvvm_status mvvm_player_view_model_tapped(mvvm_handle object, const char * argument);
/** is_stop_enabled: remaining_time < full_count. */
mvvm_status mvvm_player_view_model_get_is_stop_enabled(mvvm_handle object, bool *out);
/** is_play_timer: Whether the timer runs. */
mvvm_status mvvm_player_view_model_get_is_play_timer(mvvm_handle object, bool *out);

/* stop_watch (StopWatch): Integer milliseconds on the loop's clock, published every 10 ms while running.
 * Properties: time_ms: int ro; state: string ro. */
/** A stopped stopwatch at zero. */
mvvm_status mvvm_stop_watch_new(mvvm_handle loop, mvvm_handle *out);
/** Starts from zero; only when startable. */
mvvm_status mvvm_stop_watch_start(mvvm_handle object);
/** Stops, keeping the time; only when stoppable. */
mvvm_status mvvm_stop_watch_stop(mvvm_handle object);
/** Continues; only when resumable. */
mvvm_status mvvm_stop_watch_resume(mvvm_handle object);
/** Back to zero and startable; only when resumable. */
mvvm_status mvvm_stop_watch_clear(mvvm_handle object);
/** time_ms: Elapsed milliseconds. */
mvvm_status mvvm_stop_watch_get_time_ms(mvvm_handle object, int64_t *out);
/** state: startable, stoppable or resumable. One of: startable, stoppable, resumable. */
mvvm_status mvvm_stop_watch_get_state(mvvm_handle object, char **out);

/* stop_watch_view_model (StopWatchViewModel): The stopwatch screen.
 * Properties: time: string ro; main_action_title: string ro; clear_action_title: string ro; main_action_enabled: bool ro; clear_action_enabled: bool ro. */
/** Over a stopwatch of its own. */
mvvm_status mvvm_stop_watch_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** Start, stop or resume, as the state allows. */
mvvm_status mvvm_stop_watch_view_model_main_action(mvvm_handle object);
/** Clears to 00:00:00.00; does nothing unless resumable. */
mvvm_status mvvm_stop_watch_view_model_clear_action(mvvm_handle object);
/** time: The elapsed time as "HH:MM:SS.cc", hours modulo 100. */
mvvm_status mvvm_stop_watch_view_model_get_time(mvvm_handle object, char **out);
/** main_action_title: The main button's title: Start, Stop or Resume, as the state allows. */
mvvm_status mvvm_stop_watch_view_model_get_main_action_title(mvvm_handle object, char **out);
/** clear_action_title: The clear button's title: Clear. */
mvvm_status mvvm_stop_watch_view_model_get_clear_action_title(mvvm_handle object, char **out);
/** main_action_enabled: Whether the main button is enabled: always true. */
mvvm_status mvvm_stop_watch_view_model_get_main_action_enabled(mvvm_handle object, bool *out);
/** clear_action_enabled: Whether the clear button is enabled: only while the stopwatch is resumable. */
mvvm_status mvvm_stop_watch_view_model_get_clear_action_enabled(mvvm_handle object, bool *out);

/* input_echo_view_model (InputEchoViewModel): Echoes its input.
 * Properties: input: string rw; label: string ro; message: string ro. */
/** Empty input. */
mvvm_status mvvm_input_echo_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** input: What the user typed. */
mvvm_status mvvm_input_echo_view_model_get_input(mvvm_handle object, char **out);
mvvm_status mvvm_input_echo_view_model_set_input(mvvm_handle object, const char * value);
/** label: The input. */
mvvm_status mvvm_input_echo_view_model_get_label(mvvm_handle object, char **out);
/** message: "Your input is '<input>'!" */
mvvm_status mvvm_input_echo_view_model_get_message(mvvm_handle object, char **out);

/* sign_up_view_model (SignUpViewModel): A sign-up form: enabled when user_id has 6 or more characters, password 8 or more (grapheme clusters), confirm_password equals password, and agreed.
 * Properties: user_id: string rw; password: string rw; confirm_password: string rw; agreed: bool rw; is_completion_alert_presented: bool rw; is_sign_up_enabled: bool ro. */
/** With the built-in service, which accepts every sign-up at once. */
mvvm_status mvvm_sign_up_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** With the host's service: each sign-up asks it with the user id (the password is readable during the request) and expects a bool, true for success. `destroy_fn_or_null(user_data)` runs exactly once, when the object is released or when this call fails; NULL_POINTER for a NULL request_fn. */
mvvm_status mvvm_sign_up_view_model_new_with_service(mvvm_handle loop, mvvm_request_fn request_fn, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);
/** Asks the sign-up service; does nothing while disabled. */
mvvm_status mvvm_sign_up_view_model_sign_up_tapped(mvvm_handle object);
/** user_id: The user id typed: 6 or more characters to sign up. */
mvvm_status mvvm_sign_up_view_model_get_user_id(mvvm_handle object, char **out);
mvvm_status mvvm_sign_up_view_model_set_user_id(mvvm_handle object, const char * value);
/** password: The password typed: 8 or more to sign up. */
mvvm_status mvvm_sign_up_view_model_get_password(mvvm_handle object, char **out);
mvvm_status mvvm_sign_up_view_model_set_password(mvvm_handle object, const char * value);
/** confirm_password: The password again: equal to password to sign up. */
mvvm_status mvvm_sign_up_view_model_get_confirm_password(mvvm_handle object, char **out);
mvvm_status mvvm_sign_up_view_model_set_confirm_password(mvvm_handle object, const char * value);
/** agreed: The terms were agreed to. */
mvvm_status mvvm_sign_up_view_model_get_agreed(mvvm_handle object, bool *out);
mvvm_status mvvm_sign_up_view_model_set_agreed(mvvm_handle object, bool value);
/** is_completion_alert_presented: Presented when a sign-up succeeds; the view dismisses it. */
mvvm_status mvvm_sign_up_view_model_get_is_completion_alert_presented(mvvm_handle object, bool *out);
mvvm_status mvvm_sign_up_view_model_set_is_completion_alert_presented(mvvm_handle object, bool value);
/** is_sign_up_enabled: Whether sign_up_tapped may sign up: the form's four rules hold. */
mvvm_status mvvm_sign_up_view_model_get_is_sign_up_enabled(mvvm_handle object, bool *out);

/* observable_sign_up_view_model (ObservableSignUpViewModel): sign_up_view_model's form and rules as an @Observable class: is_sign_up_enabled is computed from the four inputs.
 * Properties: user_id: string rw; password: string rw; confirm_password: string rw; agreed: bool rw; is_completion_alert_presented: bool rw; is_sign_up_enabled: bool ro. */
/** With the built-in service, which accepts every sign-up at once. */
mvvm_status mvvm_observable_sign_up_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** With the host's service: each sign-up asks it with the user id and expects a bool, true for success. `destroy_fn_or_null(user_data)` runs exactly once, when the object is released or when this call fails; NULL_POINTER for a NULL request_fn. */
mvvm_status mvvm_observable_sign_up_view_model_new_with_service(mvvm_handle loop, mvvm_request_fn request_fn, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);
/** Asks the sign-up service; does nothing while disabled. */
mvvm_status mvvm_observable_sign_up_view_model_sign_up_tapped(mvvm_handle object);
/** user_id: The user id typed: 6 or more characters to sign up. */
mvvm_status mvvm_observable_sign_up_view_model_get_user_id(mvvm_handle object, char **out);
mvvm_status mvvm_observable_sign_up_view_model_set_user_id(mvvm_handle object, const char * value);
/** password: The password typed: 8 or more to sign up. */
mvvm_status mvvm_observable_sign_up_view_model_get_password(mvvm_handle object, char **out);
mvvm_status mvvm_observable_sign_up_view_model_set_password(mvvm_handle object, const char * value);
/** confirm_password: The password again: equal to password to sign up. */
mvvm_status mvvm_observable_sign_up_view_model_get_confirm_password(mvvm_handle object, char **out);
mvvm_status mvvm_observable_sign_up_view_model_set_confirm_password(mvvm_handle object, const char * value);
/** agreed: The terms were agreed to. */
mvvm_status mvvm_observable_sign_up_view_model_get_agreed(mvvm_handle object, bool *out);
mvvm_status mvvm_observable_sign_up_view_model_set_agreed(mvvm_handle object, bool value);
/** is_completion_alert_presented: Presented when a sign-up succeeds; the view dismisses it. */
mvvm_status mvvm_observable_sign_up_view_model_get_is_completion_alert_presented(mvvm_handle object, bool *out);
mvvm_status mvvm_observable_sign_up_view_model_set_is_completion_alert_presented(mvvm_handle object, bool value);
/** is_sign_up_enabled: Whether sign_up_tapped may sign up: the form's four rules hold. */
mvvm_status mvvm_observable_sign_up_view_model_get_is_sign_up_enabled(mvvm_handle object, bool *out);

/* welcome_view_model (WelcomeScreen): A transform(input) -> output screen: a welcome message on load, a text on each tap.
 * Signals: on_show_welcome(string), on_show_text(string), on_show_only_first(none). */
/** With the built-in API, which answers "Welcome!" on the loop's next dispatch. */
mvvm_status mvvm_welcome_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** With the host's API: each view_did_load asks it (no argument) and expects the message. `destroy_fn_or_null(user_data)` runs exactly once, when the object is released or when this call fails; NULL_POINTER for a NULL request_fn. */
mvvm_status mvvm_welcome_view_model_new_with_api(mvvm_handle loop, mvvm_request_fn request_fn, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);
/** The view loaded: asks the welcome API. */
mvvm_status mvvm_welcome_view_model_view_did_load(mvvm_handle object);
/** A tap with the text to show. */
mvvm_status mvvm_welcome_view_model_tap_button(mvvm_handle object, const char * argument);

/* counter (Counter): A counter.
 * Properties: count: int ro. */
/** At 0. */
mvvm_status mvvm_counter_new(mvvm_handle loop, mvvm_handle *out);
/** Increments (a random counter draws). */
mvvm_status mvvm_counter_increment(mvvm_handle object);
/** Decrements (a random counter draws). */
mvvm_status mvvm_counter_decrement(mvvm_handle object);
mvvm_status mvvm_counter_get_count(mvvm_handle object, int64_t *out);

/* random_counter (RandomCounter): A counter whose increment and decrement draw a count from 1 to 10 out of a generator seeded with `seed`: a seed always repeats its sequence.
 * Properties: count: int ro. */
/** Seeded with `seed`. */
mvvm_status mvvm_random_counter_new(mvvm_handle loop, uint64_t seed, mvvm_handle *out);
/** Increments (a random counter draws). */
mvvm_status mvvm_random_counter_increment(mvvm_handle object);
/** Decrements (a random counter draws). */
mvvm_status mvvm_random_counter_decrement(mvvm_handle object);
mvvm_status mvvm_random_counter_get_count(mvvm_handle object, int64_t *out);

/* counter_view_model (CounterViewModel): A counter's screen.
 * Properties: label: string ro; count: string ro. */
/** Over `model`, a counter or random_counter of the same loop. */
mvvm_status mvvm_counter_view_model_new(mvvm_handle loop, mvvm_handle model, mvvm_handle *out);
/** Counts up (a random counter draws a new count). */
mvvm_status mvvm_counter_view_model_increment(mvvm_handle object);
/** Counts down (a random counter draws a new count). */
mvvm_status mvvm_counter_view_model_decrement(mvvm_handle object);
/** label: "Counter" or "Random Counter". */
mvvm_status mvvm_counter_view_model_get_label(mvvm_handle object, char **out);
/** count: The count, as text. */
mvvm_status mvvm_counter_view_model_get_count(mvvm_handle object, char **out);

/* counter_page_view_model (CounterPageViewModel): Two counters on one page.
 * Properties: read_me: string ro. */
/** The random counter is seeded from the system's random source. */
mvvm_status mvvm_counter_page_view_model_new(mvvm_handle loop, mvvm_handle *out);
/** The random counter is seeded with `seed`, for repeatable pages. */
mvvm_status mvvm_counter_page_view_model_new_with_seed(mvvm_handle loop, uint64_t seed, mvvm_handle *out);
/** read_me: What the page shows, for the view to print above the counters. */
mvvm_status mvvm_counter_page_view_model_get_read_me(mvvm_handle object, char **out);
/** A new handle to the first_counter child (counter_view_model); the caller releases it. */
mvvm_status mvvm_counter_page_view_model_first_counter(mvvm_handle object, mvvm_handle *out);
/** A new handle to the second_counter child (counter_view_model); the caller releases it. */
mvvm_status mvvm_counter_page_view_model_second_counter(mvvm_handle object, mvvm_handle *out);

/* @generated typed calls end */

#ifdef __cplusplus
}
#endif

#endif /* MVVM_CATALOG_H */
