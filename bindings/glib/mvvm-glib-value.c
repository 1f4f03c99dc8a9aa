/*
 * mvvm-glib-value.c - values between GLib and libmvvm: a GVariant or a GValue as libmvvm's value
 * (built in an Arena that the call frees), libmvvm's value as a GVariant of the description's
 * type or a GValue of the property's type (a Date as a GDateTime), and call arguments (a tuple,
 * an a{sv} or one value) as mvvm_call_named() and mvvm_new_named() take them. No state: each
 * function converts what it is given.
 */
#define _GNU_SOURCE
#include "mvvm-glib-private.h"

#include <math.h>
#include <string.h>

void arena_init(Arena *arena) {
    arena->variants = g_ptr_array_new_with_free_func((GDestroyNotify)g_variant_unref);
    arena->blocks = g_ptr_array_new_with_free_func(g_free);
}

void arena_clear(Arena *arena) {
    g_ptr_array_unref(arena->variants);
    g_ptr_array_unref(arena->blocks);
}

GVariant *arena_keep(Arena *arena, GVariant *variant) {
    g_ptr_array_add(arena->variants, variant);
    return variant;
}

mvvm_value *arena_items(Arena *arena, gsize count) {
    mvvm_value *items = g_new0(mvvm_value, count ? count : 1);
    g_ptr_array_add(arena->blocks, items);
    return items;
}

/* A GVariant as libmvvm's value, by the variant's own type; the library decides if it fits. */
gboolean value_from_variant(Arena *arena, GVariant *variant, mvvm_value *out, GError **error) {
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
gboolean value_from_gvalue(Arena *arena, const GValue *value, mvvm_value *out, GError **error) {
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

/* A value of a type the description does not say (it never happens with a library that
 * follows its descriptions): by the value's own type. */
GVariant *variant_from_value_alone(MvvmGlibLibrary *library, const mvvm_value *value) {
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
GVariant *variant_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value) {
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
void gvalue_from_value(MvvmGlibLibrary *library, const TypeDesc *type, const mvvm_value *value, GValue *out) {
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

gboolean arguments_from_variant(Arena *arena, GVariant *arguments, Arguments *out, GError **error) {
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
