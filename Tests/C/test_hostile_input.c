/*
 * test_hostile_input.c - what a host hands the library that no correct host would: a handle
 * kept after its slot's generations have all been used, forged request handles, names and
 * command arguments of 10 MB. Each is refused with a status and a short message.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

/* This program's path, so a test can run another test of it in a fresh process. */
static const char *self_path;

/* ------------------------------------------------------------------------------------------ */
/* A stale handle must not come back when its slot's generations run out                      */
/* ------------------------------------------------------------------------------------------ */

/*
 * Slots are reused last-in-first-out, so a host that keeps a released handle while it creates
 * and releases other objects sees its slot come round again and again; a slot whose generations
 * are spent is retired, so the old handle never names a new object. MVVM_TESTING_HANDLE_
 * GENERATION_BITS makes generations 2 bits wide (1, 2, 3) so that happens within a few
 * releases; the test runs itself again in a fresh process with it set, since the library reads
 * it once.
 */
static void spent_generations_retire_the_slot_in_this_process(void) {
    mvvm_handle loop = new_virtual_loop(), first = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &first), MVVM_OK);
    RELEASE(first);
    mvvm_handle seen[64];
    for (int i = 0; i < 64; i++) {
        mvvm_handle next = 0;
        CHECK_STATUS(mvvm_counter_new(loop, &next), MVVM_OK);
        seen[i] = next;
        CHECK(next != first);
        /* The old handle reaches nothing: not the new object's class, command or release. */
        const char *name = NULL;
        CHECK_STATUS(mvvm_class_name(first, &name), MVVM_ERR_INVALID_HANDLE);
        CHECK_STATUS(mvvm_send(first, "increment", NULL), MVVM_ERR_INVALID_HANDLE);
        CHECK_GET_INT(next, "count", 0);
        CHECK_STATUS(mvvm_release(first), MVVM_ERR_INVALID_HANDLE);
        for (int j = 0; j < i; j++) CHECK(seen[j] != next);
        RELEASE(next);
        CHECK_STATUS(mvvm_class_name(next, &name), MVVM_ERR_INVALID_HANDLE);
    }
    RELEASE(loop);
}

static void a_stale_handle_never_comes_back_when_generations_run_out(void) {
    if (getenv("MVVM_TESTING_HANDLE_GENERATION_BITS")) {
        spent_generations_retire_the_slot_in_this_process();
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("MVVM_TESTING_HANDLE_GENERATION_BITS", "2", 1);
        setenv("CHECK_NO_FORK", "1", 1);
        execl(self_path, self_path, "a_stale_handle_never_comes_back_when_generations_run_out", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ------------------------------------------------------------------------------------------ */
/* A forged request handle is an invalid handle; an answered one is an unknown request        */
/* ------------------------------------------------------------------------------------------ */

typedef struct asked { int calls; mvvm_handle request; } asked;

static void remember_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)vm;
    (void)argument;
    asked *a = user_data;
    a->calls++;
    a->request = request;
}

static void a_forged_request_handle_is_invalid_and_an_answered_one_unknown(void) {
    mvvm_handle loop = new_virtual_loop(), vm = 0, counter = 0;
    asked a = { 0, 0 };
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, remember_request, &a, NULL, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    mvvm_value yes = value_bool(true);
    const mvvm_handle request_tag = (mvvm_handle)4 << 56;
    /* Never issued: the request tag, a generation and slot no request had. */
    CHECK_STATUS(mvvm_complete(request_tag | ((mvvm_handle)1 << 24) | 12345, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(request_tag | 1, &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(request_tag | 0x00FFFFFFFFFFFFFFull, &yes), MVVM_ERR_INVALID_HANDLE);
    /* A live object's slot and generation under the request tag: no request was ever there. */
    CHECK_STATUS(mvvm_complete(request_tag | (counter & 0x00FFFFFFFFFFFFFFull), &yes), MVVM_ERR_INVALID_HANDLE);

    fill_sign_up(vm, "abcdef", "12345678", "12345678", true);
    CHECK_STATUS(mvvm_send(vm, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_INT(a.calls, 1);
    /* Its generation plus one in the same slot: not issued yet. */
    CHECK_STATUS(mvvm_complete(a.request + ((mvvm_handle)1 << 24), &yes), MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_OK);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
    /* Still unknown (answered) after its slot is used again by another handle. */
    mvvm_handle reuse = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &reuse), MVVM_OK);
    CHECK_STATUS(mvvm_complete(a.request, &yes), MVVM_ERR_UNKNOWN_REQUEST);
    RELEASE(reuse);
    RELEASE(counter);
    RELEASE(vm);
    RELEASE(loop);
}

/* ------------------------------------------------------------------------------------------ */
/* Long names in the last error                                                               */
/* ------------------------------------------------------------------------------------------ */

/* A 10 MB invalid name is quoted in mvvm_last_error() cut short, with its length. */
static void a_long_invalid_name_is_cut_short_in_the_last_error(void) {
    mvvm_handle loop = new_virtual_loop(), counter = 0, timer = 0, vm = 0, player = 0;
    CHECK_STATUS(mvvm_counter_new(loop, &counter), MVVM_OK);
    size_t size = 10u * 1024 * 1024;
    char *name = malloc(size + 1);
    if (!CHECK(name != NULL)) return;
    memset(name, 'n', size);
    memcpy(name, "start_of_the_name", 17);
    name[size] = '\0';
    int64_t out = 0;
    CHECK_STATUS(mvvm_get_int(counter, name, &out), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK(strstr(mvvm_last_error(), "start_of_the_name") != NULL);
    CHECK_STATUS(mvvm_send(counter, name, NULL), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    mvvm_handle subscription = 0;
    CHECK_STATUS(mvvm_subscribe(counter, name, recorder_callback, NULL, NULL, &subscription), MVVM_ERR_UNKNOWN_NAME);
    CHECK(strlen(mvvm_last_error()) < 400);
    /* A command argument that is not one of those allowed is cut the same way. */
    CHECK_STATUS(mvvm_count_down_timer_new(loop, 5, &timer), MVVM_OK);
    CHECK_STATUS(mvvm_timer_view_model_new(loop, timer, &vm), MVVM_OK);
    CHECK_STATUS(mvvm_child(vm, "player", &player), MVVM_OK);
    mvvm_value argument = value_string(name);
    CHECK_STATUS(mvvm_send(player, "tapped", &argument), MVVM_ERR_INVALID_ARGUMENT);
    CHECK(strlen(mvvm_last_error()) < 400);
    CHECK(strstr(mvvm_last_error(), "start_of_the_name") != NULL);
    free(name);
    RELEASE(player);
    RELEASE(vm);
    RELEASE(timer);
    RELEASE(counter);
    RELEASE(loop);
}

/* mvvm_value_copy of a container whose count is past the limit, up to INT64_MAX (a map's pairs
 * once overflowed the item count, a trap): INVALID_ARGUMENT, the copy untouched. */
static void a_copy_of_a_container_with_a_huge_count_is_refused(void) {
    mvvm_value items[2] = { { .type = MVVM_TYPE_STRING, .string = "a" }, { .type = MVVM_TYPE_INT, .integer = 1 } };
    const mvvm_type kinds[] = { MVVM_TYPE_MAP, MVVM_TYPE_ARRAY, MVVM_TYPE_RECORD };
    const int64_t counts[] = { INT64_MAX, INT64_MAX / 2 + 1, ((int64_t)1 << 24) + 1, -1, INT64_MIN };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            mvvm_value huge = { .type = kinds[k], .integer = counts[c] };
            MVVM_VALUE_SET_ITEMS(&huge, items);
            mvvm_value copy = { .type = MVVM_TYPE_BOOL, .boolean = true };
            CHECK_STATUS(mvvm_value_copy(&huge, &copy), MVVM_ERR_INVALID_ARGUMENT);
            CHECK(copy.type == MVVM_TYPE_BOOL && copy.boolean);
        }
    }
}

int main(int argc, char **argv) {
    self_path = argv[0];
    static const check_test tests[] = {
        CHECK_TEST(a_stale_handle_never_comes_back_when_generations_run_out),
        CHECK_TEST(a_forged_request_handle_is_invalid_and_an_answered_one_unknown),
        CHECK_TEST(a_long_invalid_name_is_cut_short_in_the_last_error),
        CHECK_TEST(a_copy_of_a_container_with_a_huge_count_is_refused),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
