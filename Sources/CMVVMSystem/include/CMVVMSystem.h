// The few Linux system headers Swift's Glibc module does not bring in.
// The manual loop's file descriptor is a timerfd; the thread loop wakes with an eventfd.
#ifndef CMVVM_SYSTEM_H
#define CMVVM_SYSTEM_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Runs the library's hook (libmvvm_register_package), if it has one, once per call. The registry
 * calls it once, before its first look-up. */
void libmvvm_run_registrations(void);

/* Whether the library's hook (libmvvm_register_package) is linked in. */
bool libmvvm_has_package_registration(void);

/* This copy's tag among the copies of libmvvm loaded in the process (1 to 255), chosen when it
 * was loaded; public as mvvm_library_tag (mvvm.h). 0 when 255 copies were loaded before it. */
uint8_t libmvvm_own_tag(void);

/* Set, once, when the library is loaded: why this copy serves nothing (it has no tag, 255 copies
 * having been loaded before it); NULL for a copy with a tag. Every call checks it, so it is read
 * inline, without a call. */
extern __attribute__((visibility("hidden"))) const char *libmvvm_untagged_message;
static inline const char *libmvvm_untagged(void) { return libmvvm_untagged_message; }

/* When the program links two copies of libmvvm by name (so that every call goes to the first),
 * why this library refuses to serve; NULL otherwise. */
const char *libmvvm_linked_twice(void);

/* A lock that is one 32-bit word (0 free, 1 held, 2 held and waited for), taken with one atomic
 * operation and given back with another, sleeping in futex(2) only when contended (Drepper,
 * "Futexes Are Tricky", mutex 3). For the locks every call takes (the handle table's, a loop's
 * work lock): cheaper than a pthread mutex, and a word of ours, so that the child of a fork() can
 * free it (cmvvm_word_lock_reset) when a thread that is not in the child held it. Not recursive. */
typedef struct cmvvm_word_lock { uint32_t state; } cmvvm_word_lock;

void cmvvm_word_lock_wait(cmvvm_word_lock *lock);
void cmvvm_word_lock_wake(cmvvm_word_lock *lock);

/* Takes the lock if that needs no wait; whether it did. */
static inline int cmvvm_word_lock_try_take(cmvvm_word_lock *lock) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(&lock->state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void cmvvm_word_lock_take(cmvvm_word_lock *lock) {
    if (!cmvvm_word_lock_try_take(lock)) cmvvm_word_lock_wait(lock);
}

static inline void cmvvm_word_lock_give(cmvvm_word_lock *lock) {
    if (__atomic_exchange_n(&lock->state, 0, __ATOMIC_RELEASE) == 2) cmvvm_word_lock_wake(lock);
}

/* Only in the child of a fork(), which has one thread: frees the lock whoever held it. */
static inline void cmvvm_word_lock_reset(cmvvm_word_lock *lock) {
    __atomic_store_n(&lock->state, 0, __ATOMIC_RELAXED);
}

/* The main thread's world (main_thread.c), for MVVM_LOOP_MAIN. */

/* Whether the calling thread may drain libdispatch's main queue: it is the process's main thread
 * and the main queue is bound to it (never after dispatch_main()). Never traps. */
bool cmvvm_can_drain_main_queue(void);
/* The eventfd libdispatch writes whenever work is pushed to the main queue, from any thread. */
int cmvvm_main_queue_fd(void);
/* Reads (and so clears) the eventfd's counter: whether work was pushed since the last read. */
static inline bool cmvvm_main_queue_take(int fd) {
    /* The read(2) system call itself, inline: glibc's read() is a cancellation point and
     * syscall() a call of its own, and every dispatch of a main loop makes this check. */
    uint64_t count;
#if defined(__x86_64__)
    long result;
    __asm__ volatile("syscall" : "=a"(result) : "0"((long)SYS_read), "D"((long)fd), "S"(&count), "d"(sizeof count)
                     : "rcx", "r11", "memory");
    return result == (long)sizeof count;
#else
    return syscall(SYS_read, fd, &count, sizeof count) == (long)sizeof count;
#endif
}
/* Runs the main queue's work. Read the eventfd's counter first: the drain re-arms it when more
 * remains. Only where cmvvm_can_drain_main_queue(). */
void cmvvm_main_queue_drain(void);
/* Binds CoreFoundation's run loop calls when the process has loaded Foundation; whether it has. */
bool cmvvm_cf_bind(void);
/* Seconds until the main run loop's next timer in its default mode (0 when due), -1 when none.
 * Only after cmvvm_cf_bind() said true. */
double cmvvm_cf_seconds_to_next_timer(void);
/* One non-blocking pass of the main run loop in its default mode (due timers, performs). */
void cmvvm_cf_run_pass(void);
/* An epoll set (close-on-exec), and adding a descriptor to it for reading; -1 and errno on failure. */
int cmvvm_epoll_new(void);
int cmvvm_epoll_watch(int epoll, int fd);
/* The calling thread's record of the loops it holds (HeldWorkLocks), made at its first host call
 * or loop work: one thread-local read finds it, for every host call and for every change a watch
 * hears (whether its thread holds its loop), and nothing is written per call. A pthread key's
 * destructor frees it at thread exit and sets this back to NULL. Of the default (dynamic) model,
 * not initial-exec: a dlopen'ed library's initial-exec thread-locals come from glibc's small static
 * TLS reserve, which ran out at the 106th copy of the library in one process (255 are allowed). */
extern __thread void *cmvvm_held_work_locks;

static inline void *cmvvm_held_work_locks_get(void) { return cmvvm_held_work_locks; }
static inline void cmvvm_held_work_locks_set(void *record) { cmvvm_held_work_locks = record; }
/* Settings that persist (settings.c): UserDefaults' values, kept in a file named after the
 * library, or `domain_or_null` when given. */

/* Loads the values saved before into the current application's domain and starts saving them;
 * whether settings are on (CoreFoundation is linked, and a home folder is known). Once. */
bool cmvvm_settings_start(const char *domain_or_null);
/* Saves the values now if they changed since the last save (a loop's release). */
void cmvvm_settings_save_now(void);
/* Where the values are kept; NULL while settings are off. */
const char *cmvvm_settings_path(void);
void cmvvm_settings_note_work_slow(void);
extern __attribute__((visibility("hidden"))) bool cmvvm_settings_active;
extern __attribute__((visibility("hidden"))) bool cmvvm_settings_armed;
extern __attribute__((visibility("hidden"))) unsigned long cmvvm_settings_work;
/* After a loop's work: the values are saved once the loops have been idle a short while. Costs a
 * load and a branch when settings are off, two relaxed atomics when on. */
static inline void cmvvm_settings_note_work(void) {
    if (!__atomic_load_n(&cmvvm_settings_active, __ATOMIC_RELAXED)) return;
    __atomic_add_fetch(&cmvvm_settings_work, 1, __ATOMIC_RELAXED);
    if (!__atomic_load_n(&cmvvm_settings_armed, __ATOMIC_RELAXED)) cmvvm_settings_note_work_slow();
}
/* A @Published box's value of 1, 2, 4 or 8 bytes with no references (a Bool, an Int, a Double, a
 * small enum), copied from `from` to `to` with relaxed atomics on both sides: a read never waits
 * for the box's lock, and one racing a set on another thread sees the old or the new value, never
 * half of one (MVVMPublished's PublishedBox). */
static inline void cmvvm_published_word_copy(void *to, const void *from, size_t size) {
    switch (size) {
    case 1: __atomic_store_n((uint8_t *)to, __atomic_load_n((const uint8_t *)from, __ATOMIC_RELAXED), __ATOMIC_RELAXED); break;
    case 2: __atomic_store_n((uint16_t *)to, __atomic_load_n((const uint16_t *)from, __ATOMIC_RELAXED), __ATOMIC_RELAXED); break;
    case 4: __atomic_store_n((uint32_t *)to, __atomic_load_n((const uint32_t *)from, __ATOMIC_RELAXED), __ATOMIC_RELAXED); break;
    default: __atomic_store_n((uint64_t *)to, __atomic_load_n((const uint64_t *)from, __ATOMIC_RELAXED), __ATOMIC_RELAXED); break;
    }
}
/* MVVMPublished's locks: 64 word locks, one chosen by an object's address, each guarding the few
 * fields of the objects that map to it (a @Published property's box: its value and listeners; a
 * subject's state) and never held while calling out, nor two at a time. Shared this way, an
 * object needs no lock of its own. */
extern __attribute__((visibility("hidden"))) cmvvm_word_lock cmvvm_published_locks[64];
static inline cmvvm_word_lock *cmvvm_published_lock(const void *object) {
    return &cmvvm_published_locks[((uintptr_t)object >> 4) & 63];
}
/* What `assign(to: &$x)` leaves for the property's projected setter, which runs next on the same
 * thread and knows the object: the assignment, retained (MVVMPublished). */
extern __thread void *cmvvm_published_pending;
static inline void *cmvvm_published_pending_take(void) {
    void *pending = cmvvm_published_pending;
    cmvvm_published_pending = 0;
    return pending;
}
static inline void *cmvvm_published_pending_swap(void *pending) {
    void *was = cmvvm_published_pending;
    cmvvm_published_pending = pending;
    return was;
}
#endif
