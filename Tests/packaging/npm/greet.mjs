// A user's program over the typed npm package python3 -m mvvm_gen.package --npm made of
// Tests/outside (sample), installed beside mvvm's: ES module named exports, no load(path), no Swift.
import { Loop, Greeter, library } from 'sample';
import { readFileSync } from 'node:fs';

const loop = new Loop('virtual');
const greeter = new Greeter(loop, { name: 'Ada' });
greeter.on('greeting', (text) => console.log('greeting:', text));
console.log(greeter.greeting);
greeter.name = 'Bob';
greeter.greet();
console.log('greetCount:', greeter.greetCount, 'from', library.path.endsWith('/node_modules/sample/libsample.so'));
loop.close();
// Nothing of the Swift toolchain in the process: the library carries its runtime.
const mapped = readFileSync('/proc/self/maps', 'utf8').split('\n').map((line) => line.split(/\s+/)[5] || '');
console.log('swift mapped:', mapped.filter((file) => /\/opt\/swift|libswift|libdispatch|libFoundation/.test(file)).length);
