import Foundation
import GRDB
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `/health/ready` means the store's schema is at this build's version, not only that the database answers.
@Suite("Readiness", .serialized, .timeLimit(.minutes(1)))
struct ReadyTests {
    static func ready(_ server: TestServer) async throws -> (status: Int, body: JSONValue) {
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/health/ready"))
        let (body, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONValue(parsing: body))
    }

    @Test func aSQLiteFileWhoseSchemaIsBehindIsUnreadyAndSaysWhy() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            #expect(try await Self.ready(server).status == 200)
            // The newest migration undone behind the server's back (an old backup restored into place).
            let file = server.dataDirectory.appendingPathComponent("parley.sqlite")
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in
                try db.execute(
                    sql: "DELETE FROM grdb_migrations WHERE identifier = (SELECT max(identifier) FROM grdb_migrations)")
            }
            try queue.close()
            let (status, body) = try await Self.ready(server)
            #expect(status == 503)
            #expect(body["status"] == "unready")
            #expect(body["error"]?["code"]?.stringValue == ParleyError.Code.storeSchemaOutdated.rawValue)
        }
    }

    @Test func aSQLiteFileMigratedByANewerServerIsUnready() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ready-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("parley.sqlite")
        let store = try SQLiteConversationStore(url: file)
        try await store.checkReadiness()
        let queue = try DatabaseQueue(path: file.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('zz from a newer server')")
        }
        try queue.close()
        let error = await #expect(throws: ParleyError.self) { try await store.checkReadiness() }
        #expect(error?.code == .storeSchemaTooNew)
    }
}
