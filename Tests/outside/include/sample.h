/*
 * sample.h - the typed C calls of Sample's classes, written by `python3 -m mvvm_gen --module
 * Sample` from the classes it registers. The generic ABI, its types and rules are
 * mvvm.h's; each call here is the generic call of the same meaning, with the same errors, plus
 * MVVM_ERR_WRONG_TYPE for an object of another class.
 */
#ifndef SAMPLE_H
#define SAMPLE_H

#include "mvvm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* @generated typed calls begin: python3 -m mvvm_gen writes this part; do not edit. */

/* agenda (Agenda): Speakers: records registered by their fields, callback properties as signals.
 * Properties: speaker: speaker rw; speakers: [speaker] rw; slot: slot? rw; own_calls: int ro.
 * Signals: speaker_changed(none), speaker_added(speaker). */
/** Empty, with a speakerChangedAction of its own. */
mvvm_status mvvm_agenda_new(mvvm_handle loop, mvvm_handle *out);
/** Adds a speaker; gives the count. */
mvvm_status mvvm_agenda_add(mvvm_handle object, const mvvm_value * speaker, int64_t * result_or_null);
/** The next speaker not yet heard, or none. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_agenda_next(mvvm_handle object, mvvm_value * result_or_null);
/** Calls the callback from another thread. */
mvvm_status mvvm_agenda_change_speaker_elsewhere(mvvm_handle object);
/** The app's own code assigns the callback. */
mvvm_status mvvm_agenda_replace_callback(mvvm_handle object);
/** speaker: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_agenda_get_speaker(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_agenda_set_speaker(mvvm_handle object, const mvvm_value * value);
/** speakers: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_agenda_get_speakers(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_agenda_set_speakers(mvvm_handle object, const mvvm_value * value);
/** slot: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_agenda_get_slot(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_agenda_set_slot(mvvm_handle object, const mvvm_value * value);
/** own_calls: How often the app's own callback ran. */
mvvm_status mvvm_agenda_get_own_calls(mvvm_handle object, int64_t *out);

/* conference (Conference): Agendas as a child and as list items: handles made and let go of.
 * Properties: tracks: list ro. */
/** A keynote and one more track. */
mvvm_status mvvm_conference_new(mvvm_handle loop, mvvm_handle *out);
/* tracks: a list of agenda (mvvm_list_count, mvvm_list_item). Every track's agenda. */
/** A new handle to the keynote child (agenda); the caller releases it. */
mvvm_status mvvm_conference_keynote(mvvm_handle object, mvvm_handle *out);

/* profile (Profile): A profile: optionals, arrays, records and bytes (an ObservableObject).
 * Properties: first: string rw; last: string rw; full_name: string ro; limit: int? rw; tags: [string] rw; scores: [double] rw; address: address? rw; avatar: bytes rw; saves: int ro.
 * Signals: saved(contact). */
/** Empty. */
mvvm_status mvvm_profile_new(mvvm_handle loop, mvvm_handle *out);
/** Moves a tag; fails for an index out of range. MVVM_ERR_COMMAND_FAILED when it fails: mvvm_last_error() is its error's text. */
mvvm_status mvvm_profile_move_tag(mvvm_handle object, int64_t from, int64_t to);
/** A contact of this profile at an address. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_contact(mvvm_handle object, const char * name, const char * street, const char * city, mvvm_value * result_or_null);
/** Saves the contact of the profile's address; fails when it has none. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_value_free(). MVVM_ERR_COMMAND_FAILED when it fails: mvvm_last_error() is its error's text. */
mvvm_status mvvm_profile_save(mvvm_handle object, mvvm_value * result_or_null);
/** Adds `count` tags, one a second of the loop's time; gives the tags. Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_profile_load(mvvm_handle object, int64_t count, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
/** Gives the number of saves, without suspending. Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_profile_ping(mvvm_handle object, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
mvvm_status mvvm_profile_get_first(mvvm_handle object, char **out);
mvvm_status mvvm_profile_set_first(mvvm_handle object, const char * value);
mvvm_status mvvm_profile_get_last(mvvm_handle object, char **out);
mvvm_status mvvm_profile_set_last(mvvm_handle object, const char * value);
/** full_name: first and last, computed: no publisher of its own. */
mvvm_status mvvm_profile_get_full_name(mvvm_handle object, char **out);
/** limit: A limit, or none. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_get_limit(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_profile_set_limit(mvvm_handle object, const mvvm_value * value);
/** tags: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_get_tags(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_profile_set_tags(mvvm_handle object, const mvvm_value * value);
/** scores: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_get_scores(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_profile_set_scores(mvvm_handle object, const mvvm_value * value);
/** address: The address, or none. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_get_address(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_profile_set_address(mvvm_handle object, const mvvm_value * value);
/** avatar: An image's bytes. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_profile_get_avatar(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_profile_set_avatar(mvvm_handle object, const mvvm_value * value);
/** saves: How many saves and moves were tried. */
mvvm_status mvvm_profile_get_saves(mvvm_handle object, int64_t *out);

/* dialog (Dialog): Members named as the bindings' own API: each binding's member wins.
 * Properties: description: string rw; closed: bool ro; handle: int ro; loop: string rw; id: int ro; class: string rw; log: [string] ro.
 * Signals: bind(string). */
/** Open. */
mvvm_status mvvm_dialog_new(mvvm_handle loop, mvvm_handle *out);
/** Closes the dialog (the object stays usable). */
mvvm_status mvvm_dialog_close(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_subscribe(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_unsubscribe(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_get(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_set(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_describe(mvvm_handle object);
/** Records its own name. */
mvvm_status mvvm_dialog_snapshot(mvvm_handle object);
/** Sends `text` on bind, and records it. */
mvvm_status mvvm_dialog_send(mvvm_handle object, const char * text);
/** Records a move; `from` is a keyword in Python. */
mvvm_status mvvm_dialog_move(mvvm_handle object, int64_t from, int64_t to);
/** The shape with one more side, and records it. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_dialog_reshape(mvvm_handle object, const mvvm_value * shape, mvvm_value * result_or_null);
mvvm_status mvvm_dialog_get_description(mvvm_handle object, char **out);
mvvm_status mvvm_dialog_set_description(mvvm_handle object, const char * value);
mvvm_status mvvm_dialog_get_closed(mvvm_handle object, bool *out);
mvvm_status mvvm_dialog_get_handle(mvvm_handle object, int64_t *out);
mvvm_status mvvm_dialog_get_loop(mvvm_handle object, char **out);
mvvm_status mvvm_dialog_set_loop(mvvm_handle object, const char * value);
mvvm_status mvvm_dialog_get_id(mvvm_handle object, int64_t *out);
mvvm_status mvvm_dialog_get_class(mvvm_handle object, char **out);
mvvm_status mvvm_dialog_set_class(mvvm_handle object, const char * value);
/** log: What each command did, in order. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_dialog_get_log(mvvm_handle object, mvvm_value *out);

/* wishlist (Wishlist): A wishlist of optionally priced items (an @Observable class).
 * Properties: items: [string] rw; prices: [double?] rw; budget: double? rw; home: address? rw; total: double ro. */
/** Empty. */
mvvm_status mvvm_wishlist_new(mvvm_handle loop, mvvm_handle *out);
/** Adds an item; gives the count. */
mvvm_status mvvm_wishlist_add(mvvm_handle object, const char * item, const mvvm_value * price, int64_t * result_or_null);
/** The item at an index. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_string_free(). MVVM_ERR_COMMAND_FAILED when it fails: mvvm_last_error() is its error's text. */
mvvm_status mvvm_wishlist_item(mvvm_handle object, int64_t index, char ** result_or_null);
/** items: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_wishlist_get_items(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_wishlist_set_items(mvvm_handle object, const mvvm_value * value);
/** prices: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_wishlist_get_prices(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_wishlist_set_prices(mvvm_handle object, const mvvm_value * value);
/** budget: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_wishlist_get_budget(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_wishlist_set_budget(mvvm_handle object, const mvvm_value * value);
/** home: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_wishlist_get_home(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_wishlist_set_home(mvvm_handle object, const mvvm_value * value);
mvvm_status mvvm_wishlist_get_total(mvvm_handle object, double *out);

/* finder (Finder): Finds what the host's service answers for a query (an async command).
 * Properties: query: string rw; delay: int rw; found: string ro; is_finding: bool ro; cancellations: int ro. */
/** Over the host's service: asked with the query, it answers a string. `destroy_fn_or_null(user_data)` runs exactly once, when the object is released or when this call fails; NULL_POINTER for a NULL request_fn. */
mvvm_status mvvm_finder_new(mvvm_handle loop, mvvm_request_fn request_fn, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);
/** Asks the service for the query; gives its answer, which becomes found. Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_finder_find(mvvm_handle object, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
mvvm_status mvvm_finder_get_query(mvvm_handle object, char **out);
mvvm_status mvvm_finder_set_query(mvvm_handle object, const char * value);
/** delay: Milliseconds of the loop's time find waits before it asks. */
mvvm_status mvvm_finder_get_delay(mvvm_handle object, int64_t *out);
mvvm_status mvvm_finder_set_delay(mvvm_handle object, int64_t value);
/** found: The last answer. */
mvvm_status mvvm_finder_get_found(mvvm_handle object, char **out);
mvvm_status mvvm_finder_get_is_finding(mvvm_handle object, bool *out);
/** cancellations: How many finds saw their cancellation. */
mvvm_status mvvm_finder_get_cancellations(mvvm_handle object, int64_t *out);

/* greeter (Greeter): Greets whoever the view names.
 * Properties: name: string rw; greeting: string ro; greet_count: int ro.
 * Signals: greeted(string). */
/** Nobody named yet. */
mvvm_status mvvm_greeter_new(mvvm_handle loop, mvvm_handle *out);
/** Greeting `name`. */
mvvm_status mvvm_greeter_new_with_name(mvvm_handle loop, const char * name, mvvm_handle *out);
/** Says the greeting. */
mvvm_status mvvm_greeter_greet(mvvm_handle object);
/** name: Who to greet. */
mvvm_status mvvm_greeter_get_name(mvvm_handle object, char **out);
mvvm_status mvvm_greeter_set_name(mvvm_handle object, const char * value);
/** greeting: "Hello, <name>!", or "Hello!". */
mvvm_status mvvm_greeter_get_greeting(mvvm_handle object, char **out);
/** greet_count: How many times greet ran. */
mvvm_status mvvm_greeter_get_greet_count(mvvm_handle object, int64_t *out);

/* tally (Tally): A running total (an @Observable class).
 * Properties: total: int ro; step: int rw; title: string rw; is_even: bool ro. */
/** Starting at `start`. */
mvvm_status mvvm_tally_new(mvvm_handle loop, int64_t start, mvvm_handle *out);
/** Adds step. */
mvvm_status mvvm_tally_add(mvvm_handle object);
/** Adds step that many times, as one change. */
mvvm_status mvvm_tally_add_many(mvvm_handle object, int64_t argument);
/** Back to 0. */
mvvm_status mvvm_tally_reset(mvvm_handle object);
/** total: The running total. */
mvvm_status mvvm_tally_get_total(mvvm_handle object, int64_t *out);
/** step: What add adds. */
mvvm_status mvvm_tally_get_step(mvvm_handle object, int64_t *out);
mvvm_status mvvm_tally_set_step(mvvm_handle object, int64_t value);
/** title: A label. */
mvvm_status mvvm_tally_get_title(mvvm_handle object, char **out);
mvvm_status mvvm_tally_set_title(mvvm_handle object, const char * value);
/** is_even: Whether total is even. */
mvvm_status mvvm_tally_get_is_even(mvvm_handle object, bool *out);

/* order (Order): An order: Foundation's UUID, Date, URL and Decimal as values.
 * Properties: id: uuid rw; placed: date rw; link: url rw; cost: decimal rw; due: date? rw; related: [uuid] rw; line: line_item? rw. */
/** Of id 00000000-0000-0000-0000-000000000001. */
mvvm_status mvvm_order_new(mvvm_handle loop, mvvm_handle *out);
/** Of `id`. */
mvvm_status mvvm_order_new_with_id(mvvm_handle loop, const char * id, mvvm_handle *out);
/** A line of these values. The result, when `result_or_null` is not NULL, is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_order_make_line(mvvm_handle object, const char * id, double at, const char * link, const char * price, mvvm_value * result_or_null);
/** Sets due to `to`; gives the one before. Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_order_postpone(mvvm_handle object, double to, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
/** id: A UUID. */
mvvm_status mvvm_order_get_id(mvvm_handle object, char **out);
mvvm_status mvvm_order_set_id(mvvm_handle object, const char * value);
/** placed: A Date; 1970 at first. */
mvvm_status mvvm_order_get_placed(mvvm_handle object, double *out);
mvvm_status mvvm_order_set_placed(mvvm_handle object, double value);
/** link: A URL. */
mvvm_status mvvm_order_get_link(mvvm_handle object, char **out);
mvvm_status mvvm_order_set_link(mvvm_handle object, const char * value);
/** cost: A Decimal. */
mvvm_status mvvm_order_get_cost(mvvm_handle object, char **out);
mvvm_status mvvm_order_set_cost(mvvm_handle object, const char * value);
/** due: A Date, or none. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_order_get_due(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_order_set_due(mvvm_handle object, const mvvm_value * value);
/** related: UUIDs. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_order_get_related(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_order_set_related(mvvm_handle object, const mvvm_value * value);
/** line: A line, or none. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_order_get_line(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_order_set_line(mvvm_handle object, const mvvm_value * value);

/* meter (Meter): UInt64 values, shown by a display name of its own.
 * Properties: reading: int rw. */
/** At 2^63. */
mvvm_status mvvm_meter_new(mvvm_handle loop, mvvm_handle *out);
/** At `reading`. */
mvvm_status mvvm_meter_new_with_reading(mvvm_handle loop, uint64_t reading, mvvm_handle *out);
/** The reading `steps` further on (a UInt64 result). */
mvvm_status mvvm_meter_ahead(mvvm_handle object, uint64_t steps, uint64_t * result_or_null);
/** reading: A UInt64; 2^63 at first. */
mvvm_status mvvm_meter_get_reading(mvvm_handle object, uint64_t *out);
mvvm_status mvvm_meter_set_reading(mvvm_handle object, uint64_t value);

/* song (Song): A song of a playlist.
 * Properties: title: string rw.
 * Made by its parent (a child): no constructor. */
mvvm_status mvvm_song_get_title(mvvm_handle object, char **out);
mvvm_status mvvm_song_set_title(mvvm_handle object, const char * value);

/* playlist (Playlist): Songs, and the ones a filter shows.
 * Properties: songs: list ro; all: list ro; filter: string rw. */
/** Empty. */
mvvm_status mvvm_playlist_new(mvvm_handle loop, mvvm_handle *out);
/** Adds a song. */
mvvm_status mvvm_playlist_add(mvvm_handle object, const char * argument);
/** Adds "a,b,c" at once. */
mvvm_status mvvm_playlist_add_many(mvvm_handle object, const char * argument);
mvvm_status mvvm_playlist_remove_first(mvvm_handle object);
mvvm_status mvvm_playlist_reverse(mvvm_handle object);
/** Moves the last song to the front. */
mvvm_status mvvm_playlist_rotate(mvvm_handle object);
mvvm_status mvvm_playlist_sort_by_title(mvvm_handle object);
/* songs: a list of song (mvvm_list_count, mvvm_list_item). The songs the filter shows, in order. */
/* all: a list of song (mvvm_list_count, mvvm_list_item). Every song. */
/** filter: A title prefix; "" shows all. */
mvvm_status mvvm_playlist_get_filter(mvvm_handle object, char **out);
mvvm_status mvvm_playlist_set_filter(mvvm_handle object, const char * value);

/* booking (Booking): Values narrower than their C types: each refuses some a host may pass.
 * Properties: urgency: string rw; stay: stay? rw; reference: string? rw; rate: double rw; rates: [double] rw; booked: int ro. */
/** No reference yet. */
mvvm_status mvvm_booking_new(mvvm_handle loop, mvvm_handle *out);
/** Booked under `reference`. */
mvvm_status mvvm_booking_new_with_reference(mvvm_handle loop, const char * reference, mvvm_handle *out);
/** Sets the urgency. */
mvvm_status mvvm_booking_mark(mvvm_handle object, const char * urgency);
/** Sets the reference. */
mvvm_status mvvm_booking_refer(mvvm_handle object, const char * reference);
/** Sets the stay. */
mvvm_status mvvm_booking_stay_for(mvvm_handle object, const mvvm_value * stay);
/** Books a stay after a turn of the loop; gives the number of bookings. Asynchronous: mvvm_call_async(); `done` runs once with its result, failure or cancellation. */
mvvm_status mvvm_booking_book(mvvm_handle object, const mvvm_value * stay, const char * urgency, mvvm_done_fn done, void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *call_out);
/** urgency: low or high (not CaseIterable: any string crosses). */
mvvm_status mvvm_booking_get_urgency(mvvm_handle object, char **out);
mvvm_status mvvm_booking_set_urgency(mvvm_handle object, const char * value);
/** stay: *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_booking_get_stay(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_booking_set_stay(mvvm_handle object, const mvvm_value * value);
/** reference: BK- and four digits, or none. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_booking_get_reference(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_booking_set_reference(mvvm_handle object, const mvvm_value * value);
/** rate: A Float. */
mvvm_status mvvm_booking_get_rate(mvvm_handle object, double *out);
mvvm_status mvvm_booking_set_rate(mvvm_handle object, double value);
/** rates: Floats. *out is the caller's: free it with mvvm_value_free(). */
mvvm_status mvvm_booking_get_rates(mvvm_handle object, mvvm_value *out);
mvvm_status mvvm_booking_set_rates(mvvm_handle object, const mvvm_value * value);
/** booked: How many bookings were made. */
mvvm_status mvvm_booking_get_booked(mvvm_handle object, int64_t *out);

/* board (Board): Tallies in a list (an @Observable owner).
 * Properties: tallies: list ro. */
/** Empty. */
mvvm_status mvvm_board_new(mvvm_handle loop, mvvm_handle *out);
/** Adds a tally starting at the argument. */
mvvm_status mvvm_board_add(mvvm_handle object, int64_t argument);
/** Removes the tallies whose total is odd. */
mvvm_status mvvm_board_remove_odd(mvvm_handle object);
mvvm_status mvvm_board_reverse(mvvm_handle object);
/* tallies: a list of tally (mvvm_list_count, mvvm_list_item). The tallies. */

/* @generated typed calls end */

#ifdef __cplusplus
}
#endif

#endif /* SAMPLE_H */
