// A dialog whose members take the names the bindings use for their own API (close, subscribe,
// describe, handle, loop, class…): in every binding the member wins, and the binding's own API
// stays reachable by its documented route.
@preconcurrency import OpenCombine
import MVVMExport

/// A record whose field is named as every JavaScript object's own member (`constructor`): each
/// binding takes and gives it as any other field.
public struct Shape: ExportableRecord, Equatable, Sendable {
    public var constructor: String
    public var sides: Int
}

public final class Dialog: ObservableObject {
    @Published public var description = "A dialog"
    @Published public private(set) var closed = false
    @Published public private(set) var handle = 7
    @Published public var loop = "main"
    @Published public private(set) var id = 42
    @Published public var `class` = "modal"
    /// What each command did, in order.
    @Published public private(set) var log: [String] = []
    public let bind = PassthroughSubject<String, Never>()

    public init() {}

    public func record(_ what: String) { log.append(what) }

    public func reshape(_ shape: Shape) -> Shape {
        record("reshape \(shape.constructor)")
        return Shape(constructor: shape.constructor, sides: shape.sides + 1)
    }

    public func close() {
        closed = true
        record("close")
    }
}
