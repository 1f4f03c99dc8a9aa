/*
 * test_library_copies.c - as many copies of libmvvm in one process as tags allow. A handle carries
 * its library's tag (1 to 255), so that no copy takes another's handle for one of its own: this
 * program links one copy and opens 256 more, each from a path of its own with
 * dlopen(RTLD_LOCAL). The first 255 each get a tag no other has; the 256th and 257th get none,
 * and answer every call with MVVM_ERR_BAD_REGISTRATION, their message naming the limit.
 * LIBRARY_COPIES=N opens N copies instead (valgrind's run, and ThreadSanitizer's, where each dlopen
 * of the instrumented library takes about a second): the tags are checked, the limit is not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "check.h"

#define COPIES 257 /* the linked one and 256 opened */

typedef struct {
    void *handle;
    uint8_t (*library_tag)(void);
    mvvm_status (*loop_new)(mvvm_loop_kind, mvvm_handle *);
    mvvm_status (*classes)(char **);
    mvvm_status (*release)(mvvm_handle);
    const char *(*last_error)(void);
} copy;

/* Opens a copy of `library` at a path of its own in `folder`. The file goes once it is open:
 * the mapping keeps it, and the folder never holds more than one. */
static bool open_copy(const char *library, const char *folder, int index, copy *c) {
    char path[4096];
    snprintf(path, sizeof path, "%s/libmvvm-%03d.so", folder, index);
    if (!check_copy_file(library, path)) return false;
    c->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!c->handle) printf("    dlopen %s: %s\n", path, dlerror());
    unlink(path);
    if (!c->handle) return false;
    *(void **)&c->library_tag = dlsym(c->handle, "mvvm_library_tag");
    *(void **)&c->loop_new = dlsym(c->handle, "mvvm_loop_new");
    *(void **)&c->classes = dlsym(c->handle, "mvvm_classes");
    *(void **)&c->release = dlsym(c->handle, "mvvm_release");
    *(void **)&c->last_error = dlsym(c->handle, "mvvm_last_error");
    return c->library_tag && c->loop_new && c->classes && c->release && c->last_error;
}

static copy copies[COPIES];

static void the_256th_copy_is_refused_and_no_two_copies_share_a_tag(void) {
    /* The file of the copy this program links. */
    Dl_info info;
    void *linked = dlsym(RTLD_DEFAULT, "mvvm_version");
    if (!CHECK(linked && dladdr(linked, &info) && info.dli_fname)) return;
    char folder[] = "/tmp/mvvm-copies-XXXXXX";
    if (!CHECK(mkdtemp(folder) != NULL)) return;
    copies[0] = (copy){ NULL, mvvm_library_tag, mvvm_loop_new, mvvm_classes, mvvm_release, mvvm_last_error };
    const int wanted = (int)check_rounds("LIBRARY_COPIES", COPIES - 1) + 1;
    if (!CHECK(wanted >= 2 && wanted <= COPIES)) return;
    int opened = 1;
    while (opened < wanted && open_copy(info.dli_fname, folder, opened, &copies[opened])) opened++;
    rmdir(folder);
    if (!CHECK_EQ_INT(opened, wanted)) return;
    const int tagged = wanted < 255 ? wanted : 255;

    bool seen[256] = { false };
    mvvm_handle loops[COPIES] = { 0 };
    for (int index = 0; index < tagged; index++) {
        uint8_t tag = copies[index].library_tag();
        if (!CHECK(tag != 0 && !seen[tag])) printf("    copy %d: tag %d\n", index + 1, tag);
        seen[tag] = true;
        CHECK_STATUS(copies[index].loop_new(MVVM_LOOP_VIRTUAL, &loops[index]), MVVM_OK);
    }
    /* A handle names its copy: the last tagged copy refuses the first's loop. */
    CHECK_STATUS(copies[tagged - 1].release(loops[0]), MVVM_ERR_INVALID_HANDLE);
    if (wanted < COPIES) {
        printf("    %d copies (LIBRARY_COPIES): the limit of 255 is not reached\n", wanted);
        for (int index = 0; index < tagged; index++) CHECK_STATUS(copies[index].release(loops[index]), MVVM_OK);
        return;
    }

    /* The 256th and the 257th: no tag, so no handle of theirs could be told from another's. */
    for (int index = 255; index < COPIES; index++) {
        CHECK_EQ_INT(copies[index].library_tag(), 0);
        mvvm_handle loop = 7;
        CHECK_STATUS(copies[index].loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_ERR_BAD_REGISTRATION);
        CHECK_EQ_INT(loop, 7);
        const char *message = copies[index].last_error();
        if (!CHECK(strstr(message, "255 copies") != NULL)) printf("    message: %s\n", message);
        char *json = NULL;
        CHECK_STATUS(copies[index].classes(&json), MVVM_ERR_BAD_REGISTRATION);
        CHECK(json == NULL);
        /* Handles of tagged copies are not its own either. */
        CHECK_STATUS(copies[index].release(loops[0]), MVVM_ERR_BAD_REGISTRATION);
        CHECK_STATUS(copies[index].release(loops[254]), MVVM_ERR_BAD_REGISTRATION);
    }
    for (int index = 0; index < 255; index++) CHECK_STATUS(copies[index].release(loops[index]), MVVM_OK);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_LONG_TEST(the_256th_copy_is_refused_and_no_two_copies_share_a_tag, 5),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
