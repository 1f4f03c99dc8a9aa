'use strict';
// JavaScript names of what a library registers, by one rule for the module (index.js) and its
// declarations (`python3 -m mvvm_gen --dts`): members keep their C names; the few that would break
// a JavaScript object (a member `then` would make every object a thenable, `constructor` its
// prototype's link) take a trailing underscore, as many as it takes; a class or record is its
// display name. The rule's data (the reserved names, the module's own names, the suffix) is the
// generator's tools/mvvm_gen/naming-js.json, read here, so that both name alike.

const RULE = require('../../tools/mvvm_gen/naming-js.json');
const RESERVED = new Set(RULE.reserved);
const SUFFIX = RULE.suffix;

// The names the module itself gives beside a library's classes: a class or record so named takes
// a trailing underscore.
const MODULE_NAMES = RULE.module_names;

// The binding's own methods on every object (a member so named wins the name).
const OBJECT_METHODS = RULE.object_methods;

function camel(name) { return name.split('_').map((p) => p.slice(0, 1).toUpperCase() + p.slice(1)).join(''); }

// Each of names (a class's members) -> its JavaScript name.
function jsNames(names) {
  const given = {};
  const used = new Set(names.filter((n) => !RESERVED.has(n)));
  for (const name of names) {
    let js = name;
    if (RESERVED.has(name)) {
      while (RESERVED.has(js) || used.has(js)) js += SUFFIX;
      used.add(js);
    }
    given[name] = js;
  }
  return given;
}

// The JavaScript names of a library's classes and records (by C name), none of them the module's.
function libraryNames(described) {
  const used = new Set(MODULE_NAMES);
  const give = (display) => { let name = display; while (used.has(name)) name += SUFFIX; used.add(name); return name; };
  const classes = {};
  const records = {};
  const recordDescriptions = {};
  for (const c of described) classes[c.class] = give(c.display || camel(c.class));
  for (const c of described) {
    for (const [name, record] of Object.entries(c.records || {})) {
      if (records[name]) continue;
      recordDescriptions[name] = record;
      records[name] = give(record.display || camel(name));
    }
  }
  return { classes, records, recordDescriptions };
}

module.exports = { RESERVED, SUFFIX, MODULE_NAMES, OBJECT_METHODS, camel, jsNames, libraryNames };
