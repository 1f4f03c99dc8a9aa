/*
 * test_todo.c - the todo app (examples/todo, build/todo/libtodo.so) through the generic ABI
 * only (mvvm_new, mvvm_set_*, mvvm_send, mvvm_list_*): one test per TodoMVC behaviour, a host
 * mirror of `items` rebuilt from splices and checked after every step, reloads from the JSON
 * file, refused files, and SIGKILL during saves (never a torn file).
 *
 * `test_todo --save-loop PATH FD` is the kill test's child: it saves forever (see save_loop).
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include "check.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#define MAX_ITEMS 4096

static char self_path[PATH_MAX];

/* ------------------------------------------------------------------------------------------ */
/* A session: a list view model on a virtual loop, its mirror, its notifications              */
/* ------------------------------------------------------------------------------------------ */

typedef struct session {
    mvvm_handle loop, list, mirror_sub, events_sub;
    int64_t ids[MAX_ITEMS]; /* object ids of `items`, kept only from splices */
    int count, splices;
    bool broken;
    /* Property notifications of the last step, by name. */
    char names[64][40];
    int times[64], kinds;
} session;

static int64_t item_id(mvvm_handle owner, int64_t index) {
    mvvm_handle item = 0;
    int64_t id = -1;
    if (mvvm_list_item(owner, "items", index, &item) != MVVM_OK) return -1;
    if (mvvm_object_id(item, &id) != MVVM_OK) id = -2;
    mvvm_release(item);
    return id;
}

static void on_splice(mvvm_handle source, const mvvm_event *event, void *user_data) {
    session *s = user_data;
    if (event->kind != MVVM_EVENT_SPLICE || strcmp(event->name, "items") != 0) return;
    s->splices++;
    int64_t at = event->index, removed = event->removed, inserted = event->inserted;
    if (at < 0 || removed < 0 || inserted < 0 || at + removed > s->count || s->count - removed + inserted > MAX_ITEMS) {
        s->broken = true;
        return;
    }
    memmove(&s->ids[at + inserted], &s->ids[at + removed], (size_t)(s->count - at - removed) * sizeof s->ids[0]);
    for (int64_t k = 0; k < inserted; k++) s->ids[at + k] = item_id(source, at + k);
    s->count = (int)(s->count - removed + inserted);
}

static void on_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    session *s = user_data;
    if (event->kind != MVVM_EVENT_PROPERTY) return;
    for (int i = 0; i < s->kinds; i++)
        if (strcmp(s->names[i], event->name) == 0) {
            s->times[i]++;
            return;
        }
    if (s->kinds < 64) {
        snprintf(s->names[s->kinds], sizeof s->names[0], "%s", event->name);
        s->times[s->kinds++] = 1;
    }
}

/* How often `name` was notified since the last step began. */
static int notified(session *s, const char *name) {
    for (int i = 0; i < s->kinds; i++)
        if (strcmp(s->names[i], name) == 0) return s->times[i];
    return 0;
}

/* Begins a step: forgets the notifications and splices heard so far. */
static void step(session *s) {
    s->kinds = 0;
    s->splices = 0;
}

/* The mirror equals the list read back now, and no property was notified twice in the step. */
static bool mirror_ok_at(session *s, const char *file, int line) {
    int64_t count = -1;
    bool same = mvvm_list_count(s->list, "items", &count) == MVVM_OK && !s->broken && count == s->count;
    for (int64_t i = 0; same && i < count; i++) same = item_id(s->list, i) == s->ids[i];
    if (!check_true(same, "the mirror rebuilt from splices equals items", file, line))
        printf("    mirror: %d items%s, list: %" PRId64 "\n", s->count, s->broken ? " (broken)" : "", count);
    bool once = true;
    for (int i = 0; i < s->kinds; i++)
        if (s->times[i] > 1) {
            once = false;
            printf("    %s notified %d times in one step\n", s->names[i], s->times[i]);
        }
    check_true(once, "each changed property notified once per operation", file, line);
    return same && once;
}
#define MIRROR_OK(s) mirror_ok_at((s), __FILE__, __LINE__)

static mvvm_status open_list(mvvm_handle loop, const char *path, mvvm_handle *out) {
    mvvm_value argument = value_string(path);
    return mvvm_new(loop, "todo_list_view_model", &argument, 1, out);
}

static session *session_open(const char *path) {
    session *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->loop = new_virtual_loop();
    CHECK_STATUS(open_list(s->loop, path, &s->list), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(s->list, "items", on_splice, s, NULL, &s->mirror_sub), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(s->list, NULL, on_event, s, NULL, &s->events_sub), MVVM_OK);
    /* The mirror starts from the list as it is. */
    int64_t count = 0;
    CHECK_STATUS(mvvm_list_count(s->list, "items", &count), MVVM_OK);
    for (int64_t i = 0; i < count && i < MAX_ITEMS; i++) s->ids[i] = item_id(s->list, i);
    s->count = (int)count;
    return s;
}

static void session_close(session *s) {
    RELEASE(s->list);
    RELEASE(s->loop);
    free(s);
}

/* Types `title` in the new-todo field and presses Enter. */
static void add(session *s, const char *title) {
    CHECK_STATUS(mvvm_set_string(s->list, "new_todo_title", title), MVVM_OK);
    step(s);
    CHECK_STATUS(mvvm_send(s->list, "add", NULL), MVVM_OK);
    MIRROR_OK(s);
}

/* The shown item at `index` (a handle the caller releases), or 0. */
static mvvm_handle item(session *s, int64_t index) {
    mvvm_handle h = 0;
    CHECK_STATUS(mvvm_list_item(s->list, "items", index, &h), MVVM_OK);
    return h;
}

/* The titles of the shown items, "a,b,c" (with [x] before a completed one). */
static const char *shown(session *s) {
    static char text[8192];
    text[0] = 0;
    int64_t count = 0;
    mvvm_list_count(s->list, "items", &count);
    for (int64_t i = 0; i < count; i++) {
        mvvm_handle h = 0;
        char *title = NULL;
        bool done = false;
        if (mvvm_list_item(s->list, "items", i, &h) != MVVM_OK) return "(no item)";
        mvvm_get_string(h, "title", &title);
        mvvm_get_bool(h, "completed", &done);
        size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, "%s%s%s", i ? "," : "", done ? "[x]" : "", title ? title : "?");
        mvvm_string_free(title);
        mvvm_release(h);
    }
    return text;
}

static void set_completed(session *s, int64_t index, bool completed) {
    mvvm_handle h = item(s, index);
    step(s);
    CHECK_STATUS(mvvm_set_bool(h, "completed", completed), MVVM_OK);
    MIRROR_OK(s);
    RELEASE(h);
}

static void send_item(session *s, int64_t index, const char *command) {
    mvvm_handle h = item(s, index);
    step(s);
    CHECK_STATUS(mvvm_send(h, command, NULL), MVVM_OK);
    MIRROR_OK(s);
    RELEASE(h);
}

static void set_filter(session *s, const char *filter) {
    step(s);
    CHECK_STATUS(mvvm_set_string(s->list, "filter", filter), MVVM_OK);
    MIRROR_OK(s);
}

static void set_all(session *s, bool completed) {
    step(s);
    CHECK_STATUS(mvvm_set_bool(s->list, "all_completed", completed), MVVM_OK);
    MIRROR_OK(s);
}

static void send_list(session *s, const char *command) {
    step(s);
    CHECK_STATUS(mvvm_send(s->list, command, NULL), MVVM_OK);
    MIRROR_OK(s);
}

/* A fresh path in a fresh directory: <dir>/todos.json (not created). */
static const char *scratch_path(void) {
    static char path[PATH_MAX];
    char dir[] = "/tmp/todo-test-XXXXXX";
    if (!mkdtemp(dir)) abort();
    snprintf(path, sizeof path, "%s/todos.json", dir);
    return path;
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    size_t n;
    while ((n = fread(text + size, 1, cap - size - 1, f)) > 0) {
        size += n;
        if (cap - size < 2) text = realloc(text, cap *= 2);
    }
    text[size] = 0;
    fclose(f);
    return text;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    fputs(text, f);
    fclose(f);
}

/* Removes a scratch file, its leftovers and its directory. */
static void remove_scratch(const char *path) {
    char command[PATH_MAX + 32], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    if (strncmp(dir, "/tmp/todo-", 10) != 0) return;
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) printf("    could not remove %s\n", dir);
}

/* ------------------------------------------------------------------------------------------ */
/* TodoMVC's behaviours                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void blank_titles_add_nothing_and_titles_are_trimmed(void) {
    session *s = session_open("");
    CHECK_GET_BOOL(s->list, "has_todos", false);
    add(s, "");
    add(s, "   \t ");
    CHECK_EQ_INT(s->count, 0);
    CHECK_GET_BOOL(s->list, "has_todos", false);
    CHECK_GET_STRING(s->list, "new_todo_title", "   \t "); /* a blank title stays in the field */
    add(s, "  buy milk  ");
    CHECK_EQ_STR(shown(s), "buy milk");
    CHECK_GET_STRING(s->list, "new_todo_title", ""); /* cleared */
    CHECK_EQ_INT(notified(s, "new_todo_title"), 1);
    CHECK_EQ_INT(s->splices, 1);
    CHECK_GET_BOOL(s->list, "has_todos", true);
    add(s, "walk the dog");
    CHECK_EQ_STR(shown(s), "buy milk,walk the dog");
    /* Ids are distinct, ascending, and stay with their todo. */
    mvvm_handle a = item(s, 0), b = item(s, 1);
    int64_t ia = 0, ib = 0;
    CHECK_STATUS(mvvm_get_int(a, "id", &ia), MVVM_OK);
    CHECK_STATUS(mvvm_get_int(b, "id", &ib), MVVM_OK);
    CHECK(ia > 0 && ib > ia);
    CHECK_STATUS(mvvm_set_int(a, "id", 7), MVVM_ERR_READ_ONLY);
    CHECK_STATUS(mvvm_set_string(a, "title", "x"), MVVM_ERR_READ_ONLY);
    RELEASE(a);
    RELEASE(b);
    session_close(s);
}

static void the_counter_says_items_left_in_the_plural(void) {
    session *s = session_open("");
    CHECK_GET_STRING(s->list, "items_left", "0 items left");
    add(s, "one");
    CHECK_GET_STRING(s->list, "items_left", "1 item left");
    CHECK_GET_INT(s->list, "active_count", 1);
    add(s, "two");
    CHECK_GET_STRING(s->list, "items_left", "2 items left");
    CHECK_EQ_INT(notified(s, "items_left"), 1);
    CHECK_EQ_INT(notified(s, "active_count"), 1);
    set_completed(s, 0, true);
    CHECK_GET_STRING(s->list, "items_left", "1 item left");
    CHECK_GET_INT(s->list, "active_count", 1);
    CHECK_GET_INT(s->list, "completed_count", 1);
    CHECK_GET_BOOL(s->list, "is_clear_completed_visible", true);
    set_completed(s, 1, true);
    CHECK_GET_STRING(s->list, "items_left", "0 items left");
    CHECK_EQ_STR(shown(s), "[x]one,[x]two");
    session_close(s);
}

static void mark_all_follows_single_toggles_and_clears_after_clear_completed(void) {
    session *s = session_open("");
    set_all(s, true); /* nothing to mark: stays false */
    CHECK_GET_BOOL(s->list, "all_completed", false);
    add(s, "a");
    add(s, "b");
    add(s, "c");
    CHECK_GET_BOOL(s->list, "all_completed", false);
    set_all(s, true);
    CHECK_EQ_STR(shown(s), "[x]a,[x]b,[x]c");
    CHECK_GET_BOOL(s->list, "all_completed", true);
    CHECK_EQ_INT(notified(s, "all_completed"), 1);
    CHECK_EQ_INT(notified(s, "completed_count"), 1);
    CHECK_EQ_INT(s->splices, 0); /* the same items, under "all" */
    /* One unchecked: mark all unchecks itself; checked again: it checks itself. */
    set_completed(s, 1, false);
    CHECK_GET_BOOL(s->list, "all_completed", false);
    CHECK_EQ_INT(notified(s, "all_completed"), 1);
    set_completed(s, 1, true);
    CHECK_GET_BOOL(s->list, "all_completed", true);
    set_all(s, false);
    CHECK_EQ_STR(shown(s), "a,b,c");
    CHECK_GET_INT(s->list, "active_count", 3);
    set_completed(s, 0, true);
    set_completed(s, 2, true);
    CHECK_GET_BOOL(s->list, "is_clear_completed_visible", true);
    send_list(s, "clear_completed");
    CHECK_EQ_STR(shown(s), "b");
    CHECK_EQ_INT(s->splices, 2); /* a and c: two runs */
    CHECK_GET_BOOL(s->list, "is_clear_completed_visible", false);
    set_completed(s, 0, true);
    CHECK_GET_BOOL(s->list, "all_completed", true);
    send_list(s, "clear_completed");
    CHECK_EQ_INT(s->count, 0);
    CHECK_GET_BOOL(s->list, "all_completed", false); /* none left: not all completed */
    CHECK_GET_BOOL(s->list, "has_todos", false);
    CHECK_GET_STRING(s->list, "items_left", "0 items left");
    session_close(s);
}

static void editing_commits_trimmed_cancels_and_empty_destroys(void) {
    session *s = session_open("");
    add(s, "one");
    add(s, "two");
    add(s, "three");
    mvvm_handle two = item(s, 1);
    CHECK_GET_BOOL(two, "is_editing", false);
    send_item(s, 1, "begin_edit");
    CHECK_GET_BOOL(two, "is_editing", true);
    CHECK_GET_STRING(two, "edit_text", "two");
    CHECK_STATUS(mvvm_set_string(two, "edit_text", "  deux  "), MVVM_OK);
    CHECK_GET_STRING(two, "title", "two"); /* not yet */
    send_item(s, 1, "commit_edit");
    CHECK_GET_STRING(two, "title", "deux");
    CHECK_GET_BOOL(two, "is_editing", false);
    CHECK_EQ_INT(s->splices, 0); /* the same row, retitled */
    /* Cancel discards. */
    send_item(s, 1, "begin_edit");
    CHECK_STATUS(mvvm_set_string(two, "edit_text", "zwei"), MVVM_OK);
    send_item(s, 1, "cancel_edit");
    CHECK_GET_STRING(two, "title", "deux");
    CHECK_GET_BOOL(two, "is_editing", false);
    /* Empty destroys. */
    send_item(s, 0, "begin_edit");
    mvvm_handle one = item(s, 0);
    CHECK_STATUS(mvvm_set_string(one, "edit_text", "   "), MVVM_OK);
    send_item(s, 0, "commit_edit");
    CHECK_EQ_STR(shown(s), "deux,three");
    CHECK_EQ_INT(s->splices, 1);
    CHECK_GET_STRING(s->list, "items_left", "2 items left");
    /* destroy removes; the handle still answers, outside the list. */
    send_item(s, 1, "destroy");
    CHECK_EQ_STR(shown(s), "deux");
    CHECK_GET_STRING(one, "title", "one");
    RELEASE(one);
    RELEASE(two);
    session_close(s);
}

static void a_todo_the_filter_hides_leaves_the_list_at_once(void) {
    session *s = session_open("");
    add(s, "a");
    add(s, "b");
    add(s, "c");
    set_completed(s, 1, true);
    set_filter(s, "active");
    CHECK_EQ_STR(shown(s), "a,c");
    CHECK_EQ_INT(s->splices, 1);
    /* Completing a shown one under "active": it leaves at once, as one splice. */
    set_completed(s, 0, true);
    CHECK_EQ_STR(shown(s), "c");
    CHECK_EQ_INT(s->splices, 1);
    set_filter(s, "completed");
    CHECK_EQ_STR(shown(s), "[x]a,[x]b");
    set_completed(s, 1, false);
    CHECK_EQ_STR(shown(s), "[x]a");
    /* A todo added under "completed" is active: it does not show. */
    add(s, "d");
    CHECK_EQ_STR(shown(s), "[x]a");
    CHECK_EQ_INT(s->splices, 0);
    CHECK_GET_STRING(s->list, "items_left", "3 items left");
    set_filter(s, "all");
    CHECK_EQ_STR(shown(s), "[x]a,b,c,d");
    /* Mark all under "active" empties the list in one splice. */
    set_filter(s, "active");
    set_all(s, true);
    CHECK_EQ_INT(s->count, 0);
    CHECK_EQ_INT(s->splices, 1);
    session_close(s);
}

static void the_filter_takes_only_its_values(void) {
    session *s = session_open("");
    add(s, "a");
    char *json = NULL;
    CHECK_STATUS(mvvm_describe(s->list, &json), MVVM_OK);
    CHECK(json && strstr(json, "\"values\": [\"all\", \"active\", \"completed\"]") != NULL);
    mvvm_string_free(json);
    step(s);
    CHECK_STATUS(mvvm_set_string(s->list, "filter", "done"), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "all, active, completed") != NULL);
    CHECK_GET_STRING(s->list, "filter", "all");
    CHECK_EQ_INT(notified(s, "filter"), 0);
    CHECK_EQ_STR(shown(s), "a");
    CHECK_STATUS(mvvm_set_int(s->list, "filter", 1), MVVM_ERR_TYPE_MISMATCH);
    session_close(s);
}

/* ------------------------------------------------------------------------------------------ */
/* Storage                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void filter_and_todos_persist_and_reload(void) {
    const char *path = scratch_path();
    session *s = session_open(path);
    CHECK_EQ_INT(s->count, 0);
    add(s, "a");
    add(s, "b \"quoted\" ünïcödé");
    add(s, "c");
    set_completed(s, 1, true);
    set_filter(s, "active");
    send_item(s, 1, "begin_edit"); /* editing state is not stored */
    mvvm_handle c = item(s, 1);
    int64_t c_id = 0;
    CHECK_STATUS(mvvm_get_int(c, "id", &c_id), MVVM_OK);
    RELEASE(c);
    char *saved = read_file(path);
    CHECK(saved && strstr(saved, "\"filter\":\"active\"") != NULL);
    free(saved);
    session_close(s);

    session *again = session_open(path);
    CHECK_GET_STRING(again->list, "filter", "active");
    CHECK_EQ_STR(shown(again), "a,c");
    CHECK_GET_INT(again->list, "active_count", 2);
    CHECK_GET_INT(again->list, "completed_count", 1);
    mvvm_handle c2 = item(again, 1);
    CHECK_GET_INT(c2, "id", c_id);
    CHECK_GET_BOOL(c2, "is_editing", false);
    RELEASE(c2);
    set_filter(again, "all");
    CHECK_EQ_STR(shown(again), "a,[x]b \"quoted\" ünïcödé,c");
    /* An id is never reused, across reloads too. */
    send_item(again, 2, "destroy");
    session_close(again);
    session *third = session_open(path);
    add(third, "d");
    mvvm_handle d = item(third, 2);
    int64_t d_id = 0;
    CHECK_STATUS(mvvm_get_int(d, "id", &d_id), MVVM_OK);
    CHECK(d_id > c_id);
    RELEASE(d);
    CHECK_EQ_STR(shown(third), "a,[x]b \"quoted\" ünïcödé,d");
    session_close(third);
    remove_scratch(path);
}

static void a_missing_file_is_an_empty_list(void) {
    const char *path = scratch_path();
    session *s = session_open(path);
    CHECK_EQ_INT(s->count, 0);
    CHECK_GET_BOOL(s->list, "has_todos", false);
    CHECK_GET_STRING(s->list, "filter", "all");
    struct stat st;
    CHECK(stat(path, &st) != 0); /* nothing written by opening */
    add(s, "first");
    CHECK(stat(path, &st) == 0);
    session_close(s);
    remove_scratch(path);
}

static void a_corrupt_or_unreadable_file_is_refused_and_left_untouched(void) {
    static const char *corrupt[] = {
        "",
        "not json",
        "{\"filter\":\"all\",\"todos\":[{\"id\":1,\"title\":\"a\",\"completed\":fal",
        "{\"filter\":\"done\",\"todos\":[]}",
        "{\"filter\":\"all\",\"todos\":[{\"id\":1,\"title\":\"a\"}]}",
        "{\"filter\":\"all\",\"todos\":[{\"id\":1,\"title\":\"a\",\"completed\":false},"
        "{\"id\":1,\"title\":\"b\",\"completed\":false}]}",
        "[1, 2, 3]",
    };
    mvvm_handle loop = new_virtual_loop();
    for (size_t i = 0; i < sizeof corrupt / sizeof corrupt[0]; i++) {
        const char *path = scratch_path();
        write_file(path, corrupt[i]);
        struct stat before, after;
        stat(path, &before);
        mvvm_handle list = 77;
        if (!CHECK_STATUS(open_list(loop, path, &list), MVVM_ERR_INVALID_ARGUMENT)) printf("    file: %s\n", corrupt[i]);
        CHECK_EQ_INT(list, 77);
        const char *message = mvvm_last_error();
        CHECK(message && strstr(message, path) != NULL && strstr(message, "not a todo list") != NULL);
        char *now = read_file(path);
        CHECK(now && strcmp(now, corrupt[i]) == 0);
        free(now);
        stat(path, &after);
        CHECK(before.st_ino == after.st_ino && before.st_mtime == after.st_mtime);
        remove_scratch(path);
    }
    /* A directory where the file should be: unreadable. */
    const char *path = scratch_path();
    CHECK(mkdir(path, 0700) == 0);
    mvvm_handle list = 0;
    CHECK_STATUS(open_list(loop, path, &list), MVVM_ERR_INVALID_ARGUMENT);
    const char *message = mvvm_last_error();
    CHECK(message && strstr(message, "cannot read") != NULL);
    struct stat st;
    CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    remove_scratch(path);
    /* Wrong arguments. */
    CHECK_STATUS(mvvm_new(loop, "todo_list_view_model", NULL, 0, &list), MVVM_ERR_INVALID_ARGUMENT);
    mvvm_value number = value_int(3);
    CHECK_STATUS(mvvm_new(loop, "todo_list_view_model", &number, 1, &list), MVVM_ERR_TYPE_MISMATCH);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* A long session, the mirror checked after every step                                        */
/* ------------------------------------------------------------------------------------------ */

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void a_host_mirror_follows_every_step(void) {
    const char *path = scratch_path();
    session *s = session_open(path);
    static const char *filters[] = { "all", "active", "completed" };
    char title[32];
    for (int n = 0; n < 600; n++) {
        int64_t count = s->count;
        switch (rng() % 10) {
        case 0: case 1: case 2:
            snprintf(title, sizeof title, " todo %d ", n);
            add(s, title);
            break;
        case 3: case 4:
            if (count) set_completed(s, (int64_t)(rng() % (uint64_t)count), rng() % 2);
            break;
        case 5:
            set_filter(s, filters[rng() % 3]);
            break;
        case 6:
            set_all(s, rng() % 2);
            break;
        case 7:
            if (count) send_item(s, (int64_t)(rng() % (uint64_t)count), "destroy");
            break;
        case 8:
            if (rng() % 3 == 0) send_list(s, "clear_completed");
            break;
        case 9:
            if (count) {
                int64_t at = (int64_t)(rng() % (uint64_t)count);
                send_item(s, at, "begin_edit");
                mvvm_handle h = item(s, at);
                CHECK_STATUS(mvvm_set_string(h, "edit_text", rng() % 4 ? "edited" : ""), MVVM_OK);
                RELEASE(h);
                send_item(s, at, rng() % 3 ? "commit_edit" : "cancel_edit");
            }
            break;
        }
        /* The counts agree with what is shown. */
        int64_t active = 0, completed = 0;
        char *filter = NULL;
        mvvm_get_int(s->list, "active_count", &active);
        mvvm_get_int(s->list, "completed_count", &completed);
        mvvm_get_string(s->list, "filter", &filter);
        int64_t expected = strcmp(filter, "all") == 0 ? active + completed : strcmp(filter, "active") == 0 ? active : completed;
        if (!CHECK_EQ_INT(s->count, expected)) break;
        mvvm_string_free(filter);
        if (check_failures) break;
    }
    /* The file reloads as the same list. */
    char before[8192];
    snprintf(before, sizeof before, "%s", shown(s));
    char *filter = NULL;
    mvvm_get_string(s->list, "filter", &filter);
    session_close(s);
    session *again = session_open(path);
    CHECK_GET_STRING(again->list, "filter", filter);
    CHECK_EQ_STR(shown(again), before);
    mvvm_string_free(filter);
    session_close(again);
    remove_scratch(path);
}

/* ------------------------------------------------------------------------------------------ */
/* SIGKILL during saves                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* The child: opens PATH, says so on FD, then saves forever (adding todos up to 300, toggling
 * one, marking all, switching filters). */
static int save_loop(const char *path, int fd) {
    mvvm_handle loop = 0, list = 0;
    if (mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop) != MVVM_OK || open_list(loop, path, &list) != MVVM_OK) {
        fprintf(stderr, "save loop: %s\n", mvvm_last_error());
        return 2;
    }
    if (write(fd, "r", 1) != 1) return 3;
    close(fd);
    static const char *filters[] = { "all", "active", "completed" };
    for (uint64_t n = (uint64_t)getpid();; n++) {
        int64_t count = 0;
        mvvm_list_count(list, "items", &count);
        int64_t total = 0, completed = 0;
        mvvm_get_int(list, "active_count", &total);
        mvvm_get_int(list, "completed_count", &completed);
        total += completed;
        if (total < 300 && n % 2 == 0) {
            char title[96];
            snprintf(title, sizeof title, "todo number %" PRIu64 " with a longer title to make the file bigger", n);
            mvvm_set_string(list, "new_todo_title", title);
            mvvm_send(list, "add", NULL);
        } else if (n % 7 == 0) {
            mvvm_set_bool(list, "all_completed", n % 2);
        } else if (n % 5 == 0) {
            mvvm_set_string(list, "filter", filters[n % 3]);
        } else if (count > 0) {
            mvvm_handle h = 0;
            if (mvvm_list_item(list, "items", (int64_t)(n % (uint64_t)count), &h) == MVVM_OK) {
                bool done = false;
                mvvm_get_bool(h, "completed", &done);
                mvvm_set_bool(h, "completed", !done);
                mvvm_release(h);
            }
        }
    }
}

static void sigkill_during_saves_never_tears_the_file(void) {
    const char *path = scratch_path();
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    int kills = getenv("TODO_KILLS") ? atoi(getenv("TODO_KILLS")) : 100;
    int64_t last_total = 0;
    int leftovers = 0, loaded = 0, missing = 0;
    mvvm_handle loop = new_virtual_loop();
    for (int k = 0; k < kills && !check_failures; k++) {
        int ready[2];
        if (pipe(ready) != 0) abort();
        pid_t child = fork();
        if (child == 0) {
            close(ready[0]);
            char fd[16];
            snprintf(fd, sizeof fd, "%d", ready[1]);
            execl(self_path, self_path, "--save-loop", path, fd, (char *)NULL);
            _exit(127);
        }
        close(ready[1]);
        char byte = 0;
        ssize_t got = read(ready[0], &byte, 1);
        close(ready[0]);
        if (!CHECK(got == 1)) {
            kill(child, SIGKILL);
            waitpid(child, NULL, 0);
            break;
        }
        /* Varied moments: 0 to ~40 ms into the saving. */
        struct timespec pause = { 0, (long)(rng() % 40000) * 1000L };
        nanosleep(&pause, NULL);
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        /* The file: whole JSON, the old or the new, loading through the constructor. */
        struct stat st;
        if (stat(path, &st) != 0) {
            missing++;
            CHECK_EQ_INT(last_total, 0); /* only before the first save */
            continue;
        }
        char *text = read_file(path);
        size_t length = text ? strlen(text) : 0;
        if (!CHECK(length >= 2 && text[length - 1] == '\n' && text[length - 2] == '}')) printf("    torn: %zu bytes\n", length);
        free(text);
        mvvm_handle list = 0;
        if (!CHECK_STATUS(open_list(loop, path, &list), MVVM_OK)) break;
        loaded++;
        int64_t active = 0, completed = 0;
        mvvm_get_int(list, "active_count", &active);
        mvvm_get_int(list, "completed_count", &completed);
        CHECK(active + completed >= last_total); /* the child never removes: never older than the last load */
        last_total = active + completed;
        RELEASE(list);
        /* A temporary file left beside it: the kill fell inside a save. */
        char command[2 * PATH_MAX + 64];
        snprintf(command, sizeof command, "ls '%s' | grep -q tmp- && rm -f '%s'/*.tmp-*", dir, dir);
        if (system(command) == 0) leftovers++;
    }
    printf("    %d kills: %d loads, %d before the first save, %d mid-save (a temporary file left), %" PRId64 " todos at the end\n",
           kills, loaded, missing, leftovers, last_total);
    CHECK(loaded > 0);
    RELEASE(loop);
    remove_scratch(path);
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--save-loop") == 0) return save_loop(argv[2], atoi(argv[3]));
    if (!realpath(argv[0], self_path)) snprintf(self_path, sizeof self_path, "%s", argv[0]);
    static const check_test tests[] = {
        CHECK_TEST(blank_titles_add_nothing_and_titles_are_trimmed),
        CHECK_TEST(the_counter_says_items_left_in_the_plural),
        CHECK_TEST(mark_all_follows_single_toggles_and_clears_after_clear_completed),
        CHECK_TEST(editing_commits_trimmed_cancels_and_empty_destroys),
        CHECK_TEST(a_todo_the_filter_hides_leaves_the_list_at_once),
        CHECK_TEST(the_filter_takes_only_its_values),
        CHECK_TEST(filter_and_todos_persist_and_reload),
        CHECK_TEST(a_missing_file_is_an_empty_list),
        CHECK_TEST(a_corrupt_or_unreadable_file_is_refused_and_left_untouched),
        CHECK_TEST(a_host_mirror_follows_every_step),
        CHECK_TEST(sigkill_during_saves_never_tears_the_file),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
