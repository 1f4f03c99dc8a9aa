// Registered types: classes and records share one namespace of C names, and each keeps the Swift
// type it was registered from.

/// What a registered class and a registered record have alike besides their C name: the Swift type
/// and the module that declares it, the doc.
struct TypeIdentity {
    let swiftName: String
    /// The name every binding shows it by (a binding adds only its keyword escape or type prefix):
    /// `display:` at registration, or the CamelCase of its C name.
    let display: String
    /// The generator makes a package's typed calls from its own classes only.
    let swiftModule: String
    let doc: String
    let swiftType: ObjectIdentifier

    init(swiftName: String, type: Any.Type, doc: String, cName: String, display: String?) {
        self.swiftName = swiftName
        self.display = display ?? Exports.camelCase(cName)
        swiftModule = String(String(reflecting: type).prefix { $0 != "." })
        self.doc = doc
        swiftType = ObjectIdentifier(type)
    }
}

/// A registered class or record (they share one namespace of C names). The C name is a field of
/// its own: the calls' hot paths read it, in messages, and a field is read without a getter.
protocol RegisteredType: AnyObject {
    var name: CName { get }
    var identity: TypeIdentity { get }
}

extension RegisteredType {
    var swiftName: String { identity.swiftName }
    var display: String { identity.display }
    var swiftModule: String { identity.swiftModule }
    var doc: String { identity.doc }
    var swiftType: ObjectIdentifier { identity.swiftType }
}
