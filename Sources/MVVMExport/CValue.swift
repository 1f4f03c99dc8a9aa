// Values between Swift and `mvvm_value`: reading what a host passes (checked, copied), and
// handing values out, lent for the length of a call (callbacks, request functions) or given
// (getters, results), a whole value in one allocation that `mvvm_value_free` frees.
import CMVVM
import Glibc

/// How deep a host's value may nest (arrays in arrays, records in records): deeper is refused
/// (a value that contains itself through its pointers would otherwise never end).
let maxValueDepth = 32
/// The most items one array (or fields one record) a host passes may have.
let maxValueCount = 1 << 24

/// A record value's name: none (NULL) is "", a record any record type takes; a name that is
/// not UTF-8 names no record and is refused (it used to read as none, and fit any record).
private func recordName(_ pointer: UnsafePointer<CChar>?, _ what: @autoclosure () -> String) throws(ExportError) -> String {
    guard let pointer else { return "" }
    return try CString.read(pointer, "\(what()).string (the record's name)")
}

extension MVVMValue {
    /// Reads a host's value, copying its strings and bytes. Field by field: a host built
    /// against an older header passes a value whose later fields it never set, and only the
    /// fields of the value's type are read. `what` names the value in errors, made only then.
    init(reading pointer: UnsafePointer<mvvm_value>, _ what: @autoclosure () -> String,
         depth: Int = 0) throws(ExportError) {
        let type = pointer.pointer(to: \.type)!.pointee
        switch ValueType(type) {
        case .some(.none): self = .none
        case .some(.null): self = .null
        case .some(.bool): self = .bool(pointer.pointer(to: \.boolean)!.pointee)
        case .some(.int): self = .int(pointer.pointer(to: \.integer)!.pointee)
        case .some(.uint): self = .uint(UInt64(bitPattern: pointer.pointer(to: \.integer)!.pointee))
        case .some(.double): self = .double(pointer.pointer(to: \.number)!.pointee)
        case .some(.string): self = .string(try CString.read(pointer.pointer(to: \.string)!.pointee, "\(what()).string"))
        case .some(.object): self = .object(pointer.pointer(to: \.object)!.pointee)
        case .some(.bytes):
            let length = pointer.pointer(to: \.integer)!.pointee
            guard length >= 0, length <= Int64(Int32.max) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) has \(length) bytes (0 to \(Int32.max))")
            }
            guard length > 0 else { self = .bytes([]); return }
            guard let start = pointer.pointer(to: \.string)!.pointee else {
                throw .nullPointer("\(what()).string (with \(length) bytes)")
            }
            self = .bytes(Array(UnsafeRawBufferPointer(start: start, count: Int(length))))
        case .some(.array):
            self = .array(try Self.readItems(pointer, 1, what(), depth))
        case .some(.record):
            let name = try recordName(pointer.pointer(to: \.string)!.pointee, what())
            self = .record(name, try Self.readItems(pointer, 1, what(), depth))
        case .some(.map):
            let pairs = try Self.readItems(pointer, 2, what(), depth)
            var names: [String] = []
            var values: [Value] = []
            for index in stride(from: 0, to: pairs.count, by: 2) {
                guard case let .string(name) = pairs[index] else {
                    throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()): name \(index / 2 + 1) of the map is "
                                      + "\(pairs[index].type.name), not string")
                }
                names.append(name)
                values.append(pairs[index + 1])
            }
            self = .map(names, values)
        case .some(.list): throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) is of type list, which no call takes")
        case nil: throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what()) has unknown type \(type.rawValue)")
        }
    }

    /// The `integer` items (times `per`) at the pointer in `object`, each read in turn.
    private static func readItems(_ pointer: UnsafePointer<mvvm_value>, _ per: Int, _ what: String,
                                  _ depth: Int) throws(ExportError) -> [Value] {
        guard depth < maxValueDepth else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) nests more than \(maxValueDepth) deep")
        }
        let count = pointer.pointer(to: \.integer)!.pointee
        guard count >= 0, count <= Int64(maxValueCount) else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) has \(count) items (0 to \(maxValueCount))")
        }
        guard count > 0 else { return [] }
        guard let items = UnsafePointer<mvvm_value>(bitPattern: UInt(truncatingIfNeeded: pointer.pointer(to: \.object)!.pointee)) else {
            throw .nullPointer("\(what).object (with \(count) items)")
        }
        var values: [Value] = []
        values.reserveCapacity(Int(count) * per)
        for index in 0..<Int(count) * per {
            values.append(try Value(reading: items + index, per == 1 ? "\(what)[\(index)]" : "\(what) pair \(index / 2 + 1)",
                                    depth: depth + 1))
        }
        return values
    }

    /// Lends the value to `body` as an `mvvm_value`, valid only during the call. A string also
    /// gives its length in bytes in `integer`, so a string holding NUL is read whole.
    func withCValue<T>(_ body: (mvvm_value) -> T) -> T {
        switch self {
        case let .string(text):
            // A native Swift string is contiguous UTF-8 with a NUL after it: no copy here.
            return text.withCString { pointer in
                var value = scalarCValue
                value.string = pointer
                value.integer = Int64(text.utf8.count)
                return body(value)
            }
        case .bytes, .array, .record, .map:
            var owned = ownedCValue()
            defer { mvvm_value_free(&owned) }
            return body(owned)
        case .none, .null, .bool, .int, .uint, .double, .object:
            return body(scalarCValue)
        }
    }

    /// The value as an `mvvm_value` the caller owns: what it points to is one allocation, freed
    /// by `mvvm_value_free` (nothing for a scalar).
    func ownedCValue() -> mvvm_value {
        var value = scalarCValue
        switch self {
        case .none, .null, .bool, .int, .uint, .double, .object: break
        case .string, .bytes, .array, .record, .map:
            var size = ValueBlock.Size()
            size.measure(self)
            var block = ValueBlock(size)
            block.fill(self, into: &value)
        }
        return value
    }

    /// The value's type and, for a scalar, its payload; the pointer of a string, bytes, an
    /// array, a record or a map is left for the caller to set.
    private var scalarCValue: mvvm_value {
        var value = mvvm_value(type: type.cType, boolean: false, integer: 0, number: 0, string: nil, object: 0)
        switch self {
        case let .bool(flag): value.boolean = flag
        case let .int(number): value.integer = number
        case let .uint(number): value.integer = Int64(bitPattern: number)
        case let .double(number): value.number = number
        case let .object(handle): value.object = handle
        case .none, .null, .string, .bytes, .array, .record, .map: break
        }
        return value
    }
}

/// One allocation holding a value's items (all `mvvm_value`s, aligned, first) and then its
/// strings and bytes. The top value's own items, or its own bytes when it is a string, are the
/// first written, so they start the block: freeing the top value's pointer frees it all.
struct ValueBlock {
    struct Size {
        var values = 0
        var bytes = 0

        mutating func measure(_ value: Value) {
            switch value {
            case let .string(text): bytes += text.utf8.count + 1
            case let .bytes(data): bytes += data.count + 1
            case let .array(items), let .record(_, items):
                values += items.count
                for item in items { measure(item) }
            case let .map(names, items):
                values += 2 * items.count
                for (name, item) in zip(names, items) {
                    measure(.string(name))
                    measure(item)
                }
            default: break
            }
        }
    }

    private let base: UnsafeMutableRawPointer
    private var nextValue: UnsafeMutablePointer<mvvm_value>
    private var nextByte: UnsafeMutablePointer<UInt8>

    init(_ size: Size) {
        let valueBytes = size.values * MemoryLayout<mvvm_value>.stride
        base = malloc(max(1, valueBytes + size.bytes))!
        nextValue = base.bindMemory(to: mvvm_value.self, capacity: size.values)
        nextByte = (base + valueBytes).bindMemory(to: UInt8.self, capacity: size.bytes)
    }

    private mutating func values(_ count: Int) -> UnsafeMutablePointer<mvvm_value> {
        defer { nextValue += count }
        return nextValue
    }

    private mutating func bytes<C: Collection>(_ data: C) -> UnsafeMutablePointer<CChar> where C.Element == UInt8 {
        let start = nextByte
        for byte in data {
            nextByte.pointee = byte
            nextByte += 1
        }
        nextByte.pointee = 0
        nextByte += 1
        return UnsafeMutableRawPointer(start).assumingMemoryBound(to: CChar.self)
    }

    mutating func fill(_ value: Value, into slot: inout mvvm_value) {
        slot = mvvm_value(type: value.type.cType, boolean: false, integer: 0, number: 0, string: nil, object: 0)
        switch value {
        case .none, .null: break
        case let .bool(flag): slot.boolean = flag
        case let .int(number): slot.integer = number
        case let .uint(number): slot.integer = Int64(bitPattern: number)
        case let .double(number): slot.number = number
        case let .object(handle): slot.object = handle
        case let .string(text):
            slot.string = UnsafePointer(bytes(text.utf8))
            slot.integer = Int64(text.utf8.count)
        case let .bytes(data):
            slot.string = UnsafePointer(bytes(data))
            slot.integer = Int64(data.count)
        case let .array(items):
            fillItems(items, into: &slot)
        case let .record(name, fields):
            slot.string = Registry.shared.record(named: name)?.name.pointer
            fillItems(fields, into: &slot)
        case let .map(names, items):
            let start = values(2 * items.count)
            for (index, (name, item)) in zip(names, items).enumerated() {
                fill(.string(name), into: &start[2 * index])
                fill(item, into: &start[2 * index + 1])
            }
            slot.integer = Int64(items.count)
            slot.object = UInt64(UInt(bitPattern: start))
        }
    }

    private mutating func fillItems(_ items: [Value], into slot: inout mvvm_value) {
        let start = values(items.count)
        for (index, item) in items.enumerated() { fill(item, into: &start[index]) }
        slot.integer = Int64(items.count)
        slot.object = UInt64(UInt(bitPattern: start))
    }
}

// MARK: - C entry points

@_cdecl("mvvm_value_free")
public func mvvm_value_free(_ value: UnsafeMutablePointer<mvvm_value>?) {
    guard let value else { return }
    switch ValueType(value.pointee.type) {
    case .string?, .bytes?: free(UnsafeMutableRawPointer(mutating: value.pointee.string))
    case .array?, .record?, .map?: free(UnsafeMutableRawPointer(bitPattern: UInt(truncatingIfNeeded: value.pointee.object)))
    default: break
    }
    value.pointee = mvvm_value(type: MVVM_TYPE_NONE, boolean: false, integer: 0, number: 0, string: nil, object: 0)
}

@_cdecl("mvvm_value_copy")
public func mvvm_value_copy(_ value: UnsafePointer<mvvm_value>?, _ out: UnsafeMutablePointer<mvvm_value>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        guard let value else { throw .nullPointer("value") }
        try requireOut(out)
        write(try Value(copying: value, "value").ownedCValue(), to: out)
    }
}

extension MVVMValue {
    /// Reads a value the library handed out: its strings by their lengths (they may hold NUL).
    init(copying pointer: UnsafePointer<mvvm_value>, _ what: String, depth: Int = 0) throws(ExportError) {
        let value = pointer.pointee
        switch ValueType(value.type) {
        case .string?:
            guard let text = value.string else { throw .nullPointer("\(what).string") }
            let length = value.integer
            guard length >= 0 else { throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) has a negative length") }
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) is not valid UTF-8")
            }
            self = .string(decoded)
        case .array?, .record?, .map?:
            guard depth < maxValueDepth else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) nests more than \(maxValueDepth) deep")
            }
            // The count checked before it is multiplied: a map's pairs counted as Int64.max
            // overflowed the product (a trap, found by the fuzzer).
            guard value.integer >= 0, value.integer <= Int64(maxValueCount) else {
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what) has \(value.integer) items (0 to \(maxValueCount))")
            }
            let count = Int(value.integer) * (value.type == MVVM_TYPE_MAP ? 2 : 1)
            let items = UnsafePointer<mvvm_value>(bitPattern: UInt(truncatingIfNeeded: value.object))
            guard count == 0 || items != nil else { throw .nullPointer("\(what).object") }
            var copied: [Value] = []
            for index in 0..<count { copied.append(try Value(copying: items! + index, "\(what)[\(index)]", depth: depth + 1)) }
            if value.type == MVVM_TYPE_ARRAY {
                self = .array(copied)
            } else if value.type == MVVM_TYPE_RECORD {
                self = .record(try recordName(value.string, what), copied)
            } else {
                var names: [String] = []
                var values: [Value] = []
                for index in stride(from: 0, to: copied.count, by: 2) {
                    guard case let .string(name) = copied[index] else {
                        throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(what): a map's names are strings")
                    }
                    names.append(name)
                    values.append(copied[index + 1])
                }
                self = .map(names, values)
            }
        default:
            try self.init(reading: pointer, what, depth: depth)
        }
    }
}

@_cdecl("mvvm_record_field")
public func mvvm_record_field(_ record: UnsafePointer<mvvm_value>?, _ field: UnsafePointer<CChar>?,
                              _ out: UnsafeMutablePointer<UnsafePointer<mvvm_value>?>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        guard let record else { throw .nullPointer("record") }
        try requireOut(out)
        let fieldName = try CString.read(field, "field")
        guard record.pointee.type == MVVM_TYPE_RECORD else {
            throw ExportError(MVVM_ERR_TYPE_MISMATCH, "the value is \(ValueType(record.pointee.type)?.name ?? "of an unknown type"), "
                              + "not a record")
        }
        let name = try recordName(record.pointee.string, "record")
        guard let description = Registry.shared.record(named: name) else {
            throw ExportError(MVVM_ERR_UNKNOWN_NAME, "no record named \(CString.echo(name)) is registered")
        }
        guard let index = description.fields.firstIndex(where: { $0.name == fieldName }) else {
            throw ExportError(MVVM_ERR_UNKNOWN_NAME, "record \(name) has no field named \(CString.echo(fieldName))")
        }
        guard Int64(index) < record.pointee.integer,
              let fields = UnsafePointer<mvvm_value>(bitPattern: UInt(truncatingIfNeeded: record.pointee.object)) else {
            throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "the record value has \(record.pointee.integer) fields, not the "
                              + "\(description.fields.count) of record \(name)")
        }
        write(fields + index, to: out)
    }
}
