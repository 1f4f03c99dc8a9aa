'use strict';
// Foundation's values in records (issue 49): a record the host builds with any form of a UUID, date,
// URL or decimal the library takes holds it as the library gives it back (a Date for a date, a
// UUID's text in upper case, a decimal's canonical text, a URL's text), so that it deep-equals the
// same record read back, as a property, a command's result or a signal's payload.
const test = require('node:test');
const assert = require('node:assert/strict');
const mvvm = require('..');

const samplePath = process.env.MVVM_SAMPLE_LIBRARY;
const skip = samplePath ? false : 'MVVM_SAMPLE_LIBRARY is not set (make sample)';
const lib = samplePath ? mvvm.load(samplePath) : null;

const UUID = 'c0ffee00-0000-4000-8000-00000000beef';
const DAY = new Date(Date.UTC(1970, 0, 2));

// Each accepted form of each of the line item's fields, beside the form it is read back in.
const FORMS = {
  id: [[UUID, UUID.toUpperCase()], [UUID.toUpperCase(), UUID.toUpperCase()]],
  at: [[86400, DAY], [DAY, DAY], [-86400.5, new Date(-86400500)]],
  link: [['https://example.com/a', 'https://example.com/a'], [new URL('https://example.com'), 'https://example.com/']],
  price: [['1.50', '1.5'], ['-1.5e-3', '-0.0015'], ['00012.3400', '12.34'], [7n, '7'], [-12, '-12'], [0, '0'],
    ['-0.0', '0'], ['1e20', '100000000000000000000']],
  due: [[null, null], [undefined, null], [3600, new Date(3600000)]],
};

test('a record built with any accepted form of a UUID, date, URL or decimal holds the form read back, and deep-equals it read back', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop);
  let checked = 0;
  for (const [field, forms] of Object.entries(FORMS)) {
    for (const [given, held] of forms) {
      const fields = { id: UUID, at: 0, link: 'https://example.com/', price: '1' };
      if (given !== undefined) fields[field] = given;
      const built = new lib.LineItem(fields);
      assert.deepEqual(built[field], held, `${field}: ${String(given)}`);
      order.line = built;
      assert.deepStrictEqual(order.line, built, `read back as a property: ${field} given as ${String(given)}`);
      assert.deepStrictEqual(mvvm.snapshot(order).line, built, 'in a snapshot');
      checked += 1;
    }
  }
  assert.equal(checked, 18);
  assert.ok(new lib.LineItem({ id: UUID, at: 0, link: 'x:y', price: '1' }).at instanceof Date, 'a date is a Date');
  loop.close();
});

test("a command's arguments in any accepted form: its record result deep-equals the record built from them", { skip }, () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop);
  const given = { id: UUID, at: 86400, link: new URL('https://example.com/path?q=1'), price: 42n };
  const result = order.makeLine(given);
  assert.deepStrictEqual(result, new lib.LineItem(given));
  assert.deepStrictEqual(order.makeLine(UUID, DAY, 'https://example.com/path?q=1', '42.000'), result, 'by position, other forms');
  // A record in a record, and an array of records: each field by its class.
  const slot = new lib.Slot({ speaker: { name: 'Ann', isCompleted: false }, minutes: 5 });
  assert.ok(slot.speaker instanceof lib.Speaker);
  assert.deepStrictEqual(slot, new lib.Slot({ speaker: new lib.Speaker({ name: 'Ann', isCompleted: false, email: null }), minutes: 5, backup: null }));
  loop.close();
});

test('a value of no form the library takes is kept as given, and refused by the library when sent', { skip }, () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop);
  const odd = new lib.LineItem({ id: 'nope', at: 'yesterday', link: 'https://example.com/', price: '1.2.3' });
  assert.equal(odd.id, 'nope');
  assert.equal(odd.at, 'yesterday');
  assert.equal(odd.price, '1.2.3');
  assert.throws(() => { order.line = odd; }, (e) => e.code === 'MVVM_ERR_INVALID_ARGUMENT' || e instanceof TypeError);
  assert.equal(order.line, null, 'nothing was set');
  loop.close();
});

// A decimal's text as the library gives it back (Decimal.description), for texts made by a seeded
// generator: the record's form is the library's, and a text the library refuses is kept as given.
test("a decimal's canonical text is the library's, for every text the generator makes", { skip }, () => {
  const loop = new lib.Loop('virtual');
  const order = new lib.Order(loop);
  let seed = 20240611;
  const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const digits = (n) => Array.from({ length: n }, () => String(next(10))).join('');
  let accepted = 0;
  let refusedCount = 0;
  for (let i = 0; i < 400; i++) {
    const sign = next(3) === 0 ? '-' : '';
    const whole = next(4) === 0 ? '0'.repeat(next(3)) + digits(next(3) + 1) : digits(next(40) + 1);
    const fraction = next(2) ? '' : `.${digits(next(12) + 1)}${'0'.repeat(next(3))}`;
    const exponent = next(3) ? '' : `${next(2) ? 'e' : 'E'}${['', '+', '-'][next(3)]}${next(180)}`;
    const text = sign + whole + fraction + exponent;
    const built = new lib.LineItem({ id: UUID, at: 0, link: 'https://example.com/', price: text });
    let readBack;
    try {
      order.cost = text;
      readBack = order.cost;
    } catch (error) {
      assert.ok(error instanceof mvvm.InvalidArgumentError, String(error));
      assert.equal(built.price, text, `refused by the library, kept as given: ${text}`);
      refusedCount += 1;
      continue;
    }
    assert.equal(built.price, readBack, `the library gives ${text} back as ${readBack}`);
    accepted += 1;
  }
  assert.ok(accepted > 200 && refusedCount > 10, `accepted ${accepted}, refused ${refusedCount}`);
  loop.close();
});
