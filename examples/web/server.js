#!/usr/bin/env node
// TodoMVC in a browser: the state lives in the todo app's Swift view models (build/todo/libtodo.so,
// examples/todo), driven from this Node server, built on node:http alone. The page (public/)
// renders what the view models say, streamed to it as Server-Sent Events (GET /events: the state
// once, then each property change, list splice and item change), and sends each user action as a
// command (POST /api, JSON). Every tab shares one list, kept in the todo app's SQLite database.
//
//   node examples/web/server.js [--port N] [--storage FILE] [--library libtodo.so]
//                               [--sse-buffer-limit BYTES] [--stats]
//
// An ES module over the mvvm npm package, installed as a user installs it (package.json here:
// `npm install` after `make todo node-package`).
//
// Prints "listening on http://127.0.0.1:PORT/" once it accepts connections (--port 0: any free port).
// It serves loopback only, and only to pages of its own origin (docs/web.md): a request naming
// another host (DNS rebinding) or coming from another origin is refused, as is a command that is
// not JSON. An event stream whose client does not read is dropped once its backlog passes
// --sse-buffer-limit bytes; the page reconnects and is sent the whole state again.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, InvalidArgumentError } from 'mvvm';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}
const port = Number(option('port', process.env.PORT || 8080));
const storage = option('storage', path.join(root, 'build', 'web', 'todos.sqlite'));
const libraryPath = option('library', process.env.MVVM_TODO_LIBRARY || path.join(root, 'build', 'todo', 'libtodo.so'));
// What an event stream may hold unsent before its client is dropped (a paused tab, a client that
// never reads): the server's memory stays bounded whatever the clients do.
const sseBufferLimit = Number(option('sse-buffer-limit', 1 << 20));
// GET /stats: what the streams hold, for the tests (off unless asked for).
const statsServed = process.argv.includes('--stats');

fs.mkdirSync(path.dirname(storage), { recursive: true });
const lib = load(libraryPath);
const loop = new lib.Loop('manual'); // driven by Node's event loop
const todos = new lib.TodoListViewModel(loop, storage);
// Each tab filters by its own URL (#/active...): the list the server streams is every todo.
todos.filter = 'all';

const LIST_PROPERTIES = ['itemsLeft', 'activeCount', 'completedCount', 'allCompleted', 'hasTodos',
  'isClearCompletedVisible', 'storageError'];
const ITEM_PROPERTIES = new Set(['title', 'completed']);

const clients = new Set();
let dropped = 0; // streams dropped for their backlog
// An event for one stream; a stream whose unsent bytes would pass the limit is dropped instead.
function send(response, event, data) {
  const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  if (response.writableLength + Buffer.byteLength(text) > sseBufferLimit) {
    clients.delete(response);
    dropped += 1;
    response.destroy(); // its backlog freed; the page's EventSource reconnects and gets the state
    return;
  }
  response.write(text);
}
function broadcast(event, data) { for (const client of [...clients]) send(client, event, data); }

// The server's copy of the list (ids, as the splices leave it) and each listed item's subscription.
const ids = [];
const watched = new Map(); // id -> {item, subscription}
function itemState(item) { return { id: item.id, title: item.title, completed: item.completed }; }
function watch(item) {
  if (watched.has(item.id)) return;
  const subscription = item.subscribe(null, (value, event) => {
    if (ITEM_PROPERTIES.has(event.name)) broadcast('item', { id: item.id, name: event.name, value });
  });
  watched.set(item.id, { item, subscription });
}
for (const item of todos.items) { ids.push(item.id); watch(item); }

todos.subscribe(null, (value, event) => {
  if (event.kind === 'splice') {
    const inserted = value.items.map((item) => item.id);
    const removed = ids.splice(value.index, value.removed, ...inserted);
    value.items.forEach(watch);
    for (const id of removed) {
      if (ids.includes(id)) continue;
      const gone = watched.get(id);
      watched.delete(id);
      gone.subscription.unsubscribe();
      gone.item.close();
    }
    broadcast('splice', { index: value.index, removed: value.removed, items: value.items.map(itemState) });
  } else if (LIST_PROPERTIES.includes(event.name)) {
    broadcast('property', { name: event.name, value });
  }
});

function state() {
  return {
    items: ids.map((id) => itemState(watched.get(id).item)),
    properties: Object.fromEntries(LIST_PROPERTIES.map((name) => [name, todos[name]])),
  };
}

function itemById(id) {
  const found = watched.get(id);
  if (!found) throw new RangeError(`no todo ${id}`);
  return found.item;
}

// A field of a command, of the type it must have (a TypeError, so a 400, when it has not).
const FIELD_TYPES = { title: 'string', completed: 'boolean', id: 'integer' };
function field(command, name) {
  const value = Object.hasOwn(command, name) ? command[name] : undefined;
  const type = FIELD_TYPES[name];
  if (type === 'integer' ? !Number.isSafeInteger(value) : typeof value !== type) {
    throw new TypeError(`${command.action} needs ${name}, a${type === 'integer' ? 'n' : ''} ${type}`);
  }
  return value;
}

// Each user action, as the view models' commands and bindings; its fields are checked before
// anything changes.
const actions = {
  add(command) { todos.newTodoTitle = field(command, 'title'); todos.add(); },
  toggle(command) { itemById(field(command, 'id')).completed = field(command, 'completed'); },
  toggle_all(command) { todos.allCompleted = field(command, 'completed'); },
  edit(command) {
    const item = itemById(field(command, 'id'));
    const title = field(command, 'title');
    item.beginEdit();
    item.editText = title;
    item.commitEdit(); // trimmed; an empty title destroys the todo
  },
  destroy(command) { itemById(field(command, 'id')).destroy(); },
  clear_completed() { todos.clearCompleted(); },
};

const FILES = { '/': ['index.html', 'text/html'], '/app.js': ['app.js', 'text/javascript'],
  '/style.css': ['style.css', 'text/css'] };

// A refusal with its HTTP status (the others are 400 for refused input, 500 for the rest).
class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const MAX_BODY = 1 << 20;
function readBody(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      if (body === null) return; // refused already: the rest is let go
      body += chunk;
      if (body.length > MAX_BODY) {
        body = null;
        reject(new Refused(413, `a command is at most ${MAX_BODY} characters`));
      }
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

// The names a page of this server is reached by: loopback, with the port. Another Host is a page
// of another site reaching it through DNS rebinding.
function ownHosts() {
  const port = server.address().port;
  const names = ['localhost', '127.0.0.1', '[::1]'];
  return new Set([...names.map((name) => `${name}:${port}`), ...(port === 80 ? names : [])]);
}

// Who may ask: a request naming this server (Host), made by a page of its own origin when a
// browser says whose page it is (Origin: sent on every cross-origin request and on every POST, so
// another site's form or fetch never changes the todos), and a command only as JSON (which no form
// and no plain cross-origin fetch can send without the server agreeing first).
function checkAsker(request, url) {
  const hosts = ownHosts();
  const host = String(request.headers.host || '').toLowerCase();
  if (!hosts.has(host)) throw new Refused(403, `this server answers only to ${[...hosts].join(', ')}, not ${JSON.stringify(host)}`);
  const origin = request.headers.origin;
  if (origin !== undefined && !(origin.toLowerCase().startsWith('http://') && hosts.has(origin.slice('http://'.length).toLowerCase()))) {
    throw new Refused(403, `a page of ${JSON.stringify(origin)} may not use this server`);
  }
  if (request.method === 'POST' && url.pathname === '/api') {
    const type = String(request.headers['content-type'] || '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new Refused(415, `a command is application/json, not ${JSON.stringify(type || 'none')}`);
  }
}

// Answers a request; what it throws is answered by refuse().
async function answer(request, response) {
  // Made here, where a failure is answered: a request line no URL can be made of (`GET http://[`)
  // is a 400, never the server's end.
  const url = new URL(request.url, 'http://localhost');
  checkAsker(request, url);
  if (request.method === 'GET' && url.pathname === '/events') {
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    // The whole state, however large (the limit bounds what piles up after it): a page that
    // reconnects after being dropped resyncs from it; it does so within a second.
    response.write(`retry: 1000\nevent: state\ndata: ${JSON.stringify(state())}\n\n`);
    clients.add(response);
    request.on('close', () => clients.delete(response));
    return;
  }
  if (request.method === 'POST' && url.pathname === '/api') {
    const command = JSON.parse(await readBody(request));
    if (command === null || typeof command !== 'object' || Array.isArray(command)) throw new TypeError('a command is a JSON object');
    const action = Object.hasOwn(actions, command.action) ? actions[command.action] : null;
    if (!action) throw new RangeError(`no action ${command.action}`);
    action(command);
    response.writeHead(204);
    response.end();
    return;
  }
  if (statsServed && request.method === 'GET' && url.pathname === '/stats') {
    const streams = [...clients].map((client) => ({ buffered: client.writableLength }));
    response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify({ sse_buffer_limit: sseBufferLimit, dropped, streams }));
    return;
  }
  const file = request.method === 'GET' && FILES[url.pathname];
  if (file) {
    response.writeHead(200, { 'Content-Type': `${file[1]}; charset=utf-8`, 'Cache-Control': 'no-store' });
    response.end(fs.readFileSync(path.join(here, 'public', file[0])));
    return;
  }
  response.writeHead(404, { 'Content-Type': 'text/plain' });
  response.end('not found\n');
}

function refuse(response, error) {
  const status = error instanceof Refused ? error.status
    : error instanceof SyntaxError || error instanceof RangeError || error instanceof TypeError ||
      error instanceof InvalidArgumentError ? 400 : 500;
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) });
  response.end(JSON.stringify({ error: error.message, status: error.statusName || null }));
}

const server = http.createServer((request, response) => {
  answer(request, response).catch((error) => refuse(response, error));
});

server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`);
});

function stop() {
  for (const client of clients) client.end();
  server.close();
  loop.close();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
