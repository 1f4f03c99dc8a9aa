// An ES module in TypeScript over the installed package (test_package.sh): checked by tsc --strict
// against the package's own declarations and those `mvvm_gen --dts` writes of the library, then
// run. Each @ts-expect-error in mistakes() is a planted mistake tsc must report, on its line, once
// its mark is taken away.
import mvvm, { load, MvvmError, type Library, type Subscription } from 'mvvm';
import * as namespace from 'mvvm';
import type { Classes as Sample } from './sample.js';

declare const process: { argv: string[] };
declare const console: { log(...values: unknown[]): void };

mvvm.reportError = (error: unknown) => console.log('reported:', error);
const sample = load<Sample>(process.argv[2] ?? '');
const library: Library = sample;
const loop = new sample.Loop('virtual');
const greeter = new sample.Greeter(loop, { name: 'Ada' });
const greeting: string = greeter.greeting;
greeter.on('greeting', (text: string) => console.log('heard:', text));
greeter.once('greeted', (text) => { const said: string = text; console.log('greeted:', said); });
const subscription: Subscription = greeter.subscribe('greetCount', (count: number) => console.log('count:', count));
greeter.name = 'Bob';
greeter.greet();
subscription.unsubscribe();
const profile = new sample.Profile(loop);
profile.close();
profile.load(1).catch((error: unknown) => {
  console.log('rejected:', error instanceof MvvmError ? error.code : error);
  console.log(greeting, greeter.greetCount, library.path === namespace.load(process.argv[2] ?? '').path);
  loop.close();
});

export function mistakes(): void {
  // @ts-expect-error: greetCount is read-only
  greeter.greetCount = 3;
  // @ts-expect-error: members are camelCase: there is no greet_count
  void greeter.greet_count;
  // @ts-expect-error: a name is a string
  greeter.name = 42;
  // @ts-expect-error: no such event
  greeter.on('greetings', () => {});
  // @ts-expect-error: an ES module's namespace is read-only: reportError is set on the default export
  namespace.reportError = () => {};
  // @ts-expect-error: the module has no default library: classes come from load()
  void mvvm.Greeter;
  // @ts-expect-error: an async command gives a Promise
  const tags: readonly string[] = profile.load(1);
  void tags;
}
