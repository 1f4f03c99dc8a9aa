// A title holding NUL is refused by the store, on a database and in memory: GRDB binds a string
// up to its first NUL, so "milk\0eggs" would be saved as "milk".
import Foundation
import Testing
import TodoModels

@Suite struct TitleTests {
    @Test(arguments: [false, true])
    func aTitleHoldingNULIsRefused(onDatabase: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todo-title-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("todos.db").path
        let store = onDatabase ? try TodoStore(path: path) : TodoStore()
        #expect(throws: TodoStoreError.self) { try store.add("milk\0eggs") }
        #expect(store.count == 0)
        let milk = try store.add("milk")
        #expect(throws: TodoStoreError.self) { try store.setTitle("milk\0eggs", id: milk.id) }
        #expect(store.todo(id: milk.id)?.title == "milk")
        if onDatabase {
            #expect(try TodoStore(path: path).todos.map(\.title) == ["milk"])
        }
    }
}
