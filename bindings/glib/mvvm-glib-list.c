/*
 * mvvm-glib-list.c - MvvmGlibListModel: a list property as a GListModel of its items' GObjects,
 * read when first asked for and changed by each splice libmvvm announces (items-changed as it
 * announces it), or refilled from the list when a splice does not fit what the model holds.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

static void list_model_iface_init(GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(MvvmGlibListModel, mvvm_glib_list_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, list_model_iface_init))

static void mvvm_glib_list_model_finalize(GObject *object) {
    MvvmGlibListModel *self = MVVM_GLIB_LIST_MODEL(object);
    g_clear_pointer(&self->items, g_ptr_array_unref);
    G_OBJECT_CLASS(mvvm_glib_list_model_parent_class)->finalize(object);
}

static void mvvm_glib_list_model_class_init(MvvmGlibListModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = mvvm_glib_list_model_finalize;
}

static void mvvm_glib_list_model_init(MvvmGlibListModel *self) { (void)self; }

static GType list_model_get_item_type(GListModel *list) { return MVVM_GLIB_LIST_MODEL(list)->item_type; }

static guint list_model_get_n_items(GListModel *list) { return MVVM_GLIB_LIST_MODEL(list)->items->len; }

static gpointer list_model_get_item(GListModel *list, guint position) {
    MvvmGlibListModel *self = MVVM_GLIB_LIST_MODEL(list);
    return position < self->items->len ? g_object_ref(g_ptr_array_index(self->items, position)) : NULL;
}

static void list_model_iface_init(GListModelInterface *iface) {
    iface->get_item_type = list_model_get_item_type;
    iface->get_n_items = list_model_get_n_items;
    iface->get_item = list_model_get_item;
}

/* The item at `index` of the owner's list now, as its GObject. */
static MvvmGlibObject *list_item_at(MvvmGlibListModel *self, gint64 index) {
    MvvmGlibObjectPrivate *owner = PRIV(self->owner);
    MvvmGlibLibrary *library = owner->info->library;
    mvvm_handle handle = 0;
    mvvm_status status = library->fn.list_item(owner->handle, self->prop->name, index, &handle);
    GError *error = NULL;
    MvvmGlibObject *item = status == MVVM_OK
                               ? object_wrap(owner->loop, g_hash_table_lookup(library->classes, self->prop->class_name), handle, &error)
                               : NULL;
    if (!item) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%s.%s[%" G_GINT64_FORMAT "]: %s", owner->info->name, self->prop->name,
              index, error ? error->message : library->fn.last_error());
        g_clear_error(&error);
    }
    return item;
}

/* The owner's list as it reads now, as GObjects. */
static GPtrArray *list_read(MvvmGlibListModel *self) {
    MvvmGlibObjectPrivate *owner = PRIV(self->owner);
    GPtrArray *items = g_ptr_array_new_with_free_func(g_object_unref);
    gint64 count = 0;
    if (owner->info->library->fn.list_count(owner->handle, self->prop->name, &count) != MVVM_OK) count = 0;
    for (gint64 i = 0; i < count; i++) {
        MvvmGlibObject *item = list_item_at(self, i);
        if (item) g_ptr_array_add(items, item);
    }
    return items;
}

MvvmGlibListModel *list_model_new(MvvmGlibObject *owner, PropInfo *prop) {
    MvvmGlibListModel *self = g_object_new(MVVM_GLIB_TYPE_LIST_MODEL, NULL);
    MvvmGlibObjectPrivate *priv = PRIV(owner);
    self->owner = owner;
    self->prop = prop;
    ClassInfo *item_class = g_hash_table_lookup(priv->info->library->classes, prop->class_name);
    self->item_type = item_class ? item_class->gtype : MVVM_GLIB_TYPE_OBJECT;
    self->items = list_read(self);
    return self;
}

/* Makes the model hold the list as it reads now, announced as one items-changed over the items
 * between the ends that did not change (none when nothing differs). */
static void list_model_refill(MvvmGlibListModel *self) {
    GPtrArray *now = list_read(self);
    guint old_length = self->items->len, new_length = now->len, head = 0, tail = 0;
    while (head < old_length && head < new_length && self->items->pdata[head] == now->pdata[head]) head++;
    while (tail < old_length - head && tail < new_length - head &&
           self->items->pdata[old_length - 1 - tail] == now->pdata[new_length - 1 - tail])
        tail++;
    GPtrArray *old = self->items;
    self->items = now;
    if (old_length != new_length || head < old_length)
        g_list_model_items_changed(G_LIST_MODEL(self), head, old_length - head - tail, new_length - head - tail);
    g_ptr_array_unref(old);
}

/* One splice as libmvvm announced it: the removed items go, the inserted ones (already at their
 * final indices in the list) come, then items-changed says so. A model filled from a read made
 * during the operation's delivery may already hold this splice (or miss one): while its splices
 * are delivered the list reads as the splice leaves it, so a model whose count would then differ
 * from the list's is refilled from the list instead. */
void list_model_splice(MvvmGlibListModel *self, gint64 index, gint64 removed, gint64 inserted) {
    guint length = self->items->len;
    if (!self->owner) return;
    MvvmGlibObjectPrivate *owner = PRIV(self->owner);
    gint64 count = 0;
    if (owner->info->library->fn.list_count(owner->handle, self->prop->name, &count) == MVVM_OK &&
        count != (gint64)length - removed + inserted) {
        g_object_ref(self);
        list_model_refill(self);
        g_object_unref(self);
        return;
    }
    if (index < 0 || index > length || removed < 0 || removed > (gint64)length - index || inserted < 0) {
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "a splice out of range (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
              ", %" G_GINT64_FORMAT ") of a list of %u", index, removed, inserted, length);
        return;
    }
    g_object_ref(self);
    if (removed > 0) g_ptr_array_remove_range(self->items, (guint)index, (guint)removed);
    guint added = 0;
    for (gint64 i = 0; i < inserted; i++) {
        MvvmGlibObject *item = list_item_at(self, index + i);
        if (!item) continue;
        g_ptr_array_insert(self->items, (gint)(index + added), item);
        added++;
    }
    g_list_model_items_changed(G_LIST_MODEL(self), (guint)index, (guint)removed, added);
    g_object_unref(self);
}

MvvmGlibObject *mvvm_glib_list_model_get_owner(MvvmGlibListModel *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIST_MODEL(self), NULL);
    return self->owner;
}

const char *mvvm_glib_list_model_get_name(MvvmGlibListModel *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIST_MODEL(self), NULL);
    return self->prop->name;
}
