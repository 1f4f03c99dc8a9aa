/*
 * bench_todo.c - the todo app (examples/todo's libtodo.so) through the generic C ABI with 10,000
 * todos: build the list (one add each), toggle mark all (on, then off), switch the filter
 * all -> active -> completed -> all (with every todo completed: 10,000 leave, 10,000 come,
 * none move). A host subscribed to `items` counts the splices and applies them to its own copy.
 * Its twin, glist_store_todo.c, does the same work with GLib's GListStore.
 *
 * Then the same app with storage (a SQLite database in a fresh directory under $TMPDIR or /tmp):
 * N todos added one at a time (storage_build); at N todos, 101 each of an add, a toggle, a
 * rename (begin_edit, edit_text, commit_edit) and a destroy, each timed alone (the line gives the
 * median; see timed_changes); and 5 reopenings of the N-todo database (mvvm_new on its path,
 * median). GListStore
 * has no storage: these lines have no twin.
 *
 * The resident memory the in-memory list of N todos adds, per todo (RSS after the build less RSS
 * before it, in this fresh process), is the line memory_per_row_bytes.
 *
 * Prints one line per phase: "mvvm <phase> <ms> <splices>" (for the storage changes: the median
 * ms of one change, and the splices of one; for memory_per_row_bytes: bytes, and the todos);
 * Tests/bench/run_todo.sh runs both.
 * Usage: bench_todo [N [memory|storage]]   (N default 10000; both parts unless one is named)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mvvm.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void must(mvvm_status status, const char *what) {
    if (status != MVVM_OK) {
        fprintf(stderr, "bench_todo: %s: %s\n", what, mvvm_last_error());
        exit(1);
    }
}

/* The host's copy of `items`: only its length here (what a view needs to stay in step). */
static int64_t splices, host_count;

static void on_items(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source; (void)user_data;
    if (event->kind != MVVM_EVENT_SPLICE) return;
    splices++;
    host_count += event->inserted - event->removed;
}

/* n todos added one at a time, as a user types them: "todo 0", "todo 1"... */
static void add_todos(mvvm_handle list, int n) {
    char title[64];
    for (int i = 0; i < n; i++) {
        snprintf(title, sizeof title, "todo %d", i);
        must(mvvm_set_string(list, "new_todo_title", title), "new_todo_title");
        must(mvvm_send(list, "add", NULL), "add");
    }
}

static long rss_bytes(void) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm || fscanf(statm, "%ld %ld", &pages, &resident) != 2) {
        fprintf(stderr, "bench_todo: no /proc/self/statm\n");
        exit(1);
    }
    fclose(statm);
    return resident * sysconf(_SC_PAGESIZE);
}

static void phase(const char *name, double started, int64_t splices_before) {
    printf("mvvm %s %.2f %" PRId64 "\n", name, now_ms() - started, splices - splices_before);
    fflush(stdout);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof values[0], compare_doubles);
    return values[count / 2];
}

static mvvm_handle open_store(mvvm_handle loop, const char *path) {
    mvvm_handle list = 0;
    mvvm_value argument = { .type = MVVM_TYPE_STRING, .string = path };
    must(mvvm_new(loop, "todo_list_view_model", &argument, 1, &list), path);
    return list;
}

/* Fails when the last change was not saved. */
static void saved(mvvm_handle list, const char *what) {
    char *error = NULL;
    must(mvvm_get_string(list, "storage_error", &error), "storage_error");
    if (error[0]) {
        fprintf(stderr, "bench_todo: %s not saved: %s\n", what, error);
        exit(1);
    }
    mvvm_string_free(error);
}

static mvvm_handle item_at(mvvm_handle list, int64_t index) {
    mvvm_handle item = 0;
    must(mvvm_list_item(list, "items", index, &item), "item");
    return item;
}

enum { STORAGE_REPS = 101, REOPENS = 5 };

/* STORAGE_REPS single changes of one kind at about n todos, each timed alone, as a view that
 * holds its rows' handles makes them: the add command (its title typed before), ticking a box,
 * begin_edit + edit_text + commit_edit, destroy (rows spread over the list). The row's handle is
 * fetched and released outside the timing (mvvm_list_item is the engine's, and O(n) today).
 * Prints the median and the splices of one change. */
typedef enum { ADD, TOGGLE, RENAME, DESTROY } change_kind;

static void timed_changes(mvvm_handle list, const char *name, change_kind kind) {
    double times[STORAGE_REPS];
    int64_t one = 0, count = 0;
    char title[64];
    for (int r = 0; r < STORAGE_REPS; r++) {
        mvvm_handle item = 0;
        must(mvvm_list_count(list, "items", &count), "count");
        snprintf(title, sizeof title, "%s %d", name, r);
        if (kind == ADD) must(mvvm_set_string(list, "new_todo_title", title), "new_todo_title");
        else item = item_at(list, (int64_t)r * (count - 2) / STORAGE_REPS + (kind == RENAME));
        int64_t before = splices;
        double t = now_ms();
        switch (kind) {
        case ADD: must(mvvm_send(list, "add", NULL), "add"); break;
        case TOGGLE: must(mvvm_set_bool(item, "completed", true), "completed"); break;
        case RENAME:
            must(mvvm_send(item, "begin_edit", NULL), "begin_edit");
            must(mvvm_set_string(item, "edit_text", title), "edit_text");
            must(mvvm_send(item, "commit_edit", NULL), "commit_edit");
            break;
        case DESTROY: must(mvvm_send(item, "destroy", NULL), "destroy"); break;
        }
        times[r] = now_ms() - t;
        one = splices - before;
        saved(list, name);
        if (item) must(mvvm_release(item), "release item");
    }
    printf("mvvm storage_%s %.3f %" PRId64 "\n", name, median(times, STORAGE_REPS), one);
}

/* The storage phases: N todos in a database, then single changes and reopenings, timed. */
static void storage_phases(mvvm_handle loop, int n) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/bench-todo-XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        perror("bench_todo: mkdtemp");
        exit(1);
    }
    snprintf(path, sizeof path, "%s/todos.db", dir);
    mvvm_handle list = open_store(loop, path), sub = 0;
    must(mvvm_subscribe(list, "items", on_items, NULL, NULL, &sub), "subscribe");
    host_count = 0;

    double t = now_ms();
    int64_t s = splices;
    add_todos(list, n);
    saved(list, "storage_build");
    phase("storage_build", t, s);

    timed_changes(list, "add", ADD);
    timed_changes(list, "toggle", TOGGLE);
    timed_changes(list, "rename", RENAME);
    timed_changes(list, "destroy", DESTROY);
    must(mvvm_release(list), "release");

    double reopen[REOPENS];
    int64_t count = 0;
    for (int r = 0; r < REOPENS; r++) {
        t = now_ms();
        list = open_store(loop, path);
        reopen[r] = now_ms() - t;
        must(mvvm_list_count(list, "items", &count), "count");
        must(mvvm_release(list), "release");
    }
    printf("mvvm storage_reopen %.3f 0\n", median(reopen, REOPENS));
    fflush(stdout);
    if (count != n) {
        fprintf(stderr, "bench_todo: the reopened database holds %" PRId64 " todos, expected %d\n", count, n);
        exit(1);
    }
    char command[1200];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "bench_todo: could not remove %s\n", dir);
}

/* The in-memory phases: build, mark all, the filter switches, and the memory per row. */
static void memory_phases(mvvm_handle loop, int n) {
    mvvm_handle list = 0, sub = 0;
    mvvm_value memory = { .type = MVVM_TYPE_STRING, .string = "" };
    must(mvvm_new(loop, "todo_list_view_model", &memory, 1, &list), "todo_list_view_model");
    must(mvvm_subscribe(list, "items", on_items, NULL, NULL, &sub), "subscribe");

    long rss_before = rss_bytes();
    double t = now_ms();
    int64_t s = splices;
    add_todos(list, n);
    phase("build", t, s);
    printf("mvvm memory_per_row_bytes %.1f %d\n", (double)(rss_bytes() - rss_before) / n, n);

    t = now_ms(), s = splices;
    must(mvvm_set_bool(list, "all_completed", true), "all_completed");
    phase("mark_all_on", t, s);
    t = now_ms(), s = splices;
    must(mvvm_set_bool(list, "all_completed", false), "all_completed");
    phase("mark_all_off", t, s);
    must(mvvm_set_bool(list, "all_completed", true), "all_completed");

    static const char *filters[] = { "active", "completed", "all" };
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "filter_%s", filters[i]);
        t = now_ms(), s = splices;
        must(mvvm_set_string(list, "filter", filters[i]), "filter");
        phase(name, t, s);
    }
    int64_t count = 0;
    must(mvvm_list_count(list, "items", &count), "count");
    if (count != n || host_count != n) {
        fprintf(stderr, "bench_todo: %" PRId64 " items, the host counts %" PRId64 ", expected %d\n", count, host_count, n);
        exit(1);
    }
    must(mvvm_release(list), "release");
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    const char *part = argc > 2 ? argv[2] : "";
    mvvm_handle loop = 0;
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    if (strcmp(part, "storage") != 0) memory_phases(loop, n);
    if (strcmp(part, "memory") != 0) storage_phases(loop, n);
    must(mvvm_release(loop), "release loop");
    return 0;
}
