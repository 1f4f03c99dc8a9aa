/*
 * test_libraries.c - two libmvvm libraries in one process: libsample.so, linked by name, and the
 * catalog's libcatalog.so, opened beside it with dlopen(RTLD_LOCAL) and reached through dlsym. Each
 * works with its own handles; a handle of one given to the other is refused, never taken for
 * one of its own (each library's handles carry its tag).
 * MVVM_CATALOG_LIBRARY names the catalog's libcatalog.so.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include "check.h"

typedef struct {
    void *handle;
    uint8_t (*library_tag)(void);
    mvvm_status (*loop_new)(mvvm_loop_kind, mvvm_handle *);
    mvvm_status (*new_object)(mvvm_handle, const char *, const mvvm_value *, size_t, mvvm_handle *);
    mvvm_status (*get_int)(mvvm_handle, const char *, int64_t *);
    mvvm_status (*send)(mvvm_handle, const char *, const mvvm_value *);
    mvvm_status (*release)(mvvm_handle);
    const char *(*last_error)(void);
} catalog_library;

static bool open_catalog(catalog_library *catalog) {
    const char *path = getenv("MVVM_CATALOG_LIBRARY");
    if (!CHECK(path != NULL)) return false;
    catalog->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!CHECK(catalog->handle != NULL)) return false;
    *(void **)&catalog->library_tag = dlsym(catalog->handle, "mvvm_library_tag");
    *(void **)&catalog->loop_new = dlsym(catalog->handle, "mvvm_loop_new");
    *(void **)&catalog->new_object = dlsym(catalog->handle, "mvvm_new");
    *(void **)&catalog->get_int = dlsym(catalog->handle, "mvvm_get_int");
    *(void **)&catalog->send = dlsym(catalog->handle, "mvvm_send");
    *(void **)&catalog->release = dlsym(catalog->handle, "mvvm_release");
    *(void **)&catalog->last_error = dlsym(catalog->handle, "mvvm_last_error");
    return CHECK(catalog->release != NULL && catalog->last_error != NULL);
}

static void two_libraries_work_side_by_side_each_with_its_own_handles(void) {
    catalog_library catalog;
    if (!open_catalog(&catalog)) return;
    /* Distinct tags: the linked one's and the opened one's. */
    CHECK(mvvm_library_tag() != 0);
    CHECK(catalog.library_tag() != 0);
    CHECK(catalog.library_tag() != mvvm_library_tag());

    mvvm_handle sample_loop = new_virtual_loop(), catalog_loop = 0, tally = 0, counter = 0, wrong = 0;
    CHECK_STATUS(catalog.loop_new(MVVM_LOOP_VIRTUAL, &catalog_loop), MVVM_OK);
    mvvm_value start = value_int(3);
    CHECK_STATUS(mvvm_new(sample_loop, "tally", &start, 1, &tally), MVVM_OK);
    CHECK_STATUS(catalog.new_object(catalog_loop, "counter", NULL, 0, &counter), MVVM_OK);
    CHECK_STATUS(catalog.send(counter, "increment", NULL), MVVM_OK);
    int64_t count = 0;
    CHECK_STATUS(catalog.get_int(counter, "count", &count), MVVM_OK);
    CHECK_EQ_INT(count, 1);
    CHECK_GET_INT(tally, "total", 3);

    /* Crossing: the sample refuses the catalog's handles, and the catalog the sample's. */
    CHECK_STATUS(mvvm_get_int(counter, "count", &count), MVVM_ERR_INVALID_HANDLE);
    CHECK(strstr(mvvm_last_error(), "another libmvvm library") != NULL);
    CHECK_STATUS(mvvm_new(catalog_loop, "tally", &start, 1, &wrong), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(counter), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(catalog.get_int(tally, "total", &count), MVVM_ERR_INVALID_HANDLE);
    CHECK(strstr(catalog.last_error(), "another libmvvm library") != NULL);
    CHECK_STATUS(catalog.new_object(sample_loop, "counter", NULL, 0, &wrong), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(catalog.release(tally), MVVM_ERR_INVALID_HANDLE);
    CHECK_EQ_INT(wrong, 0);
    /* Nothing was harmed. */
    CHECK_GET_INT(tally, "total", 3);
    CHECK_STATUS(catalog.get_int(counter, "count", &count), MVVM_OK);
    CHECK_EQ_INT(count, 1);

    CHECK_STATUS(catalog.release(counter), MVVM_OK);
    CHECK_STATUS(catalog.release(catalog_loop), MVVM_OK);
    RELEASE(tally);
    RELEASE(sample_loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(two_libraries_work_side_by_side_each_with_its_own_handles),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
