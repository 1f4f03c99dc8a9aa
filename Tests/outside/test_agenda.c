/*
 * test_agenda.c - Tests/outside's Agenda, from C: records registered by their fields (Speaker,
 * Slot: no Codable) described as Codable records are and crossing both ways (properties,
 * arguments, results, arrays, optionals, records in records; a refusal of their `make` is
 * INVALID_ARGUMENT naming the member); callback properties as signals (an event per call, the
 * app's own callback kept, a call from another thread delivered on the loop's thread, the app's
 * own assignment disconnecting the signal).
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>
#include "check.h"
#include "sample.h"

#define TEXT 256

static mvvm_handle new_agenda(mvvm_handle loop) {
    mvvm_handle agenda = 0;
    CHECK_STATUS(mvvm_agenda_new(loop, &agenda), MVVM_OK);
    return agenda;
}

static void a_record_registered_by_its_fields_is_described_as_a_codable_one(void) {
    char *json = NULL;
    CHECK_STATUS(mvvm_classes(&json), MVVM_OK);
    /* As Profile's Codable Address is: its fields in order, each with its type. */
    CHECK(json && strstr(json, "\"speaker\": {\"name\": \"speaker\", \"display\": \"Speaker\", \"swift_name\": \"Speaker\"") != NULL);
    CHECK(json && strstr(json, "\"fields\": [{\"name\": \"name\", \"type\": \"string\"}, {\"name\": \"is_completed\", "
                               "\"type\": \"bool\"}, {\"name\": \"email\", \"type\": \"string\", \"optional\": true}]") != NULL);
    CHECK(json && strstr(json, "{\"name\": \"backup\", \"type\": \"record\", \"optional\": true, \"record\": \"speaker\"}") != NULL);
    CHECK(json && strstr(json, "{\"name\": \"speaker\", \"type\": \"record\", \"access\": \"rw\"") != NULL);
    mvvm_string_free(json);
}

static void its_values_cross_both_ways(void) {
    mvvm_handle loop = new_virtual_loop(), agenda = new_agenda(loop), sub = 0;
    char text[TEXT];
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(agenda, "speaker", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "speaker", text, sizeof text), "speaker{nobody, false, null}");
    /* A property, by position and by name (the optional field left out); notified. */
    mvvm_value fields[3] = { value_string("Ada"), value_bool(false), value_string("ada@example.org") };
    mvvm_value ada = value_items(MVVM_TYPE_RECORD, fields, 3);
    CHECK_STATUS(mvvm_agenda_set_speaker(agenda, &ada), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "speaker", text, sizeof text), "speaker{Ada, false, ada@example.org}");
    CHECK_EQ_STR(rec_text(r, "speaker", 0), "speaker{Ada, false, ada@example.org}");
    mvvm_value pairs[4] = { value_string("name"), value_string("Grace"), value_string("is_completed"), value_bool(true) };
    mvvm_value grace = value_items(MVVM_TYPE_MAP, pairs, 2);
    CHECK_STATUS(mvvm_set(agenda, "speaker", &grace), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "speaker", text, sizeof text), "speaker{Grace, true, null}");
    /* An argument, a result: add gives the count, next the first speaker not yet heard. */
    int64_t count = 0;
    CHECK_STATUS(mvvm_agenda_add(agenda, &ada, &count), MVVM_OK);
    CHECK_EQ_INT(count, 1);
    CHECK_STATUS(mvvm_agenda_add(agenda, &grace, &count), MVVM_OK);
    CHECK_EQ_INT(count, 2);
    CHECK_EQ_STR(get_text(agenda, "speakers", text, sizeof text),
                 "[speaker{Ada, false, ada@example.org}, speaker{Grace, true, null}]");
    mvvm_value next = {0};
    CHECK_STATUS(mvvm_agenda_next(agenda, &next), MVVM_OK);
    value_to_text(&next, text, sizeof text);
    CHECK_EQ_STR(text, "speaker{Ada, true, ada@example.org}");
    mvvm_value_free(&next);
    CHECK_STATUS(mvvm_agenda_next(agenda, &next), MVVM_OK);
    CHECK_EQ_INT(next.type, MVVM_TYPE_NULL);
    /* An array set whole; an optional record of records. */
    mvvm_value both[2] = { ada, ada };
    mvvm_value speakers = value_items(MVVM_TYPE_ARRAY, both, 2);
    CHECK_STATUS(mvvm_set(agenda, "speakers", &speakers), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "speakers", text, sizeof text),
                 "[speaker{Ada, false, ada@example.org}, speaker{Ada, false, ada@example.org}]");
    CHECK_EQ_STR(get_text(agenda, "slot", text, sizeof text), "null");
    mvvm_value slot_fields[3] = { ada, value_null(), value_int(25) };
    mvvm_value slot = value_items(MVVM_TYPE_RECORD, slot_fields, 3);
    CHECK_STATUS(mvvm_agenda_set_slot(agenda, &slot), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "slot", text, sizeof text), "slot{speaker{Ada, false, ada@example.org}, null, 25}");
    slot_fields[1] = grace;
    CHECK_STATUS(mvvm_agenda_set_slot(agenda, &slot), MVVM_OK);
    CHECK_EQ_STR(get_text(agenda, "slot", text, sizeof text),
                 "slot{speaker{Ada, false, ada@example.org}, speaker{Grace, true, null}, 25}");
    RELEASE(agenda);
    recorder_free(r);
    RELEASE(loop);
}

static void a_refusal_by_make_is_invalid_argument_naming_the_member(void) {
    mvvm_handle loop = new_virtual_loop(), agenda = new_agenda(loop);
    char text[TEXT];
    mvvm_value fields[3] = { value_string(""), value_bool(false), value_null() };
    mvvm_value nameless = value_items(MVVM_TYPE_RECORD, fields, 3);
    CHECK_STATUS(mvvm_agenda_set_speaker(agenda, &nameless), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(mvvm_last_error(), "agenda.speaker cannot hold {\"name\": \"\", \"is_completed\": false, \"email\": null}: "
                                    "a speaker has a name");
    CHECK_STATUS(mvvm_agenda_add(agenda, &nameless, NULL), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "argument 1 of agenda.add (speaker) cannot hold") != NULL);
    CHECK(strstr(mvvm_last_error(), ": a speaker has a name") != NULL);
    /* In a record of records: the field that refused, and why. */
    mvvm_value slot_fields[3] = { nameless, value_null(), value_int(5) };
    mvvm_value slot = value_items(MVVM_TYPE_RECORD, slot_fields, 3);
    CHECK_STATUS(mvvm_agenda_set_slot(agenda, &slot), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "agenda.slot cannot hold") != NULL);
    CHECK(strstr(mvvm_last_error(), "field speaker cannot hold {\"name\": \"\", \"is_completed\": false, \"email\": null}: "
                                    "a speaker has a name") != NULL);
    /* Nothing changed. */
    CHECK_EQ_STR(get_text(agenda, "speaker", text, sizeof text), "speaker{nobody, false, null}");
    CHECK_EQ_STR(get_text(agenda, "slot", text, sizeof text), "null");
    RELEASE(agenda);
    RELEASE(loop);
}

static void a_callback_property_is_a_signal_until_the_app_assigns_it(void) {
    mvvm_handle loop = new_virtual_loop(), agenda = new_agenda(loop), sub = 0;
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(agenda, NULL, recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    mvvm_value fields[3] = { value_string("Ada"), value_bool(false), value_null() };
    mvvm_value ada = value_items(MVVM_TYPE_RECORD, fields, 3);
    /* ((Speaker) -> Void)?: each call an event carrying the record. */
    CHECK_STATUS(mvvm_agenda_add(agenda, &ada, NULL), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "speaker_added"), 1);
    CHECK_EQ_STR(rec_text(r, "speaker_added", 0), "speaker{Ada, false, null}");
    /* (() -> Void)?: an event with no value, after the changes of the same operation; the app's
     * own closure, set before, still runs. */
    mvvm_value next = {0};
    CHECK_STATUS(mvvm_agenda_next(agenda, &next), MVVM_OK);
    mvvm_value_free(&next);
    CHECK_EQ_INT(rec_count(r, "speaker_changed"), 1);
    CHECK_EQ_INT(r->type[rec_index(r, "speaker_changed", 0)], MVVM_TYPE_NONE);
    CHECK(rec_index(r, "speaker", 0) < rec_index(r, "speaker_changed", 0));
    CHECK_GET_INT(agenda, "own_calls", 1);
    /* The app's own code assigns the callback: the signal is disconnected. */
    CHECK_STATUS(mvvm_agenda_replace_callback(agenda), MVVM_OK);
    CHECK_STATUS(mvvm_agenda_add(agenda, &ada, NULL), MVVM_OK);
    CHECK_STATUS(mvvm_agenda_next(agenda, &next), MVVM_OK);
    mvvm_value_free(&next);
    CHECK_EQ_INT(rec_count(r, "speaker_changed"), 1);
    CHECK_GET_INT(agenda, "own_calls", 101);
    RELEASE(agenda);
    recorder_free(r);
    RELEASE(loop);
}

static void a_call_from_another_thread_is_delivered_on_the_loops_thread(void) {
    mvvm_handle loop = 0, agenda = 0, sub = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MANUAL, &loop), MVVM_OK);
    agenda = new_agenda(loop);
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(agenda, "speaker_changed", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    /* The callback runs on a thread of Swift's pool; the event waits for the loop's thread. */
    CHECK_STATUS(mvvm_agenda_change_speaker_elsewhere(agenda), MVVM_OK);
    for (int waited = 0; waited < 5000 && rec_count(r, "speaker_changed") == 0; waited += 10)
        CHECK_STATUS(mvvm_loop_run_for(loop, 10), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "speaker_changed"), 1);
    CHECK_EQ_INT(rec_count_off_thread(r, pthread_self()), 0);
    RELEASE(agenda);
    recorder_free(r);
    RELEASE(loop);
}

/* Resident memory in MiB, from /proc/self/statm; -1 when it tells nothing of leaks (under
 * valgrind, whose free lists hold freed blocks; its own leak check covers that run). */
static double rss_mib(void) {
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload")) return -1;
    long pages = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
        fclose(f);
    }
    return resident < 0 ? -1 : (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* An agenda reached by handle after handle (a child's, a list's item), each let go of, as a list
 * view scrolling over its rows makes them: its callback property keeps one engine closure, so the
 * app's callback runs one call deep (100,000 nested wrappers overflowed the stack) and memory
 * stays flat (it grew 288 B a handle); a live handle hears each call once, the app's closure runs
 * once. */
static void handles_made_and_let_go_of_keep_one_callback_connection(void) {
    mvvm_handle loop = new_virtual_loop(), conference = 0, keynote = 0, sub = 0;
    CHECK_STATUS(mvvm_conference_new(loop, &conference), MVVM_OK);
    long rounds = check_rounds("HANDLE_ROUNDS", 100000);
    double settled = -1;
    for (long i = 0; i < rounds; i++) {
        mvvm_handle agenda = 0;
        mvvm_status status = i % 2 ? mvvm_child(conference, "keynote", &agenda)
                                   : mvvm_list_item(conference, "tracks", 0, &agenda);
        if (!CHECK_STATUS(status, MVVM_OK) || !CHECK_STATUS(mvvm_release(agenda), MVVM_OK)) break;
        if (i == rounds / 10) settled = rss_mib();
    }
    double after = rss_mib();
    if (settled >= 0 && after >= 0) CHECK(after - settled < 4.0);
    CHECK_STATUS(mvvm_child(conference, "keynote", &keynote), MVVM_OK);
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(keynote, "speaker_changed", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    mvvm_value fields[3] = { value_string("Ada"), value_bool(false), value_null() };
    mvvm_value ada = value_items(MVVM_TYPE_RECORD, fields, 3), next = {0};
    CHECK_STATUS(mvvm_agenda_add(keynote, &ada, NULL), MVVM_OK);
    CHECK_STATUS(mvvm_agenda_next(keynote, &next), MVVM_OK);
    mvvm_value_free(&next);
    CHECK_EQ_INT(rec_count(r, "speaker_changed"), 1);
    CHECK_GET_INT(keynote, "own_calls", 1);
    RELEASE(keynote);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    recorder_free(r);
    RELEASE(conference);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_record_registered_by_its_fields_is_described_as_a_codable_one),
        CHECK_TEST(its_values_cross_both_ways),
        CHECK_TEST(a_refusal_by_make_is_invalid_argument_naming_the_member),
        CHECK_TEST(a_callback_property_is_a_signal_until_the_app_assigns_it),
        CHECK_TEST(a_call_from_another_thread_is_delivered_on_the_loops_thread),
        CHECK_TEST(handles_made_and_let_go_of_keep_one_callback_connection),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
