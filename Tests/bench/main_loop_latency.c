/*
 * main_loop_latency.c - how late the main loop delivers an app's work when the host only waits
 * on the loop's fd with poll(): the view models of Tests/outside's AppSample, written as apps
 * write them (libappsample.so).
 *
 *   timer         a repeating Foundation Timer of 50 ms (MeetingViewModel.start), each tick a
 *                 `Task { @MainActor in secondsElapsed += 1 }`: the notification's time less the
 *                 tick's fire date (start + 50 ms x n)
 *   private queue a property set by a completion on a private queue 20 ms after the command
 *                 (SignInViewModel.signIn, `queue.asyncAfter`): the notification's time less
 *                 the command's + 20 ms
 *   main queue    DispatchQueue.global().async then DispatchQueue.main.async
 *                 (MeetingViewModel.refresh): the notification's time less the command's
 *   idle          wake-ups of a host waiting 500 ms on the fd with nothing due (must be 0)
 *
 * Real time on a shared machine: a measurement, never an assertion; docs/loops-and-threads.md
 * gives the latest figures. Run: make bench-main-loop.
 * Build: cc -std=c11 main_loop_latency.c -Iinclude -L<dir of libappsample.so> -lappsample
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mvvm.h"

#define TICKS 40
#define ROUNDS 20

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void must(mvvm_status status, const char *what) {
    if (status != MVVM_OK) {
        fprintf(stderr, "main_loop_latency: %s: %s\n", what, mvvm_last_error());
        exit(1);
    }
}

/* The times of the notifications heard, for the one property a subscription watches. */
typedef struct heard {
    double at[TICKS + 1];
    int count;
} heard;

static void on_change(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source, (void)event;
    heard *h = user_data;
    if (h->count < TICKS + 1) h->at[h->count] = now_ms();
    h->count++;
}

/* The host's event loop: wait on the fd (nothing else), dispatch when readable; until `h` has
 * `count` notifications or 5 s pass. Returns the waits that ended by timeout (missed wake-ups). */
static int wait_for(mvvm_handle loop, int fd, heard *h, int count) {
    int timeouts = 0;
    double give_up = now_ms() + 5000;
    while (h->count < count && now_ms() < give_up) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 1000) == 0) timeouts++;
        else must(mvvm_loop_dispatch(loop, NULL), "dispatch");
    }
    return timeouts;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *late, int n, int missed) {
    qsort(late, (size_t)n, sizeof *late, by_value);
    printf("| %-13s | %3d | %7.2f | %7.2f | %7.2f | %d |\n", what, n, late[n / 2], late[(n * 9) / 10], late[n - 1], missed);
}

static mvvm_handle make(mvvm_handle loop, const char *class_name) {
    mvvm_handle object = 0;
    must(mvvm_new(loop, class_name, NULL, 0, &object), class_name);
    return object;
}

int main(void) {
    mvvm_handle loop = 0;
    int fd = -1;
    must(mvvm_loop_new(MVVM_LOOP_MAIN, &loop), "the main loop");
    must(mvvm_loop_fd(loop, &fd), "fd");
    printf("| work | n | median ms | 90th ms | max ms | missed wake-ups |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");

    /* A repeating Foundation Timer. */
    mvvm_handle meeting = make(loop, "meeting_view_model"), sub = 0;
    heard ticks = {0};
    must(mvvm_subscribe(meeting, "seconds_elapsed", on_change, &ticks, NULL, &sub), "subscribe");
    double start = now_ms();
    must(mvvm_send(meeting, "start", NULL), "start");
    int missed = wait_for(loop, fd, &ticks, TICKS);
    must(mvvm_send(meeting, "stop", NULL), "stop");
    double late[TICKS > ROUNDS ? TICKS : ROUNDS];
    int n = ticks.count < TICKS ? ticks.count : TICKS;
    for (int i = 0; i < n; i++) late[i] = ticks.at[i] - (start + 50.0 * (i + 1));
    report("timer", late, n, missed);
    must(mvvm_unsubscribe(sub), "unsubscribe");

    /* A completion on a private queue. */
    mvvm_handle sign_in = make(loop, "sign_in_view_model");
    heard tokens = {0};
    must(mvvm_subscribe(sign_in, "token", on_change, &tokens, NULL, &sub), "subscribe");
    missed = 0;
    for (int i = 0; i < ROUNDS; i++) {
        char user[16];
        snprintf(user, sizeof user, "user%d", i);
        mvvm_value argument = {.type = MVVM_TYPE_STRING, .string = user, .integer = (int64_t)strlen(user)};
        double sent = now_ms();
        must(mvvm_send(sign_in, "sign_in", &argument), "sign_in");
        missed += wait_for(loop, fd, &tokens, i + 1);
        late[i] = tokens.at[i < TICKS ? i : TICKS] - (sent + 20.0);
    }
    report("private queue", late, ROUNDS, missed);
    must(mvvm_unsubscribe(sub), "unsubscribe");

    /* Main-queue work from a background queue. */
    heard statuses = {0};
    must(mvvm_subscribe(meeting, "status", on_change, &statuses, NULL, &sub), "subscribe");
    missed = 0;
    for (int i = 0; i < ROUNDS; i++) {
        int before = statuses.count;
        double sent = now_ms();
        must(mvvm_send(meeting, "refresh", NULL), "refresh"); /* "refreshing", heard at once */
        missed += wait_for(loop, fd, &statuses, before + 2);  /* then "fetched" */
        late[i] = statuses.at[(before + 1) < TICKS ? before + 1 : TICKS] - sent;
    }
    report("main queue", late, ROUNDS, missed);
    must(mvvm_unsubscribe(sub), "unsubscribe");

    /* Idle: nothing due, nothing wakes the host. */
    while (1) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 0) != 1) break;
        must(mvvm_loop_dispatch(loop, NULL), "dispatch");
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int woken = poll(&p, 1, 500);
    printf("\nidle: %d wake-up(s) in 500 ms with nothing due\n", woken);

    must(mvvm_release(sign_in), "release");
    must(mvvm_release(meeting), "release");
    must(mvvm_release(loop), "release");
    return woken == 0 ? 0 : 1;
}
