/*
 * test_release_from_host_code.c - an object released from inside host code the library is
 * running for it: from one of its own destroy functions, and from its own host service while
 * the service is asked. The handle is invalid at once, each destroy function runs once, and
 * nothing leaks.
 */
#define _POSIX_C_SOURCE 200809L
#include "mvvm_catalog.h"
#include "check.h"

/* Resident memory in MiB, from /proc/self/statm. */
static double rss_mib(void) {
    long pages = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
        fclose(f);
    }
    return resident < 0 ? -1 : (double)resident * (double)sysconf(_SC_PAGESIZE) / (1024.0 * 1024.0);
}

/* Whether RSS says anything about leaks here: not under valgrind (its free-list holds freed
 * blocks; its own leak check covers this run) nor a sanitizer (the same with ASan's quarantine;
 * LeakSanitizer checks at exit instead). */
static bool rss_tells_leaks(void) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#endif
    const char *preload = getenv("LD_PRELOAD");
    return !(preload && strstr(preload, "vgpreload"));
}

static void release_the_view_model(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument,
                                   void *user_data) {
    (void)request;
    (void)argument;
    int *calls = user_data;
    (*calls)++;
    mvvm_release(view_model);
}

static int welcome_destroyed;

static void count_welcome_destroy(void *user_data) {
    (void)user_data;
    welcome_destroyed++;
}

/*
 * A welcome view model whose host API releases it from inside the request (mvvm_release may be
 * called from any callback): the release comes while the view model's flatMap holds the load
 * whose inner publisher (the request's Future) it has not subscribed to yet. The released
 * object's chains are let go of when the loop's outermost work ends, so nothing stays behind:
 * RSS must stay flat over thousands of such screens (and under Tests/sanitize.sh address,
 * LeakSanitizer must find nothing at exit). The fuzzer's seed
 * Tests/fuzz/corpus/service_releases_its_view_model_during_send drives the same case.
 */
static void a_view_model_released_by_its_own_service_leaks_nothing(void) {
    mvvm_handle loop = new_virtual_loop();
    int calls = 0;
    welcome_destroyed = 0;
    /* Under valgrind or a sanitizer, their leak check finds even one leaked screen: fewer will do. */
    const bool by_rss = rss_tells_leaks();
    const int warm_up = by_rss ? 1000 : 20, measured = by_rss ? 5000 : 100;
    for (int i = 0; i < warm_up; i++) {
        mvvm_handle vm = 0;
        CHECK_STATUS(mvvm_welcome_view_model_new_with_api(loop, release_the_view_model, &calls, count_welcome_destroy, &vm),
                     MVVM_OK);
        CHECK_STATUS(mvvm_send(vm, "view_did_load", NULL), MVVM_OK);
    }
    double before = rss_mib();
    for (int i = 0; i < measured; i++) {
        mvvm_handle vm = 0;
        CHECK_STATUS(mvvm_welcome_view_model_new_with_api(loop, release_the_view_model, &calls, count_welcome_destroy, &vm),
                     MVVM_OK);
        CHECK_STATUS(mvvm_send(vm, "view_did_load", NULL), MVVM_OK);
        if (i == 0) CHECK_STATUS(mvvm_release(vm), MVVM_ERR_INVALID_HANDLE); /* released by its service */
    }
    double after = rss_mib();
    CHECK_EQ_INT(calls, warm_up + measured);
    CHECK_EQ_INT(welcome_destroyed, warm_up + measured); /* each service's destroy function ran once */
    if (by_rss) {
        printf("    RSS %.1f MiB -> %.1f MiB over %d screens\n", before, after, measured);
        CHECK(after - before < 2.0);
    }
    /* The same with sign-up, whose flatMap ends in assign(to:): */
    mvvm_handle form = 0;
    int form_calls = 0;
    CHECK_STATUS(mvvm_sign_up_view_model_new_with_service(loop, release_the_view_model, &form_calls, NULL, &form), MVVM_OK);
    fill_sign_up(form, "abcdef", "password1", "password1", true); /* valid: a tap asks the service */
    CHECK_STATUS(mvvm_send(form, "sign_up_tapped", NULL), MVVM_OK);
    CHECK_EQ_INT(form_calls, 1);
    CHECK_STATUS(mvvm_release(form), MVVM_ERR_INVALID_HANDLE);
    RELEASE(loop);
}

typedef struct self_release { mvvm_handle object; mvvm_status status; int runs; } self_release;

static void ignore_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    (void)event;
    (void)user_data;
}

static void release_the_object_again(void *user_data) {
    self_release *s = user_data;
    s->runs++;
    s->status = mvvm_release(s->object);
}

/* Releasing an object inside its own destroy_fn: the handle is already invalid, the destroy
 * function runs once, and only the outer release says OK. */
static void releasing_an_object_inside_its_own_destroy_fn_is_an_invalid_handle(void) {
    mvvm_handle loop = new_virtual_loop(), subscription = 0;
    self_release s = { 0, MVVM_OK, 0 };
    CHECK_STATUS(mvvm_counter_new(loop, &s.object), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(s.object, "count", ignore_event, &s, release_the_object_again, &subscription),
                 MVVM_OK);
    RELEASE(s.object);
    CHECK_EQ_INT(s.runs, 1);
    CHECK_STATUS(s.status, MVVM_ERR_INVALID_HANDLE);
    CHECK_STATUS(mvvm_release(s.object), MVVM_ERR_INVALID_HANDLE);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(releasing_an_object_inside_its_own_destroy_fn_is_an_invalid_handle),
        CHECK_TEST(a_view_model_released_by_its_own_service_leaks_nothing),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
