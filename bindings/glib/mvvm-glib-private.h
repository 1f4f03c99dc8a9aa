/*
 * mvvm-glib-private.h - the GLib bridge (libmvvm libraries opened by path, their classes as GTypes
 * made at run time, their objects as GObjects, their lists as GListModels: mvvm-glib.h says what
 * each does, its source files, a type or concern each, say how) shares this among its files, and
 * with no one else: the functions of one library, the class descriptions read from it, the
 * instance structures that more than one file reads, and the functions one file defines for
 * others. Each of those is G_GNUC_INTERNAL (hidden), so that libmvvm-glib.so exports what
 * mvvm-glib.h declares and nothing more. Not given to g-ir-scanner: mvvm-glib.h is the API.
 *
 * Only include/mvvm.h is used, for its types: every mvvm_* function is reached through dlsym()
 * in the library that was opened, so several libraries live side by side in one process.
 */
#ifndef MVVM_GLIB_PRIVATE_H
#define MVVM_GLIB_PRIVATE_H

#include "mvvm-glib.h"

#include "mvvm.h"

#define LOG_DOMAIN "MvvmGlib"

/* ------------------------------------------------------------------------------------------ */
/* The functions of one library                                                               */
/* ------------------------------------------------------------------------------------------ */

#define MVVM_GLIB_FUNCTIONS(X)                                                                   \
    X(version) X(last_error) X(status_name) X(library_tag) X(string_free) X(value_free)          \
    X(loop_new) X(loop_fd) X(loop_dispatch) X(get) X(set) X(call_named) X(call_async) X(cancel)  \
    X(child) X(class_name) X(release) X(subscribe) X(classes) X(new_named) X(list_count)         \
    X(list_item) X(object_id) X(service_new) X(complete)

typedef struct {
#define DECLARE_FUNCTION(name) __typeof__(mvvm_##name) *name;
    MVVM_GLIB_FUNCTIONS(DECLARE_FUNCTION)
#undef DECLARE_FUNCTION
} Functions;

/* ------------------------------------------------------------------------------------------ */
/* Class descriptions, read once from mvvm_classes()                                          */
/* ------------------------------------------------------------------------------------------ */

typedef enum {
    KIND_NONE, KIND_BOOL, KIND_INT, KIND_DOUBLE, KIND_STRING, KIND_BYTES, KIND_ARRAY, KIND_RECORD,
    KIND_LIST, KIND_OBJECT, KIND_SERVICE,
    KIND_DATE /* a Date: a double of seconds since 1970 in C, a GDateTime as a property or payload */
} Kind;

/* A value's type as a description writes it ("type", "optional", "element", "record"...). */
typedef struct TypeDesc {
    Kind kind;
    gboolean optional;
    gboolean is_unsigned;        /* "c_type": "uint64_t" */
    gboolean has_range;
    gint64 min, max;
    struct TypeDesc *element;    /* arrays */
    char *record;                /* records */
    GVariantType *variant_type;  /* NULL for none, lists, objects */
} TypeDesc;

typedef struct {
    char *name;
    guint n_fields;
    char **field_names;
    TypeDesc *fields;
} RecordDesc;

typedef enum { PROP_VALUE, PROP_LIST, PROP_CHILD } PropKind;

typedef struct {
    char *name;          /* libmvvm's name: items_left */
    PropKind kind;
    TypeDesc type;
    gboolean writable;
    char *doc;
    char *class_name;    /* a list's item class, a child's class */
    GParamSpec *pspec;
} PropInfo;

typedef struct {
    char *name;
    char *action_name;   /* '-' for '_' */
    gboolean is_async;
    gboolean is_action;  /* at most one argument */
    guint n_args;
    TypeDesc *args;
    char **arg_names;
    TypeDesc result;
} CommandInfo;

typedef struct {
    char *name;
    TypeDesc type;
    guint signal_id;
} SignalInfo;

typedef struct {
    guint n_args;
    char **arg_names;
    Kind *arg_kinds;
} CtorInfo;

typedef struct {
    MvvmGlibLibrary *library;
    char *name;
    char *display;             /* the description's display name: every binding's name of it */
    char *type_name;
    GType gtype;
    GPtrArray *props;          /* PropInfo */
    GHashTable *props_by_name; /* libmvvm name -> PropInfo */
    GPtrArray *commands;       /* CommandInfo */
    GHashTable *commands_by_name; /* name and action name -> CommandInfo */
    GPtrArray *signals;        /* SignalInfo */
    GHashTable *signals_by_name;
    GPtrArray *ctors;          /* CtorInfo */
} ClassInfo;

/* ------------------------------------------------------------------------------------------ */
/* Libraries (mvvm-glib-library.c)                                                            */
/* ------------------------------------------------------------------------------------------ */

struct _MvvmGlibLibrary {
    GObject parent_instance;
    char *path;
    void *dl;
    guint8 tag;
    char *version;
    char *prefix;
    char *json;
    Functions fn;
    GPtrArray *class_list;   /* ClassInfo */
    GHashTable *classes;     /* name -> ClassInfo */
    GHashTable *records;     /* name -> RecordDesc */
    /* One GObject per Swift object: object id -> GWeakRef. */
    GMutex objects_lock;
    GHashTable *objects;
};

G_GNUC_INTERNAL void set_status_error(MvvmGlibLibrary *library, GError **error, mvvm_status status, const char *context);

/* ------------------------------------------------------------------------------------------ */
/* Values (mvvm-glib-value.c)                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* What values built for one call point to: freed after the call. */
typedef struct {
    GPtrArray *variants;
    GPtrArray *blocks;
} Arena;

/* Arguments as mvvm_call_named() and mvvm_new_named() take them: NULL or "()" none, a tuple
 * by position, an "a{sv}" by name, any other value as the only argument. */
typedef struct {
    guint count;
    const char **names;   /* NULL: all by position */
    mvvm_value *values;
} Arguments;

G_GNUC_INTERNAL void arena_init(Arena *arena);
G_GNUC_INTERNAL void arena_clear(Arena *arena);
G_GNUC_INTERNAL GVariant *arena_keep(Arena *arena, GVariant *variant);
G_GNUC_INTERNAL mvvm_value *arena_items(Arena *arena, gsize count);
G_GNUC_INTERNAL gboolean value_from_variant(Arena *arena, GVariant *variant, mvvm_value *out, GError **error);
G_GNUC_INTERNAL gboolean value_from_gvalue(Arena *arena, const GValue *value, mvvm_value *out, GError **error);
G_GNUC_INTERNAL gboolean arguments_from_variant(Arena *arena, GVariant *arguments, Arguments *out, GError **error);
G_GNUC_INTERNAL GVariant *variant_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value);
G_GNUC_INTERNAL GVariant *variant_from_value_alone(MvvmGlibLibrary *library, const mvvm_value *value);
G_GNUC_INTERNAL void gvalue_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value, GValue *out);

/* ------------------------------------------------------------------------------------------ */
/* Loops (mvvm-glib-loop.c)                                                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct LoopSource LoopSource;   /* the loop's GSource on its fd */

struct _MvvmGlibLoop {
    GObject parent_instance;
    MvvmGlibLibrary *library;
    mvvm_handle handle;
    GMainContext *context;
    LoopSource *source;
    guint64 dispatches;
    gboolean warned;
};

/* ------------------------------------------------------------------------------------------ */
/* Objects (mvvm-glib-object.c, mvvm-glib-command.c)                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    MvvmGlibLoop *loop;
    ClassInfo *info;
    mvvm_handle handle;
    mvvm_handle subscription;
    gint64 id;
    GHashTable *children;   /* name -> MvvmGlibObject (a reference) */
    GHashTable *lists;      /* name -> MvvmGlibListModel (a reference; the model points back, weakly) */
    GHashTable *renotify;   /* pspecs whose notify an idle will emit */
} MvvmGlibObjectPrivate;

#define PRIV(object) (object_private(MVVM_GLIB_OBJECT(object)))

G_GNUC_INTERNAL MvvmGlibObjectPrivate *object_private(MvvmGlibObject *self);
G_GNUC_INTERNAL MvvmGlibObject *object_of_id(MvvmGlibLibrary *library, gint64 id);
G_GNUC_INTERNAL MvvmGlibObject *object_wrap(MvvmGlibLoop *loop, ClassInfo *info, mvvm_handle handle, GError **error);
/* The class_init of each class's GType, which mvvm-glib-library.c registers. */
G_GNUC_INTERNAL void runtime_class_init(gpointer klass, gpointer class_data);
/* mvvm-glib-command.c: MvvmGlibObject's GActionGroup, its commands as actions. */
G_GNUC_INTERNAL void action_group_init(GActionGroupInterface *iface);

/* ------------------------------------------------------------------------------------------ */
/* Lists (mvvm-glib-list.c)                                                                   */
/* ------------------------------------------------------------------------------------------ */

struct _MvvmGlibListModel {
    GObject parent_instance;
    MvvmGlibObject *owner;   /* not a reference: the owner holds the model, and clears this as it goes */
    PropInfo *prop;
    GType item_type;
    GPtrArray *items;        /* MvvmGlibObject references */
};

G_GNUC_INTERNAL MvvmGlibListModel *list_model_new(MvvmGlibObject *owner, PropInfo *prop);
G_GNUC_INTERNAL void list_model_splice(MvvmGlibListModel *self, gint64 index, gint64 removed, gint64 inserted);

#endif /* MVVM_GLIB_PRIVATE_H */
