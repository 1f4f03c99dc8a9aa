'use strict';
// A user's package (Tests/outside's libsample.so, MVVM_SAMPLE_LIBRARY) loaded with mvvm.load:
// every value kind, records, commands by position and by name, throwing and async commands,
// lists of view models with splices, members named as the binding's own API.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

// The catalog's library (examples/catalog, `make catalog`), loaded by its path as any library is.
const catalog = mvvm.load(process.env.MVVM_CATALOG_LIBRARY);

const samplePath = process.env.MVVM_SAMPLE_LIBRARY;
const skip = samplePath ? false : 'MVVM_SAMPLE_LIBRARY is not set (make sample)';
const lib = samplePath ? mvvm.load(samplePath) : null;

test('load: a library of its own; the same path gives the same library', { skip }, () => {
  assert.equal(mvvm.load(samplePath), lib);
  assert.notEqual(lib, catalog);
  assert.equal(typeof lib.Profile, 'function');
  assert.equal(lib.Meter, undefined);
  assert.equal(typeof lib.Odometer, 'function', 'a class is its display name');
  const catalogLoop = new catalog.Loop('virtual');
  assert.throws(() => new lib.Greeter(catalogLoop), TypeError, "another library's loop");
  catalogLoop.close();
});

test('values: optionals, arrays, records (frozen), bytes', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const p = new lib.Profile(loop);
  assert.equal(p.limit, null);
  p.limit = 5;
  assert.equal(p.limit, 5);
  p.limit = null;
  assert.equal(p.limit, null);
  p.tags = ['a', 'b', 'ç'];
  assert.deepEqual([...p.tags], ['a', 'b', 'ç']);
  assert.ok(Object.isFrozen(p.tags));
  p.scores = [1, 2.5];
  assert.deepEqual([...p.scores], [1, 2.5]);
  assert.throws(() => { p.scores = [1, 'x']; }, TypeError);
  p.address = { street: '1 Main St', city: 'Springfield' };
  const address = p.address;
  assert.ok(address instanceof lib.Address);
  assert.ok(Object.isFrozen(address));
  assert.equal(address.city, 'Springfield');
  assert.equal(address.zipCode, null);
  assert.throws(() => { address.city = 'x'; }, TypeError);
  p.address = new lib.Address({ street: 'a', city: 'b', zipCode: '12345' });
  assert.equal(p.address.zipCode, '12345');
  assert.throws(() => { p.address = { street: 'a' }; }, mvvm.InvalidArgumentError);
  assert.throws(() => { p.address = { street: 'a', city: 'b', planet: 'x' }; }, mvvm.MvvmError);
  p.avatar = new Uint8Array([0, 1, 2, 255]);
  assert.ok(p.avatar instanceof Uint8Array);
  assert.deepEqual([...p.avatar], [0, 1, 2, 255]);
  assert.throws(() => { p.avatar = [1, 2]; }, TypeError);
  p.first = 'Ada';
  p.last = 'Lovelace';
  assert.equal(p.fullName, 'Ada Lovelace');
  p.first = 'with\u0000nul';
  assert.equal(p.first, 'with\u0000nul', 'a string holding NUL crosses whole');
  loop.close();
});

test('commands: positional or an options object; results; a throwing command', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const p = new lib.Profile(loop);
  const contact = p.contact('Ada', '1 Main', 'London');
  assert.equal(contact.constructor.name, 'Contact');
  assert.deepEqual(p.contact({ city: 'Paris', name: 'Bo', street: 'x' }), p.contact('Bo', 'x', 'Paris'));
  assert.throws(() => p.contact({ town: 'x' }), TypeError);
  assert.throws(() => p.save(), (e) => e instanceof mvvm.CommandError && e.status === 12 && /no address/.test(e.message));
  p.address = { street: 's', city: 'c' };
  const saved = [];
  p.subscribe('saved', (record) => saved.push(record));
  const result = p.save();
  assert.equal(result.constructor.name, 'Contact');
  assert.equal(saved.length, 1);
  assert.ok(Object.isFrozen(saved[0]));
  p.tags = ['a', 'b'];
  p.moveTag({ from: 0, to: 1 });
  assert.deepEqual([...p.tags], ['b', 'a']);
  assert.throws(() => p.moveTag(0, 9), mvvm.CommandError);
  const agenda = new lib.Agenda(loop);
  assert.equal(agenda.add({ name: 'Ann', isCompleted: false }), 1);
  assert.equal(agenda.add({ speaker: { name: 'Bob', isCompleted: true, email: 'b@x' } }), 2);
  assert.equal(agenda.next().name, 'Ann');
  const w = new lib.Wishlist(loop);
  w.add('pen', 2.5);
  w.add({ item: 'cup' });
  assert.deepEqual([...w.prices], [2.5, null]);
  assert.equal(w.item(1), 'cup');
  assert.throws(() => w.item(7), mvvm.CommandError);
  loop.close();
});

test('integers: Int a number (RangeError beyond 2^53, naming the member), UInt64 a bigint', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const tally = new lib.Tally(loop, 5);
  assert.equal(tally.total, 5);
  tally.step = 3;
  tally.add();
  assert.equal(tally.total, 8);
  assert.throws(() => { tally.step = 2 ** 53; }, (e) => e instanceof RangeError && /Tally\.step/.test(e.message));
  tally.step = 2n ** 52n;
  tally.addMany(2); // the view model's own value beyond 2^53: read, it is refused
  assert.throws(() => tally.total, (e) => e instanceof RangeError && /Tally\.total/.test(e.message));
  assert.throws(() => { tally.step = 2n ** 64n; }, RangeError);
  const meter = new lib.Odometer(loop);
  assert.equal(meter.reading, 2n ** 63n);
  assert.equal(meter.ahead(2n ** 63n + 5n), 5n, 'wraps as an odometer does');
  meter.reading = 18446744073709551615n;
  assert.equal(meter.reading, 18446744073709551615n);
  meter.reading = 7;
  assert.equal(meter.reading, 7n);
  assert.throws(() => { meter.reading = -1n; }, RangeError);
  const wound = new lib.Odometer(loop, { reading: 3n });
  assert.equal(wound.reading, 3n);
  loop.close();
});

test('async commands: Promises, failures, AbortSignal', { skip }, async () => {
  const loop = new lib.Loop('virtual');
  const p = new lib.Profile(loop);
  assert.equal(await p.ping(), 0);
  const loading = p.load(2);
  loop.advance(1000);
  loop.advance(1000);
  const tags = await loading;
  assert.equal(tags.length, 2);
  await assert.rejects(p.load(-1), (e) => e instanceof mvvm.CommandError && /cannot load -1/.test(e.message));
  const controller = new AbortController();
  const cancelled = p.load({ count: 3, signal: controller.signal });
  controller.abort();
  await assert.rejects(cancelled, (e) => e instanceof mvvm.CancelledError && e.status === 13);
  const late = p.load(1, { signal: AbortSignal.abort() });
  await assert.rejects(late, mvvm.CancelledError);
  const released = p.load(5);
  loop.close();
  await assert.rejects(released, mvvm.MvvmError);
});

test('an Int given beyond ±2^53 is refused before the library, a bigint as a number; one the view model makes is never rounded', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const tally = new lib.Tally(loop, 5);
  const heard = [];
  tally.subscribe(null, (value, event) => heard.push([event.name, value]));
  const refusal = (e) => e instanceof RangeError && e.status === 4 && e.statusName === 'MVVM_ERR_INVALID_ARGUMENT' &&
    /Tally\.step/.test(e.message);
  for (const value of [2n ** 60n, -(2n ** 60n), 2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, 2 ** 60]) {
    assert.throws(() => { tally.step = value; }, refusal, String(value));
  }
  assert.throws(() => tally.addMany(2n ** 60n), (e) => e instanceof RangeError && e.status === 4, 'a command argument too');
  assert.equal(tally.step, 1, 'nothing reached the library');
  assert.deepEqual(heard, []);
  tally.step = 2n ** 53n - 1n; // a bigint a number holds exactly is taken, and read as that number
  assert.equal(tally.step, 2 ** 53 - 1);
  assert.deepEqual(heard, [['step', 2 ** 53 - 1]]);
  // The view model's own value beyond 2^53: the getter and a snapshot refuse it, naming the member;
  // a subscriber is not called with a rounded value, the refusal goes to mvvm.reportError.
  const reported = [];
  const saved = mvvm.reportError;
  mvvm.reportError = (error) => reported.push(error);
  try {
    tally.addMany(3);
  } finally {
    mvvm.reportError = saved;
  }
  assert.throws(() => tally.total, (e) => e instanceof RangeError && /Tally\.total/.test(e.message));
  assert.throws(() => mvvm.snapshot(tally), (e) => e instanceof RangeError && /Tally\.total/.test(e.message));
  assert.equal(reported.length, 1);
  assert.ok(reported[0] instanceof RangeError && /Tally\.total/.test(reported[0].message), String(reported[0]));
  assert.ok(!heard.some(([name]) => name === 'total'), 'never heard rounded');
  // A UInt64 in a snapshot is its exact bigint, as its getter gives it.
  const meter = new lib.Odometer(loop);
  assert.deepEqual(mvvm.snapshot(meter), { reading: 2n ** 63n });
  meter.reading = 2n ** 64n - 1n;
  assert.deepEqual(mvvm.snapshot(meter), { reading: 2n ** 64n - 1n });
  loop.close();
});

test('a snapshot gives each value as its getter does, from one reading', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop);
  order.cost = '123456789012345678901234567890.125';
  order.placed = new Date(Date.UTC(2030, 0, 1));
  const snapshot = mvvm.snapshot(order);
  assert.equal(snapshot.cost, '123456789012345678901234567890.125');
  assert.ok(snapshot.placed instanceof Date && snapshot.placed.getTime() === Date.UTC(2030, 0, 1));
  const p = new lib.Profile(loop);
  p.avatar = new Uint8Array([0, 255]);
  p.address = { street: 'a "quoted" \\ street', city: 'b' };
  p.tags = ['x', 'ç'];
  const profile = mvvm.snapshot(p);
  assert.deepEqual([...profile.avatar], [0, 255]);
  assert.ok(profile.avatar instanceof Uint8Array);
  assert.ok(profile.address instanceof lib.Address);
  assert.deepEqual({ ...profile.address }, { street: 'a "quoted" \\ street', city: 'b', zipCode: null });
  assert.deepEqual(profile.tags, ['x', 'ç']);
  const list = new lib.Playlist(loop);
  list.add('a');
  assert.deepEqual(mvvm.snapshot(list).songs, [mvvm.objectId(list.songs[0])], "a list as its items' ids");
  loop.close();
});

test('an async command refuses a signal that is no AbortSignal before it starts: it rejects, runs nothing, throws nothing later', { skip }, async () => {
  const loop = new lib.Loop('virtual');
  const p = new lib.Profile(loop);
  const uncaught = [];
  const onUncaught = (error) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  try {
    const fakes = [{ aborted: false }, { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} },
      Object.create(AbortSignal.prototype), null, 'abort'];
    for (const signal of fakes) {
      for (const call of [() => p.load(1, { signal }), () => p.load({ count: 1, signal })]) {
        let promise;
        assert.doesNotThrow(() => { promise = call(); }, 'a Promise-returning method rejects, never throws');
        await assert.rejects(promise, (e) => e instanceof TypeError && e.status === 4 && /signal must be an AbortSignal/.test(e.message));
      }
    }
    // Its other refusals reject too: a wrong argument, a closed object.
    await assert.rejects(p.load('three'), TypeError);
    await assert.rejects(p.load(1, 2, 3), TypeError);
    loop.advance(10000); // a load that had started would have added its tags by now
    assert.deepEqual([...p.tags], [], 'no load ran');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(uncaught, []);
    // A real one still cancels.
    const controller = new AbortController();
    const loading = p.load(2, { signal: controller.signal });
    controller.abort();
    await assert.rejects(loading, mvvm.CancelledError);
    p.close();
    await assert.rejects(p.load(1), mvvm.ClosedError);
  } finally {
    process.off('uncaughtException', onUncaught);
    loop.close();
  }
});

test('record fields named as an object\'s own members are fields like any other: taken when the record has them, else refused', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const d = new lib.Dialog(loop);
  const shape = d.reshape({ constructor: 'triangle', sides: 3 });
  assert.ok(shape instanceof lib.Shape);
  assert.equal(shape.constructor, 'triangle');
  assert.equal(shape.sides, 4);
  assert.equal(d.reshape(shape).sides, 5, 'a record given back as it came');
  assert.equal(d.reshape(new lib.Shape({ constructor: 'square', sides: 4 })).constructor, 'square');
  assert.throws(() => d.reshape({ sides: 3 }), mvvm.InvalidArgumentError, 'an inherited constructor is no field');
  assert.deepEqual(d.log.slice(-3), ['reshape triangle', 'reshape triangle', 'reshape square']);
  const p = new lib.Profile(loop);
  const extras = [['constructor', { constructor: 'x' }], ['toString', { toString: 'x' }],
    ['__proto__', JSON.parse('{"__proto__": "x"}')], ['__proto__', JSON.parse('{"__proto__": {"city": "elsewhere"}}')],
    ['valueOf', { valueOf: 1 }], ['hasOwnProperty', { hasOwnProperty: true }]];
  for (const [name, extra] of extras) {
    assert.throws(() => { p.address = { street: 'a', city: 'b', ...extra }; },
      (e) => e instanceof mvvm.InvalidArgumentError && e.message.includes(name), name);
  }
  assert.equal(p.address, null, 'nothing was set');
  loop.close();
});

test('a string holding a lone surrogate is refused (InvalidArgumentError), never sent as U+FFFD', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const p = new lib.Profile(loop);
  const refusal = (where) => (e) => e instanceof mvvm.InvalidArgumentError && e.status === 4 &&
    e.message.includes(where) && /lone surrogate/.test(e.message);
  for (const text of ['\ud800', 'a\udc00b', 'x\ud83d', '\udfff\ud800']) {
    assert.throws(() => { p.first = text; }, refusal('Profile.first'), JSON.stringify(text));
  }
  assert.throws(() => { p.tags = ['ok', 'no\ud800']; }, refusal('Profile.tags[1]'));
  assert.throws(() => { p.address = { street: '\udc00', city: 'b' }; }, refusal('Profile.address.street'));
  assert.throws(() => p.contact('\ud800', 's', 'c'), refusal('Profile.contact: argument name'));
  assert.equal(p.first, '');
  assert.deepEqual([...p.tags], []);
  p.first = '\ud83d\ude00 \ufffd';
  assert.equal(p.first, '\ud83d\ude00 \ufffd', 'a pair and a U+FFFD of its own cross whole');
  // Where the module knows no type, the addon refuses it: a name, a field's name, a raw value.
  const h = mvvm.handle(p);
  assert.throws(() => mvvm.addon.set(lib.id, h, 'first', 'a\ud800'), refusal('lone surrogate'));
  assert.throws(() => mvvm.addon.get(lib.id, h, 'fir\udc00st'), refusal('a property name'));
  assert.throws(() => { p.address = { street: 'a', city: 'b', ['zip\ud800']: 'x' }; }, refusal('lone surrogate'));
  assert.equal(p.first, '\ud83d\ude00 \ufffd');
  loop.close();
});

test('async commands waiting for a host service', { skip }, async () => {
  const loop = new lib.Loop('virtual');
  const answers = [];
  const finder = new lib.Finder(loop, (query) => new Promise((resolve) => answers.push(() => resolve(`found ${query}`))));
  finder.query = 'cats';
  const finding = finder.find();
  assert.equal(finder.isFinding, true);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(answers.length, 1);
  answers[0]();
  assert.equal(await finding, 'found cats');
  assert.equal(finder.found, 'found cats');
  const controller = new AbortController();
  const again = finder.find({ signal: controller.signal });
  controller.abort();
  await assert.rejects(again, mvvm.CancelledError);
  loop.close();
});

test('lists: read-only array-likes; splices with their items', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const list = new lib.Playlist(loop);
  const splices = [];
  list.subscribe('songs', (splice) => splices.push(splice));
  list.add('b');
  list.add('a');
  list.add('c');
  const songs = list.songs;
  assert.equal(songs.length, 3);
  assert.deepEqual(songs.map((s) => s.title), ['b', 'a', 'c']);
  assert.equal(songs[1].title, 'a');
  assert.equal(songs[5], undefined);
  assert.equal(songs.at(-1).title, 'c');
  assert.equal(songs[0], songs[0], 'one object per item');
  assert.throws(() => { songs[0] = null; }, TypeError);
  assert.throws(() => { list.songs = []; }, TypeError);
  assert.equal(splices.length, 3);
  assert.ok(splices[0] instanceof mvvm.Splice);
  assert.deepEqual({ ...splices[2], items: splices[2].items.map((s) => s.title) },
    { index: 2, removed: 0, inserted: 1, items: ['c'] });
  // Applying the splices in order to a copy gives the new list.
  const copy = songs.map((s) => s.title);
  splices.length = 0;
  list.sortByTitle();
  for (const s of splices) copy.splice(s.index, s.removed, ...s.items.map((i) => i.title));
  assert.deepEqual(copy, ['a', 'b', 'c']);
  assert.deepEqual(list.songs.map((s) => s.title), ['a', 'b', 'c']);
  list.songs[0].title = 'z';
  assert.equal(list.all.toArray().find((s) => s.title === 'z').title, 'z');
  const board = new lib.Board(loop);
  board.add(3);
  assert.equal(board.tallies[0].total, 3);
  loop.close();
});

test('members named as the binding API win; the module functions stay', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const d = new lib.Dialog(loop);
  d.close();
  d.subscribe();
  d.describe();
  d.send('hi');
  assert.equal(d.closed, true, 'close() was the command');
  assert.ok(d.log.length >= 4);
  d.class = 'modal';
  assert.equal(d.class, 'modal');
  d.loop = 'again';
  assert.equal(d.loop, 'again');
  assert.equal(typeof d.id, 'number');
  const events = [];
  mvvm.subscribe(d, 'description', (v) => events.push(v));
  d.description = 'x';
  assert.deepEqual(events, ['x']);
  assert.equal(mvvm.describe(d).class, 'dialog');
  assert.equal(mvvm.snapshot(d).description, 'x');
  assert.equal(mvvm.close(d), true);
  assert.throws(() => d.description, mvvm.ClosedError);
  loop.close();
});

test("Foundation's values: a Date a Date; a UUID, URL or Decimal its text, checked by the library", { skip }, async () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop, 'c0ffee00-0000-4000-8000-00000000beef');
  assert.equal(order.id, 'C0FFEE00-0000-4000-8000-00000000BEEF', 'a UUID is handed out in upper case');
  assert.ok(order.placed instanceof Date);
  assert.equal(order.placed.getTime(), 0);
  const before1970 = new Date(Date.UTC(1969, 6, 20, 20, 17, 40));
  order.placed = before1970;
  assert.equal(order.placed.getTime(), before1970.getTime());
  order.placed = 86400;                                   // seconds since 1970 are taken too
  assert.equal(order.placed.toISOString(), '1970-01-02T00:00:00.000Z');
  assert.throws(() => { order.placed = new Date(NaN); }, RangeError);
  assert.throws(() => { order.placed = '1970-01-02'; }, TypeError);
  order.cost = '12345678901234567890.123456789012345678';
  assert.equal(order.cost, '12345678901234567890.123456789012345678', 'never rounded');
  order.cost = 7n;
  assert.equal(order.cost, '7');
  assert.throws(() => { order.cost = 0.1; }, TypeError, 'a binary fraction is no decimal');
  assert.throws(() => { order.cost = '1.2.3'; }, mvvm.InvalidArgumentError);
  order.link = 'https://example.com/é';
  assert.equal(order.link, 'https://example.com/%C3%A9', "a URL's absoluteString");
  assert.throws(() => { order.id = 'nope'; }, /order\.id cannot hold "nope": it is no UUID/);
  assert.equal(order.due, null);
  const due = new Date(Date.UTC(2030, 0, 1));
  assert.equal(await order.postpone(due), null);
  assert.equal(order.due.getTime(), due.getTime());
  const line = order.makeLine({ id: order.id, at: due, link: 'ftp://x/y', price: '-1.5e-3' });
  assert.ok(line.at instanceof Date && line.at.getTime() === due.getTime(), 'a record field');
  assert.equal(line.price, '-0.0015');
  loop.close();
});
