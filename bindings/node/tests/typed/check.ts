// Checked by tsc --strict (typed.test.js): the declarations of the module (index.d.ts, as 'mvvm'),
// of the catalog (examples/catalog/mvvm_catalog.d.ts) and of a user's package (sample.d.ts,
// generated from Tests/outside's libsample.so). Each @ts-expect-error is a planted mistake tsc must
// report.
import * as mvvm from 'mvvm';
import mvvmModule from 'mvvm';
import type { Classes as Catalog } from '../../../../examples/catalog/mvvm_catalog';
import type { Classes as Sample } from './sample';

const catalog = mvvm.load<Catalog>(process.env.MVVM_CATALOG_LIBRARY ?? '');
const loop = new catalog.Loop('virtual');
const timer = new catalog.CountDownTimer(loop, 3);
const vm = new catalog.TimerViewModel(loop, { timer });
const seconds: number = timer.remainingTime;
vm.player.tapped('start');
vm.isShowAlert = false;
timer.subscribe('count', (value: number) => { void value; });
const sub: mvvm.Subscription = timer.subscribe(null, () => {});
sub.unsubscribe();
const page = new catalog.CounterPageViewModel(loop, 5n);
const label: string = page.firstCounter.label;
const sw = new catalog.StopWatch(loop);
const state: 'startable' | 'stoppable' | 'resumable' = sw.state;
const signUp = new catalog.SignUpViewModel(loop, async (userId: string, request) => userId.length > 3 && request.viewModel?.password !== '');
signUp.userId = 'abc';
const welcome = new catalog.WelcomeViewModel(loop);
welcome.on('onShowText', (text: string) => { void text; });
timer.once('isDoing', (doing: boolean) => { void doing; });
async function firstLeft(): Promise<number> {
  for await (const [left, event] of timer.changes('remainingTime')) { void event.name; return left; }
  return -1;
}
mvvmModule.reportError = (error: unknown) => { void error; };
timer[Symbol.dispose]();

// @ts-expect-error: a read-only property
timer.count = 3;
// @ts-expect-error: not one of the values the command takes
vm.player.tapped('jump');
// @ts-expect-error: a bool binding takes a boolean
vm.isShowAlert = 'yes';
// @ts-expect-error: no such member
timer.nope();
// @ts-expect-error: a timer view model is made over a timer, not a counter
new catalog.TimerViewModel(loop, new catalog.Counter(loop));
// @ts-expect-error: a count is a number
const wrong: string = timer.count;
// @ts-expect-error: the sign-up service answers a boolean
new catalog.SignUpViewModel(loop, () => 'yes');
// @ts-expect-error: no such event
timer.subscribe('counts', () => {});
// @ts-expect-error: members are camelCase: remaining_time is remainingTime
void timer.remaining_time;
// @ts-expect-error: events are named as members are
timer.on('remaining_time', () => {});
// @ts-expect-error: a module namespace is read-only: reportError is set on the module object
mvvm.reportError = () => {};
// @ts-expect-error: no default library: a library's classes come from load()
new mvvm.Counter(loop);

const lib = mvvm.load<Sample>(process.env.MVVM_SAMPLE_LIBRARY ?? '');
const sampleLoop = new lib.Loop('virtual');
const profile = new lib.Profile(sampleLoop);
profile.tags = ['a'];
const tags: readonly string[] = profile.tags;
profile.address = { street: 's', city: 'c' };
const city: string | undefined = profile.address?.city;
const loaded: Promise<readonly string[]> = profile.load(2, { signal: new AbortController().signal });
const contact = profile.contact({ name: 'n', street: 's', city: 'c' });
const zip: string | null = contact.address.zipCode;
const meter = new lib.Odometer(sampleLoop);
const reading: bigint = meter.reading;
const playlist = new lib.Playlist(sampleLoop);
const first: string | undefined = playlist.songs[0]?.title;
playlist.subscribe('songs', (splice) => { const n: number = splice.index + splice.items.length; void n; });
profile.avatar = new Uint8Array([1]);
const tally = new lib.Tally(sampleLoop, { start: 1 });
const dialog = new lib.Dialog(sampleLoop);
dialog.close();
mvvm.close(dialog);
// A record's field named `constructor` is a field like any other.
const shape = dialog.reshape({ constructor: 'triangle', sides: 3 });
const shapeName: string = shape.constructor;

// @ts-expect-error: a UInt64 reads as a bigint
const readingNumber: number = meter.reading;
// @ts-expect-error: bytes are a Uint8Array
profile.avatar = [1, 2];
// @ts-expect-error: a record's field is missing
profile.address = { street: 's' };
// @ts-expect-error: an async command gives a Promise
const notAwaited: readonly string[] = profile.load(1);
// @ts-expect-error: lists are read-only
playlist.songs = [];
// @ts-expect-error: the field `constructor` is a string, not the record's class
const shapeClass: typeof lib.Shape = shape.constructor;

declare const process: { env: Record<string, string | undefined> };
declare class AbortController { readonly signal: mvvm.AbortSignalLike; abort(): void; }
void [firstLeft, seconds, label, state, tags, city, loaded, zip, reading, first, tally, wrong, readingNumber, notAwaited, shapeName, shapeClass];
