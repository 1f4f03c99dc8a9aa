#!/usr/bin/env node
'use strict';
// Whether tsc reports each mistake planted in a TypeScript file (the line after each
// `// @ts-expect-error` mark), on its line, once the marks are taken away: the check of
// typed.test.js, test_package.sh and Tests/packaging/test_packaging.sh.
//   node planted.js DIR FILE [AT_LEAST]     (DIR holds FILE and the tsconfig.json that checks it)
// Writes DIR/unmarked.ts and DIR/tsconfig.unmarked.json (tsconfig.json, for unmarked.ts), runs
// `tsc -p`, prints what it reported and the lines planted and reported; exits 1 when they differ,
// or when fewer than AT_LEAST mistakes are planted.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const MARK = /^(\s*)\/\/ @ts-expect-error.*$/;

// {planted, reported, output}: the lines of `file` (in `dir`) that follow a mark, and those tsc
// reports an error on once the marks are blank lines.
function planted(dir, file) {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
  const marked = lines.map((line, i) => (MARK.test(line) ? i + 2 : 0)).filter(Boolean);
  fs.writeFileSync(path.join(dir, 'unmarked.ts'), lines.map((line) => line.replace(MARK, '$1')).join('\n'));
  fs.writeFileSync(path.join(dir, 'tsconfig.unmarked.json'),
    JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, files: ['unmarked.ts'] }));
  const tsc = spawnSync('tsc', ['-p', 'tsconfig.unmarked.json'], { cwd: dir, encoding: 'utf8' });
  for (const made of ['unmarked.ts', 'tsconfig.unmarked.json']) fs.rmSync(path.join(dir, made), { force: true });
  const output = (tsc.stdout || '') + (tsc.stderr || '') + (tsc.error ? String(tsc.error) : '');
  const reported = [...new Set(output.split('\n').map((line) => /unmarked\.ts\((\d+),\d+\): error TS/.exec(line))
    .filter(Boolean).map((found) => Number(found[1])))].sort((a, b) => a - b);
  return { planted: marked, reported, output };
}

module.exports = { planted };

if (require.main === module) {
  const [dir, file, atLeast = '1'] = process.argv.slice(2);
  const found = planted(dir, file);
  process.stdout.write(found.output);
  console.log(`planted on lines: ${found.planted.join(' ')}; reported on: ${found.reported.join(' ')}`);
  const same = found.planted.join(' ') === found.reported.join(' ');
  process.exit(same && found.planted.length >= Number(atLeast) ? 0 : 1);
}
