/*
 * gobject_sign_up.c - the GObject twin of sign_up_view_model, the bar of issue 17: the same
 * SignUp written as a competent GLib developer writes it. G_DEFINE_TYPE, static pspecs,
 * G_PARAM_EXPLICIT_NOTIFY and notify only on a real change, typed setters that g_object_set
 * goes through, and every notification sent after the state is complete (the setter updates
 * is_sign_up_enabled before it notifies anything), as libmvvm's rules ask.
 * Lengths count code points (g_utf8_strlen), what a GLib developer would write; libmvvm counts
 * grapheme clusters, which costs it more. The benchmark's strings are ASCII, so both agree.
 */
#include "gobject_sign_up.h"

#include <string.h>

struct _BenchSignUp {
    GObject parent_instance;
    char *user_id, *password, *confirm_password;
    gboolean agreed, is_completion_alert_presented, is_sign_up_enabled;
};

G_DEFINE_TYPE(BenchSignUp, bench_sign_up, G_TYPE_OBJECT)

enum {
    PROP_0,
    PROP_USER_ID,
    PROP_PASSWORD,
    PROP_CONFIRM_PASSWORD,
    PROP_AGREED,
    PROP_IS_COMPLETION_ALERT_PRESENTED,
    PROP_IS_SIGN_UP_ENABLED,
    N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Recomputes is_sign_up_enabled; whether it changed (the caller notifies it). */
static gboolean update_enabled(BenchSignUp *self) {
    gboolean enabled = g_utf8_strlen(self->user_id, -1) >= 6 && g_utf8_strlen(self->password, -1) >= 8
                    && strcmp(self->password, self->confirm_password) == 0 && self->agreed;
    if (enabled == self->is_sign_up_enabled) return FALSE;
    self->is_sign_up_enabled = enabled;
    return TRUE;
}

static void set_string(BenchSignUp *self, char **field, const char *value, guint property) {
    if (value == NULL) value = "";
    if (strcmp(*field, value) == 0) return;
    g_free(*field);
    *field = g_strdup(value);
    gboolean enabled_changed = update_enabled(self);
    g_object_notify_by_pspec(G_OBJECT(self), properties[property]);
    if (enabled_changed) g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_IS_SIGN_UP_ENABLED]);
}

void bench_sign_up_set_user_id(BenchSignUp *self, const char *value) {
    g_return_if_fail(BENCH_IS_SIGN_UP(self));
    set_string(self, &self->user_id, value, PROP_USER_ID);
}

void bench_sign_up_set_password(BenchSignUp *self, const char *value) {
    g_return_if_fail(BENCH_IS_SIGN_UP(self));
    set_string(self, &self->password, value, PROP_PASSWORD);
}

void bench_sign_up_set_confirm_password(BenchSignUp *self, const char *value) {
    g_return_if_fail(BENCH_IS_SIGN_UP(self));
    set_string(self, &self->confirm_password, value, PROP_CONFIRM_PASSWORD);
}

void bench_sign_up_set_agreed(BenchSignUp *self, gboolean value) {
    g_return_if_fail(BENCH_IS_SIGN_UP(self));
    value = !!value;
    if (value == self->agreed) return;
    self->agreed = value;
    gboolean enabled_changed = update_enabled(self);
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_AGREED]);
    if (enabled_changed) g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_IS_SIGN_UP_ENABLED]);
}

void bench_sign_up_set_is_completion_alert_presented(BenchSignUp *self, gboolean value) {
    g_return_if_fail(BENCH_IS_SIGN_UP(self));
    value = !!value;
    if (value == self->is_completion_alert_presented) return;
    self->is_completion_alert_presented = value;
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_IS_COMPLETION_ALERT_PRESENTED]);
}

gboolean bench_sign_up_get_is_sign_up_enabled(BenchSignUp *self) {
    g_return_val_if_fail(BENCH_IS_SIGN_UP(self), FALSE);
    return self->is_sign_up_enabled;
}

static void bench_sign_up_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    BenchSignUp *self = BENCH_SIGN_UP(object);
    switch (id) {
    case PROP_USER_ID: bench_sign_up_set_user_id(self, g_value_get_string(value)); break;
    case PROP_PASSWORD: bench_sign_up_set_password(self, g_value_get_string(value)); break;
    case PROP_CONFIRM_PASSWORD: bench_sign_up_set_confirm_password(self, g_value_get_string(value)); break;
    case PROP_AGREED: bench_sign_up_set_agreed(self, g_value_get_boolean(value)); break;
    case PROP_IS_COMPLETION_ALERT_PRESENTED:
        bench_sign_up_set_is_completion_alert_presented(self, g_value_get_boolean(value));
        break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void bench_sign_up_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    BenchSignUp *self = BENCH_SIGN_UP(object);
    switch (id) {
    case PROP_USER_ID: g_value_set_string(value, self->user_id); break;
    case PROP_PASSWORD: g_value_set_string(value, self->password); break;
    case PROP_CONFIRM_PASSWORD: g_value_set_string(value, self->confirm_password); break;
    case PROP_AGREED: g_value_set_boolean(value, self->agreed); break;
    case PROP_IS_COMPLETION_ALERT_PRESENTED: g_value_set_boolean(value, self->is_completion_alert_presented); break;
    case PROP_IS_SIGN_UP_ENABLED: g_value_set_boolean(value, self->is_sign_up_enabled); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void bench_sign_up_finalize(GObject *object) {
    BenchSignUp *self = BENCH_SIGN_UP(object);
    g_free(self->user_id);
    g_free(self->password);
    g_free(self->confirm_password);
    G_OBJECT_CLASS(bench_sign_up_parent_class)->finalize(object);
}

static void bench_sign_up_class_init(BenchSignUpClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->set_property = bench_sign_up_set_property;
    object_class->get_property = bench_sign_up_get_property;
    object_class->finalize = bench_sign_up_finalize;
    const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
    properties[PROP_USER_ID] = g_param_spec_string("user-id", NULL, NULL, "", rw);
    properties[PROP_PASSWORD] = g_param_spec_string("password", NULL, NULL, "", rw);
    properties[PROP_CONFIRM_PASSWORD] = g_param_spec_string("confirm-password", NULL, NULL, "", rw);
    properties[PROP_AGREED] = g_param_spec_boolean("agreed", NULL, NULL, FALSE, rw);
    properties[PROP_IS_COMPLETION_ALERT_PRESENTED] =
        g_param_spec_boolean("is-completion-alert-presented", NULL, NULL, FALSE, rw);
    properties[PROP_IS_SIGN_UP_ENABLED] = g_param_spec_boolean("is-sign-up-enabled", NULL, NULL, FALSE,
                                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPS, properties);
}

static void bench_sign_up_init(BenchSignUp *self) {
    self->user_id = g_strdup("");
    self->password = g_strdup("");
    self->confirm_password = g_strdup("");
}

BenchSignUp *bench_sign_up_new(void) { return g_object_new(BENCH_TYPE_SIGN_UP, NULL); }
