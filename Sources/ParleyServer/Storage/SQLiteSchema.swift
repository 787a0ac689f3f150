import GRDB

/// The tables of a ``SQLiteConversationStore`` and the migrations that make them, applied in order when the store
/// opens its file.
///
/// GRDB's `DatabaseMigrator` records each migration applied by its name (in `grdb_migrations`) and applies those
/// missing, each in a transaction of its own, so a failure leaves the schema at the last migration that succeeded.
/// Migrations are only ever appended; one that has shipped is never edited or renamed. A file migrated by a newer
/// server (one with a migration this one does not know) is not ready (``SQLiteConversationStore/checkReadiness()``).
/// The PostgreSQL store's schema is in `PostgresSchema` (ParleyPostgres), in the same shape.
enum SQLiteSchema {
    /// The migrations, oldest first: `v1`, `v2 reliability`, … (GRDB knows a migration by its name).
    static var migrator: DatabaseMigrator {
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
        migrator.registerMigration("v4 one pending index") { db in
            // `message_pending_by_conversation` covers the same rows: one index less to write per message.
            try db.drop(index: "message_pending")
        }
        migrator.registerMigration("v5 agent hand-offs") { db in
            // The live agents' queue, kept with the conversation so that the read before each answer sees it.
            try db.alter(table: "conversation") { table in
                table.add(column: "handOffSince", .double)
                table.add(column: "handOffAgent", .text)
            }
            try db.create(
                index: "conversation_handOff", on: "conversation", columns: ["handOffSince"],
                condition: Column("handOffSince") != nil)
        }
        migrator.registerMigration("v6 answered through") { db in
            // Pending inputs are found from the conversation's `answeredThrough` (every input up to it is answered)
            // on the primary key, instead of on an index of their own: the index cost a page more in the log at
            // every receive and every answer (docs/performance.md).
            try db.alter(table: "conversation") { table in
                table.add(column: "answeredThrough", .integer).notNull().defaults(to: 0)
            }
            try db.execute(
                sql: """
                    UPDATE conversation SET answeredThrough = coalesce(
                        (SELECT min(sequence) FROM message WHERE conversationId = conversation.id AND pending),
                        lastSequence + 1) - 1
                    """)
            try db.drop(index: "message_pending_by_conversation")
        }
        return migrator
    }
}
