/*
 * search_view.c - a C view of the search screen (libsearch.so): it renders every change it is
 * told of, types a query, starts the async search, plays the catalog service (answering a little
 * later, as a network would), selects a result, and shows what a failing command says. A
 * scripted session on a virtual loop, so its transcript is exact (search.expected).
 *
 *   cc -std=c11 search_view.c -I../../include -L"$(swift build --show-bin-path)" -lsearch -o search_view
 */
#include <stdio.h>
#include <string.h>
#include "mvvm.h"

static void print_value(const mvvm_value *v) {
    switch (v->type) {
    case MVVM_TYPE_NULL: printf("none"); break;
    case MVVM_TYPE_BOOL: printf("%s", v->boolean ? "true" : "false"); break;
    case MVVM_TYPE_INT: printf("%lld", (long long)v->integer); break;
    case MVVM_TYPE_STRING: printf("\"%s\"", v->string); break;
    case MVVM_TYPE_ARRAY:
        printf("[");
        for (int64_t i = 0; i < v->integer; i++) {
            if (i) printf(", ");
            print_value(MVVM_VALUE_ITEMS(v) + i);
        }
        printf("]");
        break;
    case MVVM_TYPE_RECORD: {
        /* A book: its fields by name, as any record's. */
        const mvvm_value *title, *author, *year;
        mvvm_record_field(v, "title", &title);
        mvvm_record_field(v, "author", &author);
        mvvm_record_field(v, "year", &year);
        printf("%s by %s", title->string, author->string);
        if (year->type == MVVM_TYPE_INT) printf(" (%lld)", (long long)year->integer);
        break;
    }
    default: printf("?");
    }
}

/* The view: every change, as it is told. */
static void render(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source; (void)user_data;
    printf("  %s: ", event->name);
    print_value(&event->value);
    printf("\n");
}

/* The catalog service: a search for `query` is answered with the books whose title holds it,
 * later (the loop's next 300 ms), or refused for "error". */
typedef struct { mvvm_handle pending; char query[64]; } catalog;

static void catalog_asked(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    (void)view_model;
    catalog *service = user_data;
    service->pending = request;
    snprintf(service->query, sizeof service->query, "%s", argument->string);
    printf("  (the catalog is asked for \"%s\")\n", argument->string);
}

static const struct { const char *title, *author; int year; } books[] = {
    { "Swift in Depth", "Tjeerd in 't Veen", 2018 },
    { "Advanced Swift", "Chris Eidhof", 0 },
    { "Thinking in SwiftUI", "Chris Eidhof", 2020 },
    { "The C Programming Language", "Kernighan and Ritchie", 1978 },
};

static void catalog_answers(catalog *service) {
    mvvm_value fields[4][6], found[4];
    int count = 0;
    for (size_t i = 0; i < sizeof books / sizeof books[0]; i++) {
        if (!strstr(books[i].title, service->query)) continue;
        /* Each book by its fields' names: the library makes records of them. */
        mvvm_value *pairs = fields[count];
        memset(pairs, 0, sizeof fields[count]);
        pairs[0].type = MVVM_TYPE_STRING; pairs[0].string = "title";
        pairs[1].type = MVVM_TYPE_STRING; pairs[1].string = books[i].title;
        pairs[2].type = MVVM_TYPE_STRING; pairs[2].string = "author";
        pairs[3].type = MVVM_TYPE_STRING; pairs[3].string = books[i].author;
        pairs[4].type = MVVM_TYPE_STRING; pairs[4].string = "year";
        if (books[i].year) { pairs[5].type = MVVM_TYPE_INT; pairs[5].integer = books[i].year; }
        else pairs[5].type = MVVM_TYPE_NULL;
        memset(&found[count], 0, sizeof found[count]);
        found[count].type = MVVM_TYPE_MAP;
        found[count].integer = 3;
        MVVM_VALUE_SET_ITEMS(&found[count], pairs);
        count++;
    }
    mvvm_value answer = {0};
    answer.type = MVVM_TYPE_ARRAY;
    answer.integer = count;
    MVVM_VALUE_SET_ITEMS(&answer, found);
    printf("  (the catalog answers with %d book%s)\n", count, count == 1 ? "" : "s");
    mvvm_complete(service->pending, &answer);
}

static void searched(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message,
                     void *user_data) {
    (void)call; (void)user_data;
    if (status == MVVM_OK) printf("  (search done: %lld found)\n", (long long)result->integer);
    else printf("  (search ended: %s: %s)\n", mvvm_status_name(status), message);
}

int main(void) {
    mvvm_handle loop, screen, service, subscription, call;
    catalog books_service = {0};
    mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop);
    mvvm_service_new(catalog_asked, &books_service, NULL, &service);
    mvvm_value over = {0};
    over.type = MVVM_TYPE_OBJECT;
    over.object = service;
    if (mvvm_new(loop, "search_view_model", &over, 1, &screen) != MVVM_OK) {
        fprintf(stderr, "search_view: %s\n", mvvm_last_error());
        return 1;
    }
    mvvm_release(service);
    mvvm_subscribe(screen, NULL, render, NULL, NULL, &subscription);

    printf("> type \"Swift\"\n");
    mvvm_set_string(screen, "query", "Swift");
    printf("> search\n");
    mvvm_call_async(screen, "search", NULL, NULL, 0, searched, NULL, NULL, &call);
    printf("> 300 ms later\n");
    mvvm_loop_advance(loop, 300);
    catalog_answers(&books_service);
    printf("> select 1\n");
    mvvm_value index = {0};
    index.type = MVVM_TYPE_INT;
    index.integer = 1;
    mvvm_call(screen, "select", &index, 1, NULL);
    printf("> select 7\n");
    index.integer = 7;
    if (mvvm_call(screen, "select", &index, 1, NULL) != MVVM_OK)
        printf("  refused: %s: %s\n", mvvm_status_name(MVVM_ERR_COMMAND_FAILED), mvvm_last_error());
    printf("> type \"C Programming\", search, and cancel\n");
    mvvm_set_string(screen, "query", "C Programming");
    mvvm_call_async(screen, "search", NULL, NULL, 0, searched, NULL, NULL, &call);
    mvvm_cancel(call);
    printf("> type \" \", search\n");
    mvvm_set_string(screen, "query", " ");
    mvvm_call_async(screen, "search", NULL, NULL, 0, searched, NULL, NULL, &call);
    mvvm_release(screen);
    mvvm_release(loop);
    return 0;
}
