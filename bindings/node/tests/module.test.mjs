// The module for ES modules and CommonJS alike: `import` gives the CommonJS module itself (one
// module, one set of classes and libraries) with real named exports, every one of them; no Proxy.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { types } from 'node:util';
import mvvm, * as namespace from '../index.mjs';
import { load, once, MvvmError, LoadError } from '../index.mjs';

const require = createRequire(import.meta.url);
const cjs = require('../index.js');

test('import and require give one module, with real named exports', () => {
  assert.equal(mvvm, cjs);
  assert.equal(load, cjs.load);
  assert.equal(once, cjs.once);
  assert.equal(MvvmError, cjs.MvvmError);
  assert.equal(LoadError, cjs.LoadError);
  assert.ok(!types.isProxy(cjs), 'the CommonJS module object is a plain object');
  // Every export of the CommonJS module is a named export of the ES module, but reportError, which
  // is set on the module object (a namespace cannot be assigned to).
  const named = Object.keys(namespace).filter((name) => name !== 'default').sort();
  const exported = Object.keys(cjs).filter((name) => name !== 'reportError').sort();
  assert.deepEqual(named, exported);
  assert.equal(namespace.default, cjs);
  assert.throws(() => { namespace.load = null; }, TypeError, 'a namespace is read-only');
});

test('the catalog through the ES module', () => {
  const catalog = load(process.env.MVVM_CATALOG_LIBRARY);
  const loop = new catalog.Loop('virtual');
  const counter = new catalog.Counter(loop);
  const heard = [];
  once(counter, 'count', (value) => heard.push(value));
  counter.increment();
  counter.increment();
  assert.deepEqual(heard, [1]);
  loop.close();
});
