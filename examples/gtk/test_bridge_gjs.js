// The GLib bridge's typelib (MvvmGlib-1.0) from GJS: the todo app's classes as GObject types
// reached through MvvmGlib.Object, their properties as JavaScript properties, notify, the items
// list model, actions, calls and errors; the description it reads against its schema. Prints TAP.
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

// The description the bridge reads (mvvm_glib_library_get_classes_json: what it made its types
// from) against its schema, docs/description.schema.json, as the Python suite checks Python's: a
// validator of the few JSON Schema keywords the schema uses (its patterns are ECMAScript's).
const schema = JSON.parse(new TextDecoder().decode(GLib.file_get_contents('docs/description.schema.json')[1]));

function schemaErrors(value, rule = schema, path = '') {
    if (rule === true) return [];
    if (rule === false) return [`${path}: nothing is allowed here`];
    const found = [];
    const isObject = v => v !== null && typeof v === 'object' && !Array.isArray(v);
    const types = {
        object: isObject, array: Array.isArray, string: v => typeof v === 'string', boolean: v => typeof v === 'boolean',
        integer: Number.isInteger, number: v => typeof v === 'number', null: v => v === null,
    };
    for (const [keyword, spec] of Object.entries(rule)) {
        switch (keyword) {
        case '$ref':
            found.push(...schemaErrors(value, spec.slice(2).split('/').reduce((node, key) => node[key], schema), path));
            break;
        case 'type':
            if (![].concat(spec).some(t => types[t](value))) found.push(`${path}: not ${spec}`);
            break;
        case 'enum':
            if (!spec.includes(value)) found.push(`${path}: ${JSON.stringify(value)} is none of ${spec}`);
            break;
        case 'const':
            if (value !== spec) found.push(`${path}: not ${JSON.stringify(spec)}`);
            break;
        case 'pattern':
            if (typeof value === 'string' && !new RegExp(spec, 'u').test(value)) found.push(`${path}: ${value} !~ ${spec}`);
            break;
        case 'required':
            if (isObject(value)) spec.filter(k => !(k in value)).forEach(k => found.push(`${path}: no ${k}`));
            break;
        case 'properties':
            if (isObject(value)) {
                for (const [key, sub] of Object.entries(spec))
                    if (key in value) found.push(...schemaErrors(value[key], sub, `${path}/${key}`));
            }
            break;
        case 'additionalProperties':
            if (isObject(value)) {
                for (const [key, item] of Object.entries(value))
                    if (!(key in (rule.properties || {}))) found.push(...schemaErrors(item, spec, `${path}/${key}`));
            }
            break;
        case 'items':
            if (Array.isArray(value)) value.forEach((item, i) => found.push(...schemaErrors(item, spec, `${path}/${i}`)));
            break;
        case 'allOf':
            spec.forEach(sub => found.push(...schemaErrors(value, sub, path)));
            break;
        case 'oneOf': {
            const kept = spec.filter(sub => schemaErrors(value, sub, path).length === 0).length;
            if (kept !== 1) found.push(`${path}: keeps ${kept} of oneOf's choices, not one`);
            break;
        }
        case 'not':
            if (schemaErrors(value, spec, path).length === 0) found.push(`${path}: matches what is not allowed`);
            break;
        case 'if': {
            const branch = schemaErrors(value, spec, path).length === 0 ? rule.then : rule.else;
            if (branch !== undefined) found.push(...schemaErrors(value, branch, path));
            break;
        }
        case 'then': case 'else': case '$schema': case '$id': case '$defs': case 'title': case 'description':
            break;
        default:
            throw new Error(`the schema uses ${keyword}, which this check does not know: teach it`);
        }
    }
    return found;
}

test('the description the bridge reads follows docs/description.schema.json, and its types are its classes', () => {
    const described = JSON.parse(library.get_classes_json());
    assertEqual(schemaErrors(described), [], 'what breaks the schema');
    const broken = Object.assign({}, described[0]);
    delete broken.display;
    assertEqual(schemaErrors([broken]).length > 0, true, 'the check refuses a class without its display name');
    for (const c of described)
        assertEqual(library.get_class_type(c.class).name, `${library.get_type_prefix()}_${c.display}`, c.class);
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
