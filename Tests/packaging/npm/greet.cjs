// The same program as CommonJS: require('sample').
'use strict';
const { Loop, Greeter, library } = require('sample');
const { readFileSync } = require('node:fs');

const loop = new Loop('virtual');
const greeter = new Greeter(loop, { name: 'Ada' });
greeter.on('greeting', (text) => console.log('greeting:', text));
console.log(greeter.greeting);
greeter.name = 'Bob';
greeter.greet();
console.log('greetCount:', greeter.greetCount, 'from', library.path.endsWith('/node_modules/sample/libsample.so'));
loop.close();
const mapped = readFileSync('/proc/self/maps', 'utf8').split('\n').map((line) => line.split(/\s+/)[5] || '');
console.log('swift mapped:', mapped.filter((file) => /\/opt\/swift|libswift|libdispatch|libFoundation/.test(file)).length);
