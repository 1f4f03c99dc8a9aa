'use strict';
// Lifetimes: close(), Symbol.dispose, the garbage collector's finalizers; callbacks kept alive
// until unsubscribed and let go after; thread loops' calls and services.
const test = require('node:test');
const assert = require('node:assert/strict');
const v8 = require('node:v8');
const vm = require('node:vm');
const mvvm = require('..');

// The catalog's library (examples/catalog, `make catalog`), loaded by its path as any library is.
const catalog = mvvm.load(process.env.MVVM_CATALOG_LIBRARY);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

async function collect() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function liveHandle(lib, handle) {
  try {
    mvvm.addon.className(lib.id, handle);
    return true;
  } catch (error) {
    assert.ok(error instanceof mvvm.InvalidHandleError, String(error));
    return false;
  }
}

test('close() releases once; a closed object says so', () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const handle = mvvm.handle(counter);
  assert.equal(liveHandle(catalog, handle), true);
  assert.equal(mvvm.closed(counter), false);
  counter.close();
  assert.equal(mvvm.closed(counter), true);
  assert.equal(liveHandle(catalog, handle), false);
  assert.doesNotThrow(() => counter.close());
  assert.throws(() => counter.count, (e) => e instanceof mvvm.ClosedError && /closed/.test(e.message));
  assert.throws(() => counter.increment(), mvvm.ClosedError);
  loop.close();
  assert.throws(() => loop.advance(1), mvvm.ClosedError);
});

test('Symbol.dispose closes (using-style scopes)', () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const handle = mvvm.handle(counter);
  counter[Symbol.dispose]();
  assert.equal(liveHandle(catalog, handle), false);
  loop[Symbol.dispose]();
  assert.equal(loop.closed, true);
});

test('the garbage collector releases an object nobody holds', async () => {
  const loop = new catalog.Loop('virtual');
  let handle;
  (() => {
    const counter = new catalog.Counter(loop);
    handle = mvvm.handle(counter);
  })();
  assert.equal(liveHandle(catalog, handle), true);
  await collect();
  assert.equal(liveHandle(catalog, handle), false);
  loop.close();
});

test('a callback lives until unsubscribed, then is let go', async () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  let calls = 0;
  let ref;
  let sub;
  (() => {
    const fn = () => { calls++; };
    ref = new WeakRef(fn);
    sub = counter.subscribe('count', fn);
  })();
  await collect();
  assert.ok(ref.deref(), 'kept while subscribed');
  counter.increment();
  assert.equal(calls, 1);
  assert.equal(sub.unsubscribe(), true);
  assert.equal(sub.unsubscribe(), false, 'one end, one OK');
  counter.increment();
  assert.equal(calls, 1);
  await collect();
  assert.equal(ref.deref(), undefined, 'let go after unsubscribe');
  // Released with its object: the callback goes too.
  (() => {
    const fn = () => {};
    ref = new WeakRef(fn);
    counter.subscribe(null, fn);
  })();
  counter.close();
  await collect();
  assert.equal(ref.deref(), undefined, 'let go when its object is closed');
  loop.close();
});

test('a callback may call back in: read, set, unsubscribe, close its source', () => {
  const loop = new catalog.Loop('virtual');
  const echo = new catalog.InputEchoViewModel(loop);
  const seen = [];
  const sub = echo.subscribe('label', (value) => {
    seen.push([value, echo.message]);
    if (value === 'a') echo.input = 'b';
    if (value === 'b') sub.unsubscribe();
  });
  echo.input = 'a';
  assert.deepEqual(seen, [['a', "Your input is 'a'!"], ['b', "Your input is 'b'!"]]);
  echo.subscribe('input', () => echo.close());
  echo.input = 'c';
  assert.equal(mvvm.closed(echo), true);
  loop.close();
});

test('an exception in a callback is reported (an uncaught exception by default), not a broken library', () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const reported = [];
  const saved = mvvm.reportError;
  mvvm.reportError = (error) => reported.push(error);
  counter.subscribe('count', () => { throw new Error('boom'); });
  const after = [];
  counter.subscribe('count', (v) => after.push(v));
  counter.increment();
  assert.deepEqual(after, [1], 'later subscribers still hear it');
  mvvm.reportError = saved;
  assert.equal(reported.length, 1);
  assert.equal(reported[0].message, 'boom');
  loop.close();
});

test('a thread loop: async calls and services settle on the JavaScript thread', async () => {
  const sample = process.env.MVVM_SAMPLE_LIBRARY;
  if (!sample) return;
  const lib = mvvm.load(sample);
  const loop = new lib.Loop('thread');
  const p = new lib.Profile(loop);
  const tags = await p.load(1);
  assert.equal(tags.length, 1);
  const finder = new lib.Finder(loop, async (query) => `got ${query}`);
  finder.query = 'q';
  assert.equal(await finder.find(), 'got q');
  const slow = p.load(30);
  loop.close();
  await assert.rejects(slow, mvvm.MvvmError);
});

test('objects and loops made and dropped in numbers', async () => {
  for (let round = 0; round < 5; round++) {
    const loop = new catalog.Loop(round % 2 ? 'manual' : 'virtual');
    for (let i = 0; i < 200; i++) {
      const c = new catalog.Counter(loop);
      c.subscribe('count', () => {});
      c.increment();
      if (i % 2) c.close();
    }
    loop.close();
    await collect();
  }
});

test('a thread loop under churn: subscriptions end and objects close while its changes are queued', async () => {
  const loop = new catalog.Loop('thread');
  const watches = [];
  for (let i = 0; i < 20; i++) {
    const sw = new catalog.StopWatch(loop);
    sw.start();
    watches.push(sw);
  }
  let heard = 0;
  const deadline = Date.now() + 400;
  while (Date.now() < deadline) {
    const subs = watches.filter((sw) => !mvvm.closed(sw)).map((sw) => sw.subscribe('timeMs', () => { heard++; }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const sub of subs) sub.unsubscribe();
    const victim = watches[Math.floor(Math.random() * watches.length)];
    if (!mvvm.closed(victim) && Math.random() < 0.2) victim.close();
  }
  const after = heard;
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(heard, after, 'nothing is heard after every subscription ended');
  assert.ok(heard > 0);
  loop.close();
  await collect();
});

test('a loop nobody holds is released by the collector, its fd no longer watched', async () => {
  let handle;
  let ref;
  (() => {
    const loop = new catalog.Loop('manual');
    const sw = new catalog.StopWatch(loop);
    sw.start();
    handle = loop.handle;
    ref = new WeakRef(loop);
  })();
  await collect();
  await collect();
  assert.equal(ref.deref(), undefined);
  assert.equal(liveHandle(catalog, handle), false);
  // Were it still watched, this file's process would not end (the test runner would time out).
});

test('Workers: each has the module; one that ends, with loops running and fds watched, leaves no trace', async () => {
  const { Worker } = require('node:worker_threads');
  const source = `
    const { parentPort } = require('node:worker_threads');
    const mvvm = require(${JSON.stringify(require.resolve('..'))});
    const catalog = mvvm.load(${JSON.stringify(catalog.path)});
    const thread = new catalog.Loop('thread');
    const manual = new catalog.Loop('manual');
    for (const loop of [thread, manual]) {
      const sw = new catalog.StopWatch(loop);
      sw.subscribe('timeMs', () => {});
      sw.start();
    }
    const counter = new catalog.Counter(new catalog.Loop('virtual'));
    counter.increment();
    parentPort.postMessage(counter.count);`;
  const results = await Promise.all([0, 1, 2].map(async (i) => {
    const worker = new Worker(source, { eval: true });
    const count = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    await new Promise((resolve) => setTimeout(resolve, 10 * i));
    await worker.terminate();
    return count;
  }));
  assert.deepEqual(results, [1, 1, 1]);
  const loop = new catalog.Loop('virtual');
  assert.equal(new catalog.Counter(loop).count, 0, 'this thread still works');
  loop.close();
});

test("a thread loop's changes never arrive after a newer change made from JavaScript", async () => {
  const loop = new catalog.Loop('thread');
  let stale = 0;
  for (let trial = 0; trial < 30; trial++) {
    const sw = new catalog.StopWatch(loop);
    let last = null;
    const sub = sw.subscribe('timeMs', (value) => { last = value; });
    sw.start();
    await new Promise((resolve) => setTimeout(resolve, 3));
    const until = Date.now() + 25; // the loop's ticks queue up behind this
    while (Date.now() < until) { /* busy */ }
    sw.stop();
    sw.clear();
    const now = sw.timeMs;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (last !== now) stale++;
    sub.unsubscribe();
    sw.close();
  }
  assert.equal(stale, 0, 'the last value heard is the current one');
  loop.close();
});

test('closing a loop closes its objects: closed() says so, and an iteration waiting for a change ends', async () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const page = new catalog.CounterPageViewModel(loop);
  const child = page.firstCounter;
  const seen = [];
  const iterating = (async () => {
    for await (const [value] of counter.changes('count')) seen.push(value);
    return 'ended';
  })();
  const idle = mvvm.changes(child, 'count'); // not waiting: its next call ends
  counter.increment();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(seen, [1]);
  loop.close();
  assert.equal(mvvm.closed(counter), true);
  assert.equal(mvvm.closed(child), true, 'a child too');
  const outcome = await Promise.race([iterating, new Promise((resolve) => setImmediate(() => resolve('still waiting')))]);
  assert.equal(outcome, 'ended');
  assert.deepEqual(await idle.next(), { value: undefined, done: true });
  assert.throws(() => counter.increment(), mvvm.LoopReleasedError);
  assert.throws(() => counter.subscribe('count', () => {}), mvvm.LoopReleasedError);
  assert.equal(mvvm.close(counter), false, 'closed already, with its loop');
});

test('a subscription does not keep its object alive: an object whose callback does not refer to it is collected', async () => {
  const loop = new catalog.Loop('virtual');
  const lib = catalog;
  const objects = [];
  const handles = [];
  const subscriptions = []; // kept: a Subscription does not keep its object either
  let heard = 0;
  (() => {
    for (let i = 0; i < 2000; i++) {
      const counter = new catalog.Counter(loop);
      subscriptions.push(counter.subscribe('count', () => { heard++; }));
      if (i % 2) subscriptions.push(counter.subscribe(null, () => {}));
      counter.increment();
      objects.push(new WeakRef(counter));
      handles.push(mvvm.handle(counter));
    }
  })();
  assert.equal(heard, 2000);
  // A callback that refers to its object keeps it, as any closure keeps what it refers to.
  const referring = [];
  (() => {
    for (let i = 0; i < 20; i++) {
      const counter = new catalog.Counter(loop);
      counter.subscribe('count', () => counter.count);
      referring.push(new WeakRef(counter));
    }
  })();
  const kept = new catalog.Counter(loop);
  const keptHeard = [];
  kept.subscribe('count', (value) => keptHeard.push(value));
  await collect();
  assert.equal(objects.filter((ref) => ref.deref()).length, 0, 'collected');
  assert.equal(handles.filter((handle) => liveHandle(lib, handle)).length, 0, 'released by their finalizers');
  assert.equal(subscriptions.filter((sub) => sub.active).length, 0, 'their subscriptions ended with them');
  assert.equal(referring.filter((ref) => ref.deref()).length, 20, 'kept by their callbacks');
  kept.increment();
  assert.deepEqual(keptHeard, [1], 'a live object is heard as ever');
  loop.close();
});

test('an iteration over changes keeps its object alive until it ends', async () => {
  const loop = new catalog.Loop('virtual');
  let ref;
  const ticks = () => {
    const stopWatch = new catalog.StopWatch(loop);
    ref = new WeakRef(stopWatch);
    stopWatch.start();
    return mvvm.changes(stopWatch, 'timeMs');
  };
  const seen = [];
  const iterating = (async () => {
    for await (const [value] of ticks()) {
      seen.push(value);
      if (seen.length === 2) break;
    }
  })();
  await collect();
  assert.ok(ref.deref(), 'kept while it waits');
  loop.advance(100);
  await iterating;
  assert.equal(seen.length, 2);
  loop.close();
});

test("the raw addon: unwatch twice is a TypeError, never a read of freed memory (valgrind)", async () => {
  const { execFileSync, spawnSync } = require('node:child_process');
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  // Any pollable fd will do: a FIFO's read end.
  const script = `
    const fs = require('node:fs');
    const mvvm = require(${JSON.stringify(require.resolve('..'))});
    const fd = fs.openSync(process.argv[1], fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const watch = mvvm.addon.watch(fd, () => {}, false);
    mvvm.addon.unwatch(watch);
    // Two turns of the event loop: libuv has freed the watch by then.
    setImmediate(() => setImmediate(() => {
      const errors = [];
      for (const call of [() => mvvm.addon.unwatch(watch), () => mvvm.addon.watchRef(watch, true), () => mvvm.addon.unwatch({})]) {
        try { call(); errors.push('none'); } catch (error) { errors.push(error.constructor.name + ': ' + error.message); }
      }
      fs.closeSync(fd);
      console.log(JSON.stringify(errors));
    }));`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mvvm-unwatch-'));
  try {
    const fifo = path.join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const expected = ['TypeError: this watch has ended (unwatch was called)',
      'TypeError: this watch has ended (unwatch was called)', 'TypeError: not a watch made by watch()'];
    const plain = spawnSync(process.execPath, ['-e', script, fifo], { encoding: 'utf8' });
    assert.equal(plain.status, 0, plain.stderr);
    assert.deepEqual(JSON.parse(plain.stdout), expected);
    const valgrind = spawnSync('valgrind', ['-q', '--error-exitcode=99', process.execPath, '-e', script, fifo], { encoding: 'utf8' });
    if (valgrind.error && valgrind.error.code === 'ENOENT') return; // make deps installs it; the check above still ran
    assert.equal(valgrind.status, 0, `valgrind: ${valgrind.stderr}`);
    assert.deepEqual(JSON.parse(valgrind.stdout), expected);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

test('an async call keeps its object alive until it settles', async () => {
  const sample = process.env.MVVM_SAMPLE_LIBRARY;
  if (!sample) return;
  const lib = mvvm.load(sample);
  const loop = new lib.Loop('virtual');
  let ref;
  const loading = (() => {
    const profile = new lib.Profile(loop);
    ref = new WeakRef(profile);
    return profile.load(2);
  })();
  await collect();
  assert.ok(ref.deref(), 'kept while its call runs');
  loop.advance(2000);
  assert.equal((await loading).length, 2, 'settled with its result, not cancelled by a collection');
  loop.close();
});
