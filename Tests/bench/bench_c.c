/*
 * bench_c.c - what one change costs through the C ABI, against a hand-written C baseline.
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

#include "mvvm.h"

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

/* The SignUp round trip: a password that flips is_sign_up_enabled, to a callback. */
static void round_trip(mvvm_handle loop, int n, int subscribers, const char *name) {
    mvvm_handle vm = filled_sign_up(loop), subscriptions[16];
    for (int s = 0; s < subscribers; s++)
        must(mvvm_subscribe(vm, "is_sign_up_enabled", count_delivery, NULL, NULL, &subscriptions[s]), "subscribe");
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) must(mvvm_set_string(vm, "password", (i & 1) ? "short" : "password1"), "set");
    report(name, now_ns() - start, n);
    if (deliveries != (int64_t)n * subscribers) { fprintf(stderr, "%s: lost deliveries\n", name); exit(1); }
    must(mvvm_release(vm), "release");
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
    form f = {.user_id = "newuser", .confirm = "password1", .agreed = true, .changed = form_changed};
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) form_set_password(&f, (i & 1) ? "short" : "password1");
    report("c_baseline_struct_fnptr", now_ns() - start, n);
}

static void getter(mvvm_handle loop, int n) {
    mvvm_handle vm = filled_sign_up(loop);
    bool value = false;
    int64_t trues = 0, start = now_ns();
    for (int i = 0; i < n; i++) { must(mvvm_get_bool(vm, "agreed", &value), "get"); trues += value; }
    deliveries = trues;
    report("c_get_bool", now_ns() - start, n);
    must(mvvm_release(vm), "release");
}

static void command(mvvm_handle loop, int n) {
    mvvm_handle counter, subscription;
    must(mvvm_counter_new(loop, &counter), "counter");
    must(mvvm_subscribe(counter, "count", count_delivery, NULL, NULL, &subscription), "subscribe");
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) must(mvvm_send(counter, "increment", NULL), "send");
    report("c_send_command", now_ns() - start, n);
    must(mvvm_release(counter), "release");
}

static void lifecycle(mvvm_handle loop, int n) {
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < n; i++) {
        mvvm_handle vm, subscription;
        must(mvvm_sign_up_view_model_new(loop, &vm), "new");
        must(mvvm_subscribe(vm, NULL, count_delivery, NULL, NULL, &subscription), "subscribe");
        must(mvvm_release(vm), "release");
        deliveries++;
    }
    report("c_create_subscribe_release", now_ns() - start, n);
}

static void stopwatch_ticks(int n) {
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

static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm || fscanf(statm, "%ld %ld", &pages, &resident) != 2) { fprintf(stderr, "no statm\n"); exit(1); }
    fclose(statm);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Memory and set-up cost of many live view models, and whether they slow one change down. */
static void population(int live) {
    mvvm_handle loop, *vms = malloc(sizeof(mvvm_handle) * (size_t)live);
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    warming_up = true;
    round_trip(loop, 2000, 1, "c_round_trip_alone");
    warming_up = false;
    round_trip(loop, 2000, 1, "c_round_trip_alone");
    long before = rss_kib();
    deliveries = 0;
    int64_t start = now_ns();
    for (int i = 0; i < live; i++) {
        mvvm_handle subscription;
        must(mvvm_sign_up_view_model_new(loop, &vms[i]), "new");
        must(mvvm_subscribe(vms[i], "is_sign_up_enabled", count_delivery, NULL, NULL, &subscription), "subscribe");
    }
    deliveries = live;
    report("c_create_live_sign_up", now_ns() - start, live);
    printf("c_memory_per_live_sign_up_bytes %.1f %d\n", (double)(rss_kib() - before) * 1024.0 / live, live);
    round_trip(loop, 2000, 1, "c_round_trip_among_100k");
    for (int i = 0; i < live; i++) must(mvvm_release(vms[i]), "release");
    must(mvvm_release(loop), "release loop");
    free(vms);
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 7, n = argc > 2 ? atoi(argv[2]) : 20000;
    if (argc > 3 && strcmp(argv[3], "population") == 0) {
        for (int r = 0; r < reps; r++) population(100000);
        return 0;
    }
    mvvm_handle loop;
    must(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop), "loop");
    /* Repetition -1 warms every case up, a tenth as long, unreported. */
    for (int r = -1; r < reps; r++) {
        warming_up = r < 0;
        const int ops = warming_up ? n / 10 : n;
        round_trip(loop, ops, 1, "c_round_trip_sign_up");
        baseline(ops * 10);
        round_trip(loop, ops / 10, 10, "c_fan_out_10_subscribers");
        getter(loop, ops * 10);
        command(loop, ops);
        lifecycle(loop, ops / 10);
        stopwatch_ticks(ops);
    }
    must(mvvm_release(loop), "release loop");
    return 0;
}
