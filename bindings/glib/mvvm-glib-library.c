/*
 * mvvm-glib-library.c - MvvmGlibLibrary: a libmvvm library opened by path (dlopen, every mvvm_*
 * function found with dlsym), its class descriptions read once from mvvm_classes() into ClassInfo
 * and its records, and a GType registered for each class under a type prefix that no other
 * library has; each library opened is kept, by tag, for the life of the process. Also the
 * MvvmGlibError domain, and set_status_error(), with which every file turns a libmvvm status into
 * a GError.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

#include <dlfcn.h>
#include <json-glib/json-glib.h>
#include <string.h>

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

/* A libmvvm status as an MVVM_GLIB_ERROR of the same code: "context: " and the library's last
 * error message, or the status's name when there is none. */
void set_status_error(MvvmGlibLibrary *library, GError **error, mvvm_status status, const char *context) {
    const char *message = library->fn.last_error();
    g_set_error(error, MVVM_GLIB_ERROR, (gint)status, "%s%s%s", context ? context : "", context ? ": " : "",
                message && *message ? message : library->fn.status_name(status));
}

/* ------------------------------------------------------------------------------------------ */
/* Class descriptions, read once from mvvm_classes()                                          */
/* ------------------------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------------------------ */
/* Libraries                                                                                  */
/* ------------------------------------------------------------------------------------------ */

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

/* "/x/libtodo.so" -> "MvvmTodo"; "libcatalog.so.0" -> "MvvmCatalog"; "libmvvm.so" -> "Mvvm". */
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
