'use strict';
// docs/node.md's quick start runs as written and prints what it says: its program (timer.mjs) in a
// folder of its own where `mvvm` is this package (as `npm install` puts it) and ../build holds the
// catalog's library, as it does beside a checkout's my-app.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const here = path.join(__dirname, '..');
const root = path.join(here, '..', '..');
const catalogPath = process.env.MVVM_CATALOG_LIBRARY;

test("docs/node.md's quick start prints what its comment says", () => {
  const text = fs.readFileSync(path.join(root, 'docs', 'node.md'), 'utf8');
  const version = require('../package.json').version;
  assert.ok(text.includes(`npm install ../build/node/mvvm-${version}.tgz`), `it installs this version's package (${version})`);
  const program = /```js\n\/\/ timer\.mjs\n([\s\S]*?)```/.exec(text);
  assert.ok(program, 'a timer.mjs in the quick start');
  assert.match(program[1], /^import \{ load \} from 'mvvm';$/m, 'an ES module importing the package');
  const said = /\/\/ (left: .*?) \(/.exec(program[1]);
  assert.ok(said, 'the comment says what it prints');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mvvm-node-docs-'));
  try {
    const app = path.join(scratch, 'my-app');
    fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    fs.symlinkSync(here, path.join(app, 'node_modules', 'mvvm'));
    fs.mkdirSync(path.join(scratch, 'build', 'catalog'), { recursive: true });
    fs.symlinkSync(catalogPath, path.join(scratch, 'build', 'catalog', 'libcatalog.so'));
    fs.writeFileSync(path.join(app, 'timer.mjs'), program[1]);
    const run = spawnSync(process.execPath, ['timer.mjs'], { cwd: app, encoding: 'utf8', env: process.env });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split('\n').join(', '), said[1]);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
