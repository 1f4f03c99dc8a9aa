/*
 * mvvm_view - a terminal View over libmvvm: the countdown timer and the stopwatch.
 *
 * Interactive (the default): a manual loop plugged into poll() beside standard input. The
 * program sleeps in poll() until a key arrives or the loop has work due, dispatches, and
 * renders on every notification. No busy loop, no sleeps.
 *
 *     keys: s start, p pause, x stop (the player's buttons, throttled to one a second),
 *           m the stopwatch's main action (Start / Stop / Resume), c clear, q quit
 *
 * Scripted: `mvvm_view --script FILE|-` or `mvvm_view --script ACTION...` runs the same view on
 * a virtual loop and prints a transcript, so a session can be tested exactly. Actions, one per
 * line or argument: start, pause, stop, main, clear, advance MS, and # comments.
 *
 * Build: cc -std=c11 mvvm_view.c -Iinclude -L<libdir> -lmvvm -Wl,-rpath,<libdir>
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "mvvm.h"

/* The view's state: the handles it holds, and whether it prints a transcript. */
typedef struct view {
    mvvm_handle loop, timer, timer_screen, display, player, stop_watch;
    bool scripted;
} view;

/* Stops with the library's message when a call that cannot fail in a correct program fails. */
static void must(mvvm_status status, const char *what) {
    if (status != MVVM_OK) {
        fprintf(stderr, "mvvm_view: %s: %s (%s)\n", what, mvvm_last_error(), mvvm_status_name(status));
        exit(1);
    }
}

static void print_value(const mvvm_value *value) {
    switch (value->type) {
    case MVVM_TYPE_BOOL: printf("%s", value->boolean ? "true" : "false"); break;
    case MVVM_TYPE_INT: printf("%" PRId64, value->integer); break;
    case MVVM_TYPE_DOUBLE: printf("%g", value->number); break;
    case MVVM_TYPE_STRING: printf("\"%s\"", value->string); break;
    default: printf("(none)"); break;
    }
}

/* Renders one notification: in a transcript as a line, interactively as the whole screen. */
static void render_screen(view *v);

static void on_change(mvvm_handle source, const mvvm_event *event, void *user_data) {
    view *v = user_data;
    if (v->scripted) {
        int64_t now = 0;
        const char *class_name = "?";
        must(mvvm_loop_now_ms(v->loop, &now), "now");
        must(mvvm_class_name(source, &class_name), "class name");
        printf("[%3" PRId64 ".%03" PRId64 " s] %s.%s = ", now / 1000, now % 1000, class_name, event->name);
        print_value(&event->value);
        printf("\n");
    } else {
        render_screen(v);
    }
}

static void subscribe_all(view *v, mvvm_handle object) {
    mvvm_handle subscription;
    must(mvvm_subscribe(object, NULL, on_change, v, NULL, &subscription), "subscribe");
}

static void open_view(view *v, mvvm_loop_kind kind) {
    must(mvvm_loop_new(kind, &v->loop), "loop");
    must(mvvm_count_down_timer_new(v->loop, 5, &v->timer), "timer");
    must(mvvm_timer_view_model_new(v->loop, v->timer, &v->timer_screen), "timer view model");
    must(mvvm_timer_view_model_display(v->timer_screen, &v->display), "display");
    must(mvvm_timer_view_model_player(v->timer_screen, &v->player), "player");
    must(mvvm_stop_watch_view_model_new(v->loop, &v->stop_watch), "stop watch view model");
    mvvm_handle watched[] = {v->timer_screen, v->display, v->player, v->stop_watch};
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) subscribe_all(v, watched[i]);
}

static void close_view(view *v) {
    /* Releasing the loop ends every subscription; the objects are released after it. */
    mvvm_handle all[] = {v->loop, v->stop_watch, v->player, v->display, v->timer_screen, v->timer};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) must(mvvm_release(all[i]), "release");
}

/* One user action; false for an unknown one. */
static bool act(view *v, const char *action) {
    if (strcmp(action, "start") == 0 || strcmp(action, "pause") == 0 || strcmp(action, "stop") == 0)
        must(mvvm_player_view_model_tapped(v->player, action), action);
    else if (strcmp(action, "main") == 0)
        must(mvvm_stop_watch_view_model_main_action(v->stop_watch), action);
    else if (strcmp(action, "clear") == 0)
        must(mvvm_stop_watch_view_model_clear_action(v->stop_watch), action);
    else
        return false;
    return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Scripted: a virtual loop and a transcript                                                  */
/* ------------------------------------------------------------------------------------------ */

static int run_line(view *v, char *line, int number) {
    char *comment = strchr(line, '#');
    if (comment) *comment = '\0';
    char *word = strtok(line, " \t\r\n");
    if (!word) return 0;
    printf("> %s", word);
    if (strcmp(word, "advance") == 0) {
        char *ms = strtok(NULL, " \t\r\n"), *end = NULL;
        long long value = ms ? strtoll(ms, &end, 10) : -1;
        if (!ms || *end != '\0' || value < 0) {
            fprintf(stderr, "\nmvvm_view: line %d: advance needs milliseconds\n", number);
            return 1;
        }
        printf(" %lld\n", value);
        must(mvvm_loop_advance(v->loop, value), "advance");
        return 0;
    }
    printf("\n");
    if (!act(v, word)) {
        fprintf(stderr, "mvvm_view: line %d: unknown action \"%s\"\n", number, word);
        return 1;
    }
    /* A tap acts on the next dispatch: run what is due now, as a host loop would. */
    must(mvvm_loop_advance(v->loop, 0), "dispatch");
    return 0;
}

static int run_script(int count, char **actions) {
    view v = {.scripted = true};
    open_view(&v, MVVM_LOOP_VIRTUAL);
    int failed = 0;
    if (count == 1 && (strcmp(actions[0], "-") == 0 || access(actions[0], R_OK) == 0)) {
        FILE *file = strcmp(actions[0], "-") == 0 ? stdin : fopen(actions[0], "r");
        if (!file) {
            fprintf(stderr, "mvvm_view: %s: %s\n", actions[0], strerror(errno));
            return 1;
        }
        char line[256];
        for (int number = 1; !failed && fgets(line, sizeof line, file); number++) failed = run_line(&v, line, number);
        if (file != stdin) fclose(file);
    } else {
        /* Arguments: "advance" takes the next argument as its duration. */
        for (int i = 0; !failed && i < count; i++) {
            char line[256];
            bool takes_ms = strcmp(actions[i], "advance") == 0 && i + 1 < count;
            snprintf(line, sizeof line, "%s %s", actions[i], takes_ms ? actions[i + 1] : "");
            failed = run_line(&v, line, i + 1);
            if (takes_ms) i++;
        }
    }
    close_view(&v);
    return failed;
}

/* ------------------------------------------------------------------------------------------ */
/* Interactive: a manual loop in poll() beside the keyboard                                   */
/* ------------------------------------------------------------------------------------------ */

static char *get_string(mvvm_handle object, const char *name) {
    char *value = NULL;
    must(mvvm_get_string(object, name, &value), name);
    return value;
}

static bool get_bool(mvvm_handle object, const char *name) {
    bool value = false;
    must(mvvm_get_bool(object, name, &value), name);
    return value;
}

static void render_screen(view *v) {
    int64_t remaining = 0;
    must(mvvm_display_view_model_get_remaining_time(v->display, &remaining), "remaining_time");
    char *time = get_string(v->stop_watch, "time");
    char *main_title = get_string(v->stop_watch, "main_action_title");
    printf("\r\033[K timer %2" PRId64 " s [%s]%s%s | stopwatch %s [m: %s]%s   ", remaining,
           get_bool(v->player, "is_play_timer") ? "running" : "paused",
           get_bool(v->player, "is_stop_enabled") ? " x: stop" : "",
           get_bool(v->timer_screen, "is_show_alert") ? " TIME IS UP!" : "",
           time, main_title, get_bool(v->stop_watch, "clear_action_enabled") ? " c: clear" : "");
    fflush(stdout);
    mvvm_string_free(time);
    mvvm_string_free(main_title);
}

static int run_interactive(void) {
    view v = {.scripted = false};
    open_view(&v, MVVM_LOOP_MANUAL);
    int loop_fd = -1;
    must(mvvm_loop_fd(v.loop, &loop_fd), "fd");

    struct termios saved, raw;
    bool terminal = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (terminal) {
        raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    printf("keys: s start, p pause, x stop, m stopwatch, c clear, q quit\n");
    render_screen(&v);

    bool running = true;
    while (running) {
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = loop_fd, .events = POLLIN}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents & POLLIN) must(mvvm_loop_dispatch(v.loop, NULL), "dispatch");
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            char key;
            if (read(STDIN_FILENO, &key, 1) != 1) break;
            const char *action = key == 's' ? "start" : key == 'p' ? "pause" : key == 'x' ? "stop"
                               : key == 'm' ? "main" : key == 'c' ? "clear" : NULL;
            if (key == 'q') running = false;
            else if (key == 'a') must(mvvm_timer_view_model_set_is_show_alert(v.timer_screen, false), "dismiss");
            else if (action) act(&v, action);
        }
    }
    if (terminal) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    printf("\n");
    close_view(&v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--script") == 0) {
        if (argc < 3) {
            fprintf(stderr, "usage: %s [--script FILE|-|ACTION...]\n", argv[0]);
            return 2;
        }
        return run_script(argc - 2, argv + 2);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--script FILE|-|ACTION...]\n", argv[0]);
        return 2;
    }
    return run_interactive();
}
