'use strict';
// Errors as JavaScript developers expect them: every error the binding raises has a `code` (its
// status's name, as Node's own errors carry ERR_...), and every method that returns a Promise
// rejects, never throws: on a closed object, on a closed loop, on a wrong argument.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const mvvm = require('..');

const catalog = mvvm.load(process.env.MVVM_CATALOG_LIBRARY);
const samplePath = process.env.MVVM_SAMPLE_LIBRARY;
const skip = samplePath ? false : 'MVVM_SAMPLE_LIBRARY is not set (make sample)';
const sample = samplePath ? mvvm.load(samplePath) : null;
const CODE = /^MVVM_ERR_[A-Z_]+$/;

// What fn throws (it must throw).
function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail(`did not throw: ${fn}`);
}

test('every error the module raises has a code: refusals, statuses, the addon, loading', () => {
  const loop = new catalog.Loop('virtual');
  const timer = new catalog.CountDownTimer(loop, 3);
  const page = new catalog.CounterPageViewModel(loop, 1n);
  const raisers = {
    'a read-only property': () => { timer.count = 1; },
    'a value of the wrong type': () => new catalog.CountDownTimer(loop, 'three'),
    'an integer out of range': () => new catalog.CountDownTimer(loop, 2 ** 60),
    'a value the library refuses': () => new catalog.CountDownTimer(loop, 0),
    'an unknown member name': () => timer.subscribe('nope', () => {}),
    'a C name where the JavaScript name is asked for': () => timer.on('remaining_time', () => {}),
    'no function': () => timer.on('count', 'not a function'),
    'too many arguments': () => timer.start(1),
    'an options object naming no argument': () => page.firstCounter.increment({ by: 2 }),
    'a class made only by its parent': () => new catalog.DisplayViewModel(loop),
    'no loop': () => new catalog.Counter({}),
    'a model of the wrong class': () => new catalog.TimerViewModel(loop, new catalog.Counter(loop)),
    'a loop kind': () => new catalog.Loop('sideways'),
    'a manual call on a virtual loop': () => loop.dispatch(),
    'not an object of the module': () => mvvm.close({}),
    'reportError set to no function': () => { mvvm.reportError = 'loud'; },
    'a library that is not there': () => mvvm.load('/nonexistent/libnothing.so'),
    'a file that is no libmvvm library': () => mvvm.load(process.execPath),
    'a path that is no string': () => mvvm.load(42),
    'the addon given no handle': () => mvvm.addon.get(catalog.id, 'handle', 'count'),
    'the addon given a library it never loaded': () => mvvm.addon.get(999, 1n, 'count'),
    'the addon given too few arguments': () => mvvm.addon.get(catalog.id),
    'a closed object': () => { const gone = new catalog.Counter(loop); gone.close(); return gone.count; },
  };
  for (const [what, raise] of Object.entries(raisers)) {
    const error = thrown(raise);
    assert.ok(error instanceof Error, `${what}: ${error}`);
    assert.match(String(error.code), CODE, `${what}: ${error.name}: ${error.message} has code ${error.code}`);
  }
  const load = thrown(() => mvvm.load('/nonexistent/libnothing.so'));
  assert.ok(load instanceof mvvm.LoadError && load.code === 'MVVM_ERR_LOAD', String(load));
  assert.equal(thrown(() => { timer.count = 1; }).code, 'MVVM_ERR_READ_ONLY');
  assert.equal(thrown(() => timer.on('remaining_time', () => {})).code, 'MVVM_ERR_UNKNOWN_NAME');
  assert.match(thrown(() => timer.on('remaining_time', () => {})).message, /remainingTime/, 'the C name says its JavaScript name');
  assert.equal(thrown(() => new catalog.TimerViewModel(loop, new catalog.Counter(loop))).code, 'MVVM_ERR_WRONG_TYPE');
  assert.equal(thrown(() => new catalog.CountDownTimer(loop, 'three')).code, 'MVVM_ERR_INVALID_ARGUMENT');
  loop.close();
  assert.equal(thrown(() => timer.count).code, 'MVVM_ERR_LOOP_RELEASED');
  // Every error class gives its own status's name as its code, made by the module or by a user.
  for (const [name, ErrorClass] of Object.entries(mvvm)) {
    if (typeof ErrorClass !== 'function' || !(ErrorClass.prototype instanceof mvvm.MvvmError)) continue;
    const made = new ErrorClass('made');
    assert.equal(made.code, ErrorClass.statusName || ErrorClass.code || made.statusName, name);
    assert.match(made.code, CODE, name);
  }
});

test("a list's refusals and a record's have codes too", { skip }, () => {
  const loop = new sample.Loop('virtual');
  const list = new sample.Playlist(loop);
  list.add('a');
  const songs = list.songs;
  for (const raise of [() => { songs[0] = null; }, () => songs.at('first'), () => { list.songs = []; },
    () => new sample.Address(null), () => { new sample.Profile(loop).address = { street: 's', city: 'c', planet: 'x' }; },
    () => new sample.Tally(loop, 1).total + sample.Tally.prototype.addMany.call(new sample.Tally(loop, 1), 'x')]) {
    assert.match(String(thrown(raise).code), CODE, String(raise));
  }
  loop.close();
});

// Every throw in the module builds its error with a code (a refusal, a status's class, the
// closed-object error, a malformed snapshot's InternalError) or passes one on; every throw of the
// addon names its code. A new throw without one fails here.
test('the sources: every error thrown is made with a code', () => {
  const source = fs.readFileSync(path.join(__dirname, '..', 'index.js'), 'utf8');
  const made = /throw (refused\(|unrepresentable\(|closedError\(|malformed\(\)|new errors\.[A-Za-z]+Error\(|new LoadError\(|error;|firstError;)/;
  const throws = source.split('\n').map((line, i) => [i + 1, line]).filter(([, line]) => /\bthrow\b/.test(line) && !/^\s*\/\//.test(line));
  assert.ok(throws.length > 40, `${throws.length} throws`);
  const bare = throws.filter(([, line]) => !made.test(line) && !/process\.nextTick\(\(\) => \{ throw error; \}\)/.test(line));
  assert.deepEqual(bare, [], 'a throw without a code');
  const addon = fs.readFileSync(path.join(__dirname, '..', 'mvvm_node.c'), 'utf8');
  const calls = addon.match(/napi_throw_(?:type_|range_)?error\(env, [^,]+,/g) || [];
  assert.ok(calls.length > 30);
  assert.deepEqual(calls.filter((call) => /, NULL,$/.test(call)), [], 'an addon error without a code');
});

// The classes of the sample with async commands, each made as its constructors allow.
function objectsWithAsyncCommands(loop) {
  const made = [];
  for (const cls of Object.values(sample.classes)) {
    const commands = cls.description.commands.filter((command) => command.async);
    if (!commands.length) continue;
    const ways = (cls.description.constructors || []).map((k) => k.arguments);
    const noArguments = ways.find((args) => args.length === 0);
    const serviceOnly = ways.find((args) => args.length === 1 && args[0].type === 'service');
    const make = noArguments ? () => new cls(loop) : serviceOnly ? () => new cls(loop, () => 'answer') : null;
    assert.ok(make, `${cls.name} can be made`);
    made.push({ cls, make, commands: commands.map((command) => cls.jsNames.get(command.name)) });
  }
  return made;
}

test('every async command rejects, never throws: on a closed object, a closed loop, a wrong argument', { skip }, async () => {
  const loop = new sample.Loop('virtual');
  const checked = [];
  const call = (obj, name, ...args) => {
    let promise;
    assert.doesNotThrow(() => { promise = obj[name](...args); }, `${obj.constructor.name}.${name} threw`);
    assert.ok(promise instanceof Promise, `${obj.constructor.name}.${name} gives a Promise`);
    return promise;
  };
  for (const { cls, make, commands } of objectsWithAsyncCommands(loop)) {
    for (const name of commands) {
      const closed = make();
      closed.close();
      await assert.rejects(call(closed, name), (e) => e instanceof mvvm.ClosedError && e.code === 'MVVM_ERR_INVALID_HANDLE', `${cls.name}.${name} closed`);
      const wrong = make();
      await assert.rejects(call(wrong, name, Symbol('wrong'), Symbol('wrong'), Symbol('wrong')),
        (e) => e instanceof TypeError && e.code === 'MVVM_ERR_INVALID_ARGUMENT', `${cls.name}.${name} wrong argument`);
      await assert.rejects(call(wrong, name, { signal: 'no signal' }), (e) => e.code === 'MVVM_ERR_INVALID_ARGUMENT', `${cls.name}.${name} signal`);
      checked.push(`${cls.name}.${name}`);
    }
  }
  assert.ok(checked.length >= 4, `async commands checked: ${checked}`);
  // On a closed loop: its objects' commands reject as released.
  const other = new sample.Loop('virtual');
  const profile = new sample.Profile(other);
  other.close();
  await assert.rejects(call(profile, 'ping'), (e) => e instanceof mvvm.ClosedError && /^MVVM_ERR_/.test(e.code));
  loop.close();
});

test("changes() rejects its first next(), never throws: on a closed object, an unknown name, a closed loop", async () => {
  const loop = new catalog.Loop('virtual');
  const closed = new catalog.Counter(loop);
  closed.close();
  const counter = new catalog.Counter(loop);
  const cases = [[() => closed.changes('count'), mvvm.ClosedError, 'MVVM_ERR_INVALID_HANDLE'],
    [() => counter.changes('nope'), mvvm.UnknownNameError, 'MVVM_ERR_UNKNOWN_NAME'],
    [() => counter.changes(42), TypeError, 'MVVM_ERR_INVALID_ARGUMENT'],
    [() => mvvm.changes(closed), mvvm.ClosedError, 'MVVM_ERR_INVALID_HANDLE']];
  for (const [start, ErrorClass, code] of cases) {
    let iterator;
    assert.doesNotThrow(() => { iterator = start(); });
    await assert.rejects(iterator.next(), (e) => e instanceof ErrorClass && e.code === code);
    assert.deepEqual(await iterator.next(), { value: undefined, done: true }, 'then it is done');
  }
  const other = new catalog.Loop('virtual');
  const orphan = new catalog.Counter(other);
  other.close();
  await assert.rejects(orphan.changes('count').next(), (e) => /^MVVM_ERR_/.test(e.code));
  // for await sees the rejection as a throw of the loop, where it can be caught
  await assert.rejects((async () => { for await (const change of closed.changes('count')) void change; })(), mvvm.ClosedError);
  loop.close();
});
