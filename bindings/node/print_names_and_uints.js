'use strict';
// What the Node binding shows of a library, for Tests/bindings/agree.py: each class's and
// record's name ("class <c name> <name>", "record <c name> <name>") and, when the library has
// Tests/outside's meter, its UInt64 values read back ("uint <reading> <ahead(2048)> <set and read
// 18446744073709549568>"). Usage: node print_names_and_uints.js LIBRARY
const mvvm = require('./index.js');

const lib = mvvm.load(process.argv[2]);
for (const [cName, cls] of Object.entries(lib.byCName)) console.log('class', cName, cls.name);
for (const [cName, record] of Object.entries(lib.recordByCName)) console.log('record', cName, record.name);
if (lib.byCName.meter) {
  const loop = new lib.Loop('virtual');
  const meter = new lib.byCName.meter(loop);
  const reading = meter.reading;
  const ahead = meter.ahead(2048);
  meter.reading = 18446744073709549568n;
  console.log('uint', String(reading), String(ahead), String(meter.reading));
  mvvm.close(meter);
  loop.close();
}
