/*
 * test_values.c - values beyond scalars and commands beyond one argument, from C, on Tests/outside's
 * Profile (an ObservableObject) and Wishlist (an @Observable class): optionals, arrays, records
 * and bytes read, set and notified; commands with named arguments, results and errors; a
 * computed property; what the library hands out freed with mvvm_value_free (valgrind checks it).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sample.h"

#define TEXT 256

static mvvm_handle new_profile(mvvm_handle loop) {
    mvvm_handle profile = 0;
    CHECK_STATUS(mvvm_profile_new(loop, &profile), MVVM_OK);
    return profile;
}

static void an_optional_holds_a_value_or_null(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    char text[TEXT];
    recorder *r = recorder_new();
    r->read_back = true;
    CHECK_STATUS(mvvm_subscribe(profile, "limit", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    CHECK_EQ_STR(get_text(profile, "limit", text, sizeof text), "null");
    int64_t limit = -1;
    /* A typed getter reads it only while it holds a value. */
    CHECK_STATUS(mvvm_get_int(profile, "limit", &limit), MVVM_ERR_TYPE_MISMATCH);
    CHECK(strstr(mvvm_last_error(), "null") != NULL);
    CHECK_STATUS(mvvm_set_int(profile, "limit", 5), MVVM_OK);
    CHECK_GET_INT(profile, "limit", 5);
    mvvm_value none = value_null();
    CHECK_STATUS(mvvm_set(profile, "limit", &none), MVVM_OK);
    CHECK_EQ_STR(get_text(profile, "limit", text, sizeof text), "null");
    /* Notified each time, after the change: the getter in the callback agrees. */
    CHECK_EQ_INT(rec_count(r, "limit"), 2);
    CHECK_EQ_STR(rec_text(r, "limit", 0), "5");
    CHECK_EQ_STR(r->read[0], "5");
    CHECK_EQ_INT(r->type[1], MVVM_TYPE_NULL);
    CHECK_EQ_STR(r->read[1], "null");
    /* Null for a non-optional is refused, and changes nothing. */
    CHECK_STATUS(mvvm_set(profile, "first", &none), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "profile.first") != NULL && strstr(mvvm_last_error(), "not optional") != NULL);
    CHECK_GET_STRING(profile, "first", "");
    /* An unsigned integer the int holds is taken; one above INT64_MAX is out of range. */
    mvvm_value big = {0};
    big.type = MVVM_TYPE_UINT;
    big.integer = 7;
    CHECK_STATUS(mvvm_set(profile, "limit", &big), MVVM_OK);
    CHECK_GET_INT(profile, "limit", 7);
    big.integer = (int64_t)UINT64_C(0x8000000000000000);
    CHECK_STATUS(mvvm_set(profile, "limit", &big), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_GET_INT(profile, "limit", 7);
    RELEASE(profile);
    CHECK_EQ_INT(rec_destroyed(r), 1);
    recorder_free(r);
    RELEASE(loop);
}

static void an_array_is_one_value_set_read_and_notified_whole(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    char text[TEXT];
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, "tags", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    mvvm_value tags[3] = { value_string("red"), value_string("green"), value_string("blue") };
    mvvm_value array = value_items(MVVM_TYPE_ARRAY, tags, 3);
    CHECK_STATUS(mvvm_set(profile, "tags", &array), MVVM_OK);
    CHECK_EQ_STR(get_text(profile, "tags", text, sizeof text), "[red, green, blue]");
    CHECK_EQ_INT(rec_count(r, "tags"), 1);
    CHECK_EQ_STR(rec_text(r, "tags", 0), "[red, green, blue]");
    /* Compared by value: the same elements again notify nothing. */
    mvvm_value again[3] = { value_string("red"), value_string("green"), value_string("blue") };
    mvvm_value same = value_items(MVVM_TYPE_ARRAY, again, 3);
    CHECK_STATUS(mvvm_set(profile, "tags", &same), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "tags"), 1);
    /* An element of the wrong type is named, and the array is left as it was. */
    mvvm_value mixed[2] = { value_string("a"), value_int(2) };
    mvvm_value bad = value_items(MVVM_TYPE_ARRAY, mixed, 2);
    CHECK_STATUS(mvvm_set(profile, "tags", &bad), MVVM_ERR_TYPE_MISMATCH);
    CHECK(strstr(mvvm_last_error(), "profile.tags[1]") != NULL);
    CHECK_EQ_STR(get_text(profile, "tags", text, sizeof text), "[red, green, blue]");
    /* Ints are taken for the doubles of a [Double]. */
    mvvm_value numbers[2] = { value_int(1), value_double(2.5) };
    mvvm_value scores = value_items(MVVM_TYPE_ARRAY, numbers, 2);
    CHECK_STATUS(mvvm_set(profile, "scores", &scores), MVVM_OK);
    mvvm_value read = {0};
    CHECK_STATUS(mvvm_get(profile, "scores", &read), MVVM_OK);
    CHECK_EQ_INT(read.type, MVVM_TYPE_ARRAY);
    CHECK_EQ_INT(read.integer, 2);
    CHECK_EQ_INT(MVVM_VALUE_ITEMS(&read)[0].type, MVVM_TYPE_DOUBLE);
    CHECK(MVVM_VALUE_ITEMS(&read)[0].number == 1.0 && MVVM_VALUE_ITEMS(&read)[1].number == 2.5);
    mvvm_value_free(&read);
    CHECK_EQ_INT(read.type, MVVM_TYPE_NONE);
    mvvm_value_free(&read); /* twice: nothing */
    /* The typed getter of an array property gives an mvvm_value too. */
    CHECK_STATUS(mvvm_profile_get_tags(profile, &read), MVVM_OK);
    CHECK_EQ_INT(read.integer, 3);
    CHECK_EQ_STR(MVVM_VALUE_ITEMS(&read)[2].string, "blue");
    mvvm_value_free(&read);
    /* A value nested deeper than MVVM_MAX_VALUE_DEPTH, or one that contains itself, is refused. */
    mvvm_value loop_value = {0};
    loop_value.type = MVVM_TYPE_ARRAY;
    loop_value.integer = 1;
    MVVM_VALUE_SET_ITEMS(&loop_value, &loop_value);
    CHECK_STATUS(mvvm_set(profile, "tags", &loop_value), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "nests more than") != NULL);
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void a_record_is_given_by_position_or_by_name_and_read_field_by_field(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop);
    char text[TEXT];
    /* By position, in the declared order (street, city, zip_code). */
    mvvm_value fields[3] = { value_string("Main 1"), value_string("Oslo"), value_null() };
    mvvm_value address = value_items(MVVM_TYPE_RECORD, fields, 3);
    CHECK_STATUS(mvvm_set(profile, "address", &address), MVVM_OK);
    CHECK_EQ_STR(get_text(profile, "address", text, sizeof text), "address{Main 1, Oslo, null}");
    /* By name, an optional field left out. */
    mvvm_value pairs[4] = { value_string("city"), value_string("Rome"), value_string("street"), value_string("Via 2") };
    mvvm_value map = value_items(MVVM_TYPE_MAP, pairs, 2);
    CHECK_STATUS(mvvm_set(profile, "address", &map), MVVM_OK);
    mvvm_value read = {0};
    const mvvm_value *field = NULL;
    CHECK_STATUS(mvvm_get(profile, "address", &read), MVVM_OK);
    CHECK_EQ_INT(read.type, MVVM_TYPE_RECORD);
    CHECK_EQ_STR(read.string, "address");
    CHECK_STATUS(mvvm_record_field(&read, "city", &field), MVVM_OK);
    CHECK_EQ_STR(field->string, "Rome");
    CHECK_STATUS(mvvm_record_field(&read, "zip_code", &field), MVVM_OK);
    CHECK_EQ_INT(field->type, MVVM_TYPE_NULL);
    CHECK_STATUS(mvvm_record_field(&read, "country", &field), MVVM_ERR_UNKNOWN_NAME);
    mvvm_value_free(&read);
    /* A required field missing, an unknown one, the wrong count: refused, naming it. */
    mvvm_value partial = value_items(MVVM_TYPE_MAP, pairs, 1);
    CHECK_STATUS(mvvm_set(profile, "address", &partial), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "street") != NULL);
    mvvm_value unknown_pairs[2] = { value_string("planet"), value_string("Mars") };
    mvvm_value unknown = value_items(MVVM_TYPE_MAP, unknown_pairs, 1);
    CHECK_STATUS(mvvm_set(profile, "address", &unknown), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "planet") != NULL);
    mvvm_value short_record = value_items(MVVM_TYPE_RECORD, fields, 2);
    CHECK_STATUS(mvvm_set(profile, "address", &short_record), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_STR(get_text(profile, "address", text, sizeof text), "address{Via 2, Rome, null}");
    /* mvvm_snapshot writes a record as an object of its fields. */
    char *json = NULL;
    CHECK_STATUS(mvvm_snapshot(profile, &json), MVVM_OK);
    CHECK(json && strstr(json, "\"address\": {\"street\": \"Via 2\", \"city\": \"Rome\", \"zip_code\": null}") != NULL);
    mvvm_string_free(json);
    /* The descriptions give the record with its fields and their types. */
    CHECK_STATUS(mvvm_describe(profile, &json), MVVM_OK);
    CHECK(json && strstr(json, "{\"name\": \"address\", \"type\": \"record\", \"access\": \"rw\"") != NULL);
    CHECK(json && strstr(json, "\"records\": {\"address\": {\"name\": \"address\"") != NULL);
    CHECK(json && strstr(json, "{\"name\": \"zip_code\", \"type\": \"string\", \"optional\": true}") != NULL);
    mvvm_string_free(json);
    RELEASE(profile);
    RELEASE(loop);
}

static void bytes_and_strings_are_read_by_their_length(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, "first", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    static const unsigned char image[5] = { 0x89, 'P', 0, 'N', 0xff };
    mvvm_value avatar = value_bytes(image, 5);
    CHECK_STATUS(mvvm_set(profile, "avatar", &avatar), MVVM_OK);
    mvvm_value read = {0};
    CHECK_STATUS(mvvm_get(profile, "avatar", &read), MVVM_OK);
    CHECK_EQ_INT(read.type, MVVM_TYPE_BYTES);
    CHECK_EQ_INT(read.integer, 5);
    CHECK(memcmp(read.string, image, 5) == 0);
    mvvm_value_free(&read);
    /* A string holding NUL: set as UTF-8 bytes, read whole by its length. */
    mvvm_value title = value_bytes("a\0b", 3);
    CHECK_STATUS(mvvm_set(profile, "first", &title), MVVM_OK);
    CHECK_STATUS(mvvm_get(profile, "first", &read), MVVM_OK);
    CHECK_EQ_INT(read.type, MVVM_TYPE_STRING);
    CHECK_EQ_INT(read.integer, 3);
    CHECK(memcmp(read.string, "a\0b", 4) == 0);
    mvvm_value_free(&read);
    /* Bytes that are not UTF-8 are no string. */
    mvvm_value invalid = value_bytes("\xff\xfe", 2);
    CHECK_STATUS(mvvm_set(profile, "first", &invalid), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(rec_count(r, "first"), 1);
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void commands_take_named_arguments_return_values_and_fail_with_their_message(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    char text[TEXT];
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, NULL, recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    mvvm_value tags[2] = { value_string("x"), value_string("y") };
    mvvm_value array = value_items(MVVM_TYPE_ARRAY, tags, 2);
    CHECK_STATUS(mvvm_set(profile, "tags", &array), MVVM_OK);
    /* Three named arguments, a record back. */
    mvvm_value three[3] = { value_string("Bob"), value_string("Elm 3"), value_string("Bergen") };
    mvvm_value result = {0};
    CHECK_STATUS(mvvm_call(profile, "contact", three, 3, &result), MVVM_OK);
    value_to_text(&result, text, sizeof text);
    CHECK_EQ_STR(text, "contact{Bob, address{Elm 3, Bergen, null}, [x, y]}");
    mvvm_value_free(&result);
    /* By name, in any order; and through the typed call. */
    const char *names[3] = { "city", "name", "street" };
    mvvm_value named[3] = { value_string("Turku"), value_string("Eve"), value_string("Puisto 1") };
    CHECK_STATUS(mvvm_call_named(profile, "contact", names, named, 3, &result), MVVM_OK);
    value_to_text(&result, text, sizeof text);
    CHECK_EQ_STR(text, "contact{Eve, address{Puisto 1, Turku, null}, [x, y]}");
    mvvm_value_free(&result);
    CHECK_STATUS(mvvm_profile_contact(profile, "Al", "Rd 1", "Kyiv", &result), MVVM_OK);
    const mvvm_value *name = NULL;
    CHECK_STATUS(mvvm_record_field(&result, "name", &name), MVVM_OK);
    CHECK_EQ_STR(name->string, "Al");
    mvvm_value_free(&result);
    /* The wrong count, an unknown name, a name given twice, a wrong type: refused, named. */
    CHECK_STATUS(mvvm_call(profile, "contact", three, 2, &result), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "city") != NULL && strstr(mvvm_last_error(), "missing") != NULL);
    const char *wrong[3] = { "city", "name", "planet" };
    CHECK_STATUS(mvvm_call_named(profile, "contact", wrong, named, 3, &result), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "planet") != NULL);
    const char *twice[3] = { "city", "city", "name" };
    CHECK_STATUS(mvvm_call_named(profile, "contact", twice, named, 3, &result), MVVM_ERR_INVALID_ARGUMENT);
    mvvm_value not_text[3] = { value_string("Bob"), value_int(3), value_string("Bergen") };
    CHECK_STATUS(mvvm_call(profile, "contact", not_text, 3, &result), MVVM_ERR_TYPE_MISMATCH);
    CHECK(strstr(mvvm_last_error(), "(street)") != NULL);
    CHECK_EQ_INT(result.type, MVVM_TYPE_NONE);
    /* mvvm_send takes one argument at most: a command of two says to call it. */
    CHECK_STATUS(mvvm_send(profile, "move_tag", &three[0]), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "mvvm_call") != NULL);
    /* A command that throws: its status and text, and what it changed first is notified. */
    recorder_clear(r);
    mvvm_value indices[2] = { value_int(0), value_int(9) };
    CHECK_STATUS(mvvm_call(profile, "move_tag", indices, 2, NULL), MVVM_ERR_COMMAND_FAILED);
    CHECK_EQ_STR(mvvm_last_error(), "profile.move_tag failed: no tag at 9 (there are 2)");
    CHECK_EQ_INT(rec_count(r, "saves"), 1);
    CHECK_EQ_INT(rec_count(r, "tags"), 0);
    CHECK_STATUS(mvvm_profile_move_tag(profile, 1, 0), MVVM_OK);
    CHECK_EQ_STR(get_text(profile, "tags", text, sizeof text), "[y, x]");
    CHECK_STATUS(mvvm_call(profile, "save", NULL, 0, &result), MVVM_ERR_COMMAND_FAILED);
    CHECK_EQ_STR(mvvm_last_error(), "profile.save failed: the profile has no address");
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void a_signal_carries_a_record_and_a_callback_keeps_a_copy(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(profile, "saved", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    mvvm_value pairs[4] = { value_string("street"), value_string("Main 1"), value_string("city"), value_string("Oslo") };
    mvvm_value map = value_items(MVVM_TYPE_MAP, pairs, 2);
    CHECK_STATUS(mvvm_set(profile, "address", &map), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(profile, "first", "Ada"), MVVM_OK);
    mvvm_value saved = {0};
    CHECK_STATUS(mvvm_call(profile, "save", NULL, 0, &saved), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "saved"), 1);
    CHECK_EQ_STR(rec_text(r, "saved", 0), "contact{Ada, address{Main 1, Oslo, null}, []}");
    CHECK_EQ_INT(r->kind[0], MVVM_EVENT_SIGNAL);
    /* mvvm_value_copy: an owned deep copy. */
    mvvm_value copy = {0};
    CHECK_STATUS(mvvm_value_copy(&saved, &copy), MVVM_OK);
    mvvm_value_free(&saved);
    char text[TEXT];
    value_to_text(&copy, text, sizeof text);
    CHECK_EQ_STR(text, "contact{Ada, address{Main 1, Oslo, null}, []}");
    mvvm_value_free(&copy);
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void a_computed_property_is_notified_once_per_operation_with_its_new_value(void) {
    mvvm_handle loop = new_virtual_loop(), profile = new_profile(loop), sub = 0;
    recorder *r = recorder_new();
    r->read_back = true;
    CHECK_STATUS(mvvm_subscribe(profile, "full_name", recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(profile, "first", "Ada"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(profile, "last", "Lovelace"), MVVM_OK);
    /* Each operation once, with the value after it (never the one from before: @Published sends
     * in willSet), and the getter in the callback agrees. */
    CHECK_EQ_INT(rec_count(r, "full_name"), 2);
    CHECK_EQ_STR(rec_text(r, "full_name", 0), "Ada");
    CHECK_EQ_STR(rec_text(r, "full_name", 1), "Ada Lovelace");
    CHECK_EQ_STR(r->read[1], "Ada Lovelace");
    /* An operation that leaves it as it was notifies nothing. */
    mvvm_value tags[1] = { value_string("t") };
    mvvm_value array = value_items(MVVM_TYPE_ARRAY, tags, 1);
    CHECK_STATUS(mvvm_set(profile, "tags", &array), MVVM_OK);
    CHECK_EQ_INT(rec_count(r, "full_name"), 2);
    RELEASE(profile);
    recorder_free(r);
    RELEASE(loop);
}

static void an_observable_class_has_the_same_kinds(void) {
    mvvm_handle loop = new_virtual_loop(), wishlist = 0, sub = 0;
    char text[TEXT];
    CHECK_STATUS(mvvm_wishlist_new(loop, &wishlist), MVVM_OK);
    recorder *r = recorder_new();
    CHECK_STATUS(mvvm_subscribe(wishlist, NULL, recorder_callback, r, recorder_destroy, &sub), MVVM_OK);
    /* An optional argument left out is null; an int result through the typed call. */
    mvvm_value hat[2] = { value_string("hat"), value_double(20) };
    mvvm_value count = {0};
    CHECK_STATUS(mvvm_call(wishlist, "add", hat, 2, &count), MVVM_OK);
    CHECK_EQ_INT(count.integer, 1);
    int64_t items = 0;
    mvvm_value scarf = value_string("scarf");
    CHECK_STATUS(mvvm_call(wishlist, "add", &scarf, 1, NULL), MVVM_OK);
    mvvm_value price = value_int(5);
    CHECK_STATUS(mvvm_wishlist_add(wishlist, "gloves", &price, &items), MVVM_OK);
    CHECK_EQ_INT(items, 3);
    CHECK_EQ_STR(get_text(wishlist, "prices", text, sizeof text), "[20, null, 5]");
    CHECK_EQ_STR(get_text(wishlist, "items", text, sizeof text), "[hat, scarf, gloves]");
    CHECK(rec_count(r, "total") >= 1);
    CHECK_EQ_STR(rec_text(r, "total", rec_count(r, "total") - 1), "25");
    /* A string result; a failure. */
    char *item = NULL;
    CHECK_STATUS(mvvm_wishlist_item(wishlist, 1, &item), MVVM_OK);
    CHECK_EQ_STR(item, "scarf");
    mvvm_string_free(item);
    item = NULL;
    CHECK_STATUS(mvvm_wishlist_item(wishlist, 7, &item), MVVM_ERR_COMMAND_FAILED);
    CHECK_EQ_STR(mvvm_last_error(), "wishlist.item failed: no item 7");
    CHECK(item == NULL);
    /* An optional record binding. */
    mvvm_value pairs[4] = { value_string("street"), value_string("Home 1"), value_string("city"), value_string("Oslo") };
    mvvm_value map = value_items(MVVM_TYPE_MAP, pairs, 2);
    CHECK_STATUS(mvvm_set(wishlist, "home", &map), MVVM_OK);
    CHECK_EQ_STR(rec_text(r, "home", 0), "address{Home 1, Oslo, null}");
    RELEASE(wishlist);
    recorder_free(r);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(an_optional_holds_a_value_or_null),
        CHECK_TEST(an_array_is_one_value_set_read_and_notified_whole),
        CHECK_TEST(a_record_is_given_by_position_or_by_name_and_read_field_by_field),
        CHECK_TEST(bytes_and_strings_are_read_by_their_length),
        CHECK_TEST(commands_take_named_arguments_return_values_and_fail_with_their_message),
        CHECK_TEST(a_signal_carries_a_record_and_a_callback_keeps_a_copy),
        CHECK_TEST(a_computed_property_is_notified_once_per_operation_with_its_new_value),
        CHECK_TEST(an_observable_class_has_the_same_kinds),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
