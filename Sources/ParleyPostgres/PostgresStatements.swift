import Logging
import PostgresNIO

// The statements of one message's path, prepared once per connection (postgres-nio's `PostgresPreparedStatement`):
// PostgreSQL parses and plans each once per connection instead of at every message, and each step of a message is one
// statement, so one round trip (docs/performance.md, "A cluster on PostgreSQL").

/// A user's input numbered under its conversation's row lock and stored as pending, in one statement: the repeat
/// check, the number, the row. Its row is (stored sequence, repeated sequence): (n, nil) stored as n; (nil, n) a
/// repeat of input n, nothing changed; (nil, nil) no such conversation yet, nothing changed. When the input turns out
/// to be a repeat only after the number was taken (two receives of one client message id at once, the other committed
/// first), `1 / 0` fails the statement, which rolls it back; the caller then takes the transaction's path. With a
/// hint's start, the stored input's hint (``ClusterEvent/userMessage(_:sequence:node:)``) is sent with the commit.
///
/// A stored input's row also has the conversation as the numbering left it, and whether the input is alone: no other
/// input was pending in the statement's snapshot, and nothing changed the conversation between that snapshot and the
/// numbering (a receive that committed meanwhile, whose input the snapshot does not show, moved `last_sequence`
/// further; an answer, `last_outbound`). The turn that follows can start from them (``TurnHolds``).
struct ReceiveStatement: PostgresPreparedStatement {
    static let sql = """
        WITH repeated AS (
            SELECT m.sequence FROM parley_messages AS m JOIN parley_conversations AS c ON c.id = m.conversation_id
            WHERE c.channel_id = $1 AND c.user_id = $2 AND m.client_message_id = $5),
        seen AS (
            SELECT id, last_sequence, last_outbound FROM parley_conversations WHERE channel_id = $1 AND user_id = $2),
        numbered AS (
            UPDATE parley_conversations SET last_sequence = last_sequence + 1
            WHERE channel_id = $1 AND user_id = $2 AND NOT EXISTS (SELECT 1 FROM repeated)
            RETURNING id, state, last_sequence, last_outbound, updated_at, hand_off_since, hand_off_agent),
        stored AS (
            INSERT INTO parley_messages
                (conversation_id, sequence, direction, frame, created_at, client_message_id, pending)
            SELECT id, last_sequence, 'user', $3, $4, $5, true FROM numbered
            ON CONFLICT (conversation_id, client_message_id) WHERE client_message_id IS NOT NULL DO NOTHING
            RETURNING sequence),
        notified AS (SELECT pg_notify('parley_events', $6 || sequence || '}}') FROM stored WHERE $6 IS NOT NULL)
        SELECT (SELECT sequence FROM stored), (SELECT sequence FROM repeated), (SELECT count(*) FROM notified),
            numbered.id, numbered.state, numbered.last_sequence, numbered.last_outbound, numbered.updated_at,
            numbered.hand_off_since, numbered.hand_off_agent,
            numbered.last_sequence = seen.last_sequence + 1 AND numbered.last_outbound = seen.last_outbound
                AND NOT EXISTS (SELECT 1 FROM parley_messages WHERE conversation_id = seen.id AND pending)
        FROM (SELECT 1) AS one LEFT JOIN numbered ON true LEFT JOIN seen ON true
        WHERE 1 / (1 + (SELECT count(*) FROM stored) - (SELECT count(*) FROM numbered)) = 1
        """
    /// The stored input's sequence; a repeat's; and for a stored input, the conversation's columns
    /// (``ConversationRow``) when it is alone.
    typealias Row = (stored: Int?, repeated: Int?, alone: ConversationRow.Columns?)

    var channelId: String
    var userId: String
    var frame: String
    var date: Double
    var clientMessageId: String?
    var hintPrefix: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(channelId)
        bindings.append(userId)
        bindings.append(frame)
        bindings.append(date)
        bindings.append(clientMessageId)
        bindings.append(hintPrefix)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (stored, repeated, _, id, state, lastSequence, lastOutbound, updatedAt, handOffSince, handOffAgent, alone) =
            try row.decode(
                (Int?, Int?, Int, Int64?, String?, Int?, Int?, Double?, Double?, String?, Bool?).self)
        guard alone == true, let id, let state, let lastSequence, let lastOutbound, let updatedAt else {
            return (stored, repeated, nil)
        }
        return (stored, repeated, (id, state, lastSequence, lastOutbound, updatedAt, handOffSince, handOffAgent))
    }
}

/// The conversation and its oldest pending inputs, in one statement (one snapshot).
struct PendingStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT c.id, c.state, c.last_sequence, c.last_outbound, c.updated_at, c.hand_off_since, c.hand_off_agent,
            m.sequence, m.direction, m.frame, m.created_at, m.outbound, m.pending
        FROM parley_conversations AS c
        LEFT JOIN parley_messages AS m ON m.conversation_id = c.id AND m.pending
        WHERE c.channel_id = $1 AND c.user_id = $2
        ORDER BY m.sequence LIMIT $3
        """
    typealias Row = (Int64, String, Int, Int, Double, Double?, String?, Int?, String?, String?, Double?, Int?, Bool?)

    var channelId: String
    var userId: String
    var limit: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(channelId)
        bindings.append(userId)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// An answer in one statement: the new state and numbers under the conversation's row lock, the replies (their
/// frames encoded with the outbound numbers that follow `lastOutbound`, the number the caller read), the input marked
/// answered, and the cluster's hint (`pg_notify`, sent by PostgreSQL at commit) when one is given. Its row is the
/// conversation's new last sequence number, and whether other inputs were pending in the statement's snapshot (an
/// input committed after it was taken requests a turn of its own). The statement fails by `1 / 0`, and so rolls back,
/// when the conversation's outbound number is no longer `lastOutbound` (another answer came between, or the
/// conversation is gone) or the input is no longer pending (the fence of a cluster); the caller then takes the
/// transaction's path, which numbers afresh or says why it cannot.
///
/// The conversation's row is locked first (the other steps read `numbered`), in the order of a receive.
struct AnswerStatement: PostgresPreparedStatement {
    static let sql = """
        WITH numbered AS (
            UPDATE parley_conversations SET state = $2, last_sequence = last_sequence + $3,
                last_outbound = last_outbound + $3, updated_at = $4
            WHERE id = $1 AND last_outbound = $5 RETURNING id, last_sequence),
        answered AS (
            UPDATE parley_messages SET pending = false
            WHERE conversation_id IN (SELECT id FROM numbered) AND sequence = $6 AND pending RETURNING sequence),
        stored AS (
            INSERT INTO parley_messages (conversation_id, sequence, direction, frame, created_at, outbound)
            SELECT numbered.id, numbered.last_sequence - $3 + reply.position, 'skill', reply.frame, $4,
                $5 + reply.position
            FROM numbered, unnest($7::text[]) WITH ORDINALITY AS reply (frame, position)
            RETURNING 1),
        notified AS (SELECT pg_notify('parley_events', $8) WHERE $8 IS NOT NULL)
        SELECT numbered.last_sequence, (SELECT count(*) FROM stored), (SELECT count(*) FROM notified),
            EXISTS (
                SELECT 1 FROM parley_messages
                WHERE conversation_id = $1 AND pending AND sequence IS DISTINCT FROM $6)
        FROM (SELECT 1) AS one LEFT JOIN numbered ON true
        WHERE 1 / ((SELECT count(*) FROM numbered)
            * CASE WHEN $6 IS NULL THEN 1 ELSE (SELECT count(*) FROM answered) END) = 1
        """
    typealias Row = (Int, Bool)

    var conversationId: Int64
    var state: String
    var count: Int64
    var date: Double
    var lastOutbound: Int64
    var input: Int64?
    var frames: [String]
    var notification: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(conversationId)
        bindings.append(state)
        bindings.append(count)
        bindings.append(date)
        bindings.append(lastOutbound)
        bindings.append(input)
        bindings.append(frames)
        bindings.append(notification)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (lastSequence, _, _, othersPending) = try row.decode((Int, Int, Int, Bool).self)
        return (lastSequence, othersPending)
    }
}

/// The cluster's hint, on its own (an event the store did not send with its commit).
struct NotifyStatement: PostgresPreparedStatement {
    static let sql = "SELECT pg_notify('parley_events', $1)"
    typealias Row = Void

    var payload: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(payload)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

/// A session-level advisory lock call on one key, answering whether it succeeded: the turn lock's claim and release.
protocol AdvisoryLockStatement: PostgresPreparedStatement where Row == Bool {
    var lock: Int64 { get }
}

extension AdvisoryLockStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(lock)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Bool.self) }
}

/// A conversation's turns taken, without waiting (a session-level advisory lock).
struct ClaimTurnsStatement: AdvisoryLockStatement {
    static let sql = "SELECT pg_try_advisory_lock($1)"
    typealias Row = Bool

    var lock: Int64
}

/// A conversation's turns given back.
struct ReleaseTurnsStatement: AdvisoryLockStatement {
    static let sql = "SELECT pg_advisory_unlock($1)"
    typealias Row = Bool

    var lock: Int64
}

extension PostgresClient {
    /// `execute(_:logger:)` on a connection of the pool, counted in the store's
    /// ``PostgresConversationStore/roundTrips`` (a statement's preparation, once per connection, is not).
    func counted<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger, by shared: StoreShared)
        async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Statement.Row>
    {
        shared.countRoundTrip()
        return try await execute(statement, logger: logger)
    }
}

extension PostgresConnection {
    /// `execute(_:logger:)`, counted in the store's ``PostgresConversationStore/roundTrips``.
    func counted<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger, by shared: StoreShared)
        async throws -> AsyncThrowingMapSequence<PostgresRowSequence, Statement.Row>
    {
        shared.countRoundTrip()
        return try await execute(statement, logger: logger)
    }
}
