/*
 * test_foundation_values.c - Foundation's UUID, Date, URL and Decimal as values (Tests/outside's
 * Order, issue 41): UUID, URL and Decimal travel as MVVM_TYPE_STRING and Date as MVVM_TYPE_DOUBLE,
 * through the typed and the generic calls, in properties, command, async command and constructor
 * arguments, results, record fields, arrays and optionals; extremes both ways (dates before 1970
 * and after year 9999, 38 digits, negative exponents, a non-ASCII URL as absoluteString gives it,
 * a lowercase UUID); malformed text is INVALID_ARGUMENT naming the member, and changes nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "sample.h"

#define TEXT 512
#define DIGITS_38 "12345678901234567890123456789012345678"

static bool error_is(const char *expected) {
    if (strcmp(mvvm_last_error(), expected) == 0) return true;
    fprintf(stderr, "    message: %s\n    expected: %s\n", mvvm_last_error(), expected);
    return false;
}

static mvvm_handle new_order(mvvm_handle loop) {
    mvvm_handle order = 0;
    CHECK_STATUS(mvvm_order_new(loop, &order), MVVM_OK);
    return order;
}

/* The string the typed getter gives for `name`, in `out`. */
static const char *typed_text(mvvm_status (*get)(mvvm_handle, char **), mvvm_handle order, char *out) {
    char *text = NULL;
    out[0] = '\0';
    if (CHECK_STATUS(get(order, &text), MVVM_OK)) snprintf(out, TEXT, "%s", text);
    mvvm_string_free(text);
    return out;
}

static void a_uuid_is_taken_in_any_case_and_given_in_upper_case(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop), made = 0;
    char text[TEXT];
    CHECK_EQ_STR(typed_text(mvvm_order_get_id, order, text), "00000000-0000-0000-0000-000000000001");
    CHECK_STATUS(mvvm_order_set_id(order, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), MVVM_OK);
    CHECK_EQ_STR(typed_text(mvvm_order_get_id, order, text), "E621E1F8-C36C-495A-93FC-0C247A3E6E5F");
    /* The generic getter of an older host: a plain string. */
    CHECK_GET_STRING(order, "id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F");
    CHECK_STATUS(mvvm_set_string(order, "id", "E621E1F8C36C495A93FC0C247A3E6E5F"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.id cannot hold \"E621E1F8C36C495A93FC0C247A3E6E5F\": it is no UUID (8-4-4-4-12 hexadecimal digits)"));
    CHECK_GET_STRING(order, "id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F");
    /* A constructor's argument, typed and generic. */
    CHECK_STATUS(mvvm_order_new_with_id(loop, "abcdefab-cdef-abcd-efab-cdefabcdefab", &made), MVVM_OK);
    CHECK_GET_STRING(made, "id", "ABCDEFAB-CDEF-ABCD-EFAB-CDEFABCDEFAB");
    RELEASE(made);
    mvvm_value id = value_string("not-a-uuid");
    CHECK_STATUS(mvvm_new(loop, "order", &id, 1, &made), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("argument 1 of order (id) cannot hold \"not-a-uuid\": it is no UUID (8-4-4-4-12 hexadecimal digits)"));
    /* An array of them. */
    mvvm_value ids[2] = { value_string("00000000-0000-0000-0000-00000000000a"), value_string("ffffffff-ffff-ffff-ffff-ffffffffffff") };
    mvvm_value related = value_items(MVVM_TYPE_ARRAY, ids, 2);
    CHECK_STATUS(mvvm_order_set_related(order, &related), MVVM_OK);
    CHECK_EQ_STR(get_text(order, "related", text, sizeof text),
                 "[00000000-0000-0000-0000-00000000000A, FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF]");
    ids[1] = value_string("ffffffff-ffff-ffff-ffff-fffffffffff");
    CHECK_STATUS(mvvm_set(order, "related", &related), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.related[1] cannot hold \"ffffffff-ffff-ffff-ffff-fffffffffff\": it is no UUID (8-4-4-4-12 hexadecimal digits)"));
    RELEASE(order);
    RELEASE(loop);
}

static void a_date_is_seconds_since_1970_bit_exact(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop);
    /* Before year 1, before 1970, after year 9999, with fractions Date holds exactly. */
    const double seconds[] = { -62135596801.25, -1e10 + 0.5, -0.5, 0, 1700000000.123456, 253402300800.5, 1e15 };
    for (size_t i = 0; i < sizeof seconds / sizeof seconds[0]; i++) {
        double got = 1;
        CHECK_STATUS(mvvm_order_set_placed(order, seconds[i]), MVVM_OK);
        CHECK_STATUS(mvvm_order_get_placed(order, &got), MVVM_OK);
        CHECK(memcmp(&got, &seconds[i], sizeof got) == 0);
        CHECK_STATUS(mvvm_get_double(order, "placed", &got), MVVM_OK);
        CHECK(memcmp(&got, &seconds[i], sizeof got) == 0);
    }
    /* An int is taken for one; a string is not. */
    CHECK_STATUS(mvvm_set_int(order, "placed", -86400), MVVM_OK);
    double got = 0;
    CHECK_STATUS(mvvm_get_double(order, "placed", &got), MVVM_OK);
    CHECK(got == -86400);
    CHECK_STATUS(mvvm_set_string(order, "placed", "1970-01-01"), MVVM_ERR_TYPE_MISMATCH);
    /* An optional one. */
    mvvm_value due = value_double(-1e10);
    char text[TEXT];
    CHECK_EQ_STR(get_text(order, "due", text, sizeof text), "null");
    CHECK_STATUS(mvvm_order_set_due(order, &due), MVVM_OK);
    CHECK_EQ_STR(get_text(order, "due", text, sizeof text), "-1e+10");
    RELEASE(order);
    RELEASE(loop);
}

static void a_url_has_a_scheme_and_is_given_as_its_absolute_string(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop);
    char text[TEXT];
    CHECK_EQ_STR(typed_text(mvvm_order_get_link, order, text), "https://example.com/");
    CHECK_STATUS(mvvm_order_set_link(order, "https://例え.jp/パス?q=ü#frag"), MVVM_OK);
    CHECK_EQ_STR(typed_text(mvvm_order_get_link, order, text),
                 "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%BC#frag");
    CHECK_STATUS(mvvm_set_string(order, "link", "mailto:ada@example.com"), MVVM_OK);
    CHECK_GET_STRING(order, "link", "mailto:ada@example.com");
    CHECK_STATUS(mvvm_order_set_link(order, "not a url"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.link cannot hold \"not a url\": it is no URL: it has no scheme (as https: or mailto:)"));
    CHECK_STATUS(mvvm_order_set_link(order, "http://exa mple.com/"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.link cannot hold \"http://exa mple.com/\": URL cannot parse it"));
    CHECK_GET_STRING(order, "link", "mailto:ada@example.com");
    RELEASE(order);
    RELEASE(loop);
}

static void a_decimal_is_exact_text(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop);
    char text[TEXT];
    CHECK_EQ_STR(typed_text(mvvm_order_get_cost, order, text), "0");
    CHECK_STATUS(mvvm_order_set_cost(order, DIGITS_38), MVVM_OK);
    CHECK_EQ_STR(typed_text(mvvm_order_get_cost, order, text), DIGITS_38);
    CHECK_STATUS(mvvm_order_set_cost(order, "-" DIGITS_38 "e-128"), MVVM_OK);
    CHECK_EQ_STR(typed_text(mvvm_order_get_cost, order, text),
                 "-0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" DIGITS_38);
    CHECK_STATUS(mvvm_set_string(order, "cost", "1.50E-2"), MVVM_OK);
    CHECK_GET_STRING(order, "cost", "0.015");
    CHECK_STATUS(mvvm_set_int(order, "cost", -42), MVVM_OK);
    CHECK_GET_STRING(order, "cost", "-42");
    /* Foundation would read 1.2 of it. */
    CHECK_STATUS(mvvm_order_set_cost(order, "1.2.3"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.cost cannot hold \"1.2.3\": it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)"));
    CHECK_STATUS(mvvm_order_set_cost(order, "NaN"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_order_set_cost(order, "-Infinity"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_order_set_cost(order, DIGITS_38 "9"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.cost cannot hold \"" DIGITS_38 "9\": it has 39 significant digits, more than Decimal's 38"));
    CHECK_STATUS(mvvm_order_set_cost(order, "1e-129"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.cost cannot hold \"1e-129\": it is beyond Decimal's range"));
    CHECK_GET_STRING(order, "cost", "-42");
    RELEASE(order);
    RELEASE(loop);
}

/* "1", `zeros` zeros, then `exponent` (as "e-1000100"): a new string, freed by the caller. */
static char *one_and_zeros(size_t zeros, const char *exponent) {
    char *text = malloc(1 + zeros + strlen(exponent) + 1);
    if (!text) abort();
    text[0] = '1';
    memset(text + 1, '0', zeros);
    strcpy(text + 1 + zeros, exponent);
    return text;
}

/* Issue 48, item 3: an exponent past a million is weighed against the digits before it (it was
 * clamped first: 1 written with a million zeros and e-1000100 was stored as 1e100). */
static void a_decimal_written_with_a_million_digits_is_its_own_value_or_refused(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop);
    char *one = one_and_zeros(1000100, "e-1000100"), *tiny = one_and_zeros(1000100, "e-1000300");
    CHECK_STATUS(mvvm_order_set_cost(order, one), MVVM_OK);
    CHECK_GET_STRING(order, "cost", "1");
    CHECK_STATUS(mvvm_order_set_cost(order, tiny), MVVM_ERR_INVALID_ARGUMENT);  /* 1e-200 */
    CHECK(strstr(mvvm_last_error(), "(1000110 bytes in all): it is beyond Decimal's range") != NULL);
    CHECK_GET_STRING(order, "cost", "1");
    free(one);
    free(tiny);
    RELEASE(order);
    RELEASE(loop);
}

/* An async call's result as text, "(running)" until it ends; its status is MVVM_OK's or not. */
static void on_postponed(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *text) {
    (void)call;
    (void)message;
    if (status == MVVM_OK) value_to_text(result, text, TEXT);
    else snprintf(text, TEXT, "(failed: %s)", check_status_name(status));
}

static void commands_records_and_async_commands_take_and_give_each_kind(void) {
    mvvm_handle loop = new_virtual_loop(), order = new_order(loop), call = 0;
    char text[TEXT];
    mvvm_value line = {0};
    CHECK_STATUS(mvvm_order_make_line(order, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", -1.5, "https://a.example/ü", "-0.00100", &line),
                 MVVM_OK);
    value_to_text(&line, text, sizeof text);
    CHECK_EQ_STR(text, "line_item{E621E1F8-C36C-495A-93FC-0C247A3E6E5F, -1.5, https://a.example/%C3%BC, -0.001, null}");
    /* The record given back as a property's value, then read. */
    CHECK_STATUS(mvvm_order_set_line(order, &line), MVVM_OK);
    CHECK_EQ_STR(get_text(order, "line", text, sizeof text),
                 "line_item{E621E1F8-C36C-495A-93FC-0C247A3E6E5F, -1.5, https://a.example/%C3%BC, -0.001, null}");
    mvvm_value_free(&line);
    /* A malformed field is named; so is a malformed argument. */
    mvvm_value fields[5] = { value_string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), value_double(0),
                             value_string("https://a.example"), value_string("1,5"), value_null() };
    mvvm_value bad = value_items(MVVM_TYPE_RECORD, fields, 5);
    CHECK_STATUS(mvvm_set(order, "line", &bad), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("order.line.price cannot hold \"1,5\": it is no decimal number (-?digits(.digits)?([eE][+-]?digits)?)"));
    CHECK_STATUS(mvvm_order_make_line(order, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", 0, "a.example", "1", NULL),
                 MVVM_ERR_INVALID_ARGUMENT);
    CHECK(error_is("argument 3 of order.make_line (link) cannot hold \"a.example\": it is no URL: it has no scheme (as https: or mailto:)"));
    /* An async command's argument and optional result. */
    char postponed[TEXT] = "(running)";
    CHECK_STATUS(mvvm_order_postpone(order, 253402300800.5, on_postponed, postponed, NULL, &call), MVVM_OK);
    CHECK_STATUS(mvvm_loop_advance(loop, 0), MVVM_OK);
    CHECK_EQ_STR(postponed, "null");
    double due = 0;
    mvvm_value value = {0};
    CHECK_STATUS(mvvm_get(order, "due", &value), MVVM_OK);
    CHECK_EQ_INT(value.type, MVVM_TYPE_DOUBLE);
    due = value.number;
    CHECK(due == 253402300800.5);
    mvvm_value_free(&value);
    RELEASE(order);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_uuid_is_taken_in_any_case_and_given_in_upper_case),
        CHECK_TEST(a_date_is_seconds_since_1970_bit_exact),
        CHECK_TEST(a_url_has_a_scheme_and_is_given_as_its_absolute_string),
        CHECK_TEST(a_decimal_is_exact_text),
        CHECK_TEST(a_decimal_written_with_a_million_digits_is_its_own_value_or_refused),
        CHECK_TEST(commands_records_and_async_commands_take_and_give_each_kind),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
