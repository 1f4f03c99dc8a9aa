/*
 * todo_window.h - TodoMVC's window in GTK 4, over a todo_list_view_model of the todo app
 * (build/todo/libtodo.so) as the GLib bridge (bindings/glib/mvvm-glib.h) shows it.
 *
 * The window holds no state of its own: every widget is bound to a property of the view models
 * (g_object_bind_property, GtkExpression), the list is a GtkListView over the `items`
 * GListModel, and buttons and entries send commands as actions ("todos.add", "item.destroy").
 * Use it on GTK's thread, with the view model's loop attached to GTK's main context
 * (mvvm_glib_loop_new).
 */
#ifndef TODO_WINDOW_H
#define TODO_WINDOW_H

#include <gtk/gtk.h>

#include "mvvm-glib.h"

G_BEGIN_DECLS

#define TODO_TYPE_ROW (todo_row_get_type())
G_DECLARE_FINAL_TYPE(TodoRow, todo_row, TODO, ROW, GtkWidget)

#define TODO_TYPE_WINDOW (todo_window_get_type())
G_DECLARE_FINAL_TYPE(TodoWindow, todo_window, TODO, WINDOW, GtkApplicationWindow)

/**
 * todo_window_new:
 * @application: (nullable): the application, or NULL (tests)
 * @todos: a todo_list_view_model
 *
 * A window showing @todos, which it keeps alive. The window's action group "todos" is @todos
 * (its commands: "todos.add", "todos.clear-completed").
 *
 * Returns: (transfer floating): the window; gtk_window_destroy() ends it.
 */
GtkWidget *todo_window_new(GtkApplication *application, MvvmGlibObject *todos);

/** The window's widgets, for tests that drive them. Owned by the window. */
typedef struct {
    GtkEntry *new_todo;           /* text <-> new_todo_title; activate: add */
    GtkCheckButton *mark_all;     /* active <-> all_completed; sensitive <- has_todos */
    GtkListView *list;            /* over items */
    GtkWidget *footer;            /* visible <- has_todos */
    GtkLabel *counter;            /* label <- items_left */
    GtkToggleButton *filters[3];  /* all, active, completed: active <-> filter == that */
    GtkButton *clear_completed;   /* visible <- is_clear_completed_visible; clear_completed */
    GtkLabel *storage_error;      /* label and visible <- storage_error */
} TodoWindowWidgets;

/** todo_window_get_widgets: the window's widgets. */
const TodoWindowWidgets *todo_window_get_widgets(TodoWindow *self);

/** The widgets of one row, for tests. Owned by the row. */
typedef struct {
    GtkCheckButton *completed;    /* active <-> completed */
    GtkStack *stack;              /* "title" or "editor" <- is_editing */
    GtkLabel *title;              /* label <- title; css class "completed" <- completed */
    GtkGestureClick *title_click; /* a double click: begin_edit */
    GtkEntry *editor;             /* text <-> edit_text; activate: commit_edit */
    GtkEventControllerKey *editor_keys;    /* Escape: cancel_edit */
    GtkEventControllerFocus *editor_focus; /* leaving it: commit_edit */
    GtkButton *destroy;           /* destroy */
} TodoRowWidgets;

/** todo_row_get_widgets: the row's widgets. */
const TodoRowWidgets *todo_row_get_widgets(TodoRow *self);

/** todo_row_get_item: (transfer none) (nullable): the todo_item_view_model the row shows now. */
MvvmGlibObject *todo_row_get_item(TodoRow *self);

G_END_DECLS

#endif /* TODO_WINDOW_H */
