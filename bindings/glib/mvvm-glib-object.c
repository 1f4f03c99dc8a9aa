/*
 * mvvm-glib-object.c - MvvmGlibObject, the abstract base of every class's GType, and each class's
 * GType made at run time (runtime_class_init: its properties and signals from the description):
 * one GObject per Swift object (object_wrap, object_of_id), libmvvm's events as notify, signals
 * and list splices, properties read and set (a set the library puts back is notified again from
 * an idle), children, lists asked for by name, and mvvm_glib_object_new(). The object's commands
 * and actions are in mvvm-glib-command.c, its lists' GListModel in mvvm-glib-list.c.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

#include <math.h>

G_DEFINE_ABSTRACT_TYPE_WITH_CODE(MvvmGlibObject, mvvm_glib_object, G_TYPE_OBJECT,
                                 G_ADD_PRIVATE(MvvmGlibObject)
                                 G_IMPLEMENT_INTERFACE(G_TYPE_ACTION_GROUP, action_group_init))

/* The private part of an MvvmGlibObject, for PRIV() in every file (the inline accessor
 * G_DEFINE_TYPE makes is static to this one). */
MvvmGlibObjectPrivate *object_private(MvvmGlibObject *self) { return mvvm_glib_object_get_instance_private(self); }

static ClassInfo *info_of_pspec(GParamSpec *pspec) {
    MvvmGlibObjectClass *klass = g_type_class_peek(pspec->owner_type);
    return klass ? klass->info : NULL;
}

/* The GType of a property or signal payload of `type` (lists and children are objects). */
static GType gtype_for(const TypeDesc *type) {
    if (type->optional || type->kind == KIND_ARRAY || type->kind == KIND_RECORD) return G_TYPE_VARIANT;
    switch (type->kind) {
    case KIND_BOOL: return G_TYPE_BOOLEAN;
    case KIND_INT: return type->is_unsigned ? G_TYPE_UINT64 : G_TYPE_INT64;
    case KIND_DOUBLE: return G_TYPE_DOUBLE;
    case KIND_DATE: return G_TYPE_DATE_TIME;
    case KIND_STRING: return G_TYPE_STRING;
    case KIND_BYTES: return G_TYPE_BYTES;
    default: return G_TYPE_NONE;
    }
}

static void on_event(mvvm_handle source, const mvvm_event *event, void *user_data) {
    (void)source;
    MvvmGlibObject *self = g_object_ref(user_data);
    MvvmGlibObjectPrivate *priv = PRIV(self);
    switch (event->kind) {
    case MVVM_EVENT_PROPERTY: {
        PropInfo *prop = g_hash_table_lookup(priv->info->props_by_name, event->name);
        if (prop && prop->pspec) g_object_notify_by_pspec(G_OBJECT(self), prop->pspec);
        break;
    }
    case MVVM_EVENT_SIGNAL: {
        SignalInfo *signal = g_hash_table_lookup(priv->info->signals_by_name, event->name);
        if (!signal || !signal->signal_id) break;
        GValue values[2] = {G_VALUE_INIT, G_VALUE_INIT};
        g_value_init(&values[0], G_TYPE_FROM_INSTANCE(self));
        g_value_set_object(&values[0], self);
        GType payload = gtype_for(&signal->type);
        if (payload != G_TYPE_NONE) {
            g_value_init(&values[1], payload);
            gvalue_from_value(priv->info->library, &signal->type, &event->value, &values[1]);
        }
        g_signal_emitv(values, signal->signal_id, 0, NULL);
        g_value_unset(&values[0]);
        if (payload != G_TYPE_NONE) g_value_unset(&values[1]);
        break;
    }
    case MVVM_EVENT_SPLICE: {
        MvvmGlibListModel *model = priv->lists ? g_hash_table_lookup(priv->lists, event->name) : NULL;
        if (model) list_model_splice(model, event->index, event->removed, event->inserted);
        break;
    }
    }
    g_object_unref(self);
}

static void on_subscription_end(void *user_data) { (void)user_data; }

/* A new reference to the GObject that stands for the Swift object `id`, or NULL when none does. */
MvvmGlibObject *object_of_id(MvvmGlibLibrary *library, gint64 id) {
    g_mutex_lock(&library->objects_lock);
    GWeakRef *known = g_hash_table_lookup(library->objects, &id);
    MvvmGlibObject *existing = known ? g_weak_ref_get(known) : NULL;
    g_mutex_unlock(&library->objects_lock);
    return existing;
}

/* The GObject of a handle of `loop`'s library, which it takes over: the one that already
 * stands for its Swift object, if any (the handle is then released), else a new one. */
MvvmGlibObject *object_wrap(MvvmGlibLoop *loop, ClassInfo *info, mvvm_handle handle, GError **error) {
    MvvmGlibLibrary *library = loop->library;
    gint64 id = 0;
    mvvm_status status = library->fn.object_id(handle, &id);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, "mvvm_object_id");
        library->fn.release(handle);
        return NULL;
    }
    MvvmGlibObject *existing = object_of_id(library, id);
    if (existing) {
        library->fn.release(handle);
        return existing;
    }
    if (!info) {
        const char *class_name = NULL;
        if (library->fn.class_name(handle, &class_name) == MVVM_OK) info = g_hash_table_lookup(library->classes, class_name);
        if (!info) {
            g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_NAME, "no class of %s is %s", library->path,
                        class_name ? class_name : "this handle's");
            library->fn.release(handle);
            return NULL;
        }
    }
    MvvmGlibObject *self = g_object_new(info->gtype, NULL);
    MvvmGlibObjectPrivate *priv = PRIV(self);
    priv->loop = g_object_ref(loop);
    priv->info = info;
    priv->handle = handle;
    priv->id = id;
    status = library->fn.subscribe(handle, NULL, on_event, self, on_subscription_end, &priv->subscription);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, "mvvm_subscribe");
        g_object_unref(self);
        return NULL;
    }
    GWeakRef *ref = g_new0(GWeakRef, 1);
    g_weak_ref_init(ref, self);
    g_mutex_lock(&library->objects_lock);
    g_hash_table_insert(library->objects, g_memdup2(&id, sizeof id), ref);
    g_mutex_unlock(&library->objects_lock);
    return self;
}

static void mvvm_glib_object_dispose(GObject *object) {
    MvvmGlibObjectPrivate *priv = PRIV(object);
    if (priv->handle) {
        /* Ends the subscription (its destroy notify runs, once) and the object's calls. */
        priv->info->library->fn.release(priv->handle);
        priv->handle = 0;
        priv->subscription = 0;
    }
    g_clear_pointer(&priv->children, g_hash_table_unref);
    if (priv->lists) {   /* the models keep their items, and change no more */
        GHashTableIter iter;
        gpointer model;
        g_hash_table_iter_init(&iter, priv->lists);
        while (g_hash_table_iter_next(&iter, NULL, &model)) MVVM_GLIB_LIST_MODEL(model)->owner = NULL;
        g_clear_pointer(&priv->lists, g_hash_table_unref);
    }
    G_OBJECT_CLASS(mvvm_glib_object_parent_class)->dispose(object);
}

static void mvvm_glib_object_finalize(GObject *object) {
    MvvmGlibObjectPrivate *priv = PRIV(object);
    if (priv->info && priv->id) {
        MvvmGlibLibrary *library = priv->info->library;
        g_mutex_lock(&library->objects_lock);
        GWeakRef *ref = g_hash_table_lookup(library->objects, &priv->id);
        GObject *current = ref ? g_weak_ref_get(ref) : NULL;
        if (ref && !current) {   /* still ours (a newer GObject for the same id would be current) */
            g_weak_ref_clear(ref);
            g_free(ref);
            g_hash_table_remove(library->objects, &priv->id);
        }
        g_mutex_unlock(&library->objects_lock);
        if (current) g_object_unref(current);
    }
    g_clear_pointer(&priv->renotify, g_hash_table_unref);
    g_clear_object(&priv->loop);
    G_OBJECT_CLASS(mvvm_glib_object_parent_class)->finalize(object);
}

static MvvmGlibObject *child_of(MvvmGlibObject *self, PropInfo *prop) {
    MvvmGlibObjectPrivate *priv = PRIV(self);
    if (!priv->children) priv->children = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_object_unref);
    MvvmGlibObject *child = g_hash_table_lookup(priv->children, prop->name);
    if (child) return child;
    MvvmGlibLibrary *library = priv->info->library;
    mvvm_handle handle = 0;
    mvvm_status status = library->fn.child(priv->handle, prop->name, &handle);
    if (status != MVVM_OK) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: %s", priv->info->name, prop->name, library->fn.last_error());
        return NULL;
    }
    GError *error = NULL;
    child = object_wrap(priv->loop, g_hash_table_lookup(library->classes, prop->class_name), handle, &error);
    if (!child) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: %s", priv->info->name, prop->name, error->message);
        g_error_free(error);
        return NULL;
    }
    g_hash_table_insert(priv->children, prop->name, child);
    return child;
}

MvvmGlibListModel *mvvm_glib_object_get_list(MvvmGlibObject *self, const char *name) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), NULL);
    g_return_val_if_fail(name != NULL, NULL);
    MvvmGlibObjectPrivate *priv = PRIV(self);
    if (!priv->info) return NULL;
    PropInfo *prop = g_hash_table_lookup(priv->info->props_by_name, name);
    if (!prop) {
        char *underscored = g_strdup(name);
        g_strdelimit(underscored, "-", '_');
        prop = g_hash_table_lookup(priv->info->props_by_name, underscored);
        g_free(underscored);
    }
    if (!prop || prop->kind != PROP_LIST) return NULL;
    if (!priv->handle) return NULL;
    if (!priv->lists) priv->lists = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_object_unref);
    MvvmGlibListModel *model = g_hash_table_lookup(priv->lists, prop->name);
    if (!model) {
        model = list_model_new(self, prop);
        g_hash_table_insert(priv->lists, prop->name, model);
    }
    return g_object_ref(model);
}

/* The member a get or set is for, or NULL (said) when there is none or no handle to ask. */
static PropInfo *property_of(GObject *object, guint property_id, GParamSpec *pspec, ClassInfo **info_out) {
    ClassInfo *info = info_of_pspec(pspec);
    if (!info || property_id == 0 || property_id > info->props->len) {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, property_id, pspec);
        return NULL;
    }
    PropInfo *prop = g_ptr_array_index(info->props, property_id - 1);
    if (!PRIV(object)->handle) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: this %s was not made by mvvm_glib_object_new()", info->name,
              prop->name, G_OBJECT_TYPE_NAME(object));
        return NULL;
    }
    *info_out = info;
    return prop;
}

static void mvvm_glib_object_get_property(GObject *object, guint property_id, GValue *value, GParamSpec *pspec) {
    ClassInfo *info = NULL;
    PropInfo *prop = property_of(object, property_id, pspec, &info);
    MvvmGlibObjectPrivate *priv = PRIV(object);
    if (!prop) return;
    switch (prop->kind) {
    case PROP_LIST:
        g_value_take_object(value, mvvm_glib_object_get_list(MVVM_GLIB_OBJECT(object), prop->name));
        return;
    case PROP_CHILD:
        g_value_set_object(value, child_of(MVVM_GLIB_OBJECT(object), prop));
        return;
    case PROP_VALUE: {
        mvvm_value read = {0};
        mvvm_status status = info->library->fn.get(priv->handle, prop->name, &read);
        if (status != MVVM_OK) {
            g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: %s", info->name, prop->name, info->library->fn.last_error());
            return;
        }
        gvalue_from_value(info->library, &prop->type, &read, value);
        info->library->fn.value_free(&read);
        return;
    }
    }
}

typedef struct {
    MvvmGlibObject *self;
    GParamSpec *pspec;
} Renotify;

static gboolean renotify_now(gpointer data) {
    Renotify *renotify = data;
    MvvmGlibObjectPrivate *priv = PRIV(renotify->self);
    if (priv->renotify) g_hash_table_remove(priv->renotify, renotify->pspec);
    g_object_notify_by_pspec(G_OBJECT(renotify->self), renotify->pspec);
    return G_SOURCE_REMOVE;
}

static void renotify_free(gpointer data) {
    Renotify *renotify = data;
    g_object_unref(renotify->self);
    g_free(renotify);
}

/* A set that did not leave the value set: the property is notified again from an idle, once
 * the binding or widget that set it is done (GBinding ignores notifications while it sets). */
static void schedule_renotify(MvvmGlibObject *self, GParamSpec *pspec) {
    MvvmGlibObjectPrivate *priv = PRIV(self);
    if (!priv->renotify) priv->renotify = g_hash_table_new(NULL, NULL);
    if (g_hash_table_contains(priv->renotify, pspec)) return;
    g_hash_table_add(priv->renotify, pspec);
    Renotify *renotify = g_new0(Renotify, 1);
    renotify->self = g_object_ref(self);
    renotify->pspec = pspec;
    GSource *idle = g_idle_source_new();
    g_source_set_priority(idle, G_PRIORITY_DEFAULT);
    g_source_set_callback(idle, renotify_now, renotify, renotify_free);
    g_source_set_name(idle, "libmvvm property put back");
    g_source_attach(idle, priv->loop->context);
    g_source_unref(idle);
}

static gboolean gvalues_equal(const GValue *a, const GValue *b) {
    GType type = G_VALUE_TYPE(a);
    if (type != G_VALUE_TYPE(b)) return FALSE;
    if (type == G_TYPE_VARIANT) {
        GVariant *x = g_value_get_variant(a), *y = g_value_get_variant(b);
        if (!x || !y) {   /* a NULL variant is an optional's none */
            GVariant *other = x ? x : y;
            return !other || (g_variant_is_of_type(other, G_VARIANT_TYPE_MAYBE) && g_variant_n_children(other) == 0);
        }
        return g_variant_equal(x, y);
    }
    if (type == G_TYPE_BYTES) {
        GBytes *x = g_value_get_boxed(a), *y = g_value_get_boxed(b);
        gsize empty = 0;
        if (!x || !y) return (x ? g_bytes_get_size(x) : empty) == (y ? g_bytes_get_size(y) : empty);
        return g_bytes_equal(x, y);
    }
    if (type == G_TYPE_DATE_TIME) {
        GDateTime *x = g_value_get_boxed(a), *y = g_value_get_boxed(b);
        return x && y ? g_date_time_equal(x, y) : x == y;
    }
    if (type == G_TYPE_STRING) return g_strcmp0(g_value_get_string(a) ? g_value_get_string(a) : "",
                                                g_value_get_string(b) ? g_value_get_string(b) : "") == 0;
    if (type == G_TYPE_DOUBLE) return g_value_get_double(a) == g_value_get_double(b);
    if (type == G_TYPE_BOOLEAN) return !g_value_get_boolean(a) == !g_value_get_boolean(b);
    if (type == G_TYPE_INT64) return g_value_get_int64(a) == g_value_get_int64(b);
    if (type == G_TYPE_UINT64) return g_value_get_uint64(a) == g_value_get_uint64(b);
    return FALSE;
}

static void mvvm_glib_object_set_property(GObject *object, guint property_id, const GValue *value, GParamSpec *pspec) {
    ClassInfo *info = NULL;
    PropInfo *prop = property_of(object, property_id, pspec, &info);
    MvvmGlibObjectPrivate *priv = PRIV(object);
    if (!prop) return;
    Arena arena;
    arena_init(&arena);
    mvvm_value set = {0};
    GError *error = NULL;
    mvvm_status status = MVVM_OK;
    if (!value_from_gvalue(&arena, value, &set, &error)) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: %s", info->name, prop->name, error->message);
        g_error_free(error);
        status = MVVM_ERR_TYPE_MISMATCH;
    } else {
        status = info->library->fn.set(priv->handle, prop->name, &set);
        if (status != MVVM_OK)
            g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s: %s", info->name, prop->name, info->library->fn.last_error());
    }
    arena_clear(&arena);
    gboolean kept = FALSE;
    if (status == MVVM_OK) {
        /* A binding whose change could not be saved holds its stored value, unannounced. */
        GValue now = G_VALUE_INIT;
        g_value_init(&now, G_VALUE_TYPE(value));
        mvvm_value read = {0};
        if (info->library->fn.get(priv->handle, prop->name, &read) == MVVM_OK) {
            gvalue_from_value(info->library, &prop->type, &read, &now);
            info->library->fn.value_free(&read);
            kept = gvalues_equal(&now, value);
        }
        g_value_unset(&now);
    }
    if (!kept) schedule_renotify(MVVM_GLIB_OBJECT(object), pspec);
}

static void mvvm_glib_object_class_init(MvvmGlibObjectClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->dispose = mvvm_glib_object_dispose;
    object_class->finalize = mvvm_glib_object_finalize;
    object_class->get_property = mvvm_glib_object_get_property;
    object_class->set_property = mvvm_glib_object_set_property;
}

static void mvvm_glib_object_init(MvvmGlibObject *self) { (void)self; }

static GParamSpec *pspec_for(ClassInfo *info, PropInfo *prop) {
    const char *nick = prop->name;
    const char *blurb = prop->doc && *prop->doc ? prop->doc : prop->name;
    GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB;
    if (prop->writable) flags |= G_PARAM_WRITABLE;
    if (prop->kind == PROP_LIST) return g_param_spec_object(prop->name, nick, blurb, G_TYPE_LIST_MODEL, flags);
    if (prop->kind == PROP_CHILD) {
        ClassInfo *child = g_hash_table_lookup(info->library->classes, prop->class_name);
        return g_param_spec_object(prop->name, nick, blurb, child ? child->gtype : MVVM_GLIB_TYPE_OBJECT, flags);
    }
    const TypeDesc *type = &prop->type;
    switch (gtype_for(type)) {
    case G_TYPE_BOOLEAN: return g_param_spec_boolean(prop->name, nick, blurb, FALSE, flags);
    case G_TYPE_INT64:
        if (type->has_range && type->min <= type->max)
            return g_param_spec_int64(prop->name, nick, blurb, type->min, type->max, CLAMP(0, type->min, type->max), flags);
        return g_param_spec_int64(prop->name, nick, blurb, G_MININT64, G_MAXINT64, 0, flags);
    case G_TYPE_UINT64: return g_param_spec_uint64(prop->name, nick, blurb, 0, G_MAXUINT64, 0, flags);
    case G_TYPE_DOUBLE: return g_param_spec_double(prop->name, nick, blurb, -INFINITY, INFINITY, 0, flags);
    case G_TYPE_STRING: return g_param_spec_string(prop->name, nick, blurb, "", flags);
    default: break;
    }
    if (gtype_for(type) == G_TYPE_BYTES) return g_param_spec_boxed(prop->name, nick, blurb, G_TYPE_BYTES, flags);
    if (gtype_for(type) == G_TYPE_DATE_TIME) return g_param_spec_boxed(prop->name, nick, blurb, G_TYPE_DATE_TIME, flags);
    if (gtype_for(type) == G_TYPE_VARIANT && type->variant_type)
        return g_param_spec_variant(prop->name, nick, blurb, type->variant_type, NULL, flags);
    return NULL;
}

void runtime_class_init(gpointer klass, gpointer class_data) {
    ClassInfo *info = class_data;
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    MVVM_GLIB_OBJECT_CLASS(klass)->info = info;
    /* GObject does not inherit these two: each class that installs properties sets them. */
    object_class->get_property = mvvm_glib_object_get_property;
    object_class->set_property = mvvm_glib_object_set_property;
    for (guint i = 0; i < info->props->len; i++) {
        PropInfo *prop = g_ptr_array_index(info->props, i);
        prop->pspec = pspec_for(info, prop);
        if (prop->pspec) g_object_class_install_property(object_class, i + 1, prop->pspec);
    }
    for (guint i = 0; i < info->signals->len; i++) {
        SignalInfo *signal = g_ptr_array_index(info->signals, i);
        /* GObject's own signals ("notify") keep their names: a member of that name takes a
         * trailing underscore, as in every binding. */
        char *name = g_signal_lookup(signal->name, info->gtype) ? g_strconcat(signal->name, "_", NULL) : g_strdup(signal->name);
        GType payload = gtype_for(&signal->type);
        GType params[1] = {payload};
        if (g_signal_is_valid_name(name))
            signal->signal_id = g_signal_newv(name, info->gtype, G_SIGNAL_RUN_LAST, NULL, NULL, NULL, NULL, G_TYPE_NONE,
                                              payload == G_TYPE_NONE ? 0 : 1, params);
        g_free(name);
    }
}

MvvmGlibObject *mvvm_glib_object_new(MvvmGlibLoop *loop, const char *class_name, GVariant *arguments, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LOOP(loop), NULL);
    g_return_val_if_fail(class_name != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    MvvmGlibLibrary *library = loop->library;
    Arena arena;
    arena_init(&arena);
    Arguments args;
    MvvmGlibObject *result = NULL;
    ClassInfo *info = g_hash_table_lookup(library->classes, class_name);
    if (!arguments_from_variant(&arena, arguments, &args, error)) goto out;
    if (!info) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNKNOWN_NAME, "%s has no class '%s'", library->path, class_name);
        goto out;
    }
    /* A model or service argument is given as its handle: it becomes MVVM_TYPE_OBJECT for the
     * library. */
    for (guint c = 0; c < info->ctors->len; c++) {
        CtorInfo *ctor = g_ptr_array_index(info->ctors, c);
        if (ctor->n_args != args.count) continue;
        for (guint a = 0; a < ctor->n_args; a++) {
            if (ctor->arg_kinds[a] != KIND_OBJECT && ctor->arg_kinds[a] != KIND_SERVICE) continue;
            for (guint i = 0; i < args.count; i++) {
                gboolean matches = args.names ? g_strcmp0(args.names[i], ctor->arg_names[a]) == 0 : i == a;
                if (matches && (args.values[i].type == MVVM_TYPE_INT || args.values[i].type == MVVM_TYPE_UINT)) {
                    args.values[i].object = (mvvm_handle)args.values[i].integer;
                    args.values[i].type = MVVM_TYPE_OBJECT;
                }
            }
        }
    }
    mvvm_handle handle = 0;
    mvvm_status status = library->fn.new_named(loop->handle, class_name, args.names, args.values, args.count, &handle);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, NULL);
        goto out;
    }
    result = object_wrap(loop, info, handle, error);
out:
    arena_clear(&arena);
    return result;
}

guint64 mvvm_glib_object_get_handle(MvvmGlibObject *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), 0);
    return PRIV(self)->handle;
}

MvvmGlibLoop *mvvm_glib_object_get_loop(MvvmGlibObject *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), NULL);
    return PRIV(self)->loop;
}

const char *mvvm_glib_object_get_class_name(MvvmGlibObject *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), NULL);
    ClassInfo *info = PRIV(self)->info ? PRIV(self)->info : MVVM_GLIB_OBJECT_GET_CLASS(self)->info;
    return info ? info->name : NULL;
}

gint64 mvvm_glib_object_get_object_id(MvvmGlibObject *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(self), 0);
    return PRIV(self)->id;
}
