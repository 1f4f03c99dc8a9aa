// The same greeter as a CommonJS program: require('mvvm') with real named exports.
'use strict';
const { load, InvalidArgumentError } = require('mvvm');
const mvvm = require('mvvm');

const sample = load(process.argv[2]);
const loop = new sample.Loop('virtual');
const greeter = new sample.Greeter(loop, { name: 'Ada' });
greeter.on('greeting', (text) => console.log('greeting:', text));
mvvm.once(greeter, 'greeted', (text) => console.log('greeted once:', text));
console.log(greeter.greeting);
greeter.greet();
greeter.greet();
greeter.name = 'Bob';
console.log('greetCount:', greeter.greetCount);
console.log(greeter);
try {
  greeter.greetCount = 3;
} catch (error) {
  console.log(error.name, error.code);
}
try {
  greeter.name = 42;
} catch (error) {
  console.log(error instanceof TypeError, error.code);
}
// One module, however it is loaded; an error class gives its own code.
import('mvvm').then((esm) => {
  console.log('one module:', esm.default === mvvm && esm.load === load, new InvalidArgumentError('x').code);
  loop.close();
});
