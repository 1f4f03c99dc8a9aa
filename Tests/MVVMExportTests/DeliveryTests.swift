import CMVVM
import func MVVMExport.mvvm_release
import func MVVMExport.mvvm_new
import func MVVMExport.mvvm_loop_new
import func MVVMExport.mvvm_subscribe
import func MVVMExport.mvvm_send
import func MVVMExport.mvvm_list_item
import func MVVMExport.mvvm_list_count
import MVVMRuntime
import Testing
@testable import MVVMExport
@preconcurrency import OpenCombine

/// A shelf of books, each book a view model: one list kept in a SpliceList, one in a
/// @Published array, so the two ways of telling a list's changes can be compared.
final class Book {
    let title: String
    init(_ title: String) { self.title = title }
}

final class Shelf: ObservableObject {
    let books = SpliceList<Book>()
    @Published var shelved: [Book] = []
    @Published var label = ""
    @Published var count = 0
}

/// Registered once for the whole test process.
private let registered: Void = {
    Exports.register(Book.self) { c in c.constructor { _ in Book("?") } }
    Exports.register(Shelf.self) { c in
        c.list("books", \.books)
        c.list("shelved", \.shelved, \.$shelved)
        c.binding("label", \.label, \.$label)
        c.binding("count", \.count, \.$count)
        c.command("add", .value("title")) { (shelf, title: String) in shelf.books.append(Book(title)) }
        c.constructor { _ in Shelf() }
    }
}()

/// What a subscriber heard, in order; and what it does on each splice.
final class Heard: @unchecked Sendable {
    var events: [String] = []
    var onSplice: ((ListSplice) -> Void)?
}

private let hear: mvvm_callback = { source, event, userData in
    let heard = Unmanaged<Heard>.fromOpaque(userData!).takeUnretainedValue()
    let event = event!.pointee
    let name = String(cString: event.name)
    if event.kind == MVVM_EVENT_SPLICE {
        heard.events.append("\(name)(\(event.index), -\(event.removed), +\(event.inserted))")
        heard.onSplice?(ListSplice(index: Int(event.index), removed: Int(event.removed), inserted: Int(event.inserted)))
    } else if event.value.type == MVVM_TYPE_INT {
        heard.events.append("\(name)=\(event.value.integer)")
    } else if event.value.type == MVVM_TYPE_STRING {
        heard.events.append("\(name)=\(String(cString: event.value.string))")
    }
    _ = source
}

/// A loop and a shelf on it, reached as a host reaches them.
struct Fixture {
    let loop: mvvm_handle
    let shelf: mvvm_handle
    let heard = Heard()

    init() {
        _ = registered
        var loop: mvvm_handle = 0, shelf: mvvm_handle = 0, subscription: mvvm_handle = 0
        _ = mvvm_loop_new(MVVM_LOOP_VIRTUAL, &loop)
        _ = mvvm_new(loop, "shelf", nil, 0, &shelf)
        self.loop = loop
        self.shelf = shelf
        _ = mvvm_subscribe(shelf, nil, hear, Unmanaged.passUnretained(heard).toOpaque(), nil, &subscription)
    }

    /// The Swift shelf behind the handle, changed as an operation of its loop.
    func change(_ body: (Shelf) -> Void) {
        let object = HandleTable.shared.lookup(shelf) as! ExportedObject
        _ = try? object.context.operation { () throws(ExportError) in body(object.target as! Shelf) }
    }

    func release() {
        _ = mvvm_release(shelf)
        _ = mvvm_release(loop)
    }

    /// Subscribes `heard` to the books list as a host does.
    func subscribeBooks(_ heard: Heard) {
        var subscription: mvvm_handle = 0
        _ = mvvm_subscribe(shelf, "books", hear, Unmanaged.passUnretained(heard).toOpaque(), nil, &subscription)
    }

    /// The title of the item at `index` of the books, read as a host reads it.
    func bookTitle(_ index: Int) -> String? { Self.title(shelf, "books", index) }

    func booksCount() -> Int { Self.count(shelf, "books") }

    /// The titles of a list of `shelf`, read as a host reads them.
    static func titles(_ shelf: mvvm_handle, _ list: String) -> String {
        (0..<count(shelf, list)).map { title(shelf, list, $0) ?? "?" }.joined(separator: ",")
    }

    static func title(_ shelf: mvvm_handle, _ list: String, _ index: Int) -> String? {
        var item: mvvm_handle = 0
        guard mvvm_list_item(shelf, list, Int64(index), &item) == MVVM_OK else { return nil }
        defer { _ = mvvm_release(item) }
        return ((HandleTable.shared.lookup(item) as? ExportedObject)?.target as? Book)?.title
    }

    static func count(_ shelf: mvvm_handle, _ list: String) -> Int {
        var count: Int64 = -1
        _ = mvvm_list_count(shelf, list, &count)
        return Int(count)
    }
}

@Suite(.serialized) struct DeliveryTests {
    @Test func anOperationNotifiesEachChangedPropertyOnceWithItsFinalValueInClassOrder() {
        let fixture = Fixture()
        fixture.change { shelf in
            shelf.count = 1
            shelf.label = "a"
            shelf.count = 2
            shelf.label = "b"
            shelf.count = 2
        }
        #expect(fixture.heard.events == ["label=b", "count=2"])
        // Back to the values announced: nothing to announce.
        fixture.change { shelf in
            shelf.count = 5
            shelf.count = 2
        }
        #expect(fixture.heard.events == ["label=b", "count=2"])
        fixture.release()
    }

    @Test func anEditOfASpliceListCostsTheEditWhateverTheLength() {
        for length in [1_000, 10_000, 100_000] {
            let fixture = Fixture()
            fixture.change { shelf in shelf.books.append(contentsOf: (0..<length).map { Book("\($0)") }) }
            let before = ListItems.reads.load(ordering: .relaxed)
            fixture.change { $0.books.append(Book("new")) }
            fixture.change { _ = $0.books.remove(at: length / 2) }
            fixture.change { $0.books.move(from: 10, to: 20) }
            // Not one item of the list read or compared, at any length.
            #expect(ListItems.reads.load(ordering: .relaxed) - before == 0)
            #expect(fixture.heard.events.suffix(4) == ["books(\(length), -0, +1)", "books(\(length / 2), -1, +0)",
                                                        "books(10, -1, +0)", "books(20, -0, +1)"])
            fixture.release()
        }
    }

    /// Between changes the engine keeps no copy of a SpliceList's items: an append grows the
    /// list's own array in place instead of copying every item (which made each edit O(n)).
    @Test func anEditOfASpliceListDoesNotCopyItsArray() {
        let fixture = Fixture()
        fixture.change { shelf in
            shelf.books.append(contentsOf: (0..<1_000).map { Book("\($0)") })
            shelf.books.reserveCapacity(4_000)
        }
        let object = HandleTable.shared.lookup(fixture.shelf) as! ExportedObject
        let shelf = object.target as! Shelf
        let storage = shelf.books.elements.withUnsafeBufferPointer { $0.baseAddress }
        for title in ["a", "b", "c"] {
            fixture.change { $0.books.append(Book(title)) }
            #expect(shelf.books.elements.withUnsafeBufferPointer { $0.baseAddress } == storage)
        }
        #expect(fixture.heard.events.suffix(3) == ["books(1000, -0, +1)", "books(1001, -0, +1)", "books(1002, -0, +1)"])
        fixture.release()
    }

    @Test func anEditOfAPublishedArrayComparesTheWholeList() {
        var perEdit: [Int] = []
        for length in [1_000, 10_000] {
            let fixture = Fixture()
            fixture.change { shelf in shelf.shelved = (0..<length).map { Book("\($0)") } }
            let before = ListItems.reads.load(ordering: .relaxed)
            fixture.change { $0.shelved.append(Book("new")) }
            perEdit.append(ListItems.reads.load(ordering: .relaxed) - before)
            #expect(fixture.heard.events.last == "shelved(\(length), -0, +1)")
            fixture.release()
        }
        // Both lists read whole: what the SpliceList spares.
        #expect(perEdit[0] >= 2_000 && perEdit[1] >= 20_000)
    }

    /// A splice callback that adds to the list it hears: each addition is delivered after the
    /// splice that caused it, one level deeper, so the loop ends at the nesting limit with an
    /// error status, as it does through a value property; it never runs on unbounded.
    @Test func aFeedbackLoopThroughSplicesEndsAtTheNestingLimit() {
        let fixture = Fixture()
        let feeder = Heard()
        var added = 0, refused = 0
        var title = mvvm_value(type: MVVM_TYPE_STRING, boolean: false, integer: 0, number: 0, string: nil, object: 0)
        feeder.onSplice = { _ in
            let status = "again".withCString { text in
                title.string = text
                return mvvm_send(fixture.shelf, "add", &title)
            }
            if status == MVVM_OK { added += 1 } else if status == MVVM_ERR_INVALID_ARGUMENT { refused += 1 }
        }
        fixture.subscribeBooks(feeder)
        fixture.change { $0.books.append(Book("first")) }
        #expect(refused == 1)
        #expect(added == Int(MVVM_MAX_NESTED_CALLS) - 1)
        fixture.release()
    }

    /// A subscription made while a change's splices are delivered hears the next change, not
    /// the rest of this one.
    @Test func aSubscriptionMadeDuringASpliceHearsTheNextChange() {
        let fixture = Fixture()
        fixture.change { shelf in shelf.books.append(contentsOf: (0..<6).map { Book("\($0)") }) }
        let first = Heard(), late = Heard()
        first.onSplice = { [unowned first] _ in
            if late.events.isEmpty && first.events.count == 1 { fixture.subscribeBooks(late) }
        }
        fixture.subscribeBooks(first)
        // Three splices in one change.
        fixture.change { shelf in
            shelf.books.remove(at: 5)
            shelf.books.remove(at: 3)
            shelf.books.remove(at: 1)
        }
        #expect(first.events == ["books(1, -1, +0)", "books(2, -1, +0)", "books(3, -1, +0)"])
        #expect(late.events.isEmpty)
        fixture.change { $0.books.append(Book("next")) }
        #expect(late.events == ["books(3, -0, +1)"])
        fixture.release()
    }

    /// Reads during each splice see the list as that splice leaves it, also when a callback
    /// changed the list in the meantime (that change is delivered after this one).
    @Test func readsDuringASpliceSeeTheListAsThatSpliceLeavesIt() {
        let fixture = Fixture()
        fixture.change { shelf in shelf.books.append(contentsOf: ["a", "b", "c"].map(Book.init)) }
        let reader = Heard()
        var seen: [String] = []
        var changedOnce = false
        reader.onSplice = { splice in
            if !changedOnce {
                changedOnce = true
                // A nested change, made during the first splice of the change.
                var title = mvvm_value(type: MVVM_TYPE_STRING, boolean: false, integer: 0, number: 0, string: nil, object: 0)
                _ = "nested".withCString { text in
                    title.string = text
                    return mvvm_send(fixture.shelf, "add", &title)
                }
            }
            let titles = (0..<fixture.booksCount()).map { fixture.bookTitle($0) ?? "?" }
            seen.append("\(splice.index):" + titles.joined(separator: ","))
        }
        fixture.subscribeBooks(reader)
        // One change of two splices: x before a, y between b and c.
        fixture.change { shelf in
            shelf.books.insert(Book("x"), at: 0)
            shelf.books.insert(Book("y"), at: 3)
        }
        #expect(seen == ["0:x,a,b,c", "3:x,a,b,y,c", "5:x,a,b,y,c,nested"])
        fixture.release()
    }

    /// One operation, one consistent state: while one list's splices are delivered, another
    /// list the operation changed reads as before it until its own splices come, then as each
    /// of them leaves it.
    @Test func anotherListChangedByTheOperationReadsAsItsDeliveredSplicesLeaveIt() {
        let fixture = Fixture()
        fixture.change { shelf in
            shelf.books.append(contentsOf: ["a", "b", "c"].map(Book.init))
            shelf.shelved = ["a", "b", "c"].map(Book.init)
        }
        let reader = Heard()
        var seen: [String] = []
        reader.onSplice = { splice in
            seen.append("\(splice.index) books:\(Fixture.titles(fixture.shelf, "books")) "
                        + "shelved:\(Fixture.titles(fixture.shelf, "shelved"))")
        }
        var subscription: mvvm_handle = 0
        _ = mvvm_subscribe(fixture.shelf, nil, hear, Unmanaged.passUnretained(reader).toOpaque(), nil, &subscription)
        // books (announced first) and shelved each change by two splices in one operation.
        fixture.change { shelf in
            shelf.books.insert(Book("x"), at: 0)
            shelf.books.insert(Book("y"), at: 3)
            shelf.shelved = [Book("p")] + shelf.shelved + [Book("q")]
        }
        #expect(seen == ["0 books:x,a,b,c shelved:a,b,c", "3 books:x,a,b,y,c shelved:a,b,c",
                         "0 books:x,a,b,y,c shelved:p,a,b,c", "4 books:x,a,b,y,c shelved:p,a,b,c,q"])
        fixture.release()
    }

    /// The same across objects: a list of another object the operation changed reads as before
    /// it while the first object's splices are delivered.
    @Test func aListOfAnotherObjectChangedByTheOperationReadsAsBeforeItUntilItsSplices() {
        let fixture = Fixture()
        var other: mvvm_handle = 0
        _ = mvvm_new(fixture.loop, "shelf", nil, 0, &other)
        let first = HandleTable.shared.lookup(fixture.shelf) as! ExportedObject
        let second = HandleTable.shared.lookup(other) as! ExportedObject
        func both(_ body: (Shelf, Shelf) -> Void) {
            _ = try? first.context.operation { () throws(ExportError) in
                body(first.target as! Shelf, second.target as! Shelf)
            }
        }
        both { $0.books.append(Book("a")); $1.books.append(Book("b")) }
        let reader = Heard(), otherReader = Heard()
        var seen: [String] = []
        reader.onSplice = { _ in seen.append("first:\(Fixture.titles(other, "books"))") }
        otherReader.onSplice = { _ in seen.append("second:\(Fixture.titles(other, "books"))") }
        fixture.subscribeBooks(reader)
        var subscription: mvvm_handle = 0
        _ = mvvm_subscribe(other, "books", hear, Unmanaged.passUnretained(otherReader).toOpaque(), nil, &subscription)
        both { $0.books.append(Book("c")); $1.books.append(Book("d")) }
        #expect(seen == ["first:b", "second:b,d"])
        _ = mvvm_release(other)
        fixture.release()
    }
}
