import CMVVM
import Glibc
import MVVMPublished
import MVVMRuntime
import Synchronization
@preconcurrency import OpenCombine

/// A name the C side sees, interned once so it can be handed out as a static string.
struct CName: @unchecked Sendable {
    let string: String
    let pointer: UnsafePointer<CChar>

    init(_ string: String) {
        self.string = string
        pointer = CString.intern(string)
    }

    /// The first byte rules most names out without a call: lookups by name are on every
    /// generic get, set and send.
    @inline(__always)
    func matches(_ other: UnsafePointer<CChar>) -> Bool {
        pointer.pointee == other.pointee && strcmp(pointer, other) == 0
    }
}

/// What a call is made on, as its messages name it: a class (its constructors) or one of its
/// commands ("class.command"). The text is made only for a message: a call that succeeds builds
/// no string.
struct CallName {
    let owner: CName
    let member: CName?

    var text: String { member.map { "\(owner.string).\($0.string)" } ?? owner.string }

    /// How messages name argument `index` (from 0), `name`.
    func argument(_ index: Int, _ name: String) -> String { "argument \(index + 1) of \(text) (\(name))" }
}

/// A value property: read with `get`, written with `set` when it is a binding, its changes heard
/// as `watching` says. A class, not a struct: every get and set looks one up, and a struct of
/// four closures would be copied, retaining each, every time.
final class ExportedProperty: @unchecked Sendable {
    let name: CName
    /// Its place among its class's properties, values and lists together, as registered: the
    /// order of descriptions and of an operation's announcements.
    let position: Int
    /// Its type in full.
    let shape: ValueShape
    /// What its values are in C, and whether every value of that kind is one of its values (a
    /// plain bool, int, double or string): the typed calls' fast path.
    let type: ValueType
    let isPlainScalar: Bool
    let doc: String
    let get: (AnyObject) -> Value
    /// Whether it is a binding, which `set` writes.
    let isWritable: Bool
    /// Bindings only (a read-only property's refuses nothing and sets nothing); receives a value
    /// already accepted by `shape`, and gives the message (naming the property as `what` does)
    /// when its Swift type refuses it. Not optional: an optional closure is called through a
    /// thunk, on every set.
    let set: ValueSetter
    /// How a change is heard (see ``ValueWatching``).
    let watching: ValueWatching

    /// A binding, written by `set`.
    convenience init(name: String, position: Int, shape: ValueShape, doc: String, get: @escaping (AnyObject) -> Value,
                     set: @escaping ValueSetter, watching: ValueWatching) {
        self.init(name: name, position: position, shape: shape, doc: doc, get: get, isWritable: true, set: set,
                  watching: watching)
    }

    /// A read-only property.
    convenience init(name: String, position: Int, shape: ValueShape, doc: String, get: @escaping (AnyObject) -> Value,
                     watching: ValueWatching) {
        self.init(name: name, position: position, shape: shape, doc: doc, get: get, isWritable: false,
                  set: Self.setsNothing, watching: watching)
    }

    private init(name: String, position: Int, shape: ValueShape, doc: String, get: @escaping (AnyObject) -> Value,
                 isWritable: Bool, set: @escaping ValueSetter, watching: ValueWatching) {
        self.name = CName(name)
        self.position = position
        self.shape = shape
        type = shape.baseType
        isPlainScalar = shape.isPlainScalar
        self.doc = doc
        self.get = get
        self.isWritable = isWritable
        self.set = set
        self.watching = watching
    }
}

/// Writes a value already accepted by the property's shape; gives the message (naming the
/// property as the third argument does) when its Swift type refuses the value.
typealias ValueSetter = (AnyObject, Value, () -> String) -> String?

extension ExportedProperty {
    /// A read-only property's setter, never called (``ExportedProperty/isWritable`` is false).
    fileprivate static func setsNothing(_: AnyObject, _: Value, _: () -> String) -> String? { nil }
}

/// How a value property's changes are heard.
enum ValueWatching {
    /// By a watch of its own, which this starts: `slot` is told each new value (or nil when the
    /// watch cannot tell it, and the value is then read with `get` once the operation is
    /// complete). A publisher's subscription, `objectWillChange`.
    case own((AnyObject, WatchedSlot<ValueState>) -> PropertyWatch)
    /// Through the box of an MVVMCombine `@Published` property, which this finds: the exported
    /// object is the box's watcher, and the box its watch (`ExportedObject.watchPublished`).
    case published((AnyObject) -> PublishedBoxBase)
    /// By its object's one Observation tracking of its watched `@Observable` values, which reads
    /// it with `get` (`ExportedObject.armObservedValues`): no watch of its own.
    case observation
}

/// A list property: child view models (each of a registered class) that its view model keeps
/// and changes; read with `mvvm_list_count` and `mvvm_list_item`, its changes told as splices.
/// A member of its own kind, not a value: it has no value to get or set.
final class ExportedList: @unchecked Sendable {
    let name: CName
    /// Its place among its class's properties, values and lists together (see
    /// ``ExportedProperty/position``).
    let position: Int
    let doc: String
    /// The Swift class of its items, which a package registers.
    let itemType: ObjectIdentifier
    let itemTypeName: String
    let count: (AnyObject) -> Int
    let item: (AnyObject, Int) -> AnyObject
    /// Its items now, without copying them.
    let items: (AnyObject) -> ListItems
    let watch: (AnyObject, WatchedSlot<ListState>) -> ListWatch

    init(name: String, position: Int, doc: String, itemType: ObjectIdentifier, itemTypeName: String,
         count: @escaping (AnyObject) -> Int, item: @escaping (AnyObject, Int) -> AnyObject,
         items: @escaping (AnyObject) -> ListItems, watch: @escaping (AnyObject, WatchedSlot<ListState>) -> ListWatch) {
        self.name = CName(name)
        self.position = position
        self.doc = doc
        self.itemType = itemType
        self.itemTypeName = itemTypeName
        self.count = count
        self.item = item
        self.items = items
        self.watch = watch
    }

    /// Its item class, by C name.
    var itemClassName: String {
        Registry.shared.exportedClass(for: itemType)?.name.string ?? itemTypeName
    }
}

/// A property of a class as registered, of either kind: what descriptions, snapshots and the
/// registration check go through in the order the class lists them.
enum ListedProperty {
    case value(ExportedProperty, index: Int)
    case list(ExportedList, index: Int)

    var name: CName {
        switch self {
        case let .value(property, _): return property.name
        case let .list(list, _): return list.name
        }
    }

    var position: Int {
        switch self {
        case let .value(property, _): return property.position
        case let .list(list, _): return list.position
        }
    }
}

/// Takes an async command's arguments (a refusal refuses the call: nothing runs) and gives its
/// body.
typealias AsyncCommandStart = (AnyObject, CallArguments) throws(ExportError) -> () async throws(CommandFailure) -> Value

/// Immutable once registered, like every member description: any thread may read it.
struct ExportedCommand: @unchecked Sendable {
    let name: CName
    let doc: String
    /// Its arguments, in order; each a value.
    let arguments: [ExportedArgument]
    /// What it returns; `.none` for nothing.
    let result: ValueShape
    /// Whether it may fail (its Swift closure throws).
    let throwing: Bool
    /// Runs the command with arguments already accepted by their shapes.
    let run: (AnyObject, CallArguments) throws(CommandFailure) -> Value
    /// An `async` command's start: its arguments taken as their Swift types, its body then run
    /// as a task on the object's loop; nil for the others.
    var start: AsyncCommandStart? = nil

    var isAsync: Bool { start != nil }
}

struct ExportedSignal {
    let name: CName
    let payload: ValueShape
    let doc: String
    /// Connects the object (on `Loop`) to `emit`, which takes each event under the loop's work lock.
    let connect: (AnyObject, Loop, @escaping (Value) -> Void) -> AnyCancellable
}

struct ExportedChild: @unchecked Sendable {
    let name: CName
    let doc: String
    let childType: ObjectIdentifier
    let childTypeName: String
    let make: (AnyObject) -> AnyObject
}

/// One argument of a constructor or a command, as descriptions and `mvvm_new`/`mvvm_call` see
/// it. Kinds carry no references: a multi-payload enum keeps tag bits in a payload's pointer,
/// where leak checkers (valgrind) no longer see the pointer and report the registry's arrays as
/// lost.
struct ExportedArgument {
    enum Kind {
        case value
        /// A model of one of `modelTypes`, on the constructor's loop.
        case model
        /// A host service: its requests carry `argument` and expect `result`.
        case service(argument: ValueType, result: ValueType)
    }

    let name: String
    let kind: Kind
    /// Values: the type.
    let shape: ValueShape
    /// Models: the Swift classes it may be.
    var modelTypes: [ObjectIdentifier] = []

    init(name: String, kind: Kind, shape: ValueShape = .none, modelTypes: [ObjectIdentifier] = []) {
        self.name = name
        self.kind = kind
        self.shape = shape
        self.modelTypes = modelTypes
    }

    static func value(_ name: String, _ shape: ValueShape) -> ExportedArgument {
        ExportedArgument(name: name, kind: .value, shape: shape)
    }
}

/// What a constructor or command got: accepted values, resolved models and services.
public struct CallArguments {
    /// The call, for messages.
    let name: CallName
    let values: [Value]
    var models: [Int: AnyObject] = [:]
    var services: [Int: HostRequester] = [:]
}

struct ExportedConstructor {
    /// "new", or "new_with_…" for the others; the typed C call is `mvvm_<class>_<name>`.
    let name: String
    let doc: String
    let arguments: [ExportedArgument]
    let make: (Loop, CallArguments) throws(ExportFailure) -> AnyObject
}

/// Whose lines registered a class's members (``ExportOrigin``): hand-written unless a derived
/// registration said otherwise from some member on.
struct MemberOrigins {
    private let changes: [(counts: MemberCounts, origin: ExportOrigin)]
    /// Whether some members were derived and others written by hand: only then do messages name
    /// origins (a class registered wholly one way is named as ever).
    let mixesOrigins: Bool

    /// `changes` of the origin, and the counts of all the class's members.
    init(_ changes: [(counts: MemberCounts, origin: ExportOrigin)], all: MemberCounts) {
        self.changes = changes
        // Each origin's span runs from its change to the next (hand-written before the first).
        let starts = [(counts: MemberCounts(), origin: ExportOrigin.hand)] + changes
        var seen = Set<ExportOrigin>()
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].counts.all : all.all
            if end > start.counts.all { seen.insert(start.origin) }
        }
        mixesOrigins = seen.count > 1
    }

    /// The origin of the member at `index` of the kind `count` reads (`\.properties`…).
    func origin(_ count: KeyPath<MemberCounts, Int>, _ index: Int) -> ExportOrigin {
        changes.last { $0.counts[keyPath: count] <= index }?.origin ?? .hand
    }
}

/// Everything the C side can do with one exported class: what `mvvm_describe` tells.
final class ExportedClass: RegisteredType, @unchecked Sendable {
    let name: CName
    let identity: TypeIdentity
    /// Its value properties, then its lists: each kind in the order registered, and each member
    /// knows its place among both (`position`).
    let properties: [ExportedProperty]
    let lists: [ExportedList]
    let commands: [ExportedCommand]
    let signals: [ExportedSignal]
    let children: [ExportedChild]
    let constructors: [ExportedConstructor]
    /// Its objects are the main actor's: made on a loop that serves it, used only on its thread.
    let isMainActor: Bool
    /// Whose lines registered each member, by kind and place; only the registration check reads it.
    let origins: MemberOrigins

    init<Target: AnyObject>(_ builder: ExportBuilder<Target>) {
        isMainActor = builder.isMainActor
        origins = MemberOrigins(builder.originChanges, all: MemberCounts(builder))
        name = CName(builder.name)
        identity = TypeIdentity(swiftName: builder.swiftName, type: Target.self, doc: builder.doc, cName: builder.name,
                                display: builder.display)
        properties = builder.properties
        lists = builder.lists
        commands = builder.commands
        signals = builder.signals
        children = builder.children
        constructors = builder.constructors
    }

    /// The property last found by name: a host tends to ask for the same one again (a getter in
    /// a render loop), and checking one name is cheaper than a search. Any thread may move it;
    /// a stale guess only costs the search.
    private let lastPropertyFound = Atomic<Int>(0)

    /// What a call by a property's name does with its value: what it says when the name is a
    /// list's.
    enum ValueUse {
        /// Reads it as this type (nil: as its own type).
        case read(ValueType?)
        case write
    }

    /// `body` with the value property named `name`, borrowed from this class (no reference
    /// counting around it: every generic get and set looks one up). A list's name is refused as
    /// `use` says.
    @inline(__always)
    func withProperty<T>(named name: UnsafePointer<CChar>?, for use: ValueUse,
                         _ body: (ExportedProperty) throws(ExportError) -> T) throws(ExportError) -> T {
        let index = try propertyIndex(named: name, for: use)
        // Borrowed from this class, which holds its members for the process's life.
        return try Borrowed(properties[index]).use(body)
    }

    @inline(__always)
    private func propertyIndex(named name: UnsafePointer<CChar>?, for use: ValueUse) throws(ExportError) -> Int {
        guard let name else { throw .nullPointer("property name") }
        let guess = lastPropertyFound.load(ordering: .relaxed)
        if guess < properties.count && properties[guess].name.matches(name) { return guess }
        guard let index = properties.firstIndex(where: { $0.name.matches(name) }) else {
            throw noValueProperty(named: name, for: use)
        }
        lastPropertyFound.store(index, ordering: .relaxed)
        return index
    }

    /// Why a call of values finds no value property named `name`: it is a list's, or nobody's.
    @inline(never)
    private func noValueProperty(named name: UnsafePointer<CChar>, for use: ValueUse) -> ExportError {
        guard let list = lists.first(where: { $0.name.matches(name) }) else { return unknown("property", name) }
        let qualified = "\(self.name.string).\(list.name.string)"
        switch use {
        case .write: return ExportError(MVVM_ERR_READ_ONLY, "\(qualified) is read-only")
        case .read(nil):
            return ExportError(MVVM_ERR_TYPE_MISMATCH, "\(qualified) is a list: read it with mvvm_list_count and mvvm_list_item")
        case let .read(type?): return ExportError(MVVM_ERR_TYPE_MISMATCH, "\(qualified) is a list, not \(type.name)")
        }
    }

    /// The list property named `name`; a value property's name is a type mismatch.
    func list(named name: UnsafePointer<CChar>?) throws(ExportError) -> ExportedList {
        guard let name else { throw .nullPointer("property name") }
        if let list = lists.first(where: { $0.name.matches(name) }) { return list }
        guard let property = properties.first(where: { $0.name.matches(name) }) else { throw unknown("property", name) }
        throw ExportError(MVVM_ERR_TYPE_MISMATCH, "\(self.name.string).\(property.name.string) is of type "
                          + "\(property.shape.name), not a list")
    }

    /// Its properties, values and lists together, in the order registered.
    var listedProperties: [ListedProperty] {
        (properties.indices.map { ListedProperty.value(properties[$0], index: $0) }
            + lists.indices.map { ListedProperty.list(lists[$0], index: $0) })
            .sorted { $0.position < $1.position }
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

    /// The members the typed calls name, by their names.
    func property(_ name: String) throws(ExportError) -> ExportedProperty {
        guard let property = properties.first(where: { $0.name.string == name }) else {
            throw ExportError(MVVM_ERR_INTERNAL, "\(self.name.string) has no property \(name) (a stale typed call)")
        }
        return property
    }

    func command(_ name: String) throws(ExportError) -> ExportedCommand {
        guard let command = commands.first(where: { $0.name.string == name }) else {
            throw ExportError(MVVM_ERR_INTERNAL, "\(self.name.string) has no command \(name) (a stale typed call)")
        }
        return command
    }

    func child(_ name: String) throws(ExportError) -> ExportedChild {
        guard let child = children.first(where: { $0.name.string == name }) else {
            throw ExportError(MVVM_ERR_INTERNAL, "\(self.name.string) has no child \(name) (a stale typed call)")
        }
        return child
    }

    /// What a subscription's name selects: a value property's, a list's or a signal's index.
    enum Selector: Equatable {
        case property(Int)
        case list(Int)
        case signal(Int)
    }

    func selector(named name: UnsafePointer<CChar>) throws(ExportError) -> Selector {
        if let index = properties.firstIndex(where: { $0.name.matches(name) }) { return .property(index) }
        if let index = lists.firstIndex(where: { $0.name.matches(name) }) { return .list(index) }
        if let index = signals.firstIndex(where: { $0.name.matches(name) }) { return .signal(index) }
        throw unknown("property or signal", name)
    }

    private func unknown(_ what: String, _ name: UnsafePointer<CChar>) -> ExportError {
        guard let text = String(validatingCString: name) else {
            return ExportError(MVVM_ERR_INVALID_ARGUMENT, "the \(what) name is not valid UTF-8")
        }
        return ExportError(MVVM_ERR_UNKNOWN_NAME, "\(self.name.string) has no \(what) named \(CString.echo(text))")
    }

    /// What `mvvm_describe` gives of an object: the members, and the constructor that made it
    /// (null for one its parent made), so that no binding guesses it from the arguments.
    /// The place of the constructor named `name` among its constructors (an object keeps it, not
    /// the name); -1 for none. The usual one, "new", is the first.
    func constructorIndex(named name: String) -> Int {
        constructors.firstIndex { $0.name == name } ?? -1
    }

    func descriptionJSON(constructor: String?) -> String {
        JSON.object(memberFields + [("constructor", constructor.map(JSON.quote) ?? "null")])
    }

    /// What `mvvm_classes` gives for this class: the members, and what it takes to make one.
    var fullDescriptionJSON: String {
        var fields = memberFields
        fields.insert(("display", JSON.quote(display)), at: 1)
        fields.insert(("swift_name", JSON.quote(swiftName)), at: 2)
        fields.insert(("swift_module", JSON.quote(swiftModule)), at: 3)
        fields.insert(("doc", JSON.quote(doc)), at: 3)
        if isMainActor { fields.append(("main_actor", "true")) }
        fields.append(("child_classes", JSON.object(children.map {
            ($0.name.string, JSON.quote(Registry.shared.exportedClass(for: $0.childType)?.name.string ?? $0.childTypeName))
        })))
        fields.append(("constructors", JSON.array(constructors.map { constructor in
            JSON.object([("name", JSON.quote(constructor.name)), ("doc", JSON.quote(constructor.doc)),
                         ("arguments", JSON.array(constructor.arguments.map(\.json)))])
        })))
        return JSON.object(fields)
    }

    private var memberFields: [(String, String)] {
        [
            ("class", JSON.quote(name.string)),
            ("properties", JSON.array(listedProperties.map { listed in
                // "name", "type", "access", "doc" first, as descriptions always began.
                switch listed {
                case let .value(property, _):
                    let type = property.shape.typedCallMembers
                    return JSON.object([("name", JSON.quote(property.name.string)), type[0],
                                        ("access", JSON.quote(property.isWritable ? "rw" : "ro")),
                                        ("doc", JSON.quote(property.doc))] + type.dropFirst())
                case let .list(list, _):
                    return JSON.object([("name", JSON.quote(list.name.string)), ("type", JSON.quote("list")),
                                        ("access", JSON.quote("ro")), ("doc", JSON.quote(list.doc)),
                                        ("item_class", JSON.quote(list.itemClassName))])
                }
            })),
            ("commands", JSON.array(commands.map { command in
                // "argument" and "values": the type of the one argument (or "none"), for hosts
                // that read only those; "arguments" says all.
                var members = [("name", JSON.quote(command.name.string))]
                if command.arguments.count <= 1 {
                    members.append(("argument", JSON.quote(command.arguments.first?.shape.baseType.name ?? "none")))
                    if let allowed = command.arguments.first?.shape.allowed {
                        members.append(("values", JSON.array(allowed.map(JSON.quote))))
                    }
                }
                members += [("arguments", JSON.array(command.arguments.map(\.json))),
                            ("result", JSON.object(command.result.typedCallMembers)),
                            ("throws", command.throwing ? "true" : "false"), ("async", command.isAsync ? "true" : "false"),
                            ("doc", JSON.quote(command.doc))]
                return JSON.object(members)
            })),
            ("signals", JSON.array(signals.map {
                JSON.object([("name", JSON.quote($0.name.string))] + $0.payload.jsonMembers + [("doc", JSON.quote($0.doc))])
            })),
            ("children", JSON.array(children.map { JSON.quote($0.name.string) })),
            ("records", JSON.object(recordsUsed.map { ($0.name.string, $0.json) })),
        ]
    }

    /// Every record a member's type reaches, nested ones included, in the order first met:
    /// each class's description is whole on its own.
    private var recordsUsed: [RecordDescription] {
        var found: [RecordDescription] = []
        func visit(_ shape: ValueShape) {
            switch shape {
            case let .optional(wrapped), let .array(wrapped): visit(wrapped)
            case let .record(type):
                guard let record = Registry.shared.record(for: type.id), !found.contains(where: { $0 === record }) else { return }
                found.append(record)
                record.fields.forEach { visit($0.shape) }
            default: break
            }
        }
        properties.forEach { visit($0.shape) }
        for command in commands {
            command.arguments.forEach { visit($0.shape) }
            visit(command.result)
        }
        signals.forEach { visit($0.payload) }
        constructors.forEach { $0.arguments.forEach { visit($0.shape) } }
        return found
    }
}

extension ExportedArgument {
    var json: String {
        switch kind {
        case .value:
            return JSON.object([("name", JSON.quote(name))] + shape.typedCallMembers)
        case .model:
            let classes = modelTypes.map { Registry.shared.exportedClass(for: $0)?.name.string ?? "?" }
            return JSON.object([("name", JSON.quote(name)), ("type", JSON.quote("object")),
                                ("classes", JSON.array(classes.map(JSON.quote))), ("c_type", JSON.quote("mvvm_handle"))])
        case let .service(argument, result):
            return JSON.object([("name", JSON.quote(name)), ("type", JSON.quote("service")),
                                ("request_argument", JSON.quote(argument.name)), ("result", JSON.quote(result.name))])
        }
    }
}

extension ValueShape {
    /// The C type a typed call takes a value of this shape as: a plain scalar as itself, any
    /// other as an `mvvm_value`.
    var typedCallCType: String {
        switch self {
        case .none: return "void"
        case .bool: return "bool"
        case let .int(min, max) where min == .min && max == .max: return "int64_t"
        case .uint: return "uint64_t"
        case .double: return "double"
        case .string(allowed: _): return "const char *"
        case let .kind(kind): return kind.carrier.typedCallCType
        default: return "const mvvm_value *"
        }
    }

    /// ``jsonMembers`` with the typed C call's type as "c_type" (a property's, an argument's, a
    /// result's): the library's rule, so that no generator restates it. An optional `UInt64` is
    /// an `mvvm_value` there, though its type's own "c_type" says `uint64_t`.
    var typedCallMembers: [(String, String)] {
        jsonMembers.filter { $0.0 != "c_type" } + [("c_type", JSON.quote(typedCallCType))]
    }
}
