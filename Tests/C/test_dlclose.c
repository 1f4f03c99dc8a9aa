/*
 * test_dlclose.c - dlclose never unloads libmvvm. Its own threads (the settings saver, which
 * wakes 300 ms after work) and the Swift runtime's registries of types point into its code: a
 * LuaJIT host whose collector closed the library at exit crashed in the saver, running unmapped
 * code. This program opens a copy of the library from a path of its own, uses it, closes it, and
 * finds it still mapped and answering.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include "check.h"

static int find_path(struct dl_phdr_info *info, size_t size, void *path) {
    (void)size;
    return strcmp(info->dlpi_name, (const char *)path) == 0;
}

static void a_closed_copy_stays_mapped_and_answers(void) {
    Dl_info info;
    void *linked = dlsym(RTLD_DEFAULT, "mvvm_version");
    if (!CHECK(linked && dladdr(linked, &info) && info.dli_fname)) return;
    char folder[] = "/tmp/mvvm-dlclose-XXXXXX";
    if (!CHECK(mkdtemp(folder) != NULL)) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/libmvvm-closed.so", folder);
    if (!CHECK(check_copy_file(info.dli_fname, path))) return;
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!CHECK(handle != NULL)) {
        printf("    dlopen: %s\n", dlerror());
        return;
    }
    mvvm_status (*loop_new)(mvvm_loop_kind, mvvm_handle *);
    mvvm_status (*release)(mvvm_handle);
    *(void **)&loop_new = dlsym(handle, "mvvm_loop_new");
    *(void **)&release = dlsym(handle, "mvvm_release");
    if (!CHECK(loop_new && release)) return;
    mvvm_handle loop = 0;
    CHECK_STATUS(loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK);
    CHECK_STATUS(release(loop), MVVM_OK);

    CHECK_EQ_INT(dlclose(handle), 0);
    /* Still mapped (an unloaded object is gone from the loader's list), and its code runs. */
    CHECK_EQ_INT(dl_iterate_phdr(find_path, path), 1);
    CHECK_STATUS(loop_new(MVVM_LOOP_VIRTUAL, &loop), MVVM_OK);
    CHECK_STATUS(release(loop), MVVM_OK);
    unlink(path);
    rmdir(folder);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_closed_copy_stays_mapped_and_answers),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
