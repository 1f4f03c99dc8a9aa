/*
 * test_fork.c - fork() of a process whose thread loop is ticking: the child neither hangs nor
 * runs inherited work (its inherited objects refuse every call but release, with a message
 * naming fork), works with loops of its own, and the parent's loop ticks on.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

/* A subscriber that holds the loop's work lock a while at each tick, so that forks land in it. */
static void slow_tick(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    __atomic_add_fetch((int *)user_data, 1, __ATOMIC_SEQ_CST);
    struct timespec pause = { 0, 500 * 1000 };
    nanosleep(&pause, NULL);
}

/* What the child of a fork does: use the inherited objects (refused), release them (forgotten),
 * and work with a loop of its own. Writes 'y' (all as documented) or 'n' to `verdict`, then
 * ends itself with SIGKILL: a normal exit would run valgrind's or LeakSanitizer's leak check,
 * which in a fork's child reports what the parent's loop thread (absent here) was holding and
 * the objects the child keeps on purpose (it only forgets what it inherited). */
static void fork_child(int verdict, mvvm_handle parent_loop, mvvm_handle parent_watch,
                       mvvm_handle parent_subscription) {
    alarm(10); /* a hang is a failure, not a stuck test */
    int64_t ms = 0;
    bool ok = mvvm_stop_watch_get_time_ms(parent_watch, &ms) == MVVM_ERR_LOOP_RELEASED
        && strstr(mvvm_last_error(), "fork") != NULL
        && mvvm_stop_watch_start(parent_watch) == MVVM_ERR_LOOP_RELEASED
        && mvvm_unsubscribe(parent_subscription) == MVVM_OK
        && mvvm_release(parent_watch) == MVVM_OK
        && mvvm_release(parent_watch) == MVVM_ERR_INVALID_HANDLE
        && mvvm_release(parent_loop) == MVVM_OK;
    mvvm_handle loop = 0, counter = 0;
    int64_t count = 0;
    ok = ok && mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop) == MVVM_OK
        && mvvm_counter_new(loop, &counter) == MVVM_OK
        && mvvm_counter_increment(counter) == MVVM_OK
        && mvvm_counter_get_count(counter, &count) == MVVM_OK && count == 1
        && mvvm_release(loop) == MVVM_OK;
    char answer = ok ? 'y' : 'n';
    if (write(verdict, &answer, 1) != 1) answer = 'n';
    raise(SIGKILL);
}

/*
 * A fork taken while the loop's thread holds its work lock (a slow callback at every tick), 60
 * times: the child must neither hang (waiting for a lock whose holder is not in the child) nor
 * run inherited work; its inherited objects refuse every call but release, with a message
 * naming fork, and the parent's loop ticks on. bindings/python/tests/test_process_edges.py forks
 * from Python the same way.
 */
static void a_fork_child_of_a_ticking_thread_loop_neither_hangs_nor_uses_it(void) {
    mvvm_handle loop = 0, watch = 0, subscription = 0;
    int ticks = 0;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_THREAD, &loop), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_new(loop, &watch), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(watch, "time_ms", slow_tick, &ticks, NULL, &subscription), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_start(watch), MVVM_OK);
    const int forks = 60;
    int hung = 0, failed = 0;
    for (int i = 0; i < forks; i++) {
        while (__atomic_load_n(&ticks, __ATOMIC_SEQ_CST) < 2 * (i + 1)) {
            struct timespec pause = { 0, 200 * 1000 };
            nanosleep(&pause, NULL);
        }
        int verdict[2];
        if (!CHECK(pipe(verdict) == 0)) break;
        fflush(stdout);
        pid_t pid = fork();
        if (!CHECK(pid >= 0)) break;
        if (pid == 0) fork_child(verdict[1], loop, watch, subscription);
        close(verdict[1]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        char answer = 0;
        if (read(verdict[0], &answer, 1) != 1) answer = 0;
        close(verdict[0]);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) hung++;
        else if (answer != 'y') failed++;
    }
    printf("    %d forks: %d hung, %d failed\n", forks, hung, failed);
    CHECK_EQ_INT(hung, 0);
    CHECK_EQ_INT(failed, 0);
    /* The parent's objects work on: the watch still ticks, the calls still answer. */
    int seen = __atomic_load_n(&ticks, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&ticks, __ATOMIC_SEQ_CST) < seen + 3) {
        struct timespec pause = { 0, 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    CHECK_STATUS(mvvm_stop_watch_stop(watch), MVVM_OK);
    RELEASE(watch);
    RELEASE(loop);
}

int main(int argc, char **argv) {
#ifdef CHECK_UNDER_TSAN
    /* fork() is left out under ThreadSanitizer (see check.h): nothing to run. */
    (void)argc; (void)argv;
    (void)a_fork_child_of_a_ticking_thread_loop_neither_hangs_nor_uses_it;
    printf("test_fork: fork is left out under ThreadSanitizer\ntest_fork: 0 passed, 0 failed\n");
    return 0;
#else
    static const check_test tests[] = {
        CHECK_TEST(a_fork_child_of_a_ticking_thread_loop_neither_hangs_nor_uses_it),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
#endif
}
