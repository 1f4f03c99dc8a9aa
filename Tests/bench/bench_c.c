/*
 * bench_c.c - what one change costs through the C ABI, against its GObject twin (the same
 * SignUp as a GLib developer writes it, gobject_sign_up.c) and a hand-written C baseline.
 *
 * Each case runs its operation N times per repetition, for REPS repetitions, and prints one
 * line per repetition: "<case> <ns per op> <deliveries>" for the driver to summarise. Every
 * case counts the callback deliveries it caused, so a figure can never come from work that did
 * not happen.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mvvm_catalog.h"
#include "gobject_sign_up.h"

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void must(mvvm_status status, const char *what) {
    if (status != MVVM_OK) {
        fprintf(stderr, "bench_c: %s: %s\n", what, mvvm_last_error());
        exit(1);
    }
}

static int64_t deliveries;
static bool last_enabled;

static void count_delivery(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source; (void)user_data;
    last_enabled = event->value.boolean;
    deliveries++;
}

/* While warming up (first-use costs: the Swift runtime's metadata caches, page faults), nothing
 * is reported. */
static bool warming_up;

static void report(const char *name, int64_t elapsed, int64_t operations) {
    if (warming_up) return;
    printf("%s %.1f %" PRId64 "\n", name, (double)elapsed / (double)operations, deliveries);
    fflush(stdout);
}

static mvvm_handle filled_sign_up(mvvm_handle loop) {
    mvvm_handle vm;
    must(mvvm_sign_up_view_model_new(loop, &vm), "sign up");
    must(mvvm_set_string(vm, "user_id", "newuser"), "user_id");
    must(mvvm_set_string(vm, "confirm_password", "password1"), "confirm");
    must(mvvm_set_bool(vm, "agreed", true), "agreed");
    return vm;
}

/* Only the case of this name runs, when one is given (callgrind profiles one case at a time). */
static const char *only_case;

static bool runs(const char *name) { return only_case == NULL || strcmp(only_case, name) == 0; }

static mvvm_status generic_set_password(mvvm_handle vm, const char *password) {
    return mvvm_set_string(vm, "password", password);
}

/* The SignUp round trip: a password that flips is_sign_up_enabled, to a callback. */
static void round_trip_with(mvvm_handle vm, int n, int subscribers, const char *name,
                            mvvm_status (*set_password)(mvvm_handle, const char *)) {
    mvvm_handle subscriptions[16];
    for (int s = 0; s < subscribers; s++)
        must(mvvm_subscribe(vm, "is_sign_up_enabled", count_delivery, NULL, NULL, &subscriptions[s]), "subscribe");
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) must(set_password(vm, (i & 1) ? "short" : "password1"), "set");
    report(name, now_ns() - start, n);
    if (deliveries != (int64_t)n * subscribers) { fprintf(stderr, "%s: lost deliveries\n", name); exit(1); }
    must(mvvm_release(vm), "release");
}

static void round_trip(mvvm_handle loop, int n, int subscribers, const char *name) {
    if (!runs(name)) return;
    round_trip_with(filled_sign_up(loop), n, subscribers, name, generic_set_password);
}

/* --- The GObject twins (gobject_sign_up.c). The handler reads the new value with the typed
 * getter, as a view must (notify carries no value; libmvvm's event does). */

static void on_enabled_notify(GObject *object, GParamSpec *pspec, gpointer user_data) {
    (void)pspec; (void)user_data;
    last_enabled = bench_sign_up_get_is_sign_up_enabled(BENCH_SIGN_UP(object));
    deliveries++;
}

static void on_any_notify(GObject *object, GParamSpec *pspec, gpointer user_data) {
    (void)object; (void)pspec; (void)user_data;
    deliveries++;
}

static BenchSignUp *filled_gobject_sign_up(void) {
    BenchSignUp *form = bench_sign_up_new();
    g_object_set(form, "user-id", "newuser", "confirm-password", "password1", "agreed", TRUE, NULL);
    return form;
}

/* g_object_set(form, "password", …) to a notify::is-sign-up-enabled handler: the twin of
 * mvvm_set_string; typed: bench_sign_up_set_password, the twin of the typed setter. */
static void gobject_round_trip(int n, bool typed, const char *name) {
    if (!runs(name)) return;
    BenchSignUp *form = filled_gobject_sign_up();
    g_signal_connect(form, "notify::is-sign-up-enabled", G_CALLBACK(on_enabled_notify), NULL);
    deliveries = 0;
    int64_t start = now_ns();
    if (typed) {
        for (int i = 0; i < n; i++) bench_sign_up_set_password(form, (i & 1) ? "short" : "password1");
    } else {
        for (int i = 0; i < n; i++) g_object_set(form, "password", (i & 1) ? "short" : "password1", NULL);
    }
    report(name, now_ns() - start, n);
    if (deliveries != n || last_enabled) { fprintf(stderr, "%s: lost deliveries\n", name); exit(1); }
    g_object_unref(form);
}

/* g_object_new, a handler of every notify, g_object_unref. */
static void gobject_lifecycle(int n) {
    if (!runs("gobject_create_subscribe_release")) return;
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        BenchSignUp *form = bench_sign_up_new();
        g_signal_connect(form, "notify", G_CALLBACK(on_any_notify), NULL);
        g_object_unref(form);
        deliveries++;
    }
    report("gobject_create_subscribe_release", now_ns() - start, n);
}

/* The typed setter of libmvvm's generated header, and the same view model's class name for the
 * @Observable twin, made through mvvm_new. */
static void typed_round_trip(mvvm_handle loop, int n) {
    if (!runs("c_typed_set_sign_up")) return;
    round_trip_with(filled_sign_up(loop), n, 1, "c_typed_set_sign_up", mvvm_sign_up_view_model_set_password);
}

#define OBSERVABLE_SIGN_UP "observable_sign_up_view_model"

static bool has_observable_sign_up(mvvm_handle loop) {
    mvvm_handle vm;
    if (mvvm_new(loop, OBSERVABLE_SIGN_UP, NULL, 0, &vm) != MVVM_OK) return false;
    must(mvvm_release(vm), "release");
    return true;
}

static mvvm_handle filled_observable_sign_up(mvvm_handle loop) {
    mvvm_handle vm;
    must(mvvm_new(loop, OBSERVABLE_SIGN_UP, NULL, 0, &vm), "observable sign up");
    must(mvvm_set_string(vm, "user_id", "newuser"), "user_id");
    must(mvvm_set_string(vm, "confirm_password", "password1"), "confirm");
    must(mvvm_set_bool(vm, "agreed", true), "agreed");
    return vm;
}

/* The hand-written baseline: a struct, a validation, a function pointer. */
typedef struct form {
    char user_id[64], password[64], confirm[64];
    bool agreed, enabled;
    void (*changed)(struct form *, bool);
} form;

static size_t utf8_characters(const char *s) { size_t n = 0; for (; *s; s++) n += ((*s & 0xC0) != 0x80); return n; }

static void form_set_password(form *f, const char *password) {
    strncpy(f->password, password, sizeof f->password - 1);
    bool enabled = utf8_characters(f->user_id) >= 6 && utf8_characters(f->password) >= 8
                && strcmp(f->password, f->confirm) == 0 && f->agreed;
    if (enabled != f->enabled) { f->enabled = enabled; f->changed(f, enabled); }
}

static void form_changed(form *f, bool enabled) { (void)f; last_enabled = enabled; deliveries++; }

static void baseline(int n) {
    if (!runs("c_baseline_struct_fnptr")) return;
    form f = {.user_id = "newuser", .confirm = "password1", .agreed = true, .changed = form_changed};
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) form_set_password(&f, (i & 1) ? "short" : "password1");
    report("c_baseline_struct_fnptr", now_ns() - start, n);
}

static mvvm_status generic_get_agreed(mvvm_handle vm, bool *out) { return mvvm_get_bool(vm, "agreed", out); }

/* Reads `agreed` n times through `get` (the generic call or the typed one). */
static void getter_with(mvvm_handle loop, int n, const char *name, mvvm_status (*get)(mvvm_handle, bool *)) {
    if (!runs(name)) return;
    mvvm_handle vm = filled_sign_up(loop);
    bool value = false;
    int64_t trues = 0, start = now_ns();
    for (int i = 0; i < n; i++) { must(get(vm, &value), "get"); trues += value; }
    deliveries = trues;
    report(name, now_ns() - start, n);
    must(mvvm_release(vm), "release");
}

static void getter(mvvm_handle loop, int n) {
    getter_with(loop, n, "c_get_bool", generic_get_agreed);
    getter_with(loop, n, "c_typed_get_bool", mvvm_sign_up_view_model_get_agreed);
}

static void command(mvvm_handle loop, int n) {
    if (!runs("c_send_command")) return;
    mvvm_handle counter, subscription;
    must(mvvm_counter_new(loop, &counter), "counter");
    must(mvvm_subscribe(counter, "count", count_delivery, NULL, NULL, &subscription), "subscribe");
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) must(mvvm_send(counter, "increment", NULL), "send");
    report("c_send_command", now_ns() - start, n);
    must(mvvm_release(counter), "release");
}

/* Creates, subscribes to every property and releases a view model n times. `arm`: an operation
 * (a read) between, after which an @Observable object's watched values are armed (they are read
 * after operations until quiet): the difference from the same case without it, less a read, is
 * what arming every property costs. */
static void lifecycle(mvvm_handle loop, int n, const char *class_name, bool arm, const char *name) {
    if (!runs(name)) return;
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        mvvm_handle vm, subscription;
        if (class_name) must(mvvm_new(loop, class_name, NULL, 0, &vm), "new");
        else must(mvvm_sign_up_view_model_new(loop, &vm), "new");
        must(mvvm_subscribe(vm, NULL, count_delivery, NULL, NULL, &subscription), "subscribe");
        if (arm) {
            bool agreed;
            must(mvvm_get_bool(vm, "agreed", &agreed), "read");
        }
        must(mvvm_release(vm), "release");
        deliveries++;
    }
    report(name, now_ns() - start, n);
}

static void stopwatch_ticks(int n) {
    if (!runs("c_stopwatch_tick")) return;
    mvvm_handle loop, vm, subscription;
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    must(mvvm_stop_watch_view_model_new(loop, &vm), "stop watch");
    must(mvvm_subscribe(vm, "time", count_delivery, NULL, NULL, &subscription), "subscribe");
    must(mvvm_stop_watch_view_model_main_action(vm), "start");
    deliveries = 0;
    int64_t start = now_ns();
    must(mvvm_loop_advance(loop, (int64_t)n * 10), "advance");
    report("c_stopwatch_tick", now_ns() - start, n);
    if (deliveries != n) { fprintf(stderr, "stopwatch: %" PRId64 " ticks of %d\n", deliveries, n); exit(1); }
    must(mvvm_release(loop), "release loop");
    must(mvvm_release(vm), "release");
}

/* A dispatch with nothing due, as a host makes when its poll wakes for another reason: what the
 * main loop's checks of the main thread's work cost over a manual loop's. */
static void idle_dispatch(int n, mvvm_loop_kind kind, const char *name) {
    if (!runs(name)) return;
    mvvm_handle loop;
    must(mvvm_loop_new(kind, &loop), "loop");
    int64_t ran = 0, total = 0, start = now_ns();
    for (int i = 0; i < n; i++) { must(mvvm_loop_dispatch(loop, &ran), "dispatch"); total += ran; }
    const int64_t elapsed = now_ns() - start;
    if (total != 0) { fprintf(stderr, "%s: %" PRId64 " pieces of work ran, none due\n", name, total); exit(1); }
    deliveries = n;   /* the dispatches made, each of nothing */
    report(name, elapsed, n);
    must(mvvm_release(loop), "release loop");
}

static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm || fscanf(statm, "%ld %ld", &pages, &resident) != 2) { fprintf(stderr, "no statm\n"); exit(1); }
    fclose(statm);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Memory and set-up cost of many live view models, and whether they slow one change down.
 * `every_property`: each @Observable one subscribed to every property, not one. */
static void population(int live, bool observable, bool every_property) {
    mvvm_handle loop, *vms = malloc(sizeof(mvvm_handle) * (size_t)live);
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    warming_up = true;
    round_trip(loop, 2000, 1, "c_round_trip_alone");
    warming_up = observable; /* the Combine population alone reports the round trip */
    round_trip(loop, 2000, 1, "c_round_trip_alone");
    warming_up = false;
    long before = rss_kib();
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < live; i++) {
        mvvm_handle subscription;
        if (observable) must(mvvm_new(loop, OBSERVABLE_SIGN_UP, NULL, 0, &vms[i]), "new");
        else must(mvvm_sign_up_view_model_new(loop, &vms[i]), "new");
        must(mvvm_subscribe(vms[i], every_property ? NULL : "is_sign_up_enabled", count_delivery, NULL, NULL,
                            &subscription), "subscribe");
    }
    deliveries = live;
    const double bytes = (double)(rss_kib() - before) * 1024.0 / live;
    if (observable) {
        printf(every_property ? "c_memory_per_live_observable_sign_up_all_bytes %.1f %d\n"
                              : "c_memory_per_live_observable_sign_up_bytes %.1f %d\n", bytes, live);
        goto release;
    }
    report("c_create_live_sign_up", now_ns() - start, live);
    printf("c_memory_per_live_sign_up_bytes %.1f %d\n", bytes, live);
    round_trip(loop, 2000, 1, "c_round_trip_among_100k");
release:
    for (int i = 0; i < live; i++) must(mvvm_release(vms[i]), "release");
    must(mvvm_release(loop), "release loop");
    free(vms);
}

/* The GObject twin of the population: 100,000 forms, each with one notify handler. */
static void gobject_population(int live) {
    BenchSignUp **forms = malloc(sizeof(BenchSignUp *) * (size_t)live);
    warming_up = true;
    gobject_round_trip(2000, false, "gobject_round_trip_alone"); /* the type's class set up first */
    warming_up = false;
    long before = rss_kib();
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < live; i++) {
        forms[i] = bench_sign_up_new();
        g_signal_connect(forms[i], "notify::is-sign-up-enabled", G_CALLBACK(on_enabled_notify), NULL);
    }
    deliveries = live;
    report("gobject_create_live_sign_up", now_ns() - start, live);
    printf("gobject_memory_per_live_sign_up_bytes %.1f %d\n", (double)(rss_kib() - before) * 1024.0 / live, live);
    for (int i = 0; i < live; i++) g_object_unref(forms[i]);
    free(forms);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 7, n = argc > 2 ? atoi(argv[2]) : 20000;
    if (argc > 3 && strcmp(argv[3], "population") == 0) {
        for (int r = 0; r < reps; r++) population(100000, false, false);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "observable-population") == 0) {
        for (int r = 0; r < reps; r++) population(100000, true, false);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "observable-all-population") == 0) {
        for (int r = 0; r < reps; r++) population(100000, true, true);
        return 0;
    }
    if (argc > 3 && strcmp(argv[3], "gobject-population") == 0) {
        for (int r = 0; r < reps; r++) gobject_population(100000);
        return 0;
    }
    if (argc > 3) only_case = argv[3];
    mvvm_handle loop;
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    const bool observable = has_observable_sign_up(loop);
    /* Repetition -1 warms every case up, a tenth as long, unreported. */
    for (int r = -1; r < reps; r++) {
        warming_up = r < 0;
        const int ops = warming_up ? n / 10 : n;
        round_trip(loop, ops, 1, "c_round_trip_sign_up");
        gobject_round_trip(ops, false, "gobject_set_round_trip");
        typed_round_trip(loop, ops);
        gobject_round_trip(ops, true, "gobject_typed_set_round_trip");
        if (observable && runs("c_round_trip_observable_sign_up"))
            round_trip_with(filled_observable_sign_up(loop), ops, 1, "c_round_trip_observable_sign_up",
                            generic_set_password);
        if (observable && runs("c_typed_set_observable_sign_up"))
            round_trip_with(filled_observable_sign_up(loop), ops, 1, "c_typed_set_observable_sign_up",
                            mvvm_observable_sign_up_view_model_set_password);
        baseline(ops * 10);
        round_trip(loop, ops / 10, 10, "c_fan_out_10_subscribers");
        getter(loop, ops * 10);
        command(loop, ops);
        lifecycle(loop, ops / 10, NULL, false, "c_create_subscribe_release");
        gobject_lifecycle(ops / 10);
        if (observable) {
            lifecycle(loop, ops / 10, OBSERVABLE_SIGN_UP, false, "c_create_subscribe_release_observable");
            lifecycle(loop, ops / 10, OBSERVABLE_SIGN_UP, true, "c_create_subscribe_release_armed_observable");
        }
        stopwatch_ticks(ops);
        idle_dispatch(ops, MVVM_LOOP_MANUAL, "c_idle_dispatch_manual");
        idle_dispatch(ops, MVVM_LOOP_MAIN, "c_idle_dispatch_main");
    }
    must(mvvm_release(loop), "release loop");
    return 0;
}
