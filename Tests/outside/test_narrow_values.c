/*
 * test_narrow_values.c - values a Swift type refuses though its C type holds them (Tests/outside's
 * Booking: a String enum that is not CaseIterable, a record whose init(from:) validates, an ID
 * with a failable init, Floats), refused with INVALID_ARGUMENT naming the member wherever a host
 * passes them: properties, commands, async commands, constructors, record fields, array elements
 * (they used to trap in the library). Also: a record named in bad UTF-8, NaN in the change
 * check, and messages quoting one huge character.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include "check.h"
#include "sample.h"

#define TEXT 256

typedef struct {
    int done, destroyed;
    mvvm_status status;
    char result[TEXT];
} completion;

static void on_done(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    (void)call;
    (void)message;
    completion *c = user_data;
    c->done++;
    c->status = status;
    value_to_text(result, c->result, sizeof c->result);
}

static void on_destroy(void *user_data) { ((completion *)user_data)->destroyed++; }

static mvvm_handle new_booking(mvvm_handle loop) {
    mvvm_handle booking = 0;
    CHECK_STATUS(mvvm_booking_new(loop, &booking), MVVM_OK);
    return booking;
}

static mvvm_value stay_fields[2];

/* A stay record of `nights` at `rate` (in static storage: one at a time). */
static mvvm_value stay(int64_t nights, double rate) {
    stay_fields[0] = value_int(nights);
    stay_fields[1] = value_double(rate);
    mvvm_value record = value_items(MVVM_TYPE_RECORD, stay_fields, 2);
    record.string = "stay";
    return record;
}

static bool error_has(const char *a, const char *b) {
    return strstr(mvvm_last_error(), a) != NULL && (b == NULL || strstr(mvvm_last_error(), b) != NULL);
}

static void a_value_its_swift_type_refuses_is_invalid_argument_for_every_member(void) {
    mvvm_handle loop = new_virtual_loop(), booking = new_booking(loop), call = 0, made = 0;
    char text[TEXT];
    /* A String enum that is not CaseIterable: a property refuses a string that is no case... */
    CHECK_STATUS(mvvm_set_string(booking, "urgency", "urgent"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking.urgency", "\"urgent\""));
    /* ...and so does a command argument, typed or generic, before the command runs. */
    CHECK_STATUS(mvvm_booking_mark(booking, "urgent"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 1 of booking.mark (urgency)", "Urgency"));
    mvvm_value urgent = value_string("urgent");
    CHECK_STATUS(mvvm_call(booking, "mark", &urgent, 1, NULL), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_send(booking, "mark", &urgent), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_GET_STRING(booking, "urgency", "low");
    CHECK_STATUS(mvvm_booking_mark(booking, "high"), MVVM_OK);
    CHECK_GET_STRING(booking, "urgency", "high");
    /* An ID whose failable init refuses a malformed string (as UUID's does). */
    CHECK_STATUS(mvvm_booking_refer(booking, "BK-12x4"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 1 of booking.refer (reference)", "\"BK-12x4\""));
    CHECK_STATUS(mvvm_booking_refer(booking, "BK-1234"), MVVM_OK);
    CHECK_EQ_STR(get_text(booking, "reference", text, sizeof text), "BK-1234");
    mvvm_value malformed = value_string("BK-");
    CHECK_STATUS(mvvm_set(booking, "reference", &malformed), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(get_text(booking, "reference", text, sizeof text), "BK-1234");
    /* A record whose init(from:) throws: its error is the reason given. */
    mvvm_value negative = stay(-1, 80);
    CHECK_STATUS(mvvm_booking_stay_for(booking, &negative), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 1 of booking.stay_for (stay)", "a stay of -1 nights"));
    negative = stay(-1, 80);
    CHECK_STATUS(mvvm_set(booking, "stay", &negative), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking.stay", "a stay of -1 nights"));
    CHECK_EQ_STR(get_text(booking, "stay", text, sizeof text), "null");
    /* An async command refuses the call at once: no task, `done` never runs, destroy does. */
    completion c = {0};
    mvvm_value args[2];
    args[0] = stay(-2, 80);
    args[1] = value_string("low");
    CHECK_STATUS(mvvm_call_async(booking, "book", NULL, args, 2, on_done, &c, on_destroy, &call), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 1 of booking.book (stay)", "a stay of -2 nights"));
    args[0] = stay(2, 80);
    args[1] = value_string("soon");
    CHECK_STATUS(mvvm_call_async(booking, "book", NULL, args, 2, on_done, &c, on_destroy, &call), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 2 of booking.book (urgency)", "\"soon\""));
    CHECK_STATUS(mvvm_booking_book(booking, &args[0], "soon", on_done, &c, on_destroy, &call), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(call, 0);
    ADVANCE(loop, 10);
    CHECK_EQ_INT(c.done, 0);
    CHECK_EQ_INT(c.destroyed, 3);
    CHECK_GET_INT(booking, "booked", 0);
    /* Values it takes still book. */
    args[0] = stay(2, 80);
    args[1] = value_string("low");
    CHECK_STATUS(mvvm_call_async(booking, "book", NULL, args, 2, on_done, &c, on_destroy, &call), MVVM_OK);
    ADVANCE(loop, 10);
    CHECK_EQ_INT(c.done, 1);
    CHECK_STATUS(c.status, MVVM_OK);
    CHECK_EQ_STR(c.result, "1");
    CHECK_EQ_STR(get_text(booking, "stay", text, sizeof text), "stay{2, 80}");
    /* A constructor's argument: refused, nothing made. */
    CHECK_STATUS(mvvm_booking_new_with_reference(loop, "XX-0000", &made), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking (reference)", "\"XX-0000\""));
    CHECK_EQ_INT(made, 0);
    mvvm_value bad_reference = value_string("BK-99");
    CHECK_STATUS(mvvm_new(loop, "booking", &bad_reference, 1, &made), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(made, 0);
    CHECK_STATUS(mvvm_booking_new_with_reference(loop, "BK-0042", &made), MVVM_OK);
    CHECK_EQ_STR(get_text(made, "reference", text, sizeof text), "BK-0042");
    RELEASE(made);
    RELEASE(booking);
    RELEASE(loop);
}

static void a_float_beyond_its_range_is_refused_and_infinity_and_nan_are_kept(void) {
    mvvm_handle loop = new_virtual_loop(), booking = new_booking(loop);
    double rate = -1;
    char text[TEXT];
    CHECK_STATUS(mvvm_booking_set_rate(booking, 1e300), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking.rate", "beyond the range of Float"));
    CHECK_STATUS(mvvm_set_double(booking, "rate", -1e39), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_booking_get_rate(booking, &rate), MVVM_OK);
    CHECK(rate == 0);
    /* The largest Float, and what rounds to it, are in range. */
    CHECK_STATUS(mvvm_booking_set_rate(booking, 3.4028235e38), MVVM_OK);
    CHECK_STATUS(mvvm_booking_get_rate(booking, &rate), MVVM_OK);
    CHECK(isfinite(rate) && rate > 3.4e38);
    /* Infinity and NaN given as such are kept. */
    CHECK_STATUS(mvvm_booking_set_rate(booking, -INFINITY), MVVM_OK);
    CHECK_STATUS(mvvm_booking_get_rate(booking, &rate), MVVM_OK);
    CHECK(isinf(rate) && rate < 0);
    CHECK_STATUS(mvvm_booking_set_rate(booking, NAN), MVVM_OK);
    CHECK_STATUS(mvvm_booking_get_rate(booking, &rate), MVVM_OK);
    CHECK(isnan(rate));
    /* An array's element, named. */
    mvvm_value items[3] = { value_double(1.5), value_double(INFINITY), value_double(1e300) };
    mvvm_value rates = value_items(MVVM_TYPE_ARRAY, items, 3);
    CHECK_STATUS(mvvm_booking_set_rates(booking, &rates), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking.rates", "element 2"));
    rates.integer = 2;
    CHECK_STATUS(mvvm_booking_set_rates(booking, &rates), MVVM_OK);
    CHECK_EQ_STR(get_text(booking, "rates", text, sizeof text), "[1.5, inf]");
    /* A record's field, set, as a command's argument and as an async command's. */
    mvvm_value huge = stay(1, 1e300);
    CHECK_STATUS(mvvm_set(booking, "stay", &huge), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("booking.stay", "field rate"));
    huge = stay(1, 1e300);
    CHECK_STATUS(mvvm_call(booking, "stay_for", &huge, 1, NULL), MVVM_ERR_INVALID_ARGUMENT);
    completion c = {0};
    mvvm_handle call = 0;
    huge = stay(1, -1e300);
    CHECK_STATUS(mvvm_booking_book(booking, &huge, "low", on_done, &c, on_destroy, &call), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("argument 1 of booking.book (stay)", "field rate"));
    CHECK_EQ_INT(c.done, 0);
    CHECK_EQ_STR(get_text(booking, "stay", text, sizeof text), "null");
    RELEASE(booking);
    RELEASE(loop);
}

static void a_record_named_in_bad_utf8_is_refused(void) {
    mvvm_handle loop = new_virtual_loop(), booking = new_booking(loop), profile = 0;
    char text[TEXT];
    CHECK_STATUS(mvvm_profile_new(loop, &profile), MVVM_OK);
    mvvm_value fields[3] = { value_string("Main 1"), value_string("Oslo"), value_null() };
    mvvm_value address = value_items(MVVM_TYPE_RECORD, fields, 3);
    address.string = "address\xff";
    CHECK_STATUS(mvvm_set(profile, "address", &address), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_has("value", "not valid UTF-8"));
    CHECK_EQ_STR(get_text(profile, "address", text, sizeof text), "null");
    mvvm_value good = stay(1, 2);
    good.string = "stay\xc3";
    CHECK_STATUS(mvvm_booking_stay_for(booking, &good), MVVM_ERR_INVALID_ARGUMENT);
    good = stay(1, 2);
    good.string = "contact\xff";
    CHECK_STATUS(mvvm_call(booking, "stay_for", &good, 1, NULL), MVVM_ERR_INVALID_ARGUMENT);
    mvvm_value copy = {0};
    CHECK_STATUS(mvvm_value_copy(&good, &copy), MVVM_ERR_INVALID_ARGUMENT);
    const mvvm_value *field = NULL;
    CHECK_STATUS(mvvm_record_field(&good, "rate", &field), MVVM_ERR_INVALID_ARGUMENT);
    /* Unnamed (NULL) still fits any record, and the right name still does. */
    good = stay(1, 2);
    good.string = NULL;
    CHECK_STATUS(mvvm_booking_stay_for(booking, &good), MVVM_OK);
    address.string = "address";
    CHECK_STATUS(mvvm_set(profile, "address", &address), MVVM_OK);
    RELEASE(profile);
    RELEASE(booking);
    RELEASE(loop);
}

static void nan_is_unchanged_from_nan_and_minus_zero_is_a_change(void) {
    mvvm_handle loop = new_virtual_loop(), wishlist = 0, profile = 0, sub = 0;
    CHECK_STATUS(mvvm_wishlist_new(loop, &wishlist), MVVM_OK);
    CHECK_STATUS(mvvm_profile_new(loop, &profile), MVVM_OK);
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(wishlist, "total", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    /* An @Observable computed property at NaN: notified once, not after every later operation. */
    mvvm_value nan_items[1] = { value_double(NAN) };
    mvvm_value prices = value_items(MVVM_TYPE_ARRAY, nan_items, 1);
    CHECK_STATUS(mvvm_set(wishlist, "prices", &prices), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "total"), 1);
    for (int i = 0; i < 100; i++) {
        CHECK_STATUS(mvvm_set_double(wishlist, "budget", i), MVVM_OK);
        ADVANCE(loop, 1);
    }
    CHECK_EQ_INT(rec_count(r, "total"), 1);
    /* An array set to the same [NaN] again: unchanged. */
    recorder *p = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, "scores", recorder_callback, p, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set(profile, "scores", &prices), MVVM_OK);
    CHECK_STATUS(mvvm_set(profile, "scores", &prices), MVVM_OK);
    CHECK_EQ_INT(rec_count(p, "scores"), 1);
    /* Compared by bits: -0.0 is a change from 0.0 (and back), 0.0 again is not. */
    nan_items[0] = value_double(0.0);
    CHECK_STATUS(mvvm_set(profile, "scores", &prices), MVVM_OK);
    nan_items[0] = value_double(-0.0);
    CHECK_STATUS(mvvm_set(profile, "scores", &prices), MVVM_OK);
    CHECK_STATUS(mvvm_set(profile, "scores", &prices), MVVM_OK);
    CHECK_EQ_INT(rec_count(p, "scores"), 3);
    recorder *b = recorder_new();
    CHECK_STATUS(mvvm_subscribe(wishlist, "budget", recorder_callback, b, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_double(wishlist, "budget", 0.0), MVVM_OK);
    CHECK_STATUS(mvvm_set_double(wishlist, "budget", -0.0), MVVM_OK);
    CHECK_STATUS(mvvm_set_double(wishlist, "budget", NAN), MVVM_OK);
    CHECK_STATUS(mvvm_set_double(wishlist, "budget", -NAN), MVVM_OK);
    ADVANCE(loop, 1);
    CHECK_EQ_INT(rec_count(b, "budget"), 3);
    RELEASE(profile);
    RELEASE(wishlist);
    recorder_free(r);
    recorder_free(p);
    recorder_free(b);
    RELEASE(loop);
}

/* One letter and `marks` combining acute accents (U+0301, 2 bytes each): one character. */
static char *one_character(size_t marks) {
    char *text = malloc(2 + 2 * marks);
    text[0] = 'e';
    for (size_t i = 0; i < marks; i++) memcpy(text + 1 + 2 * i, "\xcc\x81", 2);
    text[1 + 2 * marks] = '\0';
    return text;
}

static void a_message_quotes_at_most_100_bytes_of_one_huge_character(void) {
    mvvm_handle loop = new_virtual_loop(), booking = new_booking(loop), made = 0;
    char *name = one_character(2000000);
    mvvm_value out = {0};
    CHECK_STATUS(mvvm_get(booking, name, &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400 && error_has("(4000001 bytes in all)", NULL));
    free(name);
    /* A value a Swift type refuses is quoted as briefly (40 kB: Swift's own comparisons of a
     * string of 2,000,000 marks take seconds under valgrind). */
    name = one_character(20000);
    CHECK_STATUS(mvvm_set_string(booking, "urgency", name), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) < 400 && error_has("(40001 bytes in all)", NULL));
    CHECK_STATUS(mvvm_booking_mark(booking, name), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK_STATUS(mvvm_booking_new_with_reference(loop, name, &made), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) < 400);
    free(name);
    /* 100 characters of 10 kB each. */
    size_t size = 100 * (1 + 2 * 5000);
    char *many = malloc(size + 1);
    for (size_t i = 0; i < 100; i++) {
        char *one = one_character(5000);
        memcpy(many + i * (1 + 2 * 5000), one, 1 + 2 * 5000);
        free(one);
    }
    many[size] = '\0';
    CHECK_STATUS(mvvm_get(booking, many, &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK_STATUS(mvvm_new(loop, many, NULL, 0, &made), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    free(many);
    RELEASE(booking);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_value_its_swift_type_refuses_is_invalid_argument_for_every_member),
        CHECK_TEST(a_float_beyond_its_range_is_refused_and_infinity_and_nan_are_kept),
        CHECK_TEST(a_record_named_in_bad_utf8_is_refused),
        CHECK_TEST(nan_is_unchanged_from_nan_and_minus_zero_is_a_change),
        CHECK_TEST(a_message_quotes_at_most_100_bytes_of_one_huge_character),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
