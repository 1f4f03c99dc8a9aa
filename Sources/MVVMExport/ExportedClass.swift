import CMVVM
import Glibc
@preconcurrency import OpenCombine

/// A name the C side sees, interned once so it can be handed out as a static string.
struct CName: @unchecked Sendable {
    let string: String
    let pointer: UnsafePointer<CChar>

    init(_ string: String) {
        self.string = string
        pointer = CString.intern(string)
    }

    func matches(_ other: UnsafePointer<CChar>) -> Bool { strcmp(pointer, other) == 0 }
}

/// A class, not a struct: every get and set looks one up, and a struct of four closures would be
/// copied, retaining each, every time.
final class ExportedProperty: @unchecked Sendable {
    let name: CName
    let type: ValueType
    let get: (AnyObject) -> Value
    /// Bindings only; receives a value already checked to be of `type`.
    let set: ((AnyObject, Value) -> Void)?
    /// Subscribes to the property's own publisher (its `$property`), which sends the current
    /// value at once and then each new value as it is set.
    let watch: (AnyObject, @escaping (Value) -> Void) -> AnyCancellable

    init(name: CName, type: ValueType, get: @escaping (AnyObject) -> Value, set: ((AnyObject, Value) -> Void)?,
         watch: @escaping (AnyObject, @escaping (Value) -> Void) -> AnyCancellable) {
        self.name = name
        self.type = type
        self.get = get
        self.set = set
        self.watch = watch
    }
}

struct ExportedCommand {
    let name: CName
    let argument: ValueType
    /// The strings a string argument may take, when the command knows only some.
    let allowed: [String]?
    let run: (AnyObject, Value) -> Void
}

struct ExportedSignal {
    let name: CName
    let payload: ValueType
}

struct ExportedChild {
    let name: CName
    let exportedClass: () -> ExportedClass
    let make: (AnyObject) -> AnyObject
}

/// Everything the C side can do with one class of the catalog: what `mvvm_describe` tells.
final class ExportedClass: @unchecked Sendable {
    let name: CName
    let properties: [ExportedProperty]
    let commands: [ExportedCommand]
    let signals: [ExportedSignal]
    let children: [ExportedChild]
    /// Connects the target's signals to `emit(signal index, payload)`.
    let connectSignals: ((AnyObject, @escaping (Int, Value) -> Void) -> [AnyCancellable])?

    init<Target: AnyObject>(_ builder: ClassBuilder<Target>) {
        name = CName(builder.name)
        properties = builder.properties
        commands = builder.commands
        signals = builder.signals
        children = builder.children
        connectSignals = builder.connectSignals.map { connect in
            { target, emit in connect(unsafeDowncast(target, to: Target.self), emit) }
        }
    }

    func property(named name: UnsafePointer<CChar>?) throws(ExportError) -> (index: Int, property: ExportedProperty) {
        guard let name else { throw .nullPointer("property name") }
        guard let index = properties.firstIndex(where: { $0.name.matches(name) }) else {
            throw unknown("property", name)
        }
        return (index, properties[index])
    }

    func command(named name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedCommand {
        guard let name else { throw .nullPointer("command name") }
        guard let command = commands.first(where: { $0.name.matches(name) }) else { throw unknown("command", name) }
        return command
    }

    func child(named name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedChild {
        guard let name else { throw .nullPointer("child name") }
        guard let child = children.first(where: { $0.name.matches(name) }) else { throw unknown("child", name) }
        return child
    }

    /// The members the typed calls name; they exist by construction of the catalog.
    func property(_ name: String) -> ExportedProperty { properties.first { $0.name.string == name }! }
    func command(_ name: String) -> ExportedCommand { commands.first { $0.name.string == name }! }
    func child(_ name: String) -> ExportedChild { children.first { $0.name.string == name }! }

    /// What a subscription's name selects: a property's or a signal's index.
    enum Selector: Equatable {
        case property(Int)
        case signal(Int)
    }

    func selector(named name: UnsafePointer<CChar>) throws(ExportError) -> Selector {
        if let index = properties.firstIndex(where: { $0.name.matches(name) }) { return .property(index) }
        if let index = signals.firstIndex(where: { $0.name.matches(name) }) { return .signal(index) }
        throw unknown("property or signal", name)
    }

    private func unknown(_ what: String, _ name: UnsafePointer<CChar>) -> ExportError {
        guard let text = String(validatingCString: name) else {
            return ExportError(MVVM_ERR_INVALID_ARGUMENT, "the \(what) name is not valid UTF-8")
        }
        return ExportError(MVVM_ERR_UNKNOWN_NAME, "\(self.name.string) has no \(what) named \(CString.echo(text))")
    }

    var descriptionJSON: String {
        JSON.object([
            ("class", JSON.quote(name.string)),
            ("properties", JSON.array(properties.map {
                JSON.object([("name", JSON.quote($0.name.string)), ("type", JSON.quote($0.type.name)),
                             ("access", JSON.quote($0.set == nil ? "ro" : "rw"))])
            })),
            ("commands", JSON.array(commands.map { command in
                var members = [("name", JSON.quote(command.name.string)), ("argument", JSON.quote(command.argument.name))]
                if let allowed = command.allowed { members.append(("values", JSON.array(allowed.map(JSON.quote)))) }
                return JSON.object(members)
            })),
            ("signals", JSON.array(signals.map {
                JSON.object([("name", JSON.quote($0.name.string)), ("type", JSON.quote($0.payload.name))])
            })),
            ("children", JSON.array(children.map { JSON.quote($0.name.string) })),
        ])
    }
}

/// Describes one class in a few typed lines; `ExportedClass` erases the target type.
struct ClassBuilder<Target: AnyObject> {
    let name: String
    var properties: [ExportedProperty] = []
    var commands: [ExportedCommand] = []
    var signals: [ExportedSignal] = []
    var children: [ExportedChild] = []
    var connectSignals: ((Target, @escaping (Int, Value) -> Void) -> [AnyCancellable])?

    init(_ name: String) { self.name = name }

    private static func target(_ object: AnyObject) -> Target { unsafeDowncast(object, to: Target.self) }

    /// A property read with `get`, watched through `publisher` (its `$property`), and, for a
    /// binding, written with `set`; `value` and `unwrap` convert to and from the C value.
    private mutating func property<Output, P: Publisher>(
        _ name: String, _ type: ValueType, _ get: @escaping (Target) -> Output, _ publisher: @escaping (Target) -> P,
        set: ((Target, Output) -> Void)?, value: @escaping (Output) -> Value, unwrap: @escaping (Value) -> Output?
    ) where P.Output == Output, P.Failure == Never {
        properties.append(ExportedProperty(
            name: CName(name), type: type,
            get: { value(get(Self.target($0))) },
            set: set.map { set in { object, new in if let new = unwrap(new) { set(Self.target(object), new) } } },
            watch: { object, changed in publisher(Self.target(object)).sink { changed(value($0)) } }))
    }

    mutating func bool<P: Publisher>(_ name: String, _ get: @escaping (Target) -> Bool, _ publisher: @escaping (Target) -> P,
                                     set: ((Target, Bool) -> Void)? = nil) where P.Output == Bool, P.Failure == Never {
        property(name, .bool, get, publisher, set: set, value: Value.bool) {
            if case let .bool(flag) = $0 { return flag } else { return nil }
        }
    }

    mutating func int<P: Publisher>(_ name: String, _ get: @escaping (Target) -> Int, _ publisher: @escaping (Target) -> P)
    where P.Output == Int, P.Failure == Never {
        property(name, .int, get, publisher, set: nil, value: { .int(Int64($0)) }) { _ in nil }
    }

    mutating func int<P: Publisher>(_ name: String, _ get: @escaping (Target) -> Int64, _ publisher: @escaping (Target) -> P)
    where P.Output == Int64, P.Failure == Never {
        property(name, .int, get, publisher, set: nil, value: Value.int) { _ in nil }
    }

    mutating func string<P: Publisher>(_ name: String, _ get: @escaping (Target) -> String, _ publisher: @escaping (Target) -> P,
                                       set: ((Target, String) -> Void)? = nil) where P.Output == String, P.Failure == Never {
        property(name, .string, get, publisher, set: set, value: Value.string) {
            if case let .string(text) = $0 { return text } else { return nil }
        }
    }

    mutating func command(_ name: String, _ run: @escaping (Target) -> Void) {
        commands.append(ExportedCommand(name: CName(name), argument: .none, allowed: nil) { object, _ in
            run(Self.target(object))
        })
    }

    /// A command with a string argument; `allowed` limits it to those strings.
    mutating func command(_ name: String, allowed: [String]? = nil, _ run: @escaping (Target, String) -> Void) {
        commands.append(ExportedCommand(name: CName(name), argument: .string, allowed: allowed) { object, value in
            if case let .string(text) = value { run(Self.target(object), text) }
        })
    }

    mutating func signal(_ name: String, _ payload: ValueType) {
        signals.append(ExportedSignal(name: CName(name), payload: payload))
    }

    mutating func child<Child: AnyObject>(_ name: String, _ exportedClass: @escaping @autoclosure () -> ExportedClass,
                                          _ make: @escaping (Target) -> Child) {
        children.append(ExportedChild(name: CName(name), exportedClass: exportedClass) { make(Self.target($0)) })
    }
}
