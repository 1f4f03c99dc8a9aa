/*
 * mvvm-glib-service.c - MvvmGlibService: a host service (mvvm_service_new) whose requests reach
 * an MvvmGlibRequestFunc with the asking view model's GObject, and mvvm_glib_library_complete(),
 * which answers a request.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

/* What the service's libmvvm handle calls: it lives until libmvvm ends the service, which may be
 * after the MvvmGlibService is gone (view models made with it still hold it). Not a reference to
 * the library: a library, once open, stays loaded. */
typedef struct {
    MvvmGlibLibrary *library;
    MvvmGlibRequestFunc request_func;
    gpointer user_data;
    GDestroyNotify destroy;
} ServiceData;

struct _MvvmGlibService {
    GObject parent_instance;
    MvvmGlibLibrary *library;
    mvvm_handle handle;
};

G_DEFINE_FINAL_TYPE(MvvmGlibService, mvvm_glib_service, G_TYPE_OBJECT)

static void mvvm_glib_service_finalize(GObject *object) {
    MvvmGlibService *self = MVVM_GLIB_SERVICE(object);
    if (self->handle) self->library->fn.release(self->handle);
    g_clear_object(&self->library);
    G_OBJECT_CLASS(mvvm_glib_service_parent_class)->finalize(object);
}

static void mvvm_glib_service_class_init(MvvmGlibServiceClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = mvvm_glib_service_finalize;
}

static void mvvm_glib_service_init(MvvmGlibService *self) { (void)self; }

static void service_request(mvvm_handle view_model, mvvm_handle request, const mvvm_value *argument, void *user_data) {
    ServiceData *data = user_data;
    gint64 id = 0;
    MvvmGlibObject *asking = data->library->fn.object_id(view_model, &id) == MVVM_OK ? object_of_id(data->library, id) : NULL;
    GVariant *value = argument && argument->type != MVVM_TYPE_NONE ? variant_from_value_alone(data->library, argument) : NULL;
    if (value) g_variant_ref_sink(value);
    data->request_func(asking, request, value, data->user_data);
    if (value) g_variant_unref(value);
    if (asking) g_object_unref(asking);
}

static void service_end(void *user_data) {
    ServiceData *data = user_data;
    if (data->destroy) data->destroy(data->user_data);
    g_free(data);
}

MvvmGlibService *mvvm_glib_service_new(MvvmGlibLibrary *library, MvvmGlibRequestFunc request_func, gpointer user_data,
                                       GDestroyNotify destroy, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(library), NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    if (!request_func) {
        if (destroy) destroy(user_data);
        g_set_error_literal(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_NULL_POINTER, "a service needs a request function");
        return NULL;
    }
    ServiceData *data = g_new0(ServiceData, 1);
    *data = (ServiceData){library, request_func, user_data, destroy};
    mvvm_handle handle = 0;
    /* On failure libmvvm ends the service at once: service_end runs @destroy and frees data. */
    mvvm_status status = library->fn.service_new(service_request, data, service_end, &handle);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, NULL);
        return NULL;
    }
    MvvmGlibService *self = g_object_new(MVVM_GLIB_TYPE_SERVICE, NULL);
    self->library = g_object_ref(library);
    self->handle = handle;
    return self;
}

guint64 mvvm_glib_service_get_handle(MvvmGlibService *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_SERVICE(self), 0);
    return self->handle;
}

gboolean mvvm_glib_library_complete(MvvmGlibLibrary *self, guint64 request, GVariant *result, GError **error) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), FALSE);
    g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
    Arena arena;
    arena_init(&arena);
    mvvm_value value = {.type = MVVM_TYPE_NONE};
    gboolean ok = !result || value_from_variant(&arena, arena_keep(&arena, g_variant_ref_sink(result)), &value, error);
    if (ok) {
        mvvm_status status = self->fn.complete(request, &value);
        if (status != MVVM_OK) {
            set_status_error(self, error, status, NULL);
            ok = FALSE;
        }
    }
    arena_clear(&arena);
    return ok;
}
