/*
 * mvvm.h - the C interface of libmvvm.
 *
 * A libmvvm library holds view models written in Swift behind this C ABI: libmvvm.so the
 * catalog's (the models and view models of five MVVM designs, whose typed calls are in
 * mvvm_catalog.h), a package's own library those its hook registers. The host program is the
 * View: it creates objects on a loop, reads their properties, sets their bindings, sends their
 * commands, and is told of every change through callbacks.
 *
 * Conventions, true of every function below unless its comment says otherwise:
 *
 *  - Results.  Every function returns an mvvm_status, MVVM_OK (0) on success, and gives its
 *    results through out-pointers, which come last. On failure the out-pointers are left
 *    untouched and mvvm_last_error() describes the failure.
 *  - Handles.  Every object (loop, model, view model, subscription, host-service request) is an
 *    mvvm_handle. 0 is never a valid handle. A released, stale, forged or zero handle gives
 *    MVVM_ERR_INVALID_HANDLE; a handle of the wrong class gives MVVM_ERR_WRONG_TYPE. Neither
 *    ever crashes or reaches another object's data, however often its slot is reused: a
 *    handle's generation never wraps back to an earlier handle (a slot whose generations are
 *    spent is retired).
 *  - Strings in are NUL-terminated UTF-8 and are copied: the caller keeps ownership. Invalid
 *    UTF-8 gives MVVM_ERR_INVALID_ARGUMENT.
 *  - Strings out are allocated by the library; the caller frees them with mvvm_string_free().
 *    The few static strings (class, property and signal names, status names, the version) say
 *    so, and must not be freed.
 *  - Threads.  Every function may be called from any thread. Work on the objects of one loop is
 *    serialised: a call waits while the loop runs due work or another thread works on that
 *    loop's objects. Callbacks may call back into the library (read, set, send, subscribe,
 *    unsubscribe, release the source), but not dispatch or advance the loop that runs them.
 *    Host code the library calls (callbacks, request functions) nests at most
 *    MVVM_MAX_NESTED_CALLS deep on one loop: the innermost may read (get, describe, snapshot),
 *    release and unsubscribe; its other calls on that loop's objects give
 *    MVVM_ERR_INVALID_ARGUMENT, so a callback that keeps causing the change it is told about
 *    ends in an error status, not a stack overflow.
 *  - fork().  The child of a fork() may create loops and objects of its own. What it inherited
 *    from the parent is the parent's: every inherited loop is stopped in the child (no work runs,
 *    its file descriptor, shared with the parent, is not touched), calls on its objects give
 *    MVVM_ERR_LOOP_RELEASED, and mvvm_release() or mvvm_unsubscribe() of an inherited handle
 *    gives MVVM_OK and only forgets it: no callback and no destroy function runs in the child.
 */
#ifndef MVVM_H
#define MVVM_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this header; mvvm_version() gives the library's. */
#define MVVM_VERSION_MAJOR 0
#define MVVM_VERSION_MINOR 5
#define MVVM_VERSION_PATCH 0

/** Any object of the library. 0 is never valid. */
typedef uint64_t mvvm_handle;

/** What a call did. */
typedef enum mvvm_status {
    MVVM_OK = 0,
    /** The handle is 0, released, stale (its slot was reused) or was never issued. */
    MVVM_ERR_INVALID_HANDLE = 1,
    /** The handle is valid but of another class than the call needs. */
    MVVM_ERR_WRONG_TYPE = 2,
    /** A required pointer argument is NULL. */
    MVVM_ERR_NULL_POINTER = 3,
    /** Bad UTF-8, a value out of range, an unknown command argument, a model of another loop. */
    MVVM_ERR_INVALID_ARGUMENT = 4,
    /** No such property, command, signal or child on this object. */
    MVVM_ERR_UNKNOWN_NAME = 5,
    /** The property is an output; only bindings can be set. */
    MVVM_ERR_READ_ONLY = 6,
    /** The value's type is not the property's or the command's (get_bool on an int...). */
    MVVM_ERR_TYPE_MISMATCH = 7,
    /** The loop call is for another kind of loop (advance on a manual loop...). */
    MVVM_ERR_WRONG_LOOP_KIND = 8,
    /** mvvm_complete(): the request was already answered, cancelled, or its view model released. */
    MVVM_ERR_UNKNOWN_REQUEST = 9,
    /** A failure inside the library or the system (no file descriptor left...). */
    MVVM_ERR_INTERNAL = 10,
    /** The object's loop was released: the object can only be released. */
    MVVM_ERR_LOOP_RELEASED = 11,
    /** A command failed (its Swift code threw): mvvm_last_error() is the error's text. What it
     *  changed before failing is notified all the same. */
    MVVM_ERR_COMMAND_FAILED = 12,
    /** An asynchronous call was cancelled: by the host, or by the release of its object or of
     *  its object's loop. */
    MVVM_ERR_CANCELLED = 13,
    /** The library's registration breaks a rule (a name used twice, a name that is no C
     *  identifier, a class or record used but not registered...): it serves no class, and every
     *  call that needs one (mvvm_classes, mvvm_new, the typed constructors) fails with this
     *  status, mvvm_last_error() naming every problem. Also every call of a copy of the library
     *  loaded when the process held 255 already (see mvvm_library_tag()). */
    MVVM_ERR_BAD_REGISTRATION = 14,
    /** The call must be made on another thread: a main-actor object (its class's description says
     *  "main_actor": true) is read, set, sent to, called, subscribed to and described only on the
     *  thread of its main loop; a main loop is dispatched and run only on the main thread. */
    MVVM_ERR_WRONG_THREAD = 15
} mvvm_status;

/** The type of a property, a command argument or a signal payload. */
typedef enum mvvm_type {
    MVVM_TYPE_NONE = 0,
    MVVM_TYPE_BOOL = 1,
    MVVM_TYPE_INT = 2,
    MVVM_TYPE_DOUBLE = 3,
    MVVM_TYPE_STRING = 4,
    /** A handle in `object`: a model passed to a constructor (mvvm_new), or a host service
     *  (mvvm_service_new). Never the type of a property, command argument or signal. */
    MVVM_TYPE_OBJECT = 5,
    /** In descriptions only: a property holding an ordered list of child view models, read with
     *  mvvm_list_count() and mvvm_list_item(), its changes announced as MVVM_EVENT_SPLICE. */
    MVVM_TYPE_LIST = 6,
    /** No value: what an optional (a property, argument, field or result whose description says
     *  "optional": true) holds when it holds none. Given for anything else: INVALID_ARGUMENT. */
    MVVM_TYPE_NULL = 7,
    /** An unsigned integer, its bits in `integer`: a UInt64 (described "c_type": "uint64_t") as
     *  the library hands it out (mvvm_get, callbacks, results), and how a host passes a number
     *  above INT64_MAX. The library takes it for any integer or double it fits. mvvm_get_int
     *  still reads a UInt64 property as the int64_t of its bits. */
    MVVM_TYPE_UINT = 8,
    /** Bytes: `integer` of them at `string` (any bytes, NUL included; the library puts a NUL
     *  after those it hands out). Taken for a string when they are UTF-8. */
    MVVM_TYPE_BYTES = 9,
    /** An array value (not a list of view models: it is read, set and notified whole):
     *  `integer` elements, at MVVM_VALUE_ITEMS(v), each an mvvm_value. */
    MVVM_TYPE_ARRAY = 10,
    /** A record: `string` is its name (static, or NULL when a host passes one), its `integer`
     *  fields at MVVM_VALUE_ITEMS(v), in the order mvvm_classes lists them. */
    MVVM_TYPE_RECORD = 11,
    /** Host to library only: a record by its fields' names, `integer` pairs at
     *  MVVM_VALUE_ITEMS(v), each a name (MVVM_TYPE_STRING) followed by its value. A field left
     *  out is null when it is optional, and refused otherwise. */
    MVVM_TYPE_MAP = 12
} mvvm_type;

/**
 * A value: `type` says which fields hold it.
 *
 * Scalars: `boolean`, `integer`, `number`. A string: `string`, NUL-terminated UTF-8; in a value
 * the library hands out, `integer` is also its length in bytes, so that a string holding NUL
 * is read whole. Bytes: `integer` bytes at `string`. An array, a record or a map: `integer`
 * items at the pointer `object` holds (MVVM_VALUE_ITEMS). A handle: `object`.
 *
 * Who owns what a value points to:
 *  - A value the library passes to a callback or a request function, and everything it points
 *    to, belongs to the library and is valid only during that call (mvvm_value_copy() keeps a
 *    copy).
 *  - A value the library gives through an out-pointer (mvvm_get(), mvvm_call()'s result,
 *    mvvm_value_copy()) belongs to the caller, who frees it with mvvm_value_free(): one call
 *    frees the whole value, nested items included (they share one allocation; free only the
 *    top value). Calling it on a value of a scalar type is allowed and does nothing.
 *  - A value the host passes in is read during the call: its strings, bytes and items are
 *    copied before the call returns and stay the caller's. Arrays and records nest at most
 *    MVVM_MAX_VALUE_DEPTH deep and hold at most 2^24 items each.
 *
 * A host built against 0.2 sees these types' numbers in callbacks of properties of the new
 * kinds, and none of the rest changes for it: the library reads only the fields a value's type
 * uses, so a 0.2 host's values (which leave `object` unset) are read as before.
 */
typedef struct mvvm_value {
    mvvm_type type;
    bool boolean;
    int64_t integer;
    double number;
    const char *string;
    /** MVVM_TYPE_OBJECT: the handle. Appended in 0.2: a value the host builds must set it (or
     *  zero the whole struct) only when it says MVVM_TYPE_OBJECT; the library reads it then only. */
    mvvm_handle object;
} mvvm_value;

/** The items of an MVVM_TYPE_ARRAY, _RECORD or _MAP value `v` (a pointer to `mvvm_value`). */
#define MVVM_VALUE_ITEMS(v) ((const mvvm_value *)(uintptr_t)(v)->object)
/** Makes `object` point at `items`, for a value the host builds. */
#define MVVM_VALUE_SET_ITEMS(v, items) ((v)->object = (mvvm_handle)(uintptr_t)(const mvvm_value *)(items))
/** How deep a host's value may nest: arrays in arrays, records in records. */
#define MVVM_MAX_VALUE_DEPTH 32

/** What a notification is about. */
typedef enum mvvm_event_kind {
    /** A property changed; `value` is its new value. */
    MVVM_EVENT_PROPERTY = 1,
    /** A signal was emitted; `value` is its payload (MVVM_TYPE_NONE for none). */
    MVVM_EVENT_SIGNAL = 2,
    /**
     * A list property changed, as GListModel's items-changed(position, removed, added): at
     * `index`, `removed` items went and `inserted` items came. One change is announced as one
     * or more splices, in ascending order of `index`, each counted in the list as the splices
     * before it left it: applying them in order to a copy of the old list gives the new one, and
     * the items a splice inserts are already at their final indices (mvvm_list_item() reads
     * them during the call). `value` is MVVM_TYPE_NONE.
     */
    MVVM_EVENT_SPLICE = 3
} mvvm_event_kind;

/** A notification. `name` is static; the event and its strings are valid during the call only. */
typedef struct mvvm_event {
    mvvm_event_kind kind;
    const char *name;
    mvvm_value value;
    /** MVVM_EVENT_SPLICE only (0 otherwise); appended in 0.2. */
    int64_t index;
    int64_t removed;
    int64_t inserted;
} mvvm_event;

/**
 * How deep callbacks and request functions may nest on one loop, each calling into the library
 * and so causing the next; see "Threads" above.
 */
#define MVVM_MAX_NESTED_CALLS 64

/** Called for each change of a subscribed object (`source`). */
typedef void (*mvvm_callback)(mvvm_handle source, const mvvm_event *event, void *user_data);

/** Called exactly once with the user data of a subscription or service, when it ends. */
typedef void (*mvvm_destroy_fn)(void *user_data);

/**
 * An asynchronous call ended (mvvm_call_async): `status` is MVVM_OK with the command's `result`
 * (MVVM_TYPE_NONE for a command that returns nothing), MVVM_ERR_COMMAND_FAILED with the error's
 * text in `message`, or MVVM_ERR_CANCELLED. `result` and `message` belong to the library and are
 * valid during the call only (mvvm_value_copy keeps a result); `call` is no longer a valid
 * handle. Called exactly once per call, then its destroy function.
 */
typedef void (*mvvm_done_fn)(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message,
                             void *user_data);

/**
 * A host service is asked something: `view_model` needs an answer to `request`, which the
 * host gives later, from any thread, with mvvm_complete(request, &result). `argument` is valid
 * during the call only. Called on the thread that caused the request, with the loop's work
 * serialised, so it may read `view_model` and may call mvvm_complete() at once.
 */
typedef void (*mvvm_request_fn)(mvvm_handle view_model, mvvm_handle request,
                                const mvvm_value *argument, void *user_data);

/* ------------------------------------------------------------------------------------------ */
/* Library                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/** The library's version, "MAJOR.MINOR.PATCH". Static; never NULL. */
const char *mvvm_version(void);

/**
 * This thread's message for its last failed call, or "" when no call failed on this thread.
 * Owned by the library; valid until the next failing call on this thread. A message that
 * repeats a name or string the caller passed quotes at most its first 100 bytes, cut where a
 * character's UTF-8 encoding ends (and says how many bytes it had), so it stays short whatever
 * was passed, even one character of megabytes of combining marks.
 */
const char *mvvm_last_error(void);

/** The name of a status, such as "MVVM_ERR_READ_ONLY"; "MVVM_UNKNOWN_STATUS" for others. Static. */
const char *mvvm_status_name(mvvm_status status);

/**
 * This library's tag (1 to 255): every handle it issues carries it, and the copies of libmvvm
 * loaded in one process (a user's library and the catalog, opened side by side with
 * dlopen(RTLD_LOCAL)) each have a tag of their own, so a handle of one passed to another gives
 * MVVM_ERR_INVALID_HANDLE, never another object. A process holds at most 255 copies: a copy
 * loaded after them has no tag (0 here) and answers every call with MVVM_ERR_BAD_REGISTRATION,
 * its message naming the limit. A program that links two copies by name (every
 * mvvm_* call then goes to the first) is refused: the first says so on stderr when loaded, and
 * every call that needs its classes gives MVVM_ERR_BAD_REGISTRATION with that message. A copy is
 * never unloaded: dlclose leaves it mapped (its own threads and the Swift runtime point into it).
 * Static.
 */
uint8_t mvvm_library_tag(void);

/** Frees a string the library returned. NULL is allowed and does nothing. */
void mvvm_string_free(char *string);

/**
 * Frees what a value the library gave through an out-pointer points to (its string, bytes or
 * items: one allocation), and sets it to MVVM_TYPE_NONE, so freeing it twice does nothing. A
 * value of a scalar type, and NULL, are allowed. Never call it on a value a callback was lent,
 * on an item inside another value, or on a value the host built.
 */
void mvvm_value_free(mvvm_value *value);

/**
 * A deep copy of `value` in *out, owned by the caller (free it with mvvm_value_free): how a
 * callback keeps a value it was lent. Strings are copied by their lengths, NUL included.
 * Any thread. Errors: NULL_POINTER, INVALID_ARGUMENT (a malformed value: nested too deep, too
 * many items, invalid UTF-8, an unknown type, a map whose names are not all strings).
 */
mvvm_status mvvm_value_copy(const mvvm_value *value, mvvm_value *out);

/**
 * The field `field` of the record value `record`, in *out: a pointer into `record`, valid as
 * long as it is. The record's fields are also at MVVM_VALUE_ITEMS(record), in declared order.
 * Any thread. Errors: NULL_POINTER, TYPE_MISMATCH (not a record), UNKNOWN_NAME (no such record
 * or field), INVALID_ARGUMENT (a record value with fewer fields than its record has).
 */
mvvm_status mvvm_record_field(const mvvm_value *record, const char *field, const mvvm_value **out);

/* ------------------------------------------------------------------------------------------ */
/* Loops                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** Who runs a loop's time. */
typedef enum mvvm_loop_kind {
    /** The host runs due work with mvvm_loop_dispatch(); mvvm_loop_fd() says when. */
    MVVM_LOOP_MANUAL = 0,
    /** The library runs due work on a thread of its own. */
    MVVM_LOOP_THREAD = 1,
    /** Time moves only with mvvm_loop_advance(): exact and deterministic, for tests. */
    MVVM_LOOP_VIRTUAL = 2,
    /** The main loop: a manual loop (fd, dispatch, run_for, next timeout) for the app's main
     *  thread. Made, dispatched and run only on the process's main thread, one live at a time;
     *  its dispatch also runs the main queue's work (@MainActor jobs, DispatchQueue.main.async,
     *  Task { @MainActor in }) and the main run loop's due timers (Foundation Timer, RunLoop.main
     *  schedulers), and its fd is readable when they are due. Elsewhere, a second one, or in a
     *  process that called dispatch_main(): mvvm_loop_new() gives INVALID_ARGUMENT saying why;
     *  dispatch and run_for on another thread give WRONG_THREAD. docs/loops-and-threads.md. */
    MVVM_LOOP_MAIN = 3
} mvvm_loop_kind;

/**
 * The last instant of every loop's time, in milliseconds since the loop was created (2^62 ns,
 * about 146 years). mvvm_loop_advance() and mvvm_loop_run_for() refuse to go past it.
 */
#define MVVM_LOOP_TIME_LIMIT_MS INT64_C(4611686018427)

/**
 * Creates a loop of `kind` in *out. Release it with mvvm_release(), which stops it: pending
 * work is dropped, a thread loop's thread ends, and the loop's objects end their subscriptions
 * and answer MVVM_ERR_LOOP_RELEASED to every call but mvvm_release(). Released from outside
 * every callback, a thread loop's thread has ended when mvvm_release() returns (no code of the
 * library runs on it any more); released from a callback, it ends just after.
 * Errors: NULL_POINTER, INVALID_ARGUMENT (unknown kind; MVVM_LOOP_MAIN off the main thread, while
 * another is live, or after dispatch_main(), the message saying which), INTERNAL (no thread or fd).
 */
mvvm_status mvvm_loop_new(mvvm_loop_kind kind, mvvm_handle *out);

/**
 * Manual and main loops: a file descriptor, owned by the loop, that is readable while work is due
 * (a main loop's also while main-queue work or a main run loop timer is due: an epoll set).
 * Add it to poll, epoll, asyncio, Tk or GLib and call mvvm_loop_dispatch() when it is readable.
 * It stays valid until the loop is released; remove it from your poll set first.
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, WRONG_LOOP_KIND.
 */
mvvm_status mvvm_loop_fd(mvvm_handle loop, int *out);

/**
 * Manual and main loops: runs the work due now on the calling thread; changes it causes are
 * notified on this thread before it returns. *ran_or_null gets how many pieces of work ran (a
 * main loop's drain of the main queue, and its pass of the main run loop, count one each).
 * Errors: INVALID_HANDLE, WRONG_TYPE, WRONG_LOOP_KIND, INVALID_ARGUMENT (called from a
 * callback this loop is running), WRONG_THREAD (a main loop, off the main thread).
 */
mvvm_status mvvm_loop_dispatch(mvvm_handle loop, int64_t *ran_or_null);

/**
 * Milliseconds until the next work is due, rounded up: 0 when some is due now, -1 when nothing
 * is scheduled. Any kind of loop. Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER.
 */
mvvm_status mvvm_loop_next_timeout_ms(mvvm_handle loop, int64_t *out);

/**
 * Manual and main loops: dispatches due work on the calling thread for `ms` milliseconds,
 * sleeping between pieces of work. Releasing the loop from another thread (or from a callback)
 * wakes it: it returns promptly with LOOP_RELEASED, even when the loop was idle.
 * Errors: INVALID_HANDLE, WRONG_TYPE, WRONG_LOOP_KIND, LOOP_RELEASED (the loop was released
 * before or during the call), INVALID_ARGUMENT (negative ms, ms that would end past the loop's
 * time limit, or called from a callback this loop is running), WRONG_THREAD (a main loop, off
 * the main thread).
 */
mvvm_status mvvm_loop_run_for(mvvm_handle loop, int64_t ms);

/**
 * Virtual loops: moves time forward by `ms` milliseconds, running everything due up to then in
 * time order (work due at the same instant in the order it was scheduled); 0 runs what is due
 * now. Changes are notified on the calling thread, once per instant at which work ran.
 * Concurrent advances of one loop are serialised: each moves time by its whole `ms`, from the
 * time the loop had when that advance began its turn (two threads advancing 1 ms 50,000 times
 * each move it exactly 100,000 ms). A loop's time ends at MVVM_LOOP_TIME_LIMIT_MS: an advance past it does nothing and fails.
 * Errors: INVALID_HANDLE, WRONG_TYPE, WRONG_LOOP_KIND, INVALID_ARGUMENT (negative ms, ms past
 * MVVM_LOOP_TIME_LIMIT_MS, or called from a callback this loop is running).
 */
mvvm_status mvvm_loop_advance(mvvm_handle loop, int64_t ms);

/** The loop's time in milliseconds since it was created. Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER. */
mvvm_status mvvm_loop_now_ms(mvvm_handle loop, int64_t *out);

/* ------------------------------------------------------------------------------------------ */
/* Objects: generic calls that work on every class                                            */
/* ------------------------------------------------------------------------------------------ */

/*
 * Properties are read with mvvm_get_<type>(h, name, &out) and bindings (read-write properties)
 * set with mvvm_set_<type>(h, name, value). Errors common to all eight: INVALID_HANDLE,
 * WRONG_TYPE (h is a loop, subscription or request), NULL_POINTER, UNKNOWN_NAME,
 * TYPE_MISMATCH (the property is of another type), LOOP_RELEASED; setters also READ_ONLY,
 * and INVALID_ARGUMENT for bad UTF-8 or when called MVVM_MAX_NESTED_CALLS deep. A setter that changes a value notifies the subscribers
 * on the calling thread before it returns.
 */
mvvm_status mvvm_get_bool(mvvm_handle object, const char *name, bool *out);
mvvm_status mvvm_get_int(mvvm_handle object, const char *name, int64_t *out);
mvvm_status mvvm_get_double(mvvm_handle object, const char *name, double *out);
/** *out is a new string; free it with mvvm_string_free(). */
mvvm_status mvvm_get_string(mvvm_handle object, const char *name, char **out);
mvvm_status mvvm_set_bool(mvvm_handle object, const char *name, bool value);
mvvm_status mvvm_set_int(mvvm_handle object, const char *name, int64_t value);
mvvm_status mvvm_set_double(mvvm_handle object, const char *name, double value);
mvvm_status mvvm_set_string(mvvm_handle object, const char *name, const char *value);

/**
 * Any property's value in *out, whatever its type (an optional holding none is MVVM_TYPE_NULL;
 * an array, a record or bytes as MVVM_VALUE_ITEMS / `string` describe). The caller owns it and
 * frees it with mvvm_value_free(). The typed getters above read the plain kinds; for an
 * optional that holds none they give TYPE_MISMATCH.
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, UNKNOWN_NAME, TYPE_MISMATCH (a list: see
 * mvvm_list_count), INVALID_ARGUMENT (bad UTF-8), LOOP_RELEASED.
 */
mvvm_status mvvm_get(mvvm_handle object, const char *name, mvvm_value *out);

/**
 * Sets the binding `name` to `value`, any type, converted by the library's one rule: a value of
 * the property's own type; an int for a double; bytes that are UTF-8 for a string; null for an
 * optional only; an array whose elements each convert; a record (fields in order) or a map
 * (fields by name) for a record. Changes are notified before it returns.
 * Errors: as the typed setters; TYPE_MISMATCH (a value of another kind: the message names the
 * element or field), INVALID_ARGUMENT (null for a non-optional, out of range, not one of the
 * allowed strings, a malformed array, record or map: the message names it). A refused value
 * changes nothing.
 */
mvvm_status mvvm_set(mvvm_handle object, const char *name, const mvvm_value *value);

/**
 * Starts `command` (any command; one registered as `async`, a Swift `async` function, is what it
 * is for) with arguments as mvvm_call_named() takes them, and gives the call's handle in *out.
 * The command runs as a task on the object's loop: in this call up to its first suspension
 * (what it changed by then is notified before this returns, as for any call), then as the
 * loop's work (resumed by a thread loop's thread, the next mvvm_loop_dispatch() or
 * mvvm_loop_run_for() of a manual loop, the next mvvm_loop_advance() of a virtual one: a one
 * second sleep on the loop's clock ends exactly when an advance reaches it).
 * `done(call, status, result, message, user_data)` runs exactly once, after the changes of the
 * operation or turn that ended the call are notified: on the calling thread before this returns
 * when the command ends without suspending; otherwise on the thread that runs the loop's work;
 * on the thread that calls mvvm_cancel() or releases the call, its object or its loop
 * (status MVVM_ERR_CANCELLED). Then `destroy_fn_or_null(user_data)` runs, once; it also runs,
 * before this returns, when the call cannot start after checking `done` (and `done` then never
 * runs; a NULL `done` runs nothing, as mvvm_subscribe()'s NULL callback). *out is set before the
 * call can end (a request function its task causes may cancel it by that handle); the handle
 * names the call until `done` has run, but once the call has ended (its outcome decided, `done`
 * about to run) it can no longer be cancelled or released. A call that fails leaves *out as it
 * was.
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER (object, command, done or out),
 * UNKNOWN_NAME, TYPE_MISMATCH, INVALID_ARGUMENT (as mvvm_call_named), LOOP_RELEASED.
 */
mvvm_status mvvm_call_async(mvvm_handle object, const char *command, const char *const *names,
                            const mvvm_value *args, size_t count, mvvm_done_fn done, void *user_data,
                            mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);

/**
 * Cancels an asynchronous call: its task is cancelled (a sleep on the loop's clock, or a wait
 * for a host service, ends at once with CancellationError; a request it is waiting for is
 * withdrawn, and answering it gives UNKNOWN_REQUEST, also when this is called from that
 * request's own request function) and its completion runs now, on the calling thread, with
 * MVVM_ERR_CANCELLED; what the task does after that is not reported. mvvm_release() of the
 * call's handle does the same. A call of a main-actor object (MVVM_LOOP_MAIN) cancelled from
 * another thread is decided now and carried out on the main loop's thread at its next dispatch
 * (its fd becomes readable): the task is told there, and the completion runs there.
 * The outcome is decided once, whichever thread ends the call: of a cancel (or release) and the
 * call's own end racing on another thread, exactly one wins. MVVM_OK means this cancel won and
 * the completion reports MVVM_ERR_CANCELLED; when the call ended first, this gives
 * INVALID_HANDLE and the completion reports how it ended; of two cancels at once, one gets
 * MVVM_OK and the other INVALID_HANDLE. The release of the call's object (or loop) on another
 * thread decides it too, as CANCELLED, its completion running on that thread: a cancel (or
 * release of the call) that comes after gets INVALID_HANDLE (LOOP_RELEASED, for a cancel racing
 * the loop's release).
 * Errors: INVALID_HANDLE (a call that has ended: its outcome decided, its completion run or
 * about to run; or cancelled or released already), WRONG_TYPE, LOOP_RELEASED (the call's loop
 * was released meanwhile: that release cancels the call, its completion reporting
 * MVVM_ERR_CANCELLED).
 */
mvvm_status mvvm_cancel(mvvm_handle call);

/**
 * Sends `command` to the object, with `argument_or_null` when the command takes one (NULL or a
 * value of MVVM_TYPE_NONE when it takes none); mvvm_call() takes any number and gives the
 * result. Changes are notified before it returns.
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, UNKNOWN_NAME, TYPE_MISMATCH (argument of
 * the wrong type), INVALID_ARGUMENT (an argument missing or too many, a string argument that is
 * not one the command knows, bad UTF-8, or called MVVM_MAX_NESTED_CALLS deep), COMMAND_FAILED
 * (the command threw; what it changed first is notified), LOOP_RELEASED.
 */
mvvm_status mvvm_send(mvvm_handle object, const char *command, const mvvm_value *argument_or_null);

/**
 * Runs `command` (not an `async` one: INVALID_ARGUMENT, use mvvm_call_async) with `args[0 .. count-1]` in their declared order (mvvm_classes lists each
 * command's "arguments"; an optional argument left out at the end is null), converted as
 * mvvm_set() converts. Its result, when `result_or_null` is not NULL, goes there: owned by the
 * caller (mvvm_value_free), MVVM_TYPE_NONE for a command that returns nothing. Changes are
 * notified before it returns, also when it fails. `args` may be NULL when `count` is 0.
 * Errors: as mvvm_send(), and INVALID_ARGUMENT for a count the command does not take;
 * COMMAND_FAILED when its Swift code threw, mvvm_last_error() giving the error's text.
 */
mvvm_status mvvm_call(mvvm_handle object, const char *command, const mvvm_value *args, size_t count,
                      mvvm_value *result_or_null);

/**
 * mvvm_call() with arguments by name: `names[i]` names `args[i]`, or is NULL for an argument by
 * position (those come first); `names` NULL means all by position. Errors: as mvvm_call(), and
 * INVALID_ARGUMENT for a name the command has not, or one given twice.
 */
mvvm_status mvvm_call_named(mvvm_handle object, const char *command, const char *const *names,
                            const mvvm_value *args, size_t count, mvvm_value *result_or_null);

/**
 * A new handle in *out to the child view model `name` (timer_view_model's "display"...). The
 * child keeps its parent's view model alive; the caller releases the handle. Each call gives a
 * new handle to the same child. Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, UNKNOWN_NAME,
 * INVALID_ARGUMENT (bad UTF-8, or called MVVM_MAX_NESTED_CALLS deep), LOOP_RELEASED.
 */
mvvm_status mvvm_child(mvvm_handle object, const char *name, mvvm_handle *out);

/**
 * The handle's class name in *out, such as "sign_up_view_model", or "loop", "subscription",
 * "request", "service", "call". Static. Errors: INVALID_HANDLE, NULL_POINTER.
 */
mvvm_status mvvm_class_name(mvvm_handle handle, const char **out);

/**
 * What the object's class offers, as a new JSON string in *out (free with mvvm_string_free):
 * {"class": "...", "constructor": the name of the constructor that made this object ("new",
 * "new_with_seed"...; null for a child or a list's item), "properties": [{"name", <type>,
 * "access": "ro"|"rw", "doc"}], "commands":
 * [{"name", "arguments": [{"name", <type>}], "result": {<type>}, "throws", "async", "doc",
 * and, for a command of at most one argument, "argument" (its type's name, or "none") and
 * "values"}], "signals": [{"name", <type>, "doc"}], "children": [names], "records": {name:
 * {"name", "swift_name", "doc", "fields": [{"name", <type>}]}}: every record the members use}.
 * A <type> is written as members of its object: "type" ("none", "bool", "int", "double",
 * "string", "bytes", "array", "record"; "list" for a list of view models), and as needed
 * "optional": true (null is one of its values), "values" (the only strings it takes),
 * "c_type" (the C type a typed call takes it as, on properties, arguments and results:
 * "int64_t", "uint64_t" for a UInt64, "const mvvm_value *"...; "uint64_t" on any unsigned
 * 64-bit int), "min" and "max" (an int narrower than 64
 * bits), "element" (an array's element type, an object), "record" (a record's name).
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, LOOP_RELEASED.
 */
mvvm_status mvvm_describe(mvvm_handle object, char **out);

/**
 * Every property's current value, as a new JSON object string in *out (free with
 * mvvm_string_free), such as {"count": 3, "is_doing": true}. null is an optional's none; a
 * double JSON has no number for is the string "NaN", "Infinity" or "-Infinity".
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, LOOP_RELEASED.
 */
mvvm_status mvvm_snapshot(mvvm_handle object, char **out);

/**
 * Releases any handle: a loop (see mvvm_loop_new), an object (its subscriptions end, each
 * destroy function running once, and its pending host-service requests are cancelled), a
 * subscription (as mvvm_unsubscribe), a request (cancels it; its answer is never awaited) or an
 * asynchronous call (as mvvm_cancel; the object's release cancels its calls too).
 * The handle is invalid afterwards; releasing it again gives INVALID_HANDLE. The handle
 * becomes invalid before any destroy function or request cancellation runs, so releasing the
 * object again from one of its own destroy functions gives INVALID_HANDLE: one release, one OK.
 * The release is decided at once, whatever thread asks: of two threads releasing one handle
 * at once (or releasing and unsubscribing, cancelling or answering it), exactly one caller
 * wins and gets MVVM_OK; the other gets INVALID_HANDLE (UNKNOWN_REQUEST, for an answer).
 * A main-actor object (MVVM_LOOP_MAIN), or its subscription or call, released from another
 * thread: the handle ends now, no callback of the object's subscriptions starts after this
 * returns (as for mvvm_unsubscribe(), this may wait for a delivery the main thread has begun),
 * and the rest (the destroy functions, the calls' CANCELLED completions) runs on the
 * main loop's thread at its next dispatch (its fd becomes readable).
 * May be called from a callback, including on the callback's own source.
 * Errors: INVALID_HANDLE (not live: released already, an asynchronous call that has ended, or
 * another thread's release won).
 */
mvvm_status mvvm_release(mvvm_handle handle);

/* ------------------------------------------------------------------------------------------ */
/* Notifications                                                                              */
/* ------------------------------------------------------------------------------------------ */

/**
 * Subscribes `callback` to the property or signal `name_or_null` of `object` (NULL: every
 * property and signal), giving the subscription's handle in *out.
 *
 * - A property is notified only when its value really changed, after the change is complete:
 *   a getter called inside the callback returns the new value.
 * - One operation (a setter, a command, one instant of due work) notifies each changed
 *   property once, with its final value; signals are each delivered.
 * - A change caused by a host call is notified on the caller's thread before the call returns;
 *   a change caused by time on the thread that runs the loop.
 * - Subscribers are notified in the order they subscribed. Within one operation, objects
 *   announce in the order their handles were made, each object's properties in the order
 *   mvvm_describe() lists them, then its signals in that order too (one signal emitted twice
 *   is delivered twice, in the order of emission).
 * - `destroy_fn_or_null(user_data)` runs exactly once, when the subscription ends: by
 *   mvvm_unsubscribe(), mvvm_release() of it, of its object or of the object's loop. It also
 *   runs, before this returns, when subscribing fails after checking `callback`.
 *
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER (object, callback or out), UNKNOWN_NAME,
 * INVALID_ARGUMENT (bad UTF-8, or called MVVM_MAX_NESTED_CALLS deep), LOOP_RELEASED.
 */
mvvm_status mvvm_subscribe(mvvm_handle object, const char *name_or_null, mvvm_callback callback,
                           void *user_data, mvvm_destroy_fn destroy_fn_or_null, mvvm_handle *out);

/**
 * Ends a subscription: its callback is not called again, and its destroy function runs now.
 * A main-actor object's subscription (MVVM_LOOP_MAIN) ended from another thread: no call of its
 * callback starts after this returns (this waits, if the main thread is delivering, until the
 * callback it had decided to call has begun; one already running may still be running), and
 * its destroy function runs on the main loop's thread at its next dispatch.
 * Of two threads ending one subscription at once (mvvm_unsubscribe() or mvvm_release()),
 * exactly one wins and gets MVVM_OK; the other gets INVALID_HANDLE.
 * Errors: INVALID_HANDLE (already ended, or another thread's end won), WRONG_TYPE.
 */
mvvm_status mvvm_unsubscribe(mvvm_handle subscription);

/**
 * Answers a host-service request with `result` (sign-up: MVVM_TYPE_BOOL, true for success;
 * welcome API: MVVM_TYPE_STRING, the message), from any thread. The request handle is released.
 * Changes the answer causes are notified on the calling thread before this returns, including
 * those of an asynchronous call that was waiting for it, up to its next suspension (and its
 * completion, when the answer lets it end).
 * Errors: UNKNOWN_REQUEST (a request handle that was issued and has been answered, cancelled,
 * or whose view model was released), INVALID_HANDLE (0, or a handle of no request ever issued:
 * a forged value), WRONG_TYPE, NULL_POINTER,
 * TYPE_MISMATCH (the request stays open), INVALID_ARGUMENT (bad UTF-8, or called
 * MVVM_MAX_NESTED_CALLS deep), LOOP_RELEASED.
 */
mvvm_status mvvm_complete(mvvm_handle request, const mvvm_value *result);

/**
 * Answers a host-service request with `result` as work of the request's loop, from any thread:
 * the safe way to answer from a worker thread. The answer is applied, and the changes it causes
 * are notified, on the loop's thread (a thread loop), in the next mvvm_loop_dispatch() or
 * mvvm_loop_run_for() (a manual loop), or in the next mvvm_loop_advance() (a virtual loop; 0 ms
 * will do). The request is checked now (same errors as mvvm_complete(), except the nesting
 * limit); the string of a string result is copied before this returns. If the request is
 * cancelled, or its view model or loop released, before that work runs, the answer is dropped
 * (a cancelled request is never answered). The request handle stays valid until then, but
 * counts as answered: mvvm_complete() or mvvm_complete_soon() on it gives UNKNOWN_REQUEST.
 * Errors: UNKNOWN_REQUEST, INVALID_HANDLE, WRONG_TYPE, NULL_POINTER, TYPE_MISMATCH,
 * INVALID_ARGUMENT (bad UTF-8), LOOP_RELEASED.
 */
mvvm_status mvvm_complete_soon(mvvm_handle request, const mvvm_value *result);

/* ------------------------------------------------------------------------------------------ */
/* Classes: introspection and construction                                                    */
/* ------------------------------------------------------------------------------------------ */

/**
 * Every class this library exports (those its hook registers: the catalog's in libmvvm.so), as
 * a new JSON array in *json_out, freed with mvvm_string_free. Each element is what
 * mvvm_describe() gives for an object of the class, plus "swift_name", "swift_module", "doc",
 * "child_classes" (child name -> class name), "item_class" on each list property, and
 * "constructors": each with its "name" ("new", "new_with_<suffix>": the typed call
 * mvvm_<class>_<name>), "doc" and "arguments", each {"name", <type>} (with "c_type", the typed
 * call's C type) for a value, {"name", "type": "object", "classes"} for a model, or {"name",
 * "type": "service", "request_argument", "result"} for a host service. A class with no
 * constructor is made only by its parent (mvvm_child). The list and its order are fixed once
 * the library is loaded. Any thread.
 * Errors: NULL_POINTER, BAD_REGISTRATION (the message names every problem).
 */
mvvm_status mvvm_classes(char **json_out);

/**
 * Makes an object of the class `class_name` on `loop` and gives its new handle in *out (the
 * caller releases it), with the constructor whose arguments `args[0 .. count-1]` fit, by count
 * then by type: for a value argument, a value of its type as mvvm_set() takes one (a scalar, an
 * optional, an array, a record, bytes; strings are copied), and MVVM_TYPE_OBJECT for a model (a handle of an object of one of the argument's classes, on the
 * same loop) or a host service (a handle from mvvm_service_new()). `args` may be NULL when
 * `count` is 0. Any thread; serialised with the loop's work.
 * Errors: INVALID_HANDLE (loop, or an argument's handle, not live), WRONG_TYPE (loop is not a
 * loop; a model of another class; a service argument that is no service), NULL_POINTER (out,
 * class_name, or args with count > 0), UNKNOWN_NAME (no such class), INVALID_ARGUMENT (no
 * constructor takes `count` arguments, or the class has none; an argument out of range, the
 * message naming it; a model of another loop; bad UTF-8; an unknown mvvm_type; called
 * MVVM_MAX_NESTED_CALLS deep), TYPE_MISMATCH (an argument of the wrong type: the message names
 * it), LOOP_RELEASED.
 */
mvvm_status mvvm_new(mvvm_handle loop, const char *class_name, const mvvm_value *args, size_t count,
                     mvvm_handle *out);

/**
 * mvvm_new() with arguments by name, as mvvm_call_named() takes them: the constructor chosen is
 * the first, in the order mvvm_classes lists them, whose arguments these name and whose types
 * accept them (an optional argument not given is null).
 * Errors: as mvvm_new(), and INVALID_ARGUMENT for a name no constructor fits or one given twice.
 */
mvvm_status mvvm_new_named(mvvm_handle loop, const char *class_name, const char *const *names,
                           const mvvm_value *args, size_t count, mvvm_handle *out);

/**
 * A host service, to pass to constructors (mvvm_new) that take one: each view model made with
 * it calls `request_fn(view_model, request, argument, user_data)` when its model asks something,
 * and the host answers with mvvm_complete(). One service may serve several view models.
 * `destroy_fn_or_null(user_data)` runs exactly once: when the service's handle has been
 * released (mvvm_release) and every view model made with it has been released — or at once
 * when this call fails. The handle gives nothing but construction. Any thread.
 * Errors: NULL_POINTER (request_fn or out).
 */
mvvm_status mvvm_service_new(mvvm_request_fn request_fn, void *user_data, mvvm_destroy_fn destroy_fn_or_null,
                             mvvm_handle *out);

/* ------------------------------------------------------------------------------------------ */
/* Lists of child view models                                                                 */
/* ------------------------------------------------------------------------------------------ */

/**
 * The number of items of the list property `name` of `object` in *out. Subscribe to `name` (or
 * to everything) to hear its changes as MVVM_EVENT_SPLICE events. While an operation's changes
 * are delivered, a list it changed reads as its splices delivered so far leave it: as before
 * the operation until its first splice is delivered, so a host that first reads it then and
 * applies its splices as they come has it right (mvvm_list_item() alike). Any thread;
 * serialised with the loop's work; works MVVM_MAX_NESTED_CALLS deep (a read).
 * Errors: INVALID_HANDLE, WRONG_TYPE, NULL_POINTER (name or out), UNKNOWN_NAME, TYPE_MISMATCH
 * (not a list), INVALID_ARGUMENT (bad UTF-8), LOOP_RELEASED.
 */
mvvm_status mvvm_list_count(mvvm_handle object, const char *name, int64_t *out);

/**
 * A new handle to the item at `index` (from 0) of the list property `name` of `object`, in
 * *out; the caller releases it. The item stays usable while this handle lives, even after it
 * leaves the list. Each call gives a new handle; mvvm_object_id() tells items apart.
 * Errors: as mvvm_list_count(), and INVALID_ARGUMENT for an index out of range.
 */
mvvm_status mvvm_list_item(mvvm_handle object, const char *name, int64_t index, mvvm_handle *out);

/**
 * The identity of the model or view model behind `object`, in *out: one int64 for the Swift
 * object's whole life, the same through every handle to it, never given to another object, so
 * a host can tell an item that moved within a list from a new one. Any thread.
 * Errors: INVALID_HANDLE, WRONG_TYPE (not an object), NULL_POINTER, LOOP_RELEASED.
 */
mvvm_status mvvm_object_id(mvvm_handle object, int64_t *out);

/* ------------------------------------------------------------------------------------------ */
/* Typed calls: a header of each package's own                                                */
/* ------------------------------------------------------------------------------------------ */

/*
 * This header is the fixed ABI alone. The typed calls of a package's classes are generated from
 * their descriptions (mvvm_classes) into a header of the package's own, which includes this one:
 * `python3 -m mvvm_gen --module NAME --header NAME.h` (the generator in tools/mvvm_gen;
 * docs/packages.md). The catalog's are in mvvm_catalog.h, and libmvvm.so defines them; a library
 * defines those of the packages its hook registers, and no other.
 *
 * Constructors, mvvm_<class>_new[_with_<suffix>](loop, args…, &out), are mvvm_new() with that
 * constructor: they take the loop first and give the new object's handle in *out; the caller
 * releases it. Errors common to all: INVALID_HANDLE, WRONG_TYPE (a handle of the wrong class),
 * NULL_POINTER (out), INVALID_ARGUMENT (a model of another loop, a value out of range, or
 * called MVVM_MAX_NESTED_CALLS deep), LOOP_RELEASED. A service argument is given as its request
 * function, user data and destroy function (see mvvm_service_new).
 *
 * Typed calls are thin wrappers over the generic calls, with the same errors, plus WRONG_TYPE
 * for an object of another class:
 * mvvm_<class>_<command>(h[, arguments…][, &result]) is mvvm_call(h, "<command>", …);
 * mvvm_<class>_get_<property>(h, &out) is mvvm_get_<type>(h, "<property>", &out) (a string is
 * new, freed with mvvm_string_free; a value that is not a plain scalar is an mvvm_value freed
 * with mvvm_value_free); mvvm_<class>_set_<property>(h, v) is mvvm_set_<type>;
 * mvvm_<class>_<child>(h, &out) is mvvm_child(h, "<child>", &out).
 */

#ifdef __cplusplus
}
#endif

#endif /* MVVM_H */
