/*
 * mvvm-glib.c - the GLib bridge: libmvvm libraries opened by path, their classes as GTypes made
 * at run time, their objects as GObjects, their lists as GListModels (mvvm-glib.h says what
 * each does; this file says how).
 *
 * Only include/mvvm.h is used, for its types: every mvvm_* function is reached through dlsym()
 * in the library that was opened, so several libraries live side by side in one process.
 */
#define _GNU_SOURCE
#include "mvvm-glib.h"

#include <dlfcn.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

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
/* Errors                                                                                     */
/* ------------------------------------------------------------------------------------------ */

G_DEFINE_QUARK(mvvm-glib-error-quark, mvvm_glib_error)

G_DEFINE_ENUM_TYPE(MvvmGlibError, mvvm_glib_error,
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_INVALID_HANDLE, "invalid-handle"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_WRONG_TYPE, "wrong-type"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_NULL_POINTER, "null-pointer"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_INVALID_ARGUMENT, "invalid-argument"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_UNKNOWN_NAME, "unknown-name"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_READ_ONLY, "read-only"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_TYPE_MISMATCH, "type-mismatch"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_WRONG_LOOP_KIND, "wrong-loop-kind"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_UNKNOWN_REQUEST, "unknown-request"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_INTERNAL, "internal"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_LOOP_RELEASED, "loop-released"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_COMMAND_FAILED, "command-failed"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_CANCELLED, "cancelled"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_BAD_REGISTRATION, "bad-registration"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_WRONG_THREAD, "wrong-thread"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_LOAD_FAILED, "load-failed"),
    G_DEFINE_ENUM_VALUE(MVVM_GLIB_ERROR_UNSUPPORTED, "unsupported"))

/* ------------------------------------------------------------------------------------------ */
/* Libraries                                                                                  */
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

G_DEFINE_FINAL_TYPE(MvvmGlibLibrary, mvvm_glib_library, G_TYPE_OBJECT)

static void mvvm_glib_library_class_init(MvvmGlibLibraryClass *klass) { (void)klass; }
static void mvvm_glib_library_init(MvvmGlibLibrary *self) {
    g_mutex_init(&self->objects_lock);
    self->objects = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
}

/* Every library opened, by tag; each is kept for the life of the process. */
static GMutex libraries_lock;
static GHashTable *libraries_by_tag;
static GHashTable *prefixes_used;

static void set_status_error(MvvmGlibLibrary *library, GError **error, mvvm_status status, const char *context) {
    const char *message = library->fn.last_error();
    g_set_error(error, MVVM_GLIB_ERROR, (gint)status, "%s%s%s", context ? context : "", context ? ": " : "",
                message && *message ? message : library->fn.status_name(status));
}

/* "todo_list_view_model" -> "TodoListViewModel"; characters other than letters and digits end a word. */
static char *camel_case(const char *name) {
    GString *out = g_string_new(NULL);
    gboolean upper = TRUE;
    for (const char *c = name; *c; c++) {
        if (!g_ascii_isalnum(*c)) { upper = TRUE; continue; }
        g_string_append_c(out, upper ? g_ascii_toupper(*c) : *c);
        upper = FALSE;
    }
    return g_string_free(out, FALSE);
}

/* "/x/libtodo.so" -> "MvvmTodo"; "libmvvm.so.0" -> "Mvvm". */
static char *type_prefix_for(const char *path) {
    char *base = g_path_get_basename(path);
    char *stem = base;
    if (g_str_has_prefix(stem, "lib")) stem += 3;
    char *dot = strstr(stem, ".so");
    if (dot) *dot = '\0';
    char *camel = camel_case(stem);
    char *prefix = g_str_has_prefix(camel, "Mvvm") ? g_strdup(camel) : g_strconcat("Mvvm", camel, NULL);
    g_free(camel);
    g_free(base);
    return prefix;
}

static void parse_type(JsonObject *object, TypeDesc *type) {
    static const struct { const char *name; Kind kind; } kinds[] = {
        {"none", KIND_NONE}, {"bool", KIND_BOOL}, {"int", KIND_INT}, {"double", KIND_DOUBLE},
        {"string", KIND_STRING}, {"bytes", KIND_BYTES}, {"array", KIND_ARRAY}, {"record", KIND_RECORD},
        {"list", KIND_LIST}, {"object", KIND_OBJECT}, {"service", KIND_SERVICE},
        /* Foundation's values: a UUID, URL or Decimal is its text. */
        {"uuid", KIND_STRING}, {"url", KIND_STRING}, {"decimal", KIND_STRING}, {"date", KIND_DATE},
    };
    memset(type, 0, sizeof *type);
    const char *name = json_object_get_string_member_with_default(object, "type", "none");
    for (gsize i = 0; i < G_N_ELEMENTS(kinds); i++)
        if (strcmp(kinds[i].name, name) == 0) type->kind = kinds[i].kind;
    type->optional = json_object_get_boolean_member_with_default(object, "optional", FALSE);
    type->is_unsigned = g_strcmp0(json_object_get_string_member_with_default(object, "c_type", ""), "uint64_t") == 0;
    if (json_object_has_member(object, "min") && json_object_has_member(object, "max")) {
        type->has_range = TRUE;
        type->min = json_object_get_int_member(object, "min");
        type->max = json_object_get_int_member(object, "max");
    }
    if (type->kind == KIND_ARRAY && json_object_has_member(object, "element")) {
        type->element = g_new0(TypeDesc, 1);
        parse_type(json_object_get_object_member(object, "element"), type->element);
    }
    if (json_object_has_member(object, "record"))
        type->record = g_strdup(json_object_get_string_member(object, "record"));
}

/* The GVariant type of a value of `type`: "x", "ms", "a{sv}", "amd"...; FALSE for none. */
static gboolean append_variant_type(GString *out, const TypeDesc *type) {
    if (type->optional) g_string_append_c(out, 'm');
    switch (type->kind) {
    case KIND_BOOL: g_string_append_c(out, 'b'); return TRUE;
    case KIND_INT: g_string_append_c(out, type->is_unsigned ? 't' : 'x'); return TRUE;
    case KIND_DOUBLE: case KIND_DATE: g_string_append_c(out, 'd'); return TRUE;
    case KIND_STRING: g_string_append_c(out, 's'); return TRUE;
    case KIND_BYTES: g_string_append(out, "ay"); return TRUE;
    case KIND_RECORD: g_string_append(out, "a{sv}"); return TRUE;
    case KIND_ARRAY:
        g_string_append_c(out, 'a');
        if (type->element && append_variant_type(out, type->element)) return TRUE;
        g_string_append_c(out, 'v');
        return TRUE;
    default: return FALSE;
    }
}

static void finish_type(TypeDesc *type) {
    GString *text = g_string_new(NULL);
    if (append_variant_type(text, type)) type->variant_type = g_variant_type_new(text->str);
    g_string_free(text, TRUE);
    if (type->element) finish_type(type->element);
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

/* A type as a description writes it, with its GVariant type. */
static void read_type(JsonObject *object, TypeDesc *type) {
    parse_type(object, type);
    finish_type(type);
}

/* A named and typed entry of a description (a property, a signal, an argument, a record's field):
 * reads its type into `type` and gives a copy of its name. */
static char *read_named(JsonObject *object, TypeDesc *type) {
    read_type(object, type);
    return g_strdup(json_object_get_string_member(object, "name"));
}

/* Adds a class's member to its list and to its table by `name`. */
static void add_member(GPtrArray *members, GHashTable *by_name, char *name, gpointer member) {
    g_ptr_array_add(members, member);
    g_hash_table_insert(by_name, name, member);
}

static char *dashed(const char *name) {
    char *copy = g_strdup(name);
    g_strdelimit(copy, "_", '-');
    return copy;
}

static void parse_records(MvvmGlibLibrary *library, JsonObject *records) {
    GList *names = json_object_get_members(records);
    for (GList *n = names; n; n = n->next) {
        if (g_hash_table_contains(library->records, n->data)) continue;
        JsonObject *record = json_object_get_object_member(records, n->data);
        JsonArray *fields = json_object_get_array_member(record, "fields");
        RecordDesc *desc = g_new0(RecordDesc, 1);
        desc->name = g_strdup(n->data);
        desc->n_fields = json_array_get_length(fields);
        desc->field_names = g_new0(char *, desc->n_fields + 1);
        desc->fields = g_new0(TypeDesc, desc->n_fields);
        for (guint i = 0; i < desc->n_fields; i++) {
            JsonObject *field = json_array_get_object_element(fields, i);
            desc->field_names[i] = read_named(field, &desc->fields[i]);
        }
        g_hash_table_insert(library->records, desc->name, desc);
    }
    g_list_free(names);
}

static ClassInfo *parse_class(MvvmGlibLibrary *library, JsonObject *object) {
    ClassInfo *info = g_new0(ClassInfo, 1);
    info->library = library;
    info->name = g_strdup(json_object_get_string_member(object, "class"));
    info->display = g_strdup(json_object_get_string_member(object, "display"));
    info->props = g_ptr_array_new();
    info->props_by_name = g_hash_table_new(g_str_hash, g_str_equal);
    info->commands = g_ptr_array_new();
    info->commands_by_name = g_hash_table_new(g_str_hash, g_str_equal);
    info->signals = g_ptr_array_new();
    info->signals_by_name = g_hash_table_new(g_str_hash, g_str_equal);
    info->ctors = g_ptr_array_new();

    JsonArray *properties = json_object_get_array_member(object, "properties");
    for (guint i = 0; properties && i < json_array_get_length(properties); i++) {
        JsonObject *p = json_array_get_object_element(properties, i);
        PropInfo *prop = g_new0(PropInfo, 1);
        prop->name = read_named(p, &prop->type);
        prop->kind = prop->type.kind == KIND_LIST ? PROP_LIST : PROP_VALUE;
        prop->writable = prop->kind == PROP_VALUE &&
                         g_strcmp0(json_object_get_string_member_with_default(p, "access", "ro"), "rw") == 0;
        prop->doc = g_strdup(json_object_get_string_member_with_default(p, "doc", ""));
        prop->class_name = g_strdup(json_object_get_string_member_with_default(p, "item_class", ""));
        add_member(info->props, info->props_by_name, prop->name, prop);
    }
    JsonObject *child_classes = json_object_has_member(object, "child_classes")
                                    ? json_object_get_object_member(object, "child_classes") : NULL;
    JsonArray *children = json_object_get_array_member(object, "children");
    for (guint i = 0; children && i < json_array_get_length(children); i++) {
        PropInfo *prop = g_new0(PropInfo, 1);
        prop->name = g_strdup(json_array_get_string_element(children, i));
        prop->kind = PROP_CHILD;
        prop->doc = g_strdup("A child view model.");
        prop->class_name = g_strdup(child_classes ? json_object_get_string_member_with_default(child_classes, prop->name, "")
                                                  : "");
        add_member(info->props, info->props_by_name, prop->name, prop);
    }
    JsonArray *commands = json_object_get_array_member(object, "commands");
    for (guint i = 0; commands && i < json_array_get_length(commands); i++) {
        JsonObject *c = json_array_get_object_element(commands, i);
        CommandInfo *command = g_new0(CommandInfo, 1);
        command->name = g_strdup(json_object_get_string_member(c, "name"));
        command->action_name = dashed(command->name);
        command->is_async = json_object_get_boolean_member_with_default(c, "async", FALSE);
        JsonArray *arguments = json_object_get_array_member(c, "arguments");
        command->n_args = arguments ? json_array_get_length(arguments) : 0;
        command->args = g_new0(TypeDesc, command->n_args + 1);
        command->arg_names = g_new0(char *, command->n_args + 1);
        for (guint a = 0; a < command->n_args; a++) {
            JsonObject *argument = json_array_get_object_element(arguments, a);
            command->arg_names[a] = read_named(argument, &command->args[a]);
        }
        command->is_action = command->n_args <= 1;
        if (json_object_has_member(c, "result")) {
            read_type(json_object_get_object_member(c, "result"), &command->result);
        }
        add_member(info->commands, info->commands_by_name, command->name, command);
        g_hash_table_insert(info->commands_by_name, command->action_name, command);
    }
    JsonArray *signals = json_object_get_array_member(object, "signals");
    for (guint i = 0; signals && i < json_array_get_length(signals); i++) {
        JsonObject *s = json_array_get_object_element(signals, i);
        SignalInfo *signal = g_new0(SignalInfo, 1);
        signal->name = read_named(s, &signal->type);
        add_member(info->signals, info->signals_by_name, signal->name, signal);
    }
    JsonArray *constructors = json_object_get_array_member(object, "constructors");
    for (guint i = 0; constructors && i < json_array_get_length(constructors); i++) {
        JsonArray *arguments = json_object_get_array_member(json_array_get_object_element(constructors, i), "arguments");
        CtorInfo *ctor = g_new0(CtorInfo, 1);
        ctor->n_args = arguments ? json_array_get_length(arguments) : 0;
        ctor->arg_names = g_new0(char *, ctor->n_args + 1);
        ctor->arg_kinds = g_new0(Kind, ctor->n_args + 1);
        for (guint a = 0; a < ctor->n_args; a++) {
            JsonObject *argument = json_array_get_object_element(arguments, a);
            TypeDesc type;
            parse_type(argument, &type);
            ctor->arg_names[a] = g_strdup(json_object_get_string_member(argument, "name"));
            ctor->arg_kinds[a] = type.kind;
            g_free(type.element);   /* constructors' value types are scalars; only the kind is kept */
            g_free(type.record);
        }
        g_ptr_array_add(info->ctors, ctor);
    }
    if (json_object_has_member(object, "records"))
        parse_records(library, json_object_get_object_member(object, "records"));
    return info;
}

static void runtime_class_init(gpointer klass, gpointer class_data);

/* "MvvmTodo" + the display name "TodoListViewModel" -> "MvvmTodo_TodoListViewModel": the library
 * names it; the bridge adds only its type prefix. */
static char *type_name_for(const char *prefix, const ClassInfo *info) {
    return g_strconcat(prefix, "_", info->display, NULL);
}

/* Whether no library has `prefix` and no GType is named as one of `library`'s classes would be
 * under it. */
static gboolean type_prefix_is_free(MvvmGlibLibrary *library, const char *prefix) {
    if (g_hash_table_contains(prefixes_used, prefix)) return FALSE;
    for (guint i = 0; i < library->class_list->len; i++) {
        char *name = type_name_for(prefix, g_ptr_array_index(library->class_list, i));
        gboolean taken = g_type_from_name(name) != 0;
        g_free(name);
        if (taken) return FALSE;
    }
    return TRUE;
}

/* The first free of "MvvmTodo", "MvvmTodo<tag>", "MvvmTodo<tag>_2", "MvvmTodo<tag>_3"...: a tagged
 * prefix may be another library's own ("Mvvm3" for libmvvm3.so), so each is checked. */
static char *free_type_prefix(MvvmGlibLibrary *library) {
    char *base = type_prefix_for(library->path);
    char *prefix = g_strdup(base);
    for (guint attempt = 1; !type_prefix_is_free(library, prefix); attempt++) {
        g_free(prefix);
        prefix = attempt == 1 ? g_strdup_printf("%s%u", base, (unsigned)library->tag)
                              : g_strdup_printf("%s%u_%u", base, (unsigned)library->tag, attempt);
    }
    g_free(base);
    return prefix;
}

static gboolean load_classes(MvvmGlibLibrary *library, GError **error) {
    char *json = NULL;
    mvvm_status status = library->fn.classes(&json);
    if (status != MVVM_OK) {
        set_status_error(library, error, status, library->path);
        return FALSE;
    }
    library->json = g_strdup(json);
    library->fn.string_free(json);
    JsonParser *parser = json_parser_new();
    GError *parse_error = NULL;
    if (!json_parser_load_from_data(parser, library->json, -1, &parse_error) ||
        !JSON_NODE_HOLDS_ARRAY(json_parser_get_root(parser))) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_INTERNAL, "%s: mvvm_classes() is no JSON array: %s",
                    library->path, parse_error ? parse_error->message : "another value");
        g_clear_error(&parse_error);
        g_object_unref(parser);
        return FALSE;
    }
    JsonArray *classes = json_node_get_array(json_parser_get_root(parser));
    for (guint i = 0; i < json_array_get_length(classes); i++) {
        ClassInfo *info = parse_class(library, json_array_get_object_element(classes, i));
        g_ptr_array_add(library->class_list, info);
        g_hash_table_insert(library->classes, info->name, info);
    }
    g_object_unref(parser);

    library->prefix = free_type_prefix(library);
    /* GTypes: every one is registered before any class is initialised, so that lists and
     * children can name their items' types. */
    for (guint i = 0; i < library->class_list->len; i++) {
        ClassInfo *info = g_ptr_array_index(library->class_list, i);
        info->type_name = type_name_for(library->prefix, info);
    }
    for (guint i = 0; i < library->class_list->len; i++) {
        ClassInfo *info = g_ptr_array_index(library->class_list, i);
        const GTypeInfo type_info = {
            .class_size = sizeof(MvvmGlibObjectClass),
            .class_init = runtime_class_init,
            .class_data = info,
            .instance_size = sizeof(MvvmGlibObject),
        };
        info->gtype = g_type_register_static(MVVM_GLIB_TYPE_OBJECT, info->type_name, &type_info, 0);
    }
    return TRUE;
}

MvvmGlibLibrary *mvvm_glib_library_open(const char *path, GError **error) {
    g_return_val_if_fail(path != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);
    g_type_ensure(MVVM_GLIB_TYPE_OBJECT);
    g_mutex_lock(&libraries_lock);
    if (!libraries_by_tag) {
        libraries_by_tag = g_hash_table_new(g_direct_hash, g_direct_equal);
        prefixes_used = g_hash_table_new(g_str_hash, g_str_equal);
    }
    MvvmGlibLibrary *result = NULL;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_LOAD_FAILED, "%s", dlerror());
        goto out;
    }
    __typeof__(mvvm_library_tag) *tag_of;
    *(void **)&tag_of = dlsym(dl, "mvvm_library_tag");
    if (!tag_of) {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_LOAD_FAILED, "%s is no libmvvm library (no mvvm_library_tag)",
                    path);
        dlclose(dl);
        goto out;
    }
    guint8 tag = tag_of();
    MvvmGlibLibrary *known = g_hash_table_lookup(libraries_by_tag, GUINT_TO_POINTER(tag));
    if (known) {
        dlclose(dl);   /* the library holds its own reference */
        result = g_object_ref(known);
        goto out;
    }
    MvvmGlibLibrary *library = g_object_new(MVVM_GLIB_TYPE_LIBRARY, NULL);
    library->path = g_strdup(path);
    library->dl = dl;
    library->tag = tag;
    library->class_list = g_ptr_array_new();
    library->classes = g_hash_table_new(g_str_hash, g_str_equal);
    library->records = g_hash_table_new(g_str_hash, g_str_equal);
#define LOAD_FUNCTION(name)                                                                              \
    *(void **)&library->fn.name = dlsym(dl, "mvvm_" #name);                                              \
    if (!library->fn.name) {                                                                             \
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_LOAD_FAILED, "%s has no mvvm_" #name, path); \
        goto fail;                                                                                       \
    }
    MVVM_GLIB_FUNCTIONS(LOAD_FUNCTION)
#undef LOAD_FUNCTION
    library->version = g_strdup(library->fn.version());
    if (!load_classes(library, error)) goto fail;
    g_hash_table_add(prefixes_used, library->prefix);
    g_hash_table_insert(libraries_by_tag, GUINT_TO_POINTER(tag), library);   /* kept for the process's life */
    result = g_object_ref(library);
    goto out;
fail:
    /* A library that failed stays loaded (its class descriptions may be half-read): only the
     * object goes. Its GTypes, if any were registered, name classes of a library not served. */
    g_object_unref(library);
out:
    g_mutex_unlock(&libraries_lock);
    return result;
}

const char *mvvm_glib_library_get_path(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), NULL);
    return self->path;
}

guint8 mvvm_glib_library_get_tag(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), 0);
    return self->tag;
}

const char *mvvm_glib_library_get_version(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), NULL);
    return self->version;
}

const char *mvvm_glib_library_get_type_prefix(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), NULL);
    return self->prefix;
}

const char *mvvm_glib_library_get_classes_json(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), NULL);
    return self->json;
}

char **mvvm_glib_library_list_classes(MvvmGlibLibrary *self) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), NULL);
    char **names = g_new0(char *, self->class_list->len + 1);
    for (guint i = 0; i < self->class_list->len; i++)
        names[i] = g_strdup(((ClassInfo *)g_ptr_array_index(self->class_list, i))->name);
    return names;
}

GType mvvm_glib_library_get_class_type(MvvmGlibLibrary *self, const char *class_name) {
    g_return_val_if_fail(MVVM_GLIB_IS_LIBRARY(self), G_TYPE_INVALID);
    g_return_val_if_fail(class_name != NULL, G_TYPE_INVALID);
    ClassInfo *info = g_hash_table_lookup(self->classes, class_name);
    return info ? info->gtype : G_TYPE_INVALID;
}

/* ------------------------------------------------------------------------------------------ */
/* Values                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* What values built for one call point to: freed after the call. */
typedef struct {
    GPtrArray *variants;
    GPtrArray *blocks;
} Arena;

static void arena_init(Arena *arena) {
    arena->variants = g_ptr_array_new_with_free_func((GDestroyNotify)g_variant_unref);
    arena->blocks = g_ptr_array_new_with_free_func(g_free);
}

static void arena_clear(Arena *arena) {
    g_ptr_array_unref(arena->variants);
    g_ptr_array_unref(arena->blocks);
}

static GVariant *arena_keep(Arena *arena, GVariant *variant) {
    g_ptr_array_add(arena->variants, variant);
    return variant;
}

static mvvm_value *arena_items(Arena *arena, gsize count) {
    mvvm_value *items = g_new0(mvvm_value, count ? count : 1);
    g_ptr_array_add(arena->blocks, items);
    return items;
}

/* A GVariant as libmvvm's value, by the variant's own type; the library decides if it fits. */
static gboolean value_from_variant(Arena *arena, GVariant *variant, mvvm_value *out, GError **error) {
    memset(out, 0, sizeof *out);
    switch (g_variant_classify(variant)) {
    case G_VARIANT_CLASS_BOOLEAN:
        out->type = MVVM_TYPE_BOOL;
        out->boolean = g_variant_get_boolean(variant);
        return TRUE;
    case G_VARIANT_CLASS_BYTE: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_byte(variant); return TRUE;
    case G_VARIANT_CLASS_INT16: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_int16(variant); return TRUE;
    case G_VARIANT_CLASS_UINT16: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_uint16(variant); return TRUE;
    case G_VARIANT_CLASS_INT32: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_int32(variant); return TRUE;
    case G_VARIANT_CLASS_HANDLE: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_handle(variant); return TRUE;
    case G_VARIANT_CLASS_UINT32: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_uint32(variant); return TRUE;
    case G_VARIANT_CLASS_INT64: out->type = MVVM_TYPE_INT; out->integer = g_variant_get_int64(variant); return TRUE;
    case G_VARIANT_CLASS_UINT64: {
        guint64 value = g_variant_get_uint64(variant);
        out->type = value > G_MAXINT64 ? MVVM_TYPE_UINT : MVVM_TYPE_INT;
        out->integer = (int64_t)value;
        return TRUE;
    }
    case G_VARIANT_CLASS_DOUBLE: out->type = MVVM_TYPE_DOUBLE; out->number = g_variant_get_double(variant); return TRUE;
    case G_VARIANT_CLASS_STRING:
    case G_VARIANT_CLASS_OBJECT_PATH:
    case G_VARIANT_CLASS_SIGNATURE: {
        gsize length = 0;
        out->type = MVVM_TYPE_STRING;
        out->string = g_variant_get_string(variant, &length);
        out->integer = (int64_t)length;
        return TRUE;
    }
    case G_VARIANT_CLASS_VARIANT:
        return value_from_variant(arena, arena_keep(arena, g_variant_get_variant(variant)), out, error);
    case G_VARIANT_CLASS_MAYBE: {
        GVariant *inner = g_variant_get_maybe(variant);
        if (!inner) { out->type = MVVM_TYPE_NULL; return TRUE; }
        return value_from_variant(arena, arena_keep(arena, inner), out, error);
    }
    case G_VARIANT_CLASS_ARRAY: {
        const GVariantType *element = g_variant_type_element(g_variant_get_type(variant));
        gsize count = g_variant_n_children(variant);
        if (g_variant_type_equal(element, G_VARIANT_TYPE_BYTE)) {
            gsize length = 0;
            const char *bytes = g_variant_get_fixed_array(variant, &length, 1);
            out->type = MVVM_TYPE_BYTES;
            out->string = bytes ? bytes : "";
            out->integer = (int64_t)length;
            return TRUE;
        }
        if (g_variant_type_is_dict_entry(element)) {
            if (!g_variant_type_equal(g_variant_type_key(element), G_VARIANT_TYPE_STRING)) {
                g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH,
                            "a dictionary is a record only with string keys, not %s", g_variant_get_type_string(variant));
                return FALSE;
            }
            mvvm_value *items = arena_items(arena, 2 * count);
            for (gsize i = 0; i < count; i++) {
                GVariant *entry = arena_keep(arena, g_variant_get_child_value(variant, i));
                GVariant *key = arena_keep(arena, g_variant_get_child_value(entry, 0));
                if (!value_from_variant(arena, key, &items[2 * i], error)) return FALSE;
                if (!value_from_variant(arena, arena_keep(arena, g_variant_get_child_value(entry, 1)), &items[2 * i + 1], error))
                    return FALSE;
            }
            out->type = MVVM_TYPE_MAP;
            out->integer = (int64_t)count;
            MVVM_VALUE_SET_ITEMS(out, items);
            return TRUE;
        }
        mvvm_value *items = arena_items(arena, count);
        for (gsize i = 0; i < count; i++)
            if (!value_from_variant(arena, arena_keep(arena, g_variant_get_child_value(variant, i)), &items[i], error))
                return FALSE;
        out->type = MVVM_TYPE_ARRAY;
        out->integer = (int64_t)count;
        MVVM_VALUE_SET_ITEMS(out, items);
        return TRUE;
    }
    case G_VARIANT_CLASS_TUPLE: {
        gsize count = g_variant_n_children(variant);
        mvvm_value *items = arena_items(arena, count);
        for (gsize i = 0; i < count; i++)
            if (!value_from_variant(arena, arena_keep(arena, g_variant_get_child_value(variant, i)), &items[i], error))
                return FALSE;
        out->type = MVVM_TYPE_RECORD;
        out->string = NULL;
        out->integer = (int64_t)count;
        MVVM_VALUE_SET_ITEMS(out, items);
        return TRUE;
    }
    default:
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH, "no libmvvm value is of the GVariant type %s",
                    g_variant_get_type_string(variant));
        return FALSE;
    }
}

/* A date's seconds since 1970 (exact to its microseconds). */
static double seconds_of_date_time(GDateTime *moment) {
    return (double)g_date_time_to_unix(moment) + g_date_time_get_microsecond(moment) / 1e6;
}

/* A date's seconds since 1970 as a GDateTime in UTC, to the nearest microsecond; NULL, with a
 * warning, beyond the years 1-9999 a GDateTime holds (or NaN). */
static GDateTime *date_time_of_seconds(double seconds) {
    double whole = floor(seconds);
    GDateTime *start = isfinite(seconds) && whole >= -62135596800.0 && whole < 253402300800.0
                           ? g_date_time_new_from_unix_utc((gint64)whole) : NULL;
    GDateTime *moment = start ? g_date_time_add(start, (GTimeSpan)llround((seconds - whole) * 1e6)) : NULL;
    if (start) g_date_time_unref(start);
    if (!moment)
        g_log(LOG_DOMAIN, G_LOG_LEVEL_WARNING, "%.17g seconds since 1970 is beyond the years 1-9999 a GDateTime holds: NULL",
              seconds);
    return moment;
}

/* A GValue (of a property's type) as libmvvm's value. */
static gboolean value_from_gvalue(Arena *arena, const GValue *value, mvvm_value *out, GError **error) {
    memset(out, 0, sizeof *out);
    GType type = G_VALUE_TYPE(value);
    if (type == G_TYPE_BOOLEAN) {
        out->type = MVVM_TYPE_BOOL;
        out->boolean = g_value_get_boolean(value);
    } else if (type == G_TYPE_INT64) {
        out->type = MVVM_TYPE_INT;
        out->integer = g_value_get_int64(value);
    } else if (type == G_TYPE_UINT64) {
        guint64 number = g_value_get_uint64(value);
        out->type = number > G_MAXINT64 ? MVVM_TYPE_UINT : MVVM_TYPE_INT;
        out->integer = (int64_t)number;
    } else if (type == G_TYPE_DOUBLE) {
        out->type = MVVM_TYPE_DOUBLE;
        out->number = g_value_get_double(value);
    } else if (type == G_TYPE_STRING) {
        out->type = MVVM_TYPE_STRING;
        out->string = g_value_get_string(value) ? g_value_get_string(value) : "";
    } else if (type == G_TYPE_DATE_TIME) {
        GDateTime *moment = g_value_get_boxed(value);
        if (!moment) {
            g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH, "a date cannot be a NULL GDateTime");
            return FALSE;
        }
        out->type = MVVM_TYPE_DOUBLE;
        out->number = seconds_of_date_time(moment);
    } else if (type == G_TYPE_BYTES) {
        GBytes *bytes = g_value_get_boxed(value);
        gsize size = 0;
        const char *data = bytes ? g_bytes_get_data(bytes, &size) : NULL;
        out->type = MVVM_TYPE_BYTES;
        out->string = data ? data : "";
        out->integer = (int64_t)size;
    } else if (type == G_TYPE_VARIANT) {
        GVariant *variant = g_value_get_variant(value);
        if (!variant) {
            out->type = MVVM_TYPE_NULL;
            return TRUE;
        }
        return value_from_variant(arena, variant, out, error);
    } else {
        g_set_error(error, MVVM_GLIB_ERROR, MVVM_GLIB_ERROR_TYPE_MISMATCH, "no libmvvm value is a %s", g_type_name(type));
        return FALSE;
    }
    return TRUE;
}

static GVariant *variant_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value);

/* A value of a type the description does not say (it never happens with a library that
 * follows its descriptions): by the value's own type. */
static GVariant *variant_from_value_alone(MvvmGlibLibrary *library, const mvvm_value *value) {
    switch (value->type) {
    case MVVM_TYPE_BOOL: return g_variant_new_boolean(value->boolean);
    case MVVM_TYPE_INT: return g_variant_new_int64(value->integer);
    case MVVM_TYPE_UINT: return g_variant_new_uint64((guint64)value->integer);
    case MVVM_TYPE_DOUBLE: return g_variant_new_double(value->number);
    case MVVM_TYPE_STRING: return g_variant_new_string(value->string ? value->string : "");
    case MVVM_TYPE_BYTES:
        return g_variant_new_from_bytes(G_VARIANT_TYPE_BYTESTRING, g_bytes_new(value->string, (gsize)value->integer), TRUE);
    case MVVM_TYPE_NULL: return g_variant_new_maybe(G_VARIANT_TYPE_VARIANT, NULL);
    case MVVM_TYPE_ARRAY:
    case MVVM_TYPE_RECORD: {
        TypeDesc type = {.kind = value->type == MVVM_TYPE_ARRAY ? KIND_ARRAY : KIND_RECORD,
                         .record = (char *)value->string};
        return variant_from_value(library, &type, value);
    }
    default: return NULL;
    }
}

static GVariant *variant_from_plain_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value) {
    switch (type->kind) {
    case KIND_BOOL:
        if (value->type == MVVM_TYPE_BOOL) return g_variant_new_boolean(value->boolean);
        break;
    case KIND_INT:
        if (value->type == MVVM_TYPE_INT || value->type == MVVM_TYPE_UINT)
            return type->is_unsigned ? g_variant_new_uint64((guint64)value->integer) : g_variant_new_int64(value->integer);
        break;
    case KIND_DOUBLE: case KIND_DATE:
        if (value->type == MVVM_TYPE_DOUBLE) return g_variant_new_double(value->number);
        if (value->type == MVVM_TYPE_INT) return g_variant_new_double((double)value->integer);
        break;
    case KIND_STRING:
        if (value->type == MVVM_TYPE_STRING) return g_variant_new_string(value->string ? value->string : "");
        break;
    case KIND_BYTES:
        if (value->type == MVVM_TYPE_BYTES || value->type == MVVM_TYPE_STRING)
            return g_variant_new_from_bytes(G_VARIANT_TYPE_BYTESTRING, g_bytes_new(value->string, (gsize)value->integer),
                                            TRUE);
        break;
    case KIND_ARRAY:
        if (value->type == MVVM_TYPE_ARRAY) {
            const mvvm_value *items = MVVM_VALUE_ITEMS(value);
            if (!type->element || !type->element->variant_type) {
                GVariantBuilder builder;
                g_variant_builder_init(&builder, G_VARIANT_TYPE("av"));
                for (int64_t i = 0; i < value->integer; i++) {
                    GVariant *item = variant_from_value_alone(library, &items[i]);
                    if (item) g_variant_builder_add(&builder, "v", item);
                }
                return g_variant_builder_end(&builder);
            }
            GVariantBuilder builder;
            GVariantType *array_type = g_variant_type_new_array(type->element->variant_type);
            g_variant_builder_init(&builder, array_type);
            g_variant_type_free(array_type);
            for (int64_t i = 0; i < value->integer; i++)
                g_variant_builder_add_value(&builder, variant_from_value(library, type->element, &items[i]));
            return g_variant_builder_end(&builder);
        }
        break;
    case KIND_RECORD:
        if (value->type == MVVM_TYPE_RECORD) {
            const char *name = value->string ? value->string : type->record;
            RecordDesc *record = name ? g_hash_table_lookup(library->records, name) : NULL;
            const mvvm_value *items = MVVM_VALUE_ITEMS(value);
            GVariantBuilder builder;
            g_variant_builder_init(&builder, G_VARIANT_TYPE_VARDICT);
            for (int64_t i = 0; i < value->integer; i++) {
                GVariant *field = record && (guint64)i < record->n_fields
                                      ? variant_from_value(library, &record->fields[i], &items[i])
                                      : variant_from_value_alone(library, &items[i]);
                char *fallback = g_strdup_printf("field%" G_GINT64_FORMAT, i);
                const char *field_name = record && (guint64)i < record->n_fields ? record->field_names[i] : fallback;
                if (field) g_variant_builder_add(&builder, "{sv}", field_name, field);
                g_free(fallback);
            }
            return g_variant_builder_end(&builder);
        }
        break;
    default:
        break;
    }
    return variant_from_value_alone(library, value);
}

/* libmvvm's value as a GVariant of the description's type (floating); NULL for none. */
static GVariant *variant_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value) {
    if (type->kind == KIND_NONE && value->type == MVVM_TYPE_NONE) return NULL;
    if (type->optional) {
        TypeDesc plain = *type;
        plain.optional = FALSE;
        const GVariantType *inner = type->variant_type ? g_variant_type_element(type->variant_type) : G_VARIANT_TYPE_VARIANT;
        if (value->type == MVVM_TYPE_NULL) return g_variant_new_maybe(inner, NULL);
        GVariant *content = variant_from_plain_value(library, &plain, value);
        if (content && !g_variant_is_of_type(content, inner)) content = g_variant_new_variant(content);
        return content ? g_variant_new_maybe(NULL, content) : NULL;
    }
    if (value->type == MVVM_TYPE_NULL) return g_variant_new_maybe(G_VARIANT_TYPE_VARIANT, NULL);
    return variant_from_plain_value(library, type, value);
}

/* libmvvm's value into `out`, initialised with gtype_for(type). */
static void gvalue_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value, GValue *out) {
    GType gtype = G_VALUE_TYPE(out);
    if (gtype == G_TYPE_BOOLEAN) g_value_set_boolean(out, value->boolean);
    else if (gtype == G_TYPE_INT64) g_value_set_int64(out, value->type == MVVM_TYPE_DOUBLE ? (gint64)value->number : value->integer);
    else if (gtype == G_TYPE_UINT64) g_value_set_uint64(out, (guint64)value->integer);
    else if (gtype == G_TYPE_DOUBLE) g_value_set_double(out, value->type == MVVM_TYPE_INT ? (double)value->integer : value->number);
    else if (gtype == G_TYPE_STRING) g_value_set_string(out, value->type == MVVM_TYPE_STRING && value->string ? value->string : "");
    else if (gtype == G_TYPE_DATE_TIME)
        g_value_take_boxed(out, date_time_of_seconds(value->type == MVVM_TYPE_INT ? (double)value->integer : value->number));
    else if (gtype == G_TYPE_BYTES)
        g_value_take_boxed(out, g_bytes_new(value->string, value->type == MVVM_TYPE_BYTES || value->type == MVVM_TYPE_STRING
                                                               ? (gsize)value->integer : 0));
    else if (gtype == G_TYPE_VARIANT) {
        GVariant *variant = variant_from_value(library, type, value);
        if (variant) g_value_take_variant(out, g_variant_ref_sink(variant));
    }
}

/* Arguments as mvvm_call_named() and mvvm_new_named() take them: NULL or "()" none, a tuple
 * by position, an "a{sv}" by name, any other value as the only argument. */
typedef struct {
    guint count;
    const char **names;   /* NULL: all by position */
    mvvm_value *values;
} Arguments;

static gboolean arguments_from_variant(Arena *arena, GVariant *arguments, Arguments *out, GError **error) {
    memset(out, 0, sizeof *out);
    if (!arguments) return TRUE;
    arena_keep(arena, g_variant_ref_sink(arguments));
    if (g_variant_is_of_type(arguments, G_VARIANT_TYPE_TUPLE)) {
        out->count = g_variant_n_children(arguments);
        out->values = arena_items(arena, out->count);
        for (guint i = 0; i < out->count; i++)
            if (!value_from_variant(arena, arena_keep(arena, g_variant_get_child_value(arguments, i)), &out->values[i], error))
                return FALSE;
        return TRUE;
    }
    if (g_variant_is_of_type(arguments, G_VARIANT_TYPE_VARDICT)) {
        out->count = g_variant_n_children(arguments);
        out->values = arena_items(arena, out->count);
        out->names = g_new0(const char *, out->count + 1);
        g_ptr_array_add(arena->blocks, out->names);
        for (guint i = 0; i < out->count; i++) {
            GVariant *entry = arena_keep(arena, g_variant_get_child_value(arguments, i));
            out->names[i] = g_variant_get_string(arena_keep(arena, g_variant_get_child_value(entry, 0)), NULL);
            if (!value_from_variant(arena, arena_keep(arena, g_variant_get_child_value(entry, 1)), &out->values[i], error))
                return FALSE;
        }
        return TRUE;
    }
    out->count = 1;
    out->values = arena_items(arena, 1);
    return value_from_variant(arena, arguments, &out->values[0], error);
}

/* ------------------------------------------------------------------------------------------ */
/* Loops                                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    GSource source;
    MvvmGlibLoop *loop;   /* not a reference: the loop destroys its source first */
    gpointer fd_tag;
} LoopSource;

struct _MvvmGlibLoop {
    GObject parent_instance;
    MvvmGlibLibrary *library;
    mvvm_handle handle;
    GMainContext *context;
    LoopSource *source;
    guint64 dispatches;
    gboolean warned;
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

/* ------------------------------------------------------------------------------------------ */
/* Objects                                                                                    */
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

static void action_group_init(GActionGroupInterface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE(MvvmGlibObject, mvvm_glib_object, G_TYPE_OBJECT,
                                 G_ADD_PRIVATE(MvvmGlibObject)
                                 G_IMPLEMENT_INTERFACE(G_TYPE_ACTION_GROUP, action_group_init))

#define PRIV(object) ((MvvmGlibObjectPrivate *)mvvm_glib_object_get_instance_private(MVVM_GLIB_OBJECT(object)))

struct _MvvmGlibListModel {
    GObject parent_instance;
    MvvmGlibObject *owner;   /* not a reference: the owner holds the model, and clears this as it goes */
    PropInfo *prop;
    GType item_type;
    GPtrArray *items;        /* MvvmGlibObject references */
};

static MvvmGlibListModel *list_model_new(MvvmGlibObject *owner, PropInfo *prop);
static void list_model_splice(MvvmGlibListModel *self, gint64 index, gint64 removed, gint64 inserted);

static MvvmGlibLibrary *library_of(MvvmGlibObject *self) {
    MvvmGlibObjectPrivate *priv = PRIV(self);
    return priv->info ? priv->info->library : NULL;
}

static ClassInfo *info_of_pspec(GParamSpec *pspec) {
    MvvmGlibObjectClass *klass = g_type_class_peek(pspec->owner_type);
    return klass ? klass->info : NULL;
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
static MvvmGlibObject *object_of_id(MvvmGlibLibrary *library, gint64 id) {
    g_mutex_lock(&library->objects_lock);
    GWeakRef *known = g_hash_table_lookup(library->objects, &id);
    MvvmGlibObject *existing = known ? g_weak_ref_get(known) : NULL;
    g_mutex_unlock(&library->objects_lock);
    return existing;
}

/* The GObject of a handle of `loop`'s library, which it takes over: the one that already
 * stands for its Swift object, if any (the handle is then released), else a new one. */
static MvvmGlibObject *object_wrap(MvvmGlibLoop *loop, ClassInfo *info, mvvm_handle handle, GError **error) {
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

static void runtime_class_init(gpointer klass, gpointer class_data) {
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

static void action_group_init(GActionGroupInterface *iface) {
    iface->list_actions = action_group_list_actions;
    iface->query_action = action_group_query_action;
    iface->activate_action = action_group_activate_action;
    iface->change_action_state = action_group_change_action_state;
}

/* ------------------------------------------------------------------------------------------ */
/* Lists                                                                                      */
/* ------------------------------------------------------------------------------------------ */

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

static MvvmGlibListModel *list_model_new(MvvmGlibObject *owner, PropInfo *prop) {
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
static void list_model_splice(MvvmGlibListModel *self, gint64 index, gint64 removed, gint64 inserted) {
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

/* ------------------------------------------------------------------------------------------ */
/* Host services                                                                              */
/* ------------------------------------------------------------------------------------------ */

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
