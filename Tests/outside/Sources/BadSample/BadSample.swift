// A package that makes every registration mistake the library refuses (test_registration.c):
// the library must name each one, at once, and serve nothing, the catalog it carries included.
import MVVMCatalog
import MVVMExport
@preconcurrency import OpenCombine

public final class Board: ObservableObject {
    @Published public var title = ""
    @Published public var cards: [Card] = []
    @Published public var limit: Int?? = nil
    public var child = Card()
    public init() {}
}

/// Never registered as a class.
public final class Card {
    public init() {}
}

/// Used by a property, never registered as a record.
public struct Unregistered: ExportableRecord {
    public var text: String
}

/// Not CaseIterable: registration has no case to try.
public enum Mood: String, Codable, ExportableValue { case happy, sad }

/// Refused (its field mood has no value to start from), and named once for it: the command that
/// takes one is not reported as taking a record no package registers.
public struct Attendee: ExportableRecord {
    public var name: String
    public var mood: Mood
}

/// Contains itself through an array.
public struct Tree: ExportableRecord {
    public var label: String
    public var children: [Tree]
}

@_cdecl("libmvvm_register_package")
public func registerBadSample() {
    Catalog.register()                                                 // composed, as a library asks for it
    Exports.record(Tree.self)
    Exports.record(Attendee.self)                                      // refused, once
    Exports.register(Board.self) { c in
        c.binding("title", \.title, \.$title)
        c.command("title") { _ in }                                    // a property's name
        c.output("Sub Title!", \.title, \.$title)                      // not a C identifier
        c.command("get_title") { _ in }                                // mvvm_board_get_title twice
        c.list("cards", \.cards, \.$cards)                             // items of no registered class
        c.child("child") { $0.child }                                  // a child of no registered class
        c.output("limit", \.limit, \.$limit)                           // an optional of an optional
        c.command("show", .value("class")) { (_, _: String) in }       // a C++ keyword as an argument
        c.command("use", .value("note")) { (_, _: Unregistered) in }   // a record never registered
        c.command("invite", .value("guest")) { (_, _: Attendee) in }   // a record refused: not again
        c.constructor { _ in Board() }
    }
    Exports.register(Board.self, as: "board") { c in c.constructor { _ in Board() } }           // twice
    Exports.register(Board.self, as: "counter_view_model") { c in c.constructor { _ in Board() } }  // the catalog's name
    Exports.register(Board.self, as: "loop") { c in                    // typed calls named as the ABI's
        c.command("advance") { _ in }                                  // mvvm_loop_advance
        c.constructor { _ in Board() }                                 // mvvm_loop_new
    }
    Exports.register(Board.self, as: "counter_page") { c in            // a typed call named as another class's:
        c.command("view_model_new") { _ in }                           // counter_page_view_model's constructor
    }
}
