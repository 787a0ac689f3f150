public import Foundation
import GRDB

/// Where the server keeps which user id is bound to which session secret (as its SHA-256 digest), per channel: the
/// seam of
/// ``buildApplication(configuration:store:sessionBindings:attachments:cluster:logger:routes:onServerRunning:)``.
///
/// The default keeps them in the data folder's `sessions.sqlite` (``SQLiteSessionBindings``). Nodes of a cluster
/// share one: `PostgresSessionBindings` in the ParleyPostgres product keeps them in the database, so that a secret
/// one node issued opens a socket on every node.
public protocol SessionBindingStore: Sendable {
    /// Binds `userId` on `channelId` to `digest`, unless the user id is bound already.
    /// - Returns: Whether this call bound it.
    func bind(channelId: String, userId: String, digest: Data, at date: Date) async throws -> Bool
    /// The digest bound to `userId` on `channelId`; nil when none is.
    func digest(channelId: String, userId: String) async throws -> Data?
}

/// Session bindings in `DATA/sessions.sqlite`, for a single server.
public struct SQLiteSessionBindings: SessionBindingStore {
    private let database: DatabaseQueue

    /// Opens (creating if needed) `sessions.sqlite` in `dataDirectory`.
    public init(dataDirectory: URL) throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        database = try DatabaseQueue(path: dataDirectory.appendingPathComponent("sessions.sqlite").path)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "session") { table in
                table.column("channelId", .text).notNull()
                table.column("userId", .text).notNull()
                table.column("secretDigest", .blob).notNull()
                table.column("createdAt", .double).notNull()
                table.primaryKey(["channelId", "userId"])
            }
        }
        return migrator
    }

    /// Binds the user id unless it is bound (`INSERT OR IGNORE`).
    public func bind(channelId: String, userId: String, digest: Data, at date: Date) throws -> Bool {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO session (channelId, userId, secretDigest, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [channelId, userId, digest, date.timeIntervalSince1970])
            return db.changesCount == 1
        }
    }

    /// The digest, read with GRDB's synchronous API: one short query costs less than handing it to GRDB's queue and
    /// waking the task again (see ``SQLiteConversationStore``).
    public func digest(channelId: String, userId: String) throws -> Data? {
        try database.read { db in
            try Data.fetchOne(
                db, sql: "SELECT secretDigest FROM session WHERE channelId = ? AND userId = ?",
                arguments: [channelId, userId])
        }
    }
}
