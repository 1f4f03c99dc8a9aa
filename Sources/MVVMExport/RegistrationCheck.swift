// The rules a registration must keep, checked over the whole of it once the packages have
// registered: every problem found, each naming its class or record and member. The keywords and
// the typed calls' names are the naming rule's (Generated/Naming.swift, from mvvm_gen's naming.json).

/// Whether `name` is a lower_snake C identifier that is no C keyword (nor, for an argument, a
/// C++ one).
func isValidName(_ name: String, argument: Bool = false) -> Bool {
    guard let first = name.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
    let allowed = name.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
    return allowed && !Naming.cKeywords.contains(name) && !(argument && Naming.cppKeywords.contains(name))
}

/// Whether `name` is a CamelCase identifier, as every binding's class names take it: a capital
/// letter, then letters and digits.
func isValidDisplay(_ name: String) -> Bool {
    guard let first = name.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
    return name.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
        || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
}

struct RegistrationCheck {
    let classes: [ExportedClass]
    let byType: [ObjectIdentifier: ExportedClass]
    let records: [ObjectIdentifier: RecordDescription]
    /// Records whose registration was refused (their problem is reported already): a member of
    /// one is not reported again as of a record no package registers.
    var refusedRecords: Set<ObjectIdentifier> = []

    var problems: [String] {
        var problems: [String] = []
        // Every typed call's name, across the classes: one C namespace, the ABI's included.
        var typedCalls: [String: TypedCallOwner] = [:]
        for exportedClass in classes { problems += check(exportedClass, &typedCalls) }
        let sortedRecords = records.values.sorted(by: { $0.name.string < $1.name.string })
        for record in sortedRecords { problems += check(record) }
        // One display name each: a binding names classes and records in one namespace.
        var displays: [String: String] = [:]
        for (kind, registered) in classes.map({ ("class", $0 as any RegisteredType) })
            + sortedRecords.map({ ("record", $0 as any RegisteredType) }) {
            let owner = "\(kind) \(registered.name.string) (\(registered.swiftName))"
            if !isValidDisplay(registered.display) {
                problems.append("\(owner): its display name \(CString.echo(registered.display)) is not a CamelCase "
                                + "identifier ([A-Z][A-Za-z0-9]*)")
            } else if let first = displays[registered.display] {
                problems.append("\(owner): its display name \(registered.display) is \(first)'s too")
            } else {
                displays[registered.display] = owner
            }
        }
        return problems
    }

    private func name(_ name: String, _ what: String, argument: Bool = false) -> [String] {
        isValidName(name, argument: argument) ? [] : ["\(what): \(CString.echo(name)) is not a lower_snake C identifier "
            + "([a-z][a-z0-9_]*, not a C keyword\(argument ? " nor a C++ one" : ""))"]
    }

    /// Which class's member a typed call's name is taken by.
    private struct TypedCallOwner {
        let owner: String
        let what: String
    }

    private func check(_ exportedClass: ExportedClass, _ typedCalls: inout [String: TypedCallOwner]) -> [String] {
        let owner = "class \(exportedClass.name.string) (\(exportedClass.swiftName))"
        var problems = name(exportedClass.name.string, owner)
        // A member as messages name it: with its origin when the class mixes derived members and
        // hand-written ones, so that a collision says which line to change.
        let origins = exportedClass.origins
        func named(_ kind: String, _ memberName: String, _ count: KeyPath<MemberCounts, Int>, _ index: Int) -> String {
            guard origins.mixesOrigins else { return "\(kind) \(memberName)" }
            let origin = origins.origin(count, index) == .derived ? "derived from the code" : "written by hand"
            return "\(kind) \(memberName) (\(origin))"
        }
        // One namespace for every member: a host names each alone (subscribe, get, send).
        var members: [String: String] = [:]
        func member(_ memberName: String, _ kind: String, _ count: KeyPath<MemberCounts, Int>, _ index: Int) {
            problems += name(memberName, "\(owner), \(kind) \(memberName)")
            let this = named(kind, memberName, count, index)
            if let first = members[memberName] {
                problems.append("\(owner): \(this) has the name of its \(first)")
            } else {
                members[memberName] = this
            }
        }
        // Values and lists in the order registered: a collision names the later one.
        for listed in exportedClass.listedProperties {
            switch listed {
            case let .value(property, index):
                member(property.name.string, "property", \.properties, index)
                problems += shape(property.shape, "\(owner), property \(property.name.string)")
            case let .list(list, index):
                member(list.name.string, "property", \.lists, index)
                if byType[list.itemType] == nil {
                    problems.append("\(owner), list \(list.name.string): its items are \(list.itemTypeName), "
                                    + "which no package registers as a class")
                }
            }
        }
        for (index, command) in exportedClass.commands.enumerated() {
            member(command.name.string, "command", \.commands, index)
            problems += arguments(command.arguments, "\(owner), command \(command.name.string)", commands: true)
            problems += shape(command.result, "\(owner), command \(command.name.string), its result")
        }
        for (index, signal) in exportedClass.signals.enumerated() {
            member(signal.name.string, "signal", \.signals, index)
            problems += shape(signal.payload, "\(owner), signal \(signal.name.string)")
        }
        for (index, child) in exportedClass.children.enumerated() {
            member(child.name.string, "child", \.children, index)
            if byType[child.childType] == nil {
                problems.append("\(owner), child \(child.name.string): it is \(withArticle(child.childTypeName)), which no "
                                + "package registers as a class")
            }
        }
        // Each typed call's name once, named by the generator's rule (Generated/Naming.swift): not
        // one of the ABI's (a class loop's constructor would be mvvm_loop_new), nor another
        // member's (a command get_title and a property title's getter would both be
        // mvvm_<class>_get_title), nor another class's (a command view_model_new of a class
        // counter_page and the constructor new of counter_page_view_model).
        let className = exportedClass.name.string
        func typedCall(_ function: String, _ what: String) {
            if Naming.abiNames.contains(function) {
                problems.append("\(owner): \(what) would be \(function), a name of the C ABI (mvvm.h)")
            } else if let first = typedCalls[function] {
                problems.append(first.owner == owner ? "\(owner): \(what) and \(first.what) would both be \(function)"
                                : "\(owner): \(what) would be \(function), as \(first.owner)'s \(first.what) is")
            } else {
                typedCalls[function] = TypedCallOwner(owner: owner, what: what)
            }
        }
        for (index, property) in exportedClass.properties.enumerated() {
            let name = property.name.string
            let what = named("property", name, \.properties, index)
            typedCall(Naming.getter(className, name), "\(what)'s getter")
            if property.isWritable { typedCall(Naming.setter(className, name), "\(what)'s setter") }
        }
        for (index, command) in exportedClass.commands.enumerated() {
            typedCall(Naming.command(className, command.name.string), named("command", command.name.string, \.commands, index))
        }
        for (index, child) in exportedClass.children.enumerated() {
            typedCall(Naming.child(className, child.name.string), named("child", child.name.string, \.children, index))
        }
        for (index, constructor) in exportedClass.constructors.enumerated() {
            typedCall(Naming.constructor(className, constructor.name), named("constructor", constructor.name, \.constructors, index))
        }
        for constructor in exportedClass.constructors {
            let what = "\(owner), constructor \(constructor.name)"
            if constructor.name.hasPrefix("new_with_") { problems += name(String(constructor.name.dropFirst(9)), what) }
            problems += arguments(constructor.arguments, what, commands: false)
        }
        return problems
    }

    private func arguments(_ arguments: [ExportedArgument], _ what: String, commands: Bool) -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for argument in arguments {
            let named = "\(what), argument \(argument.name)"
            problems += name(argument.name, named, argument: true)
            if !seen.insert(argument.name).inserted { problems.append("\(named) is named twice") }
            switch argument.kind {
            case .value: problems += shape(argument.shape, named)
            case .model:
                if commands { problems.append("\(named): a command takes values, not models") }
                for type in argument.modelTypes where byType[type] == nil {
                    problems.append("\(named): a model class it names is not registered")
                }
            case .service:
                if commands { problems.append("\(named): a command takes values, not services") }
            }
        }
        return problems
    }

    /// A type's problems: an optional of an optional, a record not registered.
    private func shape(_ shape: ValueShape, _ what: String) -> [String] {
        switch shape {
        case let .optional(wrapped):
            if wrapped.isOptional { return ["\(what): an optional of an optional (\(shape.name)) cannot cross: null would mean either"] }
            return self.shape(wrapped, what)
        case let .array(element): return self.shape(element, what)
        case let .record(type):
            return records[type.id] != nil || refusedRecords.contains(type.id)
                ? []
                : ["\(what): it is \(withArticle(type.swiftName)), a record no package registers "
                   + "(Exports.record(\(type.swiftName).self))"]
        default: return []
        }
    }

    private func check(_ record: RecordDescription) -> [String] {
        let owner = "record \(record.name.string) (\(record.swiftName))"
        var problems = name(record.name.string, owner)
        var seen = Set<String>()
        for field in record.fields {
            let what = "\(owner), field \(field.name)"
            problems += name(field.name, what)
            if !seen.insert(field.name).inserted { problems.append("\(what) is named twice") }
            problems += shape(field.shape, what)
        }
        if contains(record.swiftType, in: record, visited: []) {
            problems.append("\(owner) contains itself, through its fields: a record's value must end")
        }
        return problems
    }

    /// Whether `record`'s fields reach the record `target` (arrays and optionals included: an
    /// empty array or a nil ends a value, but descriptions would still be endless).
    private func contains(_ target: ObjectIdentifier, in record: RecordDescription, visited: Set<ObjectIdentifier>) -> Bool {
        var visited = visited
        guard visited.insert(record.swiftType).inserted else { return false }
        for field in record.fields {
            for reached in recordsReached(by: field.shape) {
                if reached == target { return true }
                if let next = records[reached], contains(target, in: next, visited: visited) { return true }
            }
        }
        return false
    }

    private func recordsReached(by shape: ValueShape) -> [ObjectIdentifier] {
        switch shape {
        case let .optional(wrapped), let .array(wrapped): return recordsReached(by: wrapped)
        case let .record(type): return [type.id]
        default: return []
        }
    }
}
