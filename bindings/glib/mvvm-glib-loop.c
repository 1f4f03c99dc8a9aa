/*
 * mvvm-glib-loop.c - MvvmGlibLoop: a libmvvm manual loop, or the library's main loop, attached to
 * a GMainContext as a GSource on the loop's fd, so that every notification arrives on that
 * context's thread and nothing polls; also a loop the host made through the C ABI, attached the
 * same way (a thread or virtual loop is refused).
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

#include <string.h>

struct LoopSource {
    GSource source;
    MvvmGlibLoop *loop;   /* not a reference: the loop destroys its source first */
    gpointer fd_tag;
};

G_DEFINE_FINAL_TYPE(MvvmGlibLoop, mvvm_glib_loop, G_TYPE_OBJECT)

static gboolean loop_source_dispatch(GSource *source, GSourceFunc callback, gpointer user_data) {
    (void)callback;
    (void)user_data;
    LoopSource *loop_source = (LoopSource *)source;
    MvvmGlibLoop *loop = loop_source->loop;
    if (!(g_source_query_unix_fd(source, loop_source->fd_tag) & (G_IO_IN | G_IO_HUP | G_IO_ERR))) return G_SOURCE_CONTINUE;
    loop->dispatches++;
    mvvm_status status = loop->library->fn.loop_dispatch(loop->handle, NULL);
    if (status == MVVM_ERR_LOOP_RELEASED || status == MVVM_ERR_INVALID_HANDLE) return G_SOURCE_REMOVE;
    if (status != MVVM_OK && !loop->warned) {
        /* A nested main loop run from one of the loop's own callbacks: its work waits. */
        loop->warned = TRUE;
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "mvvm_loop_dispatch: %s", loop->library->fn.last_error());
    }
    return G_SOURCE_CONTINUE;
}

static GSourceFuncs loop_source_funcs = {.dispatch = loop_source_dispatch};

static void mvvm_glib_loop_finalize(GObject *object) {
    MvvmGlibLoop *self = MVVM_GLIB_LOOP(object);
    if (self->source) {
        g_source_destroy(&self->source->source);
        g_source_unref(&self->source->source);
    }
    if (self->handle) self->library->fn.release(self->handle);
    g_clear_pointer(&self->context, g_main_context_unref);
    g_clear_object(&self->library);
    G_OBJECT_CLASS(mvvm_glib_loop_parent_class)->finalize(object);
}

static void mvvm_glib_loop_class_init(MvvmGlibLoopClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = mvvm_glib_loop_finalize;
}

static void mvvm_glib_loop_init(MvvmGlibLoop *self) { (void)self; }

static MvvmGlibLoop *loop_attach(MvvmGlibLibrary *library, mvvm_handle handle, int fd, GMainContext *context) {
    MvvmGlibLoop *self = g_object_new(MVVM_GLIB_TYPE_LOOP, NULL);
    self->library = g_object_ref(library);
    self->handle = handle;
    self->context = g_main_context_ref(context ? context : g_main_context_default());
    self->source = (LoopSource *)g_source_new(&loop_source_funcs, sizeof(LoopSource));
    self->source->loop = self;
    self->source->fd_tag = g_source_add_unix_fd(&self->source->source, fd, G_IO_IN);
    g_source_set_name(&self->source->source, "libmvvm manual loop");
    g_source_attach(&self->source->source, self->context);
    return self;
}

static MvvmGlibLoop *loop_new(MvvmGlibLibrary *library, mvvm_loop_kind kind, GMainContext *context, GError **error) {
    mvvm_handle handle = 0;
    int fd = -1;
    const char *what = kind == MVVM_LOOP_MAIN ? "the main loop" : "a manual loop";
    mvvm_status status = library->fn.loop_new(kind, &handle);
    if (status == MVVM_OK) status = library->fn.loop_fd(handle, &fd);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, what);
        if (handle) library->fn.release(handle);
        return NULL;
    }
    MvvmGlibLoop *self = loop_attach(library, handle, fd, context);
    if (kind == MVVM_LOOP_MAIN) g_source_set_name(&self->source->source, "libmvvm main loop");
    return self;
}

MvvmGlibLoop *mvvm_glib_loop_new(MvvmGlibLibrary *library, GMainContext *context, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(library), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    return loop_new(library, MVVM_LOOP_MANUAL, context, error);
}

MvvmGlibLoop *mvvm_glib_loop_new_main(MvvmGlibLibrary *library, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(library), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    /* The default context: the one the main thread runs (GTK's), the only thread that may dispatch it. */
    return loop_new(library, MVVM_LOOP_MAIN, NULL, error);
}

MvvmGlibLoop *mvvm_glib_loop_new_for_handle(MvvmGlibLibrary *library, guint64 handle, GMainContext *context, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(library), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    const char *class_name = NULL;
    mvvm_status status = library->fn.class_name(handle, &class_name);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, "a loop handle");
        return NULL;
    }
    if (strcmp(class_name, "loop") != 0) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_WRONG_TYPE, "the handle is a %s, not a loop", class_name);
        return NULL;
    }
    int fd = -1;
    status = library->fn.loop_fd(handle, &fd);
    if (status == MVVM_ERR_WRONG_LOOP_KIND) {
        g_set_error_literal(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_UNSUPPORTED,
                            "only a manual loop attaches to a GMainContext: this is a thread loop, whose work and "
                            "notifications run on a thread of its own (where GTK must not be called), or a virtual "
                            "loop, whose time moves only with mvvm_loop_advance(); make it with MVVM_LOOP_MANUAL");
        return NULL;
    }
    if (status != MVVM_OK) {
        set_status_error(library, error, status, "a loop handle");
        return NULL;
    }
    return loop_attach(library, handle, fd, context);
}

guint64 mvvm_glib_loop_get_handle(MvvmGlibLoop *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LOOP(self), 0);
    return self->handle;
}

MvvmGlibLibrary *mvvm_glib_loop_get_library(MvvmGlibLoop *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LOOP(self), NULL);
    return self->library;
}

GMainContext *mvvm_glib_loop_get_context(MvvmGlibLoop *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LOOP(self), NULL);
    return self->context;
}

guint64 mvvm_glib_loop_get_dispatch_count(MvvmGlibLoop *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LOOP(self), 0);
    return self->dispatches;
}
