/*
 * glist_store_todo.c - bench_todo.c's work done as a GLib developer writes it: a TodoItem
 * GObject (id, title, completed: properties with notify), the todos in a GPtrArray and the
 * ones the filter shows in a GListStore with an items-changed handler (the host's view). 10,000
 * todos: build the list (one add each), toggle mark all (on, then off), switch the filter
 * all -> active -> completed -> all; a filter change replaces the store's contents with one
 * g_list_store_splice, as GLib code without GtkFilterListModel does. The resident memory the
 * list of 10,000 todos adds, per todo, is measured as bench_todo.c measures it.
 *
 * Prints one line per phase: "glist <phase> <ms> <items-changed emissions>" (for
 * memory_per_row_bytes: bytes, and the todos).
 * Usage: glist_store_todo [N]   (default 10000)
 */
#define _POSIX_C_SOURCE 200809L
#include <gio/gio.h>
#include <glib-object.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- TodoItem ---------------------------------------------------------------------------- */

#define TODO_TYPE_ITEM (todo_item_get_type())
G_DECLARE_FINAL_TYPE(TodoItem, todo_item, TODO, ITEM, GObject)

struct _TodoItem {
    GObject parent;
    gint64 id;
    char *title;
    gboolean completed;
};

G_DEFINE_TYPE(TodoItem, todo_item, G_TYPE_OBJECT)

enum { PROP_ID = 1, PROP_TITLE, PROP_COMPLETED, N_PROPS };
static GParamSpec *item_props[N_PROPS];

static void todo_item_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    TodoItem *self = TODO_ITEM(object);
    switch (id) {
    case PROP_ID: g_value_set_int64(value, self->id); break;
    case PROP_TITLE: g_value_set_string(value, self->title); break;
    case PROP_COMPLETED: g_value_set_boolean(value, self->completed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void todo_item_set_completed(TodoItem *self, gboolean completed) {
    if (self->completed == completed) return;
    self->completed = completed;
    g_object_notify_by_pspec(G_OBJECT(self), item_props[PROP_COMPLETED]);
}

static void todo_item_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    TodoItem *self = TODO_ITEM(object);
    switch (id) {
    case PROP_ID: self->id = g_value_get_int64(value); break;
    case PROP_TITLE:
        g_free(self->title);
        self->title = g_value_dup_string(value);
        break;
    case PROP_COMPLETED: todo_item_set_completed(self, g_value_get_boolean(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void todo_item_finalize(GObject *object) {
    g_free(TODO_ITEM(object)->title);
    G_OBJECT_CLASS(todo_item_parent_class)->finalize(object);
}

static void todo_item_class_init(TodoItemClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->get_property = todo_item_get_property;
    object_class->set_property = todo_item_set_property;
    object_class->finalize = todo_item_finalize;
    item_props[PROP_ID] = g_param_spec_int64("id", NULL, NULL, 0, G_MAXINT64, 0,
                                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
    item_props[PROP_TITLE] = g_param_spec_string("title", NULL, NULL, "", G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
    item_props[PROP_COMPLETED] = g_param_spec_boolean("completed", NULL, NULL, FALSE,
                                                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, item_props);
}

static void todo_item_init(TodoItem *self) { (void)self; }

/* ---- The list: every todo, and a GListStore of the shown ones ------------------------------ */

typedef enum { FILTER_ALL, FILTER_ACTIVE, FILTER_COMPLETED } todo_filter;

typedef struct todo_list {
    GPtrArray *all;      /* TodoItem, owned */
    GListStore *items;   /* the shown ones */
    todo_filter filter;
    gint64 next_id, completed_count;
} todo_list;

static gboolean shows(todo_filter filter, TodoItem *item) {
    return filter == FILTER_ALL || (filter == FILTER_ACTIVE) == !item->completed;
}

static void list_add(todo_list *list, const char *title) {
    TodoItem *item = g_object_new(TODO_TYPE_ITEM, "id", list->next_id++, "title", title, NULL);
    g_ptr_array_add(list->all, item);
    if (shows(list->filter, item)) g_list_store_append(list->items, item);
}

/* Replaces the shown items with the ones the filter shows now (one items-changed). */
static void list_refilter(todo_list *list) {
    GPtrArray *shown = g_ptr_array_sized_new(list->all->len);
    for (guint i = 0; i < list->all->len; i++)
        if (shows(list->filter, list->all->pdata[i])) g_ptr_array_add(shown, list->all->pdata[i]);
    guint old = g_list_model_get_n_items(G_LIST_MODEL(list->items));
    if (old || shown->len) g_list_store_splice(list->items, 0, old, shown->pdata, shown->len);
    g_ptr_array_unref(shown);
}

static void list_mark_all(todo_list *list, gboolean completed) {
    for (guint i = 0; i < list->all->len; i++) todo_item_set_completed(list->all->pdata[i], completed);
    list->completed_count = completed ? list->all->len : 0;
    if (list->filter != FILTER_ALL) list_refilter(list);
}

static void list_set_filter(todo_list *list, todo_filter filter) {
    if (list->filter == filter) return;
    list->filter = filter;
    list_refilter(list);
}

/* ---- The host ------------------------------------------------------------------------------ */

static gint64 emissions, host_count;

static void on_items_changed(GListModel *model, guint position, guint removed, guint added, gpointer data) {
    (void)model; (void)position; (void)data;
    emissions++;
    host_count += (gint64)added - (gint64)removed;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static long rss_bytes(void) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm || fscanf(statm, "%ld %ld", &pages, &resident) != 2) {
        fprintf(stderr, "glist_store_todo: no /proc/self/statm\n");
        exit(1);
    }
    fclose(statm);
    return resident * sysconf(_SC_PAGESIZE);
}

static void phase(const char *name, double started, gint64 before) {
    printf("glist %s %.2f %" PRId64 "\n", name, now_ms() - started, (int64_t)(emissions - before));
    fflush(stdout);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    todo_list list = { g_ptr_array_new_with_free_func(g_object_unref), g_list_store_new(TODO_TYPE_ITEM), FILTER_ALL, 1, 0 };
    g_signal_connect(list.items, "items-changed", G_CALLBACK(on_items_changed), NULL);

    char title[64];
    long rss_before = rss_bytes();
    double t = now_ms();
    gint64 e = emissions;
    for (int i = 0; i < n; i++) {
        snprintf(title, sizeof title, "todo %d", i);
        list_add(&list, title);
    }
    phase("build", t, e);
    printf("glist memory_per_row_bytes %.1f %d\n", (double)(rss_bytes() - rss_before) / n, n);
    t = now_ms(), e = emissions;
    list_mark_all(&list, TRUE);
    phase("mark_all_on", t, e);
    t = now_ms(), e = emissions;
    list_mark_all(&list, FALSE);
    phase("mark_all_off", t, e);
    list_mark_all(&list, TRUE);
    static const char *names[] = { "active", "completed", "all" };
    static const todo_filter filters[] = { FILTER_ACTIVE, FILTER_COMPLETED, FILTER_ALL };
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "filter_%s", names[i]);
        t = now_ms(), e = emissions;
        list_set_filter(&list, filters[i]);
        phase(name, t, e);
    }
    if (host_count != n || g_list_model_get_n_items(G_LIST_MODEL(list.items)) != (guint)n) {
        fprintf(stderr, "glist_store_todo: the host counts %" PRId64 ", expected %d\n", (int64_t)host_count, n);
        return 1;
    }
    g_object_unref(list.items);
    g_ptr_array_unref(list.all);
    return 0;
}
