/*
 * mvvm_node.c: the Node-API addon of libmvvm, over include/mvvm.h alone.
 *
 * A thin layer: it opens libraries (dlopen, RTLD_LOCAL, so that several load side by side), turns
 * JavaScript values into mvvm_value trees and back, and carries callbacks to the JavaScript thread.
 * Everything a class is made of (names, types, records) lives in the JavaScript module
 * (index.js), which renders the library's description; this file knows no class.
 *
 * Threads: a callback the library makes on the JavaScript thread (during a call from JavaScript:
 * a setter, a dispatch, an advance, a release) calls JavaScript at once; one made on another
 * thread (a thread loop's) is copied and posted through one thread-safe function, whose queue
 * keeps the order the library made them in. A subscription, call or service is a `target`
 * counted by reference, so that an event still queued when it ends finds it, and is dropped.
 *
 * Handles cross to JavaScript as bigints; a library as its small integer id.
 */
#ifndef NAPI_VERSION
#define NAPI_VERSION 9
#endif
#include <node_api.h>
#include <uv.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mvvm.h"

/* ---------------------------------------------------------------------------------------------- */
/* Libraries                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

#define MVVM_FUNCTIONS(X)                                                                                  \
    X(mvvm_version) X(mvvm_last_error) X(mvvm_status_name) X(mvvm_string_free) X(mvvm_value_free)           \
    X(mvvm_value_copy) X(mvvm_loop_new) X(mvvm_loop_fd) X(mvvm_loop_dispatch) X(mvvm_loop_next_timeout_ms)  \
    X(mvvm_loop_advance) X(mvvm_loop_now_ms) X(mvvm_get) X(mvvm_set) X(mvvm_call_async) X(mvvm_cancel)      \
    X(mvvm_call_named) X(mvvm_child) X(mvvm_class_name) X(mvvm_describe) X(mvvm_snapshot) X(mvvm_release)   \
    X(mvvm_subscribe) X(mvvm_unsubscribe) X(mvvm_complete) X(mvvm_classes) X(mvvm_new_named)                \
    X(mvvm_service_new) X(mvvm_list_count) X(mvvm_list_item) X(mvvm_object_id)

/* Each function pointer has the header's own type: the header stays the one declaration. */
typedef struct library {
    void *dl;
#define MVVM_MEMBER(name) __typeof__(name) *name;
    MVVM_FUNCTIONS(MVVM_MEMBER)
#undef MVVM_MEMBER
} library;

#define MAX_LIBRARIES 256
/* Libraries are never closed (a callback may still point into one), so ids stay valid. */
static library *libraries[MAX_LIBRARIES];
static int library_count;
static pthread_mutex_t libraries_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---------------------------------------------------------------------------------------------- */
/* Per-environment state                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct addon {
    napi_env env;
    pthread_t thread;          /* the JavaScript thread */
    napi_ref make_error;       /* (status, statusName, message) -> Error */
    napi_ref make_record;      /* (libraryId, name, fields[]) -> frozen object */
    napi_threadsafe_function tsfn;
    int keep_alive;            /* thread loops alive: the tsfn keeps Node running while > 0 */
    bool dead;                 /* the environment is gone: nothing reaches JavaScript any more */
    /* Callbacks made on other threads, in the order the library made them, under post_lock. They
     * are delivered in that order on the JavaScript thread: when the thread-safe function wakes it,
     * and before any callback made there, so that a thread loop's older change never arrives after
     * a newer one made by a call from JavaScript. */
    struct message *queue_head, *queue_tail;
    bool wake_pending;
    struct watch *watches;     /* the fds watched in this environment's libuv loop */
    /* The loops made in this environment, released when it is torn down (a Worker that ends):
     * their threads stop and their objects' callbacks end. Released ones are swept as it grows. */
    struct made_loop {
        library *lib;
        mvvm_handle handle;
    } *loops;
    size_t loop_count, loop_capacity;
} addon;

/* Posting (another thread) and the environment's teardown (the JavaScript thread) take turns: a
 * post after the teardown is dropped rather than touch a thread-safe function Node has freed. */
static pthread_mutex_t post_lock = PTHREAD_MUTEX_INITIALIZER;

/* The `code` of every error the addon throws (errors carry one, as Node's own do): the status a
 * refusal stands for, or the module's own code for a library that cannot be loaded. */
#define CODE_INVALID_ARGUMENT "MVVM_ERR_INVALID_ARGUMENT"
#define CODE_INTERNAL "MVVM_ERR_INTERNAL"
#define CODE_LOAD "MVVM_ERR_LOAD"

static const napi_type_tag handle_tag = {0x6d76766d6e6f6465ULL, 0x68616e646c650001ULL};
static const napi_type_tag watch_tag = {0x6d76766d6e6f6465ULL, 0x7761746368000001ULL};

#define CHECK(env, call)                                                                            \
    do {                                                                                            \
        if ((call) != napi_ok) {                                                                    \
            napi_failed((env), #call);                                                              \
            return NULL;                                                                            \
        }                                                                                           \
    } while (0)

/* A failed Node-API call throws an Error naming it, unless an exception is pending already. */
static void napi_failed(napi_env env, const char *what) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
    const napi_extended_error_info *info = NULL;
    char text[512];
    if (napi_get_last_error_info(env, &info) != napi_ok) info = NULL;
    snprintf(text, sizeof text, "mvvm addon: %s failed: %s", what,
             info && info->error_message ? info->error_message : "unknown error");
    napi_throw_error(env, CODE_INTERNAL, text);
}

/* Where no JavaScript called (a callback of the library, a libuv callback) an exception has no
 * caller to go to: it becomes the process's uncaught exception, as an I/O callback's would. */
static void report_pending(napi_env env) {
    bool pending = false;
    napi_value error;
    /* A Worker being terminated has its termination pending, which no one needs to hear of:
     * napi_fatal_exception refuses it, and that refusal is let be. */
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
        napi_get_and_clear_last_exception(env, &error) == napi_ok)
        (void)napi_fatal_exception(env, error);
}

/* A Node-API call whose failure leaves nothing to undo (closing a scope, deleting a reference):
 * said on stderr, since there is no caller to throw to. */
static void quietly(napi_status status, const char *what) {
    if (status != napi_ok) fprintf(stderr, "mvvm addon: %s failed (napi_status %d)\n", what, (int)status);
}

static addon *get_addon(napi_env env) {
    addon *a = NULL;
    if (napi_get_instance_data(env, (void **)&a) != napi_ok) return NULL;
    return a;
}

static bool on_js_thread(addon *a) { return a && !a->dead && pthread_equal(pthread_self(), a->thread); }

/* Throws the JavaScript module's error class for a status, with a message. */
static void throw_error(napi_env env, mvvm_status status, const char *name, const char *message) {
    addon *a = get_addon(env);
    napi_value fn, args[3], error;
    if (!a || !a->make_error || napi_get_reference_value(env, a->make_error, &fn) != napi_ok ||
        napi_create_int32(env, (int32_t)status, &args[0]) != napi_ok ||
        napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &args[1]) != napi_ok ||
        napi_create_string_utf8(env, message ? message : "", NAPI_AUTO_LENGTH, &args[2]) != napi_ok) {
        napi_throw_error(env, name, message);
        return;
    }
    napi_value global;
    if (napi_get_global(env, &global) != napi_ok || napi_call_function(env, global, fn, 3, args, &error) != napi_ok) {
        napi_failed(env, "making an error");
        return;
    }
    if (napi_throw(env, error) != napi_ok) napi_throw_error(env, name, message);
}

/* Throws the error of a failed library call, with the library's message (read on this thread
 * right after the call). */
static void throw_status(napi_env env, const library *lib, mvvm_status status) {
    throw_error(env, status, lib->mvvm_status_name(status), lib->mvvm_last_error());
}

/* A JavaScript string may hold a lone surrogate (half of a UTF-16 pair), which Node-API turns into
 * U+FFFD when it writes UTF-8: such a string is refused as the library refuses invalid UTF-8
 * (MVVM_ERR_INVALID_ARGUMENT), never passed on changed. Only a string whose UTF-8 holds U+FFFD
 * (EF BF BD) can be one, and only that one is read again as UTF-16. False when refused (thrown). */
static bool well_formed(napi_env env, napi_value v, const char *utf8, size_t length, const char *what) {
    bool replaced = false;
    for (size_t i = 0; i + 2 < length && !replaced; i++)
        replaced = (unsigned char)utf8[i] == 0xEF && (unsigned char)utf8[i + 1] == 0xBF && (unsigned char)utf8[i + 2] == 0xBD;
    if (!replaced) return true;
    size_t units;
    if (napi_get_value_string_utf16(env, v, NULL, 0, &units) != napi_ok) return false;
    char16_t *text = malloc((units + 1) * sizeof *text);
    if (!text) {
        napi_throw_error(env, CODE_INTERNAL, "out of memory");
        return false;
    }
    if (napi_get_value_string_utf16(env, v, text, units + 1, &units) != napi_ok) {
        free(text);
        return false;
    }
    size_t at = 0;
    for (; at < units; at++) {
        bool high = text[at] >= 0xD800 && text[at] <= 0xDBFF, low = text[at] >= 0xDC00 && text[at] <= 0xDFFF;
        if (high && at + 1 < units && text[at + 1] >= 0xDC00 && text[at + 1] <= 0xDFFF) at++;
        else if (high || low) break;
    }
    if (at == units) {
        free(text);
        return true;
    }
    char message[240];
    snprintf(message, sizeof message, "%s holds a lone surrogate (U+%04X at index %zu), which is no Unicode text", what,
             (unsigned)text[at], at);
    free(text);
    throw_error(env, MVVM_ERR_INVALID_ARGUMENT, "MVVM_ERR_INVALID_ARGUMENT", message);
    return false;
}

/* ---------------------------------------------------------------------------------------------- */
/* Arguments                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static bool arg_int(napi_env env, napi_value v, const char *what, int64_t *out) {
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok) return false;
    if (t == napi_bigint) {
        bool lossless;
        if (napi_get_value_bigint_int64(env, v, out, &lossless) != napi_ok) return false;
        if (!lossless) {
            napi_throw_range_error(env, CODE_INVALID_ARGUMENT, what);
            return false;
        }
        return true;
    }
    if (t != napi_number) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, what);
        return false;
    }
    double d;
    if (napi_get_value_double(env, v, &d) != napi_ok) return false;
    if (d != d || d < -9007199254740992.0 || d > 9007199254740992.0 || (double)(int64_t)d != d) {
        napi_throw_range_error(env, CODE_INVALID_ARGUMENT, what);
        return false;
    }
    *out = (int64_t)d;
    return true;
}

static bool arg_library(napi_env env, napi_value v, library **out) {
    int64_t id;
    if (!arg_int(env, v, "a library id", &id)) return false;
    if (id < 0 || id >= __atomic_load_n(&library_count, __ATOMIC_ACQUIRE) || !libraries[id]) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "not a loaded library");
        return false;
    }
    *out = libraries[id];
    return true;
}

static bool arg_handle(napi_env env, napi_value v, mvvm_handle *out) {
    napi_valuetype t;
    bool lossless;
    if (napi_typeof(env, v, &t) != napi_ok) return false;
    if (t != napi_bigint) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "a handle is a bigint");
        return false;
    }
    if (napi_get_value_bigint_uint64(env, v, out, &lossless) != napi_ok) return false;
    if (!lossless) {
        napi_throw_range_error(env, CODE_INVALID_ARGUMENT, "a handle is an unsigned 64-bit bigint");
        return false;
    }
    return true;
}

/* A string argument in a new malloc'd buffer; NUL inside is refused (C would cut it there). */
static char *arg_string(napi_env env, napi_value v, const char *what) {
    napi_valuetype t;
    size_t length;
    if (napi_typeof(env, v, &t) != napi_ok) return NULL;
    if (t != napi_string) {
        char text[200];
        snprintf(text, sizeof text, "%s must be a string", what);
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, text);
        return NULL;
    }
    if (napi_get_value_string_utf8(env, v, NULL, 0, &length) != napi_ok) return NULL;
    char *s = malloc(length + 1);
    if (!s) {
        napi_throw_error(env, CODE_INTERNAL, "out of memory");
        return NULL;
    }
    if (napi_get_value_string_utf8(env, v, s, length + 1, &length) != napi_ok) {
        free(s);
        return NULL;
    }
    if (strlen(s) != length) {
        char text[200];
        snprintf(text, sizeof text, "%s must not hold NUL", what);
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, text);
        free(s);
        return NULL;
    }
    if (!well_formed(env, v, s, length, what)) {
        free(s);
        return NULL;
    }
    return s;
}

static napi_value make_handle(napi_env env, mvvm_handle h) {
    napi_value v;
    CHECK(env, napi_create_bigint_uint64(env, h, &v));
    return v;
}

static napi_value make_status(napi_env env, mvvm_status s) {
    napi_value v;
    CHECK(env, napi_create_int32(env, (int32_t)s, &v));
    return v;
}

static napi_value undefined(napi_env env) {
    napi_value v;
    CHECK(env, napi_get_undefined(env, &v));
    return v;
}

/* ---------------------------------------------------------------------------------------------- */
/* Values: JavaScript -> mvvm_value                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Everything one call's values point to, freed together after the call. */
typedef struct arena {
    void **blocks;
    size_t count, capacity;
} arena;

static void *arena_alloc(napi_env env, arena *ar, size_t size) {
    if (ar->count == ar->capacity) {
        size_t capacity = ar->capacity ? ar->capacity * 2 : 16;
        void **blocks = realloc(ar->blocks, capacity * sizeof *blocks);
        if (!blocks) goto oom;
        ar->blocks = blocks;
        ar->capacity = capacity;
    }
    void *p = calloc(1, size ? size : 1);
    if (!p) goto oom;
    ar->blocks[ar->count++] = p;
    return p;
oom:
    napi_throw_error(env, CODE_INTERNAL, "out of memory");
    return NULL;
}

static void arena_free(arena *ar) {
    for (size_t i = 0; i < ar->count; i++) free(ar->blocks[i]);
    free(ar->blocks);
    ar->blocks = NULL;
    ar->count = ar->capacity = 0;
}

static bool js_string_into(napi_env env, arena *ar, napi_value v, const char **s, size_t *length) {
    if (napi_get_value_string_utf8(env, v, NULL, 0, length) != napi_ok) return false;
    char *buffer = arena_alloc(env, ar, *length + 1);
    if (!buffer) return false;
    if (napi_get_value_string_utf8(env, v, buffer, *length + 1, length) != napi_ok) return false;
    if (!well_formed(env, v, buffer, *length, "a string")) return false;
    *s = buffer;
    return true;
}

/*
 * The one conversion: boolean -> BOOL; an integral number -> INT (else DOUBLE); bigint -> INT,
 * or UINT above INT64_MAX; string -> STRING (BYTES when it holds NUL: the library takes UTF-8
 * bytes for a string); Uint8Array -> BYTES; null -> NULL; undefined -> NONE; an array -> ARRAY;
 * an object tagged as a handle -> OBJECT; any other object -> MAP (a record by field names).
 * The library then checks the value against the member's type and says what is wrong.
 */
static bool to_value(napi_env env, arena *ar, napi_value v, mvvm_value *out, int depth) {
    napi_valuetype t;
    memset(out, 0, sizeof *out);
    if (depth > MVVM_MAX_VALUE_DEPTH) {
        napi_throw_range_error(env, CODE_INVALID_ARGUMENT, "a value nests too deep");
        return false;
    }
    if (napi_typeof(env, v, &t) != napi_ok) return false;
    switch (t) {
    case napi_undefined: out->type = MVVM_TYPE_NONE; return true;
    case napi_null: out->type = MVVM_TYPE_NULL; return true;
    case napi_boolean:
        out->type = MVVM_TYPE_BOOL;
        return napi_get_value_bool(env, v, &out->boolean) == napi_ok;
    case napi_number: {
        double d;
        if (napi_get_value_double(env, v, &d) != napi_ok) return false;
        if (d == d && d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (double)(int64_t)d == d) {
            out->type = MVVM_TYPE_INT;
            out->integer = (int64_t)d;
        } else {
            out->type = MVVM_TYPE_DOUBLE;
            out->number = d;
        }
        return true;
    }
    case napi_bigint: {
        bool lossless;
        int64_t i;
        uint64_t u;
        if (napi_get_value_bigint_int64(env, v, &i, &lossless) != napi_ok) return false;
        if (lossless) {
            out->type = MVVM_TYPE_INT;
            out->integer = i;
            return true;
        }
        if (napi_get_value_bigint_uint64(env, v, &u, &lossless) != napi_ok) return false;
        if (!lossless) {
            napi_throw_range_error(env, CODE_INVALID_ARGUMENT, "a bigint beyond 64 bits");
            return false;
        }
        out->type = MVVM_TYPE_UINT;
        out->integer = (int64_t)u;
        return true;
    }
    case napi_string: {
        size_t length;
        if (!js_string_into(env, ar, v, &out->string, &length)) return false;
        out->type = strlen(out->string) == length ? MVVM_TYPE_STRING : MVVM_TYPE_BYTES;
        out->integer = (int64_t)length;
        return true;
    }
    case napi_object: {
        bool is = false;
        if (napi_is_typedarray(env, v, &is) != napi_ok) return false;
        if (is) {
            napi_typedarray_type kind;
            size_t length, offset;
            void *data;
            napi_value buffer;
            if (napi_get_typedarray_info(env, v, &kind, &length, &data, &buffer, &offset) != napi_ok) return false;
            if (kind != napi_uint8_array) {
                napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "bytes are a Uint8Array");
                return false;
            }
            char *copy = arena_alloc(env, ar, length + 1);
            if (!copy) return false;
            if (length) memcpy(copy, data, length);
            out->type = MVVM_TYPE_BYTES;
            out->string = copy;
            out->integer = (int64_t)length;
            return true;
        }
        if (napi_check_object_type_tag(env, v, &handle_tag, &is) != napi_ok) return false;
        if (is) {
            napi_value h;
            if (napi_get_named_property(env, v, "handle", &h) != napi_ok) return false;
            out->type = MVVM_TYPE_OBJECT;
            return arg_handle(env, h, &out->object);
        }
        if (napi_is_array(env, v, &is) != napi_ok) return false;
        if (is) {
            uint32_t length;
            if (napi_get_array_length(env, v, &length) != napi_ok) return false;
            if (length > (1u << 24)) {
                napi_throw_range_error(env, CODE_INVALID_ARGUMENT, "an array holds at most 2^24 items");
                return false;
            }
            mvvm_value *items = arena_alloc(env, ar, length * sizeof *items);
            if (!items) return false;
            for (uint32_t i = 0; i < length; i++) {
                napi_value item;
                if (napi_get_element(env, v, i, &item) != napi_ok) return false;
                if (!to_value(env, ar, item, &items[i], depth + 1)) return false;
            }
            out->type = MVVM_TYPE_ARRAY;
            out->integer = length;
            MVVM_VALUE_SET_ITEMS(out, items);
            return true;
        }
        /* A record by its fields' names: its own enumerable string keys. */
        napi_value keys;
        uint32_t length;
        if (napi_get_all_property_names(env, v, napi_key_own_only, napi_key_enumerable | napi_key_skip_symbols,
                                        napi_key_numbers_to_strings, &keys) != napi_ok)
            return false;
        if (napi_get_array_length(env, keys, &length) != napi_ok) return false;
        mvvm_value *items = arena_alloc(env, ar, 2 * (size_t)length * sizeof *items);
        if (!items) return false;
        for (uint32_t i = 0; i < length; i++) {
            napi_value key, field;
            size_t key_length;
            if (napi_get_element(env, keys, i, &key) != napi_ok) return false;
            if (!js_string_into(env, ar, key, &items[2 * i].string, &key_length)) return false;
            items[2 * i].type = MVVM_TYPE_STRING;
            items[2 * i].integer = (int64_t)key_length;
            if (napi_get_property(env, v, key, &field) != napi_ok) return false;
            if (!to_value(env, ar, field, &items[2 * i + 1], depth + 1)) return false;
        }
        out->type = MVVM_TYPE_MAP;
        out->integer = length;
        MVVM_VALUE_SET_ITEMS(out, items);
        return true;
    }
    default:
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "a function or symbol is no value");
        return false;
    }
}

/* names[] (strings or null) and args[] of one call, as mvvm_call_named takes them. */
static bool to_arguments(napi_env env, arena *ar, napi_value names, napi_value args, const char ***names_out,
                         mvvm_value **args_out, size_t *count) {
    uint32_t length, name_count = 0;
    bool is;
    if (napi_is_array(env, args, &is) != napi_ok) return false;
    if (!is) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "arguments are an array");
        return false;
    }
    if (napi_get_array_length(env, args, &length) != napi_ok) return false;
    napi_valuetype nt;
    if (napi_typeof(env, names, &nt) != napi_ok) return false;
    if (nt != napi_null && nt != napi_undefined) {
        if (napi_is_array(env, names, &is) != napi_ok) return false;
        if (!is || napi_get_array_length(env, names, &name_count) != napi_ok || name_count != length) {
            napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "names are an array as long as the arguments");
            return false;
        }
    }
    mvvm_value *values = arena_alloc(env, ar, length * sizeof *values);
    const char **cnames = name_count ? arena_alloc(env, ar, length * sizeof *cnames) : NULL;
    if (!values || (name_count && !cnames)) return false;
    for (uint32_t i = 0; i < length; i++) {
        napi_value item;
        if (napi_get_element(env, args, i, &item) != napi_ok) return false;
        if (!to_value(env, ar, item, &values[i], 1)) return false;
        if (name_count) {
            napi_value name;
            napi_valuetype t;
            size_t l;
            if (napi_get_element(env, names, i, &name) != napi_ok || napi_typeof(env, name, &t) != napi_ok) return false;
            if (t == napi_string) {
                if (!js_string_into(env, ar, name, &cnames[i], &l)) return false;
            } else {
                cnames[i] = NULL;
            }
        }
    }
    *names_out = cnames;
    *args_out = values;
    *count = length;
    return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Values: mvvm_value -> JavaScript                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Ints within ±2^53 are numbers, beyond are bigints: the module decides what a member shows. */
static napi_value from_value(napi_env env, int lib_id, const mvvm_value *v, int depth) {
    napi_value out;
    if (depth > MVVM_MAX_VALUE_DEPTH + 1) {
        napi_throw_range_error(env, CODE_INVALID_ARGUMENT, "a value from the library nests too deep");
        return NULL;
    }
    switch (v->type) {
    case MVVM_TYPE_NONE: CHECK(env, napi_get_undefined(env, &out)); return out;
    case MVVM_TYPE_NULL: CHECK(env, napi_get_null(env, &out)); return out;
    case MVVM_TYPE_BOOL: CHECK(env, napi_get_boolean(env, v->boolean, &out)); return out;
    case MVVM_TYPE_INT:
        if (v->integer >= -9007199254740991LL && v->integer <= 9007199254740991LL)
            CHECK(env, napi_create_int64(env, v->integer, &out));
        else
            CHECK(env, napi_create_bigint_int64(env, v->integer, &out));
        return out;
    case MVVM_TYPE_UINT:
        if ((uint64_t)v->integer <= 9007199254740991ULL)
            CHECK(env, napi_create_int64(env, v->integer, &out));
        else
            CHECK(env, napi_create_bigint_uint64(env, (uint64_t)v->integer, &out));
        return out;
    case MVVM_TYPE_DOUBLE: CHECK(env, napi_create_double(env, v->number, &out)); return out;
    case MVVM_TYPE_STRING:
        CHECK(env, napi_create_string_utf8(env, v->string ? v->string : "",
                                           v->string ? (size_t)v->integer : 0, &out));
        return out;
    case MVVM_TYPE_BYTES: {
        void *data;
        napi_value buffer;
        size_t length = (size_t)v->integer;
        CHECK(env, napi_create_arraybuffer(env, length, &data, &buffer));
        if (length) memcpy(data, v->string, length);
        CHECK(env, napi_create_typedarray(env, napi_uint8_array, length, buffer, 0, &out));
        return out;
    }
    case MVVM_TYPE_ARRAY:
    case MVVM_TYPE_RECORD: {
        const mvvm_value *items = MVVM_VALUE_ITEMS(v);
        napi_value array;
        CHECK(env, napi_create_array_with_length(env, (size_t)v->integer, &array));
        for (int64_t i = 0; i < v->integer; i++) {
            napi_value item = from_value(env, lib_id, &items[i], depth + 1);
            if (!item) return NULL;
            CHECK(env, napi_set_element(env, array, (uint32_t)i, item));
        }
        if (v->type == MVVM_TYPE_ARRAY) return array;
        addon *a = get_addon(env);
        napi_value fn, global, args[3];
        if (!a || !a->make_record) {
            napi_throw_error(env, CODE_INTERNAL, "mvvm addon: init() was not called");
            return NULL;
        }
        CHECK(env, napi_get_reference_value(env, a->make_record, &fn));
        CHECK(env, napi_get_global(env, &global));
        CHECK(env, napi_create_int32(env, lib_id, &args[0]));
        CHECK(env, napi_create_string_utf8(env, v->string ? v->string : "", NAPI_AUTO_LENGTH, &args[1]));
        args[2] = array;
        CHECK(env, napi_call_function(env, global, fn, 3, args, &out));
        return out;
    }
    case MVVM_TYPE_OBJECT: return make_handle(env, v->object);
    default: {
        char text[100];
        snprintf(text, sizeof text, "the library gave a value of unknown type %d", (int)v->type);
        napi_throw_error(env, CODE_INTERNAL, text);
        return NULL;
    }
    }
}

static int library_id(const library *lib) {
    for (int i = 0; i < library_count; i++)
        if (libraries[i] == lib) return i;
    return -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Targets: subscriptions, asynchronous calls, services                                           */
/* ---------------------------------------------------------------------------------------------- */

typedef enum { TARGET_SUBSCRIPTION, TARGET_CALL, TARGET_SERVICE } target_kind;

typedef struct target {
    atomic_int refs;     /* the library's hold (until destroy) + one per queued message */
    atomic_bool ended;   /* destroyed: queued events are dropped */
    target_kind kind;
    addon *owner;
    library *lib;
    int lib_id;
    napi_ref fn;         /* deleted on the JavaScript thread only */
} target;

typedef enum { MESSAGE_EVENT, MESSAGE_DONE, MESSAGE_REQUEST, MESSAGE_DESTROY } message_kind;

/* A callback made off the JavaScript thread, copied to cross over. */
typedef struct message {
    message_kind kind;
    target *t;
    mvvm_handle source;  /* the event's source, the call, or the view model */
    mvvm_handle request;
    mvvm_event event;    /* event.value is a copy (mvvm_value_copy) when has_value */
    bool has_value;
    const mvvm_value *lent; /* delivered on the JavaScript thread: the library's value */
    mvvm_status status;
    char *text;          /* a call's failure message (posted: a copy; delivered at once: lent) */
    uint64_t heard;      /* an event's place among the events the library made (events_heard) */
    struct message *next; /* in the queue */
} message;

/* Events the library made, in every environment, numbered as it makes them (on whatever thread):
 * an event carries its number to JavaScript, and the module's heardSoFar() is the count, so that
 * a subscriber made after an event (queued from a thread loop, delivered later) is not given it. */
static _Atomic uint64_t events_heard;

static void target_unref(target *t) {
    if (atomic_fetch_sub(&t->refs, 1) == 1) free(t);
}

static void target_end(napi_env env, target *t) {
    if (!atomic_exchange(&t->ended, true)) {
        if (t->fn) quietly(napi_delete_reference(env, t->fn), "deleting a callback's reference");
        t->fn = NULL;
    }
    target_unref(t);
}

/* Calls a target's function; an exception it throws is the process's uncaught exception (the
 * module catches its users' errors before this; this is the last resort). */
static void call_target(napi_env env, target *t, size_t argc, napi_value *argv) {
    napi_value fn, global, result;
    if (atomic_load(&t->ended) || !t->fn) return;
    if (napi_get_reference_value(env, t->fn, &fn) != napi_ok || napi_get_global(env, &global) != napi_ok) return;
    if (napi_call_function(env, global, fn, argc, argv, &result) != napi_ok) report_pending(env);
}

static void deliver_event(napi_env env, target *t, mvvm_handle source, const mvvm_event *e, uint64_t heard) {
    napi_value argv[7];
    if (napi_create_int32(env, (int32_t)e->kind, &argv[0]) != napi_ok ||
        napi_create_string_utf8(env, e->name ? e->name : "", NAPI_AUTO_LENGTH, &argv[1]) != napi_ok ||
        napi_create_int64(env, e->index, &argv[3]) != napi_ok ||
        napi_create_int64(env, e->removed, &argv[4]) != napi_ok ||
        napi_create_int64(env, e->inserted, &argv[5]) != napi_ok ||
        napi_create_double(env, (double)heard, &argv[6]) != napi_ok) {
        napi_failed(env, "an event's arguments");
        return;
    }
    argv[2] = from_value(env, t->lib_id, &e->value, 0);
    (void)source;
    if (!argv[2]) {
        report_pending(env);
        return;
    }
    call_target(env, t, 7, argv);
}

static void deliver_done(napi_env env, target *t, mvvm_status status, const mvvm_value *result, const char *text) {
    napi_value argv[3];
    if (napi_create_int32(env, (int32_t)status, &argv[0]) != napi_ok ||
        napi_create_string_utf8(env, text ? text : "", NAPI_AUTO_LENGTH, &argv[2]) != napi_ok) {
        napi_failed(env, "a completion's arguments");
        return;
    }
    if (result) {
        argv[1] = from_value(env, t->lib_id, result, 0);
        if (!argv[1]) {
            report_pending(env);
            return;
        }
    } else if (napi_get_undefined(env, &argv[1]) != napi_ok) {
        return;
    }
    call_target(env, t, 3, argv);
}

static void deliver_request(napi_env env, target *t, mvvm_handle vm, mvvm_handle request, const mvvm_value *arg) {
    napi_value argv[3];
    argv[0] = make_handle(env, vm);
    argv[1] = make_handle(env, request);
    argv[2] = arg ? from_value(env, t->lib_id, arg, 0) : undefined(env);
    if (!argv[0] || !argv[1] || !argv[2]) {
        report_pending(env);
        return;
    }
    call_target(env, t, 3, argv);
}

/* Delivers a message on the JavaScript thread: its value is the copy it carries across threads,
 * or the library's own, lent for the call that is running. */
static void deliver(napi_env env, message *m) {
    const mvvm_value *value = m->has_value ? &m->event.value : m->lent;
    switch (m->kind) {
    case MESSAGE_EVENT: deliver_event(env, m->t, m->source, &m->event, m->heard); break;
    case MESSAGE_DONE: deliver_done(env, m->t, m->status, value, m->text); break;
    case MESSAGE_REQUEST: deliver_request(env, m->t, m->source, m->request, value); break;
    case MESSAGE_DESTROY: target_end(env, m->t); m->t = NULL; break;
    }
}

static void message_free(message *m) {
    if (m->has_value && m->t) m->t->lib->mvvm_value_free(&m->event.value);
    if (m->t) target_unref(m->t);
    free(m->text);
    free(m);
}

/* Delivers the queued callbacks, oldest first, on the JavaScript thread. Each is taken off the
 * queue before it runs: a callback that calls into the library (and so drains again) finds the
 * ones after it. */
static void drain(napi_env env, addon *a) {
    for (;;) {
        pthread_mutex_lock(&post_lock);
        message *m = a->queue_head;
        if (m) {
            a->queue_head = m->next;
            if (!a->queue_head) a->queue_tail = NULL;
        } else {
            a->wake_pending = false;
        }
        pthread_mutex_unlock(&post_lock);
        if (!m) return;
        napi_handle_scope scope;
        if (napi_open_handle_scope(env, &scope) == napi_ok) {
            deliver(env, m);
            quietly(napi_close_handle_scope(env, scope), "closing a handle scope");
        }
        message_free(m);
    }
}

/* The thread-safe function's side, on the JavaScript thread: it only wakes the queue. */
static void call_js(napi_env env, napi_value js_fn, void *context, void *data) {
    (void)js_fn;
    (void)data;
    if (env) drain(env, context);
}

/* Appends a message to the queue and wakes the JavaScript thread, once until it drains; false
 * when the environment has gone (the message is the caller's still). */
static bool enqueue(addon *a, message *m) {
    m->next = NULL;
    pthread_mutex_lock(&post_lock);
    bool queued = !a->dead && a->tsfn;
    if (queued) {
        if (a->queue_tail) a->queue_tail->next = m;
        else a->queue_head = m;
        a->queue_tail = m;
        if (!a->wake_pending && napi_call_threadsafe_function(a->tsfn, NULL, napi_tsfn_nonblocking) == napi_ok)
            a->wake_pending = true;
    }
    pthread_mutex_unlock(&post_lock);
    return queued;
}

/* Queues a message from another thread, with a copy of the library's value. */
static void post(target *t, message *m, const mvvm_value *value) {
    m->t = t;
    if (value && t->lib->mvvm_value_copy(value, &m->event.value) == MVVM_OK) m->has_value = true;
    atomic_fetch_add(&t->refs, 1);
    if (!enqueue(t->owner, m)) message_free(m);
}

/* A callback of the library: delivered at once on the JavaScript thread (during the call from
 * JavaScript that caused it), or copied and posted there from any other thread. */
static void hand_over(message *m, const mvvm_value *value) {
    target *t = m->t;
    if (atomic_load(&t->ended)) return;
    if (on_js_thread(t->owner)) {
        napi_env env = t->owner->env;
        napi_handle_scope scope;
        drain(env, t->owner); /* what other threads made before this comes first */
        if (atomic_load(&t->ended)) return;
        m->lent = value;
        if (napi_open_handle_scope(env, &scope) != napi_ok) return;
        deliver(env, m);
        quietly(napi_close_handle_scope(env, scope), "closing a handle scope");
        return;
    }
    message *copy = malloc(sizeof *copy);
    if (!copy) return;
    *copy = *m;
    copy->lent = NULL;
    copy->event.value.type = MVVM_TYPE_NONE; /* the copy's own value, or none */
    copy->text = m->text ? strdup(m->text) : NULL;
    post(t, copy, value);
}

static void on_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    message m = {.kind = MESSAGE_EVENT, .t = user_data, .source = source, .event = *event,
                 .heard = atomic_fetch_add(&events_heard, 1) + 1};
    hand_over(&m, &event->value);
}

static void on_done(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *text, void *user_data) {
    message m = {.kind = MESSAGE_DONE, .t = user_data, .source = call, .status = status, .text = (char *)text};
    hand_over(&m, result);
}

static void on_request(mvvm_handle vm, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    message m = {.kind = MESSAGE_REQUEST, .t = user_data, .source = vm, .request = request};
    hand_over(&m, argument);
}

static void on_destroy(void *user_data) {
    target *t = user_data;
    if (on_js_thread(t->owner)) {
        target_end(t->owner->env, t);
        return;
    }
    if (t->owner->dead) return; /* at exit: the function's reference went with its environment */
    message *m = calloc(1, sizeof *m);
    if (!m) return; /* leaks the function's reference rather than touch it off its thread */
    m->kind = MESSAGE_DESTROY;
    /* The message takes over the library's hold: delivering it ends the target and drops it. */
    m->t = t;
    if (!enqueue(t->owner, m)) free(m);
}

static target *new_target(napi_env env, library *lib, target_kind kind, napi_value fn) {
    napi_valuetype type;
    if (napi_typeof(env, fn, &type) != napi_ok) return NULL;
    if (type != napi_function) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "a callback must be a function");
        return NULL;
    }
    target *t = calloc(1, sizeof *t);
    if (!t) {
        napi_throw_error(env, CODE_INTERNAL, "out of memory");
        return NULL;
    }
    atomic_init(&t->refs, 1);
    atomic_init(&t->ended, false);
    t->kind = kind;
    t->owner = get_addon(env);
    t->lib = lib;
    t->lib_id = library_id(lib);
    if (napi_create_reference(env, fn, 1, &t->fn) != napi_ok) {
        free(t);
        napi_failed(env, "napi_create_reference");
        return NULL;
    }
    return t;
}

/* ---------------------------------------------------------------------------------------------- */
/* Exported functions                                                                             */
/* ---------------------------------------------------------------------------------------------- */

#define ARGS(n)                                                                                     \
    size_t argc = (n);                                                                              \
    napi_value argv[(n) > 0 ? (n) : 1];                                                             \
    CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));                               \
    if (argc < (n)) {                                                                               \
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "mvvm addon: too few arguments");         \
        return NULL;                                                                                \
    }

#define LIB_HANDLE()                                                                                \
    library *lib;                                                                                   \
    mvvm_handle h;                                                                                  \
    if (!arg_library(env, argv[0], &lib) || !arg_handle(env, argv[1], &h)) return NULL;

#define OR_THROW(lib, call)                                                                         \
    do {                                                                                            \
        mvvm_status status_ = (call);                                                               \
        if (status_ != MVVM_OK) {                                                                   \
            throw_status(env, (lib), status_);                                                      \
            return NULL;                                                                            \
        }                                                                                           \
    } while (0)

/* init(makeError, makeRecord): the module's factories. */
static napi_value js_init(napi_env env, napi_callback_info info) {
    ARGS(2);
    addon *a = get_addon(env);
    if (!a) {
        napi_throw_error(env, CODE_INTERNAL, "mvvm addon: no instance data");
        return NULL;
    }
    if (a->make_error) quietly(napi_delete_reference(env, a->make_error), "deleting init()'s reference");
    if (a->make_record) quietly(napi_delete_reference(env, a->make_record), "deleting init()'s reference");
    CHECK(env, napi_create_reference(env, argv[0], 1, &a->make_error));
    CHECK(env, napi_create_reference(env, argv[1], 1, &a->make_record));
    return undefined(env);
}

/* load(path) -> library id: the same path (as dlopen resolves it) gives the same id. */
static napi_value js_load(napi_env env, napi_callback_info info) {
    ARGS(1);
    char *path = arg_string(env, argv[0], "the library's path");
    if (!path) return NULL;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        char text[1200];
        snprintf(text, sizeof text, "cannot load %s: %s", path, dlerror());
        free(path);
        napi_throw_error(env, CODE_LOAD, text);
        return NULL;
    }
    free(path);
    pthread_mutex_lock(&libraries_lock);
    int id = -1;
    for (int i = 0; i < library_count; i++)
        if (libraries[i]->dl == dl) id = i;
    if (id < 0) {
        library *lib = calloc(1, sizeof *lib);
        const char *missing = NULL;
        if (lib) {
            lib->dl = dl;
#define MVVM_RESOLVE(name)                                                                          \
    if (!(lib->name = (__typeof__(name) *)dlsym(dl, #name)) && !missing) missing = #name;
            MVVM_FUNCTIONS(MVVM_RESOLVE)
#undef MVVM_RESOLVE
        }
        if (!lib || missing || library_count == MAX_LIBRARIES) {
            pthread_mutex_unlock(&libraries_lock);
            char text[300];
            snprintf(text, sizeof text, "not a libmvvm library: %s", !lib ? "out of memory" : missing ? missing : "too many libraries");
            free(lib);
            napi_throw_error(env, CODE_LOAD, text);
            return NULL;
        }
        id = library_count;
        libraries[id] = lib;
        /* Published after the slot: another environment's thread reads the count unlocked. */
        __atomic_store_n(&library_count, id + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&libraries_lock);
    napi_value out;
    CHECK(env, napi_create_int32(env, id, &out));
    return out;
}

static napi_value take_string(napi_env env, library *lib, char *s) {
    napi_value out;
    napi_status st = napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &out);
    lib->mvvm_string_free(s);
    CHECK(env, st);
    return out;
}

static napi_value js_classes(napi_env env, napi_callback_info info) {
    ARGS(1);
    library *lib;
    char *json = NULL;
    if (!arg_library(env, argv[0], &lib)) return NULL;
    OR_THROW(lib, lib->mvvm_classes(&json));
    return take_string(env, lib, json);
}

static napi_value js_version(napi_env env, napi_callback_info info) {
    ARGS(1);
    library *lib;
    napi_value out;
    if (!arg_library(env, argv[0], &lib)) return NULL;
    CHECK(env, napi_create_string_utf8(env, lib->mvvm_version(), NAPI_AUTO_LENGTH, &out));
    return out;
}

/* statusName(libraryId, status) */
static napi_value js_status_name(napi_env env, napi_callback_info info) {
    ARGS(2);
    library *lib;
    int64_t status;
    napi_value out;
    if (!arg_library(env, argv[0], &lib) || !arg_int(env, argv[1], "a status", &status)) return NULL;
    CHECK(env, napi_create_string_utf8(env, lib->mvvm_status_name((mvvm_status)status), NAPI_AUTO_LENGTH, &out));
    return out;
}

static napi_value js_loop_new(napi_env env, napi_callback_info info) {
    ARGS(2);
    library *lib;
    int64_t kind;
    mvvm_handle h = 0;
    addon *a = get_addon(env);
    if (!arg_library(env, argv[0], &lib) || !arg_int(env, argv[1], "a loop kind", &kind)) return NULL;
    if (!a) {
        napi_throw_error(env, CODE_INTERNAL, "mvvm addon: no instance data");
        return NULL;
    }
    if (a->loop_count == a->loop_capacity) {
        /* Sweep the released loops first: a loop's class name fails once it is released. */
        size_t kept = 0;
        for (size_t i = 0; i < a->loop_count; i++) {
            const char *name;
            if (a->loops[i].lib->mvvm_class_name(a->loops[i].handle, &name) == MVVM_OK) a->loops[kept++] = a->loops[i];
        }
        a->loop_count = kept;
    }
    if (a->loop_count == a->loop_capacity) {
        size_t capacity = a->loop_capacity ? 2 * a->loop_capacity : 8;
        struct made_loop *loops = realloc(a->loops, capacity * sizeof *loops);
        if (!loops) {
            napi_throw_error(env, CODE_INTERNAL, "out of memory");
            return NULL;
        }
        a->loops = loops;
        a->loop_capacity = capacity;
    }
    OR_THROW(lib, lib->mvvm_loop_new((mvvm_loop_kind)kind, &h));
    a->loops[a->loop_count++] = (struct made_loop){lib, h};
    return make_handle(env, h);
}

static napi_value js_loop_fd(napi_env env, napi_callback_info info) {
    ARGS(2);
    LIB_HANDLE();
    int fd = -1;
    napi_value out;
    OR_THROW(lib, lib->mvvm_loop_fd(h, &fd));
    CHECK(env, napi_create_int32(env, fd, &out));
    return out;
}

static napi_value js_loop_advance(napi_env env, napi_callback_info info) {
    ARGS(3);
    LIB_HANDLE();
    int64_t ms;
    if (!arg_int(env, argv[2], "milliseconds are an integer", &ms)) return NULL;
    OR_THROW(lib, lib->mvvm_loop_advance(h, ms));
    return undefined(env);
}

/* (id, handle) and the library's function that the callback's data names by its offset in
 * `library`: for the calls that differ only in which function they make. */
static bool library_function(napi_env env, napi_callback_info info, library **lib, mvvm_handle *h, void **fn) {
    size_t argc = 2;
    napi_value argv[2];
    void *data;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) {
        napi_failed(env, "napi_get_cb_info");
        return false;
    }
    if (argc < 2) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "mvvm addon: too few arguments");
        return false;
    }
    if (!arg_library(env, argv[0], lib) || !arg_handle(env, argv[1], h)) return false;
    memcpy(fn, (char *)*lib + (uintptr_t)data, sizeof *fn);
    return true;
}

/* loopDispatch, loopNow, loopNextTimeout, objectId: (id, handle) -> the int64 the library's
 * function gives; the function is named by its offset in `library` (the callback's data). */
typedef mvvm_status (*int64_of_handle)(mvvm_handle, int64_t *);

static napi_value js_int64_of_handle(napi_env env, napi_callback_info info) {
    napi_value out;
    library *lib;
    mvvm_handle h;
    int64_t value = 0;
    int64_of_handle fn;
    if (!library_function(env, info, &lib, &h, (void **)&fn)) return NULL;
    OR_THROW(lib, fn(h, &value));
    CHECK(env, napi_create_int64(env, value, &out));
    return out;
}

/* release, cancel, unsubscribe: (id, handle) -> the status, thrown for nothing: a handle that
 * ended already is no error to close(), a finalizer or an AbortSignal. The function is named by
 * its offset in `library` (the callback's data). */
typedef mvvm_status (*status_of_handle)(mvvm_handle);

static napi_value js_status_of_handle(napi_env env, napi_callback_info info) {
    library *lib;
    mvvm_handle h;
    status_of_handle fn;
    if (!library_function(env, info, &lib, &h, (void **)&fn)) return NULL;
    return make_status(env, fn(h));
}

/* A value the library gave through an out-pointer, for JavaScript; the library's copy freed. */
static napi_value take_value(napi_env env, library *lib, mvvm_value *v) {
    napi_value out = from_value(env, library_id(lib), v, 0);
    lib->mvvm_value_free(v);
    return out;
}

static napi_value js_get(napi_env env, napi_callback_info info) {
    ARGS(3);
    LIB_HANDLE();
    char *name = arg_string(env, argv[2], "a property name");
    if (!name) return NULL;
    mvvm_value v;
    memset(&v, 0, sizeof v);
    mvvm_status st = lib->mvvm_get(h, name, &v);
    free(name);
    OR_THROW(lib, st);
    return take_value(env, lib, &v);
}

static napi_value js_set(napi_env env, napi_callback_info info) {
    ARGS(4);
    LIB_HANDLE();
    arena ar = {0};
    mvvm_value v;
    char *name = arg_string(env, argv[2], "a property name");
    if (!name) return NULL;
    if (!to_value(env, &ar, argv[3], &v, 0)) {
        free(name);
        arena_free(&ar);
        return NULL;
    }
    mvvm_status st = lib->mvvm_set(h, name, &v);
    free(name);
    arena_free(&ar);
    OR_THROW(lib, st);
    return undefined(env);
}

/* What call, callAsync and newObject take: a name, then names[] and args[] (to_arguments). */
typedef struct named_call {
    char *name;
    arena ar;
    const char **names;
    mvvm_value *args;
    size_t count;
} named_call;

static void named_call_free(named_call *c) {
    free(c->name);
    arena_free(&c->ar);
}

static bool take_named_call(napi_env env, napi_value *argv, const char *what, named_call *c) {
    memset(c, 0, sizeof *c);
    if (!(c->name = arg_string(env, argv[0], what))) return false;
    if (!to_arguments(env, &c->ar, argv[1], argv[2], &c->names, &c->args, &c->count)) {
        named_call_free(c);
        return false;
    }
    return true;
}

/* call(id, handle, command, names, args) -> result */
static napi_value js_call(napi_env env, napi_callback_info info) {
    ARGS(5);
    LIB_HANDLE();
    named_call c;
    mvvm_value result;
    memset(&result, 0, sizeof result);
    if (!take_named_call(env, &argv[2], "a command name", &c)) return NULL;
    mvvm_status st = lib->mvvm_call_named(h, c.name, c.names, c.args, c.count, &result);
    named_call_free(&c);
    OR_THROW(lib, st);
    return take_value(env, lib, &result);
}

/* callAsync(id, handle, command, names, args, done(status, result, message)) -> call handle */
static napi_value js_call_async(napi_env env, napi_callback_info info) {
    ARGS(6);
    LIB_HANDLE();
    named_call c;
    mvvm_handle call = 0;
    if (!take_named_call(env, &argv[2], "a command name", &c)) return NULL;
    target *t = new_target(env, lib, TARGET_CALL, argv[5]);
    if (!t) {
        named_call_free(&c);
        return NULL;
    }
    /* On failure the library runs on_destroy itself, which ends the target. */
    mvvm_status st = lib->mvvm_call_async(h, c.name, c.names, c.args, c.count, on_done, t, on_destroy, &call);
    named_call_free(&c);
    OR_THROW(lib, st);
    return make_handle(env, call);
}

static napi_value js_child(napi_env env, napi_callback_info info) {
    ARGS(3);
    LIB_HANDLE();
    mvvm_handle out = 0;
    char *name = arg_string(env, argv[2], "a child name");
    if (!name) return NULL;
    mvvm_status st = lib->mvvm_child(h, name, &out);
    free(name);
    OR_THROW(lib, st);
    return make_handle(env, out);
}

static napi_value js_class_name(napi_env env, napi_callback_info info) {
    ARGS(2);
    LIB_HANDLE();
    const char *name = NULL;
    napi_value out;
    OR_THROW(lib, lib->mvvm_class_name(h, &name));
    CHECK(env, napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &out));
    return out;
}

/* describe, snapshot: (id, handle) -> the JSON text the library's function gives. */
typedef mvvm_status (*json_of_handle)(mvvm_handle, char **);

static napi_value js_json_of_handle(napi_env env, napi_callback_info info) {
    library *lib;
    mvvm_handle h;
    json_of_handle fn;
    char *json = NULL;
    if (!library_function(env, info, &lib, &h, (void **)&fn)) return NULL;
    OR_THROW(lib, fn(h, &json));
    return take_string(env, lib, json);
}

/* newObject(id, loop, class, names, args) -> handle */
static napi_value js_new_object(napi_env env, napi_callback_info info) {
    ARGS(5);
    LIB_HANDLE();
    named_call c;
    mvvm_handle out = 0;
    if (!take_named_call(env, &argv[2], "a class name", &c)) return NULL;
    mvvm_status st = lib->mvvm_new_named(h, c.name, c.names, c.args, c.count, &out);
    named_call_free(&c);
    OR_THROW(lib, st);
    return make_handle(env, out);
}

/* subscribe(id, handle, name|null, fn(kind, name, value, index, removed, inserted, heard)) -> handle */
static napi_value js_subscribe(napi_env env, napi_callback_info info) {
    ARGS(4);
    LIB_HANDLE();
    napi_valuetype nt;
    char *name = NULL;
    mvvm_handle out = 0;
    CHECK(env, napi_typeof(env, argv[2], &nt));
    if (nt != napi_null && nt != napi_undefined && !(name = arg_string(env, argv[2], "a member name"))) return NULL;
    target *t = new_target(env, lib, TARGET_SUBSCRIPTION, argv[3]);
    if (!t) {
        free(name);
        return NULL;
    }
    mvvm_status st = lib->mvvm_subscribe(h, name, on_event, t, on_destroy, &out);
    free(name);
    OR_THROW(lib, st);
    return make_handle(env, out);
}

/* serviceNew(id, fn(viewModel, request, argument)) -> handle */
static napi_value js_service_new(napi_env env, napi_callback_info info) {
    ARGS(2);
    library *lib;
    mvvm_handle out = 0;
    if (!arg_library(env, argv[0], &lib)) return NULL;
    target *t = new_target(env, lib, TARGET_SERVICE, argv[1]);
    if (!t) return NULL;
    OR_THROW(lib, lib->mvvm_service_new(on_request, t, on_destroy, &out));
    return make_handle(env, out);
}

static napi_value js_complete(napi_env env, napi_callback_info info) {
    ARGS(3);
    LIB_HANDLE();
    arena ar = {0};
    mvvm_value v;
    if (!to_value(env, &ar, argv[2], &v, 0)) {
        arena_free(&ar);
        return NULL;
    }
    mvvm_status st = lib->mvvm_complete(h, &v);
    arena_free(&ar);
    OR_THROW(lib, st);
    return undefined(env);
}

static napi_value js_list_count(napi_env env, napi_callback_info info) {
    ARGS(3);
    LIB_HANDLE();
    int64_t count = 0;
    napi_value out;
    char *name = arg_string(env, argv[2], "a list name");
    if (!name) return NULL;
    mvvm_status st = lib->mvvm_list_count(h, name, &count);
    free(name);
    OR_THROW(lib, st);
    CHECK(env, napi_create_int64(env, count, &out));
    return out;
}

static napi_value js_list_item(napi_env env, napi_callback_info info) {
    ARGS(4);
    LIB_HANDLE();
    int64_t index;
    mvvm_handle out = 0;
    if (!arg_int(env, argv[3], "an index is an integer", &index)) return NULL;
    char *name = arg_string(env, argv[2], "a list name");
    if (!name) return NULL;
    mvvm_status st = lib->mvvm_list_item(h, name, index, &out);
    free(name);
    OR_THROW(lib, st);
    return make_handle(env, out);
}

/* objectValue(handle) -> an object tagged as a handle: MVVM_TYPE_OBJECT in a value. */
static napi_value js_object_value(napi_env env, napi_callback_info info) {
    ARGS(1);
    mvvm_handle h;
    napi_value out;
    if (!arg_handle(env, argv[0], &h)) return NULL;
    CHECK(env, napi_create_object(env, &out));
    CHECK(env, napi_set_named_property(env, out, "handle", argv[0]));
    CHECK(env, napi_type_tag_object(env, out, &handle_tag));
    return out;
}

/* heardSoFar() -> how many events the library has made (see events_heard). */
static napi_value js_heard_so_far(napi_env env, napi_callback_info info) {
    (void)info;
    napi_value out;
    CHECK(env, napi_create_double(env, (double)atomic_load(&events_heard), &out));
    return out;
}

/* keepAlive(delta): thread loops keep Node running (their changes arrive by the tsfn). */
static napi_value js_keep_alive(napi_env env, napi_callback_info info) {
    ARGS(1);
    int64_t delta;
    addon *a = get_addon(env);
    if (!arg_int(env, argv[0], "a count", &delta) || !a) return NULL;
    int before = a->keep_alive;
    a->keep_alive += (int)delta;
    if (a->keep_alive < 0) a->keep_alive = 0;
    if (before == 0 && a->keep_alive > 0) CHECK(env, napi_ref_threadsafe_function(env, a->tsfn));
    if (before > 0 && a->keep_alive == 0) CHECK(env, napi_unref_threadsafe_function(env, a->tsfn));
    return undefined(env);
}

/* ---------------------------------------------------------------------------------------------- */
/* Watching a manual loop's fd with libuv                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct watch {
    uv_poll_t poll;
    addon *owner;
    struct watch *prev, *next; /* in owner->watches while open */
    napi_env env;
    napi_ref fn;              /* the module's dispatch function, called when the fd is readable */
    napi_async_context context;
    bool closed;
} watch;

static void watch_readable(uv_poll_t *poll, int status, int events) {
    (void)status;
    (void)events;
    watch *w = poll->data;
    if (w->closed) return;
    napi_env env = w->env;
    napi_handle_scope scope;
    napi_value fn, global, result;
    if (napi_open_handle_scope(env, &scope) != napi_ok) return;
    /* make_callback runs the dispatch as Node runs its own I/O callbacks: with the microtasks and
     * nextTicks after it, and an uncaught exception reported as such. */
    if (napi_get_reference_value(env, w->fn, &fn) == napi_ok && napi_get_global(env, &global) == napi_ok)
        if (napi_make_callback(env, w->context, global, fn, 0, NULL, &result) != napi_ok) report_pending(env);
    quietly(napi_close_handle_scope(env, scope), "closing a handle scope");
}

static void watch_closed(uv_handle_t *handle) { free(handle->data); }

static void watch_end(watch *w) {
    if (w->closed) return;
    w->closed = true;
    if (w->prev) w->prev->next = w->next;
    else if (w->owner->watches == w) w->owner->watches = w->next;
    if (w->next) w->next->prev = w->prev;
    w->prev = w->next = NULL;
    /* At teardown the environment deletes its references and async contexts itself. */
    if (!w->owner->dead) {
        if (w->fn) quietly(napi_delete_reference(w->env, w->fn), "deleting the dispatch function's reference");
        if (w->context) quietly(napi_async_destroy(w->env, w->context), "destroying an async context");
    }
    w->fn = NULL;
    w->context = NULL;
    uv_poll_stop(&w->poll);
    uv_close((uv_handle_t *)&w->poll, watch_closed);
}

/* watch(fd, dispatch, ref) -> external: dispatch() runs on the JavaScript thread when fd is readable. */
static napi_value js_watch(napi_env env, napi_callback_info info) {
    ARGS(3);
    int64_t fd;
    bool ref;
    napi_valuetype t;
    struct uv_loop_s *uv;
    napi_value name, out;
    if (!arg_int(env, argv[0], "a file descriptor", &fd)) return NULL;
    CHECK(env, napi_typeof(env, argv[1], &t));
    if (t != napi_function) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "dispatch must be a function");
        return NULL;
    }
    CHECK(env, napi_get_value_bool(env, argv[2], &ref));
    CHECK(env, napi_get_uv_event_loop(env, &uv));
    watch *w = calloc(1, sizeof *w);
    if (!w) {
        napi_throw_error(env, CODE_INTERNAL, "out of memory");
        return NULL;
    }
    w->env = env;
    w->owner = get_addon(env);
    w->poll.data = w;
    if (!w->owner) {
        free(w);
        napi_throw_error(env, CODE_INTERNAL, "mvvm addon: no instance data");
        return NULL;
    }
    if (uv_poll_init(uv, &w->poll, (int)fd) != 0) {
        free(w);
        napi_throw_error(env, CODE_INTERNAL, "uv_poll_init failed on the loop's fd");
        return NULL;
    }
    w->next = w->owner->watches;
    if (w->next) w->next->prev = w;
    w->owner->watches = w;
    if (napi_create_reference(env, argv[1], 1, &w->fn) != napi_ok ||
        napi_create_string_utf8(env, "mvvm.Loop", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_async_init(env, NULL, name, &w->context) != napi_ok || uv_poll_start(&w->poll, UV_READABLE, watch_readable) != 0) {
        watch_end(w);
        napi_failed(env, "watching the loop's fd");
        return NULL;
    }
    if (!ref) uv_unref((uv_handle_t *)&w->poll);
    /* An object tagged as a watch, wrapping it until unwatch takes it away: the watch is freed
     * after its end, and a later unwatch or watchRef must find it gone, not read freed memory. */
    CHECK(env, napi_create_object(env, &out));
    CHECK(env, napi_type_tag_object(env, out, &watch_tag));
    CHECK(env, napi_wrap(env, out, w, NULL, NULL, NULL));
    return out;
}

/* The watch an object made by watch() wraps; NULL (a TypeError thrown) for any other value or for
 * one whose watch has ended. */
static watch *arg_watch(napi_env env, napi_value v) {
    napi_valuetype t;
    bool tagged = false;
    void *w = NULL;
    if (napi_typeof(env, v, &t) != napi_ok) return NULL;
    if (t != napi_object || napi_check_object_type_tag(env, v, &watch_tag, &tagged) != napi_ok || !tagged) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "not a watch made by watch()");
        return NULL;
    }
    if (napi_unwrap(env, v, &w) != napi_ok || !w) {
        napi_throw_type_error(env, CODE_INVALID_ARGUMENT, "this watch has ended (unwatch was called)");
        return NULL;
    }
    return w;
}

/* unwatch(watch): ends it; a second time is a TypeError. */
static napi_value js_unwatch(napi_env env, napi_callback_info info) {
    ARGS(1);
    watch *w = arg_watch(env, argv[0]);
    if (!w) return NULL;
    CHECK(env, napi_remove_wrap(env, argv[0], NULL));
    watch_end(w);
    return undefined(env);
}

/* watchRef(watch, ref): whether a watched loop keeps Node running. */
static napi_value js_watch_ref(napi_env env, napi_callback_info info) {
    ARGS(2);
    bool ref;
    watch *w = arg_watch(env, argv[0]);
    if (!w) return NULL;
    CHECK(env, napi_get_value_bool(env, argv[1], &ref));
    if (!w->closed) {
        if (ref) uv_ref((uv_handle_t *)&w->poll);
        else uv_unref((uv_handle_t *)&w->poll);
    }
    return undefined(env);
}

/* ---------------------------------------------------------------------------------------------- */
/* Module                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The environment's teardown: from now on callbacks are dropped. The addon's state is kept (a
 * library thread may still read it until it is told), and its references go with the environment. */
static void addon_teardown(void *data) {
    addon *a = data;
    pthread_mutex_lock(&post_lock);
    a->dead = true;
    a->tsfn = NULL;
    message *queued = a->queue_head;
    a->queue_head = a->queue_tail = NULL;
    pthread_mutex_unlock(&post_lock);
    /* What was queued is never delivered; a destroy's target keeps its reference (the
     * environment frees its references itself). */
    while (queued) {
        message *next = queued->next;
        if (queued->kind == MESSAGE_DESTROY) queued->t = NULL;
        message_free(queued);
        queued = next;
    }
    /* Its libuv loop closes next: no handle of ours may stay open on it. */
    while (a->watches) watch_end(a->watches);
    for (size_t i = 0; i < a->loop_count; i++) a->loops[i].lib->mvvm_release(a->loops[i].handle);
    free(a->loops);
    a->loops = NULL;
    a->loop_count = a->loop_capacity = 0;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
    addon *a = calloc(1, sizeof *a);
    napi_value name;
    if (!a) {
        napi_throw_error(env, CODE_INTERNAL, "out of memory");
        return NULL;
    }
    a->env = env;
    a->thread = pthread_self();
    if (napi_set_instance_data(env, a, NULL, NULL) != napi_ok) {
        free(a);
        napi_failed(env, "napi_set_instance_data");
        return NULL;
    }
    CHECK(env, napi_create_string_utf8(env, "mvvm callbacks", NAPI_AUTO_LENGTH, &name));
    CHECK(env, napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, NULL, NULL, a, call_js, &a->tsfn));
    CHECK(env, napi_unref_threadsafe_function(env, a->tsfn));
    /* Added after the thread-safe function: cleanup hooks run in reverse, so this one runs first. */
    CHECK(env, napi_add_env_cleanup_hook(env, addon_teardown, a));
    static const struct {
        const char *name;
        napi_callback fn;
        size_t data;
    } functions[] = {
        {"init", js_init, 0}, {"load", js_load, 0}, {"classes", js_classes, 0}, {"version", js_version, 0},
        {"statusName", js_status_name, 0}, {"loopNew", js_loop_new, 0}, {"loopFd", js_loop_fd, 0},
        {"loopDispatch", js_int64_of_handle, offsetof(library, mvvm_loop_dispatch)},
        {"loopAdvance", js_loop_advance, 0},
        {"loopNow", js_int64_of_handle, offsetof(library, mvvm_loop_now_ms)},
        {"loopNextTimeout", js_int64_of_handle, offsetof(library, mvvm_loop_next_timeout_ms)}, {"release", js_status_of_handle, offsetof(library, mvvm_release)}, {"get", js_get, 0}, {"set", js_set, 0},
        {"call", js_call, 0}, {"callAsync", js_call_async, 0}, {"cancel", js_status_of_handle, offsetof(library, mvvm_cancel)}, {"child", js_child, 0},
        {"className", js_class_name, 0}, {"describe", js_json_of_handle, offsetof(library, mvvm_describe)}, {"snapshot", js_json_of_handle, offsetof(library, mvvm_snapshot)},
        {"newObject", js_new_object, 0}, {"subscribe", js_subscribe, 0}, {"unsubscribe", js_status_of_handle, offsetof(library, mvvm_unsubscribe)},
        {"serviceNew", js_service_new, 0}, {"complete", js_complete, 0}, {"listCount", js_list_count, 0},
        {"listItem", js_list_item, 0}, {"objectId", js_int64_of_handle, offsetof(library, mvvm_object_id)}, {"objectValue", js_object_value, 0},
        {"keepAlive", js_keep_alive, 0}, {"heardSoFar", js_heard_so_far, 0}, {"watch", js_watch, 0}, {"unwatch", js_unwatch, 0}, {"watchRef", js_watch_ref, 0},
    };
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        napi_value fn;
        CHECK(env, napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].fn,
                                        (void *)(uintptr_t)functions[i].data, &fn));
        CHECK(env, napi_set_named_property(env, exports, functions[i].name, fn));
    }
    return exports;
}
