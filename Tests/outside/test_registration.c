/*
 * test_registration.c - a package whose registration breaks every rule (Tests/outside's
 * BadSample, libbadsample.so): the library names every problem at once, class and member, on
 * stderr when it first registers and in the message of MVVM_ERR_BAD_REGISTRATION from every call
 * that needs its classes, and serves nothing, not even the classes of the catalog it carries.
 * LINK: -lbadsample
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <unistd.h>
#include "mvvm_catalog.h"
#include "check.h"

static const char *const problems[] = {
    "class board (Board): command title has the name of its property title",
    "class board (Board), property Sub Title!: \"Sub Title!\" is not a lower_snake C identifier",
    "class board (Board): command get_title and property title's getter would both be mvvm_board_get_title",
    "class board (Board), list cards: its items are Card, which no package registers as a class",
    "class board (Board), child child: it is a Card, which no package registers as a class",
    "class board (Board), property limit: an optional of an optional",
    "class board (Board), command show, argument class: \"class\" is not a lower_snake C identifier",
    "class board (Board), command use, argument note: it is an Unregistered, a record no package registers "
    "(Exports.record(Unregistered.self))",
    "record attendee (Attendee): field mood (a Mood) has no value to start from: make it CaseIterable, so that "
    "registration tries its first case",
    "class board (Board) is registered twice",
    "class counter_view_model (Board) is registered twice: a class or record named counter_view_model exists already (CounterViewModel of module MVVMViewModels)",
    "record tree (Tree) contains itself",
    "class loop (Board): command advance would be mvvm_loop_advance, a name of the C ABI (mvvm.h)",
    "class loop (Board): constructor new would be mvvm_loop_new, a name of the C ABI (mvvm.h)",
    "class counter_page (Board): command view_model_new would be mvvm_counter_page_view_model_new, as class "
    "counter_page_view_model (CounterPageViewModel)'s constructor new is",
};

static void every_problem_is_named_and_nothing_is_served(void) {
    /* What the library writes to stderr the first time, into a file. */
    char path[] = "/tmp/mvvm_registration_XXXXXX";
    int file = mkstemp(path);
    if (!CHECK(file >= 0)) return;
    fflush(stderr);
    int saved = dup(2);
    dup2(file, 2);
    char *json = NULL;
    mvvm_status status = mvvm_classes(&json);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    CHECK_EQ_INT(status, MVVM_ERR_BAD_REGISTRATION);
    CHECK(json == NULL);
    char written[8192] = "";
    lseek(file, 0, SEEK_SET);
    ssize_t length = read(file, written, sizeof written - 1);
    written[length > 0 ? length : 0] = '\0';
    close(file);
    unlink(path);
    const char *message = mvvm_last_error();
    CHECK(strstr(message, "the library's registration is refused (15 problems)") != NULL);
    /* The refused record's one problem is its own: what takes one is not reported again. */
    CHECK(strstr(message, "Attendee, a record no package registers") == NULL);
    for (size_t index = 0; index < sizeof problems / sizeof problems[0]; index++) {
        if (!CHECK(strstr(message, problems[index]) != NULL)) printf("      missing: %s\n", problems[index]);
        CHECK(strstr(written, problems[index]) != NULL);
    }
    /* Every call that needs the classes, the catalog's too, says so; nothing is made. */
    mvvm_handle loop = new_virtual_loop(), made = 0;
    CHECK_STATUS(mvvm_new(loop, "counter", NULL, 0, &made), MVVM_ERR_BAD_REGISTRATION);
    CHECK(strstr(mvvm_last_error(), problems[0]) != NULL);
    CHECK_STATUS(mvvm_new(loop, "board", NULL, 0, &made), MVVM_ERR_BAD_REGISTRATION);
    CHECK_STATUS(mvvm_counter_new(loop, &made), MVVM_ERR_BAD_REGISTRATION);
    CHECK_STATUS(mvvm_classes(&json), MVVM_ERR_BAD_REGISTRATION);
    CHECK_EQ_INT(made, 0);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(every_problem_is_named_and_nothing_is_served),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
