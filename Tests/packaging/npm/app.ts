// An ES module in TypeScript over the installed typed package (sample) and mvvm: tsc --strict
// passes on it, and reports each mistake planted in mistakes() once its mark is taken away.
import { Loop, Greeter, Address, Profile, library } from 'sample';
import mvvm, { MvvmError } from 'mvvm';

declare const console: { log(...values: unknown[]): void };

mvvm.reportError = (error: unknown) => console.log('reported:', error);
const loop = new Loop('virtual');
const greeter = new Greeter(loop, { name: 'Ada' });
const greeting: string = greeter.greeting;
const count: number = greeter.greetCount;
const address = new Address({ street: '1 Main St', city: 'Springfield' });
const zip: string | null = address.zipCode;
const profile = new Profile(loop);
profile.close();
profile.load(1).catch((error: unknown) => {
  console.log(greeting, count, zip, error instanceof MvvmError && error.code, library.version.length > 0);
  loop.close();
});

export function mistakes(): void {
  // @ts-expect-error: greetCount is read-only
  greeter.greetCount = 3;
  // @ts-expect-error: a record's field is missing
  void new Address({ street: 's' });
  // @ts-expect-error: members are camelCase
  void greeter.greet_count;
  // @ts-expect-error: an async command gives a Promise
  const tags: readonly string[] = profile.load(1);
  void tags;
}
