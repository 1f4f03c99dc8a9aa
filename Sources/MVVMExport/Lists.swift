// Lists of child view models: the identities that tell items apart, and the C entry points that
// read a list.
import CMVVM
import MVVMRuntime

/// One int64 per Swift object for its whole life (`mvvm_object_id`), never reused: an
/// `ObjectIdentifier` is, once its object is gone, so each entry remembers its object weakly.
final class ObjectIdentity: @unchecked Sendable {
    static let shared = ObjectIdentity()

    private final class Entry {
        weak var object: AnyObject?
        let id: Int64
        init(_ object: AnyObject, _ id: Int64) {
            self.object = object
            self.id = id
        }
    }

    private let lock = PThreadLock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextID: Int64 = 1
    private var sweepAt = 1024

    func id(of object: AnyObject) -> Int64 {
        lock.withLock {
            let key = ObjectIdentifier(object)
            if let entry = entries[key], entry.object === object { return entry.id }
            let id = nextID
            nextID += 1
            entries[key] = Entry(object, id)
            if entries.count >= sweepAt {
                entries = entries.filter { $0.value.object != nil }
                sweepAt = max(1024, entries.count * 2)
            }
            return id
        }
    }
}

// MARK: - C entry points

@_cdecl("mvvm_list_count")
public func mvvm_list_count(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { object throws(ExportError) -> Int64 in
            Int64(object.listCount(try object.exportedClass.list(named: name)))
        }, to: out)
    }
}

@_cdecl("mvvm_list_item")
public func mvvm_list_item(_ object: mvvm_handle, _ name: UnsafePointer<CChar>?, _ index: Int64,
                           _ out: UnsafeMutablePointer<mvvm_handle>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { object throws(ExportError) -> mvvm_handle in
            let list = try object.exportedClass.list(named: name)
            guard let item = object.listItem(list, at: Int(clamping: index)) else {
                let count = object.listCount(list)
                throw ExportError(MVVM_ERR_INVALID_ARGUMENT, "\(object.exportedClass.name.string).\(list.name.string) "
                                  + "has \(count) item\(count == 1 ? "" : "s"): no index \(index)")
            }
            guard let itemClass = Registry.shared.exportedClass(for: ObjectIdentifier(type(of: item)))
                ?? Registry.shared.exportedClass(for: list.itemType) else {
                throw ExportError(MVVM_ERR_INTERNAL, "\(object.exportedClass.name.string).\(list.name.string) holds "
                                  + "\(withArticle(String(describing: type(of: item)))), which no package registers")
            }
            return ExportedObject.register(itemClass, target: item, context: object.context,
                                           keepAlive: [object.target]).handle
        }, to: out)
    }
}

@_cdecl("mvvm_object_id")
public func mvvm_object_id(_ object: mvvm_handle, _ out: UnsafeMutablePointer<Int64>?) -> mvvm_status {
    exporting { () throws(ExportError) in
        try requireOut(out)
        write(try withObject(object, reading: true) { ObjectIdentity.shared.id(of: $0.target) }, to: out)
    }
}
