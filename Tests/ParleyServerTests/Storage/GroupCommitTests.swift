import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing

@testable import ParleyServer

@Suite(.timeLimit(.minutes(1)))
struct GroupCommitTests {
    /// A batch whose writes share one transaction: when one throws, the others are still committed, once each, and
    /// told so once each (the batch is written again with a savepoint per write).
    @Test func aWriteThatThrowsInABatchFailsAloneAndTheOthersCommitOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-commit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try DatabasePool(path: folder.appendingPathComponent("test.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT PRIMARY KEY)")
        }
        let commit = GroupCommit(database)
        let told = Told()
        // The first write holds the writer until the batch behind it has gathered.
        let release = DispatchSemaphore(value: 0)
        let entered = Mutex(false)
        let first = Task.detached {
            try await commit.write { db in
                entered.withLock { $0 = true }
                release.wait()
                try db.execute(sql: "INSERT INTO item VALUES ('first')")
            }
        }
        try await Self.until { entered.withLock { $0 } }  // the first write is being written
        let names = ["a", "b", "bad", "c", "d"]
        let writes = names.map { name in
            Task.detached {
                try await commit.write(
                    { db -> String in
                        if name == "bad" { throw ParleyError(.internalError, "this write fails") }
                        try db.execute(sql: "INSERT INTO item VALUES (?)", arguments: [name])
                        return name
                    },
                    committed: { name in told.add(name) })
            }
        }
        let gathered = await Self.untilOrFalse { commit.waiting == names.count }
        release.signal()
        #expect(gathered, "the writes behind the first one did not queue")
        try await first.value
        for (name, write) in zip(names, writes) {
            if name == "bad" {
                await #expect(throws: ParleyError.self) { try await write.value }
            } else {
                #expect(try await write.value == name)
            }
        }
        let stored = try await database.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") }
        #expect(stored.sorted() == ["a", "b", "c", "d", "first"])
        #expect(told.names.sorted() == ["a", "b", "c", "d"])
    }

    /// Yields until `condition` holds; false when it did not within a bounded number of turns.
    static func untilOrFalse(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<5_000_000 {
            if condition() { return true }
            await Task.yield()
        }
        return false
    }

    static func until(_ condition: () -> Bool) async throws {
        try #require(await untilOrFalse(condition))
    }

    /// The names `committed` was called with.
    final class Told: Sendable {
        private let list = Mutex<[String]>([])
        func add(_ name: String) { list.withLock { $0.append(name) } }
        var names: [String] { list.withLock { $0 } }
    }
}
