// The GLib bridge's typelib (MvvmGlib-1.0) from GJS: the todo app's classes as GObject types
// reached through MvvmGlib.Object, their properties as JavaScript properties, notify, the items
// list model, actions, calls and errors. Prints TAP.
//
//   GI_TYPELIB_PATH=build/gtk MVVM_TODO_LIBRARY=build/todo/libtodo.so gjs examples/gtk/test_bridge_gjs.js
const {GLib, GObject, Gio, MvvmGlib} = imports.gi;

const tests = [];
function test(name, body) { tests.push([name, body]); }

function assertEqual(got, expected, what) {
    const a = JSON.stringify(got), b = JSON.stringify(expected);
    if (a !== b) throw new Error(`${what}: ${a} is not ${b}`);
}

const library = MvvmGlib.Library.open(GLib.getenv('MVVM_TODO_LIBRARY'));
const loop = MvvmGlib.Loop.new(library, null);
const newTodos = () => MvvmGlib.Object.new(loop, 'todo_list_view_model', new GLib.Variant('(s)', ['']));

test('each class is a GObject type derived from MvvmGlib.Object', () => {
    const todos = newTodos();
    const gtype = library.get_class_type('todo_list_view_model');
    assertEqual(todos.constructor.$gtype.name, gtype.name, 'the object\'s type');
    assertEqual(gtype.name, `${library.get_type_prefix()}_TodoListViewModel`, 'the type\'s name');
    assertEqual(todos instanceof MvvmGlib.Object, true, 'an MvvmGlib.Object');
    assertEqual(todos instanceof Gio.ActionGroup, true, 'a Gio.ActionGroup');
    assertEqual(GObject.type_is_a(gtype, MvvmGlib.Object.$gtype), true, 'derived from the base type');
});

test('properties read, write and notify', () => {
    const todos = newTodos();
    const seen = [];
    todos.connect('notify::items-left', () => seen.push(todos.items_left));
    todos.new_todo_title = '  Buy milk ';
    assertEqual(todos.new_todo_title, '  Buy milk ', 'new_todo_title');
    todos.activate_action('add', null);
    assertEqual(seen, ['1 item left'], 'items-left notified once, after the change');
    assertEqual(todos.active_count, 1, 'active_count');
    assertEqual(todos.new_todo_title, '', 'new_todo_title cleared');
});

test('the items list model follows the splices', () => {
    const todos = newTodos();
    const items = todos.items;
    const changes = [];
    items.connect('items-changed', (model, position, removed, added) => changes.push([position, removed, added]));
    for (const title of ['a', 'b', 'c']) {
        todos.new_todo_title = title;
        todos.call('add', null);
    }
    assertEqual(changes, [[0, 0, 1], [1, 0, 1], [2, 0, 1]], 'one splice per add');
    items.get_item(1).completed = true;
    todos.filter = 'active';
    assertEqual(changes[changes.length - 1], [1, 1, 0], 'the completed todo leaves');
    assertEqual([0, 1].map(i => items.get_item(i).title), ['a', 'c'], 'titles');
    assertEqual(items.get_item_type().name, library.get_class_type('todo_item_view_model').name, 'item type');
});

test('a command that fails is a GLib.Error of the MvvmGlib domain', () => {
    const todos = newTodos();
    try {
        todos.call('fly', null);
        throw new Error('no error');
    } catch (error) {
        assertEqual(error.matches(MvvmGlib.Error, MvvmGlib.Error.UNKNOWN_NAME), true, `${error}`);
    }
});

print(`1..${tests.length}`);
tests.forEach(([name, body], index) => {
    try {
        body();
        print(`ok ${index + 1} ${name}`);
    } catch (error) {
        print(`not ok ${index + 1} ${name}\n# ${error.message}`);
    }
});
