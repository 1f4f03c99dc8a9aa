'use strict';
// JavaScript names of what a library registers, by one rule for the module (index.js) and the
// declarations the generator writes (`python3 -m mvvm_gen --dts`): a member, argument or record
// field is its C name in camelCase; the few members that would break a JavaScript object (a member
// `then` would make every object a thenable, `constructor` its prototype's link) take a trailing
// underscore, as many as it takes; a class or record is its display name. The rule's data (the
// case, the reserved names, the module's own names, the suffix) is naming.json beside this file,
// which the generator reads too, so that both name alike.

const RULE = require('./naming.json');
const RESERVED = new Set(RULE.reserved);
const SUFFIX = RULE.suffix;

// The names the module itself gives beside a library's classes: a class or record so named takes
// a trailing underscore.
const MODULE_NAMES = RULE.module_names;

// The binding's own methods on every object (a member so named wins the name).
const OBJECT_METHODS = RULE.object_methods;

// A class's C name as a class name, when its description gives no display name.
function pascal(name) { return name.split('_').map((p) => p.slice(0, 1).toUpperCase() + p.slice(1)).join(''); }

// A C name (lower_snake) as JavaScript names a member, argument or field: an underscore before a
// letter becomes that letter in upper case; any other underscore stays, so that no two C names
// share a JavaScript name (`greet_count` -> `greetCount`, `line_2` stays).
const CASES = {
  camel: (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase()),
  snake: (name) => name,
};
const memberCase = CASES[RULE.member_case];
if (!memberCase) throw new Error(`naming.json: member_case is one of ${Object.keys(CASES).join(', ')}, not ${RULE.member_case}`);

// Each of names (a class's members: properties, commands, children, signals) -> its JavaScript name.
function jsNames(names) {
  const given = {};
  const cased = names.map(memberCase);
  const used = new Set(cased.filter((n) => !RESERVED.has(n)));
  names.forEach((name, i) => {
    let js = cased[i];
    if (RESERVED.has(js)) {
      while (RESERVED.has(js) || used.has(js)) js += SUFFIX;
      used.add(js);
    }
    given[name] = js;
  });
  return given;
}

// A record field's or an argument's JavaScript name: its case alone (a record is a plain frozen
// object, whose field `constructor` is a field like any other; an argument is an options key).
function fieldName(name) { return memberCase(name); }

// The JavaScript names of a library's classes and records (by C name), none of them the module's.
function libraryNames(described) {
  const used = new Set(MODULE_NAMES);
  const give = (display) => { let name = display; while (used.has(name)) name += SUFFIX; used.add(name); return name; };
  const classes = {};
  const records = {};
  const recordDescriptions = {};
  for (const c of described) classes[c.class] = give(c.display || pascal(c.class));
  for (const c of described) {
    for (const [name, record] of Object.entries(c.records || {})) {
      if (records[name]) continue;
      recordDescriptions[name] = record;
      records[name] = give(record.display || pascal(name));
    }
  }
  return { classes, records, recordDescriptions };
}

module.exports = { RESERVED, SUFFIX, MODULE_NAMES, OBJECT_METHODS, pascal, jsNames, fieldName, libraryNames };
