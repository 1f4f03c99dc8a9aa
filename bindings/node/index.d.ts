// The Node.js binding of libmvvm: the module's own API (index.js; index.mjs for ES modules, typed
// by index.d.mts). It names no library's classes: load(path) gives a library, typed by the
// declarations generated from its description (python3 -m mvvm_gen --dts, or a typed npm package
// made by mvvm_gen.package --npm): load<Classes>(path).

// TypeScript 4.8 (Debian's node-typescript) has no Symbol.dispose: declared here.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** An AbortSignal, declared by what the module uses of it (no DOM library needed): the module takes
 * a real AbortSignal only, and rejects the call of anything else that has this shape. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a host service's function is told beside the argument: the view model that asks (when
 * this module made it and it lives) and a way to withdraw the request unanswered. */
export interface ServiceRequest<ViewModel = MvvmObject> {
  readonly viewModel: ViewModel | null;
  cancel(): boolean;
}

export type LoopKind = 'manual' | 'virtual' | 'thread' | 'main';

/** A loop of a library (lib.Loop): new lib.Loop('manual') is driven by Node's event loop. */
export declare class Loop {
  constructor(kind?: LoopKind, options?: { ref?: boolean });
  readonly kind: LoopKind;
  readonly handle: bigint;
  readonly closed: boolean;
  dispatch(): number;
  advance(ms?: number): void;
  readonly now: number;
  readonly nextTimeout: number;
  ref(): this;
  unref(): this;
  close(): void;
  [Symbol.dispose](): void;
}

export interface ChangeEvent<Source = MvvmObject> {
  readonly kind: 'property' | 'signal' | 'splice';
  /** The property's or signal's JavaScript name. */
  readonly name: string;
  readonly source: Source;
}

export type Listener<T, Source = MvvmObject> = (value: T, event: ChangeEvent<Source>) => void;

/** A list's change: at index, removed items went and inserted came (items: those inserted). */
export declare class Splice<Item = MvvmObject> {
  private constructor();
  readonly index: number;
  readonly removed: number;
  readonly inserted: number;
  readonly items: readonly Item[];
}

/** A list of view models: read-only and array-like; its view model changes it. */
export declare class MvvmList<Item = MvvmObject> implements Iterable<Item> {
  private constructor();
  readonly [index: number]: Item | undefined;
  readonly length: number;
  at(index: number): Item | undefined;
  toArray(): Item[];
  map<U>(fn: (item: Item, index: number) => U): U[];
  subscribe(fn: Listener<Splice<Item>>): Subscription;
  [Symbol.iterator](): Iterator<Item>;
}

export declare class Subscription {
  private constructor();
  readonly active: boolean;
  /** True when this call ended a subscription that could still hear changes. */
  unsubscribe(): boolean;
  [Symbol.dispose](): void;
}

/** The base of every class a library's description makes. */
export declare class MvvmObject {
  protected constructor();
}

/** A class's description, as the library gives it (C names: mvvm_classes, docs/description.md). */
export interface Description {
  class: string;
  constructor: string | null;
  properties: unknown[];
  commands: unknown[];
  signals: unknown[];
  children: string[];
  [key: string]: unknown;
}

/** A loaded library: its classes and records by display name, and its own Loop. */
export declare class Library {
  private constructor();
  readonly path: string;
  readonly id: number;
  /** The libmvvm version it was built with ("0.5.0"). */
  readonly version: string;
  readonly descriptions: readonly Description[];
  readonly classes: Readonly<Record<string, new (...args: any[]) => unknown>>;
  readonly records: Readonly<Record<string, new (fields: any) => unknown>>;
  readonly Loop: typeof Loop;
  statusName(status: number): string;
  [name: string]: unknown;
}

/** The `code` of an error the module raises: its status's name, or MVVM_ERR_LOAD. */
export type ErrorCode =
  | 'MVVM_ERR_INVALID_HANDLE' | 'MVVM_ERR_WRONG_TYPE' | 'MVVM_ERR_NULL_POINTER' | 'MVVM_ERR_INVALID_ARGUMENT'
  | 'MVVM_ERR_UNKNOWN_NAME' | 'MVVM_ERR_READ_ONLY' | 'MVVM_ERR_TYPE_MISMATCH' | 'MVVM_ERR_WRONG_LOOP_KIND'
  | 'MVVM_ERR_UNKNOWN_REQUEST' | 'MVVM_ERR_INTERNAL' | 'MVVM_ERR_LOOP_RELEASED' | 'MVVM_ERR_COMMAND_FAILED'
  | 'MVVM_ERR_CANCELLED' | 'MVVM_ERR_BAD_REGISTRATION' | 'MVVM_ERR_WRONG_THREAD' | 'MVVM_ERR_LOAD';

/** Errors: one class per mvvm_status, with the status, its name as `code` and the library's
 * message. A value refused before it reaches the library is a TypeError or RangeError with the
 * same fields (code MVVM_ERR_INVALID_ARGUMENT). */
export declare class MvvmError extends Error {
  constructor(message: string, status?: number, statusName?: string, options?: { cause?: unknown });
  readonly status: number;
  readonly statusName: string;
  readonly code: ErrorCode | string;
}
export declare class InvalidHandleError extends MvvmError {}
export declare class ClosedError extends InvalidHandleError {}
export declare class WrongTypeError extends MvvmError {}
export declare class NullPointerError extends MvvmError {}
export declare class InvalidArgumentError extends MvvmError {}
export declare class UnknownNameError extends MvvmError {}
export declare class ReadOnlyError extends MvvmError {}
export declare class TypeMismatchError extends MvvmError {}
export declare class WrongLoopKindError extends MvvmError {}
export declare class UnknownRequestError extends MvvmError {}
export declare class InternalError extends MvvmError {}
export declare class LoopReleasedError extends ClosedError {}
export declare class CommandError extends MvvmError {}
export declare class CancelledError extends MvvmError {}
export declare class BadRegistrationError extends MvvmError {}
export declare class WrongThreadError extends MvvmError {}
/** A library that cannot be loaded (no such file, not a libmvvm library), or the addon missing. */
export declare class LoadError extends Error {
  readonly code: 'MVVM_ERR_LOAD';
}

/** Loads a library by its path: its classes typed by its generated declarations
 * (load<Classes>(path)). Loading one path twice gives the same library. */
export declare function load<Classes = Record<string, unknown>>(path: string): Library & Classes;

// The binding's operations, reachable whatever members a class has.
export declare function close(obj: object): boolean;
export declare function closed(obj: object): boolean;
export declare function handle(obj: object): bigint;
export declare function subscribe(obj: object, name: string | null, fn: Listener<any>): Subscription;
export declare function on<T extends object>(obj: T, name: string | null, fn: Listener<any>): T;
export declare function off<T extends object>(obj: T, name: string | null, fn: Listener<any>): T;
export declare function once<T extends object>(obj: T, name: string | null, fn: Listener<any>): T;
export declare function changes(obj: object, name?: string | null): AsyncIterableIterator<[unknown, ChangeEvent]>;
export declare function describe(obj: object): Description;
/** Every property's value as its getter gives it (a list as its items' ids), from one reading. */
export declare function snapshot(obj: object): Record<string, unknown>;
export declare function objectId(obj: object): number;
export declare function className(obj: object): string;
export declare function loop(obj: object): Loop | null;
/** The addon's own functions (for tests; not an API). */
export declare const addon: Record<string, (...args: any[]) => any>;

/** Where an exception thrown by a callback goes; by default it is an uncaught exception. */
export type ReportError = (error: unknown) => void;
/** The module object (require('mvvm'), the ES module's default export): every export above, and
 * reportError, which is settable here: mvvm.reportError = (error) => ... */
declare const mvvm: typeof import('./index') & { reportError: ReportError };
export default mvvm;
