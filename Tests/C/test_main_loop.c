/*
 * test_main_loop.c - MVVM_LOOP_MAIN with the catalog's objects: made, dispatched and run on the
 * process's main thread only, one live at a time; its fd readable when main-queue work is pushed
 * from any thread (libdispatch's dispatch_async_f, found with dlsym: libmvvm.so links
 * libdispatch), and idle otherwise; a stop watch ticking while the host only polls its fd.
 *
 * The tests run one after another on the main thread, not forked onto another thread as the
 * other programs' are (check.h): only the main thread may drain the main queue.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <stdatomic.h>

#include "mvvm_catalog.h"
#include "check.h"

#define GIVE_UP_MS 5000

/* libdispatch's C API, bound at run time. */
static void (*async_f)(void *queue, void *context, void (*work)(void *));
static void *main_queue;

static bool bind_dispatch(void) {
    *(void **)&async_f = dlsym(RTLD_DEFAULT, "dispatch_async_f");
    main_queue = dlsym(RTLD_DEFAULT, "_dispatch_main_q");
    return CHECK(async_f != NULL) && CHECK(main_queue != NULL);
}

static atomic_int main_work_ran;
static atomic_long main_work_thread;

static void main_work(void *unused) {
    (void)unused;
    atomic_store(&main_work_thread, (long)pthread_self());
    atomic_fetch_add(&main_work_ran, 1);
}

static void *push_main_work(void *unused) {
    (void)unused;
    check_sleep_ms(20); /* while the host already waits */
    async_f(main_queue, NULL, main_work);
    return NULL;
}

static mvvm_status new_loop_on_a_thread_status;
static void *new_main_loop_on_a_thread(void *unused) {
    (void)unused;
    mvvm_handle loop = 0;
    new_loop_on_a_thread_status = mvvm_loop_new(MVVM_LOOP_MAIN, &loop);
    return NULL;
}

static mvvm_handle shared_loop;
static mvvm_status dispatch_on_a_thread_status, run_for_on_a_thread_status;
static void *dispatch_on_a_thread(void *unused) {
    (void)unused;
    dispatch_on_a_thread_status = mvvm_loop_dispatch(shared_loop, NULL);
    run_for_on_a_thread_status = mvvm_loop_run_for(shared_loop, 1);
    return NULL;
}

static void main_queue_work_makes_the_fd_readable(void) {
    if (!bind_dispatch()) return;
    mvvm_handle loop = 0;
    if (!CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MAIN, &loop), MVVM_OK)) return;
    int fd = -1;
    CHECK_STATUS(mvvm_loop_fd(loop, &fd), MVVM_OK);
    CHECK_STATUS(mvvm_loop_dispatch(loop, NULL), MVVM_OK);
    /* Idle: not readable, nothing scheduled, a dispatch runs nothing. */
    CHECK_EQ_INT(check_fd_readable(fd, 50), 0);
    int64_t ms = 0, ran = -1;
    CHECK_STATUS(mvvm_loop_next_timeout_ms(loop, &ms), MVVM_OK);
    CHECK_EQ_INT(ms, -1);
    CHECK_STATUS(mvvm_loop_dispatch(loop, &ran), MVVM_OK);
    CHECK_EQ_INT(ran, 0);

    /* Work pushed to the main queue from another thread wakes the host's poll. */
    atomic_store(&main_work_ran, 0);
    pthread_t pusher;
    pthread_create(&pusher, NULL, push_main_work, NULL);
    int64_t start = check_now_ms();
    while (atomic_load(&main_work_ran) == 0 && check_now_ms() - start < GIVE_UP_MS) {
        if (check_fd_readable(fd, GIVE_UP_MS) == 1) CHECK_STATUS(mvvm_loop_dispatch(loop, NULL), MVVM_OK);
    }
    pthread_join(pusher, NULL);
    CHECK_EQ_INT(atomic_load(&main_work_ran), 1);
    CHECK(pthread_equal((pthread_t)atomic_load(&main_work_thread), pthread_self()));
    CHECK_EQ_INT(check_fd_readable(fd, 0), 0); /* drained */

    /* mvvm_loop_run_for runs it too. */
    pthread_create(&pusher, NULL, push_main_work, NULL);
    CHECK_STATUS(mvvm_loop_run_for(loop, 300), MVVM_OK);
    pthread_join(pusher, NULL);
    CHECK_EQ_INT(atomic_load(&main_work_ran), 2);
    RELEASE(loop);
}

static void one_main_loop_on_the_main_thread_only(void) {
    mvvm_handle loop = 0, second = 0;
    if (!CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MAIN, &loop), MVVM_OK)) return;
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MAIN, &second), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mvvm_last_error(), "already live") != NULL);
    CHECK_EQ_INT(second, 0);
    pthread_t thread;
    pthread_create(&thread, NULL, new_main_loop_on_a_thread, NULL);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(new_loop_on_a_thread_status, MVVM_ERR_INVALID_ARGUMENT);
    shared_loop = loop;
    pthread_create(&thread, NULL, dispatch_on_a_thread, NULL);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(dispatch_on_a_thread_status, MVVM_ERR_WRONG_THREAD);
    CHECK_EQ_INT(run_for_on_a_thread_status, MVVM_ERR_WRONG_THREAD);
    /* Not a virtual loop: no advance. */
    CHECK_STATUS(mvvm_loop_advance(loop, 1), MVVM_ERR_WRONG_LOOP_KIND);
    RELEASE(loop);
    /* Released, another may be made. */
    CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MAIN, &second), MVVM_OK);
    RELEASE(second);
}

static void a_stop_watch_ticks_while_the_host_polls_the_main_loop(void) {
    mvvm_handle loop = 0, watch = 0, sub = 0;
    if (!CHECK_STATUS(mvvm_loop_new(MVVM_LOOP_MAIN, &loop), MVVM_OK)) return;
    int fd = -1;
    CHECK_STATUS(mvvm_loop_fd(loop, &fd), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_new(loop, &watch), MVVM_OK);
    recorder *times = recorder_new();
    CHECK_STATUS(mvvm_subscribe(watch, "time", recorder_callback, times, recorder_destroy, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_stop_watch_view_model_main_action(watch), MVVM_OK);
    int64_t start = check_now_ms();
    while (rec_count(times, NULL) < 3 && check_now_ms() - start < GIVE_UP_MS) {
        if (check_fd_readable(fd, 100) == 1) CHECK_STATUS(mvvm_loop_dispatch(loop, NULL), MVVM_OK);
    }
    CHECK(rec_count(times, NULL) >= 3);
    CHECK_EQ_INT(rec_count_off_thread(times, pthread_self()), 0);
    RELEASE(sub);
    RELEASE(watch);
    RELEASE(loop);
    recorder_free(times);
}

int main(int argc, char **argv) {
    /* On the main thread, in this process (see the comment at the top). */
    setenv("CHECK_NO_FORK", "1", 1);
    static const check_test tests[] = {
        CHECK_TEST(main_queue_work_makes_the_fd_readable),
        CHECK_TEST(one_main_loop_on_the_main_thread_only),
        CHECK_TEST(a_stop_watch_ticks_while_the_host_polls_the_main_loop),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
