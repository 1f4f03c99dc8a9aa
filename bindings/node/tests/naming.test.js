'use strict';
// JavaScript's names: one rule, whose data is naming.json beside the module, read by the module
// (names.js) and by the generator of the declarations (python3 -m mvvm_gen --dts): members in
// camelCase, no two C names sharing a JavaScript name, the names that would break an object given
// a trailing underscore; both name alike.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const names = require('../names.js');

const root = path.join(__dirname, '..', '..', '..');

test('members, arguments and fields are camelCase; underscores before a digit or at the end stay', () => {
  assert.deepEqual(names.jsNames(['is_sign_up_enabled', 'line_2', 'x_', 'a__b', 'count', 'main_action']), {
    is_sign_up_enabled: 'isSignUpEnabled', line_2: 'line_2', x_: 'x_', a__b: 'a_B', count: 'count', main_action: 'mainAction',
  });
  assert.equal(names.fieldName('zip_code'), 'zipCode');
  assert.equal(names.fieldName('constructor'), 'constructor', 'a record field named constructor is a field like any other');
});

test('a member whose camelCase name would break an object takes underscores until no other member has it', () => {
  assert.deepEqual(names.jsNames(['to_string', 'to_string_', 'then', 'then_', 'constructor', 'value_of']), {
    to_string: 'toString__', to_string_: 'toString_', then: 'then__', then_: 'then_', constructor: 'constructor_', value_of: 'valueOf_',
  });
});

test('no two C names share a JavaScript name (seeded C names of every shape)', () => {
  let seed = 7;
  const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const parts = ['a', 'b', 'to', 'string', 'then', 'x', '1', '2', 'of', 'value', 'c'];
  for (let round = 0; round < 200; round++) {
    const cNames = new Set();
    while (cNames.size < 12) {
      let name = ['a', 'b', 'to', 'then', 'value', 'x'][next(6)];
      for (let i = next(4); i > 0; i--) name += '_'.repeat(1 + next(2)) + parts[next(parts.length)];
      if (next(5) === 0) name += '_';
      cNames.add(name);
    }
    const given = Object.values(names.jsNames([...cNames]));
    assert.equal(new Set(given).size, given.length, [...cNames].join(' '));
  }
});

// A description whose names clash with each other, with the module's and with JavaScript's.
const CLASHING = [
  { class: 'loop', display: 'Loop', swift_module: 'M',
    properties: [{ name: 'then', type: 'int', access: 'rw', c_type: 'int64_t' },
      { name: 'then_', type: 'string', access: 'r', c_type: 'const char *' },
      { name: 'is_open', type: 'bool', access: 'r', c_type: 'bool' }],
    commands: [{ name: 'constructor', arguments: [], result: { type: 'none' } }, { name: 'close', arguments: [], result: { type: 'none' } },
      { name: 'to_string', arguments: [{ name: 'with_zeros', type: 'bool' }], result: { type: 'string' } }],
    signals: [{ name: 'on_open', type: 'none' }],
    children: ['on'], child_classes: { on: 'loop_' },
    records: { splice: { name: 'splice', display: 'Splice', fields: [{ name: 'zip_code', type: 'string' }] } } },
  { class: 'loop_', display: 'Loop', swift_module: 'M', properties: [], commands: [], signals: [], children: [] },
  { class: 'library', display: 'library', swift_module: 'M', properties: [], commands: [], signals: [], children: [] },
];

test('the generator names as the module does, from the same data file', () => {
  const members = CLASHING.map((c) => names.jsNames([...c.properties.map((p) => p.name), ...c.commands.map((m) => m.name),
    ...c.children, ...c.signals.map((s) => s.name)]));
  const library = names.libraryNames(CLASHING);
  assert.deepEqual(library.classes, { loop: 'Loop_', loop_: 'Loop__', library: 'library_' });
  assert.deepEqual(library.records, { splice: 'Splice_' });
  const script = `
import json, sys
from mvvm_gen import dts, naming
from mvvm_gen.model import Library
rule = dts.JsNaming.load()
described = json.loads(sys.argv[1])
library = Library.from_json(json.dumps(described))
members = [rule.members([p.name for p in c.properties] + [m.name for m in c.commands] + [c.name for c in c.children]
                        + [s.name for s in c.signals]) for c in library.classes]
classes, records = rule.library(library)
text = dts.generate_dts(library, "libclash.so")
print(json.dumps({"data": str(naming.js_data()), "members": members, "classes": classes, "records": records,
                  "field": rule.field("zip_code"), "text": text}))`;
  const run = spawnSync('python3', ['-c', script, JSON.stringify(CLASHING)],
    { encoding: 'utf8', env: { ...process.env, PYTHONPATH: path.join(root, 'tools') } });
  assert.equal(run.status, 0, run.stderr);
  const generator = JSON.parse(run.stdout);
  assert.equal(generator.data, path.join(root, 'bindings', 'node', 'naming.json'), 'one data file, beside the module');
  assert.deepEqual(generator.members, members);
  assert.deepEqual(generator.classes, library.classes);
  assert.deepEqual(generator.records, library.records);
  assert.equal(generator.field, names.fieldName('zip_code'));
  // The declarations use those names: camelCase members, arguments and fields; the binding's own
  // methods only where no member took the name.
  const text = generator.text;
  assert.match(text, /export declare class Loop_ \{/);
  assert.match(text, /readonly isOpen: boolean;/);
  assert.match(text, /toString_\(withZeros: boolean\): string;/);
  assert.match(text, /readonly zipCode: string;/);
  assert.match(text, /export interface Loop_Events \{ then__: number; then_: string; isOpen: boolean; onOpen: undefined; \}/);
  const first = text.slice(text.indexOf('export declare class Loop_ {'), text.indexOf('export declare class Loop__ {'));
  assert.ok(first.includes('  close(): void;') && !first.includes('  close(): boolean;'), 'the member close wins');
  assert.ok(first.includes('  once<K') && first.includes('  subscribe<K'), "the binding's own methods stay");
});
