/*
 * todo_window.c - TodoMVC in GTK 4 over the todo app's view models (todo_window.h).
 *
 * Nothing here copies a value from a view model into a widget by hand: one-way facts are
 * GtkExpressions or g_object_bind_property(), two-way ones (a checkbox, an entry) bidirectional
 * bindings, commands are actions of the view models (MvvmGlibObject is a GActionGroup), and the
 * list is a GtkListView over the `items` GListModel, whose items-changed are the view model's
 * splices. A change the view model refuses (a save that fails) comes back through the same
 * bindings: the bridge notifies the property again with the value it holds.
 */
#include "todo_window.h"

/* ------------------------------------------------------------------------------------------ */
/* A row: one todo_item_view_model                                                            */
/* ------------------------------------------------------------------------------------------ */

struct _TodoRow {
    GtkWidget parent_instance;
    TodoRowWidgets widgets;
    MvvmGlibObject *item;
    GBinding *completed_binding;
    GBinding *edit_text_binding;
};

enum { ROW_PROP_ITEM = 1, ROW_N_PROPS };
static GParamSpec *row_props[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE(TodoRow, todo_row, GTK_TYPE_WIDGET)

static char *page_for_editing(TodoRow *row, gboolean editing, gpointer data) {
    (void)row;
    (void)data;
    return g_strdup(editing ? "editor" : "title");
}

static char **title_classes(TodoRow *row, gboolean completed, gpointer data) {
    (void)row;
    (void)data;
    return g_strsplit(completed ? "title completed" : "title", " ", -1);
}

static void on_title_pressed(GtkGestureClick *gesture, int n_press, double x, double y, TodoRow *self) {
    (void)gesture;
    (void)x;
    (void)y;
    if (n_press == 2) gtk_widget_activate_action(GTK_WIDGET(self), "item.begin-edit", NULL);
}

static void on_editor_activate(GtkEntry *editor, TodoRow *self) {
    (void)editor;
    gtk_widget_activate_action(GTK_WIDGET(self), "item.commit-edit", NULL);
}

static gboolean on_editor_key(GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                              TodoRow *self) {
    (void)keys;
    (void)keycode;
    (void)state;
    if (keyval != GDK_KEY_Escape) return FALSE;
    gtk_widget_activate_action(GTK_WIDGET(self), "item.cancel-edit", NULL);
    return TRUE;
}

/* TodoMVC: leaving the editor saves it (after Enter or Escape the todo is no longer being
 * edited, and commit_edit does nothing). */
static void on_editor_leave(GtkEventControllerFocus *focus, TodoRow *self) {
    (void)focus;
    if (self->item) gtk_widget_activate_action(GTK_WIDGET(self), "item.commit-edit", NULL);
}

/* The editor takes the focus as it shows. */
static void on_page_changed(GtkStack *stack, GParamSpec *pspec, TodoRow *self) {
    (void)pspec;
    if (g_strcmp0(gtk_stack_get_visible_child_name(stack), "editor") == 0)
        gtk_widget_grab_focus(GTK_WIDGET(self->widgets.editor));
}

static void todo_row_set_item(TodoRow *self, MvvmGlibObject *item) {
    if (self->item == item) return;
    g_clear_pointer(&self->completed_binding, g_binding_unbind);
    g_clear_pointer(&self->edit_text_binding, g_binding_unbind);
    g_set_object(&self->item, item);
    gtk_widget_insert_action_group(GTK_WIDGET(self), "item", item ? G_ACTION_GROUP(item) : NULL);
    if (item) {
        self->completed_binding = g_object_bind_property(item, "completed", self->widgets.completed, "active",
                                                         G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
        self->edit_text_binding = g_object_bind_property(item, "edit-text", self->widgets.editor, "text",
                                                         G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
    }
    g_object_notify_by_pspec(G_OBJECT(self), row_props[ROW_PROP_ITEM]);
}

static void todo_row_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    if (id == ROW_PROP_ITEM) g_value_set_object(value, TODO_ROW(object)->item);
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void todo_row_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    if (id == ROW_PROP_ITEM) todo_row_set_item(TODO_ROW(object), g_value_get_object(value));
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void todo_row_dispose(GObject *object) {
    TodoRow *self = TODO_ROW(object);
    todo_row_set_item(self, NULL);
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(self)))) gtk_widget_unparent(child);
    G_OBJECT_CLASS(todo_row_parent_class)->dispose(object);
}

static void todo_row_class_init(TodoRowClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->get_property = todo_row_get_property;
    object_class->set_property = todo_row_set_property;
    object_class->dispose = todo_row_dispose;
    row_props[ROW_PROP_ITEM] = g_param_spec_object("item", NULL, NULL, MVVM_GLIB_TYPE_OBJECT,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, ROW_N_PROPS, row_props);
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BOX_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "todorow");
}

static void todo_row_init(TodoRow *self) {
    gtk_box_layout_set_spacing(GTK_BOX_LAYOUT(gtk_widget_get_layout_manager(GTK_WIDGET(self))), 8);
}

/* A row for items of `item_type` (the todo_item_view_model's GType: its expressions look its
 * properties up there). */
static TodoRow *todo_row_new(GType item_type) {
    TodoRow *self = g_object_new(TODO_TYPE_ROW, NULL);
    TodoRowWidgets *w = &self->widgets;

    w->completed = GTK_CHECK_BUTTON(gtk_check_button_new());
    gtk_widget_set_parent(GTK_WIDGET(w->completed), GTK_WIDGET(self));

    w->stack = GTK_STACK(gtk_stack_new());
    gtk_widget_set_hexpand(GTK_WIDGET(w->stack), TRUE);
    gtk_widget_set_parent(GTK_WIDGET(w->stack), GTK_WIDGET(self));
    w->title = GTK_LABEL(gtk_label_new(NULL));
    gtk_label_set_xalign(w->title, 0);
    gtk_label_set_ellipsize(w->title, PANGO_ELLIPSIZE_END);
    gtk_stack_add_named(w->stack, GTK_WIDGET(w->title), "title");
    w->editor = GTK_ENTRY(gtk_entry_new());
    gtk_stack_add_named(w->stack, GTK_WIDGET(w->editor), "editor");

    w->destroy = GTK_BUTTON(gtk_button_new_from_icon_name("window-close-symbolic"));
    gtk_widget_set_tooltip_text(GTK_WIDGET(w->destroy), "Delete");
    gtk_widget_add_css_class(GTK_WIDGET(w->destroy), "flat");
    gtk_actionable_set_action_name(GTK_ACTIONABLE(w->destroy), "item.destroy");
    gtk_widget_set_parent(GTK_WIDGET(w->destroy), GTK_WIDGET(self));

    /* One-way facts of the row's item, as expressions that follow "item" as rows are reused. */
    GtkExpression *item = gtk_property_expression_new(TODO_TYPE_ROW, NULL, "item");
    gtk_expression_bind(gtk_property_expression_new(item_type, gtk_expression_ref(item), "title"), w->title, "label", self);
    GtkExpression *editing = gtk_property_expression_new(item_type, gtk_expression_ref(item), "is-editing");
    gtk_expression_bind(gtk_cclosure_expression_new(G_TYPE_STRING, NULL, 1, &editing, G_CALLBACK(page_for_editing), NULL,
                                                    NULL),
                        w->stack, "visible-child-name", self);
    GtkExpression *completed = gtk_property_expression_new(item_type, item, "completed");
    gtk_expression_bind(gtk_cclosure_expression_new(G_TYPE_STRV, NULL, 1, &completed, G_CALLBACK(title_classes), NULL,
                                                    NULL),
                        w->title, "css-classes", self);

    w->title_click = GTK_GESTURE_CLICK(gtk_gesture_click_new());
    g_signal_connect(w->title_click, "pressed", G_CALLBACK(on_title_pressed), self);
    gtk_widget_add_controller(GTK_WIDGET(w->title), GTK_EVENT_CONTROLLER(w->title_click));
    g_signal_connect(w->editor, "activate", G_CALLBACK(on_editor_activate), self);
    w->editor_keys = GTK_EVENT_CONTROLLER_KEY(gtk_event_controller_key_new());
    g_signal_connect(w->editor_keys, "key-pressed", G_CALLBACK(on_editor_key), self);
    gtk_widget_add_controller(GTK_WIDGET(w->editor), GTK_EVENT_CONTROLLER(w->editor_keys));
    w->editor_focus = GTK_EVENT_CONTROLLER_FOCUS(gtk_event_controller_focus_new());
    g_signal_connect(w->editor_focus, "leave", G_CALLBACK(on_editor_leave), self);
    gtk_widget_add_controller(GTK_WIDGET(w->editor), GTK_EVENT_CONTROLLER(w->editor_focus));
    g_signal_connect(w->stack, "notify::visible-child-name", G_CALLBACK(on_page_changed), self);
    return self;
}

const TodoRowWidgets *todo_row_get_widgets(TodoRow *self) {
    g_return_val_if_fail(TODO_IS_ROW(self), NULL);
    return &self->widgets;
}

MvvmGlibObject *todo_row_get_item(TodoRow *self) {
    g_return_val_if_fail(TODO_IS_ROW(self), NULL);
    return self->item;
}

/* ------------------------------------------------------------------------------------------ */
/* The window                                                                                 */
/* ------------------------------------------------------------------------------------------ */

struct _TodoWindow {
    GtkApplicationWindow parent_instance;
    TodoWindowWidgets widgets;
    MvvmGlibObject *todos;
    GListModel *items;
    GType item_type;
};

G_DEFINE_FINAL_TYPE(TodoWindow, todo_window, GTK_TYPE_APPLICATION_WINDOW)

static const char *const FILTERS[3] = {"all", "active", "completed"};
static const char *const FILTER_LABELS[3] = {"All", "Active", "Completed"};

static void todo_window_dispose(GObject *object) {
    TodoWindow *self = TODO_WINDOW(object);
    G_OBJECT_CLASS(todo_window_parent_class)->dispose(object);
    g_clear_object(&self->items);
    g_clear_object(&self->todos);
}

static void todo_window_class_init(TodoWindowClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = todo_window_dispose;
}

static void todo_window_init(TodoWindow *self) { (void)self; }

/* filter == this button's value, both ways: a button that becomes active sets the filter; one
 * that becomes inactive (another one took over) sets nothing. */
static gboolean filter_to_active(GBinding *binding, const GValue *from, GValue *to, gpointer value) {
    (void)binding;
    g_value_set_boolean(to, g_strcmp0(g_value_get_string(from), value) == 0);
    return TRUE;
}

static gboolean active_to_filter(GBinding *binding, const GValue *from, GValue *to, gpointer value) {
    (void)binding;
    if (!g_value_get_boolean(from)) return FALSE;
    g_value_set_string(to, value);
    return TRUE;
}

static gboolean is_not_empty(GObject *this, const char *text, gpointer data) {
    (void)this;
    (void)data;
    return text && *text;
}

static void on_new_todo_activate(GtkEntry *entry, TodoWindow *self) {
    (void)self;
    gtk_widget_activate_action(GTK_WIDGET(entry), "todos.add", NULL);
}

static void on_setup_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, TodoWindow *self) {
    (void)factory;
    gtk_list_item_set_activatable(list_item, FALSE);
    gtk_list_item_set_selectable(list_item, FALSE);
    gtk_list_item_set_child(list_item, GTK_WIDGET(todo_row_new(self->item_type)));
}

static void on_bind_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, TodoWindow *self) {
    (void)factory;
    (void)self;
    todo_row_set_item(TODO_ROW(gtk_list_item_get_child(list_item)), gtk_list_item_get_item(list_item));
}

static void on_unbind_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, TodoWindow *self) {
    (void)factory;
    (void)self;
    todo_row_set_item(TODO_ROW(gtk_list_item_get_child(list_item)), NULL);
}

static const char CSS[] =
    "todorow { padding: 4px 6px; }\n"
    "todorow label.title.completed { text-decoration: line-through; color: alpha(currentColor, 0.55); }\n"
    ".todo-heading { font-size: 32px; font-weight: 200; color: #b83f45; }\n"
    "label.storage-error { color: #b00020; }\n";

static void load_css_once(void) {
    static gsize loaded = 0;
    if (!g_once_init_enter(&loaded)) return;
    GtkCssProvider *provider = gtk_css_provider_new();
    gtk_css_provider_load_from_data(provider, CSS, -1);
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(provider),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(provider);
    g_once_init_leave(&loaded, 1);
}

GtkWidget *todo_window_new(GtkApplication *application, MvvmGlibObject *todos) {
    g_return_val_if_fail(MVVM_GLIB_IS_OBJECT(todos), NULL);
    load_css_once();
    TodoWindow *self = g_object_new(TODO_TYPE_WINDOW, "application", application, "title", "todos", "default-width", 480,
                                    "default-height", 560, NULL);
    TodoWindowWidgets *w = &self->widgets;
    self->todos = g_object_ref(todos);
    g_object_get(todos, "items", &self->items, NULL);
    self->item_type = g_list_model_get_item_type(self->items);
    gtk_widget_insert_action_group(GTK_WIDGET(self), "todos", G_ACTION_GROUP(todos));

    GtkWidget *page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_set_margin_top(page, 16);
    gtk_widget_set_margin_bottom(page, 16);
    gtk_widget_set_margin_start(page, 16);
    gtk_widget_set_margin_end(page, 16);
    gtk_window_set_child(GTK_WINDOW(self), page);

    GtkWidget *heading = gtk_label_new("todos");
    gtk_widget_add_css_class(heading, "todo-heading");
    gtk_box_append(GTK_BOX(page), heading);

    /* The new-todo entry and mark all. */
    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_box_append(GTK_BOX(page), top);
    w->mark_all = GTK_CHECK_BUTTON(gtk_check_button_new());
    gtk_widget_set_tooltip_text(GTK_WIDGET(w->mark_all), "Mark all as complete");
    gtk_box_append(GTK_BOX(top), GTK_WIDGET(w->mark_all));
    g_object_bind_property(todos, "all-completed", w->mark_all, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
    g_object_bind_property(todos, "has-todos", w->mark_all, "sensitive", G_BINDING_SYNC_CREATE);
    w->new_todo = GTK_ENTRY(gtk_entry_new());
    gtk_entry_set_placeholder_text(w->new_todo, "What needs to be done?");
    gtk_widget_set_hexpand(GTK_WIDGET(w->new_todo), TRUE);
    gtk_box_append(GTK_BOX(top), GTK_WIDGET(w->new_todo));
    g_object_bind_property(todos, "new-todo-title", w->new_todo, "text", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
    g_signal_connect(w->new_todo, "activate", G_CALLBACK(on_new_todo_activate), self);

    /* The list: a GtkListView over the items GListModel. */
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    g_signal_connect(factory, "setup", G_CALLBACK(on_setup_row), self);
    g_signal_connect(factory, "bind", G_CALLBACK(on_bind_row), self);
    g_signal_connect(factory, "unbind", G_CALLBACK(on_unbind_row), self);
    w->list = GTK_LIST_VIEW(gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(g_object_ref(self->items))), factory));
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), GTK_WIDGET(w->list));
    gtk_widget_set_vexpand(scroller, TRUE);
    gtk_box_append(GTK_BOX(page), scroller);

    /* The footer: the counter, the filters, clear completed; shown while there are todos. */
    w->footer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_box_append(GTK_BOX(page), w->footer);
    g_object_bind_property(todos, "has-todos", w->footer, "visible", G_BINDING_SYNC_CREATE);
    w->counter = GTK_LABEL(gtk_label_new(NULL));
    gtk_widget_set_size_request(GTK_WIDGET(w->counter), 100, -1);
    gtk_label_set_xalign(w->counter, 0);
    gtk_box_append(GTK_BOX(w->footer), GTK_WIDGET(w->counter));
    g_object_bind_property(todos, "items-left", w->counter, "label", G_BINDING_SYNC_CREATE);
    GtkWidget *filters = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(filters, "linked");
    gtk_box_append(GTK_BOX(w->footer), filters);
    for (int i = 0; i < 3; i++) {
        w->filters[i] = GTK_TOGGLE_BUTTON(gtk_toggle_button_new_with_label(FILTER_LABELS[i]));
        if (i > 0) gtk_toggle_button_set_group(w->filters[i], w->filters[0]);
        gtk_box_append(GTK_BOX(filters), GTK_WIDGET(w->filters[i]));
        g_object_bind_property_full(todos, "filter", w->filters[i], "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                                    filter_to_active, active_to_filter, (gpointer)FILTERS[i], NULL);
    }
    w->clear_completed = GTK_BUTTON(gtk_button_new_with_label("Clear completed"));
    gtk_widget_set_hexpand(GTK_WIDGET(w->clear_completed), TRUE);
    gtk_widget_set_halign(GTK_WIDGET(w->clear_completed), GTK_ALIGN_END);
    gtk_actionable_set_action_name(GTK_ACTIONABLE(w->clear_completed), "todos.clear-completed");
    gtk_box_append(GTK_BOX(w->footer), GTK_WIDGET(w->clear_completed));
    g_object_bind_property(todos, "is-clear-completed-visible", w->clear_completed, "visible", G_BINDING_SYNC_CREATE);

    /* Why the last change was not saved, shown only then. */
    w->storage_error = GTK_LABEL(gtk_label_new(NULL));
    gtk_label_set_wrap(w->storage_error, TRUE);
    gtk_label_set_xalign(w->storage_error, 0);
    gtk_widget_add_css_class(GTK_WIDGET(w->storage_error), "storage-error");
    gtk_box_append(GTK_BOX(page), GTK_WIDGET(w->storage_error));
    g_object_bind_property(todos, "storage-error", w->storage_error, "label", G_BINDING_SYNC_CREATE);
    GtkExpression *error = gtk_property_expression_new(G_OBJECT_TYPE(todos), NULL, "storage-error");
    gtk_expression_bind(gtk_cclosure_expression_new(G_TYPE_BOOLEAN, NULL, 1, &error, G_CALLBACK(is_not_empty), NULL, NULL),
                        w->storage_error, "visible", todos);
    return GTK_WIDGET(self);
}

const TodoWindowWidgets *todo_window_get_widgets(TodoWindow *self) {
    g_return_val_if_fail(TODO_IS_WINDOW(self), NULL);
    return &self->widgets;
}
