/* gobject_sign_up.h - the GObject twin of sign_up_view_model (gobject_sign_up.c). */
#pragma once
#include <glib-object.h>

G_BEGIN_DECLS

#define BENCH_TYPE_SIGN_UP (bench_sign_up_get_type())
G_DECLARE_FINAL_TYPE(BenchSignUp, bench_sign_up, BENCH, SIGN_UP, GObject)

BenchSignUp *bench_sign_up_new(void);
void bench_sign_up_set_user_id(BenchSignUp *self, const char *value);
void bench_sign_up_set_password(BenchSignUp *self, const char *value);
void bench_sign_up_set_confirm_password(BenchSignUp *self, const char *value);
void bench_sign_up_set_agreed(BenchSignUp *self, gboolean value);
void bench_sign_up_set_is_completion_alert_presented(BenchSignUp *self, gboolean value);
gboolean bench_sign_up_get_is_sign_up_enabled(BenchSignUp *self);

G_END_DECLS
