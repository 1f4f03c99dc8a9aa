'use strict';
// docs/node.md's quick start runs as written and prints what it says.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.join(__dirname, '..', '..', '..');

test("docs/node.md's quick start prints what its comment says", () => {
  const text = fs.readFileSync(path.join(root, 'docs', 'node.md'), 'utf8');
  const script = /node -e '\n([\s\S]*?)'/.exec(text);
  assert.ok(script, 'a node -e script in the quick start');
  const said = /\/\/ (left: .*?) \(/.exec(script[1]);
  assert.ok(said, 'the comment says what it prints');
  const run = spawnSync(process.execPath, ['-e', script[1]], { cwd: root, encoding: 'utf8', env: process.env });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim().split('\n').join(', '), said[1]);
});
