'use strict';
// The main loop (MVVM_LOOP_MAIN) from Node: Node's JavaScript thread is the process's main thread,
// so @MainActor view models (Tests/outside's libappsample.so: Foundation Timer, Task { @MainActor },
// an async command) run on it, driven by Node's event loop through the loop's fd.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

const appPath = process.env.MVVM_APP_SAMPLE_LIBRARY;
const skip = appPath ? false : 'MVVM_APP_SAMPLE_LIBRARY is not set (make sample)';

test('a @MainActor view model on the main loop: Timer, main-actor tasks, an async command', { skip }, async () => {
  const lib = mvvm.load(appPath);
  const loop = new lib.Loop('main');
  assert.throws(() => new lib.Loop('main'), mvvm.InvalidArgumentError, 'one main loop at a time');
  const meeting = new lib.MeetingViewModel(loop);
  const seconds = [];
  meeting.subscribe('secondsElapsed', (value) => seconds.push(value));
  meeting.start();
  meeting.skipSpeaker();
  assert.equal(await meeting.fetch(), 1);
  await new Promise((resolve) => setTimeout(resolve, 250));
  meeting.stop();
  assert.ok(seconds.length >= 2, `ticks: ${seconds}`);
  assert.deepEqual(seconds, seconds.map((_, i) => seconds[0] + i), 'each tick once, in order');
  assert.equal(meeting.speaker, 1);
  loop.close();
});
