/*
 * test_linked_twice.c - a program that links two libmvvm libraries by name (libsample.so, then
 * the catalog's libcatalog.so): every generic mvvm_* call goes to the first, so the second's classes
 * could never be reached. Each refuses to serve, naming both, rather than mix them silently: the
 * first through the generic calls, the second through its typed calls (mvvm_catalog.h), which
 * only it defines. (--no-as-needed: a library that only the typed calls need is kept all the
 * same, as any second library linked by name would be.)
 * LINK: -Wl,--no-as-needed -lsample -lcatalog
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"
#include "sample.h"

static void two_libraries_linked_by_name_are_refused_with_a_message(void) {
    char *json = NULL;
    CHECK_STATUS(mvvm_classes(&json), MVVM_ERR_BAD_REGISTRATION);
    CHECK(json == NULL);
    CHECK(strstr(mvvm_last_error(), "links two libmvvm libraries by name") != NULL);
    CHECK(strstr(mvvm_last_error(), "libsample.so") != NULL);
    CHECK(strstr(mvvm_last_error(), "libcatalog.so") != NULL);
    mvvm_handle loop = new_virtual_loop(), made = 0;
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, &made), MVVM_ERR_BAD_REGISTRATION);
    CHECK_STATUS(mvvm_counter_new(loop, &made), MVVM_ERR_BAD_REGISTRATION);
    CHECK_EQ_INT(made, 0);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(two_libraries_linked_by_name_are_refused_with_a_message),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
