/*
 * todo_gtk.c - TodoMVC in GTK 4, in C, over the todo app's Swift view models.
 *
 *   ./build/gtk/todo-gtk [--todos FILE] [--library PATH]
 *
 * Opens the todo app's library (build/todo/libtodo.so by default, or MVVM_TODO_LIBRARY) through
 * the GLib bridge, attaches a manual loop to GTK's main context, and shows a todo_list_view_model
 * over the SQLite database FILE (in memory without --todos) in a TodoWindow (todo_window.c).
 */
#include <stdio.h>

#include "todo_window.h"

static char *library_path;
static char *todos_path;
static int exit_status;

static const GOptionEntry OPTIONS[] = {
    {"todos", 't', 0, G_OPTION_ARG_FILENAME, &todos_path, "The todos' SQLite database (default: in memory)", "FILE"},
    {"library", 'l', 0, G_OPTION_ARG_FILENAME, &library_path,
     "The todo app's library (default: $MVVM_TODO_LIBRARY, else build/todo/libtodo.so beside this program's folder)",
     "PATH"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

/* build/gtk/todo-gtk -> build/todo/libtodo.so */
static char *default_library(void) {
    const char *variable = g_getenv("MVVM_TODO_LIBRARY");
    if (variable && *variable) return g_strdup(variable);
    char *self = g_file_read_link("/proc/self/exe", NULL);
    char *folder = self ? g_path_get_dirname(self) : g_strdup(".");
    char *path = g_build_filename(folder, "..", "todo", "libtodo.so", NULL);
    g_free(folder);
    g_free(self);
    return path;
}

static void on_activate(GtkApplication *application, gpointer data) {
    (void)data;
    GError *error = NULL;
    char *path = library_path ? g_strdup(library_path) : default_library();
    MvvmGlibLibrary *library = mvvm_glib_library_open(path, &error);
    MvvmGlibLoop *loop = library ? mvvm_glib_loop_new(library, NULL, &error) : NULL;
    MvvmGlibObject *todos =
        loop ? mvvm_glib_object_new(loop, "todo_list_view_model", g_variant_new("(s)", todos_path ? todos_path : ""), &error)
             : NULL;
    if (!todos) {
        fprintf(stderr, "todo-gtk: %s (library %s)\n", error->message, path);
        g_error_free(error);
        exit_status = 1;   /* no window: the application ends */
    } else {
        gtk_window_present(GTK_WINDOW(todo_window_new(application, todos)));
        g_object_unref(todos);
    }
    g_clear_object(&loop);
    g_clear_object(&library);
    g_free(path);
}

int main(int argc, char **argv) {
    GtkApplication *application = gtk_application_new("org.libmvvm.TodoGtk", G_APPLICATION_NON_UNIQUE);
    g_application_add_main_option_entries(G_APPLICATION(application), OPTIONS);
    g_signal_connect(application, "activate", G_CALLBACK(on_activate), NULL);
    int status = g_application_run(G_APPLICATION(application), argc, argv);
    if (exit_status) status = exit_status;
    g_object_unref(application);
    g_free(library_path);
    g_free(todos_path);
    return status;
}
