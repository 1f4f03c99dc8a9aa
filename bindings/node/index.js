'use strict';
// libmvvm for Node.js: the classes of a library made at run time from its description
// (mvvm_classes), over the Node-API addon (mvvm_node.c), as the Python package makes them. No
// library is loaded until asked for: load(path) gives one. docs/node.md is the guide; index.d.ts
// declares this module's own API; index.mjs gives it to ES modules.

const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');

// ------------------------------------------------------------------------------------------------
// Errors: one class per mvvm_status, each carrying the status, its name as `code` (as Node's own
// errors carry theirs) and the library's message. Every error this module throws has a `code`:
// a value refused before it reaches the library is a TypeError or RangeError with the status the
// library gives what it refuses (MVVM_ERR_INVALID_ARGUMENT).

class MvvmError extends Error {
  // A status's class gives its own status when none is given: new ReadOnlyError(message).
  constructor(message, status = new.target.status ?? 0, statusName = new.target.statusName ?? 'MVVM_OK', options) {
    super(message, options);
    this.status = status;
    this.statusName = statusName;
    this.code = statusName;
  }
  get name() { return this.constructor.name; }
}

const errorClasses = {};
function errorClass(status, className, statusName, base = MvvmError) {
  const made = { [className]: class extends base {} }[className];
  errorClasses[status] = made;
  made.status = status;
  made.statusName = statusName;
  made.code = statusName;
  return made;
}
const InvalidHandleError = errorClass(1, 'InvalidHandleError', 'MVVM_ERR_INVALID_HANDLE');
const ClosedError = { ClosedError: class extends InvalidHandleError {} }.ClosedError;
const errors = {
  MvvmError, InvalidHandleError, ClosedError,
  WrongTypeError: errorClass(2, 'WrongTypeError', 'MVVM_ERR_WRONG_TYPE'),
  NullPointerError: errorClass(3, 'NullPointerError', 'MVVM_ERR_NULL_POINTER'),
  InvalidArgumentError: errorClass(4, 'InvalidArgumentError', 'MVVM_ERR_INVALID_ARGUMENT'),
  UnknownNameError: errorClass(5, 'UnknownNameError', 'MVVM_ERR_UNKNOWN_NAME'),
  ReadOnlyError: errorClass(6, 'ReadOnlyError', 'MVVM_ERR_READ_ONLY'),
  TypeMismatchError: errorClass(7, 'TypeMismatchError', 'MVVM_ERR_TYPE_MISMATCH'),
  WrongLoopKindError: errorClass(8, 'WrongLoopKindError', 'MVVM_ERR_WRONG_LOOP_KIND'),
  UnknownRequestError: errorClass(9, 'UnknownRequestError', 'MVVM_ERR_UNKNOWN_REQUEST'),
  InternalError: errorClass(10, 'InternalError', 'MVVM_ERR_INTERNAL'),
  LoopReleasedError: errorClass(11, 'LoopReleasedError', 'MVVM_ERR_LOOP_RELEASED', ClosedError),
  CommandError: errorClass(12, 'CommandError', 'MVVM_ERR_COMMAND_FAILED'),
  CancelledError: errorClass(13, 'CancelledError', 'MVVM_ERR_CANCELLED'),
  BadRegistrationError: errorClass(14, 'BadRegistrationError', 'MVVM_ERR_BAD_REGISTRATION'),
  WrongThreadError: errorClass(15, 'WrongThreadError', 'MVVM_ERR_WRONG_THREAD'),
};
// A library that cannot be loaded, or the addon missing: no status of the library, a code of the
// binding's own (the addon's load() throws it too).
class LoadError extends Error {
  constructor(message, options) {
    super(message, options);
    this.code = 'MVVM_ERR_LOAD';
  }
  get name() { return 'LoadError'; }
}
errors.LoadError = LoadError;

function makeError(status, statusName, message) {
  const Made = errorClasses[status] || MvvmError;
  return new Made(message || statusName, status, statusName);
}

// A value or call refused before it reaches the library (ErrorClass: TypeError or RangeError),
// carrying the status the library gives what it refuses.
function refused(ErrorClass, message) {
  const error = new ErrorClass(message);
  error.status = 4;
  error.statusName = 'MVVM_ERR_INVALID_ARGUMENT';
  error.code = 'MVVM_ERR_INVALID_ARGUMENT';
  return error;
}

function closedError(message) { return new ClosedError(message, 1, 'MVVM_ERR_INVALID_HANDLE'); }

function loadAddon() {
  const tried = [];
  for (const candidate of [process.env.MVVM_NODE_ADDON, path.join(__dirname, 'mvvm.node'),
    path.join(__dirname, '..', '..', 'build', 'node', 'mvvm.node')]) {
    if (!candidate) continue;
    tried.push(candidate);
    if (fs.existsSync(candidate)) return require(candidate);
  }
  throw new LoadError(`mvvm: the addon is not built (make node); tried ${tried.join(', ')}`);
}

const addon = loadAddon();
const { jsNames, fieldName, libraryNames, OBJECT_METHODS } = require('./names.js');

// ------------------------------------------------------------------------------------------------
// Values: each member's type (from the description) decides its JavaScript form.

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function isU64(type) { return type && type.c_type === 'uint64_t'; }

function describeValue(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor ? `${/^[AEIOU]/.test(value.constructor.name) ? 'an' : 'a'} ${value.constructor.name}` : 'an object';
  return String(value);
}

// A value the library gave that JavaScript's type for its member cannot hold (an Int beyond
// ±2^53): a RangeError with the status of a value of the wrong type.
function unrepresentable(message) {
  const error = new RangeError(message);
  error.status = 7;
  error.statusName = 'MVVM_ERR_TYPE_MISMATCH';
  error.code = 'MVVM_ERR_TYPE_MISMATCH';
  return error;
}

// A value the library gave, in the member's JavaScript form.
function fromLibrary(lib, type, value, where) {
  if (value === null || value === undefined || !type) return value;
  switch (type.type) {
    case 'int':
      if (isU64(type)) return BigInt(value);
      if (typeof value === 'bigint') throw unrepresentable(`${where}: ${value} is beyond ±2^53, which a number cannot hold exactly`);
      return value;
    case 'array':
      return Object.freeze(value.map((item, i) => fromLibrary(lib, type.element, item, `${where}[${i}]`)));
    case 'date':
      return new Date(value * 1000); // seconds since 1970 (a double) as JavaScript's milliseconds
    default:
      return value; // records are made by makeRecord, bytes are Uint8Array already; a UUID, URL or
                    // Decimal is its text, as the library hands it out
  }
}

// String.prototype.isWellFormed, which Node 18 lacks: whether no surrogate stands alone.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isWellFormed = String.prototype.isWellFormed ? (text) => text.isWellFormed() : (text) => !LONE_SURROGATE.test(text);

// A JavaScript string may hold a lone surrogate (half of a UTF-16 pair), which is no Unicode text
// and which UTF-8 cannot carry: refused as the library refuses invalid UTF-8, never sent as U+FFFD.
function wellFormed(text, where) {
  if (isWellFormed(text)) return text;
  let at = 0;
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (character.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      throw new errors.InvalidArgumentError(`${where}: the string holds a lone surrogate (U+${code.toString(16).toUpperCase()} at index ${at}), which is no Unicode text`, 4, 'MVVM_ERR_INVALID_ARGUMENT');
    }
    at += character.length;
  }
  return text;
}

// A value for the library: the scalars checked here (a TypeError or RangeError naming the member);
// arrays and records element by element; the library checks the rest and names what it refuses.
function toLibrary(lib, type, value, where) {
  if (!type) return value;
  if (value === null || value === undefined) {
    if (value === undefined && type.type !== 'none') {
      throw refused(TypeError, `${where}: a value is needed (${typeText(type)})`);
    }
    return value;
  }
  switch (type.type) {
    case 'bool':
      if (typeof value !== 'boolean') throw refused(TypeError, `${where}: expected a boolean, got ${describeValue(value)}`);
      return value;
    case 'int':
      if (typeof value === 'bigint') {
        // An Int is read as a number: one a number cannot hold exactly could not be read back.
        if (!isU64(type) && (value > MAX_SAFE || value < -MAX_SAFE)) {
          throw refused(RangeError, `${where}: ${value}n is beyond ±2^53, which a number (an Int's value here) cannot hold exactly`);
        }
        if (isU64(type) && (value < 0n || value > 2n ** 64n - 1n)) {
          throw refused(RangeError, `${where}: ${value}n is beyond a UInt64`);
        }
        return value;
      }
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        if (typeof value === 'number' && Number.isFinite(value)) {
          throw refused(RangeError, `${where}: ${value} is not an integer`);
        }
        throw refused(TypeError, `${where}: expected an integer, got ${describeValue(value)}`);
      }
      if (!Number.isSafeInteger(value)) {
        throw refused(RangeError, `${where}: ${value} is beyond ±2^53, where a number is no longer exact${isU64(type) ? ' (pass a bigint)' : ''}`);
      }
      return value;
    case 'double':
      if (typeof value !== 'number') throw refused(TypeError, `${where}: expected a number, got ${describeValue(value)}`);
      return value;
    case 'string':
      if (typeof value !== 'string') throw refused(TypeError, `${where}: expected a string, got ${describeValue(value)}`);
      return wellFormed(value, where);
    case 'bytes':
      if (!(value instanceof Uint8Array)) throw refused(TypeError, `${where}: expected a Uint8Array, got ${describeValue(value)}`);
      return value;
    case 'date':
      // A Date, or seconds since 1970 as the library counts them.
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw refused(RangeError, `${where}: an invalid Date`);
        return value.getTime() / 1000;
      }
      if (typeof value !== 'number') throw refused(TypeError, `${where}: expected a Date or seconds since 1970, got ${describeValue(value)}`);
      return value;
    case 'url':
      if (value instanceof URL) return value.href;
      if (typeof value !== 'string') throw refused(TypeError, `${where}: expected a URL or its text, got ${describeValue(value)}`);
      return wellFormed(value, where);
    case 'uuid':
      if (typeof value !== 'string') throw refused(TypeError, `${where}: expected a UUID's text, got ${describeValue(value)}`);
      return wellFormed(value, where);
    case 'decimal':
      // Its text, which the library checks; an integer given as a bigint or an exact number too.
      if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return String(value);
      if (typeof value !== 'string') {
        throw refused(TypeError, `${where}: expected a decimal's text (or an integer), got ${describeValue(value)}`);
      }
      return wellFormed(value, where);
    case 'array':
      if (!Array.isArray(value)) throw refused(TypeError, `${where}: expected an array, got ${describeValue(value)}`);
      return value.map((item, i) => toLibrary(lib, type.element, item, `${where}[${i}]`));
    case 'record': {
      if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) {
        throw refused(TypeError, `${where}: expected a ${lib.recordDisplay(type.record)} record object, got ${describeValue(value)}`);
      }
      const record = lib.recordDescriptions[type.record];
      if (!record) return { ...value };
      // Fields by their JavaScript names, whatever they are: with no prototype, `constructor`,
      // `toString` and `__proto__` are keys like any other (a field the record has, else refused
      // as unknown), never an inherited member or the prototype's setter. The library is given
      // the fields' C names.
      const out = Object.create(null);
      for (const field of record.fields) {
        if (Object.hasOwn(value, field.js)) out[field.name] = toLibrary(lib, field, value[field.js], `${where}.${field.js}`);
      }
      for (const key of Object.keys(value)) {
        if (!record.fieldsByJs.has(key)) {
          wellFormed(key, `${where}: a field's name`);
          throw new errors.InvalidArgumentError(`${where}: the record ${lib.recordDisplay(type.record)} has no field ${JSON.stringify(key)} (its fields: ${record.fields.map((f) => f.js).join(', ')})`,
            4, 'MVVM_ERR_INVALID_ARGUMENT');
        }
      }
      return out;
    }
    default:
      return value;
  }
}

// Foundation's values as the library gives them back, so that a record the host makes equals the
// same record read back (issue 49: one value, one form). A UUID's text is handed out in upper case;
// a decimal as Decimal.description writes it: no exponent, no leading or trailing zeros, "0" for
// zero.
const UUID_TEXT = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DECIMAL_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;
const DECIMAL_DIGITS = 38; // Decimal's mantissa: at most 38 digits, times ten to -128...127

// A decimal's text (or an exact integer) as the library gives it back; null when the library would
// refuse it (no decimal, more digits or beyond the range of Decimal: it says why).
function decimalText(value) {
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value + 0) : null; // -0 is 0
  if (typeof value !== 'string') return null;
  const found = DECIMAL_TEXT.exec(value);
  if (!found) return null;
  const [, sign, whole, fraction = '', exponentText = '0'] = found;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = BigInt(exponentText) - BigInt(fraction.length);
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  // Within Decimal: its digits fit, and its exponent once they are padded to fit it.
  if (digits.length > DECIMAL_DIGITS || exponent < -128n || exponent > BigInt(127 + DECIMAL_DIGITS - digits.length)) return null;
  const at = digits.length + Number(exponent); // where the point goes
  let text;
  if (exponent >= 0n) text = digits + '0'.repeat(Number(exponent));
  else if (at > 0) text = `${digits.slice(0, at)}.${digits.slice(at)}`;
  else text = `0.${'0'.repeat(-at)}${digits}`;
  return sign + text;
}

// A value the host gives for a value of `type`, in the form the library gives it back: a date's
// seconds a Date, a UUID's text in upper case, a decimal's integer or text its canonical text, a
// URL its text; a record's fields by its class, an array's items each. A value of no form the
// library takes is kept as given: the library says why it refuses it when it is sent.
function adopt(lib, type, value) {
  if (value === null || value === undefined || !type) return value;
  switch (type.type) {
    case 'date': return typeof value === 'number' && Number.isFinite(value) ? new Date(value * 1000) : value;
    case 'uuid': return typeof value === 'string' && UUID_TEXT.test(value) ? value.toUpperCase() : value;
    case 'decimal': return decimalText(value) ?? value;
    case 'url': return value instanceof URL ? value.href : value;
    case 'record': {
      const Made = lib.recordByCName[type.record];
      return Made && isPlainObject(value) ? new Made(value) : value;
    }
    case 'array': return Array.isArray(value) ? Object.freeze(value.map((item) => adopt(lib, type.element, item))) : value;
    default: return value;
  }
}

// ------------------------------------------------------------------------------------------------
// A snapshot (mvvm_snapshot's JSON) read exactly: JSON.parse would round an integer beyond ±2^53,
// so each number is kept as its text until its member's type says what it is.

class JsonNumber {
  constructor(text) { this.text = text; }
}

function parseExactly(text) {
  let at = 0;
  const malformed = () => new errors.InternalError(`the library gave a snapshot that is no JSON (at ${at})`, 10, 'MVVM_ERR_INTERNAL');
  const skipSpace = () => { while (at < text.length && ' \t\n\r'.includes(text[at])) at++; };
  const expect = (character) => {
    skipSpace();
    if (text[at] !== character) throw malformed();
    at++;
  };
  // Whether the next character closes a container (taken if so).
  const closes = (character) => {
    skipSpace();
    if (text[at] !== character) return false;
    at++;
    return true;
  };
  const string = () => {
    skipSpace();
    if (text[at] !== '"') throw malformed();
    let end = at + 1;
    while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length) throw malformed();
    const literal = text.slice(at, end + 1);
    at = end + 1;
    return JSON.parse(literal);
  };
  const value = () => {
    skipSpace();
    const first = text[at];
    if (first === '"') return string();
    if (first === '[') {
      at++;
      const items = [];
      if (closes(']')) return items;
      do items.push(value()); while (closes(','));
      expect(']');
      return items;
    }
    if (first === '{') {
      at++;
      const fields = Object.create(null);
      if (closes('}')) return fields;
      do {
        const key = string();
        expect(':');
        fields[key] = value();
      } while (closes(','));
      expect('}');
      return fields;
    }
    for (const [word, meaning] of [['null', null], ['true', true], ['false', false]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return meaning;
      }
    }
    const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    number.lastIndex = at;
    const found = number.exec(text);
    if (!found) throw malformed();
    at = number.lastIndex;
    return new JsonNumber(found[0]);
  };
  const parsed = value();
  skipSpace();
  if (at !== text.length) throw malformed();
  return parsed;
}

// An integer's text as a number, or a bigint when a number cannot hold it exactly (fromLibrary
// then says what the member makes of it, as for a value the library hands out).
function exactInteger(text) {
  if (!/^-?[0-9]+$/.test(text)) return Number(text);
  const value = BigInt(text);
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

// A JSON value of the snapshot in the member's JavaScript form, as its getter gives it.
function fromSnapshot(lib, type, json, where) {
  if (json === null || json === undefined) return null;
  const kind = type ? type.type : null;
  if (json instanceof JsonNumber) {
    if (kind === 'int') return fromLibrary(lib, type, exactInteger(json.text), where);
    if (kind === 'double' || kind === 'date') return fromLibrary(lib, type, Number(json.text), where);
    if (kind === 'decimal') return json.text;
    return exactInteger(json.text);
  }
  if (Array.isArray(json)) {
    if (kind === 'bytes') return new Uint8Array(json.map((byte) => Number(byte.text)));
    const element = kind === 'array' ? type.element : kind === 'list' ? { type: 'int' } : null;
    return Object.freeze(json.map((item, i) => fromSnapshot(lib, element, item, `${where}[${i}]`)));
  }
  if (typeof json === 'object') {
    const Made = kind === 'record' ? lib.recordByCName[type.record] : null;
    if (!Made) {
      const fields = Object.create(null);
      for (const key of Object.keys(json)) fields[key] = fromSnapshot(lib, null, json[key], `${where}.${key}`);
      return Object.freeze(fields);
    }
    const fields = Object.create(null); // by JavaScript name (see defineFields)
    for (const field of Made.description.fields) {
      if (Object.hasOwn(json, field.name)) fields[field.js] = fromSnapshot(lib, field, json[field.name], `${where}.${field.js}`);
    }
    return recordOf(Made, fields);
  }
  return json;
}

function typeText(type) {
  if (!type) return 'unknown';
  let text = type.type === 'int' && isU64(type) ? 'uint64' : type.type;
  if (type.type === 'record') text = `record ${type.record}`;
  if (type.type === 'array') text = `array of ${typeText(type.element)}`;
  return type.optional ? `${text}?` : text;
}

// ------------------------------------------------------------------------------------------------
// Lifetimes: an object owns its handle; close() releases it, and so does the garbage collector.

// Held for an object: its library's id and its handle. For a loop: its state, whose onClose stops
// watching its fd (the fd goes with the loop) and lets Node go (a thread loop's hold).
const finalizers = new FinalizationRegistry((held) => {
  if (held.onClose) held.onClose();
  addon.release(held.id === undefined ? held.lib.id : held.id, held.handle);
});
const INTERNAL = Symbol('mvvm.internal');
// `using` scopes' Symbol.dispose, which Node has from 18.18 and 20.4 (Node's own name for it before).
const kDispose = Symbol.dispose || Symbol.for('nodejs.dispose');
const kState = Symbol('mvvm.state');

function state(obj) {
  const s = obj && obj[kState];
  if (!s) throw refused(TypeError, 'not an mvvm object');
  return s;
}

function liveHandle(obj) {
  const s = state(obj);
  if (s.closed) throw closedError(`${s.what} is closed`);
  return s.handle;
}

// Whether an object (or loop) is closed: by close(), or with its loop.
function isClosed(s) { return s.closed || Boolean(s.loop && state(s.loop).closed); }

// Closes an object or a loop; true when it was open. An object's iterations over changes end, and
// a loop's the iterations waiting for a change of its objects.
function closeObject(obj) {
  const s = obj[kState];
  if (!s || s.closed) return false;
  const wasOpen = !isClosed(s);
  s.closed = true;
  finalizers.unregister(s);
  if (s.onClose) s.onClose();
  if (s.hub) s.hub.end();
  if (s.iterators) for (const finish of [...s.iterators]) finish();
  addon.release(s.lib.id, s.handle);
  return wasOpen;
}

// Calls a user's callback: what it throws is reported as an uncaught exception, as Node reports
// an EventEmitter listener's, and never unwinds through the library.
// mvvm.reportError(error) can be replaced (a test, an app's own reporting).
function callUser(fn, thisArg, args) {
  try {
    fn.apply(thisArg, args);
  } catch (error) {
    report(error);
  }
}

const reporting = { reportError: (error) => { process.nextTick(() => { throw error; }); } };
function report(error) { reporting.reportError(error); }

// ------------------------------------------------------------------------------------------------
// Loops

const LOOP_KINDS = { manual: 0, thread: 1, virtual: 2, main: 3 };

function makeLoopClass(lib) {
  class Loop {
    // kind: 'manual' (driven by Node's event loop through its fd), 'virtual' (time moves with
    // advance()), 'thread' (the library's own thread; changes arrive on the JavaScript thread),
    // 'main' (the main loop, for @MainActor view models; driven as a manual one).
    constructor(kind = 'manual', options = {}) {
      if (!(kind in LOOP_KINDS)) throw refused(TypeError, `a loop kind is one of ${Object.keys(LOOP_KINDS).join(', ')}, not ${describeValue(kind)}`);
      const handle = addon.loopNew(lib.id, LOOP_KINDS[kind]);
      // iterators: the finish of each iteration over changes() waiting for a change of its objects.
      const s = { lib, handle, closed: false, what: `a ${kind} loop`, kind, watch: null, iterators: new Set() };
      Object.defineProperty(this, kState, { value: s });
      this.kind = kind;
      if (kind === 'manual' || kind === 'main') {
        const dispatch = () => { if (!s.closed) addon.loopDispatch(lib.id, handle); };
        s.watch = addon.watch(addon.loopFd(lib.id, handle), dispatch, options.ref !== false);
      } else if (kind === 'thread') {
        addon.keepAlive(options.ref === false ? 0 : 1);
        s.alive = options.ref !== false;
      }
      s.onClose = () => {
        if (s.watch) addon.unwatch(s.watch);
        s.watch = null;
        if (s.alive) addon.keepAlive(-1);
        s.alive = false;
      };
      // The state (which holds nothing of the Loop object) is what the finalizer gets.
      finalizers.register(this, s, s);
      Object.freeze(this);
    }
    get handle() { return state(this).handle; }
    get closed() { return state(this).closed; }
    // Runs the work due now (manual loops; Node does it by itself when the fd is readable).
    dispatch() { return addon.loopDispatch(lib.id, liveHandle(this)); }
    // Virtual loops: moves time forward by ms, running what falls due in time order.
    advance(ms = 0) { addon.loopAdvance(lib.id, liveHandle(this), ms); }
    get now() { return addon.loopNow(lib.id, liveHandle(this)); }
    // Milliseconds until the next work is due; -1 when nothing is scheduled.
    get nextTimeout() { return addon.loopNextTimeout(lib.id, liveHandle(this)); }
    // Whether the loop keeps Node running (manual and thread loops; true by default).
    ref() { this.#setRef(true); return this; }
    unref() { this.#setRef(false); return this; }
    #setRef(on) {
      const s = state(this);
      if (s.closed) return;
      if (s.watch) addon.watchRef(s.watch, on);
      if (s.kind === 'thread' && s.alive !== on) { addon.keepAlive(on ? 1 : -1); s.alive = on; }
    }
    // Releases the loop: its objects' calls fail with LoopReleasedError from then on.
    close() { closeObject(this); }
    [kDispose]() { closeObject(this); }
    get [Symbol.toStringTag]() { return `mvvm.Loop ${this.kind}`; }
    [util.inspect.custom](depth, options, inspect) {
      const s = state(this);
      const shown = s.closed ? { kind: this.kind, closed: true } : { kind: this.kind, now: addon.loopNow(lib.id, s.handle) };
      return `Loop ${inspect(shown, options)}`;
    }
  }
  return Loop;
}

// ------------------------------------------------------------------------------------------------
// Subscriptions
//
// An object's subscriptions ride on at most one subscription of the library per member, made for
// the member's first subscriber and ended after its last. The library's own work grows with the
// subscriptions an object has (each subscribe, unsubscribe and change goes over them); the
// module's does not: subscribing and unsubscribing cost the same however many there are, and a
// change costs the callbacks it calls. A subscription to every member rides on each member's, so
// that one order holds among all of a member's subscribers. The module keeps the library's rules
// among its own (notifications.md): subscribers are called in the order they subscribed, one
// made during a delivery hears the next change, one ended is called no more, and a newer value
// announced by a callback (which every subscriber has heard by then) ends the older one's delivery.
//
// The hub holds its object weakly: a subscription whose callback does not refer to its object
// leaves it to the garbage collector, whose finalizer releases it and so ends its subscriptions.

class Hub {
  constructor(obj) {
    const s = state(obj);
    this.lib = s.lib;
    this.handle = s.handle;
    this.what = s.what;
    this.loop = s.loop;
    this.cls = obj.constructor;
    this.source = new WeakRef(obj);
    this.members = [...Object.keys(this.cls.propertyTypes), ...Object.keys(this.cls.signalTypes)];
    this.named = new Map(); // member -> the Set of its subscribers' entries, in the order they subscribed
    this.every = new Set(); // the entries of subscribers to every member
    this.heard = new Map(); // member -> {handle, stamp}: the library's subscription, its last announcement's count
    this.made = 0;          // entries made: each entry's place in the order of subscription
    this.closed = false;    // its object is closed
  }

  // Whether nothing can be heard any more: its object closed or collected, or its loop closed.
  isOver() { return this.closed || !this.source.deref() || Boolean(this.loop && state(this.loop).closed); }

  // A subscriber of member (null: every member): its entry.
  add(member, fn) {
    if (this.loop && state(this.loop).closed) {
      throw new errors.LoopReleasedError(`the loop of ${this.what} is closed`, 11, 'MVVM_ERR_LOOP_RELEASED');
    }
    // since: the events the library had made; one made by then is not this subscriber's to hear.
    const entry = { fn, order: this.made + 1, since: addon.heardSoFar(), ended: false };
    if (member === null) {
      try {
        if (!this.every.size) for (const each of this.members) this.hear(each); // else heard already
      } catch (error) {
        this.forgetUnheard();
        throw error;
      }
      this.every.add(entry);
    } else {
      this.hear(member); // an unknown name is the library's UnknownNameError
      let entries = this.named.get(member);
      if (!entries) this.named.set(member, (entries = new Set()));
      entries.add(entry);
    }
    this.made += 1;
    return entry;
  }

  remove(entry, member) {
    entry.ended = true;
    entry.fn = null; // let go, though its Subscription may be kept
    if (member === null) {
      this.every.delete(entry);
      this.forgetUnheard();
      return;
    }
    const entries = this.named.get(member);
    if (!entries || !entries.delete(entry) || entries.size) return;
    this.named.delete(member);
    if (!this.every.size) this.forget(member);
  }

  // The library's subscription to member, made once.
  hear(member) {
    if (this.heard.has(member)) return;
    const heard = { handle: 0n, stamp: 0 };
    heard.handle = addon.subscribe(this.lib.id, this.handle, member, (kind, name, value, index, removed, inserted, number) =>
      this.deliver(heard, kind, name, value, index, removed, inserted, number));
    this.heard.set(member, heard);
  }

  forget(member) {
    const heard = this.heard.get(member);
    if (!heard) return;
    this.heard.delete(member);
    addon.unsubscribe(this.lib.id, heard.handle); // one ended with its object or loop is no error
  }

  // Ends the library's subscriptions no subscriber needs (at most one per member).
  forgetUnheard() {
    if (this.every.size) return;
    for (const member of [...this.heard.keys()]) if (!this.named.has(member)) this.forget(member);
  }

  // Its object is closed (the library ends its own subscriptions): every callback is let go.
  end() {
    this.closed = true;
    const letGo = (entry) => { entry.ended = true; entry.fn = null; };
    for (const entries of this.named.values()) entries.forEach(letGo);
    this.every.forEach(letGo);
    this.named.clear();
    this.every.clear();
    this.heard.clear();
  }

  // A change the library announced to the subscription of member (the library's event number):
  // each of the member's subscribers and each subscriber to every member, merged in the order
  // they subscribed, but those made after the event (during its delivery, or while a thread loop's
  // event waited in the addon's queue), which hear the next change.
  deliver(heard, kind, member, value, index, removed, inserted, number) {
    const source = this.source.deref();
    if (!source || this.closed) return;
    const mine = this.named.get(member);
    if (!mine && !this.every.size) return;
    const kindName = EVENT_KINDS[kind] || 'unknown';
    const name = this.cls.jsNames.get(member);
    let shown;
    if (kindName === 'splice') {
      const items = [];
      for (let i = 0; i < inserted; i++) items.push(wrapItem(this.lib, source, member, index + i));
      shown = new Splice(index, removed, inserted, Object.freeze(items));
    } else {
      const type = kindName === 'signal' ? this.cls.signalTypes[member] : this.cls.propertyTypes[member];
      try {
        shown = fromLibrary(this.lib, type, value, `${this.cls.name}.${name}`);
      } catch (error) {
        report(error);
        return;
      }
    }
    const stamp = ++heard.stamp;
    const own = mine ? mine.values() : null;
    const all = this.every.values();
    let a = own ? own.next().value : undefined;
    let b = all.next().value;
    for (;;) {
      if (a && a.since >= number) a = undefined; // and every later one
      if (b && b.since >= number) b = undefined;
      let entry;
      if (a && (!b || a.order < b.order)) {
        entry = a;
        a = own.next().value;
      } else if (b) {
        entry = b;
        b = all.next().value;
      } else {
        return;
      }
      if (entry.ended) continue;
      callUser(entry.fn, source, [shown, { kind: kindName, name, source }]);
      if (this.isOver() || (kindName === 'property' && heard.stamp !== stamp)) return;
    }
  }
}

class Subscription {
  #hub;
  #entry;
  #member;
  constructor(token, hub, entry, member) {
    if (token !== INTERNAL) throw refused(TypeError, 'subscriptions are made by subscribe()');
    this.#hub = hub;
    this.#entry = entry;
    this.#member = member;
  }
  get active() { return !this.#entry.ended && !this.#hub.isOver(); }
  // True when this call ended a subscription that could still hear changes.
  unsubscribe() {
    if (this.#entry.ended) return false;
    const wasActive = !this.#hub.isOver();
    this.#hub.remove(this.#entry, this.#member);
    return wasActive;
  }
  [kDispose]() { this.unsubscribe(); }
}

// A list's change: at index, removed items went and inserted came (items: the inserted items).
class Splice {
  constructor(index, removed, inserted, items) {
    this.index = index;
    this.removed = removed;
    this.inserted = inserted;
    this.items = items;
    Object.freeze(this);
  }
}

const EVENT_KINDS = { 1: 'property', 2: 'signal', 3: 'splice' };

// The C name of the property or signal an object's class has by the JavaScript name `name` (null:
// every member); another name is refused as the library refuses one (UnknownNameError), a C name
// with the JavaScript name it has.
function memberOf(obj, name) {
  if (name === null || name === undefined) return null;
  if (typeof name !== 'string') throw refused(TypeError, 'a member name is a string, or null for every member');
  const cls = obj.constructor;
  const member = cls.members.get(name);
  if (member !== undefined) return member;
  const renamed = cls.jsNames.get(name);
  throw new errors.UnknownNameError(`${cls.name} has no property or signal ${JSON.stringify(name)}${renamed && cls.members.has(renamed) ? ` (in JavaScript: ${renamed})` : ''}`,
    5, 'MVVM_ERR_UNKNOWN_NAME');
}

// Subscribes fn to the member of obj whose JavaScript name is name (null: every member).
function subscribe(obj, name, fn) {
  if (typeof fn !== 'function') throw refused(TypeError, 'subscribe(name, fn): fn must be a function');
  liveHandle(obj);
  return subscribeMember(obj, memberOf(obj, name), fn);
}

// Subscribes fn to the member of obj whose C name is member (null: every member).
function subscribeMember(obj, member, fn) {
  const s = state(obj);
  liveHandle(obj);
  if (!s.hub) s.hub = new Hub(obj);
  return new Subscription(INTERNAL, s.hub, s.hub.add(member, fn), member);
}

function wrapItem(lib, owner, listName, index) {
  const handle = addon.listItem(lib.id, state(owner).handle, listName, index);
  return lib.adopt(handle, owner.constructor.listItemClasses[listName], index, state(owner).loop);
}

// ------------------------------------------------------------------------------------------------
// Lists of child view models: read-only, array-like (list[i], length, iteration).

const kMember = Symbol('mvvm.member');

class MvvmList {
  // name: its property's JavaScript name; member: its C name.
  constructor(token, owner, name, member) {
    if (token !== INTERNAL) throw refused(TypeError, 'lists are read from their property');
    this.owner = owner;
    this.name = name;
    this[kMember] = member;
    Object.freeze(this);
    return new Proxy(this, {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && /^(0|[1-9][0-9]*)$/.test(prop)) {
          const index = Number(prop);
          return index < target.length ? target.at(index) : undefined;
        }
        return Reflect.get(target, prop, receiver);
      },
      has(target, prop) {
        if (typeof prop === 'string' && /^(0|[1-9][0-9]*)$/.test(prop)) return Number(prop) < target.length;
        return Reflect.has(target, prop);
      },
      set() { throw refused(TypeError, 'a list of view models is read-only: its view model changes it'); },
      defineProperty() { throw refused(TypeError, 'a list of view models is read-only'); },
      deleteProperty() { throw refused(TypeError, 'a list of view models is read-only'); },
    });
  }
  get length() { const s = state(this.owner); return addon.listCount(s.lib.id, liveHandle(this.owner), this[kMember]); }
  at(index) {
    const length = this.length;
    if (!Number.isInteger(index)) throw refused(TypeError, 'a list index is an integer');
    if (index < 0) index += length;
    if (index < 0 || index >= length) return undefined;
    return wrapItem(state(this.owner).lib, this.owner, this[kMember], index);
  }
  *[Symbol.iterator]() { for (let i = 0, n = this.length; i < n; i++) yield this.at(i); }
  toArray() { return [...this]; }
  map(fn) { return this.toArray().map(fn); }
  // Subscribes to the list's splices: fn(splice).
  subscribe(fn) {
    if (typeof fn !== 'function') throw refused(TypeError, 'subscribe(fn): fn must be a function');
    return subscribeMember(this.owner, this[kMember], fn);
  }
  get [Symbol.toStringTag]() { return 'mvvm.List'; }
  [util.inspect.custom](depth, options, inspect) {
    if (isClosed(state(this.owner))) return `MvvmList <closed>`;
    if (depth < 0) return `MvvmList(${this.length})`;
    return `MvvmList(${this.length}) ${inspect(this.toArray(), { ...options, depth: options.depth === null ? null : options.depth - 1 })}`;
  }
}

// ------------------------------------------------------------------------------------------------
// Objects

class MvvmObject {
  get [Symbol.toStringTag]() { return `mvvm.${this.constructor.name}`; }
  // console.log(obj): its class and its properties' values, from one reading of the library.
  [util.inspect.custom](depth, options, inspect) {
    const name = this.constructor.name;
    const s = this[kState];
    if (!s || isClosed(s)) return `${name} <closed>`;
    if (depth < 0) return `[${name}]`;
    let values;
    try {
      values = operations.snapshot(this);
    } catch (error) {
      return `${name} <${error.message}>`; // a value JavaScript cannot hold (an Int beyond ±2^53)
    }
    for (const [js, member] of this.constructor.members) {
      const type = this.constructor.propertyTypes[member];
      if (type && type.type === 'list') values[js] = new ListShown(values[js].length);
    }
    return `${name} ${inspect(values, { ...options, depth: options.depth === null ? null : options.depth - 1 })}`;
  }
}

// A list shown by util.inspect of its object: its length (its items are read from the list).
class ListShown {
  constructor(length) { this.length = length; }
  [util.inspect.custom]() { return `MvvmList(${this.length})`; }
}

// An iteration that could not start: its first next() rejects with why, and then it is done.
function failedIteration(error) {
  let told = false;
  const end = () => Promise.resolve({ value: undefined, done: true });
  return {
    next() {
      if (told) return end();
      told = true;
      return Promise.reject(error);
    },
    return() { told = true; return end(); },
    [Symbol.asyncIterator]() { return this; },
  };
}

// The listeners of on() and once() of an object, by member (C name, or '*' for every member):
// member -> fn -> its subscription.
function listenersOf(obj, member) {
  const s = state(obj);
  if (!s.listeners) s.listeners = new Map();
  const key = member === null ? '*' : member;
  let forMember = s.listeners.get(key);
  if (!forMember) s.listeners.set(key, (forMember = new Map()));
  return forMember;
}

// Adds fn as a listener of name (a function added twice is added once); with once, it hears the
// next change only. Gives the object, as EventEmitter's on and once do.
function listen(obj, name, fn, once) {
  if (typeof fn !== 'function') throw refused(TypeError, `${once ? 'once' : 'on'}(name, fn): fn must be a function`);
  liveHandle(obj);
  const member = memberOf(obj, name);
  const forMember = listenersOf(obj, member);
  if (forMember.has(fn)) return obj;
  const sub = subscribeMember(obj, member, !once ? fn : function heardOnce(...args) {
    sub.unsubscribe();
    if (forMember.get(fn) === sub) forMember.delete(fn);
    return fn.apply(this, args);
  });
  forMember.set(fn, sub);
  return obj;
}

// The binding's own operations, reachable whatever members a class has (a member `close` wins
// over MvvmObject.prototype.close, and then mvvm.close(obj) still closes).
const operations = {
  close(obj) { state(obj); return closeObject(obj); },
  closed(obj) { return isClosed(state(obj)); },
  handle(obj) { return state(obj).handle; },
  subscribe(obj, name, fn) { return subscribe(obj, name, fn); },
  // EventEmitter's way: on(name, fn) adds fn (adding it again does nothing), once(name, fn) adds
  // it for the next change only, off(name, fn) removes either; each gives the object. name: a
  // property or signal, or null for every one.
  on(obj, name, fn) { return listen(obj, name, fn, false); },
  once(obj, name, fn) { return listen(obj, name, fn, true); },
  off(obj, name, fn) {
    const forMember = listenersOf(obj, memberOf(obj, name));
    const sub = forMember.get(fn);
    if (sub) { sub.unsubscribe(); forMember.delete(fn); }
    return obj;
  },
  // Async iteration over changes: for await (const [value, event] of mvvm.changes(obj, 'count')).
  // Closing the object or its loop ends it (a for await loop waiting on it leaves); until it ends
  // it keeps its object alive. As an async generator does, it throws nothing itself: what stops it
  // from starting (a closed object, an unknown name) rejects its first next().
  changes(obj, name = null) {
    let s;
    let member;
    try {
      s = state(obj);
      liveHandle(obj);
      member = memberOf(obj, name);
    } catch (error) {
      return failedIteration(error);
    }
    const queue = [];
    const waiting = [];
    let done = false;
    const loopIterators = s.loop ? state(s.loop).iterators : null;
    let sub = null;
    const finish = () => {
      if (!done) { done = true; if (sub) sub.unsubscribe(); s.iterators.delete(finish); }
      if (loopIterators) loopIterators.delete(finish);
      while (waiting.length) waiting.shift()({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    };
    try {
      sub = subscribeMember(obj, member, (value, event) => {
        const w = waiting.shift();
        if (w) w({ value: [value, event], done: false });
        else queue.push([value, event]);
        if (!waiting.length && loopIterators) loopIterators.delete(finish);
      });
    } catch (error) {
      return failedIteration(error); // its loop closed
    }
    s.iterators = s.iterators || new Set();
    s.iterators.add(finish);
    return {
      next() {
        if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
        if (done || isClosed(state(obj)) || !sub.active) return finish();
        if (loopIterators) loopIterators.add(finish);
        return new Promise((resolve) => waiting.push(resolve));
      },
      return: finish,
      [Symbol.asyncIterator]() { return this; },
    };
  },
  // The library's description of the object's class (C names, as mvvm_classes gives them).
  describe(obj) { const s = state(obj); return JSON.parse(addon.describe(s.lib.id, liveHandle(obj))); },
  // Every property's value as its getter gives it (a list's as its items' ids), from one reading,
  // by JavaScript name.
  snapshot(obj) {
    const s = state(obj);
    const cls = obj.constructor;
    const values = parseExactly(addon.snapshot(s.lib.id, liveHandle(obj)));
    const out = {};
    for (const member of Object.keys(values)) {
      const name = cls.jsNames.get(member) || member;
      out[name] = fromSnapshot(s.lib, cls.propertyTypes[member], values[member], `${cls.name}.${name}`);
    }
    return out;
  },
  objectId(obj) { const s = state(obj); return addon.objectId(s.lib.id, liveHandle(obj)); },
  className(obj) { const s = state(obj); return addon.className(s.lib.id, liveHandle(obj)); },
  loop(obj) { return state(obj).loop; },
};

for (const name of OBJECT_METHODS) {
  Object.defineProperty(MvvmObject.prototype, name, {
    value: { [name](...args) { return operations[name](this, ...args); } }[name], writable: true, configurable: true,
  });
}
Object.defineProperty(MvvmObject.prototype, kDispose, {
  value: function () { closeObject(this); }, writable: true, configurable: true,
});

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Arguments by position or as one options object of named arguments, by their JavaScript names
// (with `signal` too, for an async command, when no argument is so named). names: the C names of
// those given by name (the library's), or null when given by position.
function takeArguments(args, declared, where, allowSignal) {
  let signal;
  const names = declared.map((a) => fieldName(a.name));
  const single = declared.length === 1 && declared[0].type === 'record';
  if (args.length === 1 && isPlainObject(args[0]) && !(single && !Object.keys(args[0]).every((k) => names.includes(k) || (allowSignal && k === 'signal')))) {
    const options = args[0];
    const keys = Object.keys(options);
    const asOptions = keys.every((k) => names.includes(k) || (allowSignal && k === 'signal' && !names.includes('signal')));
    if (asOptions && (declared.length > 1 || !single || keys.includes(names[0]))) {
      if (allowSignal && !names.includes('signal')) signal = options.signal;
      const given = declared.filter((a, i) => Object.hasOwn(options, names[i]) && options[names[i]] !== undefined);
      return { names: given.map((a) => a.name), values: given.map((a) => [a, options[fieldName(a.name)]]), signal };
    }
    if (!single && declared.length !== 1) {
      const unknown = keys.filter((k) => !names.includes(k));
      throw refused(TypeError, `${where}: no argument named ${unknown.join(', ')} (its arguments: ${names.join(', ') || 'none'})`);
    }
  }
  let positional = args;
  if (allowSignal && args.length === declared.length + 1 && isPlainObject(args[args.length - 1]) &&
      Object.keys(args[args.length - 1]).every((k) => k === 'signal')) {
    signal = args[args.length - 1].signal;
    positional = args.slice(0, -1);
  }
  if (positional.length > declared.length) {
    throw refused(TypeError, `${where} takes ${declared.length} argument${declared.length === 1 ? '' : 's'}, not ${positional.length}`);
  }
  return { names: null, values: positional.map((v, i) => [declared[i], v]), signal };
}

// One constructor argument for the library: a model as its handle, a host service's function as a
// new service (kept in services until the object is made), a value checked as its type says.
function constructorArgument(lib, display, classNames, arg, value, models, services) {
  const where = `new ${display}: argument ${fieldName(arg.name)}`;
  if (arg.type === 'object') {
    // Of another class: the library says so (WrongTypeError).
    if (!(value instanceof MvvmObject) || state(value).lib !== lib) {
      throw refused(TypeError, `${where}: expected a ${(arg.classes || []).map((c) => classNames[c]).join(' or ')} of this library, got ${describeValue(value)}`);
    }
    models.push(value);
    return addon.objectValue(liveHandle(value));
  }
  if (arg.type === 'service') {
    if (typeof value !== 'function') throw refused(TypeError, `${where}: a host service is a function (argument, request) => answer or a Promise of it`);
    const service = addon.serviceNew(lib.id, (vm, request, argument) => answer(lib, value, vm, request, argument, arg));
    services.push(service);
    return addon.objectValue(service);
  }
  return toLibrary(lib, arg, value, where);
}

function makeClass(lib, described, classNames) {
  const display = classNames[described.class];
  const names = jsNames([...described.properties.map((p) => p.name), ...described.commands.map((c) => c.name),
    ...described.children, ...described.signals.map((g) => g.name)]);
  const ctorArgs = new Map();
  for (const c of described.constructors || []) for (const a of c.arguments) if (!ctorArgs.has(a.name)) ctorArgs.set(a.name, a);

  const Made = {
    [display]: class extends MvvmObject {
      constructor(loop, ...args) {
        super();
        let handle;
        let models = [];
        const services = [];
        if (loop === INTERNAL) {
          handle = args[0];
          loop = args[1];
        } else {
          if (!described.constructors || described.constructors.length === 0) {
            throw refused(TypeError, `${display} has no constructor: its parent makes it (a child or a list item)`);
          }
          if (!(loop instanceof lib.Loop)) {
            throw refused(TypeError, `new ${display}(loop, ...): the first argument is a Loop of this library (mvvm.Loop)`);
          }
          // By name: the library picks the constructor whose arguments these name. By position:
          // the first constructor of that many arguments whose types take them.
          const taken = takeArguments(args, [...ctorArgs.values()], `new ${display}`, false);
          const cNames = taken.names;
          let candidates = [taken.values.map(([arg]) => arg)];
          if (!cNames) {
            candidates = described.constructors.filter((k) => k.arguments.length === args.length).map((k) => k.arguments);
            if (candidates.length === 0) {
              const counts = [...new Set(described.constructors.map((k) => k.arguments.length))].join(' or ');
              throw refused(TypeError, `new ${display}(loop, ...) takes ${counts} argument(s) after the loop, not ${args.length}`);
            }
          }
          const given = taken.values.map(([, value]) => value);
          let values;
          let firstError = null;
          for (const declared of candidates) {
            try {
              values = declared.map((arg, i) => constructorArgument(lib, display, classNames, arg, given[i], models, services));
              break;
            } catch (error) {
              for (const service of services.splice(0)) addon.release(lib.id, service);
              models = [];
              firstError = firstError || error;
            }
          }
          if (!values) throw firstError;
          try {
            handle = addon.newObject(lib.id, liveHandle(loop), described.class, cNames, values);
          } finally {
            // The service's function lives on while a view model made with it does.
            for (const service of services) addon.release(lib.id, service);
          }
        }
        const s = { lib, handle, closed: false, what: `a ${display}`, loop, models, children: new Map(), lists: new Map() };
        Object.defineProperty(this, kState, { value: s });
        if (services.length) remember(lib.objects, handle, this);
        finalizers.register(this, { id: lib.id, handle }, s);
      }
    },
  }[display];

  Made.cName = described.class;
  Made.description = described;
  // By C name (the library's): each property's and signal's type, a list's item class.
  Made.propertyTypes = Object.fromEntries(described.properties.map((p) => [p.name, p]));
  Made.signalTypes = Object.fromEntries(described.signals.map((p) => [p.name, p]));
  Made.listItemClasses = {};
  // C name -> JavaScript name, of every member; JavaScript name -> C name, of those subscribed to.
  Made.jsNames = new Map(Object.entries(names));
  Made.members = new Map([...described.properties, ...described.signals].map((m) => [names[m.name], m.name]));
  const proto = Made.prototype;

  for (const prop of described.properties) {
    const where = `${display}.${names[prop.name]}`;
    if (prop.type === 'list') {
      Made.listItemClasses[prop.name] = prop.item_class;
      Object.defineProperty(proto, names[prop.name], {
        get() {
          const s = state(this);
          let list = s.lists.get(prop.name);
          if (!list) { list = new MvvmList(INTERNAL, this, names[prop.name], prop.name); s.lists.set(prop.name, list); }
          return list;
        },
        set() { throw refused(TypeError, `${where} is a list of view models: read-only`); },
        enumerable: true, configurable: true,
      });
      continue;
    }
    Object.defineProperty(proto, names[prop.name], {
      get() { return fromLibrary(lib, prop, addon.get(lib.id, liveHandle(this), prop.name), where); },
      set(value) { addon.set(lib.id, liveHandle(this), prop.name, toLibrary(lib, prop, value, where)); },
      enumerable: true, configurable: true,
    });
  }
  for (const cmd of described.commands) {
    const where = `${display}.${names[cmd.name]}`;
    const method = {
      [names[cmd.name]](...args) {
        if (cmd.async) {
          // A Promise-returning method rejects, never throws: a closed object, a wrong argument or
          // a signal that is no AbortSignal is refused so, before the command starts.
          try {
            const taken = takeArguments(args, cmd.arguments, where, true);
            const values = taken.values.map(([arg, value]) => toLibrary(lib, arg, value, `${where}: argument ${fieldName(arg.name)}`));
            return callAsync(lib, this, cmd, where, taken.names, values, taken.signal);
          } catch (error) {
            return Promise.reject(error);
          }
        }
        const handle = liveHandle(this);
        const taken = takeArguments(args, cmd.arguments, where, false);
        const values = taken.values.map(([arg, value]) => toLibrary(lib, arg, value, `${where}: argument ${fieldName(arg.name)}`));
        return fromLibrary(lib, cmd.result, addon.call(lib.id, handle, cmd.name, taken.names, values), `${where}'s result`);
      },
    }[names[cmd.name]];
    Object.defineProperty(proto, names[cmd.name], { value: method, writable: true, configurable: true });
  }
  for (const child of described.children) {
    const childClass = described.child_classes ? described.child_classes[child] : null;
    Object.defineProperty(proto, names[child], {
      get() {
        const s = state(this);
        let made = s.children.get(child);
        if (!made || state(made).closed) {
          made = lib.adopt(addon.child(lib.id, liveHandle(this), child), childClass, null, s.loop);
          s.children.set(child, made);
        }
        return made;
      },
      enumerable: true, configurable: true,
    });
  }
  // The models an object was made over (timer, model), unless a member or the binding has the name.
  for (const [cName, arg] of ctorArgs) {
    const name = fieldName(cName);
    if (arg.type !== 'object' || name in proto) continue;
    Object.defineProperty(proto, name, {
      get() { return state(this).models.find((m) => (arg.classes || []).includes(m.constructor.cName)) || null; },
      enumerable: false, configurable: true,
    });
  }
  return Made;
}

// A host service's request: fn(argument) gives the answer, or a Promise of it.
function answer(lib, fn, vmHandle, request, argument, arg) {
  const complete = (result) => {
    try {
      addon.complete(lib.id, request, toLibrary(lib, arg.result ? { type: arg.result } : null, result, 'a service answer'));
    } catch (error) {
      if (!(error instanceof UnknownRequestError || error instanceof ClosedError)) report(error);
    }
  };
  const fail = (error) => { addon.release(lib.id, request); report(error); };
  const known = lib.objects.get(vmHandle);
  // The request: the view model that asks (when this module made it and it lives), and a way to
  // withdraw the request unanswered.
  const about = Object.freeze({
    viewModel: (known && known.deref()) || null,
    cancel: () => addon.release(lib.id, request) === 0,
  });
  let result;
  try {
    result = fn(argument, about);
  } catch (error) {
    fail(error);
    return;
  }
  if (result && typeof result.then === 'function') result.then(complete, fail);
  else complete(result);
}
const { UnknownRequestError } = errors;

// Whether value is an AbortSignal: its own `aborted` getter says (a look-alike, or an object made
// from AbortSignal.prototype, is refused by it), so that the signal a call listens to is one that
// tells of an abort, and nothing about it can fail once the command has started.
const signalAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get;
function isAbortSignal(value) {
  if (value === null || typeof value !== 'object') return false;
  try {
    signalAborted.call(value);
    return true;
  } catch {
    return false;
  }
}

// Starts an async command of obj (the caller turns what this throws into a rejection): the command
// runs only once everything it was given is known good. The call keeps obj alive until it ends.
function callAsync(lib, obj, cmd, where, names, values, signal) {
  const handle = liveHandle(obj);
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw refused(TypeError, `${where}: signal must be an AbortSignal, got ${describeValue(signal)}`);
  }
  if (signal && signalAborted.call(signal)) {
    return Promise.reject(new errors.CancelledError(`${where} was cancelled before it started`, 13, 'MVVM_ERR_CANCELLED', { cause: signal.reason }));
  }
  return new Promise((resolve, reject) => {
    let call = null;
    let ended = false;
    let running = obj; // held by done (which the addon holds) while the call runs
    const onAbort = () => { if (!ended && call !== null) addon.cancel(lib.id, call); };
    const done = (status, result, message) => {
      ended = true;
      running = null;
      if (signal) EventTarget.prototype.removeEventListener.call(signal, 'abort', onAbort);
      if (status === 0) {
        try { resolve(fromLibrary(lib, cmd.result, result, `${where}'s result`)); } catch (error) { reject(error); }
      } else {
        const error = makeError(status, lib.statusName(status), message);
        if (status === 13 && signal && signalAborted.call(signal)) error.cause = signal.reason;
        reject(error);
      }
    };
    // Listening first (EventTarget's own method: the signal's own properties are not asked), so
    // that nothing is left to fail once the command runs.
    if (signal) EventTarget.prototype.addEventListener.call(signal, 'abort', onAbort, { once: true });
    try {
      call = addon.callAsync(lib.id, handle, cmd.name, names, values, done);
    } catch (error) {
      if (signal) EventTarget.prototype.removeEventListener.call(signal, 'abort', onAbort);
      throw error; // the Promise rejects with it
    }
    // Aborted while the command started (by a callback it caused): cancelled now.
    if (signal && !ended && signalAborted.call(signal)) addon.cancel(lib.id, call);
  });
}

// ------------------------------------------------------------------------------------------------
// Libraries

const libraries = new Map();

class Library {
  constructor(token, file) {
    if (token !== INTERNAL) throw refused(TypeError, 'use mvvm.load(path)');
    this.path = file;
    this.id = addon.load(file);
    this.version = addon.version(this.id);
    const described = JSON.parse(addon.classes(this.id));
    this.descriptions = described;
    this.classes = {};
    this.records = {};
    this.recordDescriptions = {};
    this.byCName = {};
    this.recordByCName = {};
    this.items = new Map(); // object id -> WeakRef of a list item's object: one object per item
    this.objects = new Map(); // handle -> WeakRef of an object made with a host service: whom a request is about
    this.Loop = makeLoopClass(this);
    const names = libraryNames(described);
    const classNames = names.classes;
    for (const [name, described] of Object.entries(names.recordDescriptions)) {
      // The record's description as the module uses it: each field with its JavaScript name.
      const fields = described.fields.map((field) => ({ ...field, js: fieldName(field.name) }));
      const record = { ...described, fields, fieldsByJs: new Set(fields.map((field) => field.js)) };
      this.recordDescriptions[name] = record;
      const display = names.records[name];
      const lib = this;
      // new Address({street, city}): its fields by JavaScript name, each as the library gives it
      // back (adopt), an optional one left out null: it equals the same record read back.
      const Made = {
        [display]: class {
          constructor(given) {
            if (given === null || typeof given !== 'object') {
              throw refused(TypeError, `new ${display}(fields): fields is an object of its fields by name (${fields.map((f) => f.js).join(', ')})`);
            }
            const values = Object.create(null); // a field may be named `constructor` (see defineFields)
            for (const field of fields) {
              if (Object.hasOwn(given, field.js) && given[field.js] !== undefined) values[field.js] = adopt(lib, field, given[field.js]);
              else if (field.optional) values[field.js] = null;
            }
            for (const key of Object.keys(given)) if (!record.fieldsByJs.has(key)) values[key] = given[key]; // refused when sent
            defineFields(this, values);
            Object.freeze(this);
          }
        },
      }[display];
      Made.cName = name;
      Made.description = record;
      this.records[display] = Made;
      this.recordByCName[name] = Made;
    }
    for (const c of described) {
      const Made = makeClass(this, c, classNames);
      this.classes[classNames[c.class]] = Made;
      this.byCName[c.class] = Made;
    }
    for (const [name, Made] of Object.entries({ ...this.classes, ...this.records })) {
      if (!(name in this)) this[name] = Made;
    }
  }
  statusName(status) { return addon.statusName(this.id, status); }
  recordDisplay(name) { const R = this.recordByCName[name]; return R ? R.name : name; }
  // A record value from the library: a frozen object of its record's class.
  makeRecord(name, fields) {
    const Made = this.recordByCName[name];
    if (!Made) throw new errors.InternalError(`the library gave a record ${name} its description does not name`, 10, 'MVVM_ERR_INTERNAL');
    const values = Object.create(null); // a field may be named `constructor` (see defineFields)
    Made.description.fields.forEach((field, i) => {
      values[field.js] = fromLibrary(this, field, fields[i], `${Made.name}.${field.js}`);
    });
    return recordOf(Made, values);
  }
  // Wraps a new handle of class cName in its class (a child's or a list item's); a list item
  // already wrapped and still alive is that object (its new handle released).
  adopt(handle, cName, listIndex, loop) {
    const Made = this.byCName[cName] || this.byCName[addon.className(this.id, handle)];
    if (listIndex !== null && listIndex !== undefined) {
      const id = addon.objectId(this.id, handle);
      const known = this.items.get(id);
      const alive = known && known.deref();
      if (alive && !state(alive).closed) {
        addon.release(this.id, handle);
        return alive;
      }
      const made = new Made(INTERNAL, handle, loop || null);
      remember(this.items, id, made);
      return made;
    }
    return new Made(INTERNAL, handle, loop || null);
  }
}

// A record of class Made from values in their JavaScript form already (the library's): made as its
// constructor makes one, without adopting each value again.
function recordOf(Made, values) {
  const record = Object.create(Made.prototype);
  defineFields(record, values);
  return Object.freeze(record);
}

// A record's fields as its own properties, by definition: assigning (as Object.assign does) would
// set the prototype for a field named `__proto__`.
function defineFields(record, fields) {
  for (const key of Object.keys(fields)) {
    Object.defineProperty(record, key, { value: fields[key], enumerable: true, writable: true, configurable: true });
  }
}

// A map of weak references: its dead entries are swept whenever it has doubled since the last
// sweep, so it stays as large as what lives, give or take a factor of two.
const swept = new WeakMap();
function remember(map, key, obj) {
  map.set(key, new WeakRef(obj));
  if (map.size >= 2 * (swept.get(map) || 32)) {
    for (const [k, ref] of map) if (!ref.deref()) map.delete(k);
    swept.set(map, map.size);
  }
}

function recordMaker(libraryId, name, fields) {
  for (const lib of libraries.values()) if (lib.id === libraryId) return lib.makeRecord(name, fields);
  return Object.freeze(fields);
}

addon.init(makeError, recordMaker);

// load(path): a library's classes; loading one path twice gives the same Library. A library that
// cannot be loaded is a LoadError (code MVVM_ERR_LOAD) saying why.
function load(file) {
  if (typeof file !== 'string') throw refused(TypeError, 'load(path): path is a string');
  const resolved = path.resolve(file);
  let lib = libraries.get(resolved);
  if (!lib) {
    try {
      lib = new Library(INTERNAL, resolved);
    } catch (error) {
      if (error && error.code === 'MVVM_ERR_LOAD' && !(error instanceof LoadError)) throw new LoadError(error.message);
      throw error;
    }
    for (const other of libraries.values()) if (other.id === lib.id) return other;
    libraries.set(resolved, lib);
  }
  return lib;
}

// Where an exception a callback throws goes (reportError): settable on the module object
// (require('mvvm').reportError = fn, or the ES module's default export), which ES modules'
// namespaces cannot be.
const api = {
  load, Library, MvvmObject, MvvmList, Subscription, Splice, ...errors, ...operations, addon,
};
Object.defineProperty(api, 'reportError', {
  get() { return reporting.reportError; },
  set(fn) {
    if (typeof fn !== 'function') throw refused(TypeError, 'reportError is a function (error) => void');
    reporting.reportError = fn;
  },
  enumerable: true,
});
// `import mvvm from 'mvvm'` and TypeScript's default import of this CommonJS module.
Object.defineProperty(api, 'default', { value: api, enumerable: false });

module.exports = api;
