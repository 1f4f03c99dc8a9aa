'use strict';
// The catalog's five designs from JavaScript (libcatalog.so: MVVM_LIBRARY), on virtual, manual and
// thread loops.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

function virtual() { return new mvvm.Loop('virtual'); }

test('timer: a countdown ticks on the loop clock, alerts and resets', () => {
  const loop = virtual();
  const timer = new mvvm.CountDownTimer(loop, 3);
  const vm = new mvvm.TimerViewModel(loop, timer);
  assert.equal(vm.timer, timer);
  assert.equal(vm.display.remaining_time, 3);
  assert.equal(vm.display, vm.display, 'a child is one object');
  const seen = [];
  timer.subscribe('remaining_time', (value) => seen.push(value));
  vm.player.tapped('start');
  loop.advance(0);
  assert.equal(timer.is_doing, true);
  assert.equal(vm.player.is_play_timer, true);
  loop.advance(2000);
  assert.equal(vm.display.remaining_time, 1);
  assert.equal(vm.player.is_stop_enabled, true);
  loop.advance(1000);
  assert.deepEqual(seen, [2, 1, 3]);
  assert.equal(vm.is_show_alert, true);
  assert.equal(timer.count, 0);
  vm.is_show_alert = false;
  assert.equal(vm.is_show_alert, false);
  loop.close();
});

test('timer: the tap throttle drops a tap within the second', () => {
  const loop = virtual();
  const timer = new mvvm.CountDownTimer(loop, 10);
  const vm = new mvvm.TimerViewModel(loop, timer);
  vm.player.tapped('start');
  loop.advance(0);
  vm.player.tapped('pause');
  loop.advance(0);
  assert.equal(timer.is_doing, true, 'a tap within a second of the last waits');
  loop.advance(1000);
  assert.equal(timer.is_doing, false);
  loop.close();
});

test('stopwatch: start, stop, resume, clear, formatted time', () => {
  const loop = virtual();
  const sw = new mvvm.StopWatchViewModel(loop);
  assert.equal(sw.time, '00:00:00.00');
  assert.equal(sw.main_action_title, 'Start');
  assert.equal(sw.clear_action_enabled, false);
  sw.main_action();
  loop.advance(61_230);
  assert.equal(sw.time, '00:01:01.23');
  assert.equal(sw.main_action_title, 'Stop');
  sw.main_action();
  assert.equal(sw.main_action_title, 'Resume');
  assert.equal(sw.clear_action_enabled, true);
  sw.clear_action();
  assert.equal(sw.time, '00:00:00.00');
  const model = new mvvm.StopWatch(loop);
  model.start();
  loop.advance(50);
  assert.equal(model.time_ms, 50);
  assert.equal(model.state, 'stoppable');
  loop.close();
});

test('input echo: a binding and its outputs, notified once per change', () => {
  const loop = virtual();
  const echo = new mvvm.InputEchoViewModel(loop);
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
  const su = new mvvm.SignUpViewModel(loop);
  assert.equal(su.is_sign_up_enabled, false);
  su.sign_up_tapped();
  assert.equal(su.is_completion_alert_presented, false);
  Object.assign(su, { user_id: 'abcdef', password: 'password1', confirm_password: 'password1', agreed: true });
  assert.equal(su.is_sign_up_enabled, true);
  su.sign_up_tapped();
  assert.equal(su.is_completion_alert_presented, true);
  loop.close();
});

test('sign-up: a host service answers, synchronously or by a Promise', async () => {
  const loop = virtual();
  const asked = [];
  let su = null;
  su = new mvvm.SignUpViewModel(loop, (argument, request) => {
    asked.push(argument);
    assert.equal(request.viewModel, su, 'the request names the view model that asks');
    assert.equal(request.viewModel.password, 'password1', 'readable during the request');
    return Promise.resolve(true);
  });
  Object.assign(su, { user_id: 'abcdef', password: 'password1', confirm_password: 'password1', agreed: true });
  su.sign_up_tapped();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(asked.length, 1);
  assert.equal(su.is_completion_alert_presented, true);
  const refused = new mvvm.ObservableSignUpViewModel(loop, () => false);
  Object.assign(refused, { user_id: 'abcdef', password: 'password1', confirm_password: 'password1', agreed: true });
  refused.sign_up_tapped();
  assert.equal(refused.is_completion_alert_presented, false);
  const welcome = new mvvm.WelcomeViewModel(loop, (argument, request) => { request.cancel(); return 'never'; });
  const heard = [];
  welcome.on('on_show_welcome', (text) => heard.push(text));
  welcome.view_did_load();
  loop.advance(0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(heard, [], 'a withdrawn request is never answered');
  const answered = new mvvm.WelcomeViewModel(loop, () => 'Hi from the host');
  answered.on('on_show_welcome', (text) => heard.push(text));
  answered.view_did_load();
  loop.advance(0);
  assert.deepEqual(heard, ['Hi from the host']);
  loop.close();
});

test('welcome: signals, each delivered, with on/off', () => {
  const loop = virtual();
  const welcome = new mvvm.WelcomeViewModel(loop);
  const got = [];
  const onText = (text) => got.push(['text', text]);
  welcome.on('on_show_text', onText);
  welcome.on('on_show_welcome', (text) => got.push(['welcome', text]));
  welcome.on('on_show_only_first', (payload) => got.push(['first', payload]));
  welcome.view_did_load();
  loop.advance(0);
  welcome.tap_button('hi');
  welcome.off('on_show_text', onText);
  welcome.tap_button('again');
  assert.deepEqual(got, [['welcome', 'Welcome!'], ['text', 'hi show!!'], ['first', undefined]]);
  loop.close();
});

test('counters: a page with a counter and a seeded random counter', () => {
  const loop = virtual();
  const page = new mvvm.CounterPageViewModel(loop, { seed: 7n });
  assert.match(page.read_me, /./);
  const first = page.first_counter;
  assert.equal(first.label, 'Counter');
  first.increment();
  first.increment();
  first.decrement();
  assert.equal(first.count, '1');
  const second = page.second_counter;
  assert.equal(second.label, 'Random Counter');
  const draws = [];
  for (let i = 0; i < 5; i++) { second.increment(); draws.push(Number(second.count)); }
  assert.ok(draws.every((n) => n >= 1 && n <= 10));
  const again = new mvvm.CounterPageViewModel(loop, 7n).second_counter;
  const repeated = [];
  for (let i = 0; i < 5; i++) { again.increment(); repeated.push(Number(again.count)); }
  assert.deepEqual(repeated, draws, 'a seed gives a repeatable sequence');
  const model = new mvvm.Counter(loop);
  const vm = new mvvm.CounterViewModel(loop, model);
  vm.increment();
  assert.equal(model.count, 1);
  assert.equal(vm.model, model);
  const random = new mvvm.RandomCounter(loop, 18446744073709551615n);
  random.increment();
  assert.ok(random.count >= 1 && random.count <= 10);
  loop.close();
});

test('errors: each status an Error subclass with the library message', () => {
  const loop = virtual();
  const timer = new mvvm.CountDownTimer(loop, 3);
  const vm = new mvvm.TimerViewModel(loop, timer);
  assert.throws(() => { timer.count = 1; }, (e) => e instanceof mvvm.ReadOnlyError && e instanceof mvvm.MvvmError &&
    e instanceof Error && e.status === 6 && e.statusName === 'MVVM_ERR_READ_ONLY' && /read-only/.test(e.message));
  assert.throws(() => vm.player.tapped('jump'), (e) => e instanceof mvvm.InvalidArgumentError && /jump/.test(e.message));
  assert.throws(() => vm.player.tapped(3), TypeError);
  assert.throws(() => vm.player.tapped(), (e) => e instanceof mvvm.InvalidArgumentError || e instanceof TypeError);
  assert.throws(() => vm.player.tapped('start', 'pause'), TypeError);
  assert.throws(() => { vm.is_show_alert = 'yes'; }, TypeError);
  assert.throws(() => new mvvm.CountDownTimer(loop, 1.5), RangeError);
  assert.throws(() => new mvvm.CountDownTimer(loop, 2 ** 60), (e) => e instanceof RangeError && /full_count/.test(e.message));
  assert.throws(() => new mvvm.CountDownTimer({}, 3), TypeError);
  assert.throws(() => new mvvm.TimerViewModel(loop, new mvvm.Counter(loop)), mvvm.WrongTypeError);
  const other = virtual();
  assert.throws(() => new mvvm.TimerViewModel(other, timer), mvvm.InvalidArgumentError);
  assert.throws(() => new mvvm.DisplayViewModel(loop), TypeError);
  assert.throws(() => timer.subscribe('nope', () => {}), mvvm.UnknownNameError);
  assert.throws(() => timer.subscribe('count', 'not a function'), TypeError);
  assert.throws(() => new mvvm.Loop('sideways'), TypeError);
  assert.throws(() => loop.dispatch(), mvvm.WrongLoopKindError);
  other.close();
  loop.close();
  assert.throws(() => timer.count, mvvm.LoopReleasedError);
  assert.throws(() => timer.count, mvvm.ClosedError);
});

test('a manual loop is driven by Node through its fd', async () => {
  const loop = new mvvm.Loop('manual');
  const sw = new mvvm.StopWatch(loop);
  const ticks = [];
  sw.subscribe('time_ms', (ms) => ticks.push(ms));
  sw.start();
  await new Promise((resolve) => setTimeout(resolve, 120));
  sw.stop();
  assert.ok(ticks.length >= 3, `ticks: ${ticks}`);
  assert.ok(ticks.every((t, i) => i === 0 || t > ticks[i - 1]));
  loop.close();
});

test('a thread loop delivers its changes on the JavaScript thread', async () => {
  const loop = new mvvm.Loop('thread');
  const sw = new mvvm.StopWatch(loop);
  const { isMainThread } = require('node:worker_threads');
  let calls = 0;
  const done = new Promise((resolve) => {
    sw.subscribe('time_ms', (ms) => {
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
  const loop = new mvvm.Loop('manual');
  const timer = new mvvm.StopWatch(loop);
  timer.start();
  const seen = [];
  for await (const [value, event] of timer.changes('time_ms')) {
    assert.equal(event.name, 'time_ms');
    seen.push(value);
    if (seen.length === 3) break;
  }
  assert.equal(seen.length, 3);
  loop.close();
});

test('every status of mvvm.h has its Error subclass, named as the library names it', () => {
  const lib = mvvm.library();
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
  const loop = new mvvm.Loop('virtual');
  const counter = new mvvm.Counter(loop);
  const seen = [];
  const iterating = (async () => { for await (const [value] of counter.changes('count')) seen.push(value); })();
  counter.increment();
  await new Promise((resolve) => setImmediate(resolve));
  counter.close();
  await iterating;
  assert.deepEqual(seen, [1]);
  loop.close();
});
