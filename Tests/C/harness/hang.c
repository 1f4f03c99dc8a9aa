/*
 * The harness's own test (Tests/check_harness.sh): one test that hangs, spinning on two threads
 * and ignoring the signals a gentler limit would send, and one that passes. check.h must kill the
 * first within its limit, report it, and still run the second.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>

#include "check.h"

static atomic_long spins;

static void *spin(void *unused) {
    (void)unused;
    for (;;) atomic_fetch_add(&spins, 1);
    return NULL;
}

static void hangs_spinning_and_ignoring_signals(void) {
    signal(SIGALRM, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, spin, NULL) == 0);
    spin(NULL);
}

static void passes(void) { CHECK(1 + 1 == 2); }

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(hangs_spinning_and_ignoring_signals),
        CHECK_TEST(passes),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
