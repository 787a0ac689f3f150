public import Foundation
import GRDB

/// Conversations in an SQLite file (through GRDB), so a restarted server keeps them.
public struct SQLiteConversationStore: ConversationStore {
    private let database: DatabaseQueue

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    public init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        database = try DatabaseQueue(path: url.path, configuration: configuration)
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "conversation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("channelId", .text).notNull()
                table.column("userId", .text).notNull()
                table.column("state", .text).notNull()
                table.column("lastSequence", .integer).notNull().defaults(to: 0)
                table.column("updatedAt", .double).notNull()
                table.uniqueKey(["channelId", "userId"])
            }
            try db.create(table: "message") { table in
                table.column("conversationId", .integer).notNull().references("conversation", onDelete: .cascade)
                table.column("sequence", .integer).notNull()
                table.column("direction", .text).notNull()
                table.column("frame", .text).notNull()
                table.column("createdAt", .double).notNull()
                table.primaryKey(["conversationId", "sequence"])
            }
        }
        return migrator
    }

    /// The conversation for `key`, created empty when new.
    public func conversation(for key: ConversationKey) async throws -> StoredConversation {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO conversation (channelId, userId, state, lastSequence, updatedAt) VALUES (?, ?, '{}', 0, ?)
                    ON CONFLICT(channelId, userId) DO NOTHING
                    """,
                arguments: [key.channelId, key.userId, Date().timeIntervalSince1970])
            let row = try Row.fetchOne(
                db,
                sql: "SELECT id, state, lastSequence, updatedAt FROM conversation WHERE channelId = ? AND userId = ?",
                arguments: [key.channelId, key.userId])
            guard let row else { throw ParleyError(.internalError, "conversation \(key) vanished") }
            return StoredConversation(
                id: row["id"], key: key, state: try JSONValue(parsing: row["state"] as String),
                lastSequence: row["lastSequence"], updatedAt: Date(timeIntervalSince1970: row["updatedAt"]))
        }
    }

    /// Appends messages and saves the state in one transaction.
    public func append(
        _ frames: [(StoredMessage.Direction, JSONValue)], to conversation: StoredConversation, state: JSONValue,
        at date: Date
    ) async throws -> [StoredMessage] {
        let stamp = date.timeIntervalSince1970
        let rows = frames.map { ($0.0.rawValue, $0.1.jsonString()) }
        let stateText = state.jsonString()
        let first = try await database.write { db -> Int in
            let last =
                try Int.fetchOne(
                    db, sql: "SELECT lastSequence FROM conversation WHERE id = ?", arguments: [conversation.id])
                ?? 0
            for (offset, row) in rows.enumerated() {
                try db.execute(
                    sql:
                        "INSERT INTO message (conversationId, sequence, direction, frame, createdAt) VALUES (?, ?, ?, ?, ?)",
                    arguments: [conversation.id, last + offset + 1, row.0, row.1, stamp])
            }
            try db.execute(
                sql: "UPDATE conversation SET state = ?, lastSequence = ?, updatedAt = ? WHERE id = ?",
                arguments: [stateText, last + rows.count, stamp, conversation.id])
            return last + 1
        }
        return frames.enumerated().map { offset, frame in
            StoredMessage(sequence: first + offset, direction: frame.0, frame: frame.1, createdAt: date)
        }
    }

    /// The messages of a conversation after `sequence`, oldest first.
    public func messages(for key: ConversationKey, after sequence: Int) async throws -> [StoredMessage] {
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT message.sequence, message.direction, message.frame, message.createdAt FROM message
                    JOIN conversation ON conversation.id = message.conversationId
                    WHERE conversation.channelId = ? AND conversation.userId = ? AND message.sequence > ?
                    ORDER BY message.sequence
                    """,
                arguments: [key.channelId, key.userId, sequence]
            ).map { row -> (Int, String, String, Double) in
                (row["sequence"], row["direction"], row["frame"], row["createdAt"])
            }
        }
        return try rows.map { row in
            StoredMessage(
                sequence: row.0, direction: StoredMessage.Direction(rawValue: row.1) ?? .skill,
                frame: try JSONValue(parsing: row.2), createdAt: Date(timeIntervalSince1970: row.3))
        }
    }
}
