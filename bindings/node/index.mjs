// libmvvm for Node.js as an ES module: the CommonJS module (index.js) itself, so that `import` and
// `require` give one module (the same classes, errors and libraries, whichever way it is loaded);
// its named exports are real ones. reportError is set on the default export:
//   import mvvm, { load } from 'mvvm';  mvvm.reportError = (error) => ...;
import mvvm from './index.js';

export default mvvm;
export const {
  load, Library, MvvmObject, MvvmList, Subscription, Splice,
  MvvmError, InvalidHandleError, ClosedError, WrongTypeError, NullPointerError, InvalidArgumentError,
  UnknownNameError, ReadOnlyError, TypeMismatchError, WrongLoopKindError, UnknownRequestError, InternalError,
  LoopReleasedError, CommandError, CancelledError, BadRegistrationError, WrongThreadError, LoadError,
  close, closed, handle, subscribe, on, off, once, changes, describe, snapshot, objectId, className, loop,
  addon,
} = mvvm;
