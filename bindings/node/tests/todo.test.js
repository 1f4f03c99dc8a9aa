'use strict';
// The todo app (build/todo/libtodo.so, MVVM_TODO_LIBRARY): TodoMVC's behaviours from Node, its
// list kept as splices, its SQLite storage across objects.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const mvvm = require('..');

const todoPath = process.env.MVVM_TODO_LIBRARY;
const skip = todoPath && fs.existsSync(todoPath) ? false : 'the todo app is not built (make todo)';

test('TodoMVC: add, toggle, filter, edit, destroy, clear completed', { skip }, () => {
  const lib = mvvm.load(todoPath);
  const loop = new lib.Loop('virtual');
  const todos = new lib.TodoListViewModel(loop, '');
  const copy = [];
  todos.subscribe('items', (splice) => copy.splice(splice.index, splice.removed, ...splice.items.map((i) => i.id)));
  const add = (title) => { todos.newTodoTitle = title; todos.add(); };
  add('  buy milk  ');
  add('   ');
  add('walk');
  assert.deepEqual(todos.items.map((i) => i.title), ['buy milk', 'walk']);
  assert.equal(todos.newTodoTitle, '');
  assert.equal(todos.itemsLeft, '2 items left');
  const [milk, walk] = todos.items;
  milk.completed = true;
  assert.equal(todos.itemsLeft, '1 item left');
  assert.equal(todos.isClearCompletedVisible, true);
  todos.filter = 'active';
  assert.deepEqual(todos.items.map((i) => i.title), ['walk']);
  walk.completed = true;
  assert.equal(todos.items.length, 0, 'completing under "active" splices it out');
  todos.filter = 'all';
  assert.equal(todos.allCompleted, true);
  todos.allCompleted = false;
  assert.equal(todos.activeCount, 2);
  walk.beginEdit();
  assert.equal(walk.isEditing, true);
  walk.editText = '  run  ';
  walk.commitEdit();
  assert.equal(walk.title, 'run');
  walk.beginEdit();
  walk.editText = 'nope';
  walk.cancelEdit();
  assert.equal(walk.title, 'run');
  walk.beginEdit();
  walk.editText = '   ';
  walk.commitEdit();
  assert.deepEqual(todos.items.map((i) => i.title), ['buy milk']);
  milk.completed = true;
  todos.clearCompleted();
  assert.equal(todos.hasTodos, false);
  assert.deepEqual(copy, todos.items.map((i) => i.id), 'the splices applied in order give the list');
  assert.throws(() => { todos.filter = 'done'; }, mvvm.InvalidArgumentError);
  loop.close();
});

test('TodoMVC: the list is kept in its SQLite database', { skip }, () => {
  const lib = mvvm.load(todoPath);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mvvm-node-todo-'));
  const file = path.join(dir, 'todos.sqlite');
  try {
    const loop = new lib.Loop('virtual');
    const first = new lib.TodoListViewModel(loop, file);
    first.newTodoTitle = 'kept';
    first.add();
    first.items[0].completed = true;
    first.filter = 'completed';
    first.close();
    const second = new lib.TodoListViewModel(loop, { storagePath: file });
    assert.equal(second.filter, 'completed');
    assert.deepEqual(second.items.map((i) => [i.title, i.completed]), [['kept', true]]);
    assert.equal(second.storageError, '');
    assert.throws(() => new lib.TodoListViewModel(loop, dir), mvvm.InvalidArgumentError);
    loop.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
