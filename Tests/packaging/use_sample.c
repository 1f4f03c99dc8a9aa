/* A C program over a user's package as `python3 -m mvvm_gen.package` ships it (Tests/outside's
 * Sample, installed from dist/sample-c): its typed calls from sample.h, the generic ABI from
 * mvvm.h. Built by Tests/packaging/test_packaging.sh with `pkg-config --cflags --libs sample`;
 * prints what it saw, which the test compares. */
#include <stdio.h>
#include <string.h>

#include "sample.h"

#define CHECK(call) do { mvvm_status status_ = (call); if (status_ != MVVM_OK) { \
    fprintf(stderr, "%s: status %d: %s\n", #call, (int)status_, mvvm_last_error()); return 1; } } while (0)

int main(void) {
    mvvm_handle loop = 0, greeter = 0, tally = 0;
    char *greeting = NULL;
    int64_t count = 0, total = 0;
    bool even = false;
    CHECK(mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop));
    CHECK(mvvm_greeter_new_with_name(loop, "Ada", &greeter));
    CHECK(mvvm_greeter_set_name(greeter, "C"));
    CHECK(mvvm_loop_advance(loop, 0));
    CHECK(mvvm_greeter_greet(greeter));
    CHECK(mvvm_greeter_get_greeting(greeter, &greeting));
    CHECK(mvvm_greeter_get_greet_count(greeter, &count));
    CHECK(mvvm_tally_new(loop, 4, &tally));
    CHECK(mvvm_tally_set_step(tally, 3));
    CHECK(mvvm_tally_add(tally));
    CHECK(mvvm_tally_add_many(tally, 2));
    CHECK(mvvm_tally_get_total(tally, &total));
    CHECK(mvvm_tally_get_is_even(tally, &even));
    printf("%s greeted %lld; total %lld, even %s; libmvvm %s\n", greeting, (long long)count, (long long)total,
           even ? "yes" : "no", mvvm_version());
    mvvm_string_free(greeting);
    CHECK(mvvm_release(tally));
    CHECK(mvvm_release(greeter));
    CHECK(mvvm_release(loop));
    return 0;
}
