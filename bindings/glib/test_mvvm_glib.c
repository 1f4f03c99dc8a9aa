/*
 * test_mvvm_glib.c - the GLib bridge's tests (GLib's GTest, TAP output), over four libraries side
 * by side: Tests/outside's libsample.so (optionals, arrays, records, bytes, lists, async
 * commands; MVVM_SAMPLE_LIBRARY), the todo app's libtodo.so (lists over a store;
 * MVVM_TODO_LIBRARY), the search screen's libsearch.so (an async command waiting for a host
 * service; MVVM_SEARCH_LIBRARY) and the catalog's libmvvm.so (signals, children, host services,
 * timed work; MVVM_CATALOG_LIBRARY): none of the first three carries the catalog; and
 * Tests/outside's libappsample.so (a @MainActor view model on the main loop;
 * MVVM_APP_SAMPLE_LIBRARY). GLib only: no display is needed.
 *
 *   test_mvvm_glib --tap      (examples/gtk/run_tests.sh runs it, natively and under valgrind)
 *
 * Assertions are non-fatal: a failing check fails its test and the others still run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "mvvm-glib.h"
#include "mvvm.h"

static MvvmGlibLibrary *sample, *todo, *catalog;
static MvvmGlibLoop *sample_loop, *todo_loop, *catalog_loop;

/* libmvvm's own calls, reached in the same loaded library, to look behind the bridge. */
static __typeof__(mvvm_class_name) *sample_class_name;
static __typeof__(mvvm_loop_new) *sample_loop_new;
static __typeof__(mvvm_release) *sample_release;
static __typeof__(mvvm_set) *sample_set;

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static MvvmGlibObject *make(MvvmGlibLoop *loop, const char *class_name, GVariant *arguments) {
    GError *error = NULL;
    MvvmGlibObject *object = mvvm_glib_object_new(loop, class_name, arguments, &error);
    g_assert_no_error(error);
    g_assert_nonnull(object);
    return object;
}

/* Runs the default main context until nothing is pending (idles: put-back notifications). */
static void drain(void) {
    while (g_main_context_pending(NULL)) g_main_context_iteration(NULL, FALSE);
}

/* A record of notifications, each "name=value" as the getter reads it in the handler. */
typedef struct {
    GString *log;
} Recorder;

static void on_notify_record(GObject *object, GParamSpec *pspec, Recorder *recorder) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, pspec->value_type);
    g_object_get_property(object, pspec->name, &value);
    char *text = G_VALUE_HOLDS_VARIANT(&value) && g_value_get_variant(&value) ? g_variant_print(g_value_get_variant(&value), FALSE)
                                                                               : g_strdup_value_contents(&value);
    g_strdelimit(text, " ", '_');   /* one entry, one word */
    g_string_append_printf(recorder->log, "%s%s=%s", recorder->log->len ? " " : "", pspec->name, text);
    g_free(text);
    g_value_unset(&value);
}

static void record_notifications(gpointer object, Recorder *recorder) {
    recorder->log = g_string_new(NULL);
    g_signal_connect(object, "notify", G_CALLBACK(on_notify_record), recorder);
}

static int compare_strings(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The notifications since the last call, sorted: g_object_set() holds them back and emits them
 * in an order of its own (the order of one operation's notifications is libmvvm's concern). */
static char *take_log(Recorder *recorder) {
    char **entries = g_strsplit(recorder->log->str, " ", -1);
    qsort(entries, g_strv_length(entries), sizeof *entries, compare_strings);
    char *text = g_strjoinv(" ", entries);
    g_strfreev(entries);
    g_string_truncate(recorder->log, 0);
    return text;
}

#define ASSERT_LOG(recorder, expected)                 \
    do {                                               \
        char *log_ = take_log(recorder);               \
        g_assert_cmpstr(log_, ==, expected);           \
        g_free(log_);                                  \
    } while (0)

static char *variant_text(GVariant *variant) {
    return variant ? g_variant_print(variant, TRUE) : g_strdup("(null)");
}

#define ASSERT_VARIANT(variant, expected)              \
    do {                                               \
        char *text_ = variant_text(variant);           \
        g_assert_cmpstr(text_, ==, expected);          \
        g_free(text_);                                 \
    } while (0)

/* The items of a list model as "title|title|...". */
static char *titles_of(GListModel *model) {
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < g_list_model_get_n_items(model); i++) {
        GObject *item = g_list_model_get_item(model, i);
        char *title = NULL;
        g_object_get(item, "title", &title, NULL);
        g_string_append_printf(out, "%s%s", i ? "|" : "", title);
        g_free(title);
        g_object_unref(item);
    }
    return g_string_free(out, FALSE);
}

#define ASSERT_TITLES(model, expected)                 \
    do {                                               \
        char *titles_ = titles_of(G_LIST_MODEL(model)); \
        g_assert_cmpstr(titles_, ==, expected);        \
        g_free(titles_);                               \
    } while (0)

static void on_items_changed(GListModel *model, guint position, guint removed, guint added, GString *log) {
    (void)model;
    g_string_append_printf(log, "%s(%u,%u,%u)", log->len ? " " : "", position, removed, added);
}

/* ------------------------------------------------------------------------------------------ */
/* Libraries                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void libraries_open_side_by_side(void) {
    g_assert_cmpstr(mvvm_glib_library_get_type_prefix(sample), ==, "MvvmSample");
    g_assert_cmpstr(mvvm_glib_library_get_type_prefix(todo), ==, "MvvmTodo");
    g_assert_cmpstr(mvvm_glib_library_get_type_prefix(catalog), ==, "MvvmCatalog");
    g_assert_cmpuint(mvvm_glib_library_get_tag(sample), !=, mvvm_glib_library_get_tag(todo));
    g_assert_cmpuint(mvvm_glib_library_get_tag(catalog), !=, mvvm_glib_library_get_tag(todo));
    /* Each library's classes are GTypes of its own prefix, all of the base type. */
    GType in_sample = mvvm_glib_library_get_class_type(sample, "tally");
    GType in_todo = mvvm_glib_library_get_class_type(todo, "todo_list_view_model");
    GType in_catalog = mvvm_glib_library_get_class_type(catalog, "counter_view_model");
    g_assert_cmpstr(g_type_name(in_sample), ==, "MvvmSample_Tally");
    g_assert_cmpstr(g_type_name(in_todo), ==, "MvvmTodo_TodoListViewModel");
    g_assert_cmpstr(g_type_name(in_catalog), ==, "MvvmCatalog_CounterViewModel");
    g_assert_true(g_type_is_a(in_sample, MVVM_GLIB_TYPE_OBJECT) && g_type_is_a(in_todo, MVVM_GLIB_TYPE_OBJECT)
                  && g_type_is_a(in_catalog, MVVM_GLIB_TYPE_OBJECT));
    g_assert_true(g_type_is_a(in_catalog, G_TYPE_ACTION_GROUP));
    g_assert_cmpuint(mvvm_glib_library_get_class_type(todo, "profile"), ==, G_TYPE_INVALID);
    /* A library carries the catalog only when its hook registers it: neither of these does. */
    g_assert_cmpuint(mvvm_glib_library_get_class_type(todo, "counter_view_model"), ==, G_TYPE_INVALID);
    g_assert_cmpuint(mvvm_glib_library_get_class_type(sample, "counter"), ==, G_TYPE_INVALID);
    char **classes = mvvm_glib_library_list_classes(sample);
    g_assert_true(g_strv_contains((const char *const *)classes, "profile"));
    g_assert_false(g_strv_contains((const char *const *)classes, "counter"));
    g_strfreev(classes);
    g_assert_nonnull(strstr(mvvm_glib_library_get_classes_json(todo), "\"todo_item_view_model\""));
    g_assert_cmpstr(mvvm_glib_library_get_version(todo), !=, "");

    /* Opening it again, by its path, gives the same library. */
    GError *error = NULL;
    MvvmGlibLibrary *again = mvvm_glib_library_open(mvvm_glib_library_get_path(todo), &error);
    g_assert_no_error(error);
    g_assert_true(again == todo);
    g_object_unref(again);

    /* Objects of each work with their own library. */
    MvvmGlibObject *a = make(catalog_loop, "counter", NULL);
    MvvmGlibObject *b = make(sample_loop, "tally", g_variant_new("(x)", (gint64)0));
    g_assert_true(G_OBJECT_TYPE(a) == mvvm_glib_library_get_class_type(catalog, "counter"));
    g_assert_true(G_OBJECT_TYPE(b) == in_sample);
    g_assert_null(mvvm_glib_object_call(a, "increment", NULL, &error));
    g_assert_no_error(error);
    gint64 count_a = -1, count_b = -1;
    g_object_get(a, "count", &count_a, NULL);
    g_object_get(b, "total", &count_b, NULL);
    g_assert_cmpint(count_a, ==, 1);
    g_assert_cmpint(count_b, ==, 0);
    g_object_unref(a);
    g_object_unref(b);
}

static void library_open_failures_say_why(void) {
    GError *error = NULL;
    g_assert_null(mvvm_glib_library_open("/nonexistent/libnothing.so", &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_LOAD_FAILED);
    g_assert_nonnull(strstr(error->message, "libnothing.so"));
    g_clear_error(&error);
    /* A shared library that is no libmvvm library (libc). */
    g_assert_null(mvvm_glib_library_open("libc.so.6", &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_LOAD_FAILED);
    g_assert_nonnull(strstr(error->message, "no libmvvm library"));
    g_clear_error(&error);
}

/* A copy of the sample library at root/folder/name, opened; the files made are added to `made`,
 * to be removed in reverse. */
static MvvmGlibLibrary *open_copy(const char *root, const char *folder, const char *name, GPtrArray *made) {
    char *dir = g_build_filename(root, folder, NULL);
    char *path = g_build_filename(dir, name, NULL);
    g_mkdir(dir, 0700);
    g_ptr_array_add(made, dir);
    g_ptr_array_add(made, path);
    GFile *from = g_file_new_for_path(g_getenv("MVVM_SAMPLE_LIBRARY"));
    GFile *to = g_file_new_for_path(path);
    GError *error = NULL;
    g_file_copy(from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
    g_assert_no_error(error);
    g_object_unref(from);
    g_object_unref(to);
    MvvmGlibLibrary *library = mvvm_glib_library_open(path, &error);
    g_assert_no_error(error);
    return library;
}

/* a/libmvvm.so takes "Mvvm" (or a tagged prefix when a library opened before has it);
 * b/libmvvm<N>.so takes "Mvvm<N>"; c/libmvvm.so, of tag N, finds "Mvvm" and "Mvvm<N>" both taken
 * and gets a prefix of its own. */
static void a_tagged_type_prefix_is_one_no_library_has(void) {
    char *root = g_dir_make_tmp("mvvm-glib-prefixes-XXXXXX", NULL);
    GPtrArray *made = g_ptr_array_new_with_free_func(g_free);
    MvvmGlibLibrary *a = open_copy(root, "a", "libmvvm.so", made);
    g_assert_true(g_str_has_prefix(mvvm_glib_library_get_type_prefix(a), "Mvvm"));
    /* Tags are given in turn: b gets a's next, c the one after. */
    unsigned c_tag = mvvm_glib_library_get_tag(a) + 2u;
    char *b_name = g_strdup_printf("libmvvm%u.so", c_tag), *b_prefix = g_strdup_printf("Mvvm%u", c_tag);
    MvvmGlibLibrary *b = open_copy(root, "b", b_name, made);
    g_assert_cmpstr(mvvm_glib_library_get_type_prefix(b), ==, b_prefix);
    MvvmGlibLibrary *c = open_copy(root, "c", "libmvvm.so", made);
    g_assert_nonnull(c);
    if (c) {
        g_assert_cmpuint(mvvm_glib_library_get_tag(c), ==, c_tag);
        const char *prefix = mvvm_glib_library_get_type_prefix(c);
        g_assert_cmpstr(prefix, !=, "Mvvm");
        g_assert_cmpstr(prefix, !=, b_prefix);
        GType in_b = mvvm_glib_library_get_class_type(b, "tally"), in_c = mvvm_glib_library_get_class_type(c, "tally");
        g_assert_true(in_c != G_TYPE_INVALID && in_c != in_b);
        char *expected = g_strconcat(prefix, "_Tally", NULL);
        g_assert_cmpstr(g_type_name(in_c), ==, expected);
        g_free(expected);
        g_object_unref(c);
    }
    g_object_unref(b);
    g_object_unref(a);
    for (guint i = made->len; i > 0; i--) g_remove(g_ptr_array_index(made, i - 1));
    g_remove(root);
    g_ptr_array_unref(made);
    g_free(b_name);
    g_free(b_prefix);
    g_free(root);
}

/* ------------------------------------------------------------------------------------------ */
/* Properties                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static void properties_have_the_members_types_and_access(void) {
    GObjectClass *klass = g_type_class_ref(mvvm_glib_library_get_class_type(sample, "profile"));
    const struct { const char *name; GType type; gboolean writable; const char *variant_type; } expected[] = {
        {"first", G_TYPE_STRING, TRUE, NULL},     {"full-name", G_TYPE_STRING, FALSE, NULL},
        {"limit", G_TYPE_VARIANT, TRUE, "mx"},    {"tags", G_TYPE_VARIANT, TRUE, "as"},
        {"scores", G_TYPE_VARIANT, TRUE, "ad"},   {"address", G_TYPE_VARIANT, TRUE, "ma{sv}"},
        {"avatar", G_TYPE_BYTES, TRUE, NULL},     {"saves", G_TYPE_INT64, FALSE, NULL},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(expected); i++) {
        GParamSpec *pspec = g_object_class_find_property(klass, expected[i].name);
        g_assert_nonnull(pspec);
        if (!pspec) continue;
        g_assert_cmpstr(g_type_name(pspec->value_type), ==, g_type_name(expected[i].type));
        g_assert_cmpint(!!(pspec->flags & G_PARAM_WRITABLE), ==, expected[i].writable);
        g_assert_true(pspec->flags & G_PARAM_READABLE);
        if (expected[i].variant_type)
            g_assert_cmpstr(g_variant_type_peek_string(G_PARAM_SPEC_VARIANT(pspec)->type), ==, expected[i].variant_type);
    }
    /* "full_name" is found too: GObject writes '-' for '_'. */
    g_assert_nonnull(g_object_class_find_property(klass, "full_name"));
    g_type_class_unref(klass);

    klass = g_type_class_ref(mvvm_glib_library_get_class_type(todo, "todo_list_view_model"));
    GParamSpec *items = g_object_class_find_property(klass, "items");
    g_assert_true(items && items->value_type == G_TYPE_LIST_MODEL && !(items->flags & G_PARAM_WRITABLE));
    g_type_class_unref(klass);
    klass = g_type_class_ref(mvvm_glib_library_get_class_type(catalog, "timer_view_model"));
    GParamSpec *display = g_object_class_find_property(klass, "display");
    g_assert_true(display && display->value_type == mvvm_glib_library_get_class_type(catalog, "display_view_model"));
    g_type_class_unref(klass);
}

static void notify_comes_after_the_change_once_per_operation(void) {
    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    Recorder recorder;
    record_notifications(profile, &recorder);
    g_object_set(profile, "first", "Ada", NULL);
    ASSERT_LOG(&recorder, "first=\"Ada\" full-name=\"Ada\"");   /* the getter in the handler sees the new value */
    g_object_set(profile, "first", "Ada", NULL);                   /* no change: no notification */
    ASSERT_LOG(&recorder, "");
    g_object_set(profile, "last", "Lovelace", NULL);
    ASSERT_LOG(&recorder, "full-name=\"Ada_Lovelace\" last=\"Lovelace\"");
    g_string_free(recorder.log, TRUE);
    g_object_unref(profile);

    /* One command changing a value many times: one notification with the final value. */
    MvvmGlibObject *tally = make(sample_loop, "tally", g_variant_new("(x)", (gint64)1));
    record_notifications(tally, &recorder);
    g_object_set(tally, "step", (gint64)2, NULL);
    ASSERT_LOG(&recorder, "step=2");
    GError *error = NULL;
    g_assert_null(mvvm_glib_object_call(tally, "add_many", g_variant_new("(x)", (gint64)5), &error));
    g_assert_no_error(error);
    ASSERT_LOG(&recorder, "total=11");   /* is_even stays false: 1 -> 11 */
    g_assert_null(mvvm_glib_object_call(tally, "add", NULL, &error));
    ASSERT_LOG(&recorder, "total=13");
    g_string_free(recorder.log, TRUE);
    g_object_unref(tally);
}

/* Foundation's values (Tests/outside's Order): a date is a GDateTime in UTC (NULL and a warning
 * beyond its years 1-9999), a UUID, URL or Decimal a string as the library gives it. */
static void foundation_values_are_date_times_and_strings(void) {
    MvvmGlibObject *order = make(sample_loop, "order", NULL);
    GObjectClass *klass = G_OBJECT_GET_CLASS(order);
    g_assert_true(g_object_class_find_property(klass, "placed")->value_type == G_TYPE_DATE_TIME);
    g_assert_true(g_object_class_find_property(klass, "id")->value_type == G_TYPE_STRING);
    GDateTime *placed = NULL;
    g_object_get(order, "placed", &placed, NULL);
    g_assert_cmpint(g_date_time_to_unix(placed), ==, 0);
    g_date_time_unref(placed);
    /* Before 1970, to the microsecond, in any zone. */
    GTimeZone *zone = g_time_zone_new_offset(5 * 3600);
    GDateTime *moment = g_date_time_new(zone, 1900, 1, 1, 0, 0, 0.25);
    g_object_set(order, "placed", moment, NULL);
    g_object_get(order, "placed", &placed, NULL);
    g_assert_true(g_date_time_equal(placed, moment));
    g_assert_cmpint(g_date_time_get_utc_offset(placed), ==, 0);
    g_date_time_unref(placed);
    g_date_time_unref(moment);
    g_time_zone_unref(zone);
    /* After year 9999, as another host set it: NULL and a warning. */
    mvvm_value beyond = {.type = MVVM_TYPE_DOUBLE, .number = 253402300800.5};
    g_assert_cmpint(sample_set(mvvm_glib_object_get_handle(order), "placed", &beyond), ==, MVVM_OK);
    g_test_expect_message("MvvmGlib", G_LOG_LEVEL_WARNING, "*beyond the years 1-9999 a GDateTime holds*");
    g_object_get(order, "placed", &placed, NULL);
    g_test_assert_expected_messages();
    g_assert_null(placed);
    /* A UUID in any case, handed out in upper case; a malformed one refused with a warning. */
    g_object_set(order, "id", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", NULL);
    char *id = NULL;
    g_object_get(order, "id", &id, NULL);
    g_assert_cmpstr(id, ==, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F");
    g_free(id);
    g_test_expect_message("MvvmGlib", G_LOG_LEVEL_WARNING, "*it is no UUID (8-4-4-4-12 hexadecimal digits)*");
    g_object_set(order, "id", "nope", NULL);
    g_test_assert_expected_messages();
    g_object_set(order, "cost", "-1.50E-3", NULL);
    char *cost = NULL;
    g_object_get(order, "cost", &cost, NULL);
    g_assert_cmpstr(cost, ==, "-0.0015");
    g_free(cost);
    g_object_unref(order);
}

static void values_beyond_scalars_are_variants_and_bytes(void) {
    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    GVariant *value = NULL;
    g_object_get(profile, "limit", &value, NULL);
    ASSERT_VARIANT(value, "@mx nothing");
    g_variant_unref(value);
    g_object_set(profile, "limit", g_variant_new("mx", TRUE, (gint64)5), NULL);
    g_object_get(profile, "limit", &value, NULL);
    ASSERT_VARIANT(value, "@mx 5");
    g_variant_unref(value);
    g_object_set(profile, "limit", NULL, NULL);   /* a NULL variant is none */
    g_object_get(profile, "limit", &value, NULL);
    ASSERT_VARIANT(value, "@mx nothing");
    g_variant_unref(value);

    const char *tags[] = {"b", "a"};
    g_object_set(profile, "tags", g_variant_new_strv(tags, 2), NULL);
    g_object_get(profile, "tags", &value, NULL);
    ASSERT_VARIANT(value, "['b', 'a']");
    g_variant_unref(value);
    g_object_set(profile, "scores", g_variant_new_parsed("[1.5, 2.0]"), NULL);
    g_object_get(profile, "scores", &value, NULL);
    ASSERT_VARIANT(value, "[1.5, 2.0]");
    g_variant_unref(value);

    /* A record by field names (an optional field left out is none), read back by names. A
     * property's value is of its own GVariant type (GObject checks): "ma{sv}" here. */
    g_object_set(profile, "address", g_variant_new_parsed("just {'street': <'1 Main St'>, 'city': <'London'>}"), NULL);
    g_object_get(profile, "address", &value, NULL);
    ASSERT_VARIANT(value, "@ma{sv} {'street': <'1 Main St'>, 'city': <'London'>, 'zip_code': <@ms nothing>}");
    g_variant_unref(value);
    g_object_set(profile, "address",
                 g_variant_new_parsed("just {'street': <'2 Elm St'>, 'city': <'Paris'>, 'zip_code': <just 'P1'>}"), NULL);
    g_object_get(profile, "address", &value, NULL);
    ASSERT_VARIANT(value, "@ma{sv} {'street': <'2 Elm St'>, 'city': <'Paris'>, 'zip_code': <@ms 'P1'>}");
    g_variant_unref(value);

    GBytes *bytes = g_bytes_new("\0\1\2", 3);
    g_object_set(profile, "avatar", bytes, NULL);
    g_bytes_unref(bytes);
    g_object_get(profile, "avatar", &bytes, NULL);
    g_assert_cmpmem(g_bytes_get_data(bytes, NULL), g_bytes_get_size(bytes), "\0\1\2", 3);
    g_bytes_unref(bytes);

    /* A value the library refuses changes nothing, says why, and is notified back. */
    Recorder recorder;
    record_notifications(profile, &recorder);
    g_test_expect_message("MvvmGlib", G_LOG_LEVEL_WARNING, "profile.address: *");
    g_object_set(profile, "address", g_variant_new_parsed("just {'city': <'Rome'>}"), NULL);
    g_test_assert_expected_messages();
    ASSERT_LOG(&recorder, "");
    drain();
    ASSERT_LOG(&recorder, "address={'street':_<'2_Elm_St'>,_'city':_<'Paris'>,_'zip_code':_<@ms_'P1'>}");
    g_string_free(recorder.log, TRUE);
    g_object_unref(profile);
}

/* A set whose value the view model puts back (it could not save it; a string it does not take)
 * is notified again from an idle, so that a binding shows what the model holds. */
static void a_value_put_back_is_notified_again(void) {
    MvvmGlibObject *todos = make(todo_loop, "todo_list_view_model", g_variant_new("(s)", ""));
    Recorder recorder;
    record_notifications(todos, &recorder);
    g_test_expect_message("MvvmGlib", G_LOG_LEVEL_WARNING, "*it is no case of TodoFilter: all, active, completed*");
    g_object_set(todos, "filter", "bogus", NULL);
    g_test_assert_expected_messages();
    ASSERT_LOG(&recorder, "");
    drain();
    ASSERT_LOG(&recorder, "filter=\"all\"");
    g_object_set(todos, "filter", "active", NULL);
    ASSERT_LOG(&recorder, "filter=\"active\"");
    drain();
    ASSERT_LOG(&recorder, "");
    g_string_free(recorder.log, TRUE);
    g_object_unref(todos);
}

/* ------------------------------------------------------------------------------------------ */
/* Signals, children, lists                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void on_greeted(GObject *greeter, const char *text, GString *log) {
    char *greeting = NULL;
    g_object_get(greeter, "greeting", &greeting, NULL);
    g_string_append_printf(log, "greeted(%s) greeting=%s;", text, greeting);
    g_free(greeting);
}

static void on_saved(GObject *profile, GVariant *contact, GString *log) {
    (void)profile;
    char *text = g_variant_print(contact, FALSE);
    g_string_append_printf(log, "saved %s;", text);
    g_free(text);
}

static void on_no_payload(GObject *object, GString *log) {
    (void)object;
    g_string_append(log, "on_show_only_first;");
}

static void signals_are_gobject_signals(void) {
    GString *log = g_string_new(NULL);
    MvvmGlibObject *greeter = make(sample_loop, "greeter", g_variant_new("(s)", "Ada"));
    g_signal_connect(greeter, "greeted", G_CALLBACK(on_greeted), log);
    GError *error = NULL;
    mvvm_glib_object_call(greeter, "greet", NULL, &error);
    g_assert_no_error(error);
    mvvm_glib_object_call(greeter, "greet", NULL, &error);
    g_assert_cmpstr(log->str, ==, "greeted(Hello, Ada!) greeting=Hello, Ada!;greeted(Hello, Ada!) greeting=Hello, Ada!;");
    g_string_truncate(log, 0);

    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    g_signal_connect(profile, "saved", G_CALLBACK(on_saved), log);
    g_object_set(profile, "first", "Ada", "address", g_variant_new_parsed("just {'street': <'1 Main St'>, 'city': <'London'>}"),
                 NULL);
    GVariant *result = mvvm_glib_object_call(profile, "save", NULL, &error);
    g_assert_no_error(error);
    ASSERT_VARIANT(result, "{'name': <'Ada'>, 'address': <{'street': <'1 Main St'>, 'city': <'London'>, "
                           "'zip_code': <@ms nothing>}>, 'tags': <@as []>}");
    g_variant_unref(result);
    g_assert_cmpstr(log->str, ==, "saved {'name': <'Ada'>, 'address': <{'street': <'1 Main St'>, 'city': <'London'>, "
                                  "'zip_code': <@ms nothing>}>, 'tags': <@as []>};");
    g_string_truncate(log, 0);

    /* A signal without payload; the welcome API answers on the loop's next dispatch. */
    MvvmGlibObject *welcome = make(catalog_loop, "welcome_view_model", NULL);
    g_signal_connect(welcome, "on_show_only_first", G_CALLBACK(on_no_payload), log);
    mvvm_glib_object_call(welcome, "view_did_load", NULL, &error);
    mvvm_glib_object_call(welcome, "tap_button", g_variant_new_string("hi"), &error);
    g_assert_no_error(error);
    while (!log->len) g_main_context_iteration(NULL, TRUE);   /* the loop's source dispatches */
    g_assert_cmpstr(log->str, ==, "on_show_only_first;");
    g_object_unref(welcome);
    g_object_unref(profile);
    g_object_unref(greeter);
    g_string_free(log, TRUE);
}

static void children_are_object_properties(void) {
    MvvmGlibObject *page = make(catalog_loop, "counter_page_view_model", NULL);
    MvvmGlibObject *first = NULL, *again = NULL, *second = NULL;
    g_object_get(page, "first-counter", &first, "first_counter", &again, "second-counter", &second, NULL);
    g_assert_true(first && first == again);   /* one GObject per child */
    g_assert_cmpstr(mvvm_glib_object_get_class_name(first), ==, "counter_view_model");
    g_assert_true(G_OBJECT_TYPE(first) == mvvm_glib_library_get_class_type(catalog, "counter_view_model"));
    g_assert_true(first != second);
    char *label = NULL;
    g_object_get(second, "label", &label, NULL);
    g_assert_cmpstr(label, ==, "Random Counter");
    g_free(label);
    g_object_unref(second);
    g_object_unref(again);
    /* The child keeps working after its parent's GObject has gone. */
    g_object_unref(page);
    GError *error = NULL;
    mvvm_glib_object_call(first, "increment", NULL, &error);
    g_assert_no_error(error);
    char *count = NULL;
    g_object_get(first, "count", &count, NULL);
    g_assert_cmpstr(count, ==, "1");
    g_free(count);
    g_object_unref(first);
}

static void lists_are_list_models_following_the_splices(void) {
    MvvmGlibObject *playlist = make(sample_loop, "playlist", NULL);
    GListModel *songs = NULL, *all = NULL;
    g_object_get(playlist, "songs", &songs, "all", &all, NULL);
    g_assert_true(G_IS_LIST_MODEL(songs) && MVVM_GLIB_IS_LIST_MODEL(songs));
    g_assert_true(g_list_model_get_item_type(songs) == mvvm_glib_library_get_class_type(sample, "song"));
    GListModel *same = G_LIST_MODEL(mvvm_glib_object_get_list(playlist, "songs"));
    g_assert_true(same == songs);   /* one model per list while it lives */
    g_object_unref(same);
    g_assert_cmpstr(mvvm_glib_list_model_get_name(MVVM_GLIB_LIST_MODEL(songs)), ==, "songs");
    g_assert_true(mvvm_glib_list_model_get_owner(MVVM_GLIB_LIST_MODEL(songs)) == playlist);

    GString *log = g_string_new(NULL);
    g_signal_connect(songs, "items-changed", G_CALLBACK(on_items_changed), log);
    GError *error = NULL;
    mvvm_glib_object_call(playlist, "add_many", g_variant_new_string("c,a,b,ab"), &error);
    g_assert_no_error(error);
    g_assert_cmpstr(log->str, ==, "(0,0,4)");
    ASSERT_TITLES(songs, "c|a|b|ab");
    g_string_truncate(log, 0);
    g_object_set(playlist, "filter", "a", NULL);   /* scattered items leave: one splice per run */
    g_assert_cmpstr(log->str, ==, "(0,1,0) (1,1,0)");
    ASSERT_TITLES(songs, "a|ab");
    g_string_truncate(log, 0);
    g_object_set(playlist, "filter", "", NULL);
    ASSERT_TITLES(songs, "c|a|b|ab");
    g_string_truncate(log, 0);
    mvvm_glib_object_call(playlist, "rotate", NULL, &error);   /* a move is the fewest splices */
    ASSERT_TITLES(songs, "ab|c|a|b");
    g_assert_cmpstr(log->str, ==, "(0,0,1) (4,1,0)");

    /* One Swift object, one GObject: the same song through both lists. */
    GObject *first_song = g_list_model_get_item(songs, 0);
    GObject *last_of_all = g_list_model_get_item(all, 0);
    g_assert_true(first_song == last_of_all);
    g_assert_cmpint(mvvm_glib_object_get_object_id(MVVM_GLIB_OBJECT(first_song)), !=, 0);
    /* An item's own properties notify. */
    Recorder recorder;
    record_notifications(first_song, &recorder);
    g_object_set(first_song, "title", "z", NULL);
    ASSERT_LOG(&recorder, "title=\"z\"");
    g_string_free(recorder.log, TRUE);
    g_object_unref(first_song);
    g_object_unref(last_of_all);

    /* The owner holds its models; a model that outlives it keeps its items, which still work. */
    g_object_unref(all);
    g_object_unref(playlist);
    g_assert_null(mvvm_glib_list_model_get_owner(MVVM_GLIB_LIST_MODEL(songs)));
    ASSERT_TITLES(songs, "z|c|a|b");
    GObject *song = g_list_model_get_item(songs, 1);
    g_object_set(song, "title", "y", NULL);
    g_object_unref(song);
    ASSERT_TITLES(songs, "z|y|a|b");
    g_object_unref(songs);
    g_string_free(log, TRUE);
}

/* A host's copy of a list model, kept by its items-changed alone, as GTK's widgets keep theirs;
 * `broken` once a splice did not fit the copy. */
typedef struct {
    GPtrArray *items;
    gboolean broken;
} Mirror;

static void on_items_changed_mirror(GListModel *model, guint position, guint removed, guint added, Mirror *mirror) {
    if (position + removed > mirror->items->len) {
        mirror->broken = TRUE;
        return;
    }
    g_ptr_array_remove_range(mirror->items, position, removed);
    for (guint i = 0; i < added; i++) g_ptr_array_insert(mirror->items, (gint)(position + i), g_list_model_get_item(model, position + i));
}

static void mirror_follow(Mirror *mirror, GListModel *model) {
    mirror->items = g_ptr_array_new_with_free_func(g_object_unref);
    for (guint i = 0; i < g_list_model_get_n_items(model); i++) g_ptr_array_add(mirror->items, g_list_model_get_item(model, i));
    g_signal_connect(model, "items-changed", G_CALLBACK(on_items_changed_mirror), mirror);
}

/* Whether the copy holds the model's items, in its order. */
static gboolean mirror_matches(Mirror *mirror, GListModel *model) {
    if (mirror->broken || mirror->items->len != g_list_model_get_n_items(model)) return FALSE;
    gboolean same = TRUE;
    for (guint i = 0; i < mirror->items->len; i++) {
        GObject *item = g_list_model_get_item(model, i);
        same = same && item == g_ptr_array_index(mirror->items, i);
        g_object_unref(item);
    }
    return same;
}

typedef struct {
    MvvmGlibObject *playlist;
    GListModel *all;
    Mirror all_copy;
} LateAsk;

static void on_songs_changed_ask_for_all(GListModel *songs, guint position, guint removed, guint added, LateAsk *late) {
    (void)songs, (void)position, (void)removed, (void)added;
    if (late->all) return;
    late->all = G_LIST_MODEL(mvvm_glib_object_get_list(late->playlist, "all"));
    mirror_follow(&late->all_copy, late->all);
}

/* `all`'s model first asked for while `songs`' splices of the same operation are delivered: it
 * holds `all` as it is, and follows every later change. */
static void a_list_first_asked_for_during_another_lists_splices_follows_its_own(void) {
    MvvmGlibObject *playlist = make(sample_loop, "playlist", NULL);
    GError *error = NULL;
    mvvm_glib_object_call(playlist, "add_many", g_variant_new_string("a,b,c"), &error);
    g_assert_no_error(error);
    GListModel *songs = G_LIST_MODEL(mvvm_glib_object_get_list(playlist, "songs"));
    LateAsk late = {.playlist = playlist};
    g_signal_connect(songs, "items-changed", G_CALLBACK(on_songs_changed_ask_for_all), &late);
    mvvm_glib_object_call(playlist, "add", g_variant_new_string("d"), &error);
    g_assert_no_error(error);
    g_assert_nonnull(late.all);
    if (!late.all) return;
    ASSERT_TITLES(late.all, "a|b|c|d");
    mvvm_glib_object_call(playlist, "reverse", NULL, &error);
    ASSERT_TITLES(late.all, "d|c|b|a");
    mvvm_glib_object_call(playlist, "add", g_variant_new_string("e"), &error);
    mvvm_glib_object_call(playlist, "remove_first", NULL, &error);
    mvvm_glib_object_call(playlist, "rotate", NULL, &error);
    g_assert_no_error(error);
    ASSERT_TITLES(late.all, "e|c|b|a");
    ASSERT_TITLES(songs, "e|c|b|a");
    g_assert_true(mirror_matches(&late.all_copy, late.all));
    g_ptr_array_unref(late.all_copy.items);
    g_object_unref(late.all);
    g_object_unref(songs);
    g_object_unref(playlist);
}

/* ------------------------------------------------------------------------------------------ */
/* Commands                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void commands_of_at_most_one_argument_are_actions(void) {
    MvvmGlibObject *tally = make(sample_loop, "tally", g_variant_new("(x)", (gint64)0));
    GActionGroup *group = G_ACTION_GROUP(tally);
    char **actions = g_action_group_list_actions(group);
    char *joined = g_strjoinv(",", actions);
    g_assert_cmpstr(joined, ==, "add,add-many,reset");
    g_free(joined);
    g_strfreev(actions);
    g_assert_true(g_action_group_get_action_enabled(group, "add-many"));
    g_assert_cmpstr(g_variant_type_peek_string(g_action_group_get_action_parameter_type(group, "add-many")), ==, "x");
    g_assert_null(g_action_group_get_action_parameter_type(group, "add"));
    g_assert_false(g_action_group_has_action(group, "add_many"));
    g_action_group_activate_action(group, "add-many", g_variant_new_int64(3));
    g_action_group_activate_action(group, "add", NULL);
    gint64 total = 0;
    g_object_get(tally, "total", &total, NULL);
    g_assert_cmpint(total, ==, 4);
    g_object_unref(tally);

    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    g_assert_false(g_action_group_has_action(G_ACTION_GROUP(profile), "move-tag"));   /* two arguments */
    g_assert_true(g_action_group_has_action(G_ACTION_GROUP(profile), "ping"));        /* async, none */
    g_object_unref(profile);
}

static void commands_take_arguments_and_give_results_and_errors(void) {
    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    GError *error = NULL;
    GVariant *contact = mvvm_glib_object_call(profile, "contact", g_variant_new("(sss)", "Ada", "1 Main St", "London"), &error);
    g_assert_no_error(error);
    ASSERT_VARIANT(contact, "{'name': <'Ada'>, 'address': <{'street': <'1 Main St'>, 'city': <'London'>, "
                            "'zip_code': <@ms nothing>}>, 'tags': <@as []>}");
    g_variant_unref(contact);
    /* By name, in any order. */
    contact = mvvm_glib_object_call(profile, "contact",
                                    g_variant_new_parsed("{'city': <'Paris'>, 'name': <'Bo'>, 'street': <'2 Elm St'>}"), &error);
    g_assert_no_error(error);
    GVariant *name = g_variant_lookup_value(contact, "name", G_VARIANT_TYPE_STRING);
    g_assert_cmpstr(g_variant_get_string(name, NULL), ==, "Bo");
    g_variant_unref(name);
    g_variant_unref(contact);

    /* A command that throws: COMMAND_FAILED with its text; what it changed first is notified. */
    Recorder recorder;
    record_notifications(profile, &recorder);
    g_assert_null(mvvm_glib_object_call(profile, "move_tag", g_variant_new("(xx)", (gint64)0, (gint64)1), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_COMMAND_FAILED);
    g_assert_cmpstr(error->message, ==, "profile.move_tag failed: no tag at 0 (there are 0)");
    g_clear_error(&error);
    ASSERT_LOG(&recorder, "saves=1");
    g_string_free(recorder.log, TRUE);

    g_assert_null(mvvm_glib_object_call(profile, "contact", g_variant_new("(s)", "Ada"), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);
    g_assert_null(mvvm_glib_object_call(profile, "contact", g_variant_new("(xss)", (gint64)1, "a", "b"), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH);
    g_clear_error(&error);
    g_assert_null(mvvm_glib_object_call(profile, "fly", NULL, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_NAME);
    g_clear_error(&error);
    g_assert_null(mvvm_glib_object_call(profile, "ping", NULL, &error));   /* async: call_async */
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);

    /* An optional argument left out is none; a result comes back typed. */
    MvvmGlibObject *wishlist = make(sample_loop, "wishlist", NULL);
    GVariant *count = mvvm_glib_object_call(wishlist, "add", g_variant_new("(s)", "book"), &error);
    g_assert_no_error(error);
    ASSERT_VARIANT(count, "int64 1");
    g_variant_unref(count);
    count = mvvm_glib_object_call(wishlist, "add", g_variant_new_parsed("('pen', just 2.5)"), &error);
    ASSERT_VARIANT(count, "int64 2");
    g_variant_unref(count);
    GVariant *prices = NULL;
    g_object_get(wishlist, "prices", &prices, NULL);
    ASSERT_VARIANT(prices, "[@md nothing, 2.5]");
    g_variant_unref(prices);
    g_object_unref(wishlist);
    g_object_unref(profile);
}

static void constructors_take_models_by_handle(void) {
    MvvmGlibObject *counter = make(catalog_loop, "random_counter", g_variant_new("(t)", (guint64)2026));
    MvvmGlibObject *screen = make(catalog_loop, "counter_view_model", g_variant_new("(t)", mvvm_glib_object_get_handle(counter)));
    char *label = NULL;
    g_object_get(screen, "label", &label, NULL);
    g_assert_cmpstr(label, ==, "Random Counter");
    g_free(label);
    GError *error = NULL;
    g_assert_null(mvvm_glib_object_new(todo_loop, "no_such_class", NULL, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_NAME);
    g_clear_error(&error);
    g_assert_null(mvvm_glib_object_new(todo_loop, "todo_list_view_model", g_variant_new("(s)", "/proc/self/status"), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);
    g_object_unref(screen);
    g_object_unref(counter);
}

/* What a host service was asked, and whether its user data has been let go. */
typedef struct {
    int requests;
    MvvmGlibObject *view_model;   /* the last one to ask */
    guint64 request;
    GVariant *argument;   /* the last one, kept; NULL when asked with nothing */
    int destroyed;
} ServiceLog;

static void on_request(MvvmGlibObject *view_model, guint64 request, GVariant *argument, gpointer data) {
    ServiceLog *log = data;
    log->requests++;
    log->view_model = view_model;
    log->request = request;
    g_clear_pointer(&log->argument, g_variant_unref);
    log->argument = argument ? g_variant_ref(argument) : NULL;
}

static void on_service_destroyed(gpointer data) { ((ServiceLog *)data)->destroyed++; }

static void on_show_welcome(GObject *welcome, const char *message, GString *log) {
    (void)welcome;
    g_string_append_printf(log, "on_show_welcome(%s);", message);
}

static gboolean completion_alert_presented(MvvmGlibObject *form) {
    gboolean presented = FALSE;
    g_object_get(form, "is_completion_alert_presented", &presented, NULL);
    return presented;
}

static void constructors_take_host_services_by_handle(void) {
    ServiceLog log = {0};
    GError *error = NULL;
    MvvmGlibService *service = mvvm_glib_service_new(catalog, on_request, &log, on_service_destroyed, &error);
    g_assert_no_error(error);
    MvvmGlibObject *form = make(catalog_loop, "sign_up_view_model", g_variant_new("(t)", mvvm_glib_service_get_handle(service)));
    g_object_unref(service);   /* the view model holds the service */
    g_assert_cmpint(log.destroyed, ==, 0);
    g_object_set(form, "user_id", "ada_lovelace", "password", "analytical", "confirm_password", "analytical", "agreed", TRUE,
                 NULL);
    mvvm_glib_object_call(form, "sign_up_tapped", NULL, &error);
    g_assert_no_error(error);
    g_assert_cmpint(log.requests, ==, 1);
    g_assert_true(log.view_model == form);
    ASSERT_VARIANT(log.argument, "'ada_lovelace'");
    g_assert_false(completion_alert_presented(form));
    /* An answer of another type is refused, and the request stays open. */
    g_assert_false(mvvm_glib_library_complete(catalog, log.request, g_variant_new_string("yes"), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH);
    g_clear_error(&error);
    g_assert_true(mvvm_glib_library_complete(catalog, log.request, g_variant_new_boolean(TRUE), &error));
    g_assert_no_error(error);
    g_assert_true(completion_alert_presented(form));   /* notified before the answer returned */
    g_assert_false(mvvm_glib_library_complete(catalog, log.request, g_variant_new_boolean(TRUE), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_REQUEST);
    g_clear_error(&error);
    g_object_unref(form);
    g_assert_cmpint(log.destroyed, ==, 1);   /* service and view model gone: let go once */

    /* The welcome API: asked with nothing; its answer is the signal's payload. One service
     * serves two view models, and outlives them while the host holds it. */
    ServiceLog api_log = {0};
    MvvmGlibService *api = mvvm_glib_service_new(catalog, on_request, &api_log, on_service_destroyed, &error);
    g_assert_no_error(error);
    GString *shown = g_string_new(NULL);
    MvvmGlibObject *screens[2];
    for (int i = 0; i < 2; i++) {
        screens[i] = make(catalog_loop, "welcome_view_model", g_variant_new_parsed("{'api': <%t>}", mvvm_glib_service_get_handle(api)));
        g_signal_connect(screens[i], "on_show_welcome", G_CALLBACK(on_show_welcome), shown);
    }
    mvvm_glib_object_call(screens[1], "view_did_load", NULL, &error);
    g_assert_no_error(error);
    g_assert_cmpint(api_log.requests, ==, 1);
    g_assert_true(api_log.view_model == screens[1]);
    g_assert_null(api_log.argument);
    g_assert_true(mvvm_glib_library_complete(catalog, api_log.request, g_variant_new_string("Hello from GLib"), &error));
    g_assert_no_error(error);
    g_assert_cmpstr(shown->str, ==, "on_show_welcome(Hello from GLib);");
    g_object_unref(screens[0]);
    g_object_unref(screens[1]);
    g_assert_cmpint(api_log.destroyed, ==, 0);
    g_object_unref(api);
    g_assert_cmpint(api_log.destroyed, ==, 1);
    g_string_free(shown, TRUE);

    /* No request function: refused, and the user data let go at once. */
    ServiceLog none = {0};
    g_assert_null(mvvm_glib_service_new(catalog, NULL, &none, on_service_destroyed, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_NULL_POINTER);
    g_clear_error(&error);
    g_assert_cmpint(none.destroyed, ==, 1);
    /* A request of no one: refused. */
    g_assert_false(mvvm_glib_library_complete(catalog, 12345, g_variant_new_boolean(TRUE), &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_HANDLE);
    g_clear_error(&error);
    g_clear_pointer(&log.argument, g_variant_unref);
}

typedef struct {
    int calls;
    GVariant *result;
    GError *error;
} AsyncOutcome;

static void on_call_done(GObject *source, GAsyncResult *result, gpointer data) {
    AsyncOutcome *outcome = data;
    outcome->calls++;
    outcome->result = mvvm_glib_object_call_finish(MVVM_GLIB_OBJECT(source), result, &outcome->error);
}

static void async_commands_end_through_gasyncresult(void) {
    MvvmGlibObject *profile = make(sample_loop, "profile", NULL);
    /* One that ends without suspending still calls back from the main context. */
    AsyncOutcome ping = {0};
    mvvm_glib_object_call_async(profile, "ping", NULL, NULL, on_call_done, &ping);
    g_assert_cmpint(ping.calls, ==, 0);
    while (!ping.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_no_error(ping.error);
    ASSERT_VARIANT(ping.result, "int64 0");
    g_variant_unref(ping.result);

    /* One that sleeps a second on the loop's clock: the loop's source runs it. */
    AsyncOutcome load = {0};
    mvvm_glib_object_call_async(profile, "load", g_variant_new("(x)", (gint64)1), NULL, on_call_done, &load);
    while (!load.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_no_error(load.error);
    ASSERT_VARIANT(load.result, "['t0']");
    g_variant_unref(load.result);

    /* Failing at once, and cancelled while asleep. */
    AsyncOutcome failed = {0};
    mvvm_glib_object_call_async(profile, "load", g_variant_new("(x)", (gint64)-1), NULL, on_call_done, &failed);
    while (!failed.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_error(failed.error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_COMMAND_FAILED);
    g_assert_cmpstr(failed.error->message, ==, "profile.load failed: cannot load -1 tags");
    g_clear_error(&failed.error);

    GCancellable *cancellable = g_cancellable_new();
    AsyncOutcome cancelled = {0};
    mvvm_glib_object_call_async(profile, "load", g_variant_new("(x)", (gint64)100), cancellable, on_call_done, &cancelled);
    g_cancellable_cancel(cancellable);
    while (!cancelled.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_error(cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error(&cancelled.error);
    /* Already cancelled before it starts. */
    AsyncOutcome early = {0};
    mvvm_glib_object_call_async(profile, "load", g_variant_new("(x)", (gint64)100), cancellable, on_call_done, &early);
    while (!early.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_error(early.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error(&early.error);
    drain();
    g_assert_cmpint(ping.calls + load.calls + failed.calls + cancelled.calls + early.calls, ==, 5);
    g_object_unref(cancellable);

    /* The call keeps its object alive until it ends. */
    GWeakRef ref;
    g_weak_ref_init(&ref, profile);
    AsyncOutcome last = {0};
    mvvm_glib_object_call_async(profile, "load", g_variant_new("(x)", (gint64)1), NULL, on_call_done, &last);
    g_object_unref(profile);
    GObject *alive = g_weak_ref_get(&ref);
    g_assert_nonnull(alive);
    g_clear_object(&alive);
    while (!last.calls) g_main_context_iteration(NULL, TRUE);
    g_assert_no_error(last.error);
    g_clear_pointer(&last.result, g_variant_unref);
    drain();
    g_assert_null(g_weak_ref_get(&ref));
    g_weak_ref_clear(&ref);
}

static GThread *main_thread;

typedef struct {
    gint notified;
    gint off_the_main_thread;
} ThreadLog;

static void on_notify_note_thread(GObject *object, GParamSpec *pspec, ThreadLog *log) {
    (void)object, (void)pspec;
    g_atomic_int_inc(&log->notified);
    if (g_thread_self() != main_thread) g_atomic_int_inc(&log->off_the_main_thread);
}

static void cancel_in_worker(GTask *task, gpointer source, gpointer cancellable, GCancellable *unused) {
    (void)source, (void)unused;
    g_cancellable_cancel(cancellable);
    g_task_return_boolean(task, TRUE);
}

static void on_worker_done(GObject *source, GAsyncResult *result, gpointer done) {
    (void)source, (void)result;
    *(gboolean *)done = TRUE;
}

static int rounds_from(const char *variable, int fallback) {
    const char *text = g_getenv(variable);
    return text && atoi(text) > 0 ? atoi(text) : fallback;
}

/* The search's GCancellable cancelled from a GTask worker while the search waits for the
 * catalog: the cancel is carried out on the loop's context, so is-searching is notified on
 * the main thread, never the worker's. GLIB_CANCEL_ROUNDS rounds (the valgrind run sets fewer). */
static void a_cancel_from_a_worker_is_carried_out_on_the_loops_context(void) {
    GError *error = NULL;
    MvvmGlibLibrary *search = mvvm_glib_library_open(g_getenv("MVVM_SEARCH_LIBRARY"), &error);
    g_assert_no_error(error);
    if (!search) return;
    MvvmGlibLoop *loop = mvvm_glib_loop_new(search, NULL, &error);
    g_assert_no_error(error);
    ServiceLog catalog = {0};
    MvvmGlibService *service = mvvm_glib_service_new(search, on_request, &catalog, NULL, &error);
    g_assert_no_error(error);
    MvvmGlibObject *screen = make(loop, "search_view_model", g_variant_new("(t)", mvvm_glib_service_get_handle(service)));
    g_object_set(screen, "query", "swift", NULL);
    ThreadLog log = {0};
    g_signal_connect(screen, "notify::is-searching", G_CALLBACK(on_notify_note_thread), &log);
    int rounds = rounds_from("GLIB_CANCEL_ROUNDS", 5000);
    for (int round = 0; round < rounds; round++) {
        GCancellable *cancellable = g_cancellable_new();
        AsyncOutcome outcome = {0};
        mvvm_glib_object_call_async(screen, "search", NULL, cancellable, on_call_done, &outcome);
        while (catalog.requests == round) g_main_context_iteration(NULL, TRUE);   /* the search waits for its answer */
        gboolean worker_done = FALSE;
        GTask *worker = g_task_new(NULL, NULL, on_worker_done, &worker_done);
        g_task_set_task_data(worker, g_object_ref(cancellable), g_object_unref);
        g_task_run_in_thread(worker, cancel_in_worker);
        g_object_unref(worker);
        while (!outcome.calls || !worker_done) g_main_context_iteration(NULL, TRUE);
        g_assert_error(outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
        g_clear_error(&outcome.error);
        g_object_unref(cancellable);
    }
    drain();
    g_assert_cmpint(g_atomic_int_get(&log.off_the_main_thread), ==, 0);
    g_assert_cmpint(g_atomic_int_get(&log.notified), ==, 2 * rounds);   /* true, then false, each round */
    gboolean searching = TRUE;
    g_object_get(screen, "is-searching", &searching, NULL);
    g_assert_false(searching);
    g_clear_pointer(&catalog.argument, g_variant_unref);
    g_object_unref(screen);
    g_object_unref(service);
    g_object_unref(loop);
    g_object_unref(search);
}

/* ------------------------------------------------------------------------------------------ */
/* Loops and lifetimes                                                                        */
/* ------------------------------------------------------------------------------------------ */

static void timed_work_runs_through_the_loops_source(void) {
    MvvmGlibObject *watch = make(catalog_loop, "stop_watch_view_model", NULL);
    guint64 before = mvvm_glib_loop_get_dispatch_count(catalog_loop);
    GError *error = NULL;
    mvvm_glib_object_call(watch, "main_action", NULL, &error);
    g_assert_no_error(error);
    char *time = NULL;
    do {   /* ticks every 10 ms, run by the source when the loop's fd is readable */
        g_free(time);
        g_main_context_iteration(NULL, TRUE);
        g_object_get(watch, "time", &time, NULL);
    } while (g_strcmp0(time, "00:00:00.00") == 0);
    g_free(time);
    g_assert_cmpuint(mvvm_glib_loop_get_dispatch_count(catalog_loop), >, before);
    mvvm_glib_object_call(watch, "main_action", NULL, &error);
    g_object_unref(watch);
}

static void only_manual_loops_attach(void) {
    mvvm_handle thread_loop = 0;
    g_assert_cmpint(sample_loop_new(MVVM_LOOP_THREAD, &thread_loop), ==, MVVM_OK);
    GError *error = NULL;
    g_assert_null(mvvm_glib_loop_new_for_handle(sample, thread_loop, NULL, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNSUPPORTED);
    g_assert_nonnull(strstr(error->message, "only a manual loop attaches to a GMainContext"));
    g_clear_error(&error);
    g_assert_cmpint(sample_release(thread_loop), ==, MVVM_OK);   /* refused: still the caller's */

    mvvm_handle manual = 0;
    g_assert_cmpint(sample_loop_new(MVVM_LOOP_MANUAL, &manual), ==, MVVM_OK);
    MvvmGlibLoop *loop = mvvm_glib_loop_new_for_handle(sample, manual, NULL, &error);
    g_assert_no_error(error);
    g_assert_cmpuint(mvvm_glib_loop_get_handle(loop), ==, manual);
    g_assert_true(mvvm_glib_loop_get_context(loop) == g_main_context_default());
    g_object_unref(loop);
    const char *name = NULL;
    g_assert_cmpint(sample_class_name(manual, &name), ==, MVVM_ERR_INVALID_HANDLE);   /* released with it */

    g_assert_null(mvvm_glib_loop_new_for_handle(sample, 12345, NULL, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_HANDLE);
    g_clear_error(&error);
}

static void on_weak_notify(gpointer data, GObject *where) {
    (void)where;
    (*(int *)data)++;
}

static void the_last_unref_releases_the_handle(void) {
    MvvmGlibObject *greeter = make(sample_loop, "greeter", NULL);
    mvvm_handle handle = mvvm_glib_object_get_handle(greeter);
    const char *name = NULL;
    g_assert_cmpint(sample_class_name(handle, &name), ==, MVVM_OK);
    g_assert_cmpstr(name, ==, "greeter");
    int finalized = 0;
    g_object_weak_ref(G_OBJECT(greeter), on_weak_notify, &finalized);
    g_object_ref(greeter);
    g_object_unref(greeter);
    g_assert_cmpint(sample_class_name(handle, &name), ==, MVVM_OK);
    g_object_unref(greeter);
    g_assert_cmpint(finalized, ==, 1);
    g_assert_cmpint(sample_class_name(handle, &name), ==, MVVM_ERR_INVALID_HANDLE);

    /* A new GObject for a Swift object whose GObject went. */
    MvvmGlibObject *board = make(sample_loop, "board", NULL);
    GError *error = NULL;
    mvvm_glib_object_call(board, "add", g_variant_new_int64(2), &error);
    GListModel *tallies = G_LIST_MODEL(mvvm_glib_object_get_list(board, "tallies"));
    GObject *tally = g_list_model_get_item(tallies, 0);
    gint64 id = mvvm_glib_object_get_object_id(MVVM_GLIB_OBJECT(tally));
    g_object_unref(tally);
    g_object_unref(tallies);   /* the model, its items and their handles go */
    tallies = G_LIST_MODEL(mvvm_glib_object_get_list(board, "tallies"));
    tally = g_list_model_get_item(tallies, 0);
    g_assert_cmpint(mvvm_glib_object_get_object_id(MVVM_GLIB_OBJECT(tally)), ==, id);
    gint64 total = 0;
    g_object_get(tally, "total", &total, NULL);
    g_assert_cmpint(total, ==, 2);
    g_object_unref(tally);
    g_object_unref(tallies);
    g_object_unref(board);
}

/* ------------------------------------------------------------------------------------------ */
/* The main loop                                                                              */
/* ------------------------------------------------------------------------------------------ */

static gboolean on_give_up(gpointer flag) {
    *(gboolean *)flag = TRUE;
    return G_SOURCE_REMOVE;
}

static gpointer make_main_loop_in_thread(gpointer library) {
    GError *error = NULL;
    MvvmGlibLoop *loop = mvvm_glib_loop_new_main(library, &error);
    gboolean refused = loop == NULL && g_error_matches(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);
    g_clear_object(&loop);
    return GINT_TO_POINTER(refused);
}

/* Runs only the default main context (GTK's), blocking, until `done` holds or 5 s pass. */
#define ITERATE_UNTIL(done) do { \
        gboolean gave_up_ = FALSE; \
        guint timeout_ = g_timeout_add(5000, on_give_up, &gave_up_); \
        while (!(done) && !gave_up_) g_main_context_iteration(NULL, TRUE); \
        if (!gave_up_) g_source_remove(timeout_); \
    } while (0)

static gint64 get_int64(gpointer object, const char *name) {
    gint64 value = -1;
    g_object_get(object, name, &value, NULL);
    return value;
}

/* Tests/outside's libappsample.so: a @MainActor view model whose Foundation Timer ticks and whose
 * background fetch comes back through DispatchQueue.main are heard with only GLib's main loop
 * running, on the main thread; the main loop's rules (one live, made on the main thread, the
 * only loop a main-actor class lives on) reach the GLib caller as errors. */
static void a_main_actor_view_model_changes_while_only_the_glib_main_loop_runs(void) {
    GError *error = NULL;
    MvvmGlibLibrary *app = mvvm_glib_library_open(g_getenv("MVVM_APP_SAMPLE_LIBRARY"), &error);
    g_assert_no_error(error);
    if (!app) return;
    MvvmGlibLoop *loop = mvvm_glib_loop_new_main(app, &error);
    g_assert_no_error(error);
    if (!loop) {
        g_object_unref(app);
        return;
    }
    g_assert_true(mvvm_glib_loop_get_context(loop) == g_main_context_default());

    /* A main-actor class lives on the main loop only. */
    MvvmGlibLoop *manual = mvvm_glib_loop_new(app, NULL, &error);
    g_assert_no_error(error);
    g_assert_null(mvvm_glib_object_new(manual, "meeting_view_model", NULL, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);
    g_object_unref(manual);
    /* One live main loop, made on the main thread. */
    g_assert_null(mvvm_glib_loop_new_main(app, &error));
    g_assert_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_ARGUMENT);
    g_clear_error(&error);
    GThread *thread = g_thread_new("main-loop-elsewhere", make_main_loop_in_thread, app);
    g_assert_true(GPOINTER_TO_INT(g_thread_join(thread)));

    MvvmGlibObject *meeting = mvvm_glib_object_new(loop, "meeting_view_model", NULL, &error);
    g_assert_no_error(error);
    g_clear_error(&error);
    if (!meeting) goto out;
    ThreadLog ticks = {0}, statuses = {0};
    g_signal_connect(meeting, "notify::seconds-elapsed", G_CALLBACK(on_notify_note_thread), &ticks);
    g_signal_connect(meeting, "notify::status", G_CALLBACK(on_notify_note_thread), &statuses);
    guint64 before = mvvm_glib_loop_get_dispatch_count(loop);
    gint64 start = g_get_monotonic_time();
    mvvm_glib_object_call(meeting, "start", NULL, &error);   /* a Foundation Timer, every 50 ms */
    g_assert_no_error(error);
    ITERATE_UNTIL(get_int64(meeting, "seconds-elapsed") >= 3);
    g_assert_cmpint(get_int64(meeting, "seconds-elapsed"), >=, 3);
    g_assert_cmpint(g_get_monotonic_time() - start, >=, 140 * 1000);   /* three ticks: not early */
    g_assert_cmpint(g_atomic_int_get(&ticks.notified), >=, 3);
    g_assert_cmpuint(mvvm_glib_loop_get_dispatch_count(loop), >, before);
    mvvm_glib_object_call(meeting, "stop", NULL, &error);
    g_assert_no_error(error);

    /* A background queue's result, back through DispatchQueue.main. */
    mvvm_glib_object_call(meeting, "refresh", NULL, &error);
    g_assert_no_error(error);
    char *status = NULL;
    ITERATE_UNTIL((g_free(status), g_object_get(meeting, "status", &status, NULL), g_strcmp0(status, "fetched") == 0));
    g_assert_cmpstr(status, ==, "fetched");
    g_free(status);
    g_assert_cmpint(g_atomic_int_get(&statuses.notified), ==, 2);   /* "refreshing", then "fetched" */
    g_assert_cmpint(g_atomic_int_get(&ticks.off_the_main_thread) + g_atomic_int_get(&statuses.off_the_main_thread), ==, 0);
    g_object_unref(meeting);
out:
    g_object_unref(loop);
    /* Released: a main loop may be made again. */
    loop = mvvm_glib_loop_new_main(app, &error);
    g_assert_no_error(error);
    g_clear_object(&loop);
    g_object_unref(app);
}

int main(int argc, char **argv) {
    g_test_init(&argc, &argv, NULL);
    main_thread = g_thread_self();
    g_test_set_nonfatal_assertions();
    const char *sample_path = g_getenv("MVVM_SAMPLE_LIBRARY");
    const char *todo_path = g_getenv("MVVM_TODO_LIBRARY");
    const char *catalog_path = g_getenv("MVVM_CATALOG_LIBRARY");
    if (!sample_path || !todo_path || !catalog_path || !g_getenv("MVVM_SEARCH_LIBRARY") ||
        !g_getenv("MVVM_APP_SAMPLE_LIBRARY")) {
        g_printerr("test_mvvm_glib: set MVVM_SAMPLE_LIBRARY (Tests/outside's libsample.so), MVVM_TODO_LIBRARY "
                   "(build/todo/libtodo.so), MVVM_SEARCH_LIBRARY (build/search/libsearch.so), MVVM_APP_SAMPLE_LIBRARY "
                   "(Tests/outside's libappsample.so) and MVVM_CATALOG_LIBRARY (libmvvm.so)\n");
        return 2;
    }
    GError *error = NULL;
    sample = mvvm_glib_library_open(sample_path, &error);
    if (sample) todo = mvvm_glib_library_open(todo_path, &error);
    if (todo) sample_loop = mvvm_glib_loop_new(sample, NULL, &error);
    if (sample_loop) todo_loop = mvvm_glib_loop_new(todo, NULL, &error);
    if (todo_loop) catalog = mvvm_glib_library_open(catalog_path, &error);
    if (catalog) catalog_loop = mvvm_glib_loop_new(catalog, NULL, &error);
    if (!catalog_loop) {
        g_printerr("test_mvvm_glib: %s\n", error->message);
        return 2;
    }
    void *dl = dlopen(sample_path, RTLD_NOW | RTLD_LOCAL);   /* the same library, loaded once */
    *(void **)&sample_class_name = dlsym(dl, "mvvm_class_name");
    *(void **)&sample_loop_new = dlsym(dl, "mvvm_loop_new");
    *(void **)&sample_release = dlsym(dl, "mvvm_release");
    *(void **)&sample_set = dlsym(dl, "mvvm_set");

    g_test_add_func("/bridge/libraries-open-side-by-side", libraries_open_side_by_side);
    g_test_add_func("/bridge/library-open-failures-say-why", library_open_failures_say_why);
    g_test_add_func("/bridge/a-tagged-type-prefix-is-one-no-library-has", a_tagged_type_prefix_is_one_no_library_has);
    g_test_add_func("/bridge/properties-have-the-members-types-and-access", properties_have_the_members_types_and_access);
    g_test_add_func("/bridge/notify-comes-after-the-change-once-per-operation", notify_comes_after_the_change_once_per_operation);
    g_test_add_func("/bridge/values-beyond-scalars-are-variants-and-bytes", values_beyond_scalars_are_variants_and_bytes);
    g_test_add_func("/bridge/foundation-values-are-date-times-and-strings", foundation_values_are_date_times_and_strings);
    g_test_add_func("/bridge/a-value-put-back-is-notified-again", a_value_put_back_is_notified_again);
    g_test_add_func("/bridge/signals-are-gobject-signals", signals_are_gobject_signals);
    g_test_add_func("/bridge/children-are-object-properties", children_are_object_properties);
    g_test_add_func("/bridge/lists-are-list-models-following-the-splices", lists_are_list_models_following_the_splices);
    g_test_add_func("/bridge/a-list-first-asked-for-during-another-lists-splices-follows-its-own",
                    a_list_first_asked_for_during_another_lists_splices_follows_its_own);
    g_test_add_func("/bridge/commands-of-at-most-one-argument-are-actions", commands_of_at_most_one_argument_are_actions);
    g_test_add_func("/bridge/commands-take-arguments-and-give-results-and-errors",
                    commands_take_arguments_and_give_results_and_errors);
    g_test_add_func("/bridge/constructors-take-models-by-handle", constructors_take_models_by_handle);
    g_test_add_func("/bridge/constructors-take-host-services-by-handle", constructors_take_host_services_by_handle);
    g_test_add_func("/bridge/async-commands-end-through-gasyncresult", async_commands_end_through_gasyncresult);
    g_test_add_func("/bridge/a-cancel-from-a-worker-is-carried-out-on-the-loops-context",
                    a_cancel_from_a_worker_is_carried_out_on_the_loops_context);
    g_test_add_func("/bridge/timed-work-runs-through-the-loops-source", timed_work_runs_through_the_loops_source);
    g_test_add_func("/bridge/only-manual-loops-attach", only_manual_loops_attach);
    g_test_add_func("/bridge/the-last-unref-releases-the-handle", the_last_unref_releases_the_handle);
    g_test_add_func("/bridge/a-main-actor-view-model-changes-while-only-the-glib-main-loop-runs",
                    a_main_actor_view_model_changes_while_only_the_glib_main_loop_runs);
    int status = g_test_run();

    drain();
    g_object_unref(catalog_loop);
    g_object_unref(todo_loop);
    g_object_unref(sample_loop);
    g_object_unref(catalog);
    g_object_unref(todo);
    g_object_unref(sample);
    dlclose(dl);
    return status;
}
