// A user's greeter as an ES module, over the installed package (test_package.sh runs it from an
// empty folder where only `npm install ./mvvm-VERSION.tgz` ran): a library loaded by its path,
// camelCase members, on/once, util.inspect, errors with codes. Prints what greet.expected says.
import mvvm, { load, InvalidArgumentError, once } from 'mvvm';
import { createRequire } from 'node:module';

const sample = load(process.argv[2]);
const loop = new sample.Loop('virtual');
const greeter = new sample.Greeter(loop, { name: 'Ada' });
greeter.on('greeting', (text) => console.log('greeting:', text));
once(greeter, 'greeted', (text) => console.log('greeted once:', text));
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
console.log('one module:', createRequire(import.meta.url)('mvvm') === mvvm && mvvm.load === load,
  new InvalidArgumentError('x').code);
loop.close();
