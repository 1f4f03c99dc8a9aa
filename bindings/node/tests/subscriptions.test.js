'use strict';
// Subscriptions: an object's subscribers ride on one subscription of the library per member, so
// that the work of subscribing, unsubscribing and of a change does not grow with the subscribers an
// object has (counted here through the addon, never timed), and the library's rules hold among
// them: the order they subscribed, a subscriber made during a delivery hears the next change, one
// ended hears no more, a newer value ends the older one's delivery.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

// The catalog's library (examples/catalog, `make catalog`), loaded by its path as any library is.
const catalog = mvvm.load(process.env.MVVM_CATALOG_LIBRARY);

// Counts what the module asks of the library through the addon: subscriptions made and ended,
// and the changes the library delivers to them.
function countLibraryWork() {
  const { subscribe, unsubscribe } = mvvm.addon;
  const work = { subscribed: 0, unsubscribed: 0, delivered: 0 };
  mvvm.addon.subscribe = (id, handle, name, listener) => {
    work.subscribed++;
    return subscribe(id, handle, name, (...args) => {
      work.delivered++;
      return listener(...args);
    });
  };
  mvvm.addon.unsubscribe = (id, handle) => {
    work.unsubscribed++;
    return unsubscribe(id, handle);
  };
  const restore = () => { mvvm.addon.subscribe = subscribe; mvvm.addon.unsubscribe = unsubscribe; };
  const since = (before) => Object.fromEntries(Object.keys(before).map((key) => [key, work[key] - before[key]]));
  return { work, restore, since, now: () => ({ ...work }) };
}

test('the library does the same work for an object of 1 or 4,000 subscribers: one subscription per member', () => {
  const loop = new catalog.Loop('virtual');
  const counter = countLibraryWork();
  const measured = {};
  try {
    for (const crowd of [1, 4000]) {
      const form = new catalog.SignUpViewModel(loop);
      let crowdHeard = 0;
      const passwords = [];
      let before = counter.now();
      const subscriptions = [];
      for (let i = 0; i < crowd; i++) subscriptions.push(form.subscribe('userId', () => { crowdHeard++; }));
      form.subscribe('password', (value) => passwords.push(value));
      const subscribing = counter.since(before);
      before = counter.now();
      form.subscribe('userId', () => {}).unsubscribe(); // one more, and its end
      const oneMore = counter.since(before);
      before = counter.now();
      form.password = 'secret'; // heard by one
      const quietChange = counter.since(before);
      before = counter.now();
      form.userId = 'ada'; // heard by the crowd
      const crowdedChange = counter.since(before);
      before = counter.now();
      for (const subscription of subscriptions) subscription.unsubscribe();
      const ending = counter.since(before);
      assert.equal(crowdHeard, crowd);
      assert.deepEqual(passwords, ['secret']);
      measured[crowd] = { subscribing, oneMore, quietChange, crowdedChange, ending };
      form.close();
    }
  } finally {
    counter.restore();
    loop.close();
  }
  assert.deepEqual(measured[4000], measured[1]);
  assert.deepEqual(measured[1], {
    subscribing: { subscribed: 2, unsubscribed: 0, delivered: 0 }, // one per member
    oneMore: { subscribed: 0, unsubscribed: 0, delivered: 0 },
    quietChange: { subscribed: 0, unsubscribed: 0, delivered: 1 },
    crowdedChange: { subscribed: 0, unsubscribed: 0, delivered: 1 },
    ending: { subscribed: 0, unsubscribed: 1, delivered: 0 }, // with the member's last subscriber
  });
});

test('subscribers to every member: one library subscription per member, however many they are', () => {
  const loop = new catalog.Loop('virtual');
  const counter = countLibraryWork();
  try {
    const form = new catalog.SignUpViewModel(loop);
    const members = mvvm.describe(form).properties.length + mvvm.describe(form).signals.length;
    const heard = [];
    const subscriptions = [];
    for (let i = 0; i < 4000; i++) subscriptions.push(form.subscribe(null, (value, event) => { if (i === 0) heard.push(event.name); }));
    assert.equal(counter.work.subscribed, members);
    form.subscribe('userId', () => {}); // its member has one already
    assert.equal(counter.work.subscribed, members);
    form.userId = 'ada';
    assert.ok(heard.includes('userId'));
    const delivered = counter.work.delivered;
    assert.ok(delivered >= 1 && delivered <= members, `${delivered} deliveries for one operation`);
    for (const subscription of subscriptions) subscription.unsubscribe();
    assert.equal(counter.work.unsubscribed, members - 1, "all but user_id's, which its own subscriber keeps");
    form.close();
  } finally {
    counter.restore();
    loop.close();
  }
});

test('subscribers are called in the order they subscribed, whether to one member or to every one', () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const calls = [];
  counter.subscribe(null, () => calls.push('every 1'));
  counter.subscribe('count', () => calls.push('count 2'));
  counter.subscribe(null, () => calls.push('every 3'));
  const fourth = counter.subscribe('count', () => calls.push('count 4'));
  counter.subscribe(null, () => calls.push('every 5'));
  counter.increment();
  assert.deepEqual(calls, ['every 1', 'count 2', 'every 3', 'count 4', 'every 5']);
  calls.length = 0;
  fourth.unsubscribe();
  counter.subscribe('count', () => calls.push('count 6'));
  counter.increment();
  assert.deepEqual(calls, ['every 1', 'count 2', 'every 3', 'every 5', 'count 6']);
  loop.close();
});

test('during a delivery: a new subscriber hears the next change, an ended one no more, a newer value stops the older', () => {
  const loop = new catalog.Loop('virtual');
  const echo = new catalog.InputEchoViewModel(loop);
  const calls = [];
  let late = null;
  let second = null;
  echo.subscribe('input', (value) => {
    calls.push(`first ${value}`);
    if (value === 'a') {
      late = echo.subscribe('input', (v) => calls.push(`late ${v}`));
      second.unsubscribe();
    }
  });
  second = echo.subscribe('input', (value) => calls.push(`second ${value}`));
  echo.input = 'a';
  assert.deepEqual(calls, ['first a'], 'the late one does not hear the change it was made in; the ended one is not called');
  echo.input = 'b';
  assert.deepEqual(calls, ['first a', 'first b', 'late b']);
  late.unsubscribe();
  // A callback that sets a newer value: every subscriber hears it, and none the older after it.
  calls.length = 0;
  echo.subscribe('input', (value) => {
    calls.push(`setter ${value}`);
    if (value === 'c') echo.input = 'd';
  });
  echo.subscribe(null, (value, event) => { if (event.name === 'input') calls.push(`every ${value}`); });
  echo.input = 'c';
  assert.deepEqual(calls, ['first c', 'setter c', 'first d', 'setter d', 'every d']);
  loop.close();
});

test('a list: its subscribers share one subscription and each gets the splices with their items', () => {
  const sample = process.env.MVVM_SAMPLE_LIBRARY;
  if (!sample) return;
  const lib = mvvm.load(sample);
  const loop = new lib.Loop('virtual');
  const list = new lib.Playlist(loop);
  const copies = [[], [], []];
  copies.forEach((copy) => list.songs.subscribe((splice) => copy.splice(splice.index, splice.removed, ...splice.items.map((s) => s.title))));
  list.add('b');
  list.add('a');
  list.sortByTitle();
  for (const copy of copies) assert.deepEqual(copy, ['a', 'b']);
  loop.close();
});

test('a thread loop: its changes reach every subscriber, in order, on the JavaScript thread', async () => {
  const loop = new catalog.Loop('thread');
  const stopWatch = new catalog.StopWatch(loop);
  const heard = [[], [], []];
  const subscriptions = heard.map((values) => stopWatch.subscribe('timeMs', (value) => values.push(value)));
  stopWatch.start();
  while (heard[2].length < 3) await new Promise((resolve) => setImmediate(resolve));
  stopWatch.stop();
  for (const subscription of subscriptions) subscription.unsubscribe();
  const [first, ...others] = heard;
  for (const values of others) assert.deepEqual(values, first.slice(0, values.length));
  for (let i = 1; i < first.length; i++) assert.ok(first[i] > first[i - 1], 'in order');
  loop.close();
});

test('a thread loop: a subscriber made while a change waits to be delivered does not hear that change', async () => {
  const loop = new catalog.Loop('thread');
  const stopWatch = new catalog.StopWatch(loop);
  const early = [];
  stopWatch.subscribe('timeMs', (value) => early.push(value));
  stopWatch.start();
  let waited = false;
  let late = [];
  let before = 0;
  // Until a tick made before the late subscriber subscribed was waiting in the queue then.
  for (let trial = 0; trial < 100 && !waited; trial++) {
    const until = Date.now() + 30; // the loop's ticks queue up behind this busy JavaScript thread
    while (Date.now() < until) { /* busy */ }
    before = stopWatch.timeMs; // a read: no callback, so the queue stays as it is
    const heard = early.length;
    late = [];
    const subscription = stopWatch.subscribe('timeMs', (value) => late.push(value));
    await new Promise((resolve) => setImmediate(resolve)); // the queue is delivered
    subscription.unsubscribe();
    waited = early.slice(heard).some((value) => value <= before);
  }
  stopWatch.stop();
  loop.close();
  assert.ok(waited, 'a tick made before the subscription waited in the queue');
  assert.deepEqual(late.filter((value) => value <= before), [], 'the late subscriber heard none of them');
});
