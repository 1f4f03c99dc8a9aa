// The one import for Combine code. A view model file written for Apple's Combine compiles with
// `import Combine` replaced by `import MVVMCombine` and nothing else (docs/export-api.md):
// OpenCombine's publishers, subjects, operators and schedulers; its Foundation and Dispatch
// schedulers (`RunLoop.main`, `DispatchQueue.main`, `OperationQueue`, as schedulers by those names
// where no system Combine exists), `Timer.publish`, `NotificationCenter`'s and `URLSession`'s
// publishers, `JSONDecoder` as a `TopLevelDecoder`; what libmvvm adds to OpenCombine 0.14.0
// (`Publishers.CombineLatest`…`CombineLatest4`, `Merge`…`Merge8`, `MergeMany`, `combineLatest`
// and `merge(with:)` of each arity), with the loops they may be scheduled on; and in place of
// OpenCombine's, a `@Published` and an `ObservableObject` that tell libmvvm's engine directly
// (MVVMPublished: no subscription per property, `objectWillChange` made without reflection).
//
// OpenCombine is re-exported declaration by declaration, all but the three MVVMPublished replaces:
// a file that imports this module sees one `Published`, one `ObservableObject` and one
// `ObservableObjectPublisher`. Extension members (the operators) come with the module whatever is
// named. Code that imports OpenCombine itself keeps OpenCombine's own types.
@_exported import MVVMPublished
@_exported import MVVMRuntime
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation

@_exported import struct OpenCombine.AnyPublisher
@_exported import struct OpenCombine.AnySubscriber
@_exported import struct OpenCombine.AsyncPublisher
@_exported import struct OpenCombine.AsyncThrowingPublisher
@_exported import struct OpenCombine.CombineIdentifier
@_exported import struct OpenCombine.Deferred
@_exported import struct OpenCombine.Empty
@_exported import struct OpenCombine.Fail
@_exported import struct OpenCombine.ImmediateScheduler
@_exported import struct OpenCombine.Just
@_exported import struct OpenCombine.Record
@_exported import class OpenCombine.AnyCancellable
@_exported import class OpenCombine.CurrentValueSubject
@_exported import class OpenCombine.Future
@_exported import enum OpenCombine.Publishers
@_exported import enum OpenCombine.Subscribers
@_exported import enum OpenCombine.Subscriptions
@_exported import protocol OpenCombine.Cancellable
@_exported import protocol OpenCombine.ConnectablePublisher
@_exported import protocol OpenCombine.CustomCombineIdentifierConvertible
@_exported import protocol OpenCombine.Publisher
@_exported import protocol OpenCombine.Scheduler
@_exported import protocol OpenCombine.SchedulerTimeIntervalConvertible
@_exported import protocol OpenCombine.Subject
@_exported import protocol OpenCombine.Subscriber
@_exported import protocol OpenCombine.Subscription
@_exported import protocol OpenCombine.TopLevelDecoder
@_exported import protocol OpenCombine.TopLevelEncoder
