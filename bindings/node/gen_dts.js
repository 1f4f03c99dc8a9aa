#!/usr/bin/env node
'use strict';
// TypeScript declarations of a library's classes, from its description (mvvm_classes), for the
// classes the Node module makes at run time (index.js). One static type per member, as index.js
// renders values: Int a number, UInt64 a bigint, bytes a Uint8Array, records frozen objects,
// optionals `| null`, lists MvvmList<Item>, async commands Promises.
//
//   node bindings/node/gen_dts.js LIBRARY.so OUT.d.ts [--module ./index] [--check]
//
// --module: how the declarations import the module's own types (default: the module beside OUT,
// "./index", or "mvvm" when OUT is elsewhere). --check: fail (exit 1) when OUT differs from what
// would be written. The catalog's are committed as bindings/node/mvvm_catalog.d.ts.
const fs = require('node:fs');
const path = require('node:path');

const { jsNames, libraryNames } = require('./names.js');
function key(name) { return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name); }

function generate(described) {
  const { classes: classNames, records: recordNames, recordDescriptions: records } = libraryNames(described);

  // A value as the module hands it out.
  const out = (type) => {
    let t;
    switch (type.type) {
      case 'bool': t = 'boolean'; break;
      case 'int': t = type.c_type === 'uint64_t' ? 'bigint' : 'number'; break;
      case 'double': t = 'number'; break;
      case 'string': t = type.values ? type.values.map((v) => JSON.stringify(v)).join(' | ') : 'string'; break;
      case 'bytes': t = 'Uint8Array'; break;
      case 'date': t = 'Date'; break;
      case 'uuid': case 'url': case 'decimal': t = 'string'; break;
      case 'array': t = `readonly (${out(type.element)})[]`; break;
      case 'record': t = recordNames[type.record] || 'Readonly<Record<string, unknown>>'; break;
      case 'list': t = `MvvmList<${classNames[type.item_class] || 'MvvmObject'}>`; break;
      case 'none': return 'undefined';
      default: t = 'unknown';
    }
    return type.optional ? `${t} | null` : t;
  };
  // A value as the module takes it.
  const input = (type, owner = 'MvvmObject') => {
    let t;
    switch (type.type) {
      case 'bool': t = 'boolean'; break;
      case 'int': t = 'number | bigint'; break;
      case 'double': t = 'number'; break;
      case 'string': t = type.values ? type.values.map((v) => JSON.stringify(v)).join(' | ') : 'string'; break;
      case 'bytes': t = 'Uint8Array'; break;
      case 'date': t = 'Date | number'; break;
      case 'uuid': case 'url': t = 'string'; break;
      case 'decimal': t = 'string | number | bigint'; break;
      case 'array': t = `readonly (${input(type.element)})[]`; break;
      case 'record': t = records[type.record] ? `${recordNames[type.record]}Init` : 'Record<string, unknown>'; break;
      case 'object': t = (type.classes || []).map((c) => classNames[c] || 'MvvmObject').join(' | ') || 'MvvmObject'; break;
      case 'service': t = `(argument: ${type.request_argument ? out({ type: type.request_argument }) : 'unknown'}, request: ServiceRequest<${owner}>) => ` +
        `${type.result ? input({ type: type.result }) : 'unknown'} | Promise<${type.result ? input({ type: type.result }) : 'unknown'}>`; break;
      default: t = 'unknown';
    }
    return type.optional ? `${t} | null` : t;
  };
  const doc = (text, indent) => (text ? `${indent}/** ${text.replace(/\*\//g, '* /').replace(/\n/g, ' ')} */\n` : '');
  const argsList = (args, owner) => args.map((a) => `${key(a.name)}${a.optional ? '?' : ''}: ${input(a, owner)}`).join(', ');
  const optionsType = (args, extra = '', owner) => `{ ${args.map((a) => `${key(a.name)}${a.optional ? '?' : ''}: ${input(a, owner)}; `).join('')}${extra}}`;

  let text = '';
  for (const [name, record] of Object.entries(records)) {
    const display = recordNames[name];
    text += doc(record.doc, '');
    text += `export declare class ${display} {\n  constructor(fields: ${display}Init);\n`;
    for (const field of record.fields) text += doc(field.doc, '  ') + `  readonly ${key(field.name)}: ${out(field)};\n`;
    text += '}\n';
    text += `export interface ${display}Init {\n`;
    for (const field of record.fields) text += `  ${key(field.name)}${field.optional ? '?' : ''}: ${input(field)};\n`;
    text += '}\n\n';
  }
  for (const c of described) {
    const display = classNames[c.class];
    const members = [...c.properties.map((p) => p.name), ...c.commands.map((m) => m.name), ...c.children];
    const names = jsNames(members);
    const taken = new Set(Object.values(names));
    text += doc(c.doc, '');
    text += `export declare class ${display} {\n`;
    if (!c.constructors || c.constructors.length === 0) {
      text += '  /** Made by its parent (a child or a list item). */\n  private constructor();\n';
    }
    for (const k of c.constructors || []) {
      text += doc(k.doc, '  ') + `  constructor(loop: Loop${k.arguments.length ? ', ' + argsList(k.arguments, display) : ''});\n`;
      if (k.arguments.length) text += `  constructor(loop: Loop, options: ${optionsType(k.arguments, '', display)});\n`;
    }
    for (const p of c.properties) {
      const readonly = p.access === 'rw' ? '' : 'readonly ';
      text += doc(p.doc, '  ');
      if (p.access === 'rw' && p.type !== 'list') {
        text += `  get ${key(names[p.name])}(): ${out(p)};\n  set ${key(names[p.name])}(value: ${input(p)});\n`;
      } else {
        text += `  ${readonly}${key(names[p.name])}: ${out(p)};\n`;
      }
    }
    for (const m of c.commands) {
      const result = m.async ? `Promise<${out(m.result || { type: 'none' })}>` : out(m.result || { type: 'none' });
      const ret = result === 'undefined' ? 'void' : result;
      const signal = m.async ? 'signal?: AbortSignalLike; ' : '';
      text += doc(m.doc, '  ');
      text += `  ${key(names[m.name])}(${argsList(m.arguments)}${m.async ? `${m.arguments.length ? ', ' : ''}options?: { signal?: AbortSignalLike }` : ''}): ${ret};\n`;
      if (m.arguments.length || m.async) {
        text += `  ${key(names[m.name])}(options: ${optionsType(m.arguments, signal)}): ${ret};\n`;
      }
    }
    for (const child of c.children) {
      const childClass = c.child_classes ? classNames[c.child_classes[child]] : null;
      text += `  readonly ${key(names[child])}: ${childClass || 'MvvmObject'};\n`;
    }
    const models = new Map();
    for (const k of c.constructors || []) for (const a of k.arguments) if (a.type === 'object') models.set(a.name, a);
    for (const [name, a] of models) {
      if (taken.has(name)) continue;
      taken.add(name);
      text += `  /** The model this object was made over, or null. */\n  readonly ${key(name)}: ${input({ ...a, optional: false })} | null;\n`;
    }
    // The binding's own methods, where no member took the name (mvvm.close(obj)... otherwise).
    const events = [...c.properties.map((p) => [p.name, p.type === 'list' ? 'Splice<' + (classNames[p.item_class] || 'MvvmObject') + '>' : out(p)]),
      ...c.signals.map((s) => [s.name, out(s)])];
    const eventMap = `{ ${events.map(([n, t]) => `${key(n)}: ${t}; `).join('')}}`;
    if (!taken.has('close')) text += '  close(): boolean;\n';
    if (!taken.has('subscribe')) text += `  subscribe<K extends keyof ${display}Events>(name: K, fn: Listener<${display}Events[K], this>): Subscription;\n  subscribe(name: null, fn: Listener<unknown, this>): Subscription;\n`;
    if (!taken.has('on')) text += `  on<K extends keyof ${display}Events>(name: K, fn: Listener<${display}Events[K], this>): this;\n`;
    if (!taken.has('off')) text += `  off<K extends keyof ${display}Events>(name: K, fn: Listener<${display}Events[K], this>): this;\n`;
    if (!taken.has('changes')) text += `  changes<K extends keyof ${display}Events>(name: K): AsyncIterableIterator<[${display}Events[K], ChangeEvent<this>]>;\n`;
    if (!taken.has('describe')) text += '  describe(): Description;\n';
    if (!taken.has('snapshot')) text += '  snapshot(): Record<string, unknown>;\n';
    text += '  [Symbol.dispose](): void;\n';
    text += '}\n';
    text += `export interface ${display}Events ${eventMap}\n\n`;
  }
  text += '/** Every class and record of the library, as mvvm.load() gives them. */\n';
  text += 'export interface Classes {\n';
  for (const c of described) text += `  ${classNames[c.class]}: typeof ${classNames[c.class]};\n`;
  for (const name of Object.keys(records)) text += `  ${recordNames[name]}: typeof ${recordNames[name]};\n`;
  text += '}\n';
  return text;
}

function main(argv) {
  const args = argv.slice(2);
  const check = args.includes('--check');
  const moduleAt = args.indexOf('--module');
  const positional = args.filter((a, i) => !a.startsWith('--') && (moduleAt < 0 || i !== moduleAt + 1));
  if (positional.length !== 2) {
    process.stderr.write('usage: node gen_dts.js LIBRARY.so OUT.d.ts [--module SPECIFIER] [--check]\n');
    return 2;
  }
  const [libraryPath, outPath] = positional;
  const mvvm = require('./index.js');
  const lib = mvvm.load(libraryPath);
  const specifier = moduleAt >= 0 ? args[moduleAt + 1]
    : path.resolve(path.dirname(outPath)) === __dirname ? './index' : 'mvvm';
  const header = `// Generated by bindings/node/gen_dts.js from the description of ${path.basename(libraryPath)}: do not edit.\n` +
    `import type { Loop, MvvmObject, MvvmList, Splice, Subscription, Listener, ChangeEvent, Description, AbortSignalLike, ServiceRequest } from '${specifier}';\n\n`;
  const text = header + generate(lib.descriptions);
  if (check) {
    const current = fs.existsSync(outPath) ? fs.readFileSync(outPath, 'utf8') : '';
    if (current !== text) {
      process.stderr.write(`${outPath} is stale: run node bindings/node/gen_dts.js ${libraryPath} ${outPath}\n`);
      return 1;
    }
    return 0;
  }
  fs.writeFileSync(outPath, text);
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv);
module.exports = { generate };
