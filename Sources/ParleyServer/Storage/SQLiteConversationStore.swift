public import Foundation
import GRDB

/// Conversations in an SQLite file (through GRDB), so a restarted server keeps them.
///
/// The file is in WAL mode with `synchronous = NORMAL` (GRDB's `DatabasePool`): reads never wait for writes, a
/// commit is a write to the log without an `fsync`, and a background thread moves the log into the file. What is
/// committed survives a crash or restart of the server process; an operating-system crash or power cut can lose the
/// last commits before SQLite's next checkpoint. See docs/performance.md for the numbers behind this choice.
///
/// It calls GRDB's synchronous API from the calling task: each access is a few short statements (tens of
/// microseconds), less than handing the work to GRDB's queue and waking the task again, which costs two thread
/// wake-ups (several hundred microseconds on a small virtual machine).
public struct SQLiteConversationStore: ConversationStore {
    private let database: DatabasePool
    private let checkpointer: Checkpointer
    private let groupCommit: GroupCommit

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    public init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        database = try DatabasePool(path: url.path, configuration: configuration)
        try Self.migrator.migrate(database)
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 10000") }
        checkpointer = try Checkpointer(path: url.path)
        groupCommit = GroupCommit(database)
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
        migrator.registerMigration("v2 reliability") { db in
            try db.alter(table: "conversation") { table in
                table.add(column: "lastOutbound", .integer).notNull().defaults(to: 0)
            }
            try db.alter(table: "message") { table in
                table.add(column: "outbound", .integer)
                table.add(column: "clientMessageId", .text)
                table.add(column: "pending", .boolean).notNull().defaults(to: false)
            }
            // Number what the server already sent, in order, so that replay works for old conversations too.
            try db.execute(
                sql: """
                    UPDATE message SET outbound = (
                        SELECT COUNT(*) FROM message AS earlier WHERE earlier.conversationId = message.conversationId
                        AND earlier.direction = 'skill' AND earlier.sequence <= message.sequence)
                    WHERE direction = 'skill'
                    """)
            try db.execute(
                sql: """
                    UPDATE conversation SET lastOutbound = (
                        SELECT COUNT(*) FROM message WHERE message.conversationId = conversation.id
                        AND message.direction = 'skill')
                    """)
            try db.create(
                index: "message_clientMessageId", on: "message", columns: ["conversationId", "clientMessageId"],
                unique: true, condition: Column("clientMessageId") != nil)
            try db.create(index: "message_pending", on: "message", columns: ["pending"], condition: Column("pending"))
        }
        migrator.registerMigration("v3 per-conversation indexes") { db in
            // The pending inputs and the replay of one conversation, found without scanning its whole history.
            try db.create(
                index: "message_pending_by_conversation", on: "message", columns: ["conversationId", "sequence"],
                condition: Column("pending"))
            try db.create(
                index: "message_outbound", on: "message", columns: ["conversationId", "outbound"],
                condition: Column("outbound") != nil)
        }
        return migrator
    }

    /// Runs `updates` in the next group commit and returns once it is committed.
    private func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await groupCommit.write(updates)
    }

    /// GRDB's synchronous read.
    private func read<T>(_ value: (Database) throws -> T) throws -> T {
        try database.read(value)
    }

    /// The conversation for `key`, created empty when new. (Read without a write when it exists: the hub asks before
    /// every answer.)
    public func conversation(for key: ConversationKey) async throws -> StoredConversation {
        if let existing = try read({ db in try Self.existingConversation(for: key, in: db) }) { return existing }
        return try await write { db in try Self.conversation(for: key, in: db) }
    }

    private static func conversation(for key: ConversationKey, in db: Database) throws -> StoredConversation {
        if let existing = try existingConversation(for: key, in: db) { return existing }
        try db.cachedStatement(
            sql: """
                INSERT INTO conversation (channelId, userId, state, lastSequence, updatedAt) VALUES (?, ?, '{}', 0, ?)
                ON CONFLICT(channelId, userId) DO NOTHING
                """
        ).execute(arguments: [key.channelId, key.userId, Date().timeIntervalSince1970])
        guard let created = try existingConversation(for: key, in: db) else {
            throw ParleyError(.internalError, "conversation \(key) vanished")
        }
        return created
    }

    private static func existingConversation(for key: ConversationKey, in db: Database) throws -> StoredConversation? {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT id, state, lastSequence, lastOutbound, updatedAt FROM conversation
                    WHERE channelId = ? AND userId = ?
                    """), arguments: [key.channelId, key.userId])
        guard let row else { return nil }
        return StoredConversation(
            id: row["id"], key: key, state: try JSONValue(parsing: row["state"] as String),
            lastSequence: row["lastSequence"], lastOutbound: row["lastOutbound"],
            updatedAt: Date(timeIntervalSince1970: row["updatedAt"]))
    }

    public func receive(_ frame: JSONValue, clientMessageId: String?, for key: ConversationKey, at date: Date)
        async throws -> ReceivedInput
    {
        let text = frame.jsonString()
        return try await write { db in
            let conversation = try Self.conversation(for: key, in: db)
            if let clientMessageId,
                let sequence = try Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT sequence FROM message WHERE conversationId = ? AND clientMessageId = ?"),
                    arguments: [conversation.id, clientMessageId])
            {
                return ReceivedInput(sequence: sequence, duplicate: true)
            }
            let sequence = conversation.lastSequence + 1
            try db.cachedStatement(
                sql: """
                    INSERT INTO message (conversationId, sequence, direction, frame, createdAt, clientMessageId, pending)
                    VALUES (?, ?, 'user', ?, ?, ?, 1)
                    """
            ).execute(arguments: [conversation.id, sequence, text, date.timeIntervalSince1970, clientMessageId])
            try db.cachedStatement(sql: "UPDATE conversation SET lastSequence = ? WHERE id = ?").execute(arguments: [
                sequence, conversation.id,
            ])
            return ReceivedInput(sequence: sequence, duplicate: false)
        }
    }

    public func pending(for key: ConversationKey) async throws -> [StoredMessage] {
        try await fetch(
            "conversation.channelId = ? AND conversation.userId = ? AND message.pending", [key.channelId, key.userId])
    }

    public func conversationsWithPendingInputs() async throws -> [ConversationKey] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT conversation.channelId, conversation.userId FROM message
                        JOIN conversation ON conversation.id = message.conversationId WHERE message.pending
                        """)
            ).map { ConversationKey(channelId: $0["channelId"], userId: $0["userId"]) }
        }
    }

    public func answer(
        _ sequence: Int, with replies: [JSONValue], state: JSONValue, in conversation: StoredConversation, at date: Date
    ) async throws -> [StoredMessage] {
        let stamp = date.timeIntervalSince1970
        let stateText = state.jsonString()
        return try await write { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT lastSequence, lastOutbound FROM conversation WHERE id = ?"),
                    arguments: [conversation.id])
            else { throw ParleyError(.internalError, "conversation \(conversation.key) vanished") }
            let lastSequence: Int = row["lastSequence"]
            let lastOutbound: Int = row["lastOutbound"]
            var stored: [StoredMessage] = []
            for (offset, reply) in replies.enumerated() {
                var frame = reply
                if case .object(var object) = frame {
                    object["sequence"] = .number(Double(lastOutbound + offset + 1))
                    frame = .object(object)
                }
                let message = StoredMessage(
                    sequence: lastSequence + offset + 1, direction: .skill, frame: frame, createdAt: date,
                    outbound: lastOutbound + offset + 1)
                try db.cachedStatement(
                    sql: """
                        INSERT INTO message (conversationId, sequence, direction, frame, createdAt, outbound)
                        VALUES (?, ?, 'skill', ?, ?, ?)
                        """
                ).execute(arguments: [conversation.id, message.sequence, frame.jsonString(), stamp, message.outbound])
                stored.append(message)
            }
            try db.cachedStatement(sql: "UPDATE message SET pending = 0 WHERE conversationId = ? AND sequence = ?")
                .execute(arguments: [conversation.id, sequence])
            try db.cachedStatement(
                sql: """
                    UPDATE conversation SET state = ?, lastSequence = ?, lastOutbound = ?, updatedAt = ? WHERE id = ?
                    """
            ).execute(arguments: [
                stateText, lastSequence + replies.count, lastOutbound + replies.count, stamp, conversation.id,
            ])
            return stored
        }
    }

    /// The messages of a conversation after `sequence`, oldest first.
    public func messages(for key: ConversationKey, after sequence: Int) async throws -> [StoredMessage] {
        try await fetch(
            "conversation.channelId = ? AND conversation.userId = ? AND message.sequence > ?",
            [key.channelId, key.userId, sequence])
    }

    public func sent(for key: ConversationKey, after outbound: Int) async throws -> [StoredMessage] {
        try await fetch(
            "conversation.channelId = ? AND conversation.userId = ? AND message.outbound > ?",
            [key.channelId, key.userId, outbound])
    }

    private func fetch(_ condition: String, _ arguments: StatementArguments) async throws -> [StoredMessage] {
        let rows = try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT message.sequence, message.direction, message.frame, message.createdAt, message.outbound,
                        message.clientMessageId, message.pending FROM message
                        JOIN conversation ON conversation.id = message.conversationId
                        WHERE \(condition) ORDER BY message.sequence
                        """),
                arguments: arguments
            ).map { row -> (Int, String, String, Double, Int?, String?, Bool) in
                (
                    row["sequence"], row["direction"], row["frame"], row["createdAt"], row["outbound"],
                    row["clientMessageId"], row["pending"]
                )
            }
        }
        return try rows.map { row in
            StoredMessage(
                sequence: row.0, direction: StoredMessage.Direction(rawValue: row.1) ?? .skill,
                frame: try JSONValue(parsing: row.2), createdAt: Date(timeIntervalSince1970: row.3), outbound: row.4,
                clientMessageId: row.5, pending: row.6)
        }
    }
}
