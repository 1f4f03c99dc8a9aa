/*
 * mvvm-glib.h - libmvvm's view models as GObjects: the GLib bridge (libmvvm-glib.so).
 *
 * A libmvvm library (libmvvm.so, or any user package's library such as build/todo/libtodo.so)
 * is opened by path, and each class it lists in mvvm_classes() becomes a GType made at run time
 * from the class's description, derived from MvvmGlibObject:
 *
 *  - Properties are GObject properties, readable, and writable when the member is a binding.
 *    Their names are the members' names as GObject writes them ('-' for '_': items_left is
 *    "items-left"; "items_left" is accepted wherever GLib takes a name). bool is gboolean,
 *    int gint64 (guint64 for a uint64_t), double gdouble, string gchararray; an optional value
 *    (of any type), an array or a record is a GVariant; bytes are GBytes.
 *  - notify::name is emitted from libmvvm's own notifications: after the change is complete,
 *    once per operation, only when the value really changed. A set that the library refuses or
 *    puts back (a value it could not save, a string it does not take) changes nothing; the
 *    property is then notified once more from an idle of the loop's GMainContext, so that
 *    widgets bound to it show the value it holds.
 *  - A list property (a list of child view models) is a GListModel (MvvmGlibListModel) of the
 *    items' GObjects, whose items-changed(position, removed, added) is each splice libmvvm
 *    announces, as it announces it. A child view model is a read-only object property.
 *  - Signals are GObject signals of the same name, with the payload as one parameter (none for
 *    a signal without payload).
 *  - Commands of no or one argument are also actions: MvvmGlibObject implements GActionGroup,
 *    an action per command, named as the command with '-' for '_' ("clear-completed"), its
 *    parameter of the argument's GVariant type. Every command, of any arguments, with its result
 *    and its error, synchronous or async, is reached with mvvm_glib_object_call() and
 *    mvvm_glib_object_call_async().
 *
 * Values as GVariant: bool "b", int "x" (a uint64_t "t"), double "d", string "s", bytes "ay", an
 * array "a" + its element's type, a record "a{sv}" (its fields by name, each a variant of the
 * field's type), an optional "m" + its type (nothing for none). A property's GVariant is of the
 * property's own type (GObject checks it: an optional record is set as "just {...}", and a NULL
 * GVariant is an optional's none). Arguments of calls and actions are converted by their own
 * GVariant type and the library decides whether the member takes them: integers
 * of every width, doubles, strings (also object paths and signatures), "ay" as bytes, any other
 * array as an array, a dictionary with string keys as a record by field names, a tuple as a
 * record by field order, a maybe as null or its value, a variant as its content.
 *
 * Conventions:
 *  - Ownership follows GLib's: (transfer full) results are the caller's to unref or free;
 *    strings marked static live as long as the library. A GVariant passed in that is floating
 *    is consumed (sunk and released), as g_dbus_connection_call() does.
 *  - Errors are GErrors of the MVVM_GLIB_ERROR domain, whose codes are libmvvm's statuses
 *    (MVVM_GLIB_ERROR_COMMAND_FAILED is MVVM_ERR_COMMAND_FAILED...) and whose messages are
 *    mvvm_last_error()'s; the bridge's own are MVVM_GLIB_ERROR_LOAD_FAILED and
 *    MVVM_GLIB_ERROR_UNSUPPORTED. A cancelled asynchronous call is G_IO_ERROR_CANCELLED.
 *  - Threads: open libraries from any thread. Loops, objects and list models belong to the
 *    thread that runs their loop's GMainContext (GTK's thread, for a GTK app), as widgets do:
 *    every notification, signal and items-changed is emitted there, and they are used there.
 *  - Lifetimes: a library stays loaded for the life of the process (GTypes are never
 *    unregistered; opening it again gives the same MvvmGlibLibrary). A loop holds its libmvvm
 *    loop and an object its handle: the last unref releases them (an object's subscription
 *    ends then, and its destroy notify runs, once). An object keeps its loop, its children and its
 *    list models, a pending asynchronous call its object. One Swift object has one GObject at a time:
 *    the same item read through a list, a child property or another list is the same GObject.
 *
 * A GObject-Introspection typelib of this API (namespace MvvmGlib, version 1.0) is built with
 * the library, so PyGObject and GJS use it: each class's GType is reached through
 * MvvmGlib.Object, and its properties through props and get_property().
 */
#ifndef MVVM_GLIB_H
#define MVVM_GLIB_H

#include <gio/gio.h>
#include <glib-object.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * MVVM_GLIB_ERROR:
 *
 * The error domain of the bridge: its codes are #MvvmGlibError.
 */
#define MVVM_GLIB_ERROR (mvvm_glib_error_quark())

/**
 * MvvmGlibError:
 * @MVVM_GLIB_ERROR_INVALID_HANDLE: MVVM_ERR_INVALID_HANDLE: a released or forged handle.
 * @MVVM_GLIB_ERROR_WRONG_TYPE: MVVM_ERR_WRONG_TYPE: a handle of another class.
 * @MVVM_GLIB_ERROR_NULL_POINTER: MVVM_ERR_NULL_POINTER.
 * @MVVM_GLIB_ERROR_INVALID_ARGUMENT: MVVM_ERR_INVALID_ARGUMENT: a value out of range, an
 *   argument missing or unknown, a string the member does not take.
 * @MVVM_GLIB_ERROR_UNKNOWN_NAME: MVVM_ERR_UNKNOWN_NAME: no such class, property or command.
 * @MVVM_GLIB_ERROR_READ_ONLY: MVVM_ERR_READ_ONLY.
 * @MVVM_GLIB_ERROR_TYPE_MISMATCH: MVVM_ERR_TYPE_MISMATCH: a value of the wrong type.
 * @MVVM_GLIB_ERROR_WRONG_LOOP_KIND: MVVM_ERR_WRONG_LOOP_KIND.
 * @MVVM_GLIB_ERROR_UNKNOWN_REQUEST: MVVM_ERR_UNKNOWN_REQUEST.
 * @MVVM_GLIB_ERROR_INTERNAL: MVVM_ERR_INTERNAL.
 * @MVVM_GLIB_ERROR_LOOP_RELEASED: MVVM_ERR_LOOP_RELEASED.
 * @MVVM_GLIB_ERROR_COMMAND_FAILED: MVVM_ERR_COMMAND_FAILED: the command's Swift code threw;
 *   the message is the error's text.
 * @MVVM_GLIB_ERROR_CANCELLED: MVVM_ERR_CANCELLED (asynchronous calls give
 *   G_IO_ERROR_CANCELLED instead).
 * @MVVM_GLIB_ERROR_BAD_REGISTRATION: MVVM_ERR_BAD_REGISTRATION: the library serves no class.
 * @MVVM_GLIB_ERROR_WRONG_THREAD: MVVM_ERR_WRONG_THREAD: a main-actor object used off the main
 *   thread.
 * @MVVM_GLIB_ERROR_LOAD_FAILED: the file could not be loaded, or lacks a function of the
 *   libmvvm ABI.
 * @MVVM_GLIB_ERROR_UNSUPPORTED: what the bridge does not do: a loop that is not a manual or main
 *   loop (a thread loop runs on its own thread, a virtual loop never runs by itself).
 *
 * Why a call of the bridge failed.
 */
typedef enum {
    MVVM_GLIB_ERROR_INVALID_HANDLE = 1,
    MVVM_GLIB_ERROR_WRONG_TYPE = 2,
    MVVM_GLIB_ERROR_NULL_POINTER = 3,
    MVVM_GLIB_ERROR_INVALID_ARGUMENT = 4,
    MVVM_GLIB_ERROR_UNKNOWN_NAME = 5,
    MVVM_GLIB_ERROR_READ_ONLY = 6,
    MVVM_GLIB_ERROR_TYPE_MISMATCH = 7,
    MVVM_GLIB_ERROR_WRONG_LOOP_KIND = 8,
    MVVM_GLIB_ERROR_UNKNOWN_REQUEST = 9,
    MVVM_GLIB_ERROR_INTERNAL = 10,
    MVVM_GLIB_ERROR_LOOP_RELEASED = 11,
    MVVM_GLIB_ERROR_COMMAND_FAILED = 12,
    MVVM_GLIB_ERROR_CANCELLED = 13,
    MVVM_GLIB_ERROR_BAD_REGISTRATION = 14,
    MVVM_GLIB_ERROR_WRONG_THREAD = 15,
    MVVM_GLIB_ERROR_LOAD_FAILED = 100,
    MVVM_GLIB_ERROR_UNSUPPORTED = 101
} MvvmGlibError;

/**
 * mvvm_glib_error_quark:
 *
 * The quark of #MVVM_GLIB_ERROR. Any thread.
 *
 * Returns: the error domain's quark.
 */
GQuark mvvm_glib_error_quark(void);

/**
 * mvvm_glib_error_get_type:
 *
 * The GType of #MvvmGlibError (a GEnum, for introspection and GValues). Any thread.
 *
 * Returns: the GType.
 */
GType mvvm_glib_error_get_type(void) G_GNUC_CONST;
#define MVVM_GLIB_TYPE_ERROR (mvvm_glib_error_get_type())

/* ------------------------------------------------------------------------------------------ */
/* Libraries                                                                                  */
/* ------------------------------------------------------------------------------------------ */

#define MVVM_GLIB_TYPE_LIBRARY (mvvm_glib_library_get_type())
G_DECLARE_FINAL_TYPE(MvvmGlibLibrary, mvvm_glib_library, MVVM_GLIB, LIBRARY, GObject)

/**
 * mvvm_glib_library_open:
 * @path: (type filename): the library's file, as dlopen() takes it (a path with a '/' is
 *   opened as it is; a bare name is searched as dlopen() searches)
 * @error: return location for a #GError, or %NULL
 *
 * Opens a libmvvm library with dlopen(RTLD_NOW | RTLD_LOCAL), reaches its functions with
 * dlsym(), reads its classes (mvvm_classes) and registers a GType per class, named after the
 * file and the class ("MvvmTodo_TodoListViewModel" for todo_list_view_model in libtodo.so; a
 * second library of the same file name gets its tag after the prefix, "MvvmTodo7_...", and when
 * that prefix is taken too (by a library named libtodo7.so) a further number, "MvvmTodo7_2_..."),
 * so one class in two libraries is two GTypes. Several libraries are used side by side; each object
 * works with its own library only. Opening a library already open (by this path or another
 * that reaches the same file) gives the same #MvvmGlibLibrary. The library stays loaded until
 * the process ends. Any thread.
 *
 * Errors: MVVM_GLIB_ERROR_LOAD_FAILED (dlopen failed: dlerror() in the message, or a function
 * of the ABI is missing), MVVM_GLIB_ERROR_BAD_REGISTRATION (the library serves no class),
 * MVVM_GLIB_ERROR_INTERNAL (its class descriptions could not be read).
 *
 * Returns: (transfer full): the library, or %NULL with @error set.
 */
MvvmGlibLibrary *mvvm_glib_library_open(const char *path, GError **error);

/**
 * mvvm_glib_library_get_path:
 * @self: a library
 *
 * Returns: (type filename) (transfer none): the path it was first opened by; static.
 */
const char *mvvm_glib_library_get_path(MvvmGlibLibrary *self);

/**
 * mvvm_glib_library_get_tag:
 * @self: a library
 *
 * Returns: its tag, mvvm_library_tag(): every handle it issues carries it.
 */
guint8 mvvm_glib_library_get_tag(MvvmGlibLibrary *self);

/**
 * mvvm_glib_library_get_version:
 * @self: a library
 *
 * Returns: (transfer none): its mvvm_version(), "MAJOR.MINOR.PATCH"; static.
 */
const char *mvvm_glib_library_get_version(MvvmGlibLibrary *self);

/**
 * mvvm_glib_library_get_type_prefix:
 * @self: a library
 *
 * Returns: (transfer none): what its GType names start with, such as "MvvmTodo"; static.
 */
const char *mvvm_glib_library_get_type_prefix(MvvmGlibLibrary *self);

/**
 * mvvm_glib_library_list_classes:
 * @self: a library
 *
 * Returns: (transfer full) (array zero-terminated=1): its class names, in mvvm_classes()'s
 *   order; free with g_strfreev().
 */
char **mvvm_glib_library_list_classes(MvvmGlibLibrary *self);

/**
 * mvvm_glib_library_get_class_type:
 * @self: a library
 * @class_name: a class name of the library, such as "todo_list_view_model"
 *
 * The GType of a class: derived from #MvvmGlibObject, with the class's properties and
 * signals, implementing #GActionGroup. Any thread.
 *
 * Returns: the GType, or %G_TYPE_INVALID when the library has no such class.
 */
GType mvvm_glib_library_get_class_type(MvvmGlibLibrary *self, const char *class_name);

/**
 * mvvm_glib_library_get_classes_json:
 * @self: a library
 *
 * Returns: (transfer none): what mvvm_classes() says of every class, as JSON; static.
 */
const char *mvvm_glib_library_get_classes_json(MvvmGlibLibrary *self);

/* ------------------------------------------------------------------------------------------ */
/* Loops                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MVVM_GLIB_TYPE_LOOP (mvvm_glib_loop_get_type())
G_DECLARE_FINAL_TYPE(MvvmGlibLoop, mvvm_glib_loop, MVVM_GLIB, LOOP, GObject)

/**
 * mvvm_glib_loop_new:
 * @library: the library whose loop it is
 * @context: (nullable): the #GMainContext that runs the loop's work, or %NULL for the global
 *   default context (GTK's)
 * @error: return location for a #GError, or %NULL
 *
 * Makes a manual libmvvm loop and attaches it to @context as a #GSource on the loop's file
 * descriptor (mvvm_loop_fd), which dispatches (mvvm_loop_dispatch) whenever work is due: timed
 * work runs, and is notified, on the thread that runs @context. Nothing polls. Any thread.
 *
 * Errors: MVVM_GLIB_ERROR_INTERNAL (no file descriptor left).
 *
 * Returns: (transfer full): the loop, or %NULL with @error set. Its last unref removes the
 *   source and releases the libmvvm loop.
 */
MvvmGlibLoop *mvvm_glib_loop_new(MvvmGlibLibrary *library, GMainContext *context, GError **error);

/**
 * mvvm_glib_loop_new_main:
 * @library: the library whose main loop it is
 * @error: return location for a #GError, or %NULL
 *
 * Makes @library's main loop (MVVM_LOOP_MAIN) and attaches it to the global default
 * #GMainContext, GTK's, as mvvm_glib_loop_new() does. It is the loop for @MainActor view models
 * (those mvvm_classes() says are "main_actor"), which live on no other: while the default context
 * runs, the loop's source also runs the main queue's work (@MainActor jobs,
 * DispatchQueue.main.async, Task { @MainActor in }) and the main run loop's due timers (Foundation
 * Timer, Combine on RunLoop.main), because the loop's fd is readable when they are due; their
 * changes are notified there. Ordinary view models live on it too. Call it on the process's main
 * thread, which must be the one that runs the default context (gtk_init() and
 * g_application_run() there); one main loop of @library lives at a time. docs/loops-and-threads.md.
 *
 * Errors: MVVM_GLIB_ERROR_INVALID_ARGUMENT (off the main thread, a main loop of @library already
 * live, or a process that called dispatch_main(): the message says which),
 * MVVM_GLIB_ERROR_INTERNAL (no file descriptor left).
 *
 * Returns: (transfer full): the loop, or %NULL with @error set. Its last unref removes the
 *   source and releases the libmvvm loop (another may then be made).
 */
MvvmGlibLoop *mvvm_glib_loop_new_main(MvvmGlibLibrary *library, GError **error);

/**
 * mvvm_glib_loop_new_for_handle:
 * @library: the library that made the loop
 * @handle: a loop handle of @library (mvvm_loop_new)
 * @context: (nullable): the #GMainContext to attach it to, or %NULL for the global default
 * @error: return location for a #GError, or %NULL
 *
 * Attaches a loop the host made to @context, as mvvm_glib_loop_new() does. Only a manual loop
 * (or a main loop, attached to the context the main thread runs) attaches: a thread loop (which runs its work, and notifies, on a thread of its own) or a
 * virtual loop (whose time moves only with mvvm_loop_advance) is refused. On success the
 * #MvvmGlibLoop owns @handle and releases it with its last unref; on failure the handle stays
 * the caller's.
 *
 * Errors: MVVM_GLIB_ERROR_UNSUPPORTED (not a manual loop: the message says so),
 * MVVM_GLIB_ERROR_INVALID_HANDLE, MVVM_GLIB_ERROR_WRONG_TYPE (not a loop of @library).
 *
 * Returns: (transfer full): the loop, or %NULL with @error set.
 */
MvvmGlibLoop *mvvm_glib_loop_new_for_handle(MvvmGlibLibrary *library, guint64 handle, GMainContext *context,
                                            GError **error);

/**
 * mvvm_glib_loop_get_handle:
 * @self: a loop
 *
 * Returns: the libmvvm loop's handle, owned by @self (valid while it lives).
 */
guint64 mvvm_glib_loop_get_handle(MvvmGlibLoop *self);

/**
 * mvvm_glib_loop_get_library:
 * @self: a loop
 *
 * Returns: (transfer none): its library.
 */
MvvmGlibLibrary *mvvm_glib_loop_get_library(MvvmGlibLoop *self);

/**
 * mvvm_glib_loop_get_context:
 * @self: a loop
 *
 * Returns: (transfer none): the #GMainContext it is attached to.
 */
GMainContext *mvvm_glib_loop_get_context(MvvmGlibLoop *self);

/**
 * mvvm_glib_loop_get_dispatch_count:
 * @self: a loop
 *
 * Returns: how many times its source found work due and dispatched it.
 */
guint64 mvvm_glib_loop_get_dispatch_count(MvvmGlibLoop *self);

/* ------------------------------------------------------------------------------------------ */
/* Objects                                                                                    */
/* ------------------------------------------------------------------------------------------ */

#define MVVM_GLIB_TYPE_OBJECT (mvvm_glib_object_get_type())
G_DECLARE_DERIVABLE_TYPE(MvvmGlibObject, mvvm_glib_object, MVVM_GLIB, OBJECT, GObject)

/**
 * MvvmGlibObjectClass:
 * @parent_class: the parent class
 *
 * The class of a libmvvm class's GType (mvvm_glib_library_get_class_type). Abstract: objects
 * are made by mvvm_glib_object_new(), or appear as list items and children.
 */
struct _MvvmGlibObjectClass {
    GObjectClass parent_class;
    /*< private >*/
    gpointer info;
    gpointer padding[7];
};

/**
 * mvvm_glib_object_new:
 * @loop: the loop the object lives on
 * @class_name: a class of the loop's library, such as "todo_list_view_model"
 * @arguments: (nullable): the constructor's arguments: %NULL or "()" for none, a tuple by
 *   position, or an "a{sv}" by name (mvvm_new_named); a model argument is the model's handle
 *   (mvvm_glib_object_get_handle) as "t", a host service's argument the service's handle
 *   (mvvm_glib_service_get_handle) as "t"
 * @error: return location for a #GError, or %NULL
 *
 * Makes an object of @class_name with the constructor its arguments fit (mvvm_new_named), as
 * a GObject of the class's GType. A floating @arguments is consumed. Call it on the loop's
 * thread.
 *
 * Errors: as mvvm_new_named(): MVVM_GLIB_ERROR_UNKNOWN_NAME (no such class),
 * MVVM_GLIB_ERROR_INVALID_ARGUMENT (no constructor takes these arguments, a value out of
 * range, a file the constructor refuses: the message says why), MVVM_GLIB_ERROR_TYPE_MISMATCH
 * (a model or service argument that is neither).
 *
 * Returns: (transfer full): the object, or %NULL with @error set.
 */
MvvmGlibObject *mvvm_glib_object_new(MvvmGlibLoop *loop, const char *class_name, GVariant *arguments,
                                     GError **error);

/**
 * mvvm_glib_object_get_handle:
 * @self: an object
 *
 * Returns: its libmvvm handle, owned by @self (valid while it lives), for the library's own C
 *   calls; 0 for an object that the bridge did not make.
 */
guint64 mvvm_glib_object_get_handle(MvvmGlibObject *self);

/**
 * mvvm_glib_object_get_loop:
 * @self: an object
 *
 * Returns: (transfer none) (nullable): the loop it lives on.
 */
MvvmGlibLoop *mvvm_glib_object_get_loop(MvvmGlibObject *self);

/**
 * mvvm_glib_object_get_class_name:
 * @self: an object
 *
 * Returns: (transfer none): its libmvvm class name, such as "todo_item_view_model"; static.
 */
const char *mvvm_glib_object_get_class_name(MvvmGlibObject *self);

/**
 * mvvm_glib_object_get_object_id:
 * @self: an object
 *
 * Returns: the identity of the Swift object behind it (mvvm_object_id), or 0 for an object
 *   that the bridge did not make.
 */
gint64 mvvm_glib_object_get_object_id(MvvmGlibObject *self);

/**
 * mvvm_glib_object_call:
 * @self: an object
 * @command: the command's name (an action's name, with '-', is taken too)
 * @arguments: (nullable): %NULL or "()" for none, a tuple by position, an "a{sv}" by name, or
 *   one value of any other type as the only argument
 * @error: return location for a #GError, or %NULL
 *
 * Runs a command (mvvm_call_named) and gives its result. Its changes are notified before this
 * returns, also when it fails. A floating @arguments is consumed. An `async` command is
 * refused: use mvvm_glib_object_call_async().
 *
 * Errors: MVVM_GLIB_ERROR_COMMAND_FAILED (the command threw: the message is its text),
 * MVVM_GLIB_ERROR_UNKNOWN_NAME, MVVM_GLIB_ERROR_INVALID_ARGUMENT (arguments missing, unknown or
 * too many, a value out of range, an async command), MVVM_GLIB_ERROR_TYPE_MISMATCH,
 * MVVM_GLIB_ERROR_LOOP_RELEASED.
 *
 * Returns: (transfer full) (nullable): the result, of the command's result type; %NULL for a
 *   command that returns nothing, and %NULL with @error set on failure.
 */
GVariant *mvvm_glib_object_call(MvvmGlibObject *self, const char *command, GVariant *arguments, GError **error);

/**
 * mvvm_glib_object_call_async:
 * @self: an object
 * @command: the command's name
 * @arguments: (nullable): as mvvm_glib_object_call() takes them
 * @cancellable: (nullable): cancels the call (mvvm_cancel): its task's sleep or wait ends and
 *   the call ends with G_IO_ERROR_CANCELLED. The cancel is carried out on the thread that runs
 *   the object's loop's GMainContext: at once when cancelled there, from an idle of that
 *   context when cancelled elsewhere (a worker thread), so that what the end of the call
 *   changes is notified on the context's thread
 * @callback: (scope async): called once the call has ended, in the thread-default main
 *   context of the thread that called this
 * @user_data: (closure): data for @callback
 *
 * Starts any command as libmvvm's asynchronous call (mvvm_call_async; one declared `async` is
 * what it is for): it runs on the object's loop, through the loop's source. @callback runs
 * exactly once, after the changes of the turn that ended the call were notified, also when
 * the call cannot start; get the result with mvvm_glib_object_call_finish(). @self is kept
 * alive until then. Releasing the object's loop cancels the call. A floating @arguments is
 * consumed.
 */
void mvvm_glib_object_call_async(MvvmGlibObject *self, const char *command, GVariant *arguments,
                                 GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);

/**
 * mvvm_glib_object_call_finish:
 * @self: the object
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * The end of mvvm_glib_object_call_async().
 *
 * Errors: G_IO_ERROR_CANCELLED (by @cancellable, or the release of the object's loop), and
 * those of mvvm_glib_object_call() (MVVM_GLIB_ERROR_COMMAND_FAILED with the error's text...).
 *
 * Returns: (transfer full) (nullable): the result; %NULL for a command that returns nothing,
 *   and %NULL with @error set on failure.
 */
GVariant *mvvm_glib_object_call_finish(MvvmGlibObject *self, GAsyncResult *result, GError **error);

/* ------------------------------------------------------------------------------------------ */
/* Host services                                                                              */
/* ------------------------------------------------------------------------------------------ */

/**
 * MvvmGlibRequestFunc:
 * @view_model: (nullable): the view model that asks, or %NULL when no GObject stands for it (one
 *   made through libmvvm's own calls, or asking while it is being made)
 * @request: the request, to answer once with mvvm_glib_library_complete(), now or later
 * @argument: (nullable): what the view model asks with (sign-up: the user id, "s"), or %NULL
 *   when it asks with nothing (the welcome API); owned by the bridge and valid during the call
 *   (g_variant_ref() keeps it)
 * @user_data: the service's user data
 *
 * A view model made with the service needs an answer. Called on the thread that runs the view
 * model's loop, with the loop's work serialised.
 */
typedef void (*MvvmGlibRequestFunc)(MvvmGlibObject *view_model, guint64 request, GVariant *argument, gpointer user_data);

#define MVVM_GLIB_TYPE_SERVICE (mvvm_glib_service_get_type())
G_DECLARE_FINAL_TYPE(MvvmGlibService, mvvm_glib_service, MVVM_GLIB, SERVICE, GObject)

/**
 * mvvm_glib_service_new:
 * @library: the library whose view models it serves
 * @request_func: (scope notified): called for each request of a view model made with the service
 * @user_data: (closure): data for @request_func
 * @destroy: (nullable): called with @user_data exactly once: when the service's last
 *   reference is gone and every view model made with it has been released (mvvm_service_new),
 *   or at once when this call fails
 * @error: return location for a #GError, or %NULL
 *
 * A host service (mvvm_service_new), for constructors that take one: pass its handle
 * (mvvm_glib_service_get_handle) as "t" to mvvm_glib_object_new(). One service may serve
 * several view models, of one library. Any thread.
 *
 * Errors: MVVM_GLIB_ERROR_NULL_POINTER (no @request_func).
 *
 * Returns: (transfer full): the service, or %NULL with @error set.
 */
MvvmGlibService *mvvm_glib_service_new(MvvmGlibLibrary *library, MvvmGlibRequestFunc request_func, gpointer user_data,
                                       GDestroyNotify destroy, GError **error);

/**
 * mvvm_glib_service_get_handle:
 * @self: a service
 *
 * Returns: its libmvvm handle, owned by @self (valid while it lives), for constructor
 *   arguments.
 */
guint64 mvvm_glib_service_get_handle(MvvmGlibService *self);

/**
 * mvvm_glib_library_complete:
 * @self: the library whose view model asked
 * @request: the request an #MvvmGlibRequestFunc was given
 * @result: (nullable): the answer, of the service's result type (sign-up: "b", true for success;
 *   the welcome API: "s", the message), or %NULL for none; a floating @result is consumed
 * @error: return location for a #GError, or %NULL
 *
 * Answers a request (mvvm_complete): the changes the answer causes are notified before this
 * returns. Call it on the thread that runs the view model's loop.
 *
 * Errors: MVVM_GLIB_ERROR_UNKNOWN_REQUEST (answered already, cancelled, or its view model
 * released), MVVM_GLIB_ERROR_INVALID_HANDLE (no request of @self), MVVM_GLIB_ERROR_TYPE_MISMATCH
 * (an answer of another type: the request stays open), MVVM_GLIB_ERROR_LOOP_RELEASED.
 *
 * Returns: %TRUE once answered, %FALSE with @error set.
 */
gboolean mvvm_glib_library_complete(MvvmGlibLibrary *self, guint64 request, GVariant *result, GError **error);

/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define MVVM_GLIB_TYPE_LIST_MODEL (mvvm_glib_list_model_get_type())
G_DECLARE_FINAL_TYPE(MvvmGlibListModel, mvvm_glib_list_model, MVVM_GLIB, LIST_MODEL, GObject)

/**
 * mvvm_glib_object_get_list:
 * @self: an object
 * @name: a list property of its class, such as "items"
 *
 * The #GListModel of a list property, as reading the property gives it: one model per list for
 * the object's life, whose items are the GObjects of the items' class
 * (g_list_model_get_item_type), and whose items-changed is emitted for each splice libmvvm
 * announces (MVVM_EVENT_SPLICE), with its index, removed and inserted counts, after its items
 * are in place. A model first read while the operation that changes its list is being
 * delivered (asked for in another list's items-changed) may hold splices it is then sent:
 * a splice that would leave the model's count other than the list's refills it from the list
 * instead, as one items-changed over the items that differ (none when it holds them already). @self holds its models; a model that outlives @self keeps its items (each
 * still works) and changes no more.
 *
 * Returns: (transfer full) (nullable): the model, or %NULL when @name is no list property.
 */
MvvmGlibListModel *mvvm_glib_object_get_list(MvvmGlibObject *self, const char *name);

/**
 * mvvm_glib_list_model_get_owner:
 * @self: a list model
 *
 * Returns: (transfer none) (nullable): the object whose list it is, or %NULL once that object
 *   has gone.
 */
MvvmGlibObject *mvvm_glib_list_model_get_owner(MvvmGlibListModel *self);

/**
 * mvvm_glib_list_model_get_name:
 * @self: a list model
 *
 * Returns: (transfer none): the list property's name, such as "items"; static.
 */
const char *mvvm_glib_list_model_get_name(MvvmGlibListModel *self);

G_END_DECLS

#endif /* MVVM_GLIB_H */
