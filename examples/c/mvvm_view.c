/*
 * mvvm_view - a terminal View over a libmvvm library: the countdown timer and the stopwatch when
 * it carries the catalog (libcatalog.so), and a todo screen when it has the todo app's classes
 * (build/todo/libtodo.so). Through the generic calls (mvvm_new, mvvm_child, mvvm_send, mvvm_get_*),
 * so that one program runs on any library; the catalog's typed calls are in mvvm_catalog.h.
 *
 * Interactive (the default): the main loop (MVVM_LOOP_MAIN) plugged into poll() beside standard
 * input. The program sleeps in poll() until a key arrives or the loop has work due (its own
 * timers, and the main actor's, DispatchQueue.main's and RunLoop.main's work of the view models),
 * dispatches, and renders on every notification. No busy loop, no sleeps.
 *
 *     keys: s start, p pause, x stop (the player's buttons, throttled to one a second),
 *           m the stopwatch's main action (Start / Stop / Resume), c clear, q quit,
 *           t the todo screen (libtodo.so only: MVVM_TODO_FILE names its SQLite database, else
 *           it is kept in memory), which reads todo commands a line at a time until an empty line
 *
 * Scripted: `mvvm_view --script FILE|-` or `mvvm_view --script ACTION...` runs the same view on
 * a virtual loop and prints a transcript, so a session can be tested exactly. Actions, one per
 * line or argument: advance MS, # comments; with the catalog: start, pause, stop, main, clear. With the todo
 * app's classes: todo-add TITLE, todo-toggle N, todo-all on|off, todo-filter all|active|completed,
 * todo-edit N TITLE, todo-cancel-edit N TITLE, todo-destroy N, todo-clear (N counts the rows
 * shown, from 1); each prints the list's notifications, its splices, and the screen.
 *
 * Build: cc -std=c11 mvvm_view.c -Iinclude -L<libdir> -lcatalog -Wl,-rpath,<libdir>
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
    bool catalog; /* the library carries the catalog: the timer and stopwatch screen */
    bool scripted;
    /* The todo screen, opened by its first action: the list, and the rows it shows, kept from
     * its splices (a handle per row). */
    mvvm_handle todos;
    mvvm_handle *rows;
    int64_t row_count, row_capacity;
    bool todo_screen; /* interactive: the todo screen shows, not the timers */
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

/* A splice of the todo list's items: the rows follow it (removed handles released, inserted
 * items read at their final indices). */
static void apply_splice(view *v, mvvm_handle source, const mvvm_event *event) {
    int64_t at = event->index, removed = event->removed, inserted = event->inserted;
    for (int64_t k = 0; k < removed; k++) must(mvvm_release(v->rows[at + k]), "release row");
    int64_t count = v->row_count - removed + inserted;
    if (count > v->row_capacity) {
        v->row_capacity = count * 2;
        v->rows = realloc(v->rows, (size_t)v->row_capacity * sizeof v->rows[0]);
        if (!v->rows) exit(1);
    }
    memmove(&v->rows[at + inserted], &v->rows[at + removed], (size_t)(v->row_count - at - removed) * sizeof v->rows[0]);
    for (int64_t k = 0; k < inserted; k++) must(mvvm_list_item(source, event->name, at + k, &v->rows[at + k]), "row");
    v->row_count = count;
}

static void on_change(mvvm_handle source, const mvvm_event *event, void *user_data) {
    view *v = user_data;
    if (event->kind == MVVM_EVENT_SPLICE && source == v->todos) apply_splice(v, source, event);
    if (v->scripted) {
        int64_t now = 0;
        const char *class_name = "?";
        must(mvvm_loop_now_ms(v->loop, &now), "now");
        must(mvvm_class_name(source, &class_name), "class name");
        printf("[%3" PRId64 ".%03" PRId64 " s] %s.%s", now / 1000, now % 1000, class_name, event->name);
        if (event->kind == MVVM_EVENT_SPLICE) {
            printf(": at %" PRId64 ", %" PRId64 " removed, %" PRId64 " inserted\n", event->index, event->removed, event->inserted);
            return;
        }
        printf(" = ");
        print_value(&event->value);
        printf("\n");
    } else if (!v->todo_screen) {
        render_screen(v);
    }
}

static void subscribe_all(view *v, mvvm_handle object) {
    mvvm_handle subscription;
    must(mvvm_subscribe(object, NULL, on_change, v, NULL, &subscription), "subscribe");
}

static void open_view(view *v, mvvm_loop_kind kind) {
    must(mvvm_loop_new(kind, &v->loop), "loop");
    mvvm_value full_count = {.type = MVVM_TYPE_INT, .integer = 5};
    mvvm_status status = mvvm_new(v->loop, "count_down_timer", &full_count, 1, &v->timer);
    if (status == MVVM_ERR_UNKNOWN_NAME) return; /* a library without the catalog */
    must(status, "timer");
    v->catalog = true;
    mvvm_value timer = {.type = MVVM_TYPE_OBJECT, .object = v->timer};
    must(mvvm_new(v->loop, "timer_view_model", &timer, 1, &v->timer_screen), "timer view model");
    must(mvvm_child(v->timer_screen, "display", &v->display), "display");
    must(mvvm_child(v->timer_screen, "player", &v->player), "player");
    must(mvvm_new(v->loop, "stop_watch_view_model", NULL, 0, &v->stop_watch), "stop watch view model");
    mvvm_handle watched[] = {v->timer_screen, v->display, v->player, v->stop_watch};
    for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) subscribe_all(v, watched[i]);
}

static void close_todos(view *v);

static void close_view(view *v) {
    close_todos(v);
    /* Releasing the loop ends every subscription; the objects are released after it. */
    mvvm_handle all[] = {v->loop, v->stop_watch, v->player, v->display, v->timer_screen, v->timer};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]) must(mvvm_release(all[i]), "release");
}

/* ------------------------------------------------------------------------------------------ */
/* The todo screen (the todo app's classes, through the generic calls: mvvm_new, mvvm_list_*)  */
/* ------------------------------------------------------------------------------------------ */

static char *get_string(mvvm_handle object, const char *name);
static bool get_bool(mvvm_handle object, const char *name);

/* Opens the todo list on first use; false when the library has no todo app. */
static bool open_todos(view *v, const char *path) {
    if (v->todos) return true;
    mvvm_value argument = {.type = MVVM_TYPE_STRING, .string = path ? path : ""};
    mvvm_status status = mvvm_new(v->loop, "todo_list_view_model", &argument, 1, &v->todos);
    if (status == MVVM_ERR_UNKNOWN_NAME) return false;
    must(status, "todo_list_view_model");
    int64_t count = 0;
    must(mvvm_list_count(v->todos, "items", &count), "items");
    mvvm_event all = {.kind = MVVM_EVENT_SPLICE, .name = "items", .index = 0, .removed = 0, .inserted = count};
    apply_splice(v, v->todos, &all);
    subscribe_all(v, v->todos);
    return true;
}

static void close_todos(view *v) {
    for (int64_t i = 0; i < v->row_count; i++) must(mvvm_release(v->rows[i]), "release row");
    free(v->rows);
    if (v->todos) must(mvvm_release(v->todos), "release todos");
    v->todos = 0, v->rows = NULL, v->row_count = v->row_capacity = 0;
}

/* The screen: the rows the filter shows, the counter, the filter, mark all, clear completed. */
static void render_todos(view *v) {
    char *filter = get_string(v->todos, "filter"), *left = get_string(v->todos, "items_left");
    printf("  +-- todos (%s)%s\n", filter, get_bool(v->todos, "all_completed") ? " [all completed]" : "");
    for (int64_t i = 0; i < v->row_count; i++) {
        char *title = get_string(v->rows[i], "title");
        printf("  | %2" PRId64 ". [%c] %s\n", i + 1, get_bool(v->rows[i], "completed") ? 'x' : ' ', title);
        mvvm_string_free(title);
    }
    if (get_bool(v->todos, "has_todos"))
        printf("  +-- %s%s\n", left, get_bool(v->todos, "is_clear_completed_visible") ? " | clear completed" : "");
    else
        printf("  +-- what needs to be done?\n");
    mvvm_string_free(filter);
    mvvm_string_free(left);
}

/* The row numbered `text` (from 1), or 0 with a message. */
static mvvm_handle todo_row(view *v, const char *text) {
    long number = text ? strtol(text, NULL, 10) : 0;
    if (number < 1 || number > v->row_count) {
        fprintf(stderr, "mvvm_view: no todo %s (%" PRId64 " shown)\n", text ? text : "", v->row_count);
        return 0;
    }
    return v->rows[number - 1];
}

/* A todo action: the verb after "todo-", and the rest of its line. 1: unknown action; -1: the
 * library has no todo app; 2: a bad argument. */
static int act_todo(view *v, const char *verb, char *rest) {
    if (!open_todos(v, getenv("MVVM_TODO_FILE"))) return -1;
    char *argument = rest ? rest + strspn(rest, " \t") : NULL;
    if (argument) argument[strcspn(argument, "\r\n")] = '\0';
    if (strcmp(verb, "add") == 0) {
        must(mvvm_set_string(v->todos, "new_todo_title", argument ? argument : ""), "new_todo_title");
        must(mvvm_send(v->todos, "add", NULL), "add");
    } else if (strcmp(verb, "all") == 0) {
        must(mvvm_set_bool(v->todos, "all_completed", argument && strcmp(argument, "on") == 0), "all_completed");
    } else if (strcmp(verb, "filter") == 0) {
        mvvm_status status = mvvm_set_string(v->todos, "filter", argument ? argument : "");
        if (status != MVVM_OK) {
            fprintf(stderr, "mvvm_view: %s\n", mvvm_last_error());
            return 2;
        }
    } else if (strcmp(verb, "clear") == 0) {
        must(mvvm_send(v->todos, "clear_completed", NULL), "clear_completed");
    } else if (strcmp(verb, "toggle") == 0 || strcmp(verb, "destroy") == 0 || strcmp(verb, "edit") == 0
               || strcmp(verb, "cancel-edit") == 0) {
        char *number = argument ? strtok(argument, " \t") : NULL, *text = number ? strtok(NULL, "") : NULL;
        mvvm_handle row = todo_row(v, number);
        if (!row) return 2;
        if (strcmp(verb, "toggle") == 0) {
            must(mvvm_set_bool(row, "completed", !get_bool(row, "completed")), "completed");
        } else if (strcmp(verb, "destroy") == 0) {
            must(mvvm_send(row, "destroy", NULL), "destroy");
        } else {
            /* Double-click, type, then Enter (commit) or Escape (cancel). The row may leave the
             * list on commit: a handle of its own keeps it for the calls. */
            mvvm_handle own = 0;
            must(mvvm_list_item(v->todos, "items", (int64_t)strtol(number, NULL, 10) - 1, &own), "row");
            must(mvvm_send(own, "begin_edit", NULL), "begin_edit");
            must(mvvm_set_string(own, "edit_text", text ? text : ""), "edit_text");
            must(mvvm_send(own, strcmp(verb, "edit") == 0 ? "commit_edit" : "cancel_edit", NULL), "edit");
            must(mvvm_release(own), "release");
        }
    } else {
        return 1;
    }
    render_todos(v);
    return 0;
}

/* One user action. 0: done; 1: an unknown action; -1: the library has no catalog. */
static int act(view *v, const char *action) {
    bool tap = strcmp(action, "start") == 0 || strcmp(action, "pause") == 0 || strcmp(action, "stop") == 0;
    bool main_action = strcmp(action, "main") == 0, clear = strcmp(action, "clear") == 0;
    if (!tap && !main_action && !clear) return 1;
    if (!v->catalog) return -1;
    mvvm_value tapped = {.type = MVVM_TYPE_STRING, .string = action};
    if (tap) must(mvvm_send(v->player, "tapped", &tapped), action);
    else must(mvvm_send(v->stop_watch, main_action ? "main_action" : "clear_action", NULL), action);
    return 0;
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
    if (strncmp(word, "todo-", 5) == 0) {
        char *rest = strtok(NULL, "");
        if (rest) {
            rest += strspn(rest, " \t");
            size_t length = strlen(rest);
            while (length && strchr(" \t\r\n", rest[length - 1])) rest[--length] = '\0';
        }
        printf("%s%s\n", rest && *rest ? " " : "", rest ? rest : "");
        int result = act_todo(v, word + 5, rest);
        if (result == -1) fprintf(stderr, "mvvm_view: line %d: this library has no todo app (build/todo/libtodo.so has)\n", number);
        if (result == 1) fprintf(stderr, "mvvm_view: line %d: unknown action \"%s\"\n", number, word);
        return result != 0;
    }
    printf("\n");
    int result = act(v, word);
    if (result == -1) fprintf(stderr, "mvvm_view: line %d: this library has no catalog (libcatalog.so has)\n", number);
    if (result == 1) fprintf(stderr, "mvvm_view: line %d: unknown action \"%s\"\n", number, word);
    if (result != 0) return 1;
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
/* Interactive: the main loop in poll() beside the keyboard                                   */
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
    if (!v->catalog) {
        printf("\r\033[K(this library has no catalog: t for todos, q to quit)   ");
        fflush(stdout);
        return;
    }
    int64_t remaining = 0;
    must(mvvm_get_int(v->display, "remaining_time", &remaining), "remaining_time");
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

/* The todo screen: commands a line at a time ("add milk", "toggle 1", "filter active", "all on",
 * "edit 1 oat milk", "destroy 1", "clear") until an empty line; false at the end of input. */
static bool todo_screen(view *v, const struct termios *cooked, const struct termios *raw) {
    if (!open_todos(v, getenv("MVVM_TODO_FILE"))) {
        printf("\r\033[K(this library has no todo app: run on build/todo/libtodo.so)\n");
        return true;
    }
    v->todo_screen = true;
    if (cooked) tcsetattr(STDIN_FILENO, TCSANOW, cooked);
    printf("\r\033[K");
    render_todos(v);
    bool more = true;
    char line[512];
    for (;;) {
        printf("todo (add T, toggle N, edit N T, destroy N, all on|off, filter all|active|completed, clear; "
               "empty line: back)> ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            more = false;
            break;
        }
        char *verb = strtok(line, " \t\r\n");
        if (!verb) break;
        if (act_todo(v, verb, strtok(NULL, "")) == 1) printf("unknown todo command \"%s\"\n", verb);
    }
    if (raw) tcsetattr(STDIN_FILENO, TCSANOW, raw);
    v->todo_screen = false;
    return more;
}

static int run_interactive(void) {
    view v = {.scripted = false};
    /* main() runs on the process's main thread: the loop that also runs main-actor work. */
    open_view(&v, MVVM_LOOP_MAIN);
    int loop_fd = -1;
    must(mvvm_loop_fd(v.loop, &loop_fd), "fd");

    struct termios saved, raw;
    bool terminal = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (terminal) {
        raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    printf("keys: s start, p pause, x stop, m stopwatch, c clear, t todos (libtodo.so), q quit\n");
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
            if (key == 't') {
                running = todo_screen(&v, terminal ? &saved : NULL, terminal ? &raw : NULL);
                render_screen(&v);
                continue;
            }
            if (key == 'q') running = false;
            else if (key == 'a' && v.catalog) must(mvvm_set_bool(v.timer_screen, "is_show_alert", false), "dismiss");
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
