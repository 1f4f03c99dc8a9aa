/*
 * appsample.h - the typed C calls of the classes of AppSample, AppSampleSwift5, written by `python3 -m mvvm_gen
 * --module AppSample --module AppSampleSwift5` from the classes they register. The generic ABI, its types and rules are
 * mvvm.h's; each call here is the generic call of the same meaning, with the same errors, plus
 * MVVM_ERR_WRONG_TYPE for an object of another class.
 */
#ifndef APPSAMPLE_H
#define APPSAMPLE_H

#include "mvvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* @generated typed calls begin: python3 -m mvvm_gen writes this part; do not edit. */

/* meeting_view_model (MeetingViewModel): A meeting's timer (a @MainActor class).
 * Properties: seconds_elapsed: int ro; speaker: int ro; status: string ro; polls: int ro. */
mvvm_status mvvm_meeting_view_model_new(mvvm_handle loop, mvvm_handle *out);
mvvm_status mvvm_meeting_view_model_start(mvvm_handle object);
mvvm_status mvvm_meeting_view_model_stop(mvvm_handle object);
mvvm_status mvvm_meeting_view_model_skip_speaker(mvvm_handle object);
mvvm_status mvvm_meeting_view_model_refresh(mvvm_handle object);
/** Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_meeting_view_model_fetch(mvvm_handle object, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
mvvm_status mvvm_meeting_view_model_get_seconds_elapsed(mvvm_handle object, int64_t *out);
mvvm_status mvvm_meeting_view_model_get_speaker(mvvm_handle object, int64_t *out);
mvvm_status mvvm_meeting_view_model_get_status(mvvm_handle object, char **out);
mvvm_status mvvm_meeting_view_model_get_polls(mvvm_handle object, int64_t *out);

/* weather_view_model (WeatherViewModel): Combine on RunLoop.main.
 * Properties: city: string rw; current_weather: string ro; echo: string ro. */
mvvm_status mvvm_weather_view_model_new(mvvm_handle loop, mvvm_handle *out);
mvvm_status mvvm_weather_view_model_get_city(mvvm_handle object, char **out);
mvvm_status mvvm_weather_view_model_set_city(mvvm_handle object, const char * value);
mvvm_status mvvm_weather_view_model_get_current_weather(mvvm_handle object, char **out);
mvvm_status mvvm_weather_view_model_get_echo(mvvm_handle object, char **out);

/* sign_in_view_model (SignInViewModel): Its token is set on a private queue.
 * Properties: token: string ro. */
mvvm_status mvvm_sign_in_view_model_new(mvvm_handle loop, mvvm_handle *out);
mvvm_status mvvm_sign_in_view_model_sign_in(mvvm_handle object, const char * user);
mvvm_status mvvm_sign_in_view_model_get_token(mvvm_handle object, char **out);

/* vote_view_model (VoteViewModel):
 * Properties: votes: int ro. */
mvvm_status mvvm_vote_view_model_new(mvvm_handle loop, mvvm_handle *out);
mvvm_status mvvm_vote_view_model_vote(mvvm_handle object);
mvvm_status mvvm_vote_view_model_get_votes(mvvm_handle object, int64_t *out);

/* @generated typed calls end */

#ifdef __cplusplus
}
#endif

#endif /* APPSAMPLE_H */
