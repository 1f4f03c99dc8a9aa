import CMVVM
import MVVMRuntime
import Observation
@preconcurrency import OpenCombine

/// An error whose text the host reads: a constructor's refusal (MVVM_ERR_INVALID_ARGUMENT), a
/// command's failure (MVVM_ERR_COMMAND_FAILED). Any other error thrown there is described by
/// `String(describing:)`.
public struct ExportFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// `error` itself when it is one, else its description.
    init(describing error: any Error) {
        self = (error as? ExportFailure) ?? ExportFailure(String(describing: error))
    }
}

/// Why a command call failed: the command's own error (MVVM_ERR_COMMAND_FAILED, its text), or an
/// argument its Swift type refused before the command ran (the refusal's status and message).
struct CommandFailure: Error {
    let status: mvvm_status
    let message: String
    init(_ error: any Error) {
        status = MVVM_ERR_COMMAND_FAILED
        message = ExportFailure(describing: error).description
    }
    init(refused error: ExportError) {
        status = error.status
        message = error.message
    }

    /// What the host gets for it from a call of `name`.
    func exportError(_ name: CallName) -> ExportError {
        status == MVVM_ERR_COMMAND_FAILED
            ? ExportError(MVVM_ERR_COMMAND_FAILED, "\(name.text) failed: \(CString.capped(message))")
            : ExportError(status, message)
    }
}

/// Describes one exported class: one short declaration per property, command, signal, child
/// and constructor. Handed to the closure of ``Exports/register(_:as:display:doc:_:)``.
///
/// ```swift
/// Exports.register(Greeter.self) { c in
///     c.binding("name", \.name, \.$name, doc: "Who to greet")
///     c.output("greeting", \.greeting, \.$greeting)
///     c.command("clear") { $0.name = "" }
///     c.constructor { _ in Greeter() }
/// }
/// ```
public struct ExportBuilder<Target: AnyObject> {
    let name: String
    let display: String?
    let swiftName: String
    let doc: String
    var properties: [ExportedProperty] = []
    var lists: [ExportedList] = []
    var commands: [ExportedCommand] = []
    var signals: [ExportedSignal] = []
    var children: [ExportedChild] = []
    var constructors: [ExportedConstructor] = []
    /// Registered with `isolation: .mainActor`: its objects live on the main loop.
    var isMainActor = false
    /// Whose lines the members declared from here on are: a derived registration
    /// (`python3 -m mvvm_gen derive`) sets `.derived` before its own and `.hand` again before it
    /// calls the members a class adds by hand. The registration check names each member's origin
    /// when a derived one and a hand-written one collide, so that its message says which to change.
    public var origin: ExportOrigin = .hand {
        didSet { if origin != oldValue { originChanges.append((MemberCounts(self), origin)) } }
    }
    /// Each change of ``origin``, with how many members of each kind were declared before it.
    var originChanges: [(counts: MemberCounts, origin: ExportOrigin)] = []

    init(name: String, display: String?, swiftName: String, doc: String) {
        self.name = name
        self.display = display
        self.swiftName = swiftName
        self.doc = doc
    }

    @inline(__always)
    static func target(_ object: AnyObject) -> Target { unsafeDowncast(object, to: Target.self) }

    /// Sets a value already accepted by `V`'s shape; when `V` itself refuses it, sets nothing
    /// and gives the message naming `what` (the property).
    @inline(__always)
    static func assign<V: ExportableValue>(_ value: Value, as _: V.Type, _ what: () -> String, _ set: (V) -> Void) -> String? {
        guard let converted = V(exportedValue: value) else { return refusal(of: value, by: V.self, what()) }
        set(converted)
        return nil
    }

    // MARK: Properties of an ObservableObject (or any class with a publisher per property)

    /// A read-only property: read with `get`, watched through `publisher` (its `$property`, which
    /// sends the new value as it is set).
    public mutating func output<V: ExportableValue, P: Publisher>(
        _ name: String, get: @escaping (Target) -> V, publisher: @escaping (Target) -> P, doc: String = ""
    ) where P.Output == V, P.Failure == Never {
        addProperty(name, get: get, publisher: publisher, set: nil, doc: doc)
    }

    /// A binding: read with `get`, written with `set`, watched through `publisher`.
    public mutating func binding<V: ExportableValue, P: Publisher>(
        _ name: String, get: @escaping (Target) -> V, set: @escaping (Target, V) -> Void,
        publisher: @escaping (Target) -> P, doc: String = ""
    ) where P.Output == V, P.Failure == Never {
        addProperty(name, get: get, publisher: publisher, set: set, doc: doc)
    }

    /// A read-only `@Published` property: `c.output("label", \.label, \.$label)`. Key path
    /// literals given here become direct accessors (no key-path projection at run time: a getter
    /// runs on every read).
    public mutating func output<V: ExportableValue, P: Publisher>(
        _ name: String, _ value: @escaping (Target) -> V, _ publisher: @escaping (Target) -> P, doc: String = ""
    ) where P.Output == V, P.Failure == Never {
        output(name, get: value, publisher: publisher, doc: doc)
    }

    /// A `@Published` binding: `c.binding("input", \.input, \.$input)`. The key path is projected
    /// at run time on each read and write; for a binding read often, `get:set:publisher:` closures
    /// are direct.
    public mutating func binding<V: ExportableValue, P: Publisher>(
        _ name: String, _ value: ReferenceWritableKeyPath<Target, V>, _ publisher: KeyPath<Target, P>, doc: String = ""
    ) where P.Output == V, P.Failure == Never {
        binding(name, get: { $0[keyPath: value] }, set: { $0[keyPath: value] = $1 },
                publisher: { $0[keyPath: publisher] }, doc: doc)
    }

    private mutating func addProperty<V: ExportableValue, P: Publisher>(
        _ name: String, get: @escaping (Target) -> V, publisher: @escaping (Target) -> P,
        set: ((Target, V) -> Void)?, doc: String
    ) where P.Output == V, P.Failure == Never {
        // A `$property` sends the current value at once (announced already: it changes nothing),
        // then each new one as it is set.
        addValueProperty(name, doc, get, set, watching: .own { object, slot in
            PublisherWatch(publisher(Self.target(object)).sink { slot.changed($0.exportedValue) })
        })
    }

    /// The place the next property takes among the class's properties, values and lists together.
    private var nextPropertyPosition: Int { properties.count + lists.count }

    /// Adds a property of values: read with `get`, written with `set` (a binding) once the value
    /// is converted to `V`, watched as `watching` says. Each kind of property passes its own;
    /// inlined, so the accessors' closures are made where the kind's are.
    @inline(__always)
    mutating func addValueProperty<V: ExportableValue>(_ name: String, _ doc: String, _ get: @escaping (Target) -> V,
                                                       _ set: ((Target, V) -> Void)?, watching: ValueWatching) {
        let position = nextPropertyPosition
        // The setter made as the property keeps it, never through an optional: an optional
        // closure is called through a thunk.
        guard let set else {
            return properties.append(ExportedProperty(name: name, position: position, shape: V.exportedShape, doc: doc,
                                                      get: { get(Self.target($0)).exportedValue }, watching: watching))
        }
        properties.append(ExportedProperty(
            name: name, position: position, shape: V.exportedShape, doc: doc, get: { get(Self.target($0)).exportedValue },
            set: { object, new, what in Self.assign(new, as: V.self, what) { set(Self.target(object), $0) } },
            watching: watching))
    }

    // MARK: Lists

    /// A list of child view models (each a registered class) kept in a ``SpliceList``, which
    /// records its own edits: `c.list("items", \.items)`. A change is announced as what it did,
    /// with no comparison of the whole list, whatever kind of class owns it.
    public mutating func list<Item: AnyObject>(_ name: String, _ items: @escaping (Target) -> SpliceList<Item>,
                                               doc: String = "") {
        addList(name, { items($0).elements }, doc: doc) { object, slot in
            SpliceListWatch(items(Self.target(object)), slot: slot)
        }
    }

    /// A list of child view models (each a registered class) kept in a `@Published` array,
    /// watched through `publisher` (its `$items`): `c.list("items", \.items, \.$items)`. Each
    /// change is compared with the items last announced, and announced as the fewest splices.
    public mutating func list<Item: AnyObject, P: Publisher>(
        _ name: String, _ items: @escaping (Target) -> [Item], _ publisher: @escaping (Target) -> P, doc: String = ""
    ) where P.Output == [Item], P.Failure == Never {
        list(name, get: items, publisher: publisher, doc: doc)
    }

    /// A list read with `get` and watched through `publisher`.
    public mutating func list<Item: AnyObject, P: Publisher>(
        _ name: String, get: @escaping (Target) -> [Item], publisher: @escaping (Target) -> P, doc: String = ""
    ) where P.Output == [Item], P.Failure == Never {
        addList(name, get, doc: doc) { object, slot in
            // The value is read once the operation is complete: only its identity matters.
            PublisherWatch(publisher(Self.target(object)).sink { _ in slot.changed(nil) })
        }
    }

    mutating func addList<Item: AnyObject>(_ name: String, _ get: @escaping (Target) -> [Item], doc: String,
                                           watch: @escaping (AnyObject, WatchedSlot<ListState>) -> ListWatch) {
        lists.append(ExportedList(
            name: name, position: nextPropertyPosition, doc: doc, itemType: ObjectIdentifier(Item.self),
            itemTypeName: String(describing: Item.self), count: { get(Self.target($0)).count },
            item: { get(Self.target($0))[$1] }, items: { ListItems(get(Self.target($0))) }, watch: watch))
    }

    // MARK: Commands

    // Commands of each number of arguments, async or not, with or without a result, are in
    // Generated/Arities.swift: `c.command("move", .value("from"), .value("to")) { $0.move(from: $1, to: $2) }`.
    // A command may return a value (an ExportableValue) and may throw: a thrown error fails the
    // call with MVVM_ERR_COMMAND_FAILED, its description (an ``ExportFailure``'s, or any error's)
    // as the message; what changed before it is notified. An `async` one (`c.asyncCommand`) runs
    // as a task on its object's loop (the loop is its executor, and `loop.clock` follows the
    // loop's time), from the call up to its first suspension and then as the loop's work; the
    // host starts it with `mvvm_call_async` and hears its result, failure or cancellation once.

    /// A command with one argument, named "argument" (an enum argument takes only its cases'
    /// raw values): `c.command("tapped") { (vm, action: Action) in vm.tapped(action) }`.
    public mutating func command<A: ExportableValue>(_ name: String, doc: String = "",
                                                    _ run: @escaping (Target, A) -> Void) {
        let argument = Argument<A>.value("argument")
        addCommand(name, doc, [argument.spec], result: .none, throwing: false) { object, values throws(CommandFailure) in
            run(Self.target(object), try argument.command(values, 0))
            return .none
        }
    }

    /// An `async` command with one argument, named "argument", as ``command(_:doc:_:)`` takes it:
    /// `c.asyncCommand("load") { (vm, page: Int) in try await vm.load(page) }`.
    public mutating func asyncCommand<A: ExportableValue, E: Error>(_ name: String, doc: String = "",
                                                                   _ run: @escaping (Target, A) async throws(E) -> Void) {
        asyncCommand(name, doc: doc, Argument<A>.value("argument"), run: run)
    }

    /// An `async` command with one argument, named "argument", that returns a value of `R`.
    public mutating func asyncCommand<A: ExportableValue, R: ExportableValue, E: Error>(
        _ name: String, doc: String = "", _ run: @escaping (Target, A) async throws(E) -> R
    ) {
        asyncCommand(name, doc: doc, Argument<A>.value("argument"), run: run)
    }

    /// `prepare` takes the arguments as their Swift types (refusing the call when one refuses)
    /// and gives the command's body, which runs as the call's task.
    mutating func addAsyncCommand(_ name: String, _ doc: String, _ arguments: [ExportedArgument],
                                  result: ValueShape, _ prepare: @escaping AsyncCommandStart) {
        var command = ExportedCommand(name: CName(name), doc: doc, arguments: arguments, result: result, throwing: true) {
            _, _ throws(CommandFailure) in .none
        }
        command.start = prepare
        commands.append(command)
    }

    mutating func addCommand(_ name: String, _ doc: String, _ arguments: [ExportedArgument], result: ValueShape,
                                     throwing: Bool, _ run: @escaping (AnyObject, CallArguments) throws(CommandFailure) -> Value) {
        commands.append(ExportedCommand(name: CName(name), doc: doc, arguments: arguments, result: result,
                                        throwing: throwing, run: run))
    }

    // MARK: Signals

    /// A signal: each value `publisher` sends (a subject's, say) reaches the subscribers.
    public mutating func signal<P: Publisher>(_ name: String, doc: String = "", _ publisher: @escaping (Target) -> P)
    where P.Output: ExportableValue, P.Failure == Never {
        signals.append(ExportedSignal(name: CName(name), payload: P.Output.exportedShape, doc: doc) { object, _, emit in
            publisher(Self.target(object)).sink { emit($0.exportedValue) }
        })
    }

    /// A signal with no payload.
    public mutating func signal<P: Publisher>(_ name: String, doc: String = "", _ publisher: @escaping (Target) -> P)
    where P.Output == Void, P.Failure == Never {
        signals.append(ExportedSignal(name: CName(name), payload: .none, doc: doc) { object, _, emit in
            publisher(Self.target(object)).sink { emit(.none) }
        })
    }

    /// A signal sent by calling a callback property, the way many view models tell their view
    /// something happened: `c.signal("speaker_changed", \.speakerChangedAction)` for a
    /// `var speakerChangedAction: (() -> Void)?`. The first time the object gets a handle, the
    /// engine sets the property to a closure of its own, which calls the closure already there
    /// first; each call is an event for every handle that reaches the object. The closure is
    /// installed once per object however many handles (children, list items) reach it
    /// (``CallbackSignalHub``). The app's own code assigning the property afterwards replaces the
    /// engine's closure, and so disconnects the signal for that object.
    public mutating func signal(_ name: String, _ callback: ReferenceWritableKeyPath<Target, (() -> Void)?>, doc: String = "") {
        signals.append(ExportedSignal(name: CName(name), payload: .none, doc: doc, connect: Self.callbackSignal(callback) {
            previous, hub in
            { previous?(); hub.send(.none) }
        }))
    }

    /// A signal sent by calling a callback property of one value (`((T) -> Void)?`), its payload:
    /// `c.signal("speaker_added", \.speakerAddedAction)`; otherwise as the one without a value.
    public mutating func signal<T: ExportableValue>(_ name: String, _ callback: ReferenceWritableKeyPath<Target, ((T) -> Void)?>,
                                                   doc: String = "") {
        signals.append(ExportedSignal(name: CName(name), payload: T.exportedShape, doc: doc, connect: Self.callbackSignal(callback) {
            previous, hub in
            { value in
                previous?(value)
                hub.send(value.exportedValue)
            }
        }))
    }

    /// How a handle connects to a callback property: through the object's one hub for it,
    /// installed by `install` (the engine's closure over the one already there) at the first
    /// connection.
    private static func callbackSignal<Callback>(
        _ callback: ReferenceWritableKeyPath<Target, Callback?>,
        install: @escaping (_ previous: Callback?, CallbackSignalHub) -> Callback
    ) -> (AnyObject, Loop, @escaping (Value) -> Void) -> AnyCancellable {
        let signal = CallbackSignalHub.Signal()
        return { object, loop, emit in
            let target = Self.target(object)
            let hub = CallbackSignalHub.hub(of: target, for: signal) { hub in
                target[keyPath: callback] = install(target[keyPath: callback], hub)
            }
            return hub.connect(loop: loop, emit: emit)
        }
    }

    // MARK: Children

    /// A child view model, itself a registered class; `mvvm_child` gives a new handle to it.
    public mutating func child<Child: AnyObject>(_ name: String, doc: String = "", _ make: @escaping (Target) -> Child) {
        children.append(ExportedChild(name: CName(name), doc: doc, childType: ObjectIdentifier(Child.self),
                                      childTypeName: String(describing: Child.self)) { make(Self.target($0)) })
    }

    // MARK: Constructors

    // Constructors of each number of arguments are in Generated/Arities.swift: values
    // (``Argument/value(_:)``), models and host services. The first one registered is
    // `mvvm_<class>_new`; give the others a `suffix:` (`c.constructor(suffix: "named",
    // .value("name"))`), and they are `new_with_<suffix>`. `make` may
    // throw (an ``ExportFailure`` for arguments out of range): the host gets
    // MVVM_ERR_INVALID_ARGUMENT and the error's text.

    mutating func addConstructor(_ suffix: String?, _ doc: String, _ arguments: [ExportedArgument],
                                 _ make: @escaping (Loop, CallArguments) throws(ExportFailure) -> Target) {
        let name = suffix.map { "new_with_\($0)" } ?? (constructors.isEmpty ? "new" : "new_\(constructors.count + 1)")
        constructors.append(ExportedConstructor(name: name, doc: doc, arguments: arguments, make: make))
    }
}

/// Where a member's registration came from: written by hand, or derived from the class's code.
public enum ExportOrigin: Sendable {
    case hand
    case derived
}

/// How many members of each kind a class declared: where an ``ExportBuilder/origin`` change fell.
struct MemberCounts {
    var properties = 0, lists = 0, commands = 0, signals = 0, children = 0, constructors = 0

    /// Before any member.
    init() {}

    /// Members of every kind.
    var all: Int { properties + commands + signals + children + constructors }

    init<Target>(_ builder: ExportBuilder<Target>) {
        properties = builder.properties.count
        lists = builder.lists.count
        commands = builder.commands.count
        signals = builder.signals.count
        children = builder.children.count
        constructors = builder.constructors.count
    }
}

// MARK: - @Observable classes

extension ExportBuilder where Target: Observable {
    /// A read-only property of an `@Observable` class: `c.output("count", \.count)`. Any
    /// property the key path reads through counts, so computed properties work too.
    public mutating func output<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V, doc: String = "") {
        addObserved(name, value, set: nil, doc: doc)
    }

    /// A binding of an `@Observable` class: `c.binding("title", \.title)`.
    public mutating func binding<V: ExportableValue>(_ name: String, _ value: ReferenceWritableKeyPath<Target, V>,
                                                    doc: String = "") {
        addObserved(name, { $0[keyPath: value] }, set: { $0[keyPath: value] = $1 }, doc: doc)
    }

    /// A binding of an `@Observable` class read and written by closures: no key-path projection
    /// on each read and write (what the key-path form costs), for properties read often.
    public mutating func binding<V: ExportableValue>(_ name: String, get: @escaping (Target) -> V,
                                                    set: @escaping (Target, V) -> Void, doc: String = "") {
        addObserved(name, get, set: set, doc: doc)
    }

    /// A list of child view models of an `@Observable` class: `c.list("items", \.items)`.
    public mutating func list<Item: AnyObject>(_ name: String, _ items: @escaping (Target) -> [Item], doc: String = "") {
        addList(name, items, doc: doc) { object, slot in
            ObservationWatch(Self.target(object), read: items, slot: slot)
        }
    }

    private mutating func addObserved<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V,
                                                         set: ((Target, V) -> Void)?, doc: String) {
        addValueProperty(name, doc, value, set, watching: .observation)
    }
}

// MARK: - Computed properties of an ObservableObject

extension ExportBuilder where Target: ObservableObject {
    /// A property with no publisher of its own, such as a computed one
    /// (`var fullName: String { "\(first) \(last)" }`): `c.output("full_name", \.fullName)`. As
    /// SwiftUI does, the library follows `objectWillChange` and reads it again once each
    /// operation that fired it is complete, announcing it only when its value changed. (A
    /// `$first.map { _ in self.fullName }` would see the old value: `@Published` publishes in
    /// `willSet`.)
    public mutating func output<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V, doc: String = "") {
        addComputed(name, value, set: nil, doc: doc)
    }

    /// A computed binding, read as ``output(_:_:doc:)`` reads and written with `set`.
    public mutating func binding<V: ExportableValue>(_ name: String, get: @escaping (Target) -> V,
                                                    set: @escaping (Target, V) -> Void, doc: String = "") {
        addComputed(name, get, set: set, doc: doc)
    }

    private mutating func addComputed<V: ExportableValue>(_ name: String, _ value: @escaping (Target) -> V,
                                                         set: ((Target, V) -> Void)?, doc: String) {
        // Told "changed" with no value: read once the operation is complete.
        addValueProperty(name, doc, value, set, watching: .own { object, slot in
            PublisherWatch(Self.target(object).objectWillChange.sink { _ in slot.changed(nil) })
        })
    }
}

// MARK: - Arguments

/// One named, typed argument of a constructor or a command: a value, a model (another exported
/// object on the same loop; constructors only), or a host service (constructors only).
public struct Argument<T> {
    let spec: ExportedArgument
    let read: (CallArguments, Int) throws(ExportError) -> T

    /// The argument at `index` as `T`; INVALID_ARGUMENT when `T` refuses the value.
    func take(_ arguments: CallArguments, _ index: Int) throws(ExportError) -> T { try read(arguments, index) }

    /// For a command: a refusal refuses the call, before the command runs.
    func command(_ arguments: CallArguments, _ index: Int) throws(CommandFailure) -> T {
        do { return try read(arguments, index) } catch { throw CommandFailure(refused: error) }
    }

    /// For a constructor: a refusal is its refusal (INVALID_ARGUMENT).
    func constructor(_ arguments: CallArguments, _ index: Int) throws(ExportFailure) -> T {
        do { return try read(arguments, index) } catch { throw ExportFailure(error.message) }
    }

    /// A value argument (`Int64`, `String`, an enum, an optional, an array, a record…).
    public static func value(_ name: String) -> Argument<T> where T: ExportableValue {
        Argument(spec: .value(name, T.exportedShape)) { arguments, index throws(ExportError) in
            // Accepted by its shape already; a type narrower than its shape (a String enum that
            // is not CaseIterable, a record whose init(from:) validates, a failable init) may
            // still refuse it.
            try converted(arguments.values[index], to: T.self, arguments.name.argument(index, name))
        }
    }

    /// A model: an exported object of class `T` on the constructor's loop.
    public static func model(_ name: String) -> Argument<T> where T: AnyObject {
        Argument(spec: ExportedArgument(name: name, kind: .model, modelTypes: [ObjectIdentifier(T.self)])) { arguments, index in
            unsafeDowncast(arguments.models[index]!, to: T.self)
        }
    }

    /// A model of any of `classes`, given to the constructor as `T` (a protocol they share).
    public static func model(_ name: String, oneOf classes: AnyObject.Type...) -> Argument<T> {
        Argument(spec: ExportedArgument(name: name, kind: .model, modelTypes: classes.map { ObjectIdentifier($0) })) {
            arguments, index in arguments.models[index]! as! T
        }
    }

    /// A host service (`mvvm_service_new`, or the typed call's request function): each request
    /// carries an argument of `request` type and expects an answer of `result` type.
    public static func service(_ name: String, request: MVVMValueType, result: MVVMValueType) -> Argument<T>
    where T == HostRequester {
        Argument(spec: ExportedArgument(name: name, kind: .service(argument: request, result: result))) {
            arguments, index in arguments.services[index]!
        }
    }
}
