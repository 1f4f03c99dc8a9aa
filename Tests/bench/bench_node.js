'use strict';
// The Node.js side of the benchmarks (make bench): the SignUp flip through the Node binding
// (set password -> isSignUpEnabled notified -> the callback reads it), beside Python's
// py_round_trip_sign_up in the table; and stopwatch ticks on a virtual loop. Prints
// "<case> <ns per op> <deliveries>" per repetition, as bench_c and bench_python.py do.
//   node Tests/bench/bench_node.js REPS N      (MVVM_LIBRARY: the catalog's libcatalog.so to measure)
const mvvm = require('../../bindings/node');

const catalog = mvvm.load(process.env.MVVM_LIBRARY);

let warmingUp = false;
function report(name, elapsedNs, operations, deliveries) {
  if (!warmingUp) console.log(`${name} ${(Number(elapsedNs) / operations).toFixed(1)} ${deliveries}`);
}

function roundTrip(n) {
  const loop = new catalog.Loop('virtual');
  const form = new catalog.SignUpViewModel(loop);
  Object.assign(form, { userId: 'newuser', confirmPassword: 'password1', agreed: true });
  let seen = 0;
  const sub = form.subscribe('isSignUpEnabled', () => { if (form.isSignUpEnabled !== undefined) seen++; });
  const passwords = ['password1', 'short'];
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) form.password = passwords[i & 1];
  const elapsed = process.hrtime.bigint() - start;
  sub.unsubscribe();
  loop.close();
  if (seen !== n) throw new Error(`lost deliveries: ${seen} of ${n}`);
  report('node_round_trip_sign_up', elapsed, n, seen);
}

function stopwatchTicks(n) {
  const loop = new catalog.Loop('virtual');
  const watch = new catalog.StopWatch(loop);
  let seen = 0;
  watch.subscribe('timeMs', () => { seen++; });
  watch.start();
  const start = process.hrtime.bigint();
  loop.advance(10 * n);
  const elapsed = process.hrtime.bigint() - start;
  loop.close();
  report('node_stopwatch_tick', elapsed, n, seen);
}

const [reps = 1, n = 20000] = process.argv.slice(2).map(Number);
warmingUp = true;
roundTrip(Math.min(n, 2000));
stopwatchTicks(Math.min(n, 2000));
warmingUp = false;
for (let rep = 0; rep < reps; rep++) {
  roundTrip(n);
  stopwatchTicks(n);
}
