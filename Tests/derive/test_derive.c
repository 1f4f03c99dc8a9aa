/*
 * test_derive.c - one script over Tests/derive's view models, run on the library whose registration
 * was derived from their code (libderived.so) and on the one registered by hand (libhand.so): each
 * run checks what the app does, and writes what it saw (the descriptions, every event, every result,
 * status and message, snapshots) to the transcript file $DERIVE_TRANSCRIPT, which Tests/derive/run.sh
 * compares between the two libraries. The tests run in this process, on the main thread
 * (CHECK_NO_FORK=1): a virtual loop made there serves the @MainActor settings.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#define TEXT 4096

static FILE *transcript;

/* One line of the transcript. */
static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vfprintf(transcript, format, arguments);
    va_end(arguments);
    fputc('\n', transcript);
}

/* Every event of an object into the transcript, as it comes (`user_data`: who it is); a list's
 * splices with where and how many. */
static void transcribe(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    char text[TEXT];
    if (event->kind == MVVM_EVENT_SPLICE) {
        say("%s: %s at %" PRId64 ", %" PRId64 " removed, %" PRId64 " inserted", (const char *)user_data, event->name,
            event->index, event->removed, event->inserted);
        return;
    }
    value_to_text(&event->value, text, sizeof text);
    say("%s: %s %s = %s", (const char *)user_data, event->kind == MVVM_EVENT_SIGNAL ? "signal" : "property", event->name, text);
}

/* Subscribes a recorder (for the checks) and the transcript to every event of `object`. */
static void listen(mvvm_handle object, recorder *events, const char *who) {
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(object, NULL, recorder_callback, events, NULL, &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(object, NULL, transcribe, (void *)who, NULL, &subscription), MVVM_OK);
}

/* A call's status and, when it failed, the library's message. */
static mvvm_status said(const char *what, mvvm_status status) {
    say("%s: %s%s%s", what, check_status_name(status), status == MVVM_OK ? "" : ": ", status == MVVM_OK ? "" : mvvm_last_error());
    return status;
}

static void say_property(mvvm_handle object, const char *who, const char *name) {
    char text[TEXT];
    say("%s.%s = %s", who, name, get_text(object, name, text, sizeof text));
}

static void say_snapshot(mvvm_handle object, const char *who) {
    char *json = NULL;
    if (CHECK_STATUS(mvvm_snapshot(object, &json), MVVM_OK)) say("%s snapshot %s", who, json);
    mvvm_string_free(json);
}

/* Calls `command` with `count` arguments; its result as text in `out`. */
static mvvm_status call(mvvm_handle object, const char *command, const mvvm_value *args, size_t count, char *out) {
    mvvm_value result = {0};
    mvvm_status status = mvvm_call(object, command, args, count, &result);
    out[0] = '\0';
    if (status == MVVM_OK) value_to_text(&result, out, TEXT);
    mvvm_value_free(&result);
    say("%s(%zu arguments) -> %s%s%s", command, count, check_status_name(status), status == MVVM_OK ? " " : ": ",
        status == MVVM_OK ? out : mvvm_last_error());
    return status;
}

/* An async call's end. */
typedef struct ending {
    bool ended;
    mvvm_status status;
    char text[TEXT];
} ending;

static void ended(mvvm_handle call_handle, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    (void)call_handle;
    ending *end = user_data;
    end->ended = true;
    end->status = status;
    if (status == MVVM_OK) value_to_text(result, end->text, sizeof end->text);
    else snprintf(end->text, sizeof end->text, "%s", message ? message : "");
}

/* Starts an async command and advances the loop (without moving its clock) until it ends. */
static ending call_async(mvvm_handle loop, mvvm_handle object, const char *command) {
    ending end = {0};
    mvvm_handle started = 0;
    if (CHECK_STATUS(mvvm_call_async(object, command, NULL, NULL, 0, ended, &end, NULL, &started), MVVM_OK))
        for (int turn = 0; turn < 100 && !end.ended; turn++) ADVANCE(loop, 0);
    CHECK(end.ended);
    say("%s async -> %s %s", command, check_status_name(end.status), end.text);
    return end;
}

static void the_classes_are_described_alike(void) {
    char *json = NULL;
    if (!CHECK_STATUS(mvvm_classes(&json), MVVM_OK)) return;
    say("classes %s", json);
    CHECK(strstr(json, "\"class\": \"expense_list_view_model\"") != NULL);
    CHECK(strstr(json, "\"class\": \"receipt_scanner_view_model\"") != NULL);  /* an internal class */
    CHECK(strstr(json, "\"main_actor\": true") != NULL);
    mvvm_string_free(json);
}

static void the_expense_list_adds_filters_and_deletes(void) {
    mvvm_handle loop = new_virtual_loop(), list = 0, row = 0, summary = 0;
    recorder *events = recorder_new();
    char text[TEXT];
    CHECK_STATUS(mvvm_new(loop, "expense_list_view_model", NULL, 0, &list), MVVM_OK);
    listen(list, events, "list");
    mvvm_value dinner[] = { value_string("Dinner"), value_string("42.50"), value_string("food"), value_double(1700000000) };
    CHECK_STATUS(call(list, "add", dinner, 4, text), MVVM_OK);
    CHECK_EQ_STR(text, "expense{00000000-0000-0000-0000-000000000001, Dinner, 42.5, 1.7e+09, food, null}");
    mvvm_value train[] = { value_string("Train"), value_string("19.90"), value_string("travel"), value_double(1700086400) };
    mvvm_value hotel[] = { value_string("Hotel"), value_string("120"), value_string("lodging"), value_double(1700090000) };
    CHECK_STATUS(call(list, "add", train, 4, text), MVVM_OK);
    CHECK_STATUS(call(list, "add", hotel, 4, text), MVVM_OK);
    CHECK_EQ_INT(rec_count(events, "expense_added"), 3);
    mvvm_value blank[] = { value_string("  "), value_string("1"), value_string("food"), value_double(0) };
    CHECK_STATUS(call(list, "add", blank, 4, text), MVVM_ERR_COMMAND_FAILED);
    CHECK_EQ_STR(mvvm_last_error(), "expense_list_view_model.add failed: an expense needs a title");
    mvvm_value not_a_category[] = { value_string("Taxi"), value_string("1"), value_string("taxi"), value_double(0) };
    CHECK_STATUS(call(list, "add", not_a_category, 4, text), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(get_text(list, "total", text, sizeof text), "182.4");
    CHECK_GET_INT(list, "visible_count", 3);

    CHECK_STATUS(said("set filter travel", mvvm_set_string(list, "filter", "travel")), MVVM_OK);
    CHECK_GET_INT(list, "visible_count", 1);
    CHECK_EQ_STR(get_text(list, "total", text, sizeof text), "19.9");
    CHECK_STATUS(said("set filter bogus", mvvm_set_string(list, "filter", "bogus")), MVVM_ERR_INVALID_ARGUMENT);
    mvvm_value none = value_null();
    CHECK_STATUS(said("set filter none", mvvm_set(list, "filter", &none)), MVVM_OK);

    int64_t rows = 0;
    CHECK_STATUS(mvvm_list_count(list, "rows", &rows), MVVM_OK);
    CHECK_EQ_INT(rows, 3);
    recorder *row_events = recorder_new();
    CHECK_STATUS(mvvm_list_item(list, "rows", 1, &row), MVVM_OK);
    listen(row, row_events, "row");
    CHECK_GET_STRING(row, "title", "Train");
    say_property(row, "row", "amount_text");
    CHECK_STATUS(call(row, "toggle_flag", NULL, 0, text), MVVM_OK);
    CHECK_GET_BOOL(row, "is_flagged", true);
    CHECK_STATUS(call(row, "delete_tapped", NULL, 0, text), MVVM_OK);
    CHECK_EQ_INT(rec_count(row_events, "on_delete_tapped"), 1);
    CHECK_EQ_STR(rec_text(events, "on_delete", 0), "00000000-0000-0000-0000-000000000002");
    CHECK_STATUS(mvvm_list_count(list, "rows", &rows), MVVM_OK);
    CHECK_EQ_INT(rows, 2);

    CHECK_STATUS(mvvm_child(list, "summary", &summary), MVVM_OK);
    CHECK_EQ_STR(get_text(summary, "spent", text, sizeof text), "162.5");
    CHECK_STATUS(said("set budget", mvvm_set_string(summary, "budget", "100")), MVVM_OK);
    CHECK_GET_BOOL(summary, "is_over_budget", true);
    CHECK_EQ_STR(get_text(summary, "remaining", text, sizeof text), "-62.5");
    say_snapshot(summary, "summary");

    mvvm_value unknown = value_string("00000000-0000-0000-0000-0000000000ff"), bad = value_string("x");
    CHECK_STATUS(call(list, "delete", &unknown, 1, text), MVVM_ERR_COMMAND_FAILED);
    CHECK_STATUS(call(list, "delete", &bad, 1, text), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(said("set selection", mvvm_set_string(list, "selection", "00000000-0000-0000-0000-000000000001")), MVVM_OK);
    CHECK_STATUS(said("set is_syncing", mvvm_set_bool(list, "is_syncing", true)), MVVM_ERR_READ_ONLY);

    ending synced = call_async(loop, list, "sync");
    CHECK_STATUS(synced.status, MVVM_OK);
    CHECK_EQ_STR(synced.text, "2");
    CHECK_EQ_STR(rec_text(events, "status_messages", -1), "synced 2");
    CHECK_STATUS(said("set search_text", mvvm_set_string(list, "search_text", "offline")), MVVM_OK);
    ending offline = call_async(loop, list, "sync");
    CHECK_STATUS(offline.status, MVVM_ERR_COMMAND_FAILED);
    CHECK_GET_STRING(list, "error_message", "the server cannot be reached");
    say_snapshot(list, "list");
    RELEASE(row);
    RELEASE(summary);
    RELEASE(list);
    RELEASE(loop);
    recorder_free(events);
    recorder_free(row_events);
}

static void a_row_is_made_from_an_expense_record(void) {
    mvvm_handle loop = new_virtual_loop(), row = 0;
    mvvm_value fields[] = { value_string("00000000-0000-0000-0000-000000000009"), value_string("Museum"), value_string("12"),
                            value_double(0), value_string("other"), value_string("with the kids") };
    mvvm_value expense = value_items(MVVM_TYPE_RECORD, fields, 6);
    expense.string = "expense";
    CHECK_STATUS(said("new row", mvvm_new(loop, "expense_row_view_model", &expense, 1, &row)), MVVM_OK);
    CHECK_GET_STRING(row, "title", "Museum");
    CHECK_GET_STRING(row, "id", "00000000-0000-0000-0000-000000000009");
    say_snapshot(row, "row");
    RELEASE(row);
    RELEASE(loop);
}

static void the_trip_planner_is_observed(void) {
    mvvm_handle loop = new_virtual_loop(), trip = 0;
    recorder *events = recorder_new();
    char text[TEXT];
    mvvm_value lisbon[] = { value_string("Lisbon"), value_int(3) };
    CHECK_STATUS(said("new trip", mvvm_new(loop, "trip_planner_view_model", lisbon, 2, &trip)), MVVM_OK);
    CHECK_GET_STRING(trip, "summary", "Lisbon, 3 nights");
    CHECK_GET_STRING(trip, "id", "00000000-0000-0000-0000-0000000000AA");
    listen(trip, events, "trip");
    CHECK_STATUS(call(trip, "add_night", NULL, 0, text), MVVM_OK);
    CHECK_EQ_STR(rec_text(events, "summary", -1), "Lisbon, 4 nights");
    mvvm_value place_fields[] = { value_string("Alfama"), value_double(38.71), value_double(-9.13) };
    mvvm_value place = value_items(MVVM_TYPE_RECORD, place_fields, 3);
    place.string = "place";
    CHECK_STATUS(said("set place", mvvm_set(trip, "place", &place)), MVVM_OK);
    CHECK_EQ_STR(get_text(trip, "place", text, sizeof text), "place{Alfama, 38.71, -9.13}");
    ending booked = call_async(loop, trip, "book");
    CHECK_EQ_STR(booked.text, "Booked Lisbon, 4 nights");
    CHECK_STATUS(said("set destination", mvvm_set_string(trip, "destination", "")), MVVM_OK);
    CHECK_GET_BOOL(trip, "is_valid", false);
    ending refused = call_async(loop, trip, "book");
    CHECK_STATUS(refused.status, MVVM_ERR_COMMAND_FAILED);
    say_snapshot(trip, "trip");
    RELEASE(trip);
    RELEASE(loop);
    recorder_free(events);
}

static void the_settings_live_on_the_main_actor(void) {
    mvvm_handle loop = new_virtual_loop(), settings = 0;
    recorder *events = recorder_new();
    CHECK_STATUS(said("new settings", mvvm_new(loop, "settings_view_model", NULL, 0, &settings)), MVVM_OK);
    listen(settings, events, "settings");
    CHECK_STATUS(said("set currency", mvvm_set_string(settings, "currency", "USD")), MVVM_OK);
    CHECK_GET_STRING(settings, "summary", "USD, reminders on");
    CHECK_STATUS(said("set reminder_priority", mvvm_set_int(settings, "reminder_priority", 2)), MVVM_OK);
    CHECK_STATUS(said("set reminder_priority 7", mvvm_set_int(settings, "reminder_priority", 7)), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(said("set server_url", mvvm_set_string(settings, "server_url", "no scheme")), MVVM_ERR_INVALID_ARGUMENT);
    char text[TEXT];
    CHECK_STATUS(call(settings, "reset", NULL, 0, text), MVVM_OK);
    CHECK_GET_STRING(settings, "currency", "EUR");
    ending synced = call_async(loop, settings, "sync");
    CHECK_EQ_STR(synced.text, "false");
    CHECK_EQ_STR(get_text(settings, "last_synced", text, sizeof text), "1.7e+09");
    say_snapshot(settings, "settings");
    RELEASE(settings);
    RELEASE(loop);
    recorder_free(events);
}

static void the_receipt_scanner_reads_a_receipt(void) {
    mvvm_handle loop = new_virtual_loop(), scanner = 0;
    char text[TEXT];
    CHECK_STATUS(mvvm_new(loop, "receipt_scanner_view_model", NULL, 0, &scanner), MVVM_OK);
    mvvm_value receipt = value_string("Cafe\nCoffee\n3.50");
    CHECK_STATUS(call(scanner, "scan", &receipt, 1, text), MVVM_OK);
    CHECK_EQ_STR(text, "3");
    CHECK_EQ_STR(get_text(scanner, "result", text, sizeof text), "scan_result{Cafe, 3.5, 3}");
    say_snapshot(scanner, "scanner");
    RELEASE(scanner);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    const char *path = getenv("DERIVE_TRANSCRIPT");
    transcript = fopen(path ? path : "/dev/null", "w");
    if (!transcript) {
        perror(path);
        return 2;
    }
    static const check_test tests[] = {
        CHECK_TEST(the_classes_are_described_alike),
        CHECK_TEST(the_expense_list_adds_filters_and_deletes),
        CHECK_TEST(a_row_is_made_from_an_expense_record),
        CHECK_TEST(the_trip_planner_is_observed),
        CHECK_TEST(the_settings_live_on_the_main_actor),
        CHECK_TEST(the_receipt_scanner_reads_a_receipt),
    };
    int status = check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
    fclose(transcript);
    return status;
}
