/*
 * test_todo.c - the todo app (examples/todo, build/todo/libtodo.so) through the generic ABI
 * only (mvvm_new, mvvm_set_*, mvvm_send, mvvm_list_*): one test per TodoMVC behaviour, a host
 * mirror of `items` rebuilt from splices and checked after every step; then its SQLite storage:
 * reloads, a new database, files and paths refused untouched, changes that cannot be saved (not
 * shown, and said in storage_error), ids at their limit, two objects and two processes on one
 * database, and SIGKILL during changes (every change that returned is kept). The database is
 * also read and written directly with libsqlite3, to check what was stored and to make hostile
 * files.
 *
 * Children (run by exec'ing this program): `test_todo --change-loop PATH READY_FD LOG_FD` is the
 * kill test's writer (see change_loop); `test_todo --adder PATH COUNT` adds COUNT todos.
 */
#define _GNU_SOURCE /* unshare, mount, setgroups (the read-only tests) */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
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

/* ------------------------------------------------------------------------------------------ */
/* Files: scratch directories, what a file holds, the database read directly                  */
/* ------------------------------------------------------------------------------------------ */

/* A fresh path in a fresh directory: <dir>/todos.db (not created). */
static const char *scratch_path(void) {
    static char path[PATH_MAX];
    char dir[] = "/tmp/todo-test-XXXXXX";
    if (!mkdtemp(dir)) abort();
    snprintf(path, sizeof path, "%s/todos.db", dir);
    return path;
}

/* The directory of `path` (a static buffer). */
static const char *dir_of(const char *path) {
    static char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    return dir;
}

/* A file's bytes (NUL-terminated too) and size; NULL when it cannot be read. */
static char *read_bytes(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t used = 0, cap = 4096;
    char *bytes = malloc(cap);
    size_t n;
    while ((n = fread(bytes + used, 1, cap - used - 1, f)) > 0) {
        used += n;
        if (cap - used < 2) bytes = realloc(bytes, cap *= 2);
    }
    bytes[used] = 0;
    fclose(f);
    if (size) *size = used;
    return bytes;
}

static void write_file(const char *path, const char *bytes, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size) fwrite(bytes, 1, size, f);
    fclose(f);
}

/* Removes a scratch directory and all in it. */
static void remove_scratch(const char *path) {
    char command[PATH_MAX + 32];
    const char *dir = dir_of(path);
    if (strncmp(dir, "/tmp/todo-", 10) != 0) return;
    snprintf(command, sizeof command, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
    if (system(command) != 0) printf("    could not remove %s\n", dir);
}

/* What a file is: its bytes, inode, mode and modification time. */
typedef struct file_state {
    char *bytes;
    size_t size;
    struct stat st;
} file_state;

static file_state file_state_of(const char *path) {
    file_state state = { 0 };
    state.bytes = read_bytes(path, &state.size);
    if (stat(path, &state.st) != 0) memset(&state.st, 0, sizeof state.st);
    return state;
}

/* The file at `path` is still `before`: the same bytes, inode, mode and modification time. */
static bool unchanged_at(file_state *before, const char *path, const char *file, int line) {
    file_state now = file_state_of(path);
    bool same = before->bytes && now.bytes && before->size == now.size && memcmp(before->bytes, now.bytes, now.size) == 0;
    bool same_file = before->st.st_ino == now.st.st_ino && before->st.st_mode == now.st.st_mode
        && before->st.st_mtim.tv_sec == now.st.st_mtim.tv_sec && before->st.st_mtim.tv_nsec == now.st.st_mtim.tv_nsec;
    if (!same || !same_file)
        printf("    %s: %zu bytes%s, now %zu%s\n", path, before->size, same ? "" : " changed", now.size,
               same_file ? "" : " (inode, mode or mtime changed)");
    free(now.bytes);
    return check_true(same && same_file, "the file is left untouched", file, line);
}
#define UNCHANGED(before, path) unchanged_at((before), (path), __FILE__, __LINE__)

/* Nothing beside the file in its directory: no -wal, -shm or -journal, no temporary file. */
static bool nothing_beside_at(const char *path, const char *file, int line) {
    const char *name = strrchr(path, '/') + 1;
    DIR *dir = opendir(dir_of(path));
    int others = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 || strcmp(entry->d_name, name) == 0) continue;
        printf("    left beside %s: %s\n", name, entry->d_name);
        others++;
    }
    if (dir) closedir(dir);
    return check_true(dir && others == 0, "nothing is left beside the file", file, line);
}
#define NOTHING_BESIDE(path) nothing_beside_at((path), __FILE__, __LINE__)

/* SQL run on the database at `path` through libsqlite3 directly (not the library): to make
 * the files the library must refuse, and to change a database behind its back. */
static bool sql_run(const char *path, const char *sql) {
    sqlite3 *db = NULL;
    char *error = NULL;
    bool ok = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, sql, NULL, NULL, &error) == SQLITE_OK;
    if (!ok) printf("    sqlite3 on %s: %s (%s)\n", path, error ? error : sqlite3_errmsg(db), sql);
    sqlite3_free(error);
    sqlite3_close(db);
    return ok;
}

/* A query's rows as text, columns joined by ':' and rows by ',' (a static buffer), through
 * libsqlite3; never creates the file. "(error)" when it fails. */
static const char *sql_text(const char *path, const char *sql) {
    static char text[1 << 16];
    text[0] = 0;
    sqlite3 *db = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(db, sql, -1, &statement, NULL) != SQLITE_OK) {
        printf("    sqlite3 on %s: %s (%s)\n", path, sqlite3_errmsg(db), sql);
        sqlite3_close(db);
        return "(error)";
    }
    size_t used = 0;
    int rows = 0, step;
    while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
        for (int column = 0; column < sqlite3_column_count(statement); column++) {
            const unsigned char *value = sqlite3_column_text(statement, column);
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", rows && !column ? "," : column ? ":" : "",
                                     value ? (const char *)value : "NULL");
            if (used >= sizeof text) used = sizeof text - 1;
        }
        rows++;
    }
    if (step != SQLITE_DONE) snprintf(text, sizeof text, "(error)");
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return text;
}

/* The todo app's application_id, "todo" in ASCII. */
#define TODO_APPLICATION_ID "1953457263"

/* A database made by the library, holding `titles` (comma-separated), then closed. */
static void make_database(const char *path, const char *titles) {
    session *s = session_open(path);
    char copy[1024], *title, *rest = NULL;
    snprintf(copy, sizeof copy, "%s", titles);
    for (title = strtok_r(copy, ",", &rest); title; title = strtok_r(NULL, ",", &rest)) add(s, title);
    session_close(s);
}

/* storage_error now (a static copy). */
static const char *storage_error(session *s) {
    static char text[4096];
    char *value = NULL;
    if (mvvm_get_string(s->list, "storage_error", &value) != MVVM_OK) return "(no storage_error)";
    snprintf(text, sizeof text, "%s", value);
    mvvm_string_free(value);
    return text;
}

/* The step just taken could not be saved: nothing of it shows (no splice, the items as
 * `before`), and storage_error says why (with `phrase`), notified once. */
static void refused_at(session *s, const char *before, const char *phrase, const char *file, int line) {
    check_int_eq(s->splices, 0, "splices of a change that was not saved", file, line);
    check_str_eq(shown(s), before, "the items after a change that was not saved", file, line);
    const char *error = storage_error(s);
    if (!check_true(strstr(error, phrase) != NULL, "storage_error says why", file, line))
        printf("    storage_error: \"%s\", expected it to say \"%s\"\n", error, phrase);
    check_true(notified(s, "storage_error") <= 1, "storage_error notified at most once", file, line);
}
#define REFUSED(s, before, phrase) refused_at((s), (before), (phrase), __FILE__, __LINE__)

/* Sends `command` to `target` (the list or a row of it), whose save fails: the command fails with
 * MVVM_ERR_COMMAND_FAILED and the store's reason (with `phrase`); what it announced is checked. */
static void failing_command_at(session *s, mvvm_handle target, const char *command, const char *phrase,
                               const char *file, int line) {
    step(s);
    check_status(mvvm_send(target, command, NULL), MVVM_ERR_COMMAND_FAILED, command, file, line);
    if (!check_true(strstr(mvvm_last_error(), phrase) != NULL, "the command's error says why", file, line))
        printf("    expected the error to say \"%s\"\n", phrase);
    mirror_ok_at(s, file, line);
}
#define FAILING(s, target, command, phrase) failing_command_at((s), (target), (command), (phrase), __FILE__, __LINE__)

/* nobody, and a user of no account standing for another user who owns a database. */
#define NOBODY 65534
#define OWNER 4242

/* Runs `body` in a child process as the user `uid` (group `uid`, no other group) when the tests
 * run as root, or as root itself when `uid` is 0 (for what the child alone may do, such as
 * mounting in a namespace of its own); its checks count here. */
static void as_user(uid_t uid, void (*body)(void)) {
    fflush(stdout);
    pid_t child = fork();
    if (!CHECK(child >= 0)) return;
    if (child == 0) {
        if (uid != 0 && geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)) {
            printf("    cannot become user %u: %s\n", (unsigned)uid, strerror(errno));
            _exit(2);
        }
        body();
        fflush(stdout);
        _exit(check_failures == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Runs `body` in a child process without root's privileges (as nobody when the tests run as
 * root, who may write read-only files and directories); its checks count here. */
static void as_unprivileged(void (*body)(void)) {
    as_user(NOBODY, body);
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

/* How many bytes the string property `name` holds (read whole, NUL included), or -1. */
static int64_t string_length(mvvm_handle h, const char *name) {
    mvvm_value value = { 0 };
    if (mvvm_get(h, name, &value) != MVVM_OK) return -1;
    int64_t length = value.type == MVVM_TYPE_STRING ? value.integer : -1;
    mvvm_value_free(&value);
    return length;
}

/* "milk\0eggs", set as bytes (c-abi.md: how a host sets a string holding NUL): SQLite's text,
 * as GRDB binds it, ends at the NUL, so such a title would be shown whole and stored as "milk".
 * new_todo_title and edit_text refuse it, unchanged. */
static void a_title_holding_nul_is_refused(void) {
    const char *path = scratch_path();
    session *s = session_open(path);
    static const char milk_and_eggs[] = "milk\0eggs";
    mvvm_value bytes = value_bytes(milk_and_eggs, sizeof milk_and_eggs - 1);
    CHECK_STATUS(mvvm_set(s->list, "new_todo_title", &bytes), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(string_length(s->list, "new_todo_title"), 0);
    send_list(s, "add"); /* a blank title adds nothing */
    CHECK_EQ_INT(s->count, 0);
    add(s, "milk");
    mvvm_handle milk = item(s, 0);
    send_item(s, 0, "begin_edit");
    CHECK_STATUS(mvvm_set(milk, "edit_text", &bytes), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(string_length(milk, "edit_text"), 4);
    send_item(s, 0, "commit_edit");
    CHECK_EQ_INT(string_length(milk, "title"), 4);
    CHECK_GET_STRING(s->list, "storage_error", "");
    RELEASE(milk);
    session_close(s);
    CHECK_EQ_STR(sql_text(path, "SELECT title, length(CAST(title AS BLOB)) FROM todo"), "milk:4");
    remove_scratch(path);
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
/* Storage: what is saved, and reloaded                                                       */
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
    /* One row per todo, the filter in the settings row: saved before each change returned. */
    CHECK_EQ_STR(sql_text(path, "SELECT filter FROM settings"), "active");
    CHECK_EQ_STR(sql_text(path, "SELECT title, completed FROM todo ORDER BY id"), "a:0,b \"quoted\" ünïcödé:1,c:0");
    session_close(s);

    session *again = session_open(path);
    CHECK_GET_STRING(again->list, "filter", "active");
    CHECK_EQ_STR(shown(again), "a,c");
    CHECK_GET_INT(again->list, "active_count", 2);
    CHECK_GET_INT(again->list, "completed_count", 1);
    CHECK_GET_STRING(again->list, "storage_error", "");
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

static void a_missing_file_is_made_a_new_empty_database(void) {
    const char *path = scratch_path();
    session *s = session_open(path);
    CHECK_EQ_INT(s->count, 0);
    CHECK_GET_BOOL(s->list, "has_todos", false);
    CHECK_GET_STRING(s->list, "filter", "all");
    CHECK_GET_STRING(s->list, "storage_error", "");
    /* Made at once, marked as the todo app's, in WAL mode. */
    CHECK_EQ_STR(sql_text(path, "PRAGMA application_id"), TODO_APPLICATION_ID);
    CHECK_EQ_STR(sql_text(path, "PRAGMA user_version"), "1");
    CHECK_EQ_STR(sql_text(path, "PRAGMA journal_mode"), "wal");
    CHECK_EQ_STR(sql_text(path, "SELECT count(*) FROM todo"), "0");
    add(s, "first");
    session_close(s);
    NOTHING_BESIDE(path); /* no temporary file; SQLite removed its -wal and -shm */
    CHECK_EQ_STR(sql_text(path, "SELECT id, title, completed FROM todo"), "1:first:0");
    /* Where no file can be made, the constructor says why (not a list that saves nothing). */
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/no-such-directory/todos.db", dir_of(path));
    mvvm_handle loop = new_virtual_loop(), list = 77;
    CHECK_STATUS(open_list(loop, missing, &list), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(list, 77);
    CHECK(strstr(mvvm_last_error(), "cannot create") && strstr(mvvm_last_error(), "No such file or directory"));
    RELEASE(loop);
    remove_scratch(path);
}

/* ------------------------------------------------------------------------------------------ */
/* Storage: what is refused, and left untouched                                               */
/* ------------------------------------------------------------------------------------------ */

/* A table of the todo app's schema, without its CHECK constraints: a file another program wrote. */
#define LOOSE_SCHEMA \
    "PRAGMA application_id = " TODO_APPLICATION_ID "; PRAGMA user_version = 1;" \
    "CREATE TABLE todo (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, completed INTEGER NOT NULL);" \
    "CREATE TABLE settings (id INTEGER PRIMARY KEY, filter TEXT NOT NULL);" \
    "INSERT INTO settings VALUES (1, 'all');"

static void files_that_are_not_todo_databases_are_refused_untouched(void) {
    static const struct { const char *what, *bytes, *sql, *phrase; } cases[] = {
        { "an empty file (not made by the store)", "", NULL, "is an empty file" },
        { "text", "not a database\n", NULL, "not a SQLite database" },
        { "the JSON file of earlier versions", "{\"filter\":\"all\",\"next_id\":2,\"todos\":[{\"completed\":false,\"id\":1,\"title\":\"a\"}]}\n",
          NULL, "not a SQLite database" },
        { "a SQLite header and then garbage", "SQLite format 3\0garbage garbage garbage garbage garbage garbage garbage "
          "garbage garbage garbage garbage garbage garbage garbage garbage", NULL, "application_id" },
        { "another application's database", NULL, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", "application_id is 0" },
        { "a todo database of a newer schema version", NULL,
          "PRAGMA application_id = " TODO_APPLICATION_ID "; PRAGMA user_version = 2; CREATE TABLE todo (x);",
          "newer version of the todo app" },
        { "marked as the todo app's, with no schema version", NULL,
          "PRAGMA application_id = " TODO_APPLICATION_ID "; CREATE TABLE todo (x);", "schema version 0" },
        { "a table missing", NULL,
          "PRAGMA application_id = " TODO_APPLICATION_ID "; PRAGMA user_version = 1;"
          "CREATE TABLE todo (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, completed INTEGER NOT NULL);",
          "table settings has columns []" },
        { "ids that could be reused", NULL,
          "PRAGMA application_id = " TODO_APPLICATION_ID "; PRAGMA user_version = 1;"
          "CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL, completed INTEGER NOT NULL);"
          "CREATE TABLE settings (id INTEGER PRIMARY KEY, filter TEXT NOT NULL);",
          "not AUTOINCREMENT" },
        { "a todo id of 0", NULL, LOOSE_SCHEMA "INSERT INTO todo VALUES (0, 'a', 0);", "id 0 is not a positive integer" },
        { "a negative todo id", NULL, LOOSE_SCHEMA "INSERT INTO todo VALUES (-9223372036854775808, 'a', 0);",
          "id -9223372036854775808 is not a positive integer" },
        { "a completed of 7", NULL, LOOSE_SCHEMA "INSERT INTO todo VALUES (1, 'a', 7);", "completed 7 is not 0 or 1" },
        { "a title that is not text", NULL, LOOSE_SCHEMA "INSERT INTO todo VALUES (1, x'00ff', 0);", "is not text" },
        { "an unknown filter", NULL, LOOSE_SCHEMA "UPDATE settings SET filter = 'done';", "filter \"done\"" },
    };
    mvvm_handle loop = new_virtual_loop();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *path = scratch_path();
        if (cases[i].sql) {
            sql_run(path, cases[i].sql); /* in SQLite's default rollback-journal mode */
        } else {
            size_t size = strlen(cases[i].bytes);
            if (strncmp(cases[i].bytes, "SQLite format 3", 15) == 0) size = 16 + strlen(cases[i].bytes + 16);
            write_file(path, cases[i].bytes, size);
        }
        file_state before = file_state_of(path);
        mvvm_handle list = 77;
        if (!CHECK_STATUS(open_list(loop, path, &list), MVVM_ERR_INVALID_ARGUMENT)) printf("    case: %s\n", cases[i].what);
        CHECK_EQ_INT(list, 77);
        const char *message = mvvm_last_error();
        if (!CHECK(message && strstr(message, path) != NULL && strstr(message, cases[i].phrase) != NULL))
            printf("    case: %s; expected the message to say \"%s\"\n", cases[i].what, cases[i].phrase);
        /* Untouched: the same bytes (no WAL conversion), and no -wal or -shm beside it. */
        if (!UNCHANGED(&before, path) | !NOTHING_BESIDE(path)) printf("    case: %s\n", cases[i].what);
        free(before.bytes);
        remove_scratch(path);
    }
    /* A todo database cut short: refused, and left as it is. */
    const char *path = scratch_path();
    session *s = session_open(path);
    char title[200];
    for (int n = 0; n < 300; n++) {
        snprintf(title, sizeof title, "todo %d, with a title long enough to fill several pages of the database", n);
        add(s, title);
    }
    session_close(s);
    CHECK(truncate(path, 4096) == 0);
    file_state before = file_state_of(path);
    mvvm_handle list = 0;
    CHECK_STATUS(open_list(loop, path, &list), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), path) != NULL && strstr(mvvm_last_error(), "malformed") != NULL);
    UNCHANGED(&before, path);
    NOTHING_BESIDE(path);
    free(before.bytes);
    remove_scratch(path);
    /* Wrong arguments. */
    CHECK_STATUS(mvvm_new(loop, "todo_list_view_model", NULL, 0, &list), MVVM_ERR_INVALID_ARGUMENT);
    mvvm_value number = value_int(3);
    CHECK_STATUS(mvvm_new(loop, "todo_list_view_model", &number, 1, &list), MVVM_ERR_TYPE_MISMATCH);
    RELEASE(loop);
}

/* A FIFO, a device, a directory (or a link to one) is refused before it is opened: never blocking
 * (a FIFO opened for reading waits for a writer forever), never read (/dev/zero has no end). */
static void special_files_are_refused_without_being_opened(void) {
    const char *path = scratch_path();
    char fifo[PATH_MAX], directory[PATH_MAX], link_to_fifo[PATH_MAX];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir_of(path));
    snprintf(directory, sizeof directory, "%s/directory", dir_of(path));
    snprintf(link_to_fifo, sizeof link_to_fifo, "%s/link", dir_of(path));
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(mkdir(directory, 0700) == 0);
    CHECK(symlink("fifo", link_to_fifo) == 0);
    static const char *expected[][2] = {
        { NULL, "is a FIFO" }, { NULL, "is a directory" }, { NULL, "is a FIFO" },
        { "/dev/zero", "is a character device" }, { "/dev/null", "is a character device" }, { "/", "is a directory" },
    };
    const char *paths[] = { fifo, directory, link_to_fifo, "/dev/zero", "/dev/null", "/" };
    mvvm_handle loop = new_virtual_loop(), list_of_big = 0;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        mvvm_handle list = 77;
        CHECK_STATUS(open_list(loop, paths[i], &list), MVVM_ERR_INVALID_ARGUMENT);
        CHECK_EQ_INT(list, 77);
        if (!CHECK(strstr(mvvm_last_error(), paths[i]) && strstr(mvvm_last_error(), expected[i][1])))
            printf("    path %s: expected \"%s\"\n", paths[i], expected[i][1]);
    }
    /* A 1 GiB file (sparse) is refused by its first 100 bytes, not read whole. */
    char big[PATH_MAX + 16];
    snprintf(big, sizeof big, "%s/big.db", dir_of(path));
    write_file(big, "", 0);
    CHECK(truncate(big, (off_t)1 << 30) == 0);
    CHECK_STATUS(open_list(loop, big, &list_of_big), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "not a SQLite database") != NULL);
    struct stat st;
    CHECK(stat(big, &st) == 0 && st.st_size == (off_t)1 << 30);
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK(lstat(link_to_fifo, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(directory, &st) == 0 && S_ISDIR(st.st_mode));
    RELEASE(loop);
    remove_scratch(path);
}

static void a_symlinked_path_writes_through_to_its_target(void) {
    const char *path = scratch_path();
    char link_path[PATH_MAX], dangling[PATH_MAX];
    snprintf(link_path, sizeof link_path, "%s/link.db", dir_of(path));
    snprintf(dangling, sizeof dangling, "%s/dangling.db", dir_of(path));
    make_database(path, "a");
    CHECK(symlink("todos.db", link_path) == 0);
    session *s = session_open(link_path);
    CHECK_EQ_STR(shown(s), "a");
    add(s, "b");
    set_completed(s, 0, true);
    CHECK_GET_STRING(s->list, "storage_error", "");
    session_close(s);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode)); /* still the link */
    CHECK_EQ_STR(sql_text(path, "SELECT title, completed FROM todo ORDER BY id"), "a:1,b:0");
    /* A link to no file: refused, and nothing made. */
    CHECK(symlink("missing.db", dangling) == 0);
    mvvm_handle loop = new_virtual_loop(), list = 0;
    CHECK_STATUS(open_list(loop, dangling, &list), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "symbolic link to a missing file") != NULL);
    char missing[PATH_MAX];
    snprintf(missing, sizeof missing, "%s/missing.db", dir_of(path));
    CHECK(lstat(missing, &st) != 0);
    RELEASE(loop);
    remove_scratch(path);
}

static void a_file_keeps_its_permissions(void) {
    const char *path = scratch_path();
    make_database(path, "a");
    CHECK(chmod(path, 0604) == 0);
    session *s = session_open(path);
    add(s, "b");
    set_completed(s, 0, true);
    set_filter(s, "active");
    send_list(s, "clear_completed");
    CHECK_GET_STRING(s->list, "storage_error", "");
    session_close(s);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0604);
    CHECK_EQ_STR(sql_text(path, "SELECT title FROM todo"), "b");
    remove_scratch(path);
}

/* The constructor's message quotes at most 100 bytes of the path, then its length. */
static void the_constructor_quotes_a_long_path_capped(void) {
    size_t length = (size_t)1 << 20;
    char *path = malloc(length + 1);
    memcpy(path, "/tmp/", 5);
    memset(path + 5, 'a', length - 5);
    path[length] = 0;
    mvvm_handle loop = new_virtual_loop(), list = 77;
    CHECK_STATUS(open_list(loop, path, &list), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(list, 77);
    const char *message = mvvm_last_error();
    char quoted[128], tail[64];
    snprintf(quoted, sizeof quoted, "\"%.100s\"", path);
    snprintf(tail, sizeof tail, "(%zu bytes in all)", length);
    if (!CHECK(strlen(message) < 400 && strstr(message, quoted) && strstr(message, tail)))
        printf("    message of %zu bytes: %.300s\n", strlen(message), message);
    free(path);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Storage: changes that cannot be saved are not shown, and storage_error says why            */
/* ------------------------------------------------------------------------------------------ */

/* Tries each kind of change on `s` (holding "a" first, then any todos, under "all"), each of
 * which must fail with `phrase` and leave the list as it was. */
static void every_change_is_refused(session *s, const char *phrase) {
    char before[8192];
    snprintf(before, sizeof before, "%s", shown(s));
    int64_t active = -1, completed = -1;
    CHECK_STATUS(mvvm_get_int(s->list, "active_count", &active), MVVM_OK);
    CHECK_STATUS(mvvm_get_int(s->list, "completed_count", &completed), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(s->list, "new_todo_title", "c"), MVVM_OK);
    FAILING(s, s->list, "add", phrase);
    REFUSED(s, before, phrase);
    CHECK_GET_STRING(s->list, "new_todo_title", "c"); /* the field keeps the title */
    set_completed(s, 0, true); /* a binding: OK, and not done */
    REFUSED(s, before, phrase);
    mvvm_handle a = item(s, 0);
    CHECK_GET_BOOL(a, "completed", false); /* the stored value again */
    set_filter(s, "active");
    REFUSED(s, before, phrase);
    CHECK_GET_STRING(s->list, "filter", "all");
    set_all(s, true);
    REFUSED(s, before, phrase);
    CHECK_GET_BOOL(s->list, "all_completed", false);
    FAILING(s, s->list, "clear_completed", phrase);
    REFUSED(s, before, phrase);
    FAILING(s, a, "destroy", phrase);
    REFUSED(s, before, phrase);
    send_item(s, 0, "begin_edit");
    CHECK_STATUS(mvvm_set_string(a, "edit_text", "renamed"), MVVM_OK);
    FAILING(s, a, "commit_edit", phrase);
    REFUSED(s, before, phrase);
    CHECK_GET_STRING(a, "title", "a");
    CHECK_GET_BOOL(a, "is_editing", true); /* the editor stays open with the text */
    CHECK_GET_STRING(a, "edit_text", "renamed");
    CHECK_GET_INT(s->list, "active_count", active);
    CHECK_GET_INT(s->list, "completed_count", completed);
    RELEASE(a);
}

/* A database at `path` holding "a,[x]b", closed. */
static void make_a_and_completed_b(const char *path) {
    make_database(path, "a,b");
    session *s = session_open(path);
    set_completed(s, 1, true);
    session_close(s);
}

/* The database at `path`, which this process may not write, opens showing `expected`; every
 * change is refused as read-only; the file is unchanged. */
static void opens_read_only_at(const char *path, const char *expected, const char *file, int line) {
    file_state before = file_state_of(path);
    session *s = session_open(path); /* opens, and reads */
    check_str_eq(shown(s), expected, "the todos of a read-only database", file, line);
    CHECK_GET_STRING(s->list, "storage_error", "");
    every_change_is_refused(s, "the database is read-only");
    session_close(s);
    unchanged_at(&before, path, file, line);
    free(before.bytes);
}
#define OPENS_READ_ONLY(path, expected) opens_read_only_at((path), (expected), __FILE__, __LINE__)

static void read_only_database_body(void) {
    CHECK(geteuid() != 0);
    const char *path = scratch_path();
    make_a_and_completed_b(path);
    CHECK(chmod(path, 0444) == 0);
    OPENS_READ_ONLY(path, "a,[x]b");
    NOTHING_BESIDE(path); /* no -wal or -shm made by the reader, although the folder lets it */
    remove_scratch(path);
}

static void a_read_only_database_opens_and_each_change_fails(void) {
    as_unprivileged(read_only_database_body);
}

static void read_only_file_in_read_only_folder_body(void) {
    CHECK(geteuid() != 0);
    const char *path = scratch_path();
    make_a_and_completed_b(path);
    CHECK(chmod(path, 0444) == 0);
    CHECK(chmod(dir_of(path), 0555) == 0);
    OPENS_READ_ONLY(path, "a,[x]b");
    NOTHING_BESIDE(path);
    remove_scratch(path);
}

/* A 0444 file in a 0555 folder: SQLite could make no -wal or -shm there, so it is read as a
 * snapshot (immutable). */
static void a_read_only_file_in_a_read_only_folder_opens_and_each_change_fails(void) {
    as_unprivileged(read_only_file_in_read_only_folder_body);
}

/* In a mount namespace of its own (root in a child), a tmpfs holding two databases, then made
 * read-only: one closed (read as a snapshot), and a copy of one taken while a connection held a
 * commit in its -wal (read through its -wal and -shm, that commit included). */
static void read_only_mount_body(void) {
    char dir[] = "/tmp/todo-rofs-XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL)) return;
    /* A type and source where the kernel ignores them: valgrind wants strings. */
    if (!CHECK(unshare(CLONE_NEWNS) == 0) || !CHECK(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0)
        || !CHECK(mount("tmpfs", dir, "tmpfs", 0, "size=16m,mode=0755") == 0)) {
        printf("    cannot mount a tmpfs in a mount namespace of its own: %s\n", strerror(errno));
        rmdir(dir);
        return;
    }
    char path[PATH_MAX], live[PATH_MAX], copy[PATH_MAX], from[PATH_MAX + 8], to[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/todos.db", dir);
    snprintf(live, sizeof live, "%s/live.db", dir);
    snprintf(copy, sizeof copy, "%s/copy.db", dir);
    make_a_and_completed_b(path);
    make_database(live, "a");
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(live, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA wal_autocheckpoint = 0; INSERT INTO todo (title) VALUES ('in the wal')",
                       NULL, NULL, NULL) == SQLITE_OK);
    static const char *const suffixes[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(from, sizeof from, "%s%s", live, suffixes[i]);
        snprintf(to, sizeof to, "%s%s", copy, suffixes[i]);
        size_t size = 0;
        char *bytes = read_bytes(from, &size);
        if (CHECK(bytes != NULL && size > 0)) write_file(to, bytes, size);
        free(bytes);
    }
    sqlite3_close(db);
    unlink(live);
    if (!CHECK(mount("tmpfs", dir, "tmpfs", MS_REMOUNT | MS_RDONLY, NULL) == 0)) {
        printf("    cannot make the tmpfs read-only: %s\n", strerror(errno));
    } else {
        OPENS_READ_ONLY(path, "a,[x]b");
        OPENS_READ_ONLY(copy, "a,in the wal");
    }
    umount(dir);
    rmdir(dir);
}

static void a_database_on_a_read_only_mount_opens_and_each_change_fails(void) {
    as_user(0, read_only_mount_body);
}

/* Another user's database, in a folder every user may write (as /tmp): its path, and what a
 * reader must see. */
static char shared_path[PATH_MAX];
static const char *shared_expected;

static void reader_body(void) {
    CHECK(geteuid() != 0);
    OPENS_READ_ONLY(shared_path, shared_expected);
}

static void owner_makes_body(void) {
    umask(022);
    make_a_and_completed_b(shared_path);
}

static void owner_adds_c_body(void) {
    session *s = session_open(shared_path);
    add(s, "c");
    CHECK_EQ_STR(shown(s), "a,[x]b,c");
    CHECK_GET_STRING(s->list, "storage_error", "");
    session_close(s);
}

/* Who owns the file at `path`, or -1 when there is none. */
static long owner_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_uid : -1;
}

/* A user who may only read another user's database reads it and leaves nothing behind: not
 * after its owner closed it (read as a snapshot), nor while its owner has it open with
 * commits in its -wal (read through its -wal and -shm, which stay the owner's); the owner's
 * changes are saved after either. */
static void a_reader_of_another_users_database_leaves_nothing_its_owner_trips_on(void) {
    const char *path = scratch_path();
    snprintf(shared_path, sizeof shared_path, "%s", path);
    char wal[PATH_MAX + 8], shm[PATH_MAX + 8];
    snprintf(wal, sizeof wal, "%s-wal", path);
    snprintf(shm, sizeof shm, "%s-shm", path);
    CHECK(chmod(dir_of(path), 01777) == 0);
    as_user(OWNER, owner_makes_body);
    CHECK_EQ_INT(owner_of(path), OWNER);
    shared_expected = "a,[x]b";
    as_user(NOBODY, reader_body);
    NOTHING_BESIDE(path);
    as_user(OWNER, owner_adds_c_body);
    NOTHING_BESIDE(path);
    /* The owner holds it open, an add in its -wal; the reader reads; the owner adds again. */
    int ready[2], go[2];
    if (!CHECK(pipe(ready) == 0 && pipe(go) == 0)) return;
    fflush(stdout);
    pid_t owner = fork();
    if (owner == 0) {
        close(ready[0]);
        close(go[1]);
        if (setgroups(0, NULL) != 0 || setgid(OWNER) != 0 || setuid(OWNER) != 0) _exit(2);
        session *s = session_open(shared_path);
        add(s, "d");
        char byte = 'r';
        if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1) _exit(3);
        add(s, "e");
        CHECK_GET_STRING(s->list, "storage_error", "");
        CHECK_EQ_STR(shown(s), "a,[x]b,c,d,e");
        session_close(s);
        fflush(stdout);
        _exit(check_failures == 0 ? 0 : 1);
    }
    close(ready[1]);
    close(go[0]);
    char byte = 0;
    if (CHECK(owner > 0) && CHECK(read(ready[0], &byte, 1) == 1)) {
        CHECK(owner_of(wal) == OWNER && owner_of(shm) == OWNER);
        shared_expected = "a,[x]b,c,d";
        as_user(NOBODY, reader_body);
        CHECK_EQ_INT(owner_of(wal), OWNER); /* still the owner's */
        CHECK_EQ_INT(owner_of(shm), OWNER);
    }
    CHECK(write(go[1], "g", 1) == 1);
    int status = 0;
    if (owner > 0) waitpid(owner, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    close(go[1]);
    NOTHING_BESIDE(path); /* the owner's last connection removed its -wal and -shm */
    CHECK_EQ_STR(sql_text(path, "SELECT title, completed FROM todo ORDER BY id"), "a:0,b:1,c:0,d:0,e:0");
    remove_scratch(path);
}

static void unwritable_directory_body(void) {
    CHECK(geteuid() != 0);
    const char *path = scratch_path();
    session *s = session_open(path);
    add(s, "a");
    add(s, "b");
    set_completed(s, 1, true);
    CHECK(chmod(dir_of(path), 0555) == 0);
    every_change_is_refused(s, "its directory cannot be written");
    /* Writable again: the next change is saved, and storage_error clears. */
    CHECK(chmod(dir_of(path), 0755) == 0);
    send_item(s, 0, "cancel_edit");
    add(s, "c");
    CHECK_EQ_STR(shown(s), "a,[x]b,c");
    CHECK_GET_STRING(s->list, "storage_error", "");
    CHECK_EQ_INT(notified(s, "storage_error"), 1);
    session_close(s);
    session *again = session_open(path);
    CHECK_EQ_STR(shown(again), "a,[x]b,c");
    session_close(again);
    remove_scratch(path);
}

static void a_directory_made_unwritable_under_a_running_store_is_noticed(void) {
    as_unprivileged(unwritable_directory_body);
}

static void a_directory_removed_or_a_file_replaced_under_a_running_store_is_noticed(void) {
    const char *path = scratch_path();
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", dir_of(path));
    session *s = session_open(path);
    add(s, "a");
    add(s, "b");
    set_completed(s, 1, true);
    char command[PATH_MAX + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    CHECK(system(command) == 0);
    every_change_is_refused(s, "the database file is gone");
    session_close(s);
    /* Another file in its place: the store does not write to it, nor to the old one. */
    CHECK(mkdir(dir, 0700) == 0);
    char other[PATH_MAX + 16];
    snprintf(other, sizeof other, "%s/other.db", dir);
    make_database(path, "a,b");
    s = session_open(path);
    set_completed(s, 1, true);
    make_database(other, "x");
    CHECK(rename(other, path) == 0);
    every_change_is_refused(s, "another file has taken the database's place");
    session_close(s);
    CHECK_EQ_STR(sql_text(path, "SELECT title, completed FROM todo"), "x:0");
    remove_scratch(path);
}

/* ------------------------------------------------------------------------------------------ */
/* Storage: ids at their limit                                                                */
/* ------------------------------------------------------------------------------------------ */

static void ids_at_the_limit_are_refused_never_a_crash(void) {
    /* The largest id held: it opens and works; an add has no id left, and says so. */
    const char *path = scratch_path();
    make_database(path, "a");
    sql_run(path, "INSERT INTO todo (id, title, completed) VALUES (9223372036854775807, 'max', 0)");
    session *s = session_open(path);
    CHECK_EQ_STR(shown(s), "a,max");
    mvvm_handle max = item(s, 1);
    CHECK_GET_INT(max, "id", INT64_MAX);
    RELEASE(max);
    set_completed(s, 1, true);
    CHECK_GET_STRING(s->list, "storage_error", "");
    CHECK_STATUS(mvvm_set_string(s->list, "new_todo_title", "more"), MVVM_OK);
    FAILING(s, s->list, "add", "no todo id is left");
    REFUSED(s, "a,[x]max", "no todo id is left");
    send_item(s, 1, "destroy"); /* a destroyed id is not given again */
    CHECK_EQ_STR(shown(s), "a");
    CHECK_GET_STRING(s->list, "storage_error", "");
    CHECK_STATUS(mvvm_set_string(s->list, "new_todo_title", "again"), MVVM_OK);
    FAILING(s, s->list, "add", "no todo id is left");
    REFUSED(s, "a", "no todo id is left");
    session_close(s);
    remove_scratch(path);

    /* One below: the next add takes the last id, the one after is refused. */
    path = scratch_path();
    make_database(path, "a");
    sql_run(path, "INSERT INTO todo (id, title, completed) VALUES (9223372036854775806, 'b', 0)");
    s = session_open(path);
    add(s, "last");
    CHECK_EQ_STR(shown(s), "a,b,last");
    mvvm_handle last = item(s, 2);
    CHECK_GET_INT(last, "id", INT64_MAX);
    RELEASE(last);
    CHECK_STATUS(mvvm_set_string(s->list, "new_todo_title", "one too many"), MVVM_OK);
    FAILING(s, s->list, "add", "no todo id is left");
    REFUSED(s, "a,b,last", "no todo id is left");
    session_close(s);
    CHECK_EQ_STR(sql_text(path, "SELECT count(*) FROM todo"), "3");
    remove_scratch(path);
}

/* ------------------------------------------------------------------------------------------ */
/* Storage: two objects, two processes, one database                                          */
/* ------------------------------------------------------------------------------------------ */

static void two_objects_on_one_database_see_each_others_changes(void) {
    const char *path = scratch_path();
    session *a = session_open(path), *b = session_open(path);
    add(a, "a1");
    /* b takes in a's commit at the start of its next change, as splices (the mirror checks). */
    add(b, "b1");
    CHECK_EQ_STR(shown(b), "a1,b1");
    CHECK(b->splices >= 1);
    CHECK_EQ_STR(shown(a), "a1"); /* a has not changed anything since */
    add(a, "a2");
    CHECK_EQ_STR(shown(a), "a1,b1,a2");
    set_completed(b, 0, true);
    CHECK_EQ_STR(shown(b), "[x]a1,b1,a2");
    /* The filter is the database's: a's switch shows in b at b's next change. */
    set_filter(a, "active");
    CHECK_EQ_STR(shown(a), "b1,a2");
    add(b, "b2");
    CHECK_GET_STRING(b->list, "filter", "active");
    CHECK_EQ_STR(shown(b), "b1,a2,b2");
    CHECK_GET_INT(b->list, "completed_count", 1);
    /* A todo destroyed by one is gone from the other, even when the other toggles it. */
    send_item(a, 0, "destroy");
    mvvm_handle b1 = item(b, 0);
    step(b);
    CHECK_STATUS(mvvm_set_bool(b1, "completed", true), MVVM_OK);
    MIRROR_OK(b);
    CHECK_EQ_STR(shown(b), "a2,b2");
    CHECK_GET_STRING(b->list, "storage_error", "");
    RELEASE(b1);
    /* Never one id twice. */
    CHECK_EQ_STR(sql_text(path, "SELECT count(*) = count(DISTINCT id), group_concat(title) FROM todo"), "1:a1,a2,b2");
    session_close(a);
    session_close(b);
    remove_scratch(path);
}

static void two_processes_never_hand_out_one_id_twice(void) {
    const char *path = scratch_path();
    enum { CHILDREN = 3, EACH = 100 };
    pid_t children[CHILDREN];
    char each[16];
    snprintf(each, sizeof each, "%d", EACH);
    fflush(stdout);
    for (int i = 0; i < CHILDREN; i++) {
        children[i] = fork();
        if (children[i] == 0) {
            /* All at once, on a database none has made yet. */
            execl(self_path, self_path, "--adder", path, each, (char *)NULL);
            _exit(127);
        }
    }
    for (int i = 0; i < CHILDREN; i++) {
        int status = 0;
        waitpid(children[i], &status, 0);
        if (!CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0)) printf("    adder %d: status %d\n", i, status);
    }
    char expected[64];
    snprintf(expected, sizeof expected, "%d:%d:%d", CHILDREN * EACH, CHILDREN * EACH, CHILDREN * EACH);
    CHECK_EQ_STR(sql_text(path, "SELECT count(*), count(DISTINCT id), count(DISTINCT title) FROM todo"), expected);
    NOTHING_BESIDE(path); /* one database was made; the others' temporary files are gone */
    session *s = session_open(path);
    CHECK_EQ_INT(s->count, CHILDREN * EACH);
    session_close(s);
    remove_scratch(path);
}

/* The child of two_processes_never_hand_out_one_id_twice: adds COUNT todos, each saved. */
static int adder(const char *path, int count) {
    mvvm_handle loop = 0, list = 0;
    if (mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop) != MVVM_OK || open_list(loop, path, &list) != MVVM_OK) {
        fprintf(stderr, "adder: %s\n", mvvm_last_error());
        return 2;
    }
    for (int i = 0; i < count; i++) {
        char title[64], *error = NULL, *field = NULL;
        snprintf(title, sizeof title, "process %d, todo %d", (int)getpid(), i);
        mvvm_set_string(list, "new_todo_title", title);
        mvvm_send(list, "add", NULL);
        mvvm_get_string(list, "storage_error", &error);
        mvvm_get_string(list, "new_todo_title", &field);
        bool saved = error && !error[0] && field && !field[0];
        if (!saved) fprintf(stderr, "adder: not saved: %s\n", error ? error : "?");
        mvvm_string_free(error);
        mvvm_string_free(field);
        if (!saved) return 3;
    }
    mvvm_release(list);
    mvvm_release(loop);
    return 0;
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
/* SIGKILL during changes                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* What a database holds, as the kill test compares it: the filter and each todo's id and state,
 * in creation order. */
typedef struct stored {
    char filter[16];
    int count;
    int64_t ids[512];
    bool done[512];
} stored;

/* The database at `path`, read with libsqlite3; false when it cannot be read. */
static bool stored_of_db(const char *path, stored *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->filter, sizeof out->filter, "%s", sql_text(path, "SELECT filter FROM settings"));
    const char *rows = sql_text(path, "SELECT id, completed FROM todo ORDER BY id");
    if (strcmp(rows, "(error)") == 0 || strcmp(out->filter, "(error)") == 0) return false;
    for (const char *p = rows; *p && out->count < 512; out->count++) {
        long long id = 0;
        int done = 0, used = 0;
        if (sscanf(p, "%lld:%d%n", &id, &done, &used) != 2) return false;
        out->ids[out->count] = id;
        out->done[out->count] = done;
        p += used;
        if (*p == ',') p++;
    }
    return true;
}

/* "S filter id:done id:done ...\n", as the writer logs what it knows is stored. */
static void stored_log(int fd, const stored *s) {
    static char line[16384];
    size_t used = (size_t)snprintf(line, sizeof line, "S %s", s->filter);
    for (int i = 0; i < s->count && used < sizeof line - 64; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %" PRId64 ":%d", s->ids[i], s->done[i]);
    line[used++] = '\n';
    if (write(fd, line, used) != (ssize_t)used) _exit(5);
}

static bool stored_parse(const char *line, stored *out) {
    memset(out, 0, sizeof *out);
    int used = 0;
    if (sscanf(line, "S %15s%n", out->filter, &used) != 1) return false;
    for (const char *p = line + used; *p == ' ' && out->count < 512; out->count++) {
        long long id = 0;
        int done = 0, n = 0;
        if (sscanf(p, " %lld:%d%n", &id, &done, &n) != 2) return false;
        out->ids[out->count] = id;
        out->done[out->count] = done;
        p += n;
    }
    return true;
}

static bool stored_equal(const stored *a, const stored *b) {
    if (strcmp(a->filter, b->filter) != 0 || a->count != b->count) return false;
    for (int i = 0; i < a->count; i++)
        if (a->ids[i] != b->ids[i] || a->done[i] != b->done[i]) return false;
    return true;
}

/* `before` with the change an intent line names ("I A", "I T id done", "I M done", "I F filter")
 * applied; for an add, the new id is the one `db` holds beyond `before`, if it is above them. */
static bool stored_apply(const stored *before, const char *intent, const stored *db, stored *after) {
    *after = *before;
    long long id = 0;
    int done = 0;
    char filter[16];
    if (strncmp(intent, "I A", 3) == 0) {
        if (db->count != before->count + 1 || before->count >= 511) return false;
        int64_t new_id = db->ids[db->count - 1];
        if (before->count && new_id <= before->ids[before->count - 1]) return false;
        after->ids[after->count] = new_id;
        after->done[after->count++] = false;
    } else if (sscanf(intent, "I T %lld %d", &id, &done) == 2) {
        for (int i = 0; i < after->count; i++)
            if (after->ids[i] == id) after->done[i] = done;
    } else if (sscanf(intent, "I M %d", &done) == 1) {
        for (int i = 0; i < after->count; i++) after->done[i] = done;
    } else if (sscanf(intent, "I F %15s", filter) == 1) {
        snprintf(after->filter, sizeof after->filter, "%s", filter);
    } else {
        return false;
    }
    return true;
}

/* The kill test's writer: opens PATH, logs what is stored ("S …"), says so on READY, then
 * changes it forever (adding todos up to 150, toggling one, marking all, switching filters),
 * logging each change before it makes it ("I …") and what is stored once it returned ("S …"). */
static int change_loop(const char *path, int ready, int log) {
    mvvm_handle loop = 0, list = 0;
    if (mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop) != MVVM_OK || open_list(loop, path, &list) != MVVM_OK) {
        fprintf(stderr, "change loop: %s\n", mvvm_last_error());
        return 2;
    }
    stored known;
    if (!stored_of_db(path, &known)) return 3;
    stored_log(log, &known);
    if (write(ready, "r", 1) != 1) return 3;
    close(ready);
    static const char *filters[] = { "all", "active", "completed" };
    for (uint64_t n = (uint64_t)getpid();; n++) {
        int64_t shown_count = 0;
        mvvm_list_count(list, "items", &shown_count);
        if (known.count < 150 && n % 2 == 0 && strcmp(known.filter, "completed") != 0) {
            char title[96];
            snprintf(title, sizeof title, "todo number %" PRIu64 " with a longer title to make the rows bigger", n);
            mvvm_set_string(list, "new_todo_title", title);
            dprintf(log, "I A\n");
            mvvm_send(list, "add", NULL);
            /* The new todo is active, so shown (filter all or active), and last. */
            mvvm_handle h = 0;
            int64_t id = 0;
            mvvm_list_count(list, "items", &shown_count);
            if (shown_count < 1 || mvvm_list_item(list, "items", shown_count - 1, &h) != MVVM_OK
                || mvvm_get_int(h, "id", &id) != MVVM_OK) return 6;
            mvvm_release(h);
            known.ids[known.count] = id;
            known.done[known.count++] = false;
        } else if (n % 7 == 0) {
            bool done = n % 2;
            dprintf(log, "I M %d\n", done);
            mvvm_set_bool(list, "all_completed", done);
            for (int i = 0; i < known.count; i++) known.done[i] = done;
        } else if (n % 5 == 0) {
            const char *filter = filters[n % 3];
            dprintf(log, "I F %s\n", filter);
            mvvm_set_string(list, "filter", filter);
            snprintf(known.filter, sizeof known.filter, "%s", filter);
        } else if (shown_count > 0) {
            mvvm_handle h = 0;
            int64_t id = 0;
            bool done = false;
            if (mvvm_list_item(list, "items", (int64_t)(n % (uint64_t)shown_count), &h) != MVVM_OK
                || mvvm_get_int(h, "id", &id) != MVVM_OK || mvvm_get_bool(h, "completed", &done) != MVVM_OK) return 6;
            dprintf(log, "I T %" PRId64 " %d\n", id, !done);
            mvvm_set_bool(h, "completed", !done);
            mvvm_release(h);
            for (int i = 0; i < known.count; i++)
                if (known.ids[i] == id) known.done[i] = !done;
        } else {
            continue;
        }
        char *error = NULL;
        mvvm_get_string(list, "storage_error", &error);
        if (!error || error[0]) {
            fprintf(stderr, "change loop: not saved: %s\n", error ? error : "?");
            return 4;
        }
        mvvm_string_free(error);
        stored_log(log, &known);
    }
}

static void sigkill_during_changes_keeps_every_change_that_returned(void) {
    const char *path = scratch_path();
    char log_path[PATH_MAX];
    snprintf(log_path, sizeof log_path, "%s/changes.log", dir_of(path));
    int log = open(log_path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0600);
    CHECK(log >= 0);
    int kills = getenv("TODO_KILLS") ? atoi(getenv("TODO_KILLS")) : 100;
    int as_returned = 0, in_flight_kept = 0, loaded = 0, todos = 0;
    mvvm_handle loop = new_virtual_loop();
    for (int k = 0; k < kills && !check_failures; k++) {
        int ready[2];
        if (pipe(ready) != 0) abort();
        CHECK(ftruncate(log, 0) == 0);
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            close(ready[0]);
            char ready_fd[16], log_fd[16];
            snprintf(ready_fd, sizeof ready_fd, "%d", ready[1]);
            snprintf(log_fd, sizeof log_fd, "%d", log);
            execl(self_path, self_path, "--change-loop", path, ready_fd, log_fd, (char *)NULL);
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
        /* Varied moments: 0 to ~40 ms into the changing. */
        struct timespec pause = { 0, (long)(rng() % 40000) * 1000L };
        nanosleep(&pause, NULL);
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        if (!CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) printf("    the writer ended with status %d\n", status);
        /* The log: the last "S" line is what the writer knew stored; an "I" line after it, the
         * change it was making when killed. */
        size_t size = 0;
        char *text = read_bytes(log_path, &size);
        char *last_stored = NULL, *intent = NULL;
        for (char *line = text, *end; line && (end = strchr(line, '\n')) != NULL; line = end + 1) {
            *end = 0;
            if (line[0] == 'S') last_stored = line, intent = NULL;
            else if (line[0] == 'I') intent = line;
        }
        stored before, db, after;
        bool parsed = last_stored && stored_parse(last_stored, &before);
        CHECK(parsed);
        /* The database: whole, opening, and holding every change that returned (and perhaps
         * the one in flight). */
        CHECK_EQ_STR(sql_text(path, "PRAGMA integrity_check"), "ok");
        bool read = stored_of_db(path, &db);
        CHECK(read);
        if (parsed && read) {
            if (stored_equal(&db, &before)) {
                as_returned++;
            } else if (intent && stored_apply(&before, intent, &db, &after) && stored_equal(&db, &after)) {
                in_flight_kept++;
            } else {
                CHECK(!"the database holds every change that returned, and at most the one in flight");
                printf("    last stored: %.200s\n    in flight: %s\n    database: %d todos, filter %s\n",
                       last_stored, intent ? intent : "(none)", db.count, db.filter);
            }
        }
        free(text);
        mvvm_handle list = 0;
        if (!CHECK_STATUS(open_list(loop, path, &list), MVVM_OK)) break;
        loaded++;
        int64_t active = 0, completed = 0;
        mvvm_get_int(list, "active_count", &active);
        mvvm_get_int(list, "completed_count", &completed);
        CHECK_EQ_INT(active + completed, db.count);
        todos = db.count;
        RELEASE(list);
    }
    printf("    %d kills: %d opened; the database held the last change that returned %d times, the change in flight too %d times; %d todos at the end\n",
           kills, loaded, as_returned, in_flight_kept, todos);
    CHECK(loaded == kills || check_failures);
    close(log);
    RELEASE(loop);
    remove_scratch(path);
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "--change-loop") == 0) return change_loop(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc == 4 && strcmp(argv[1], "--adder") == 0) return adder(argv[2], atoi(argv[3]));
    if (!realpath(argv[0], self_path)) snprintf(self_path, sizeof self_path, "%s", argv[0]);
    static const check_test tests[] = {
        CHECK_TEST(blank_titles_add_nothing_and_titles_are_trimmed),
        CHECK_TEST(the_counter_says_items_left_in_the_plural),
        CHECK_TEST(a_title_holding_nul_is_refused),
        CHECK_TEST(mark_all_follows_single_toggles_and_clears_after_clear_completed),
        CHECK_TEST(editing_commits_trimmed_cancels_and_empty_destroys),
        CHECK_TEST(a_todo_the_filter_hides_leaves_the_list_at_once),
        CHECK_TEST(the_filter_takes_only_its_values),
        CHECK_TEST(filter_and_todos_persist_and_reload),
        CHECK_TEST(a_missing_file_is_made_a_new_empty_database),
        CHECK_TEST(files_that_are_not_todo_databases_are_refused_untouched),
        CHECK_TEST(special_files_are_refused_without_being_opened),
        CHECK_TEST(a_symlinked_path_writes_through_to_its_target),
        CHECK_TEST(a_file_keeps_its_permissions),
        CHECK_TEST(the_constructor_quotes_a_long_path_capped),
        CHECK_TEST(a_read_only_database_opens_and_each_change_fails),
        CHECK_TEST(a_read_only_file_in_a_read_only_folder_opens_and_each_change_fails),
        CHECK_TEST(a_database_on_a_read_only_mount_opens_and_each_change_fails),
        CHECK_TEST(a_reader_of_another_users_database_leaves_nothing_its_owner_trips_on),
        CHECK_TEST(a_directory_made_unwritable_under_a_running_store_is_noticed),
        CHECK_TEST(a_directory_removed_or_a_file_replaced_under_a_running_store_is_noticed),
        CHECK_TEST(ids_at_the_limit_are_refused_never_a_crash),
        CHECK_TEST(two_objects_on_one_database_see_each_others_changes),
        CHECK_TEST(two_processes_never_hand_out_one_id_twice),
        CHECK_TEST(a_host_mirror_follows_every_step),
        CHECK_TEST(sigkill_during_changes_keeps_every_change_that_returned),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
