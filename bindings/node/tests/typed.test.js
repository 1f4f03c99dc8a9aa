'use strict';
// The declarations: mvvm_catalog.d.ts is what gen_dts.js makes of the catalog (not stale); a
// user's package's are generated; tsc --strict accepts tests/typed/check.ts, and reports every
// mistake planted in it (each marked @ts-expect-error) once the marks are taken away.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const mvvm = require('..');

const here = path.join(__dirname, '..');
const typed = path.join(__dirname, 'typed');
const samplePath = process.env.MVVM_SAMPLE_LIBRARY;
const todoPath = process.env.MVVM_TODO_LIBRARY && fs.existsSync(process.env.MVVM_TODO_LIBRARY) ? process.env.MVVM_TODO_LIBRARY : null;
const TSC = ['--strict', '--noEmit', '--target', 'es2020', '--lib', 'es2020', '--module', 'commonjs', '--moduleResolution', 'node'];

function run(command, args, options = {}) {
  return spawnSync(command, args, { encoding: 'utf8', ...options });
}

test('mvvm_catalog.d.ts is not stale', () => {
  const result = run(process.execPath, [path.join(here, 'gen_dts.js'), mvvm.library().path,
    path.join(here, 'mvvm_catalog.d.ts'), '--check']);
  assert.equal(result.status, 0, result.stderr);
});

test('tsc --strict: the declarations check, and planted mistakes are reported', { skip: samplePath ? false : 'MVVM_SAMPLE_LIBRARY is not set' }, () => {
  const generated = run(process.execPath, [path.join(here, 'gen_dts.js'), samplePath, path.join(typed, 'sample.d.ts'),
    '--module', '../../index']);
  assert.equal(generated.status, 0, generated.stderr);
  const tsc = run('tsc', ['-p', path.join(typed, 'tsconfig.json')]);
  assert.notEqual(tsc.error && tsc.error.code, 'ENOENT', 'tsc is missing: make deps installs node-typescript');
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
  const source = fs.readFileSync(path.join(typed, 'check.ts'), 'utf8');
  const planted = source.split('\n').filter((line) => line.startsWith('// @ts-expect-error')).length;
  assert.ok(planted >= 10);
  fs.writeFileSync(path.join(typed, 'unmarked.ts'), source.replace(/^\/\/ @ts-expect-error.*$/gm, ''));
  try {
    const unmarked = run('tsc', [...TSC, path.join(typed, 'unmarked.ts')]);
    const lines = new Set(unmarked.stdout.split('\n').filter((l) => /error TS/.test(l)).map((l) => l.replace(/,\d+\).*/, '')));
    assert.equal(lines.size, planted, unmarked.stdout);
  } finally {
    fs.rmSync(path.join(typed, 'unmarked.ts'), { force: true });
  }
});

test("tsc --strict: the todo app's declarations, generated from its library", { skip: todoPath ? false : 'the todo app is not built' }, () => {
  const generated = run(process.execPath, [path.join(here, 'gen_dts.js'), todoPath, path.join(typed, 'todo.d.ts'),
    '--module', '../../index']);
  assert.equal(generated.status, 0, generated.stderr);
  const tsc = run('tsc', [...TSC, path.join(typed, 'check_todo.ts')]);
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
