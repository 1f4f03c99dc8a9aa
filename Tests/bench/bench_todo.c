/*
 * bench_todo.c - the todo app (examples/todo's libtodo.so) through the generic C ABI with 10,000
 * todos: build the list (one add each), toggle mark all (on, then off), switch the filter
 * all -> active -> completed -> all (with every todo completed: 10,000 leave, 10,000 come,
 * none move). A host subscribed to `items` counts the splices and applies them to its own copy.
 * Its twin, glist_store_todo.c, does the same work with GLib's GListStore.
 *
 * Prints one line per phase: "mvvm <phase> <ms> <splices>"; Tests/bench/run_todo.sh runs both.
 * Usage: bench_todo [N]   (default 10000)
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void phase(const char *name, double started, int64_t splices_before) {
    printf("mvvm %s %.2f %" PRId64 "\n", name, now_ms() - started, splices - splices_before);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    mvvm_handle loop = 0, list = 0, sub = 0;
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    mvvm_value memory = { .type = MVVM_TYPE_STRING, .string = "" };
    must(mvvm_new(loop, "todo_list_view_model", &memory, 1, &list), "todo_list_view_model");
    must(mvvm_subscribe(list, "items", on_items, NULL, NULL, &sub), "subscribe");

    char title[64];
    double t = now_ms();
    int64_t s = splices;
    for (int i = 0; i < n; i++) {
        snprintf(title, sizeof title, "todo %d", i);
        must(mvvm_set_string(list, "new_todo_title", title), "new_todo_title");
        must(mvvm_send(list, "add", NULL), "add");
    }
    phase("build", t, s);

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
        return 1;
    }
    must(mvvm_release(list), "release");
    must(mvvm_release(loop), "release loop");
    return 0;
}
