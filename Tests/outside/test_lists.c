/*
 * test_lists.c - lists of child view models through the generic ABI, on Tests/outside's
 * Playlist (an ObservableObject with @Published [Song]) and Board (an @Observable class holding
 * [Tally]): counts, items, identities, and changes as splices that rebuild the host's copy.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#define MAX_ITEMS 64

/* The host's copy of one list, kept only from splices (and item reads during them). */
typedef struct mirror {
    const char *list;
    int64_t ids[MAX_ITEMS];
    int count, splices, events_other;
    int64_t last_index, last_removed, last_inserted;
    bool broken;
} mirror;

static int64_t item_id(mvvm_handle owner, const char *list, int64_t index) {
    mvvm_handle item = 0;
    int64_t id = -1;
    if (mvvm_list_item(owner, list, index, &item) != MVVM_OK) return -1;
    if (mvvm_object_id(item, &id) != MVVM_OK) id = -2;
    mvvm_release(item);
    return id;
}

static void mirror_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    mirror *m = user_data;
    if (event->kind != MVVM_EVENT_SPLICE || strcmp(event->name, m->list) != 0) {
        m->events_other++;
        return;
    }
    m->splices++;
    m->last_index = event->index, m->last_removed = event->removed, m->last_inserted = event->inserted;
    int64_t at = event->index, removed = event->removed, inserted = event->inserted;
    if (at < 0 || removed < 0 || inserted < 0 || at + removed > m->count || m->count - removed + inserted > MAX_ITEMS) {
        m->broken = true;
        return;
    }
    memmove(&m->ids[at + inserted], &m->ids[at + removed], (size_t)(m->count - at - removed) * sizeof m->ids[0]);
    /* Inserted items are already at their final indices: read them now. */
    for (int64_t k = 0; k < inserted; k++) m->ids[at + k] = item_id(source, m->list, at + k);
    m->count = (int)(m->count - removed + inserted);
}

/* The mirror equals the list read back now. */
static bool mirror_matches(mvvm_handle owner, mirror *m) {
    int64_t count = -1;
    if (!CHECK_STATUS(mvvm_list_count(owner, m->list, &count), MVVM_OK)) return false;
    bool same = !m->broken && count == m->count;
    for (int64_t i = 0; same && i < count; i++) same = item_id(owner, m->list, i) == m->ids[i];
    if (!CHECK(same)) printf("    mirror of %s: %d items%s, list has %" PRId64 "\n", m->list, m->count,
                             m->broken ? " (broken)" : "", count);
    return same;
}

static mvvm_value text(const char *s) { return value_string(s); }

static void a_list_reads_its_items_and_their_identities(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, first = 0, again = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    int64_t count = -1;
    CHECK_STATUS(mvvm_list_count(playlist, "songs", &count), MVVM_OK);
    CHECK_EQ_INT(count, 0);
    mvvm_value titles = text("b,a,c");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    CHECK_STATUS(mvvm_list_count(playlist, "songs", &count), MVVM_OK);
    CHECK_EQ_INT(count, 3);
    CHECK_STATUS(mvvm_list_item(playlist, "songs", 0, &first), MVVM_OK);
    CHECK_GET_STRING(first, "title", "b");
    const char *name = NULL;
    CHECK_STATUS(mvvm_class_name(first, &name), MVVM_OK);
    CHECK_EQ_STR(name, "song");
    /* A new handle each time, one identity. */
    CHECK_STATUS(mvvm_list_item(playlist, "songs", 0, &again), MVVM_OK);
    CHECK(again != first);
    int64_t a = -1, b = -2, other = -3;
    CHECK_STATUS(mvvm_object_id(first, &a), MVVM_OK);
    CHECK_STATUS(mvvm_object_id(again, &b), MVVM_OK);
    CHECK_EQ_INT(a, b);
    other = item_id(playlist, "songs", 1);
    CHECK(other != a && other > 0);
    /* An item is an object like any other; it outlives its place in the list. */
    CHECK_STATUS(mvvm_set_string(first, "title", "z"), MVVM_OK);
    CHECK_STATUS(mvvm_send(playlist, "remove_first", NULL), MVVM_OK);
    CHECK_GET_STRING(first, "title", "z");
    /* Errors. */
    mvvm_handle out = 5;
    CHECK_STATUS(mvvm_list_item(playlist, "songs", 2, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(mvvm_list_item(playlist, "songs", -1, &out), MVVM_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(out, 5);
    CHECK_STATUS(mvvm_list_count(playlist, "filter", &count), MVVM_ERR_TYPE_MISMATCH);
    CHECK_STATUS(mvvm_list_count(playlist, "nothing", &count), MVVM_ERR_UNKNOWN_NAME);
    CHECK_STATUS(mvvm_list_count(playlist, NULL, &count), MVVM_ERR_NULL_POINTER);
    CHECK_STATUS(mvvm_list_count(playlist, "songs", NULL), MVVM_ERR_NULL_POINTER);
    CHECK_STATUS(mvvm_object_id(loop, &a), MVVM_ERR_WRONG_TYPE);
    CHECK_STATUS(mvvm_object_id(playlist, NULL), MVVM_ERR_NULL_POINTER);
    bool flag = false;
    CHECK_STATUS(mvvm_get_bool(playlist, "songs", &flag), MVVM_ERR_TYPE_MISMATCH);
    /* Descriptions say what the items are. */
    char *json = NULL;
    CHECK_STATUS(mvvm_describe(playlist, &json), MVVM_OK);
    CHECK(json && strstr(json, "\"name\": \"songs\", \"type\": \"list\", \"access\": \"ro\"") != NULL);
    CHECK(json && strstr(json, "\"item_class\": \"song\"") != NULL);
    mvvm_string_free(json);
    CHECK_STATUS(mvvm_release(first), MVVM_OK);
    CHECK_STATUS(mvvm_release(again), MVVM_OK);
    CHECK_STATUS(mvvm_release(playlist), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

static void splices_rebuild_the_hosts_copy_with_the_fewest_changes(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, sub = 0, all_sub = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    mirror m = { .list = "songs" }, all = { .list = "all" };
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", mirror_callback, &m, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(playlist, "all", mirror_callback, &all, NULL, &all_sub), MVVM_OK);

    mvvm_value titles = text("ab,b,ac,ad,c,ae");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    CHECK_EQ_INT(m.splices, 1); /* six songs arrive as one splice */
    CHECK_EQ_INT(m.last_index, 0);
    CHECK_EQ_INT(m.last_inserted, 6);
    mirror_matches(playlist, &m);

    /* A filter hides b and c: two separate runs, two splices, not a reset. */
    m.splices = 0;
    CHECK_STATUS(mvvm_set_string(playlist, "filter", "a"), MVVM_OK);
    CHECK_EQ_INT(m.splices, 2);
    mirror_matches(playlist, &m);
    CHECK_EQ_INT(all.splices, 1); /* unchanged since the add */

    /* Back to all: they come back where they were. */
    m.splices = 0;
    CHECK_STATUS(mvvm_set_string(playlist, "filter", ""), MVVM_OK);
    CHECK_EQ_INT(m.splices, 2);
    mirror_matches(playlist, &m);

    /* A rotation is one item moved: one removal and one insertion, as two splices at most. */
    m.splices = 0;
    CHECK_STATUS(mvvm_send(playlist, "rotate", NULL), MVVM_OK);
    CHECK(m.splices >= 1 && m.splices <= 2);
    mirror_matches(playlist, &m);
    int64_t moved_id = m.ids[0];
    CHECK_EQ_INT(item_id(playlist, "songs", 0), moved_id);

    /* Reordering and sorting: whatever the splices, they rebuild the list. */
    CHECK_STATUS(mvvm_send(playlist, "reverse", NULL), MVVM_OK);
    mirror_matches(playlist, &m);
    CHECK_STATUS(mvvm_send(playlist, "sort_by_title", NULL), MVVM_OK);
    mirror_matches(playlist, &m);
    CHECK_STATUS(mvvm_send(playlist, "remove_first", NULL), MVVM_OK);
    mirror_matches(playlist, &m);
    mirror_matches(playlist, &all);

    /* A change that leaves the list as it was announces nothing. */
    m.splices = 0;
    CHECK_STATUS(mvvm_set_string(playlist, "filter", "zzz"), MVVM_OK);
    CHECK_STATUS(mvvm_set_string(playlist, "filter", "zzz"), MVVM_OK);
    CHECK_EQ_INT(m.splices, 1);
    CHECK_EQ_INT(m.count, 0);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
    CHECK_STATUS(mvvm_release(playlist), MVVM_OK);
}

/* Subscribed to songs: the first time it hears a splice, adds another song from the callback. */
typedef struct adder {
    mirror m;
    int adds;
} adder;

static void adding_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    adder *a = user_data;
    mirror_callback(source, event, &a->m);
    if (event->kind == MVVM_EVENT_SPLICE && a->adds++ == 0) {
        mvvm_value title = text("added in a callback");
        mvvm_send(source, "add", &title);
    }
}

static void a_change_made_during_a_splice_reaches_every_subscriber_after_it(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, s1 = 0, s2 = 0, s3 = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    adder first = { .m = { .list = "songs" } };
    mirror second = { .list = "songs" }, third = { .list = "songs" };
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", adding_callback, &first, NULL, &s1), MVVM_OK);
    CHECK_STATUS(mvvm_subscribe(playlist, NULL, mirror_callback, &second, NULL, &s2), MVVM_OK);
    mvvm_value titles = text("x,y");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    /* Each subscriber had the first splice, then the one the callback caused; all agree. */
    CHECK_EQ_INT(first.m.splices, 2);
    CHECK_EQ_INT(second.splices, 2);
    mirror_matches(playlist, &first.m);
    mirror_matches(playlist, &second);
    CHECK_EQ_INT(first.m.count, 3);
    /* A subscriber added now hears the next change only. */
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", mirror_callback, &third, NULL, &s3), MVVM_OK);
    CHECK_EQ_INT(third.splices, 0);
    CHECK_STATUS(mvvm_send(playlist, "remove_first", NULL), MVVM_OK);
    CHECK_EQ_INT(third.splices, 1);
    CHECK_EQ_INT(third.last_index, 0);
    CHECK_EQ_INT(third.last_removed, 1);
    CHECK_STATUS(mvvm_release(playlist), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

static void an_observable_owner_announces_its_list_too(void) {
    mvvm_handle loop = new_virtual_loop(), board = 0, sub = 0, tally = 0;
    CHECK_STATUS(mvvm_new(loop, "board", NULL, 0, &board), MVVM_OK);
    mirror m = { .list = "tallies" };
    CHECK_STATUS(mvvm_subscribe(board, "tallies", mirror_callback, &m, NULL, &sub), MVVM_OK);
    for (int i = 0; i < 6; i++) {
        mvvm_value start = value_int(i);
        CHECK_STATUS(mvvm_send(board, "add", &start), MVVM_OK);
    }
    CHECK_EQ_INT(m.splices, 6);
    mirror_matches(board, &m);
    /* An item changed through its own handle changes what a later command does. */
    CHECK_STATUS(mvvm_list_item(board, "tallies", 0, &tally), MVVM_OK);
    CHECK_STATUS(mvvm_send(tally, "add", NULL), MVVM_OK); /* 0 -> 1: odd */
    m.splices = 0;
    CHECK_STATUS(mvvm_send(board, "remove_odd", NULL), MVVM_OK); /* removes 1 (was 0), 1, 3, 5 */
    CHECK_EQ_INT(m.count, 2);
    CHECK_EQ_INT(m.splices, 3); /* runs: [0,1], [3], [5] */
    mirror_matches(board, &m);
    CHECK_STATUS(mvvm_send(board, "reverse", NULL), MVVM_OK);
    mirror_matches(board, &m);
    CHECK_GET_INT(tally, "total", 1); /* removed from the list, alive through its handle */
    char *snapshot = NULL;
    CHECK_STATUS(mvvm_snapshot(board, &snapshot), MVVM_OK);
    CHECK(snapshot && strstr(snapshot, "\"tallies\": [") != NULL);
    mvvm_string_free(snapshot);
    CHECK_STATUS(mvvm_release(tally), MVVM_OK);
    CHECK_STATUS(mvvm_release(board), MVVM_OK);
    CHECK_STATUS(mvvm_release(loop), MVVM_OK);
}

/* A splice callback that adds a song on each splice it hears: a feedback loop through the list. */
typedef struct { int added, refused; } feedback;

static void feeding_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    feedback *f = user_data;
    if (event->kind != MVVM_EVENT_SPLICE) return;
    mvvm_value title = text("again");
    mvvm_status status = mvvm_send(source, "add", &title);
    if (status == MVVM_OK) f->added++;
    else if (status == MVVM_ERR_INVALID_ARGUMENT) f->refused++;
}

/* Each addition is delivered after the splice that caused it, one level deeper than that
 * splice's callback: the loop ends at the nesting limit with an error status, as it does
 * through a value property, and never runs on. */
static void a_feedback_loop_through_splices_ends_at_the_nesting_limit(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, sub = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    feedback f = {0, 0};
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", feeding_callback, &f, NULL, &sub), MVVM_OK);
    mvvm_value first = text("first");
    CHECK_STATUS(mvvm_send(playlist, "add", &first), MVVM_OK);
    CHECK_EQ_INT(f.refused, 1);
    CHECK_EQ_INT(f.added, MVVM_MAX_NESTED_CALLS - 1);
    RELEASE(playlist);
    RELEASE(loop);
}

/* A subscriber made during the first splice of a three-splice change. */
typedef struct { mirror first, late; mvvm_handle late_subscription; } late_pair;

static void subscribing_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    late_pair *p = user_data;
    mirror_callback(source, event, &p->first);
    if (event->kind == MVVM_EVENT_SPLICE && p->first.splices == 1)
        mvvm_subscribe(source, "songs", mirror_callback, &p->late, NULL, &p->late_subscription);
}

/* A subscription made while a change's splices are delivered hears the next change, not the
 * rest of this one. */
static void a_subscription_made_during_a_splice_hears_the_next_change(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, sub = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    mvvm_value titles = text("a,b,c,d,e,f");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    late_pair p = { .first = { .list = "songs" }, .late = { .list = "songs" } };
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", subscribing_callback, &p, NULL, &sub), MVVM_OK);
    /* A reverse: one song keeps its place, the others go and come back around it, two splices. */
    p.first.count = 6;
    for (int i = 0; i < 6; i++) p.first.ids[i] = item_id(playlist, "songs", i);
    CHECK_STATUS(mvvm_send(playlist, "reverse", NULL), MVVM_OK);
    CHECK(p.first.splices >= 2);
    CHECK_EQ_INT(p.late.splices, 0);
    mirror_matches(playlist, &p.first);
    /* The next change it hears, whole. */
    p.late.count = 6;
    for (int i = 0; i < 6; i++) p.late.ids[i] = item_id(playlist, "songs", i);
    CHECK_STATUS(mvvm_send(playlist, "remove_first", NULL), MVVM_OK);
    CHECK_EQ_INT(p.late.splices, 1);
    mirror_matches(playlist, &p.late);
    RELEASE(playlist);
    RELEASE(loop);
}

/* During each splice, reads see the list as that splice leaves it, even after a callback changed
 * the list during an earlier splice of the same change (its change comes after). */
typedef struct { mirror m; int changed; } nested_reader;

static void nesting_reader(mvvm_handle source, const mvvm_event *event, void *user_data) {
    nested_reader *r = user_data;
    /* Moves the last song to the front: every index after it shifts in the list as it is. */
    if (event->kind == MVVM_EVENT_SPLICE && r->changed++ == 0) mvvm_send(source, "rotate", NULL);
    /* The mirror reads the inserted items now: they must be this splice's. */
    mirror_callback(source, event, &r->m);
}

static void reads_during_a_splice_see_the_list_as_that_splice_leaves_it(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, sub = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    mvvm_value titles = text("a,b,c,d,e,f");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    nested_reader r = { .m = { .list = "songs" } };
    r.m.count = 6;
    for (int i = 0; i < 6; i++) r.m.ids[i] = item_id(playlist, "songs", i);
    CHECK_STATUS(mvvm_subscribe(playlist, "songs", nesting_reader, &r, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_send(playlist, "reverse", NULL), MVVM_OK);
    /* The reverse's splices, then the nested rotation's: the mirror, built from reads during
     * each, is the list. */
    CHECK(r.m.splices >= 3);
    mirror_matches(playlist, &r.m);
    RELEASE(playlist);
    RELEASE(loop);
}

/* One operation, one consistent state: while songs' splices are delivered, all (changed by the
 * same operation, its splices not delivered yet) reads as before the operation, and each of its
 * own splices, when delivered, finds the host's copy of it as that state. */
typedef struct {
    mirror songs, all;
    int64_t before[3];
    int reads, as_before;
} cross_reader;

static void cross_reading_callback(mvvm_handle source, const mvvm_event *event, void *user_data) {
    cross_reader *r = user_data;
    if (event->kind != MVVM_EVENT_SPLICE) return;
    if (strcmp(event->name, "songs") == 0) {
        mirror_callback(source, event, &r->songs);
        int64_t count = -1;
        r->reads++;
        if (mvvm_list_count(source, "all", &count) != MVVM_OK || count != 3) {
            printf("    all has %" PRId64 " items during a splice of songs\n", count);
            return;
        }
        bool same = true;
        for (int64_t i = 0; i < 3; i++) same = same && item_id(source, "all", i) == r->before[i];
        if (same) r->as_before++;
    } else {
        mirror_callback(source, event, &r->all);
    }
}

static void reads_of_another_list_during_splices_see_it_before_its_own_splices(void) {
    mvvm_handle loop = new_virtual_loop(), playlist = 0, sub = 0;
    CHECK_STATUS(mvvm_new(loop, "playlist", NULL, 0, &playlist), MVVM_OK);
    mvvm_value titles = text("a,b,c");
    CHECK_STATUS(mvvm_send(playlist, "add_many", &titles), MVVM_OK);
    cross_reader r = { .songs = { .list = "songs", .count = 3 }, .all = { .list = "all", .count = 3 } };
    for (int i = 0; i < 3; i++) {
        r.before[i] = item_id(playlist, "all", i);
        r.songs.ids[i] = item_id(playlist, "songs", i);
        r.all.ids[i] = r.before[i];
    }
    CHECK_STATUS(mvvm_subscribe(playlist, NULL, cross_reading_callback, &r, NULL, &sub), MVVM_OK);
    CHECK_STATUS(mvvm_send(playlist, "reverse", NULL), MVVM_OK);
    CHECK(r.reads >= 1);
    CHECK_EQ_INT(r.as_before, r.reads);
    CHECK(r.all.splices >= 1);
    mirror_matches(playlist, &r.songs);
    mirror_matches(playlist, &r.all);
    RELEASE(playlist);
    RELEASE(loop);
}

int main(int argc, char **argv) {
    static const check_test tests[] = {
        CHECK_TEST(a_list_reads_its_items_and_their_identities),
        CHECK_TEST(splices_rebuild_the_hosts_copy_with_the_fewest_changes),
        CHECK_TEST(a_change_made_during_a_splice_reaches_every_subscriber_after_it),
        CHECK_TEST(an_observable_owner_announces_its_list_too),
        CHECK_TEST(a_feedback_loop_through_splices_ends_at_the_nesting_limit),
        CHECK_TEST(a_subscription_made_during_a_splice_hears_the_next_change),
        CHECK_TEST(reads_during_a_splice_see_the_list_as_that_splice_leaves_it),
        CHECK_TEST(reads_of_another_list_during_splices_see_it_before_its_own_splices),
    };
    return check_main(argc, argv, tests, sizeof tests / sizeof tests[0]);
}
