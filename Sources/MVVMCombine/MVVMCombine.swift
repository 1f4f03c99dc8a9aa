// The one import for Combine code. A view model file written for Apple's Combine compiles with
// `import Combine` replaced by `import MVVMCombine` and nothing else (docs/export-api.md):
// OpenCombine's publishers, subjects, `@Published` and `ObservableObject`; its Foundation and
// Dispatch schedulers (`RunLoop.main`, `DispatchQueue.main`, `OperationQueue`, as schedulers by
// those names where no system Combine exists), `Timer.publish`, `NotificationCenter`'s and
// `URLSession`'s publishers, `JSONDecoder` as a `TopLevelDecoder`; and what libmvvm adds to
// OpenCombine 0.14.0 (`Publishers.CombineLatest`…`CombineLatest4`, `Merge`…`Merge8`,
// `MergeMany`, `combineLatest` and `merge(with:)` of each arity), with the loops they may be
// scheduled on.
@_exported import MVVMRuntime
@_exported import OpenCombine
@_exported import OpenCombineDispatch
@_exported import OpenCombineFoundation
