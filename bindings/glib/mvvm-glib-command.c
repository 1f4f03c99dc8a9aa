/*
 * mvvm-glib-command.c - an MvvmGlibObject's commands: mvvm_glib_object_call(),
 * mvvm_glib_object_call_async() and _finish() (a GTask; a GCancellable's cancel carried out on
 * the object's loop's context), and every command of no or one argument as an action of the
 * object's GActionGroup.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

#include <string.h>

static MvvmGlibLibrary *library_of(MvvmGlibObject *self) {
    MvvmGlibObjectPrivate *priv = PRIV(self);
    return priv->info ? priv->info->library : NULL;
}

static CommandInfo *command_of(MvvmGlibObject *self, const char *name, GError **error) {
    MvvmGlibObjectPrivate *priv = PRIV(self);
    if (!priv->handle) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INVALID_HANDLE, "this %s was not made by mvvm_glib_object_new()",
                    G_OBJECT_TYPE_NAME(self));
        return NULL;
    }
    CommandInfo *command = g_hash_table_lookup(priv->info->commands_by_name, name);
    if (!command)
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_NAME, "%s has no command '%s'", priv->info->name, name);
    return command;
}

GVariant *mvvm_glib_object_call(MvvmGlibObject *self, const char *command, GVariant *arguments, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), NULL);
    g_return_val_if_fail(command != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    Arena arena;
    arena_init(&arena);
    Arguments args;
    GVariant *result = NULL;
    gboolean ok = arguments_from_variant(&arena, arguments, &args, error);
    CommandInfo *info = ok ? command_of(self, command, error) : NULL;
    if (info) {
        MvvmGlibLibrary *library = library_of(self);
        mvvm_value value = {0};
        mvvm_status status = library->fn.call_named(PRIV(self)->handle, info->name, args.names, args.values, args.count, &value);
        if (status != MVVM_OK) {
            set_status_error(library, error, status, NULL);
        } else {
            result = variant_from_value(library, &info->result, &value);
            if (result) g_variant_ref_sink(result);
            library->fn.value_free(&value);
        }
    }
    arena_clear(&arena);
    return result;
}

/* --- asynchronous calls --- */

typedef struct {
    MvvmGlibLibrary *library;
    CommandInfo *command;
    GCancellable *cancellable;
    gulong cancel_id;
    gboolean ended;
} AsyncCall;

typedef struct {
    MvvmGlibLibrary *library;
    mvvm_handle call;
    GMainContext *context;   /* the object's loop's: where the cancel is carried out */
} CancelTarget;

static void cancel_target_free(gpointer data) {
    CancelTarget *target = data;
    g_main_context_unref(target->context);
    g_free(target);
}

typedef struct {
    GCancellable *cancellable;
    gulong id;
} Disconnect;

static gboolean disconnect_now(gpointer data) {
    Disconnect *disconnect = data;
    g_cancellable_disconnect(disconnect->cancellable, disconnect->id);
    return G_SOURCE_REMOVE;
}

static void disconnect_free(gpointer data) {
    Disconnect *disconnect = data;
    g_object_unref(disconnect->cancellable);
    g_free(disconnect);
}

static void async_call_free(gpointer data) {
    AsyncCall *call = data;
    if (call->cancel_id) {
        /* Never from inside libmvvm or a cancelled handler: g_cancellable_disconnect() waits
         * for a handler running on another thread, which may be waiting for the loop. */
        Disconnect *disconnect = g_new0(Disconnect, 1);
        disconnect->cancellable = g_object_ref(call->cancellable);
        disconnect->id = call->cancel_id;
        GSource *idle = g_idle_source_new();
        g_source_set_callback(idle, disconnect_now, disconnect, disconnect_free);
        g_source_attach(idle, g_main_context_ref_thread_default());
        g_main_context_unref(g_source_get_context(idle));
        g_source_unref(idle);
    }
    g_clear_object(&call->cancellable);
    g_free(call);
}

static gboolean cancel_now(gpointer data) {
    CancelTarget *target = data;
    target->library->fn.cancel(target->call);   /* INVALID_HANDLE once the call has ended: nothing to do */
    return G_SOURCE_REMOVE;
}

/* mvvm_cancel() ends the call, and notifies what that changes, on its caller's thread: a cancel
 * from a thread that is not running the loop's context (a GTask worker) is handed to that
 * context. Not g_main_context_invoke(): it would run here whenever the context is free. */
static void on_cancelled(GCancellable *cancellable, gpointer data) {
    (void)cancellable;
    CancelTarget *target = data;
    if (g_main_context_is_owner(target->context)) {
        cancel_now(target);
        return;
    }
    CancelTarget *copy = g_new0(CancelTarget, 1);
    *copy = (CancelTarget){target->library, target->call, g_main_context_ref(target->context)};
    GSource *idle = g_idle_source_new();
    g_source_set_priority(idle, G_PRIORITY_DEFAULT);
    g_source_set_callback(idle, cancel_now, copy, cancel_target_free);
    g_source_set_name(idle, "libmvvm call cancelled");
    g_source_attach(idle, target->context);
    g_source_unref(idle);
}

static void async_done(mvvm_handle handle, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    (void)handle;
    GTask *task = user_data;
    AsyncCall *call = g_task_get_task_data(task);
    call->ended = TRUE;
    if (status == MVVM_OK) {
        GVariant *variant = result ? variant_from_value(call->library, &call->command->result, result) : NULL;
        g_task_return_pointer(task, variant ? g_variant_ref_sink(variant) : NULL, (GDestroyNotify)g_variant_unref);
    } else if (status == MVVM_ERR_CANCELLED) {
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", message && *message ? message : "cancelled");
    } else {
        g_task_return_new_error(task, MVVM_GLIB_ERROR, (gint)status, "%s",
                                message && *message ? message : call->library->fn.status_name(status));
    }
}

static void async_destroy(void *user_data) { g_object_unref(user_data); }

void mvvm_glib_object_call_async(MvvmGlibObject *self, const char *command, GVariant *arguments, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data) {
    g_return_if_fail(MVVM_GLIB_IS_OBJECT(self));
    g_return_if_fail(command != NULL);
    g_return_if_fail(cancellable == NULL || G_IS_CANCELLABLE(cancellable));
    GTask *task = g_task_new(self, cancellable, callback, user_data);
    g_task_set_source_tag(task, mvvm_glib_object_call_async);
    g_task_set_name(task, command);
    Arena arena;
    arena_init(&arena);
    Arguments args;
    GError *error = NULL;
    CommandInfo *info = arguments_from_variant(&arena, arguments, &args, &error) ? command_of(self, command, &error) : NULL;
    if (!info) {
        g_task_return_error(task, error);
        goto out;
    }
    MvvmGlibLibrary *library = library_of(self);
    AsyncCall *call = g_new0(AsyncCall, 1);
    call->library = library;
    call->command = info;
    call->cancellable = cancellable ? g_object_ref(cancellable) : NULL;
    g_task_set_task_data(task, call, async_call_free);
    mvvm_handle handle = 0;
    mvvm_status status = library->fn.call_async(PRIV(self)->handle, info->name, args.names, args.values, args.count,
                                                async_done, g_object_ref(task), async_destroy, &handle);
    if (status != MVVM_OK) {   /* the destroy function ran: the reference it held is gone */
        set_status_error(library, &error, status, NULL);
        g_task_return_error(task, error);
        goto out;
    }
    if (cancellable && !call->ended) {
        CancelTarget *target = g_new0(CancelTarget, 1);
        target->library = library;
        target->call = handle;
        target->context = g_main_context_ref(PRIV(self)->loop->context);
        call->cancel_id = g_cancellable_connect(cancellable, G_CALLBACK(on_cancelled), target, cancel_target_free);
    }
out:
    arena_clear(&arena);
    g_object_unref(task);
}

GVariant *mvvm_glib_object_call_finish(MvvmGlibObject *self, GAsyncResult *result, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), NULL);
    g_return_val_if_fail(g_task_is_valid(result, self), NULL);
    g_return_val_if_fail(g_task_get_source_tag(G_TASK(result)) == mvvm_glib_object_call_async, NULL);
    return g_task_propagate_pointer(G_TASK(result), error);
}

/* --- commands as actions --- */

static char **action_group_list_actions(GActionGroup *group) {
    ClassInfo *info = MVVM_GLIB_OBJECT_GET_CLASS(group)->info;
    GPtrArray *names = g_ptr_array_new();
    for (guint i = 0; info && i < info->commands->len; i++) {
        CommandInfo *command = g_ptr_array_index(info->commands, i);
        if (command->is_action) g_ptr_array_add(names, g_strdup(command->action_name));
    }
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, FALSE);
}

static CommandInfo *action_of(GActionGroup *group, const char *name) {
    ClassInfo *info = MVVM_GLIB_OBJECT_GET_CLASS(group)->info;
    CommandInfo *command = info ? g_hash_table_lookup(info->commands_by_name, name) : NULL;
    return command && command->is_action && strcmp(command->action_name, name) == 0 ? command : NULL;
}

static gboolean action_group_query_action(GActionGroup *group, const char *name, gboolean *enabled,
                                          const GVariantType **parameter_type, const GVariantType **state_type,
                                          GVariant **state_hint, GVariant **state) {
    CommandInfo *command = action_of(group, name);
    if (!command) return FALSE;
    if (enabled) *enabled = PRIV(group)->handle != 0;
    if (parameter_type) *parameter_type = command->n_args == 1 ? command->args[0].variant_type : NULL;
    if (state_type) *state_type = NULL;
    if (state_hint) *state_hint = NULL;
    if (state) *state = NULL;
    return TRUE;
}

static void action_done(mvvm_handle call, mvvm_status status, const mvvm_value *result, const char *message, void *user_data) {
    (void)call;
    (void)result;
    if (status != MVVM_OK && status != MVVM_ERR_CANCELLED)
        g_log(LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "action %s: %s", (const char *)user_data, message ? message : "");
}

static void action_group_activate_action(GActionGroup *group, const char *name, GVariant *parameter) {
    CommandInfo *command = action_of(group, name);
    MvvmGlibObject *self = MVVM_GLIB_OBJECT(group);
    if (!command || !PRIV(self)->handle) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s has no action '%s'", G_OBJECT_TYPE_NAME(group), name);
        return;
    }
    MvvmGlibLibrary *library = library_of(self);
    Arena arena;
    arena_init(&arena);
    mvvm_value argument = {0};
    GError *error = NULL;
    size_t count = 0;
    if (parameter) arena_keep(&arena, g_variant_ref_sink(parameter));   /* a floating parameter is consumed */
    if (parameter) {
        if (!value_from_variant(&arena, parameter, &argument, &error)) {
            g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "action %s: %s", name, error->message);
            g_error_free(error);
            arena_clear(&arena);
            return;
        }
        count = 1;
    }
    mvvm_status status;
    if (command->is_async) {
        mvvm_handle call = 0;
        status = library->fn.call_async(PRIV(self)->handle, command->name, NULL, &argument, count, action_done,
                                        command->name, NULL, &call);
    } else {
        status = library->fn.call_named(PRIV(self)->handle, command->name, NULL, &argument, count, NULL);
    }
    /* A command that threw says why through the view model's own state (storage_error...), and
     * to whoever calls it with mvvm_glib_object_call(); an action has no one to tell. */
    if (status == MVVM_ERR_COMMAND_FAILED)
        g_log(LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "action %s: %s", name, library->fn.last_error());
    else if (status != MVVM_OK)
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "action %s: %s", name, library->fn.last_error());
    arena_clear(&arena);
}

static void action_group_change_action_state(GActionGroup *group, const char *name, GVariant *value) {
    (void)value;
    g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "action %s of %s has no state", name, G_OBJECT_TYPE_NAME(group));
}

void action_group_init(GActionGroupInterface *iface) {
    iface->list_actions = action_group_list_actions;
    iface->query_action = action_group_query_action;
    iface->activate_action = action_group_activate_action;
    iface->change_action_state = action_group_change_action_state;
}
