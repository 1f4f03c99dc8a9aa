// The Node.js binding of libmvvm: the module's own API (index.js). A library's classes are
// declared by declarations generated from its description (python3 -m mvvm_gen --dts): the
// catalog's, those of the default library, in mvvm_catalog.d.ts, re-exported here.

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

/** A loop of the default library: new Loop('manual') is driven by Node's event loop. */
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
  readonly version: string;
  readonly descriptions: readonly Description[];
  readonly classes: Readonly<Record<string, new (...args: any[]) => unknown>>;
  readonly records: Readonly<Record<string, new (fields: any) => unknown>>;
  readonly Loop: typeof Loop;
  [name: string]: unknown;
}

/** Errors: one class per mvvm_status, with the status and the library's message. */
export declare class MvvmError extends Error {
  constructor(message: string, status?: number, statusName?: string, options?: { cause?: unknown });
  readonly status: number;
  readonly statusName: string;
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

/** Loads a library: its classes typed by its generated declarations (load<Classes>(path)). */
export declare function load<Classes = Record<string, unknown>>(path: string): Library & Classes;
/** The default library: MVVM_LIBRARY, this checkout's build, or libmvvm.so. */
export declare function library(): Library;
export declare function version(): string;

// The binding's operations, reachable whatever members a class has.
export declare function close(obj: object): boolean;
export declare function closed(obj: object): boolean;
export declare function handle(obj: object): bigint;
export declare function subscribe(obj: object, name: string | null, fn: Listener<any>): Subscription;
export declare function on<T extends object>(obj: T, name: string | null, fn: Listener<any>): T;
export declare function off<T extends object>(obj: T, name: string | null, fn: Listener<any>): T;
export declare function changes(obj: object, name?: string | null): AsyncIterableIterator<[unknown, ChangeEvent]>;
export declare function describe(obj: object): Description;
/** Every property's value as its getter gives it (a list as its items' ids), from one reading. */
export declare function snapshot(obj: object): Record<string, unknown>;
export declare function objectId(obj: object): number;
export declare function className(obj: object): string;
export declare function loop(obj: object): Loop | null;
/** Where an exception thrown by a callback goes; by default it is an uncaught exception. */
export declare let reportError: (error: unknown) => void;

// The default library's (the catalog's) classes.
export * from './mvvm_catalog';
