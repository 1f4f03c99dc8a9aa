// A @Published property derived from others, as view models write it:
//
//     $userID.combineLatest($password, $confirmPassword, $agreed).map(Self.isValid).assign(to: &$isEnabled)
//
// Such a publisher sends, after each set of one of its properties, a function of their values
// now. `assign(to:)` of one keeps its property in step with no subscription, conduit or lock per
// operator: one derivation listens to the properties' boxes and, after each set, computes the value
// and sets the property. Any other use of the same publisher (sink, debounce, removeDuplicates…) is
// Combine's, operator by operator, as before.
import MVVMRuntime
@preconcurrency import OpenCombine

/// A publisher whose every value is a function of @Published properties' values, sent each time
/// one of them is set: a `$x`, a `map` of one, a `combineLatest` of them (with `map`s). Its
/// `assign(to: &$y)` derives `y` (see the file's comment).
public protocol PublishedDerivable: OpenCombine.Publisher where Failure == Never {
    /// The value now, read from the properties' boxes.
    func publishedValue() -> Output
    /// Calls `body` with each property's box, in order (a property used twice, twice).
    func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void)
}

extension Published.Publisher: PublishedDerivable {
    @inlinable @inline(__always)
    public func publishedValue() -> Value { box.current }

    @inlinable @inline(__always)
    public func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void) { body(box) }
}

extension Publishers.Map: PublishedDerivable where Upstream: PublishedDerivable {
    @inlinable @inline(__always)
    public func publishedValue() -> Output { transform(upstream.publishedValue()) }

    @inlinable @inline(__always)
    public func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void) { upstream.forEachPublishedBox(body) }
}

extension Publishers.CombineLatest: PublishedDerivable where A: PublishedDerivable, B: PublishedDerivable {
    @inlinable @inline(__always)
    public func publishedValue() -> Output { (a.publishedValue(), b.publishedValue()) }

    @inlinable @inline(__always)
    public func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void) {
        a.forEachPublishedBox(body)
        b.forEachPublishedBox(body)
    }
}

extension Publishers.CombineLatest3: PublishedDerivable
    where A: PublishedDerivable, B: PublishedDerivable, C: PublishedDerivable
{
    @inlinable @inline(__always)
    public func publishedValue() -> Output { (a.publishedValue(), b.publishedValue(), c.publishedValue()) }

    @inlinable @inline(__always)
    public func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void) {
        a.forEachPublishedBox(body)
        b.forEachPublishedBox(body)
        c.forEachPublishedBox(body)
    }
}

extension Publishers.CombineLatest4: PublishedDerivable
    where A: PublishedDerivable, B: PublishedDerivable, C: PublishedDerivable, D: PublishedDerivable
{
    @inlinable @inline(__always)
    public func publishedValue() -> Output { (a.publishedValue(), b.publishedValue(), c.publishedValue(), d.publishedValue()) }

    @inlinable @inline(__always)
    public func forEachPublishedBox(_ body: (PublishedBoxBase) -> Void) {
        a.forEachPublishedBox(body)
        b.forEachPublishedBox(body)
        c.forEachPublishedBox(body)
        d.forEachPublishedBox(body)
    }
}

extension PublishedDerivable {
    /// Keeps the @Published property of `published` equal to this publisher's value: set now, and
    /// again after each set of the properties it reads, for as long as that property's publisher
    /// lives, as Combine's `assign(to:)` does, with no subscription (see the file's comment).
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        guard readsEachPropertyOnce(besides: published.box) else {
            // Combine sends a value for each use of a property, and a property set from its own
            // value sets it again: the general way does as Combine does.
            let assignment = PublishedAssignment(self, target: published.box)
            assignment.attach()
            assignment.subscribe()
            return handOver(assignment)
        }
        let derivation = PublishedDerivation(self, target: published.box) { base, ending in
            let derivation = unsafeDowncast(base, to: PublishedDerivation<Self>.self)
            guard !ending else { return derivation.chain.forEachPublishedBox { $0.removeListener(derivation) } }
            guard derivation.beginWrite() else { return }
            let value = derivation.chain.publishedValue()
            let box = unsafeDowncast(derivation.target, to: PublishedBox<Output>.self)
            withExtendedLifetime(box) { box.set(value) }
            derivation.unlock()
        }
        derivation.attach()
        forEachPublishedBox { $0.addListener(derivation) }
        derivation.recompute(derivation, false)
        handOver(derivation)
    }

    /// Whether no property's box comes twice, and `target` not at all.
    @inlinable
    func readsEachPropertyOnce(besides target: PublishedBoxBase) -> Bool {
        var boxes: (PublishedBoxBase?, PublishedBoxBase?, PublishedBoxBase?, PublishedBoxBase?) = (nil, nil, nil, nil)
        var count = 0, once = true
        forEachPublishedBox { box in
            once = once && box !== target
            switch count {
            case 0: boxes.0 = box
            case 1: once = once && box !== boxes.0; boxes.1 = box
            case 2: once = once && box !== boxes.0 && box !== boxes.1; boxes.2 = box
            case 3: once = once && box !== boxes.0 && box !== boxes.1 && box !== boxes.2; boxes.3 = box
            default: once = false
            }
            count += 1
        }
        return once
    }
}

/// `assign(to:)` of a ``PublishedDerivable``: listens to the boxes of the properties the publisher
/// reads, and after each set of one sets its own property to the publisher's value.
public final class PublishedDerivation<Chain: PublishedDerivable>: PublishedAssignmentBase, @unchecked Sendable {
    /// The publisher (its boxes, which it holds, and its `map`s' closures).
    @usableFromInline let chain: Chain
    /// Computes the value and sets the property, or (`ending`) leaves the boxes it listens to.
    /// Made where `assign(to:)` is specialised, capturing nothing: it runs with the concrete
    /// types, with no generic metadata.
    @usableFromInline let recompute: (PublishedAssignmentBase, _ ending: Bool) -> Void

    @inlinable
    init(_ chain: Chain, target: PublishedBoxBase, recompute: @escaping (PublishedAssignmentBase, _ ending: Bool) -> Void) {
        self.chain = chain
        self.recompute = recompute
        super.init(target: target)
    }

    override public func publishedDidSet(_ box: PublishedBoxBase) {
        if box !== target { recompute(self, false) }
    }

    override func endHoldingLock() {
        unlock()
        recompute(self, true)
    }
}
