// The main thread's world for MVVM_LOOP_MAIN: libdispatch's main queue (its private hooks for
// CoreFoundation, exported by libdispatch.so) and CoreFoundation's main run loop, bound at run
// time so that libmvvm.so does not link Foundation (a process that never loaded it has no
// RunLoop.main work).
#define _GNU_SOURCE
#include "CMVVMSystem.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

/* libdispatch's private API for CoreFoundation: an eventfd every push to the main queue writes,
 * from any thread (libdispatch never reads it), and the drain of the main queue. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);
/* The main queue, and queue-specific values: visible on the thread the main queue is bound to. */
extern struct dispatch_queue_s _dispatch_main_q;
extern void dispatch_queue_set_specific(void *queue, const void *key, void *context, void (*destructor)(void *));
extern void *dispatch_get_specific(const void *key);

static char main_queue_key;
static pthread_once_t main_queue_key_once = PTHREAD_ONCE_INIT;

static void set_main_queue_key(void) {
    dispatch_queue_set_specific(&_dispatch_main_q, &main_queue_key, &main_queue_key, NULL);
}

bool cmvvm_can_drain_main_queue(void) {
    /* The drain traps anywhere but on the thread libdispatch bound the main queue to (normally
     * the process's main thread), and after dispatch_main(), whose thread is gone: checked
     * without touching the drain. */
    if (syscall(SYS_gettid) != getpid()) return false;
    pthread_once(&main_queue_key_once, set_main_queue_key);
    return dispatch_get_specific(&main_queue_key) == &main_queue_key;
}

int cmvvm_main_queue_fd(void) { return _dispatch_get_main_queue_handle_4CF(); }

void cmvvm_main_queue_drain(void) { _dispatch_main_queue_callback_4CF(NULL); }

/* CoreFoundation, when the process loaded it (Foundation). */
typedef const void *cf_type;
static cf_type (*cf_get_main)(void);
static double (*cf_next_timer)(cf_type, cf_type);
static int32_t (*cf_run_in_mode)(cf_type, double, unsigned char);
static double (*cf_now)(void);
static const cf_type *cf_default_mode;

bool cmvvm_cf_bind(void) {
    if (cf_get_main) return true;
    void *get_main = dlsym(RTLD_DEFAULT, "CFRunLoopGetMain");
    void *next_timer = dlsym(RTLD_DEFAULT, "CFRunLoopGetNextTimerFireDate");
    void *run_in_mode = dlsym(RTLD_DEFAULT, "CFRunLoopRunInMode");
    void *now = dlsym(RTLD_DEFAULT, "CFAbsoluteTimeGetCurrent");
    void *mode = dlsym(RTLD_DEFAULT, "kCFRunLoopDefaultMode");
    if (!get_main || !next_timer || !run_in_mode || !now || !mode) return false;
    *(void **)&cf_next_timer = next_timer;
    *(void **)&cf_run_in_mode = run_in_mode;
    *(void **)&cf_now = now;
    cf_default_mode = mode;
    __atomic_store_n((void **)&cf_get_main, get_main, __ATOMIC_RELEASE);
    return true;
}

double cmvvm_cf_seconds_to_next_timer(void) {
    double fire = cf_next_timer(cf_get_main(), *cf_default_mode);
    if (fire == 0) return -1;
    double wait = fire - cf_now();
    return wait < 0 ? 0 : wait;
}

void cmvvm_cf_run_pass(void) {
    cf_run_in_mode(*cf_default_mode, 0, 1);
}

/* The main loop's descriptor: an epoll set (Swift's Glibc module lacks sys/epoll.h). */
int cmvvm_epoll_new(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cmvvm_epoll_watch(int epoll, int fd) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}
