// The package's one registration: each class once, each member in one line.
#if MVVM_WITH_CATALOG
import MVVMCatalog
#endif
import MVVMExport
import Foundation
import MVVMFoundation

// Structs of the app's own file (Agenda.swift), made records here: no Codable, no edit there.
extension Speaker: ExportableFieldRecord {}
extension Slot: ExportableFieldRecord {}

@_cdecl("libmvvm_register_package")
public func registerSample() {
#if MVVM_WITH_CATALOG
    Catalog.register()  // the fuzzers' build (Package.swift): the catalog composed in
#endif
    Exports.record(Address.self, doc: "A postal address.")
    Exports.record(Contact.self, doc: "A name at an address.")
    Exports.record(Shape.self, doc: "A record whose field takes the name of a JavaScript object's own member.")
    Exports.record(Speaker.self, doc: "A speaker: a struct registered by its fields (no Codable).") { r in
        r.field("name", \.name)
        r.field("is_completed", \.isCompleted)
        r.field("email", \.email)
        r.make { f in
            let name: String = try f.value("name")
            guard !name.isEmpty else { throw ExportFailure("a speaker has a name") }
            return Speaker(name: name, isCompleted: try f.value("is_completed"), email: try f.value("email"))
        }
    }
    Exports.record(Slot.self, doc: "A speaker's slot: records in a record.") { r in
        r.field("speaker", \.speaker)
        r.field("backup", \.backup)
        r.field("minutes", \.minutes)
        r.make { f in Slot(speaker: try f.value("speaker"), backup: try f.value("backup"), minutes: try f.value("minutes")) }
    }
    Exports.register(Agenda.self, doc: "Speakers: records registered by their fields, callback properties as signals.") { c in
        c.binding("speaker", \.speaker, \.$speaker)
        c.binding("speakers", \.speakers, \.$speakers)
        c.binding("slot", \.slot, \.$slot)
        c.output("own_calls", \.ownCalls, \.$ownCalls, doc: "How often the app's own callback ran.")
        c.command("add", doc: "Adds a speaker; gives the count.", .value("speaker")) { (agenda, speaker: Speaker) in
            agenda.add(speaker)
        }
        c.command("next", doc: "The next speaker not yet heard, or none.") { $0.next() }
        c.command("change_speaker_elsewhere", doc: "Calls the callback from another thread.") { $0.changeSpeakerElsewhere() }
        c.command("replace_callback", doc: "The app's own code assigns the callback.") { $0.replaceCallback() }
        c.signal("speaker_changed", \.speakerChangedAction, doc: "Each call of speakerChangedAction.")
        c.signal("speaker_added", \.speakerAddedAction, doc: "Each speaker added, by speakerAddedAction.")
        c.constructor(doc: "Empty, with a speakerChangedAction of its own.") { _ in Agenda() }
    }
    Exports.register(Conference.self, doc: "Agendas as a child and as list items: handles made and let go of.") { c in
        c.child("keynote", doc: "The keynote's agenda, also the first track.") { $0.keynote }
        c.list("tracks", \.tracks, \.$tracks, doc: "Every track's agenda.")
        c.constructor(doc: "A keynote and one more track.") { _ in Conference() }
    }
    Exports.register(Profile.self, doc: "A profile: optionals, arrays, records and bytes (an ObservableObject).") { c in
        c.binding("first", \.first, \.$first)
        c.binding("last", \.last, \.$last)
        c.output("full_name", \.fullName, doc: "first and last, computed: no publisher of its own.")
        c.binding("limit", \.limit, \.$limit, doc: "A limit, or none.")
        c.binding("tags", \.tags, \.$tags)
        c.binding("scores", \.scores, \.$scores)
        c.binding("address", \.address, \.$address, doc: "The address, or none.")
        c.binding("avatar", \.avatar, \.$avatar, doc: "An image's bytes.")
        c.output("saves", \.saves, \.$saves, doc: "How many saves and moves were tried.")
        c.command("move_tag", doc: "Moves a tag; fails for an index out of range.", .value("from"), .value("to")) {
            (profile, from: Int, to: Int) in try profile.moveTag(from: from, to: to)
        }
        c.command("contact", doc: "A contact of this profile at an address.", .value("name"), .value("street"), .value("city")) {
            (profile, name: String, street: String, city: String) in profile.contact(name: name, street: street, city: city)
        }
        c.command("save", doc: "Saves the contact of the profile's address; fails when it has none.") { try $0.save() }
        c.signal("saved", doc: "Each contact saved.") { $0.saved }
        c.asyncCommand("load", doc: "Adds `count` tags, one a second of the loop's time; gives the tags.", .value("count")) {
            (profile, count: Int) in try await profile.load(count: count)
        }
        c.asyncCommand("ping", doc: "Gives the number of saves, without suspending.") { await $0.ping() }
        c.constructor(doc: "Empty.") { loop in Profile(clock: loop.clock) }
    }
    Exports.register(Dialog.self, doc: "Members named as the bindings' own API: each binding's member wins.") { c in
        c.binding("description", \.description, \.$description)
        c.output("closed", \.closed, \.$closed)
        c.output("handle", \.handle, \.$handle)
        c.binding("loop", \.loop, \.$loop)
        c.output("id", \.id, \.$id)
        c.binding("class", \.class, \.$class)
        c.output("log", \.log, \.$log, doc: "What each command did, in order.")
        c.signal("bind", doc: "Sent by send.") { $0.bind }
        c.command("close", doc: "Closes the dialog (the object stays usable).") { $0.close() }
        for name in ["subscribe", "unsubscribe", "get", "set", "describe", "snapshot"] {
            c.command(name, doc: "Records its own name.") { $0.record(name) }
        }
        c.command("send", doc: "Sends `text` on bind, and records it.", .value("text")) { (dialog, text: String) in
            dialog.record("send \(text)")
            dialog.bind.send(text)
        }
        c.command("move", doc: "Records a move; `from` is a keyword in Python.", .value("from"), .value("to")) {
            (dialog, from: Int, to: Int) in dialog.record("move \(from) \(to)")
        }
        c.command("reshape", doc: "The shape with one more side, and records it.", .value("shape")) {
            (dialog, shape: Shape) in dialog.reshape(shape)
        }
        c.constructor(doc: "Open.") { _ in Dialog() }
    }
    Exports.register(Wishlist.self, doc: "A wishlist of optionally priced items (an @Observable class).") { c in
        c.binding("items", \.items)
        c.binding("prices", \.prices)
        c.binding("budget", \.budget)
        c.binding("home", \.home)
        c.output("total", \.total)
        c.command("add", doc: "Adds an item; gives the count.", .value("item"), .value("price")) {
            (list, item: String, price: Double?) in list.add(item, price: price)
        }
        c.command("item", doc: "The item at an index.", .value("index")) { (list, index: Int) in try list.item(at: index) }
        c.constructor(doc: "Empty.") { _ in Wishlist() }
    }
    Exports.register(Finder.self, doc: "Finds what the host's service answers for a query (an async command).") { c in
        c.binding("query", \.query, \.$query)
        c.binding("delay", \.delay, \.$delay, doc: "Milliseconds of the loop's time find waits before it asks.")
        c.output("found", \.found, \.$found, doc: "The last answer.")
        c.output("is_finding", \.isFinding, \.$isFinding)
        c.output("cancellations", \.cancellations, \.$cancellations, doc: "How many finds saw their cancellation.")
        c.asyncCommand("find", doc: "Asks the service for the query; gives its answer, which becomes found.") { try await $0.find() }
        c.constructor(doc: "Over the host's service: asked with the query, it answers a string.",
                      .service("service", request: .string, result: .string)) { (loop, service: HostRequester) in
            Finder(clock: loop.clock) { query in try await service.ask(.string(query), as: String.self) }
        }
    }
    Exports.register(Greeter.self, doc: "Greets whoever the view names.") { c in
        c.binding("name", \.name, \.$name, doc: "Who to greet.")
        c.output("greeting", \.greeting, \.$greeting, doc: "\"Hello, <name>!\", or \"Hello!\".")
        c.output("greet_count", \.greetCount, \.$greetCount, doc: "How many times greet ran.")
        c.command("greet", doc: "Says the greeting.") { $0.greet() }
        c.signal("greeted", doc: "Each greeting said.") { $0.greeted }
        c.constructor(doc: "Nobody named yet.") { _ in Greeter() }
        c.constructor(suffix: "name", doc: "Greeting `name`.", .value("name")) { (_, name: String) in Greeter(name: name) }
    }
    Exports.register(Tally.self, doc: "A running total (an @Observable class).") { c in
        c.output("total", \.total, doc: "The running total.")
        c.binding("step", \.step, doc: "What add adds.")
        c.binding("title", \.title, doc: "A label.")
        c.output("is_even", \.isEven, doc: "Whether total is even.")
        c.command("add", doc: "Adds step.") { $0.add() }
        c.command("add_many", doc: "Adds step that many times, as one change.") { (tally, times: Int) in tally.addMany(times) }
        c.command("reset", doc: "Back to 0.") { $0.reset() }
        c.constructor(doc: "Starting at `start`.", .value("start")) { (_, start: Int) in Tally(start: start) }
    }
    Exports.record(LineItem.self, doc: "An order's line: a UUID, a Date, a URL, a Decimal and an optional Date.")
    Exports.register(Order.self, doc: "An order: Foundation's UUID, Date, URL and Decimal as values.") { c in
        c.binding("id", \.id, \.$id, doc: "A UUID.")
        c.binding("placed", \.placed, \.$placed, doc: "A Date; 1970 at first.")
        c.binding("link", \.link, \.$link, doc: "A URL.")
        c.binding("cost", \.cost, \.$cost, doc: "A Decimal.")
        c.binding("due", \.due, \.$due, doc: "A Date, or none.")
        c.binding("related", \.related, \.$related, doc: "UUIDs.")
        c.binding("line", \.line, \.$line, doc: "A line, or none.")
        c.command("make_line", doc: "A line of these values.", .value("id"), .value("at"), .value("link"), .value("price")) {
            (order, id: UUID, at: Date, link: URL, price: Decimal) in order.makeLine(id: id, at: at, link: link, price: price)
        }
        c.asyncCommand("postpone", doc: "Sets due to `to`; gives the one before.", .value("to")) {
            (order, to: Date) in await order.postpone(to: to)
        }
        c.constructor(doc: "Of id 00000000-0000-0000-0000-000000000001.") { _ in Order() }
        c.constructor(suffix: "id", doc: "Of `id`.", .value("id")) { (_, id: UUID) in Order(id: id) }
    }
    Exports.register(Meter.self, display: "Odometer", doc: "UInt64 values, shown by a display name of its own.") { c in
        c.binding("reading", \.reading, \.$reading, doc: "A UInt64; 2^63 at first.")
        c.command("ahead", doc: "The reading `steps` further on (a UInt64 result).", .value("steps")) {
            (meter, steps: UInt64) in meter.ahead(steps)
        }
        c.constructor(doc: "At 2^63.") { _ in Meter() }
        c.constructor(suffix: "reading", doc: "At `reading`.", .value("reading")) { (_, reading: UInt64) in Meter(reading: reading) }
    }
    Exports.register(Song.self, doc: "A song of a playlist.") { c in
        c.binding("title", \.title, \.$title)
    }
    Exports.register(Playlist.self, doc: "Songs, and the ones a filter shows.") { c in
        c.list("songs", \.songs, \.$songs, doc: "The songs the filter shows, in order.")
        c.list("all", \.all, \.$all, doc: "Every song.")
        c.binding("filter", \.filter, \.$filter, doc: "A title prefix; \"\" shows all.")
        c.command("add", doc: "Adds a song.") { (playlist, title: String) in playlist.add(title) }
        c.command("add_many", doc: "Adds \"a,b,c\" at once.") { (playlist, titles: String) in playlist.addMany(titles) }
        c.command("remove_first") { $0.removeFirst() }
        c.command("reverse") { $0.reverse() }
        c.command("rotate", doc: "Moves the last song to the front.") { $0.rotate() }
        c.command("sort_by_title") { $0.sortByTitle() }
        c.constructor(doc: "Empty.") { _ in Playlist() }
    }
    Exports.record(Stay.self, doc: "Nights at a rate; a negative number of nights is refused.")
    Exports.register(Booking.self, doc: "Values narrower than their C types: each refuses some a host may pass.") { c in
        c.binding("urgency", \.urgency, \.$urgency, doc: "low or high (not CaseIterable: any string crosses).")
        c.binding("stay", \.stay, \.$stay)
        c.binding("reference", \.reference, \.$reference, doc: "BK- and four digits, or none.")
        c.binding("rate", \.rate, \.$rate, doc: "A Float.")
        c.binding("rates", \.rates, \.$rates, doc: "Floats.")
        c.output("booked", \.booked, \.$booked, doc: "How many bookings were made.")
        c.command("mark", doc: "Sets the urgency.", .value("urgency")) { (booking, urgency: Urgency) in booking.urgency = urgency }
        c.command("refer", doc: "Sets the reference.", .value("reference")) {
            (booking, reference: Reference) in booking.reference = reference
        }
        c.command("stay_for", doc: "Sets the stay.", .value("stay")) { (booking, stay: Stay) in booking.stay = stay }
        c.asyncCommand("book", doc: "Books a stay after a turn of the loop; gives the number of bookings.",
                       .value("stay"), .value("urgency")) { (booking, stay: Stay, urgency: Urgency) in
            await booking.book(stay, urgency: urgency)
        }
        c.constructor(doc: "No reference yet.") { _ in Booking() }
        c.constructor(suffix: "reference", doc: "Booked under `reference`.", .value("reference")) {
            (_, reference: Reference) in Booking(reference: reference)
        }
    }
    Exports.register(Board.self, doc: "Tallies in a list (an @Observable owner).") { c in
        c.list("tallies", \.tallies, doc: "The tallies.")
        c.command("add", doc: "Adds a tally starting at the argument.") { (board, start: Int) in board.add(start) }
        c.command("remove_odd", doc: "Removes the tallies whose total is odd.") { $0.removeOdd() }
        c.command("reverse") { $0.reverse() }
        c.constructor(doc: "Empty.") { _ in Board() }
    }
}
