// A todo store's SQLite database, through GRDB: opening (what is refused, and before SQLite
// touches it), making a new one, the schema and its migrations, transactions, and the checks
// made before each change.
//
// A database this process may not write (on a read-only file system, a file or folder its user
// may not write) is opened without ever writing anything beside it: SQLite, left to itself,
// falls back to reading such a file and makes the -wal and -shm files a WAL database needs
// wherever the folder lets it, owned by the reader, and every change of the database's owner
// then fails. So it is opened `mode=ro` through its -wal and -shm files when both are there (an
// open connection's commits included), else `immutable=1`: a snapshot of the file, no locks, no
// files, later changes not seen. Either way the store shows the todos as they were when it
// opened, and every change is refused ("the database is read-only").
//
// The file: WAL mode, `synchronous = NORMAL` (a commit survives the process being killed; after
// a power cut the database is whole, its last commits perhaps lost), a 5 s busy timeout. It is
// marked as the todo app's: `PRAGMA application_id` is 0x746F646F ("todo"), `user_version` is
// the schema version.
//
//     CREATE TABLE todo (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
//                        completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)));
//     CREATE TABLE settings (id INTEGER PRIMARY KEY CHECK (id = 1),
//                            filter TEXT NOT NULL CHECK (filter IN ('all', 'active', 'completed')));
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import GRDBSQLite

final class TodoDatabase {
    /// "todo" in ASCII: `PRAGMA application_id` of every todo database.
    static let applicationID: Int32 = 0x746F_646F

    /// Migration `n` takes a database from schema version `n` to `n + 1` (version 0: a new,
    /// empty file). The last version is the one this code reads and writes; a database of a
    /// later one is refused, one of an earlier one is migrated when opened.
    static let migrations: [@Sendable (Database) throws -> Void] = [
        { db in
            try db.execute(sql: """
                CREATE TABLE todo (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    completed INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1))
                );
                CREATE TABLE settings (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    filter TEXT NOT NULL CHECK (filter IN ('all', 'active', 'completed'))
                );
                INSERT INTO settings (id, filter) VALUES (1, 'all');
                """)
        },
    ]
    static var schemaVersion: Int { migrations.count }

    /// What the database holds: the todos in creation order (ascending ids), and the filter.
    struct Contents {
        var todos: [Todo]
        var filter: TodoFilter
    }

    /// The path as messages quote it: at most 100 characters, then its length in bytes.
    let quoted: String
    /// Why this process may not write the database (every change is refused, saying so), or nil.
    let readOnlyReason: String?
    var isReadOnly: Bool { readOnlyReason != nil }
    private let queue: DatabaseQueue
    /// The file opened (symbolic links resolved), its directory, and which file it is: before
    /// each change the path must still name that file, in a directory that can be written.
    private let resolvedPath: String
    private let directory: String
    private let identity: FileIdentity
    /// `PRAGMA data_version` when this connection last read the todos: it changes when another
    /// connection commits.
    private var dataVersion: Int
    private var walEmptied = false

    private init(queue: DatabaseQueue, quoted: String, resolvedPath: String, identity: FileIdentity,
                 readOnlyReason: String?, dataVersion: Int) {
        self.queue = queue
        self.quoted = quoted
        self.resolvedPath = resolvedPath
        directory = Path.directory(of: resolvedPath)
        self.identity = identity
        self.readOnlyReason = readOnlyReason
        self.dataVersion = dataVersion
    }

    // MARK: Opening

    /// Opens the database at `path`, making a new one where no file is, and reads it.
    /// Refused, before SQLite opens it: a path that is not a regular file (a FIFO, a device, a
    /// directory: never opened for reading, so never blocking), an empty file, a file that is
    /// not a SQLite database or is not marked as a todo database, and one of a newer schema
    /// version. Refused after: a schema or rows that are not the todo app's.
    static func open(_ path: String) throws(TodoStoreError) -> (TodoDatabase, Contents) {
        let quoted = Path.quote(path)
        guard !path.utf8.contains(0) else { throw TodoStoreError("\(quoted) contains a NUL character") }
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw TodoStoreError("cannot open \(quoted): \(Path.reason(code))") }
            var link = stat()
            if lstat(path, &link) == 0 {
                throw TodoStoreError("\(quoted) is a symbolic link to a missing file (make the file, or point the link at one)")
            }
            try create(path, quoted)
            guard stat(path, &info) == 0 else { throw TodoStoreError("cannot open \(quoted): \(Path.reason(errno))") }
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TodoStoreError("\(quoted) is \(Path.kind(info.st_mode)), not a todo database")
        }
        let identity = try checkHeader(path, quoted)

        let resolvedPath = Path.resolved(path)
        var readOnlyReason = whyNotWritable(resolvedPath)
        var queue: DatabaseQueue?
        if readOnlyReason == nil {
            do {
                queue = try DatabaseQueue(path: path, configuration: configuration(writable: true))
            } catch is OpenedReadOnly {
                readOnlyReason = "SQLite could not open its file for writing"
            } catch {
                throw opening(quoted, error)
            }
        }
        // Held until the todos are read: the -wal and -shm files found stay there meanwhile.
        var walKept: Int32 = -1
        defer { if walKept >= 0 { close(walKept) } }
        if readOnlyReason != nil {
            do {
                let (readQueue, kept) = try openReadOnly(resolvedPath)
                queue = readQueue
                walKept = kept
            } catch {
                throw opening(quoted, error)
            }
        }
        guard let queue else { throw TodoStoreError("cannot open \(quoted)") }
        do {
            let readOnly = readOnlyReason != nil
            let (applicationID, version, journal) = try queue.inDatabase { db in
                (try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                 try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                 try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "")
            }
            try checkMark(applicationID: applicationID, version: version, quoted)
            // Schema and rows are checked before anything is written: a file refused is left as it was.
            var loaded = version == schemaVersion ? try readContents(queue, quoted) : nil
            if !readOnly && journal != "wal" {
                // Ours, so converting it is ours to do (and read again: the conversion counts as a
                // change in `PRAGMA data_version`). Where it cannot be (its directory is
                // read-only) it stays as it is, and the first change says why it cannot be saved.
                let mode = try? queue.inDatabase { db in try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
                if mode == "wal", loaded != nil { loaded = try readContents(queue, quoted) }
            }
            if version < schemaVersion {
                guard !readOnly else {
                    throw TodoStoreError("\(quoted) has schema version \(version) and needs upgrading to \(schemaVersion), "
                                         + "but it is read-only")
                }
                try queue.inDatabase { db in
                    try db.inTransaction(.immediate) {
                        let now = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                        if now < schemaVersion { try migrate(db, from: now) }
                        return .commit
                    }
                }
                loaded = try readContents(queue, quoted)
            }
            guard let (contents, dataVersion) = loaded else { throw TodoStoreError("cannot read \(quoted)") }
            // The path still names the file whose header was checked.
            guard stat(path, &info) == 0, FileIdentity(info) == identity else {
                throw TodoStoreError("\(quoted) was replaced by another file while it was being opened")
            }
            let database = TodoDatabase(queue: queue, quoted: quoted, resolvedPath: resolvedPath,
                                        identity: identity, readOnlyReason: readOnlyReason, dataVersion: dataVersion)
            return (database, contents)
        } catch let error as TodoStoreError {
            throw error
        } catch {
            throw opening(quoted, error)
        }
    }

    /// Why this process may not write the database at `resolvedPath`, or nil when it may: SQLite
    /// writes the file, and makes its -wal and -shm files beside it.
    private static func whyNotWritable(_ resolvedPath: String) -> String? {
        var volume = statvfs()
        if statvfs(resolvedPath, &volume) == 0 && volume.f_flag & UInt(ST_RDONLY) != 0 {
            return "it is on a read-only file system"
        }
        if faccessat(AT_FDCWD, resolvedPath, W_OK, AT_EACCESS) != 0 {
            return errno == EROFS ? "it is on a read-only file system" : "this user may not write its file"
        }
        if faccessat(AT_FDCWD, Path.directory(of: resolvedPath), W_OK, AT_EACCESS) != 0 {
            return "this user may not write its folder, where its -wal and -shm files go"
        }
        return nil
    }

    /// A connection that only reads, and never makes a file: `mode=ro` through the database's
    /// -wal and -shm files when both are there (`readonly_shm`: the -shm is only read), else
    /// `immutable=1`, a snapshot of the file (SQLite would make the missing files wherever the
    /// folder lets it). With it, the descriptor of a read lock that keeps the files found from
    /// being deleted (see `keepWAL`), or -1; the caller closes it once the todos are read.
    private static func openReadOnly(_ resolvedPath: String) throws -> (DatabaseQueue, Int32) {
        let kept = keepWAL(resolvedPath)
        let hasWAL = access(resolvedPath + "-wal", F_OK) == 0 && access(resolvedPath + "-shm", F_OK) == 0
        if !hasWAL, kept >= 0 { close(kept) }
        var configuration = configuration(writable: false)
        // SQLITE_OPEN_READONLY: a SQLite that took the URI for a file name would find no such
        // file, and make none.
        configuration.readonly = true
        let uri = "file://\(Path.uriEncoded(resolvedPath))?" + (hasWAL ? "mode=ro&readonly_shm=1" : "immutable=1")
        do {
            return (try DatabaseQueue(path: uri, configuration: configuration), hasWAL ? kept : -1)
        } catch {
            if hasWAL, kept >= 0 { close(kept) }
            throw error
        }
    }

    /// A connection closing deletes the database's -wal and -shm files only when it can lock the
    /// whole file (SQLite's EXCLUSIVE lock): a read lock on SQLite's SHARED bytes, held on a
    /// descriptor of its own (an open file description lock: closing it leaves SQLite's own locks
    /// alone), keeps them there between finding them and reading through them. -1 when it
    /// cannot be taken (then a connection closing meanwhile may leave the reader to make them).
    private static func keepWAL(_ resolvedPath: String) -> Int32 {
        #if os(Linux)
        let fd = openFile(resolvedPath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0x4000_0002   // SQLite's SHARED_FIRST: PENDING_BYTE (1 GiB) + 2
        lock.l_len = 510             // SHARED_SIZE
        let F_OFD_SETLK: Int32 = 37
        guard fcntl(fd, F_OFD_SETLK, &lock) == 0 else {
            close(fd)
            return -1
        }
        return fd
        #else
        return -1
        #endif
    }

    /// The schema checked, the todos and filter, and `PRAGMA data_version`, in one read transaction.
    private static func readContents(_ queue: DatabaseQueue, _ quoted: String) throws -> (Contents, Int) {
        try queue.inDatabase { db in
            var loaded: (Contents, Int)?
            try db.inTransaction(.deferred) {
                try checkSchema(db, quoted)
                loaded = (try load(db, quoted), try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0)
                return .commit
            }
            guard let loaded else { throw TodoStoreError("cannot read \(quoted)") }
            return loaded
        }
    }

    /// Reads the first 100 bytes (the SQLite header) through a descriptor opened without
    /// blocking, and refuses what is not a todo database. Which file it is, for later checks.
    private static func checkHeader(_ path: String, _ quoted: String) throws(TodoStoreError) -> FileIdentity {
        let fd = openFile(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw TodoStoreError("cannot open \(quoted): \(Path.reason(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw TodoStoreError("cannot open \(quoted): \(Path.reason(errno))") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TodoStoreError("\(quoted) is \(Path.kind(info.st_mode)), not a todo database")
        }
        guard info.st_size > 0 else {
            throw TodoStoreError("\(quoted) is an empty file, not a todo database (a new database is made only "
                                 + "where no file is)")
        }
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < header.count {
            let got = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + count, $0.count - count, off_t(count)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw TodoStoreError("cannot read \(quoted): \(Path.reason(errno))") }
            if got == 0 { break }
            count += got
        }
        guard count == header.count, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw TodoStoreError("\(quoted) is not a todo database (not a SQLite database)")
        }
        func bigEndian(_ at: Int) -> Int { Int(Int32(bitPattern: header[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) })) }
        try checkMark(applicationID: bigEndian(68), version: bigEndian(60), quoted)
        return FileIdentity(info)
    }

    /// Refuses a database not marked as the todo app's, or of a newer schema version.
    private static func checkMark(applicationID: Int, version: Int, _ quoted: String) throws(TodoStoreError) {
        guard applicationID == Int(Self.applicationID) else {
            throw TodoStoreError("\(quoted) is not a todo database (a SQLite database whose application_id is "
                                 + "\(applicationID), not the todo app's \(Self.applicationID))")
        }
        guard version <= schemaVersion else {
            throw TodoStoreError("\(quoted) was written by a newer version of the todo app (schema version \(version); "
                                 + "this one knows versions up to \(schemaVersion)): it is left as it is")
        }
        guard version >= 1 else {
            throw TodoStoreError("\(quoted) is not a todo database (marked as the todo app's, but with schema version \(version))")
        }
    }

    /// The tables and columns of the current schema version are there.
    private static func checkSchema(_ db: Database, _ quoted: String) throws {
        let expected = ["todo": ["id", "title", "completed"], "settings": ["id", "filter"]]
        for (table, columns) in expected.sorted(by: { $0.key < $1.key }) {
            let found = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            guard found == columns else {
                throw TodoStoreError("\(quoted) is not a todo database (table \(table) has columns [\(found.joined(separator: ", "))], "
                                     + "not [\(columns.joined(separator: ", "))])")
            }
        }
        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'todo'") ?? ""
        guard sql.uppercased().contains("AUTOINCREMENT") else {
            throw TodoStoreError("\(quoted) is not a todo database (its todo ids are not AUTOINCREMENT: they could be reused)")
        }
    }

    /// Makes a new database at `path`: written and synced under a temporary name beside it, then
    /// linked into place (never over a file: where another object or process made one first,
    /// theirs is kept), so the path names either nothing or a whole database.
    private static func create(_ path: String, _ quoted: String) throws(TodoStoreError) {
        let directory = Path.directory(of: path)
        // A name of its own per attempt: other objects, threads or processes may be making one too.
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 where fd < 0 {
            temporary = "\(directory)/.todo-new-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
            fd = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw TodoStoreError("cannot create \(quoted): \(Path.reason(errno))") }
        close(fd)
        do {
            let queue = try DatabaseQueue(path: temporary, configuration: configuration())
            try queue.writeWithoutTransaction { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.inTransaction(.immediate) {
                    try migrate(db, from: 0)
                    return .commit
                }
            }
            try queue.close()   // checkpoints: the whole database is in the file, synced
        } catch {
            Path.remove(temporary)
            throw TodoStoreError("cannot create \(quoted): \(message(error))")
        }
        fd = openFile(temporary, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        if link(temporary, path) != 0 {
            let code = errno
            Path.remove(temporary)
            if code == EEXIST { return }   // another object or process made it first: theirs is opened
            throw TodoStoreError("cannot create \(quoted): \(Path.reason(code))")
        }
        Path.remove(temporary)
        Path.syncDirectory(directory)
    }

    private static func migrate(_ db: Database, from version: Int) throws {
        for step in migrations[version...] { try step(db) }
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
    }

    /// `writable`: a connection SQLite opened only for reading (a file it may not write after
    /// all) throws `OpenedReadOnly` before it reads anything, so it has made no file yet.
    private static func configuration(writable: Bool = true) -> Configuration {
        var configuration = Configuration()
        configuration.label = "todo"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            if writable && sqlite3_db_readonly(db.sqliteConnection, "main") == 1 { throw OpenedReadOnly() }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    private struct OpenedReadOnly: Error {}

    // MARK: Reading

    /// Every todo and the filter; a row that is not a todo throws (SQLite does not hold a column
    /// to its declared type, and another program may have written the file).
    static func load(_ db: Database, _ quoted: String) throws -> Contents {
        var todos: [Todo] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, title, completed FROM todo ORDER BY id")
        while let row = try rows.next() {
            let id: DatabaseValue = row[0], title: DatabaseValue = row[1], completed: DatabaseValue = row[2]
            guard case let .int64(number) = id.storage, number >= 1 else {
                throw TodoStoreError("\(quoted) holds a todo whose id \(id) is not a positive integer")
            }
            guard case let .string(text) = title.storage else {
                throw TodoStoreError("\(quoted) holds a todo (id \(number)) whose title \(title) is not text")
            }
            guard case let .int64(flag) = completed.storage, flag == 0 || flag == 1 else {
                throw TodoStoreError("\(quoted) holds a todo (id \(number)) whose completed \(completed) is not 0 or 1")
            }
            todos.append(Todo(id: Int(number), title: text, completed: flag == 1))
        }
        let stored = try DatabaseValue.fetchOne(db, sql: "SELECT filter FROM settings WHERE id = 1")
        var filter = TodoFilter.all
        if let stored, !stored.isNull {
            guard case let .string(name) = stored.storage, let known = TodoFilter(rawValue: name) else {
                throw TodoStoreError("\(quoted) holds a filter \(stored) that is not all, active or completed")
            }
            filter = known
        }
        return Contents(todos: todos, filter: filter)
    }

    /// The todos and filter when another connection committed since this one last looked
    /// (`PRAGMA data_version` changed), else nil. Run inside a transaction.
    func contentsIfChanged(_ db: Database) throws -> Contents? {
        let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        guard version != dataVersion else { return nil }
        let contents = try Self.load(db, quoted)
        dataVersion = version
        return contents
    }

    // MARK: Changing

    /// Runs `body` in one IMMEDIATE transaction (it holds the write lock from its start, so what
    /// it reads first is the latest), after checking the file can still be written.
    func write<T>(_ body: (Database) throws -> T) throws(TodoStoreError) -> T {
        try checkWritable()
        do {
            var result: T?
            try queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
            }
            guard let result else { throw TodoStoreError("cannot save to \(quoted)") }
            return result
        } catch let error as TodoStoreError {
            throw error
        } catch {
            throw TodoStoreError("cannot save to \(quoted): \(Self.message(error))")
        }
    }

    /// A new todo's row; its id is SQLite's AUTOINCREMENT, above every id the table ever held.
    /// Past the largest, SQLite would answer "database or disk is full" and roll the transaction
    /// back: refused before, saying so. `highest` is the highest id the store holds.
    static func insert(_ title: String, highest: Int, into db: Database) throws -> Int {
        let given = try Int.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'todo'")) ?? 0
        guard given < Int.max, highest < Int.max else { throw TodoStoreError.noIDLeft }
        try db.cachedStatement(sql: "INSERT INTO todo (title, completed) VALUES (?, 0)").execute(arguments: [title])
        return Int(db.lastInsertedRowID)
    }

    /// SQLite would go on writing a file that was removed (to nobody), or under a directory made
    /// read-only (where it cannot make its -wal and -shm files again): a change is refused
    /// instead, saying why.
    private func checkWritable() throws(TodoStoreError) {
        if let readOnlyReason {
            throw TodoStoreError("cannot save to \(quoted): the database is read-only (\(readOnlyReason); "
                                 + "it shows the todos as they were when it was opened)")
        }
        var info = stat()
        guard stat(resolvedPath, &info) == 0 else {
            let reason = Path.reason(errno)
            emptyWAL()
            throw TodoStoreError("cannot save to \(quoted): the database file is gone (\(reason)): "
                                 + "it, or its directory, was removed or renamed")
        }
        guard FileIdentity(info) == identity else {
            emptyWAL()
            throw TodoStoreError("cannot save to \(quoted): another file has taken the database's place")
        }
        guard faccessat(AT_FDCWD, directory, W_OK, AT_EACCESS) == 0 else {
            throw TodoStoreError("cannot save to \(quoted): its directory cannot be written (\(Path.reason(errno)))")
        }
    }

    /// Once the path no longer names this database, its -wal file (found by name) would be
    /// taken for the WAL of whatever file takes the path (SQLite applies it to that file): this
    /// connection's WAL is checkpointed into its own file and emptied, once.
    private func emptyWAL() {
        guard !walEmptied else { return }
        walEmptied = true
        _ = try? queue.inDatabase { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    deinit {
        var info = stat()
        if !isReadOnly && (stat(resolvedPath, &info) != 0 || FileIdentity(info) != identity) { emptyWAL() }
    }

    // MARK: Messages

    private static func opening(_ quoted: String, _ error: Error) -> TodoStoreError {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            return TodoStoreError("\(quoted) is not a todo database (\(message(error)))")
        }
        return TodoStoreError("cannot open \(quoted): \(message(error))")
    }

    /// SQLite's own words for an error (GRDB's description adds the statement).
    static func message(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        return "\(error)"
    }
}

/// Which file a path names: device and inode.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// File-system helpers for the database's path.
enum Path {
    /// `path` quoted for a message, cut at 100 bytes where a character's UTF-8 ends (then its
    /// length in bytes): a message names the path so it can be found, not a copy of a
    /// megabyte-long argument. Bytes, not characters: one character may be any length.
    static func quote(_ path: String) -> String {
        let limit = 100
        let utf8 = path.utf8
        guard utf8.count > limit else { return String(reflecting: path) }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        return String(reflecting: String(decoding: utf8[..<end], as: UTF8.self)) + "… (\(utf8.count) bytes in all)"
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The path with symbolic links resolved (the path itself if that fails).
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// `path` as the path of a `file:` URI: every byte but letters, digits and `/-._~` as %XX.
    static func uriEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    static func syncDirectory(_ directory: String) {
        let fd = openFile(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// open(2), under a name the types above do not shadow.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }
