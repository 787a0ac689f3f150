import Logging
import ParleyServer
import PostgresNIO

/// The tables of a ``PostgresConversationStore`` and the migrations that make them, applied in order by the server
/// at start.
///
/// `parley_schema_migrations` records each migration applied (its version, name and time). Migrating takes a
/// transaction-scoped advisory lock first, so that nodes starting at once migrate one after the other: the first
/// applies what is missing, the others find it applied and do nothing. Every migration runs in that one transaction,
/// so a failure leaves the schema as it was. Migrations are only ever appended to ``migrations``; one that has shipped
/// is never edited.
enum PostgresSchema {
    /// One step of the schema: its statements run in order, in the migrating transaction.
    struct Migration: Sendable {
        var version: Int
        var name: String
        var statements: [PostgresQuery]
    }

    /// The advisory lock every node takes to migrate: the bytes of "parley".
    static let lockKey: Int64 = 0x7061_726C_6579

    /// The migrations, oldest first; versions 1, 2, 3…
    static let migrations: [Migration] = [
        Migration(
            version: 1, name: "conversations and messages",
            statements: [
                // The skill's state is JSON text, as the skill wrote it (jsonb would reorder its members); times are
                // seconds since 1970 as double precision, which gives back exactly the `Date` stored.
                """
                CREATE TABLE parley_conversations (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    channel_id text NOT NULL,
                    user_id text NOT NULL,
                    state text NOT NULL DEFAULT '{}',
                    last_sequence bigint NOT NULL DEFAULT 0,
                    last_outbound bigint NOT NULL DEFAULT 0,
                    updated_at double precision NOT NULL,
                    UNIQUE (channel_id, user_id)
                )
                """,
                // A frame is its JSON text: a skill message with its wire `sequence` (the outbound number).
                """
                CREATE TABLE parley_messages (
                    conversation_id bigint NOT NULL REFERENCES parley_conversations (id) ON DELETE CASCADE,
                    sequence bigint NOT NULL,
                    direction text NOT NULL CHECK (direction IN ('user', 'skill')),
                    frame text NOT NULL,
                    created_at double precision NOT NULL,
                    outbound bigint,
                    client_message_id text,
                    pending boolean NOT NULL DEFAULT false,
                    PRIMARY KEY (conversation_id, sequence)
                )
                """,
                // Idempotency: one input per client message id in a conversation.
                """
                CREATE UNIQUE INDEX parley_messages_client_message_id
                ON parley_messages (conversation_id, client_message_id) WHERE client_message_id IS NOT NULL
                """,
                // The replay of a client's cursor, and the pending inputs, without scanning a conversation's history.
                """
                CREATE UNIQUE INDEX parley_messages_outbound ON parley_messages (conversation_id, outbound)
                WHERE outbound IS NOT NULL
                """,
                "CREATE INDEX parley_messages_pending ON parley_messages (conversation_id, sequence) WHERE pending",
            ]),
        Migration(
            version: 2, name: "agent hand-offs",
            statements: [
                // The live agents' queue, kept with the conversation so that the read before each answer sees it;
                // the agent is its `AgentSession` JSON text.
                """
                ALTER TABLE parley_conversations
                    ADD COLUMN hand_off_since double precision, ADD COLUMN hand_off_agent text
                """,
                """
                CREATE INDEX parley_conversations_hand_off ON parley_conversations (hand_off_since)
                WHERE hand_off_since IS NOT NULL
                """,
            ]),
        Migration(
            version: 3, name: "session secrets",
            statements: [
                // Which user id is bound to which session secret (its SHA-256 digest), shared by every node.
                """
                CREATE TABLE parley_session_secrets (
                    channel_id text NOT NULL,
                    user_id text NOT NULL,
                    secret_digest bytea NOT NULL,
                    created_at double precision NOT NULL,
                    PRIMARY KEY (channel_id, user_id)
                )
                """
            ]),
        Migration(
            version: 4, name: "attachments",
            statements: [
                // Attachments shared by every node (PostgresAttachmentStore): a record, and the bytes in parts of
                // 1 MiB, each read by a query of its own so that a slow download holds no connection between parts.
                """
                CREATE TABLE parley_attachments (
                    id text PRIMARY KEY,
                    channel_id text NOT NULL,
                    user_id text NOT NULL,
                    type text NOT NULL,
                    size bigint NOT NULL,
                    file_name text NOT NULL,
                    protected boolean NOT NULL,
                    parts integer NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX parley_attachments_owner ON parley_attachments (channel_id, user_id)",
                """
                CREATE TABLE parley_attachment_parts (
                    attachment_id text NOT NULL REFERENCES parley_attachments (id) ON DELETE CASCADE,
                    part integer NOT NULL,
                    bytes bytea NOT NULL,
                    PRIMARY KEY (attachment_id, part)
                )
                """,
            ]),
    ]

    /// The newest version this server knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the schema of the connection's database up to date.
    /// - Returns: The versions this call applied (none when another node, or an earlier start, applied them).
    /// - Throws: ``ParleyError/Code/storeSchemaTooNew`` when the database has a version this server does not know.
    @discardableResult
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        try await connection.query("BEGIN", logger: logger)
        do {
            let applied = try await migrateInTransaction(on: connection, logger: logger)
            try await connection.query("COMMIT", logger: logger)
            return applied
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    private static func migrateInTransaction(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        // Held until the transaction ends: a second node waits here, then finds everything applied.
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS parley_schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        var current = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM parley_schema_migrations", logger: logger
        ).decode(Int.self) {
            current = version
        }
        guard current <= latestVersion else {
            throw ParleyError(
                .storeSchemaTooNew,
                "the database's schema is at version \(current), newer than this server's \(latestVersion): "
                    + "run a server at least as new as the one that migrated it")
        }
        var applied: [Int] = []
        for migration in migrations where migration.version > current {
            for statement in migration.statements {
                try await connection.query(statement, logger: logger)
            }
            try await connection.query(
                "INSERT INTO parley_schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                logger: logger)
            logger.info("applied database migration \(migration.version): \(migration.name)")
            applied.append(migration.version)
        }
        return applied
    }
}
