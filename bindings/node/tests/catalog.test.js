'use strict';
// The catalog's five designs from JavaScript (libcatalog.so: MVVM_LIBRARY), on virtual, manual and
// thread loops.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

// The catalog's library (examples/catalog, `make catalog`), loaded by its path as any library is.
const catalog = mvvm.load(process.env.MVVM_CATALOG_LIBRARY);

function virtual() { return new catalog.Loop('virtual'); }

test('timer: a countdown ticks on the loop clock, alerts and resets', () => {
  const loop = virtual();
  const timer = new catalog.CountDownTimer(loop, 3);
  const vm = new catalog.TimerViewModel(loop, timer);
  assert.equal(vm.timer, timer);
  assert.equal(vm.display.remainingTime, 3);
  assert.equal(vm.display, vm.display, 'a child is one object');
  const seen = [];
  timer.subscribe('remainingTime', (value) => seen.push(value));
  vm.player.tapped('start');
  loop.advance(0);
  assert.equal(timer.isDoing, true);
  assert.equal(vm.player.isPlayTimer, true);
  loop.advance(2000);
  assert.equal(vm.display.remainingTime, 1);
  assert.equal(vm.player.isStopEnabled, true);
  loop.advance(1000);
  assert.deepEqual(seen, [2, 1, 3]);
  assert.equal(vm.isShowAlert, true);
  assert.equal(timer.count, 0);
  vm.isShowAlert = false;
  assert.equal(vm.isShowAlert, false);
  loop.close();
});

test('timer: the tap throttle drops a tap within the second', () => {
  const loop = virtual();
  const timer = new catalog.CountDownTimer(loop, 10);
  const vm = new catalog.TimerViewModel(loop, timer);
  vm.player.tapped('start');
  loop.advance(0);
  vm.player.tapped('pause');
  loop.advance(0);
  assert.equal(timer.isDoing, true, 'a tap within a second of the last waits');
  loop.advance(1000);
  assert.equal(timer.isDoing, false);
  loop.close();
});

test('stopwatch: start, stop, resume, clear, formatted time', () => {
  const loop = virtual();
  const sw = new catalog.StopWatchViewModel(loop);
  assert.equal(sw.time, '00:00:00.00');
  assert.equal(sw.mainActionTitle, 'Start');
  assert.equal(sw.clearActionEnabled, false);
  sw.mainAction();
  loop.advance(61_230);
  assert.equal(sw.time, '00:01:01.23');
  assert.equal(sw.mainActionTitle, 'Stop');
  sw.mainAction();
  assert.equal(sw.mainActionTitle, 'Resume');
  assert.equal(sw.clearActionEnabled, true);
  sw.clearAction();
  assert.equal(sw.time, '00:00:00.00');
  const model = new catalog.StopWatch(loop);
  model.start();
  loop.advance(50);
  assert.equal(model.timeMs, 50);
  assert.equal(model.state, 'stoppable');
  loop.close();
});

test('input echo: a binding and its outputs, notified once per change', () => {
  const loop = virtual();
  const echo = new catalog.InputEchoViewModel(loop);
  const events = [];
  echo.subscribe(null, (value, event) => events.push([event.name, value]));
  echo.input = 'héllo ✓';
  assert.equal(echo.label, 'héllo ✓');
  assert.equal(echo.message, "Your input is 'héllo ✓'!");
  assert.deepEqual(events, [['input', 'héllo ✓'], ['label', 'héllo ✓'], ['message', "Your input is 'héllo ✓'!"]]);
  echo.input = 'héllo ✓';
  assert.equal(events.length, 3, 'no change, no notification');
  loop.close();
});

test('sign-up: enabled by the rules; the built-in service presents the alert', () => {
  const loop = virtual();
  const su = new catalog.SignUpViewModel(loop);
  assert.equal(su.isSignUpEnabled, false);
  su.signUpTapped();
  assert.equal(su.isCompletionAlertPresented, false);
  Object.assign(su, { userId: 'abcdef', password: 'password1', confirmPassword: 'password1', agreed: true });
  assert.equal(su.isSignUpEnabled, true);
  su.signUpTapped();
  assert.equal(su.isCompletionAlertPresented, true);
  loop.close();
});

test('sign-up: a host service answers, synchronously or by a Promise', async () => {
  const loop = virtual();
  const asked = [];
  let su = null;
  su = new catalog.SignUpViewModel(loop, (argument, request) => {
    asked.push(argument);
    assert.equal(request.viewModel, su, 'the request names the view model that asks');
    assert.equal(request.viewModel.password, 'password1', 'readable during the request');
    return Promise.resolve(true);
  });
  Object.assign(su, { userId: 'abcdef', password: 'password1', confirmPassword: 'password1', agreed: true });
  su.signUpTapped();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked.length, 1);
  assert.equal(su.isCompletionAlertPresented, true);
  const refused = new catalog.ObservableSignUpViewModel(loop, () => false);
  Object.assign(refused, { userId: 'abcdef', password: 'password1', confirmPassword: 'password1', agreed: true });
  refused.signUpTapped();
  assert.equal(refused.isCompletionAlertPresented, false);
  const welcome = new catalog.WelcomeViewModel(loop, (argument, request) => { request.cancel(); return 'never'; });
  const heard = [];
  welcome.on('onShowWelcome', (text) => heard.push(text));
  welcome.viewDidLoad();
  loop.advance(0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, [], 'a withdrawn request is never answered');
  const answered = new catalog.WelcomeViewModel(loop, () => 'Hi from the host');
  answered.on('onShowWelcome', (text) => heard.push(text));
  answered.viewDidLoad();
  loop.advance(0);
  assert.deepEqual(heard, ['Hi from the host']);
  loop.close();
});

test('welcome: signals, each delivered, with on/off', () => {
  const loop = virtual();
  const welcome = new catalog.WelcomeViewModel(loop);
  const got = [];
  const onText = (text) => got.push(['text', text]);
  welcome.on('onShowText', onText);
  welcome.on('onShowWelcome', (text) => got.push(['welcome', text]));
  welcome.on('onShowOnlyFirst', (payload) => got.push(['first', payload]));
  welcome.viewDidLoad();
  loop.advance(0);
  welcome.tapButton('hi');
  welcome.off('onShowText', onText);
  welcome.tapButton('again');
  assert.deepEqual(got, [['welcome', 'Welcome!'], ['text', 'hi show!!'], ['first', undefined]]);
  loop.close();
});

test('counters: a page with a counter and a seeded random counter', () => {
  const loop = virtual();
  const page = new catalog.CounterPageViewModel(loop, { seed: 7n });
  assert.match(page.readMe, /./);
  const first = page.firstCounter;
  assert.equal(first.label, 'Counter');
  first.increment();
  first.increment();
  first.decrement();
  assert.equal(first.count, '1');
  const second = page.secondCounter;
  assert.equal(second.label, 'Random Counter');
  const draws = [];
  for (let i = 0; i < 5; i++) { second.increment(); draws.push(Number(second.count)); }
  assert.ok(draws.every((n) => n >= 1 && n <= 10));
  const again = new catalog.CounterPageViewModel(loop, 7n).secondCounter;
  const repeated = [];
  for (let i = 0; i < 5; i++) { again.increment(); repeated.push(Number(again.count)); }
  assert.deepEqual(repeated, draws, 'a seed gives a repeatable sequence');
  const model = new catalog.Counter(loop);
  const vm = new catalog.CounterViewModel(loop, model);
  vm.increment();
  assert.equal(model.count, 1);
  assert.equal(vm.model, model);
  const random = new catalog.RandomCounter(loop, 18446744073709551615n);
  random.increment();
  assert.ok(random.count >= 1 && random.count <= 10);
  loop.close();
});

test('errors: each status an Error subclass with the library message', () => {
  const loop = virtual();
  const timer = new catalog.CountDownTimer(loop, 3);
  const vm = new catalog.TimerViewModel(loop, timer);
  assert.throws(() => { timer.count = 1; }, (e) => e instanceof mvvm.ReadOnlyError && e instanceof mvvm.MvvmError &&
    e instanceof Error && e.status === 6 && e.statusName === 'MVVM_ERR_READ_ONLY' && /read-only/.test(e.message));
  assert.throws(() => vm.player.tapped('jump'), (e) => e instanceof mvvm.InvalidArgumentError && /jump/.test(e.message));
  assert.throws(() => vm.player.tapped(3), TypeError);
  assert.throws(() => vm.player.tapped(), (e) => e instanceof mvvm.InvalidArgumentError || e instanceof TypeError);
  assert.throws(() => vm.player.tapped('start', 'pause'), TypeError);
  assert.throws(() => { vm.isShowAlert = 'yes'; }, TypeError);
  assert.throws(() => new catalog.CountDownTimer(loop, 1.5), RangeError);
  assert.throws(() => new catalog.CountDownTimer(loop, 2 ** 60), (e) => e instanceof RangeError && /fullCount/.test(e.message));
  assert.throws(() => new catalog.CountDownTimer({}, 3), TypeError);
  assert.throws(() => new catalog.TimerViewModel(loop, new catalog.Counter(loop)), mvvm.WrongTypeError);
  const other = virtual();
  assert.throws(() => new catalog.TimerViewModel(other, timer), mvvm.InvalidArgumentError);
  assert.throws(() => new catalog.DisplayViewModel(loop), TypeError);
  assert.throws(() => timer.subscribe('nope', () => {}), mvvm.UnknownNameError);
  assert.throws(() => timer.subscribe('count', 'not a function'), TypeError);
  assert.throws(() => new catalog.Loop('sideways'), TypeError);
  assert.throws(() => loop.dispatch(), mvvm.WrongLoopKindError);
  other.close();
  loop.close();
  assert.throws(() => timer.count, mvvm.LoopReleasedError);
  assert.throws(() => timer.count, mvvm.ClosedError);
});

test('a manual loop is driven by Node through its fd', async () => {
  const loop = new catalog.Loop('manual');
  const sw = new catalog.StopWatch(loop);
  const ticks = [];
  sw.subscribe('timeMs', (ms) => ticks.push(ms));
  sw.start();
  await new Promise((resolve) => setTimeout(resolve, 120));
  sw.stop();
  assert.ok(ticks.length >= 3, `ticks: ${ticks}`);
  assert.ok(ticks.every((t, i) => i === 0 || t > ticks[i - 1]));
  loop.close();
});

test('a thread loop delivers its changes on the JavaScript thread', async () => {
  const loop = new catalog.Loop('thread');
  const sw = new catalog.StopWatch(loop);
  const { isMainThread } = require('node:worker_threads');
  let calls = 0;
  const done = new Promise((resolve) => {
    sw.subscribe('timeMs', (ms) => {
      assert.ok(isMainThread);
      calls++;
      if (ms >= 50) resolve();
    });
  });
  sw.start();
  await done;
  sw.stop();
  assert.ok(calls >= 3);
  loop.close();
});

test('changes as an async iterator', async () => {
  const loop = new catalog.Loop('manual');
  const timer = new catalog.StopWatch(loop);
  timer.start();
  const seen = [];
  for await (const [value, event] of timer.changes('timeMs')) {
    assert.equal(event.name, 'timeMs');
    seen.push(value);
    if (seen.length === 3) break;
  }
  assert.equal(seen.length, 3);
  loop.close();
});

test('every status of mvvm.h has its Error subclass, named as the library names it', () => {
  const lib = catalog;
  const classes = Object.values(mvvm).filter((v) => typeof v === 'function' && v.prototype instanceof mvvm.MvvmError &&
    Object.prototype.hasOwnProperty.call(v, 'status'));
  const byStatus = new Map(classes.map((c) => [c.status, c]));
  for (let status = 1; status <= 15; status++) {
    const made = byStatus.get(status);
    assert.ok(made, `status ${status} (${lib.statusName(status)}) has a class`);
    assert.equal(made.statusName, lib.statusName(status));
  }
  assert.equal(lib.statusName(16), 'MVVM_UNKNOWN_STATUS');
});

test('closing an object ends an iteration over its changes', async () => {
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const seen = [];
  const iterating = (async () => { for await (const [value] of counter.changes('count')) seen.push(value); })();
  counter.increment();
  await new Promise((resolve) => setImmediate(resolve));
  counter.close();
  await iterating;
  assert.deepEqual(seen, [1]);
  loop.close();
});

test('on, off and once: EventEmitter-style listeners by JavaScript name', () => {
  const loop = virtual();
  const counter = new catalog.Counter(loop);
  const heard = [];
  const each = (value) => heard.push(['each', value]);
  const first = (value) => heard.push(['once', value]);
  assert.equal(counter.on('count', each), counter, 'on gives the object');
  counter.on('count', each); // added once
  assert.equal(counter.once('count', first), counter);
  counter.increment();
  counter.increment();
  assert.deepEqual(heard, [['each', 1], ['once', 1], ['each', 2]]);
  const never = () => heard.push(['never']);
  counter.once('count', never);
  counter.off('count', never); // a once listener removed before it heard anything
  counter.off('count', each);
  counter.increment();
  assert.equal(heard.length, 3);
  const every = [];
  counter.on(null, (value, event) => every.push([event.name, value]));
  mvvm.once(counter, null, (value, event) => every.push(['once', event.name]));
  counter.decrement();
  counter.decrement();
  assert.deepEqual(every, [['count', 2], ['once', 'count'], ['count', 1]]);
  assert.throws(() => counter.once('count', 'no function'), (e) => e instanceof TypeError && e.code === 'MVVM_ERR_INVALID_ARGUMENT');
  loop.close();
});

test('util.inspect (console.log) shows the class and its current values; a closed object says so', () => {
  const util = require('node:util');
  const loop = virtual();
  const vm = new catalog.StopWatchViewModel(loop);
  assert.equal(util.inspect(vm), util.inspect(Object.assign(Object.create(null), mvvm.snapshot(vm))).replace('[Object: null prototype]', 'StopWatchViewModel'));
  assert.match(util.inspect(vm), /^StopWatchViewModel \{\n? *time: '00:00:00\.00',/);
  vm.mainAction();
  loop.advance(1230);
  assert.match(util.inspect(vm), /time: '00:00:01\.23'/, 'its current values');
  assert.match(util.inspect({ screen: vm }, { depth: 0 }), /screen: \[StopWatchViewModel\]/);
  assert.match(util.inspect(loop), /^Loop \{ kind: 'virtual', now: 1230 \}$/);
  vm.close();
  assert.equal(util.inspect(vm), 'StopWatchViewModel <closed>');
  loop.close();
  assert.equal(util.inspect(loop), "Loop { kind: 'virtual', closed: true }");
});

test('reportError is settable on the module object, and takes only a function', () => {
  const saved = mvvm.reportError;
  const loop = virtual();
  const counter = new catalog.Counter(loop);
  const reported = [];
  try {
    mvvm.reportError = (error) => reported.push(error.message);
    counter.on('count', () => { throw new Error('a listener failed'); });
    counter.increment();
    assert.deepEqual(reported, ['a listener failed']);
    assert.throws(() => { mvvm.reportError = 'loud'; }, (e) => e instanceof TypeError && e.code === 'MVVM_ERR_INVALID_ARGUMENT');
    assert.equal(typeof mvvm.reportError, 'function');
  } finally {
    mvvm.reportError = saved;
  }
  loop.close();
});

test('no default library: the module names no class; a library is loaded by its path', () => {
  for (const name of ['Counter', 'CountDownTimer', 'Loop', 'library', 'version']) assert.equal(mvvm[name], undefined, name);
  assert.equal(mvvm.load(process.env.MVVM_CATALOG_LIBRARY), catalog, 'one path, one library');
  assert.equal(typeof catalog.Counter, 'function');
});
