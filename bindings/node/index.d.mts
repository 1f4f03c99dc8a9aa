// The Node.js binding of libmvvm as an ES module (index.mjs): the declarations of index.d.ts,
// whose module it is, with real named exports and the module object as the default export.
import type * as mvvm from './index.js';

export * from './index.js';
declare const module: typeof mvvm & { reportError: mvvm.ReportError };
export default module;
