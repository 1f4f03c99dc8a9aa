// The todo app's declarations (todo.d.ts, generated from build/todo/libtodo.so by typed.test.js),
// checked by tsc --strict: a list of items typed by their class, a string binding limited to its
// values. Each @ts-expect-error is a planted mistake tsc must report.
import * as mvvm from 'mvvm';
import type { Classes as Todo, TodoItemViewModel } from './todo';

const lib = mvvm.load<Todo>('build/todo/libtodo.so');
const loop = new lib.Loop('virtual');
const todos = new lib.TodoListViewModel(loop, { storagePath: '' });
todos.newTodoTitle = 'milk';
todos.add();
const first: TodoItemViewModel | undefined = todos.items[0];
const titles: string[] = todos.items.map((item) => item.title);
todos.filter = 'active';
todos.subscribe('items', (splice) => { const added: readonly TodoItemViewModel[] = splice.items; void added; });
first?.beginEdit();

// @ts-expect-error: the filter is one of all, active, completed
todos.filter = 'done';
// @ts-expect-error: the count is read-only
todos.activeCount = 3;
// @ts-expect-error: an item's title is read-only (edit_text is the binding)
if (first) first.title = 'x';

void titles;
