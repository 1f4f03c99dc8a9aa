/*
 * test_settings.c - settings that persist as on the app's platform: Tests/outside's Expenses
 * (iExpense's model, which keeps its items in UserDefaults and never calls synchronize()) keeps
 * them across processes. Each test runs this program again as child processes (`--child`), in a
 * settings folder of its own (XDG_CONFIG_HOME), and reads what the next child finds: a setting
 * written in one process is read in the next (saved at a normal exit, at the loop's release, and
 * when the loop has been idle a short while); none is written when nothing changed; a SIGKILL
 * loses at most the changes since the last idle save.
 * LINK: -lappsample
 */
#define _GNU_SOURCE
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits.h>
#include <stdlib.h>
#include "check.h"

extern char **environ;
/* This program, for its children (not /proc/self/exe, which is valgrind's tool under valgrind). */
static char self[4096];

#define SETTINGS_FILE "appsample.plist" /* named after the library, whatever the host */

/* ------------------------------------------------------------------------------------------ */
/* The child: one thing done to the expenses, then an exit of the kind asked for              */
/* ------------------------------------------------------------------------------------------ */

static bool file_holds(const char *path, const char *text) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    char buffer[65536];
    size_t n = fread(buffer, 1, sizeof buffer, f);
    fclose(f);
    return memmem(buffer, n, text, strlen(text)) != NULL;
}

static int child(int argc, char **argv) {
    const char *action = argv[2];
    mvvm_handle loop = 0, expenses = 0;
    if (strcmp(action, "other") == 0) {  /* works with a view model that keeps no settings */
        mvvm_handle sign_in = 0;
        char *token = NULL;
        bool ok = mvvm_loop_new(MVVM_LOOP_MANUAL, &loop) == MVVM_OK && mvvm_new(loop, "sign_in_view_model", NULL, 0, &sign_in) == MVVM_OK &&
                  mvvm_get_string(sign_in, "token", &token) == MVVM_OK;
        mvvm_string_free(token);
        return ok ? 0 : 2;
    }
    if (mvvm_loop_new(MVVM_LOOP_MANUAL, &loop) != MVVM_OK || mvvm_new(loop, "expenses", NULL, 0, &expenses) != MVVM_OK) {
        fprintf(stderr, "child: %s\n", mvvm_last_error());
        return 2;
    }
    if (strcmp(action, "list") == 0) {
        char *json = NULL;
        if (mvvm_snapshot(expenses, &json) != MVVM_OK) return 2;
        /* {"count": N, "names": [...]}: the names. */
        const char *names = strstr(json, "\"names\": ");
        printf("%.*s", names ? (int)strcspn(names + 9, "}") : 0, names ? names + 9 : "");
        mvvm_string_free(json);
        return 0;
    }
    mvvm_value args[3] = { {.type = MVVM_TYPE_STRING, .string = argc > 3 ? argv[3] : "Lunch"},
                           {.type = MVVM_TYPE_STRING, .string = "Personal"}, {.type = MVVM_TYPE_DOUBLE, .number = 12.5} };
    if (mvvm_call(expenses, "add", args, 3, NULL) != MVVM_OK) return 2;
    if (strcmp(action, "add") == 0) return 0;  /* a normal exit */
    if (strcmp(action, "add-release-kill") == 0) {
        mvvm_release(expenses);
        mvvm_release(loop);
        raise(SIGKILL);
    }
    if (strcmp(action, "add-idle-add-kill") == 0) {
        /* Idle, the host's loop waiting on its fd, until the first item is saved; then a second
         * item and a kill before the loop is idle again. */
        char path[4096];
        snprintf(path, sizeof path, "%s/" SETTINGS_FILE, getenv("XDG_CONFIG_HOME"));
        for (int waited = 0; waited < 20000 && !file_holds(path, argv[3]); waited += 10) mvvm_loop_run_for(loop, 10);
        if (!file_holds(path, argv[3])) return 3;
        args[0].string = argv[4];
        if (mvvm_call(expenses, "add", args, 3, NULL) != MVVM_OK) return 2;
        raise(SIGKILL);
    }
    return 2;
}

/* ------------------------------------------------------------------------------------------ */
/* The tests                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* A settings folder of the test's own, empty; removed when the test ends (atexit: each test
 * runs in a process of its own). */
static char settings_folder[64];

static void remove_settings_folder(void) {
    char path[128];
    snprintf(path, sizeof path, "%s/" SETTINGS_FILE, settings_folder);
    unlink(path);
    rmdir(settings_folder);
}

static void fresh_settings_folder(char *folder, size_t size) {
    snprintf(folder, size, "/tmp/mvvm-settings-XXXXXX");
    CHECK(mkdtemp(folder) != NULL);
    setenv("XDG_CONFIG_HOME", folder, 1);
    snprintf(settings_folder, sizeof settings_folder, "%s", folder);
    atexit(remove_settings_folder);
}

/* Runs this program with `--child` and the arguments; its wait status; its output in `out`. */
static int run_child(char *out, size_t size, const char *a, const char *b, const char *c) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    char *argv[] = { self, "--child", (char *)a, (char *)b, (char *)c, NULL };
    pid_t pid = 0;
    int spawned = posix_spawn(&pid, self, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(pipe_fds[0], out + used, size - 1 - used)) > 0) used += (size_t)n;
    out[used] = 0;
    close(pipe_fds[0]);
    int status = -1;
    if (spawned == 0) waitpid(pid, &status, 0);
    return status;
}

static void written_in_one_process_is_read_in_the_next(void) {
    char folder[64], out[4096];
    fresh_settings_folder(folder, sizeof folder);
    int status = run_child(out, sizeof out, "add", "Lunch", NULL);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    run_child(out, sizeof out, "list", NULL, NULL);
    CHECK_EQ_STR(out, "[\"Lunch\"]");
    run_child(out, sizeof out, "add", "Taxi", NULL);
    run_child(out, sizeof out, "list", NULL, NULL);
    CHECK_EQ_STR(out, "[\"Lunch\", \"Taxi\"]");
}

static void a_loops_release_saves(void) {
    char folder[64], out[4096];
    fresh_settings_folder(folder, sizeof folder);
    int status = run_child(out, sizeof out, "add-release-kill", "Tea", NULL);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    run_child(out, sizeof out, "list", NULL, NULL);
    CHECK_EQ_STR(out, "[\"Tea\"]");
}

static void a_kill_loses_at_most_the_changes_since_the_last_idle_save(void) {
    char folder[64], out[4096];
    fresh_settings_folder(folder, sizeof folder);
    int status = run_child(out, sizeof out, "add-idle-add-kill", "Taxi", "Bus");
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    run_child(out, sizeof out, "list", NULL, NULL);
    /* Taxi was saved while the loop was idle; Bus, added just before the kill, may be lost. */
    CHECK(strcmp(out, "[\"Taxi\"]") == 0 || strcmp(out, "[\"Taxi\", \"Bus\"]") == 0);
}

/* Work that changes no setting (Expenses itself writes its items back when it is made, as the
 * app's code does: a change of its own, which is saved). */
static void nothing_changed_writes_nothing(void) {
    char folder[64], out[4096], path[128];
    fresh_settings_folder(folder, sizeof folder);
    snprintf(path, sizeof path, "%s/" SETTINGS_FILE, folder);
    int status = run_child(out, sizeof out, "other", NULL, NULL);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct stat info;
    CHECK(stat(path, &info) != 0 && errno == ENOENT);
    /* A file saved before is left as it is: loaded, not written again. */
    run_child(out, sizeof out, "add", "Lunch", NULL);
    struct stat before, after;
    CHECK(stat(path, &before) == 0);
    run_child(out, sizeof out, "other", NULL, NULL);
    CHECK(stat(path, &after) == 0);
    CHECK(before.st_ino == after.st_ino && before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
          before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
    run_child(out, sizeof out, "list", NULL, NULL);
    CHECK_EQ_STR(out, "[\"Lunch\"]");
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--child") == 0) return child(argc, argv);
    if (!realpath(argv[0], self)) return 2;
    static const check_test tests[] = {
        CHECK_TEST(written_in_one_process_is_read_in_the_next),
        CHECK_TEST(a_loops_release_saves),
        CHECK_TEST(a_kill_loses_at_most_the_changes_since_the_last_idle_save),
        CHECK_TEST(nothing_changed_writes_nothing),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
