// The engine's one unsafe borrowing: references used without counting them, on the paths that
// run for every change, all through `Borrowed`, whose contract is stated once, below.

/// A reference the engine uses without counting it. Every unsafe borrow of the engine goes
/// through this type: none is written as `unowned(unsafe)` or `Unmanaged` elsewhere.
///
/// **The contract.** A `Borrowed` keeps nothing alive. It is made from a reference that an
/// *owner* holds, and that owner keeps the object alive for every use of the borrow. Where a
/// borrow is made, one comment names its owner; the reasons it is safe are these, and only these:
///
/// - **Within a call** (``use(_:)``): the owner is held by the borrowing thread itself for the
///   whole call: a class holds its members for the process's life, an object its loop context,
///   a copy of an object's subscribers each subscription, a loop context's array its changing
///   objects, a setter's caller the object it sets.
/// - **Stored** (a watch's slot, a tracking's relay or target): the borrow is used only on a
///   thread that holds the object's loop (its work lock), and the owner lets go of the object only
///   on such a thread, after it has cancelled whatever stores the borrow or cleared it: an
///   exported object is detached before it is freed (`ExportedObject.detach`), and a released
///   object is kept until the loop's work ends (`Loop.keepUntilWorkEnds`), so a use already
///   under way finishes first.
///
/// Nothing reads a stored borrow on any other thread: a change told there reaches its object
/// through the object's handle, which the handle table resolves under its lock to a counted
/// reference or to nothing (``WatchedSlot``, ``ObservationRelay``).
///
/// Breaking the contract is a use after free, which no check catches in a release build. What
/// it buys: no reference counting on the paths every change or call takes, about 80 instructions
/// per typed set and a dozen per subscriber told (`Tests/bench/callgrind.sh`).
struct Borrowed<Object: AnyObject> {
    private let reference: Unmanaged<Object>

    /// Borrows `object` from its owner (see the contract): the caller names the owner.
    @inline(__always)
    init(_ object: Object) { reference = .passUnretained(object) }

    /// The object, for a use the contract allows; a counted reference the moment it is kept.
    @inline(__always)
    var object: Object { reference.takeUnretainedValue() }

    /// `body` with the object, and no reference counting around the call.
    @inline(__always)
    func use<Result, Failure: Error>(_ body: (Object) throws(Failure) -> Result) throws(Failure) -> Result {
        try reference._withUnsafeGuaranteedRef { object in
            Swift.Result { () throws(Failure) -> Result in try body(object) }
        }.get()
    }
}

extension Borrowed: @unchecked Sendable where Object: Sendable {}
