public import Foundation
import GRDB

/// Where the server keeps which user id is bound to which session secret (as its SHA-256 digest) since when, per
/// channel: the seam of
/// ``buildApplication(configuration:store:sessionBindings:attachments:cluster:logger:routes:onServerRunning:)``.
///
/// The default keeps them in the data folder's `sessions.sqlite` (``SQLiteSessionBindings``). Nodes of a cluster
/// share one: `PostgresSessionBindings` in the ParleyPostgres product keeps them in the database, so that a secret
/// one node issued opens a socket on every node.
public protocol SessionBindingStore: Sendable {
    /// Binds `userId` on `channelId` to `digest`, unless the user id is bound already.
    /// - Returns: Whether this call bound it.
    func bind(channelId: String, userId: String, digest: Data, at date: Date) async throws -> Bool
    /// The digest bound to `userId` on `channelId`, with the date it was bound (or last renewed); nil when none is.
    func binding(channelId: String, userId: String) async throws -> (digest: Data, date: Date)?
    /// Replaces the digest bound to `userId` on `channelId`, and its date, if and only if it is still `oldDigest`:
    /// one atomic compare-and-replace, so that of two renewals with the same old secret only one wins.
    /// - Returns: Whether this call replaced it (false when the user id is unbound or bound to another digest).
    func replace(channelId: String, userId: String, digest oldDigest: Data, with newDigest: Data, at date: Date)
        async throws -> Bool
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

    /// The digest and its date, read with GRDB's synchronous API: one short query costs less than handing it to
    /// GRDB's queue and waking the task again (see ``SQLiteConversationStore``).
    public func binding(channelId: String, userId: String) throws -> (digest: Data, date: Date)? {
        try database.read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT secretDigest, createdAt FROM session WHERE channelId = ? AND userId = ?",
                arguments: [channelId, userId])
            return row.map { row in
                (digest: row["secretDigest"], date: Date(timeIntervalSince1970: row["createdAt"]))
            }
        }
    }

    /// Replaces the digest and date where the digest is still the old one (one `UPDATE … WHERE secretDigest = ?`).
    public func replace(channelId: String, userId: String, digest oldDigest: Data, with newDigest: Data, at date: Date)
        throws -> Bool
    {
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE session SET secretDigest = ?, createdAt = ?
                    WHERE channelId = ? AND userId = ? AND secretDigest = ?
                    """,
                arguments: [newDigest, date.timeIntervalSince1970, channelId, userId, oldDigest])
            return db.changesCount == 1
        }
    }
}
