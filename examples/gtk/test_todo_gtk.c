/*
 * test_todo_gtk.c - TodoMVC in GTK 4 (todo_window.c) over build/todo/libtodo.so, driven through
 * its widgets' own API and signals (gtk_widget_activate, gtk_editable_set_text, a gesture's
 * "pressed", a key controller's "key-pressed"), as a person's clicks and keys would, with
 * screenshots of each state (build/screenshots/gtk_c_todo_*.png; MVVM_SCREENSHOTS overrides).
 *
 *   MVVM_TODO_LIBRARY=build/todo/libtodo.so test_todo_gtk --tap     (needs a display: Xvfb)
 *
 * examples/gtk/run_tests.sh runs it under Xvfb with GSK_RENDERER=cairo, natively and under
 * valgrind. Assertions are non-fatal: a failing check fails its test and the others still run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mvvm.h"
#include "todo_window.h"

static MvvmGlibLibrary *library;
static MvvmGlibLoop *loop;
static char *screenshots;
static __typeof__(mvvm_class_name) *todo_class_name;

typedef struct {
    MvvmGlibObject *todos;
    TodoWindow *window;
    const TodoWindowWidgets *w;
    GListModel *items;
    char *directory;   /* of the database, when there is one */
} Fixture;

/* ------------------------------------------------------------------------------------------ */
/* Driving the window                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void drain(void) {
    while (g_main_context_pending(NULL)) g_main_context_iteration(NULL, FALSE);
}

static void set_flag(gboolean *flag) { *flag = TRUE; }

/* Everything pending has run and the window has been laid out and painted once more (the list
 * view makes and binds its rows as it lays itself out). */
static void settle(Fixture *f) {
    drain();
    GtkWidget *window = GTK_WIDGET(f->window);
    while (!gtk_widget_get_mapped(window)) g_main_context_iteration(NULL, TRUE);
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    gboolean painted = FALSE;
    gulong id = g_signal_connect_swapped(clock, "after-paint", G_CALLBACK(set_flag), &painted);
    gtk_widget_queue_resize(window);
    gtk_widget_queue_draw(window);
    while (!painted) g_main_context_iteration(NULL, TRUE);
    g_signal_handler_disconnect(clock, id);
    drain();
}

static void collect_rows(GtkWidget *widget, GPtrArray *rows) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        if (TODO_IS_ROW(child)) {
            if (todo_row_get_item(TODO_ROW(child)) && gtk_widget_get_mapped(child)) g_ptr_array_add(rows, child);
        } else {
            collect_rows(child, rows);
        }
    }
}

static guint position_of(Fixture *f, gpointer item) {
    for (guint i = 0; i < g_list_model_get_n_items(f->items); i++) {
        gpointer at = g_list_model_get_item(f->items, i);
        g_object_unref(at);
        if (at == item) return i;
    }
    return G_MAXUINT;
}

static Fixture *sorting_fixture;

static int by_position(gconstpointer a, gconstpointer b) {
    guint x = position_of(sorting_fixture, todo_row_get_item(*(TodoRow **)a));
    guint y = position_of(sorting_fixture, todo_row_get_item(*(TodoRow **)b));
    return x < y ? -1 : x > y;
}

/* The list view's rows that show an item, in the items' order (free with g_ptr_array_unref). */
static GPtrArray *rows_of(Fixture *f) {
    settle(f);
    GPtrArray *rows = g_ptr_array_new();
    collect_rows(GTK_WIDGET(f->w->list), rows);
    sorting_fixture = f;
    g_ptr_array_sort(rows, by_position);
    g_assert_cmpuint(rows->len, ==, g_list_model_get_n_items(f->items));
    return rows;
}

static const TodoRowWidgets *row(Fixture *f, guint index) {
    GPtrArray *rows = rows_of(f);
    const TodoRowWidgets *widgets = index < rows->len ? todo_row_get_widgets(g_ptr_array_index(rows, index)) : NULL;
    g_ptr_array_unref(rows);
    g_assert_nonnull(widgets);
    return widgets;
}

/* What the rows show, "title|title"; a completed one "[x] title". */
static char *shown(Fixture *f) {
    GPtrArray *rows = rows_of(f);
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < rows->len; i++) {
        const TodoRowWidgets *widgets = todo_row_get_widgets(g_ptr_array_index(rows, i));
        g_string_append_printf(out, "%s%s%s", i ? "|" : "", gtk_check_button_get_active(widgets->completed) ? "[x] " : "",
                               gtk_label_get_label(widgets->title));
    }
    g_ptr_array_unref(rows);
    return g_string_free(out, FALSE);
}

#define ASSERT_SHOWN(f, expected)               \
    do {                                        \
        char *shown_ = shown(f);                \
        g_assert_cmpstr(shown_, ==, expected);  \
        g_free(shown_);                         \
    } while (0)

/* A click, as GTK delivers a pointer's: a button's "clicked" (which also toggles a toggle
 * button and activates its action), a check button's "activate" (what its click gesture and
 * the space bar do). */
static void click(Fixture *f, gpointer widget) {
    if (GTK_IS_BUTTON(widget)) g_signal_emit_by_name(widget, "clicked");
    else g_assert_true(gtk_widget_activate(GTK_WIDGET(widget)));
    settle(f);
}

static void type_into(Fixture *f, GtkEntry *entry, const char *text) {
    gtk_editable_set_text(GTK_EDITABLE(entry), text);
    settle(f);
}

/* Enter in an entry: its "activate" signal (an entry has no activate signal of its class for
 * gtk_widget_activate()). */
static void enter(Fixture *f, GtkEntry *entry) {
    g_signal_emit_by_name(entry, "activate");
    settle(f);
}

static void add_todo(Fixture *f, const char *title) {
    type_into(f, f->w->new_todo, title);
    enter(f, f->w->new_todo);
}

static void double_click(Fixture *f, const TodoRowWidgets *widgets) {
    g_signal_emit_by_name(widgets->title_click, "pressed", 1, 4.0, 4.0);
    g_signal_emit_by_name(widgets->title_click, "pressed", 2, 4.0, 4.0);
    settle(f);
}

static void press_escape(Fixture *f, const TodoRowWidgets *widgets) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(widgets->editor_keys, "key-pressed", GDK_KEY_Escape, 9, 0, &handled);
    g_assert_true(handled);
    settle(f);
}

static gboolean visible(gpointer widget) { return gtk_widget_get_visible(GTK_WIDGET(widget)); }

/* Saves the window as build/screenshots/gtk_c_todo_NAME.png, drawn by its own renderer. */
static void screenshot(Fixture *f, const char *name) {
    settle(f);
    GtkWidget *window = GTK_WIDGET(f->window);
    int width = gtk_widget_get_width(window), height = gtk_widget_get_height(window);
    GdkPaintable *paintable = gtk_widget_paintable_new(window);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, GDK_SNAPSHOT(snapshot), width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    g_assert_nonnull(node);
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(window));
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &GRAPHENE_RECT_INIT(0, 0, width, height));
    char *file = g_strdup_printf("gtk_c_todo_%s.png", name);
    char *path = g_build_filename(screenshots, file, NULL);
    g_assert_true(gdk_texture_save_to_png(texture, path));
    /* Read back: the window's size, and not blank. */
    GError *error = NULL;
    GdkTexture *saved = gdk_texture_new_from_filename(path, &error);
    g_assert_no_error(error);
    if (saved) {
        int w = gdk_texture_get_width(saved), h = gdk_texture_get_height(saved);
        g_assert_cmpint(w, ==, width);
        g_assert_cmpint(h, ==, height);
        guint32 *pixels = g_new(guint32, (gsize)w * h);
        gdk_texture_download(saved, (guchar *)pixels, (gsize)w * 4);
        GHashTable *colours = g_hash_table_new(NULL, NULL);
        for (gsize i = 0; i < (gsize)w * h && g_hash_table_size(colours) <= 16; i += 7)
            g_hash_table_add(colours, GUINT_TO_POINTER(pixels[i]));
        g_assert_cmpuint(g_hash_table_size(colours), >, 16);
        g_hash_table_unref(colours);
        g_free(pixels);
        g_object_unref(saved);
    }
    g_free(path);
    g_free(file);
    g_object_unref(texture);
    gsk_render_node_unref(node);
    g_object_unref(paintable);
}

/* ------------------------------------------------------------------------------------------ */
/* Fixtures                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void open_window(Fixture *f, const char *storage) {
    GError *error = NULL;
    f->todos = mvvm_glib_object_new(loop, "todo_list_view_model", g_variant_new("(s)", storage), &error);
    g_assert_no_error(error);
    f->window = TODO_WINDOW(todo_window_new(NULL, f->todos));
    f->w = todo_window_get_widgets(f->window);
    g_object_get(f->todos, "items", &f->items, NULL);
    gtk_window_present(GTK_WINDOW(f->window));
    settle(f);
}

static void close_window(Fixture *f) {
    gtk_window_destroy(GTK_WINDOW(f->window));
    drain();
    g_clear_object(&f->items);
    g_clear_object(&f->todos);
    f->window = NULL;
}

static void set_up_in_memory(Fixture *f, gconstpointer data) {
    (void)data;
    memset(f, 0, sizeof *f);
    open_window(f, "");
}

static void set_up_on_a_database(Fixture *f, gconstpointer data) {
    (void)data;
    memset(f, 0, sizeof *f);
    GError *error = NULL;
    f->directory = g_dir_make_tmp("todo-gtk-XXXXXX", &error);
    g_assert_no_error(error);
    char *path = g_build_filename(f->directory, "todos.db", NULL);
    open_window(f, path);
    g_free(path);
}

static void remove_directory(const char *directory) {
    GDir *dir = g_dir_open(directory, 0, NULL);
    if (!dir) return;
    const char *name;
    while ((name = g_dir_read_name(dir))) {
        char *path = g_build_filename(directory, name, NULL);
        g_remove(path);
        g_free(path);
    }
    g_dir_close(dir);
    g_rmdir(directory);
}

static void tear_down(Fixture *f, gconstpointer data) {
    (void)data;
    if (f->window) close_window(f);
    if (f->directory) remove_directory(f->directory);
    g_free(f->directory);
}

/* ------------------------------------------------------------------------------------------ */
/* TodoMVC's behaviours                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* The "done when": a view model's property drives a widget, and the widget the property,
 * through g_object_bind_property (the entry's text <-> new_todo_title). */
static void a_binding_drives_a_widget_both_ways(Fixture *f, gconstpointer data) {
    (void)data;
    g_object_set(f->todos, "new-todo-title", "set by the view model", NULL);
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(f->w->new_todo)), ==, "set by the view model");
    type_into(f, f->w->new_todo, "typed in the entry");
    char *title = NULL;
    g_object_get(f->todos, "new-todo-title", &title, NULL);
    g_assert_cmpstr(title, ==, "typed in the entry");
    g_free(title);
    /* And the Swift side changes it: add clears it, the entry follows. */
    enter(f, f->w->new_todo);
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(f->w->new_todo)), ==, "");
    ASSERT_SHOWN(f, "typed in the entry");
}

static void adds_counts_toggles_and_destroys(Fixture *f, gconstpointer data) {
    (void)data;
    ASSERT_SHOWN(f, "");
    g_assert_false(visible(f->w->footer));
    g_assert_false(gtk_widget_get_sensitive(GTK_WIDGET(f->w->mark_all)));
    g_assert_false(visible(f->w->storage_error));
    screenshot(f, "empty");
    add_todo(f, "   ");
    ASSERT_SHOWN(f, "");   /* a blank title adds nothing */
    add_todo(f, "  Buy milk ");
    add_todo(f, "Walk the dog");
    add_todo(f, "Write tests");
    ASSERT_SHOWN(f, "Buy milk|Walk the dog|Write tests");   /* trimmed */
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(f->w->new_todo)), ==, "");
    g_assert_cmpstr(gtk_label_get_label(f->w->counter), ==, "3 items left");
    g_assert_true(visible(f->w->footer));
    g_assert_true(gtk_widget_get_sensitive(GTK_WIDGET(f->w->mark_all)));
    g_assert_false(visible(f->w->clear_completed));
    screenshot(f, "three_todos");

    click(f, row(f, 1)->completed);
    ASSERT_SHOWN(f, "Buy milk|[x] Walk the dog|Write tests");
    gboolean completed = FALSE;
    GObject *item = g_list_model_get_item(f->items, 1);
    g_object_get(item, "completed", &completed, NULL);
    g_object_unref(item);
    g_assert_true(completed);
    g_assert_true(gtk_widget_has_css_class(GTK_WIDGET(row(f, 1)->title), "completed"));
    g_assert_false(gtk_widget_has_css_class(GTK_WIDGET(row(f, 0)->title), "completed"));
    g_assert_cmpstr(gtk_label_get_label(f->w->counter), ==, "2 items left");
    g_assert_true(visible(f->w->clear_completed));
    screenshot(f, "one_completed");

    click(f, row(f, 2)->destroy);
    ASSERT_SHOWN(f, "Buy milk|[x] Walk the dog");
    g_assert_cmpstr(gtk_label_get_label(f->w->counter), ==, "1 item left");
    click(f, row(f, 0)->destroy);
    click(f, row(f, 0)->destroy);
    ASSERT_SHOWN(f, "");
    g_assert_false(visible(f->w->footer));
}

static void mark_all_filters_and_clear_completed(Fixture *f, gconstpointer data) {
    (void)data;
    add_todo(f, "a");
    add_todo(f, "b");
    add_todo(f, "c");
    click(f, f->w->mark_all);
    ASSERT_SHOWN(f, "[x] a|[x] b|[x] c");
    g_assert_cmpstr(gtk_label_get_label(f->w->counter), ==, "0 items left");
    click(f, row(f, 0)->completed);
    g_assert_false(gtk_check_button_get_active(f->w->mark_all));   /* mark all follows one toggle */
    ASSERT_SHOWN(f, "a|[x] b|[x] c");

    g_assert_true(gtk_toggle_button_get_active(f->w->filters[0]));
    click(f, f->w->filters[1]);   /* Active */
    char *filter = NULL;
    g_object_get(f->todos, "filter", &filter, NULL);
    g_assert_cmpstr(filter, ==, "active");
    g_free(filter);
    g_assert_false(gtk_toggle_button_get_active(f->w->filters[0]));
    ASSERT_SHOWN(f, "a");
    screenshot(f, "filter_active");
    click(f, row(f, 0)->completed);   /* a todo the filter hides leaves at once */
    ASSERT_SHOWN(f, "");
    g_assert_true(gtk_check_button_get_active(f->w->mark_all));
    click(f, f->w->filters[2]);   /* Completed */
    ASSERT_SHOWN(f, "[x] a|[x] b|[x] c");
    screenshot(f, "filter_completed");
    click(f, f->w->filters[0]);   /* All */
    click(f, row(f, 1)->completed);
    click(f, f->w->clear_completed);
    ASSERT_SHOWN(f, "b");
    g_assert_false(gtk_check_button_get_active(f->w->mark_all));
    g_assert_false(visible(f->w->clear_completed));
    /* The filter set on the view model moves the buttons. */
    g_object_set(f->todos, "filter", "completed", NULL);
    g_assert_true(gtk_toggle_button_get_active(f->w->filters[2]));
    g_assert_false(gtk_toggle_button_get_active(f->w->filters[0]));
    ASSERT_SHOWN(f, "");
}

static void edits_with_double_click_enter_escape_and_leaving(Fixture *f, gconstpointer data) {
    (void)data;
    add_todo(f, "a");
    add_todo(f, "b");
    add_todo(f, "c");
    add_todo(f, "d");
    const TodoRowWidgets *w = row(f, 0);
    double_click(f, w);
    g_assert_cmpstr(gtk_stack_get_visible_child_name(w->stack), ==, "editor");
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(w->editor)), ==, "a");   /* edit_text = title */
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(f->window));   /* the entry's text, inside it */
    g_assert_true(focus && (focus == GTK_WIDGET(w->editor) || gtk_widget_is_ancestor(focus, GTK_WIDGET(w->editor))));
    type_into(f, w->editor, "  apples ");
    GObject *item = g_list_model_get_item(f->items, 0);
    char *edit_text = NULL;
    g_object_get(item, "edit-text", &edit_text, NULL);
    g_assert_cmpstr(edit_text, ==, "  apples ");   /* the entry is bound to edit_text */
    g_free(edit_text);
    g_object_unref(item);
    screenshot(f, "editing");
    enter(f, w->editor);
    g_assert_cmpstr(gtk_stack_get_visible_child_name(row(f, 0)->stack), ==, "title");
    ASSERT_SHOWN(f, "apples|b|c|d");

    w = row(f, 1);
    double_click(f, w);
    type_into(f, w->editor, "bananas");
    press_escape(f, w);
    ASSERT_SHOWN(f, "apples|b|c|d");   /* Escape cancels */
    g_assert_cmpstr(gtk_stack_get_visible_child_name(row(f, 1)->stack), ==, "title");

    w = row(f, 2);
    double_click(f, w);
    type_into(f, w->editor, "cherries");
    g_signal_emit_by_name(w->editor_focus, "leave");   /* leaving the editor saves it */
    settle(f);
    ASSERT_SHOWN(f, "apples|b|cherries|d");

    w = row(f, 3);
    double_click(f, w);
    type_into(f, w->editor, "   ");
    enter(f, w->editor);
    ASSERT_SHOWN(f, "apples|b|cherries");   /* an empty title destroys the todo */
}

static void on_items_changed(GListModel *model, guint position, guint removed, guint added, GString *log) {
    (void)model;
    g_string_append_printf(log, "%s(%u,%u,%u)", log->len ? " " : "", position, removed, added);
}

/* The list view's model says what libmvvm's splices say, and nothing is refreshed by hand. */
static void the_list_view_follows_the_splices(Fixture *f, gconstpointer data) {
    (void)data;
    GString *log = g_string_new(NULL);
    GListModel *shown_model = G_LIST_MODEL(gtk_list_view_get_model(f->w->list));
    g_signal_connect(shown_model, "items-changed", G_CALLBACK(on_items_changed), log);
    add_todo(f, "a");
    add_todo(f, "b");
    add_todo(f, "c");
    g_assert_cmpstr(log->str, ==, "(0,0,1) (1,0,1) (2,0,1)");
    g_string_truncate(log, 0);
    click(f, f->w->filters[1]);
    g_assert_cmpstr(log->str, ==, "");   /* all are active: nothing changes */
    click(f, row(f, 1)->completed);
    g_assert_cmpstr(log->str, ==, "(1,1,0)");
    ASSERT_SHOWN(f, "a|c");
    g_string_truncate(log, 0);
    click(f, f->w->filters[0]);
    g_assert_cmpstr(log->str, ==, "(1,0,1)");
    ASSERT_SHOWN(f, "a|[x] b|c");
    g_string_truncate(log, 0);
    click(f, f->w->filters[2]);
    g_assert_cmpstr(log->str, ==, "(0,1,0) (1,1,0)");   /* scattered items: one splice per run */
    ASSERT_SHOWN(f, "[x] b");
    g_signal_handlers_disconnect_by_data(shown_model, log);
    g_string_free(log, TRUE);
}

static void keeps_its_todos_and_shows_a_change_not_saved(Fixture *f, gconstpointer data) {
    (void)data;
    add_todo(f, "a");
    add_todo(f, "b");
    click(f, row(f, 1)->completed);
    close_window(f);
    char *path = g_build_filename(f->directory, "todos.db", NULL);
    open_window(f, path);
    g_free(path);
    ASSERT_SHOWN(f, "a|[x] b");   /* the todos come back from the database */
    g_assert_false(visible(f->w->storage_error));

    remove_directory(f->directory);   /* the database's directory goes under the running app */
    click(f, row(f, 0)->completed);
    ASSERT_SHOWN(f, "a|[x] b");   /* the box shows the stored value again */
    g_assert_true(visible(f->w->storage_error));
    g_assert_nonnull(strstr(gtk_label_get_label(f->w->storage_error), "the database file is gone"));
    click(f, f->w->filters[2]);
    g_assert_true(gtk_toggle_button_get_active(f->w->filters[0]));
    g_assert_false(gtk_toggle_button_get_active(f->w->filters[2]));
    ASSERT_SHOWN(f, "a|[x] b");
    add_todo(f, "c");
    ASSERT_SHOWN(f, "a|[x] b");
    g_assert_cmpstr(gtk_editable_get_text(GTK_EDITABLE(f->w->new_todo)), ==, "c");   /* the title stays */
    click(f, f->w->mark_all);
    g_assert_false(gtk_check_button_get_active(f->w->mark_all));
    ASSERT_SHOWN(f, "a|[x] b");
    click(f, row(f, 0)->destroy);
    ASSERT_SHOWN(f, "a|[x] b");
    screenshot(f, "storage_error");
}

static void on_finalized(gpointer data, GObject *where) {
    (void)where;
    (*(int *)data)++;
}

static void closing_the_window_releases_the_view_models(Fixture *f, gconstpointer data) {
    (void)data;
    add_todo(f, "a");
    GObject *item = g_list_model_get_item(f->items, 0);
    mvvm_handle list_handle = mvvm_glib_object_get_handle(f->todos);
    mvvm_handle item_handle = mvvm_glib_object_get_handle(MVVM_GLIB_OBJECT(item));
    int finalized = 0;
    g_object_weak_ref(G_OBJECT(f->todos), on_finalized, &finalized);
    g_object_weak_ref(item, on_finalized, &finalized);
    g_object_unref(item);
    close_window(f);
    g_assert_cmpint(finalized, ==, 2);
    const char *name = NULL;
    g_assert_cmpint(todo_class_name(list_handle, &name), ==, MVVM_ERR_INVALID_HANDLE);
    g_assert_cmpint(todo_class_name(item_handle, &name), ==, MVVM_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv) {
    g_test_init(&argc, &argv, NULL);
    g_test_set_nonfatal_assertions();
    g_setenv("GTK_A11Y", "none", FALSE);   /* no accessibility bus: no D-Bus session under Xvfb */
    gtk_init();
    const char *path = g_getenv("MVVM_TODO_LIBRARY");
    if (!path) {
        g_printerr("test_todo_gtk: set MVVM_TODO_LIBRARY (build/todo/libtodo.so)\n");
        return 2;
    }
    GError *error = NULL;
    library = mvvm_glib_library_open(path, &error);
    if (library) loop = mvvm_glib_loop_new(library, NULL, &error);
    if (!loop) {
        g_printerr("test_todo_gtk: %s\n", error->message);
        return 2;
    }
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);   /* the same library, loaded once */
    *(void **)&todo_class_name = dlsym(dl, "mvvm_class_name");
    screenshots = g_strdup(g_getenv("MVVM_SCREENSHOTS") ? g_getenv("MVVM_SCREENSHOTS") : "build/screenshots");
    g_mkdir_with_parents(screenshots, 0755);

#define ADD(name, set_up) g_test_add("/todo-gtk/" #name, Fixture, NULL, set_up, name, tear_down)
    ADD(a_binding_drives_a_widget_both_ways, set_up_in_memory);
    ADD(adds_counts_toggles_and_destroys, set_up_in_memory);
    ADD(mark_all_filters_and_clear_completed, set_up_in_memory);
    ADD(edits_with_double_click_enter_escape_and_leaving, set_up_in_memory);
    ADD(the_list_view_follows_the_splices, set_up_in_memory);
    ADD(keeps_its_todos_and_shows_a_change_not_saved, set_up_on_a_database);
    ADD(closing_the_window_releases_the_view_models, set_up_in_memory);
    int status = g_test_run();

    drain();
    g_object_unref(loop);
    g_object_unref(library);
    g_free(screenshots);
    dlclose(dl);
    return status;
}
