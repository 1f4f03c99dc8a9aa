/* Settings that persist under a host, as on the app's platform: UserDefaults' values saved to disk
 * when the library's loops have been idle a short while after work, when a loop is released and at
 * a normal exit, and read back when the library is first used.
 *
 * swift-corelibs-foundation keeps UserDefaults.standard's values in CoreFoundation's preferences,
 * in memory, until someone calls synchronize(), which Apple's code never does (the platform saves
 * on its own); and it names the domain after the process (python3, node), so a host in another
 * language would not find them. Here the library keeps the values of the current application's
 * domain in a file named after the library (or the package's own domain), and loads them into that
 * domain before any object is made.
 *
 * CoreFoundation is referenced weakly: it is there when the library (or the process) uses
 * Foundation, and a library that does not (libmvvm's own) links none of it and saves nothing. */
#define _GNU_SOURCE
#include "CMVVMSystem.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef const void *cf_type;
typedef long cf_index;

/* CoreFoundation's preferences and property lists, as Apple documents them; weak (see above). */
extern cf_type CFPreferencesCopyMultiple(cf_type keys, cf_type application, cf_type user, cf_type host) __attribute__((weak));
extern void CFPreferencesSetMultiple(cf_type set, cf_type remove, cf_type application, cf_type user, cf_type host)
    __attribute__((weak));
extern cf_type CFPropertyListCreateData(cf_type allocator, cf_type list, cf_index format, unsigned long options,
                                        cf_type *error) __attribute__((weak));
extern cf_type CFPropertyListCreateWithData(cf_type allocator, cf_type data, unsigned long options, cf_index *format,
                                            cf_type *error) __attribute__((weak));
extern cf_type CFDataCreate(cf_type allocator, const uint8_t *bytes, cf_index length) __attribute__((weak));
extern const uint8_t *CFDataGetBytePtr(cf_type data) __attribute__((weak));
extern cf_index CFDataGetLength(cf_type data) __attribute__((weak));
extern unsigned long CFGetTypeID(cf_type object) __attribute__((weak));
extern unsigned long CFDictionaryGetTypeID(void) __attribute__((weak));
extern void CFRelease(cf_type object) __attribute__((weak));
extern const cf_type kCFPreferencesCurrentApplication __attribute__((weak));
extern const cf_type kCFPreferencesCurrentUser __attribute__((weak));
extern const cf_type kCFPreferencesAnyHost __attribute__((weak));

enum { BINARY_FORMAT = 200 /* kCFPropertyListBinaryFormat_v1_0 */ };

/* How long the loops must have been idle after work before the values are saved. */
#define IDLE_MS 300

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
/* Set once, at cmvvm_settings_start: where the values go. NULL while settings are off. */
static char *path;
/* What was last saved or loaded (the domain's values as a binary property list): a save writes
 * only when the values differ. */
static uint8_t *saved;
static size_t saved_length;
static bool saver_started;
/* Counted by cmvvm_settings_note_work (CMVVMSystem.h), read by the saver. */
unsigned long cmvvm_settings_work;
/* Whether the saver waits for the loops to go idle; set under `lock`, read by anyone. */
bool cmvvm_settings_armed;
bool cmvvm_settings_active;

static bool core_foundation_linked(void) {
    return CFPreferencesCopyMultiple && CFPreferencesSetMultiple && CFPropertyListCreateData &&
           CFPropertyListCreateWithData && CFDataCreate && CFDataGetBytePtr && CFDataGetLength && CFGetTypeID &&
           CFDictionaryGetTypeID && CFRelease && &kCFPreferencesCurrentApplication && &kCFPreferencesCurrentUser &&
           &kCFPreferencesAnyHost;
}

/* The library's file name without its folder, its `lib` and its extension: libexpenses.so.1 is
 * "expenses". */
static void library_domain(char *out, size_t size) {
    Dl_info info;
    const char *name = dladdr((void *)library_domain, &info) && info.dli_fname ? info.dli_fname : "libmvvm.so";
    const char *slash = strrchr(name, '/');
    if (slash) name = slash + 1;
    if (strncmp(name, "lib", 3) == 0 && name[3] && name[3] != '.') name += 3;
    size_t length = strcspn(name, ".");
    if (length == 0 || length >= size) length = size - 1 < strlen(name) ? size - 1 : strlen(name);
    memcpy(out, name, length);
    out[length] = 0;
}

/* $XDG_CONFIG_HOME (or ~/.config) / DOMAIN.plist, where swift-corelibs-foundation keeps a
 * program's own domain; its folder made when missing. */
static char *settings_path(const char *domain) {
    const char *config = getenv("XDG_CONFIG_HOME");
    char folder[PATH_MAX];
    if (config && config[0] == '/') {
        snprintf(folder, sizeof folder, "%s", config);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/') return NULL;
        snprintf(folder, sizeof folder, "%s/.config", home);
    }
    mkdir(folder, 0700);
    char *file = NULL;
    if (asprintf(&file, "%s/%s.plist", folder, domain) < 0) return NULL;
    return file;
}

/* The current application's values now, as a binary property list (malloc'ed); NULL when it has
 * none, or they cannot be written as one. */
static uint8_t *snapshot(size_t *length) {
    *length = 0;
    cf_type values = CFPreferencesCopyMultiple(NULL, kCFPreferencesCurrentApplication, kCFPreferencesCurrentUser,
                                               kCFPreferencesAnyHost);
    if (!values) return NULL;
    cf_type data = CFPropertyListCreateData(NULL, values, BINARY_FORMAT, 0, NULL);
    CFRelease(values);
    if (!data) return NULL;
    cf_index count = CFDataGetLength(data);
    uint8_t *bytes = count > 0 ? malloc((size_t)count) : NULL;
    if (bytes) {
        memcpy(bytes, CFDataGetBytePtr(data), (size_t)count);
        *length = (size_t)count;
    }
    CFRelease(data);
    return bytes;
}

/* Written to a file beside it, then renamed over it: a reader (or a kill) never sees half. */
static bool write_file(const char *file, const uint8_t *bytes, size_t length) {
    char *temporary = NULL;
    if (asprintf(&temporary, "%s.%d.tmp", file, (int)getpid()) < 0) return false;
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    bool written = fd >= 0;
    for (size_t done = 0; written && done < length;) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        written = n > 0;
        done += n > 0 ? (size_t)n : 0;
    }
    if (fd >= 0 && close(fd) != 0) written = false;
    written = written && rename(temporary, file) == 0;
    if (!written) unlink(temporary);
    free(temporary);
    return written;
}

/* Saves the values when they differ from what was saved or loaded last. With `lock` held. */
static void save_if_changed(void) {
    if (!path) return;
    size_t length = 0;
    uint8_t *now = snapshot(&length);
    bool same = length == saved_length && (length == 0 || memcmp(now, saved, length) == 0);
    if (same || !now || !write_file(path, now, length)) {
        free(now);
        return;
    }
    free(saved);
    saved = now;
    saved_length = length;
}

/* Sleeps until work is noted, then until the loops have been idle IDLE_MS, then saves. */
static void *saver(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!cmvvm_settings_armed) pthread_cond_wait(&wake, &lock);
        unsigned long seen;
        do {
            seen = __atomic_load_n(&cmvvm_settings_work, __ATOMIC_RELAXED);
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_nsec += IDLE_MS * 1000000L;
            until.tv_sec += until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            while (pthread_cond_timedwait(&wake, &lock, &until) == 0) {
            }
        } while (__atomic_load_n(&cmvvm_settings_work, __ATOMIC_RELAXED) != seen);
        /* Disarmed before the save: work during it arms the saver again. */
        __atomic_store_n(&cmvvm_settings_armed, false, __ATOMIC_RELAXED);
        save_if_changed();
    }
    return NULL;
}

/* fork(): the saver thread is not in the child, and `lock` may be held by a thread that is not
 * either (the saver saving, a loop's thread arming it), which made the child's first work wait
 * for good. The fork waits until the lock is free (the values are then consistent); the child
 * starts from a fresh lock and condition, and arms no saver (armed for good: its work takes the
 * fast path), so it saves at a loop's release and at its exit only (docs/loops-and-threads.md). */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void) {
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&wake, NULL);
    __atomic_store_n(&cmvvm_settings_armed, true, __ATOMIC_RELAXED);
}

static void save_at_exit(void) {
    pthread_mutex_lock(&lock);
    save_if_changed();
    pthread_mutex_unlock(&lock);
}

/* The values saved before, loaded into the current application's domain. */
static void load(void) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat info;
    uint8_t *bytes = NULL;
    ssize_t length = -1;
    if (fstat(fd, &info) == 0 && info.st_size > 0 && info.st_size < (1 << 30) && (bytes = malloc((size_t)info.st_size)))
        length = read(fd, bytes, (size_t)info.st_size);
    close(fd);
    if (length != (ssize_t)info.st_size || length <= 0) {
        free(bytes);
        return;
    }
    cf_type data = CFDataCreate(NULL, bytes, length);
    cf_type values = data ? CFPropertyListCreateWithData(NULL, data, 0, NULL, NULL) : NULL;
    if (data) CFRelease(data);
    if (values && CFGetTypeID(values) == CFDictionaryGetTypeID())
        CFPreferencesSetMultiple(values, NULL, kCFPreferencesCurrentApplication, kCFPreferencesCurrentUser,
                                 kCFPreferencesAnyHost);
    if (values) CFRelease(values);
    free(bytes);
}

bool cmvvm_settings_start(const char *domain_or_null) {
    /* MVVM_SETTINGS=off: a process that must not read or write settings (a benchmark, whose
     * counts a saver thread waking would blur). */
    const char *wanted = getenv("MVVM_SETTINGS");
    if (wanted && strcmp(wanted, "off") == 0) return false;
    if (!core_foundation_linked()) return false;
    char domain[NAME_MAX - 16];
    if (domain_or_null && domain_or_null[0]) {
        snprintf(domain, sizeof domain, "%s", domain_or_null);
    } else {
        library_domain(domain, sizeof domain);
    }
    pthread_mutex_lock(&lock);
    if (!path && (path = settings_path(domain))) {
        load();
        saved = snapshot(&saved_length);
        atexit(save_at_exit);
        pthread_atfork(fork_prepare, fork_parent, fork_child);
        __atomic_store_n(&cmvvm_settings_active, true, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    return path != NULL;
}

void cmvvm_settings_note_work_slow(void) {
    pthread_mutex_lock(&lock);
    if (!saver_started) {
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        pthread_t thread;
        saver_started = pthread_create(&thread, &attributes, saver, NULL) == 0;
        pthread_attr_destroy(&attributes);
    }
    if (!cmvvm_settings_armed) {
        __atomic_store_n(&cmvvm_settings_armed, true, __ATOMIC_RELAXED);
        pthread_cond_signal(&wake);
    }
    pthread_mutex_unlock(&lock);
}

void cmvvm_settings_save_now(void) {
    if (!__atomic_load_n(&cmvvm_settings_active, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&lock);
    save_if_changed();
    pthread_mutex_unlock(&lock);
}

const char *cmvvm_settings_path(void) {
    return __atomic_load_n(&cmvvm_settings_active, __ATOMIC_ACQUIRE) ? path : NULL;
}
