public import Foundation
public import Logging
public import ParleyServer
public import PostgresNIO

/// Conversations in a PostgreSQL database, through postgres-nio: for several server nodes on one database, or a
/// database an organisation already runs. ``SQLiteConversationStore`` stays the embedded default; both pass the same
/// store conformance suite.
///
/// The rules are those of the SQLite store, kept by the database rather than by one process:
/// - Sequence numbers (over both directions) and outbound numbers (over the server's messages) are allocated by an
///   `UPDATE … RETURNING` of the conversation's row, which locks that row until the transaction commits: concurrent
///   inputs of one conversation, from any node, get distinct consecutive numbers.
/// - A repeated `clientMessageId` is found by a unique index on (conversation, client message id), checked while the
///   conversation's row is locked, and answered with the first input's sequence number; nothing is stored.
/// - An answer stores its replies, the new state and its input's `pending = false` in one transaction, and only while
///   the input is still pending: two nodes never both store an answer to one input.
/// - The skill's state is kept as JSON text; one that cannot be decoded is reported in
///   ``StoredConversation/unreadableState``, not thrown.
///
/// Unlike the SQLite store it keeps no cache of pending inputs: another node may write the same conversation. Its one
/// memory of them is what a receive found, for the turn that follows while the node's ``PostgresCluster`` holds the
/// conversation's turns throughout (``pending(for:)``).
///
/// Each step of a message is one prepared statement, one round trip (receive, pending read, answer); with a
/// ``PostgresCluster`` on the store, the answer's hint to the other nodes goes with the answer's commit
/// (docs/performance.md, "A cluster on PostgreSQL").
///
/// Create one with ``withStore(_:logger:_:)``, which connects, migrates and closes; or on a ``PostgresClient`` you
/// run yourself, with ``init(client:logger:)`` and ``migrate()``.
public struct PostgresConversationStore: ConversationStore {
    let client: PostgresClient
    let logger: Logger
    /// Dates a new conversation's `updated_at`; every other date comes with the call that stores it.
    private let clock: ServerClock
    /// The round trip count and the answers' hints, shared with the cluster, session bindings and attachments.
    let shared = StoreShared()

    /// The round trips to the database this store has made since it was created, with those of the cluster, session
    /// bindings and attachments on it: one per statement, `BEGIN` and `COMMIT` included (a prepared statement's
    /// preparation, once per connection, is not counted). For diagnostics and the benchmarks' round trips per message
    /// (docs/performance.md, "A cluster on PostgreSQL").
    public var roundTrips: Int { shared.roundTripCount }

    /// A store on `client`, which the caller runs (`client.run()`, or in a `ServiceGroup`) while the store is used.
    /// Call ``migrate()`` once before the first use.
    /// - Parameter clock: Dates a new conversation (its ``StoredConversation/updatedAt``); the server passes its own.
    public init(client: PostgresClient, logger: Logger = Logger(label: "parley.postgres"), clock: ServerClock = .system)
    {
        self.client = client
        self.logger = logger
        self.clock = clock
    }

    /// Brings the database's schema up to date (see the `parley_schema_migrations` table); safe when several servers
    /// do it at once.
    /// - Throws: ``ParleyError/Code/storeSchemaTooNew`` when a newer server migrated the database.
    public func migrate() async throws {
        _ = try await client.withConnection { connection in
            try await PostgresSchema.migrate(on: connection, logger: logger)
        }
    }

    // MARK: ConversationStore

    /// Ready when the database answers within two seconds (a connection of the pool, opened again if the database
    /// came back) and its schema is at this server's version (every migration of ``PostgresSchema`` applied, none
    /// newer).
    /// - Throws: ``ParleyError/Code/storeUnavailable`` naming the cause; ``ParleyError/Code/storeSchemaOutdated``
    ///   or ``ParleyError/Code/storeSchemaTooNew`` for a schema at another version.
    public func checkReadiness() async throws {
        let version: Int
        do {
            version = try await Self.withDeadline(.seconds(2)) { [client, logger] in
                var found = false
                for try await exists in try await client.query(
                    "SELECT to_regclass('parley_schema_migrations') IS NOT NULL", logger: logger
                ).decode(Bool.self) {
                    found = exists
                }
                guard found else { return 0 }
                var version = 0
                for try await applied in try await client.query(
                    "SELECT coalesce(max(version), 0) FROM parley_schema_migrations", logger: logger
                ).decode(Int.self) {
                    version = applied
                }
                return version
            }
        } catch is DeadlineExceeded {
            throw ParleyError(.storeUnavailable, "the database did not answer within 2 seconds")
        } catch let error as PSQLError {
            throw ParleyError(.storeUnavailable, Self.runtimeError(error).message, underlying: error)
        } catch {
            throw ParleyError(.storeUnavailable, "the database cannot be reached: \(error)", underlying: error)
        }
        try Self.checkSchema(at: version)
    }

    /// Throws unless the schema is at this server's version.
    static func checkSchema(at version: Int) throws(ParleyError) {
        if version < PostgresSchema.latestVersion {
            throw ParleyError(
                .storeSchemaOutdated,
                "the database's schema is at version \(version), this server's at \(PostgresSchema.latestVersion): "
                    + "restart a server to migrate it")
        }
        if version > PostgresSchema.latestVersion {
            throw ParleyError(
                .storeSchemaTooNew,
                "the database's schema is at version \(version), newer than this server's "
                    + "\(PostgresSchema.latestVersion)")
        }
    }

    /// The conversation for `key`, created empty when new.
    public func conversation(for key: ConversationKey) async throws -> StoredConversation {
        if let existing = try await existingConversation(for: key) { return existing }
        try await query(
            """
            INSERT INTO parley_conversations (channel_id, user_id, state, last_sequence, updated_at)
            VALUES (\(key.channelId), \(key.userId), '{}', 0, \(clock.now().timeIntervalSince1970))
            ON CONFLICT (channel_id, user_id) DO NOTHING
            """)
        guard let created = try await existingConversation(for: key) else {
            throw ParleyError(.internalError, "conversation \(key) vanished")
        }
        return created
    }

    func existingConversation(for key: ConversationKey) async throws -> StoredConversation? {
        let rows = try await query(
            """
            SELECT \(unescaped: ConversationRow.columns) FROM parley_conversations AS c
            WHERE c.channel_id = \(key.channelId) AND c.user_id = \(key.userId)
            """)
        for try await row in rows.decode(ConversationRow.Columns.self) {
            return ConversationRow(row).conversation(for: key)
        }
        return nil
    }

    /// Why a receive rolled back: the input was there already, with this sequence number.
    private struct Duplicate: Error {
        var sequence: Int
    }

    /// Stores a user's input as pending, unless the conversation already has its `clientMessageId`: one statement
    /// (``ReceiveStatement``); a new conversation, or a repeat that raced its first, takes the transaction's path.
    public func receive(_ input: InputFrame, for key: ConversationKey, at date: Date) async throws -> ReceivedInput {
        let frame = input.jsonValue.jsonString()
        let clientMessageId = input.clientMessageId
        let stamp = date.timeIntervalSince1970
        // A message's hint for the user's other sockets on other nodes, which the hub announces after the receive,
        // goes with the commit when the cluster runs (a profile update has none).
        var hintPrefix: String?
        if case .message = input { hintPrefix = shared.userMessageHintPrefix(for: key) }
        // Read before the statement: the same when the turn starts only if the node held the turns throughout.
        let token = shared.turnToken(for: key)
        do {
            let statement = ReceiveStatement(
                channelId: key.channelId, userId: key.userId, frame: frame, date: stamp,
                clientMessageId: clientMessageId, hintPrefix: hintPrefix)
            var result: ReceiveStatement.Row?
            for try await row in try await client.counted(statement, logger: logger, by: shared) { result = row }
            if let (stored, repeated, alone) = result {
                if let stored {
                    if hintPrefix != nil { shared.sentUserMessageHint(key, sequence: stored) }
                    if let token, let alone {
                        // The turn's read, as the statement found it (``TurnHolds``).
                        let message = try StoredMessage(
                            sequence: stored, direction: "user", storedFrame: frame,
                            createdAt: Date(timeIntervalSince1970: stamp), outbound: nil, pending: true)
                        let conversation = ConversationRow(alone).conversation(for: key)
                        shared.remember(PendingInputs(conversation: conversation, inputs: [message]), token: token)
                    }
                    return ReceivedInput(sequence: stored, duplicate: false)
                }
                if let repeated { return ReceivedInput(sequence: repeated, duplicate: true) }
            }
        } catch let error as PSQLError where Self.isFence(error) {
            // A repeat found only after the number was taken: rolled back, decided below.
        } catch let error as PSQLError {
            throw Self.runtimeError(error)
        }
        let received = try await receiveInTransaction(
            frame, clientMessageId: clientMessageId, hintPrefix: hintPrefix, for: key, at: stamp)
        if hintPrefix != nil, !received.duplicate { shared.sentUserMessageHint(key, sequence: received.sequence) }
        return received
    }

    /// ``receive(_:for:at:)`` in a transaction of several statements: creates the conversation when new.
    private func receiveInTransaction(
        _ frame: String, clientMessageId: String?, hintPrefix: String?, for key: ConversationKey, at stamp: Double
    ) async throws -> ReceivedInput {
        do {
            let sequence = try await transaction { connection in
                // The next sequence number, taken by the statement that locks the conversation's row until commit.
                var numbered = try await Self.firstRow(
                    connection.counted(
                        """
                        UPDATE parley_conversations SET last_sequence = last_sequence + 1
                        WHERE channel_id = \(key.channelId) AND user_id = \(key.userId) RETURNING id, last_sequence
                        """, logger: logger, by: shared))?.decode((Int64, Int).self)
                if numbered == nil {
                    // A new conversation; another node creating it at the same moment makes this an update.
                    numbered = try await Self.firstRow(
                        connection.counted(
                            """
                            INSERT INTO parley_conversations (channel_id, user_id, state, last_sequence, updated_at)
                            VALUES (\(key.channelId), \(key.userId), '{}', 1, \(clock.now().timeIntervalSince1970))
                            ON CONFLICT (channel_id, user_id)
                            DO UPDATE SET last_sequence = parley_conversations.last_sequence + 1
                            RETURNING id, last_sequence
                            """, logger: logger, by: shared))?.decode((Int64, Int).self)
                }
                guard let (conversationId, sequence) = numbered else {
                    throw ParleyError(.internalError, "conversation \(key) cannot be stored")
                }
                // With the row locked, an input with the same client message id is committed or absent: the unique
                // index answers, and the number taken above is given back by the rollback.
                let stored = try await Self.firstRow(
                    connection.counted(
                        """
                        INSERT INTO parley_messages
                            (conversation_id, sequence, direction, frame, created_at, client_message_id, pending)
                        VALUES (\(conversationId), \(sequence), 'user', \(frame), \(stamp), \(clientMessageId), true)
                        ON CONFLICT (conversation_id, client_message_id) WHERE client_message_id IS NOT NULL
                        DO NOTHING RETURNING sequence
                        """, logger: logger, by: shared))?.decode(Int.self)
                guard stored != nil else {
                    let first = try await Self.firstRow(
                        connection.counted(
                            """
                            SELECT sequence FROM parley_messages
                            WHERE conversation_id = \(conversationId) AND client_message_id = \(clientMessageId)
                            """, logger: logger, by: shared))?.decode(Int.self)
                    guard let first else { throw ParleyError(.internalError, "a duplicate input of \(key) vanished") }
                    throw Duplicate(sequence: first)
                }
                if let hintPrefix {
                    // Sent by PostgreSQL at the commit, as the one-statement receive's.
                    try await connection.counted(
                        "SELECT pg_notify(\(PostgresCluster.channel), \(hintPrefix + String(sequence) + "}}"))",
                        logger: logger, by: shared)
                }
                return sequence
            }
            return ReceivedInput(sequence: sequence, duplicate: false)
        } catch let duplicate as Duplicate {
            return ReceivedInput(sequence: duplicate.sequence, duplicate: true)
        }
    }

    /// The conversation's oldest unanswered inputs (``PendingInputs/limit``), with the conversation as it stood; nil
    /// for none.
    ///
    /// Without a round trip when this node's ``PostgresCluster`` has held the conversation's turns since the receive
    /// of its one pending input (a conversation that goes on, answered by one node): that input, with the
    /// conversation as the receive left it; inputs stored after it come in the next read.
    public func pending(for key: ConversationKey) async throws -> PendingInputs? {
        if let snapshot = shared.takeSnapshot(of: key) { return snapshot }
        // One statement, so one snapshot: the conversation and its pending inputs as they stood together.
        let statement = PendingStatement(
            channelId: key.channelId, userId: key.userId, limit: Int64(PendingInputs.limit))
        var conversation: StoredConversation?
        var inputs: [StoredMessage] = []
        let rows: AsyncThrowingMapSequence<PostgresRowSequence, PendingStatement.Row>
        do {
            rows = try await client.counted(statement, logger: logger, by: shared)
        } catch let error as PSQLError {
            throw Self.runtimeError(error)
        }
        for try await row in rows {
            if conversation == nil {
                conversation = ConversationRow((row.0, row.1, row.2, row.3, row.4, row.5, row.6))
                    .conversation(for: key)
            }
            // No message columns: a conversation without pending inputs (the left join's one row).
            if let sequence = row.7, let direction = row.8, let frame = row.9, let createdAt = row.10,
                let pending = row.12
            {
                inputs.append(try MessageRow((sequence, direction, frame, createdAt, row.11, pending)).message())
            }
        }
        return conversation.map { PendingInputs(conversation: $0, inputs: inputs) }
    }

    /// The conversations with inputs the skill has not answered.
    public func conversationsWithPendingInputs() async throws -> [ConversationKey] {
        let rows = try await query(
            """
            SELECT c.channel_id, c.user_id FROM parley_conversations AS c
            WHERE EXISTS (SELECT 1 FROM parley_messages AS m WHERE m.conversation_id = c.id AND m.pending)
            ORDER BY c.id
            """)
        var keys: [ConversationKey] = []
        for try await (channelId, userId) in rows.decode((String, String).self) {
            keys.append(ConversationKey(channelId: channelId, userId: userId))
        }
        return keys
    }

    /// Stores the server's messages and the new state, and marks input `sequence` answered, in one transaction:
    /// one statement (``AnswerStatement``) when the conversation's outbound number is still the one `conversation`
    /// was read with, a transaction of several otherwise. With a cluster, the hint of the new messages is sent with
    /// the commit.
    public func answer(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage] {
        try await answered(sequence, with: replies, state: state, in: conversation, at: date).stored
    }

    /// ``answer(_:with:state:in:at:)``, with whether other inputs were pending: the one-statement answer counts them
    /// in its snapshot; the transaction's path says there may be.
    public func answerInput(
        _ sequence: Int, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> AnsweredInput {
        try await answered(sequence, with: replies, state: state, in: conversation, at: date)
    }

    private func answered(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> AnsweredInput {
        // Whatever happens below, what a receive found of the conversation is out of date.
        defer { shared.changed(conversation.key) }
        let stamp = date.timeIntervalSince1970
        let stateText = state.jsonValue.jsonString()
        let count = replies.count
        // The replies numbered after the outbound number read, and encoded once with it (the statement checks it).
        var stored = replies.enumerated().map { offset, reply in
            StoredMessage(
                sequence: 0, frame: .skill(reply), createdAt: date, outbound: conversation.lastOutbound + 1 + offset)
        }
        let frames = stored.indices.map { stored[$0].encodeWireFrame() }
        let statement = AnswerStatement(
            conversationId: conversation.id, state: stateText, count: Int64(count), date: stamp,
            lastOutbound: Int64(conversation.lastOutbound), input: sequence.map(Int64.init), frames: frames,
            notification: count > 0 ? hint(for: conversation.key, outbound: conversation.lastOutbound + count) : nil)
        do {
            var result: AnswerStatement.Row?
            for try await row in try await client.counted(statement, logger: logger, by: shared) { result = row }
            if let (lastSequence, othersPending) = result {
                // `sequence` is not part of the encoded texts: they stay.
                for index in stored.indices { stored[index].sequence = lastSequence - count + 1 + index }
                return AnsweredInput(stored: stored, othersPending: othersPending)
            }
        } catch let error as PSQLError where Self.isFence(error) {
            // Numbered or answered meanwhile, or gone: rolled back, decided below.
        } catch let error as PSQLError {
            throw Self.runtimeError(error)
        }
        return AnsweredInput(
            stored: try await answerInTransaction(
                sequence, with: replies, state: stateText, in: conversation, at: date),
            othersPending: true)
    }

    /// The hint of an answer for the cluster, when the store sends it (``PostgresCluster`` on this store).
    private func hint(for key: ConversationKey, outbound: Int) -> String? {
        guard shared.answersSendHints else { return nil }
        // The event's JSON with the store's mark, which older nodes ignore.
        let hint: JSONValue = [
            "messages": [
                "channelId": .string(key.channelId), "userId": .string(key.userId),
                "outbound": .number(Double(outbound)), "origin": .string(shared.origin),
            ]
        ]
        let text = hint.jsonString()
        return text.utf8.count > 7_900 ? ClusterEvent.resynchronize.jsonValue.jsonString() : text
    }

    /// ``answer(_:with:state:in:at:)`` in a transaction of several statements.
    private func answerInTransaction(
        _ sequence: Int?, with replies: [SkillMessage], state stateText: String, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage] {
        let stamp = date.timeIntervalSince1970
        let count = replies.count
        return try await transaction { connection in
            // The numbers after the replies, taken by the statement that stores the new state and locks the row.
            guard
                let (lastSequence, lastOutbound) = try await Self.firstRow(
                    connection.counted(
                        """
                        UPDATE parley_conversations SET state = \(stateText), last_sequence = last_sequence + \(count),
                        last_outbound = last_outbound + \(count), updated_at = \(stamp)
                        WHERE id = \(conversation.id) RETURNING last_sequence, last_outbound
                        """, logger: logger, by: shared))?.decode((Int, Int).self)
            else { throw ParleyError(.internalError, "conversation \(conversation.key) vanished") }
            var stored = replies.enumerated().map { offset, reply in
                StoredMessage(
                    sequence: lastSequence - count + 1 + offset, frame: .skill(reply), createdAt: date,
                    outbound: lastOutbound - count + 1 + offset)
            }
            if !stored.isEmpty {
                // Stored with their wire `sequence`, as sockets with Parley's extension get them.
                let sequences = stored.map(\.sequence)
                let frames = stored.indices.map { stored[$0].encodeWireFrame() }
                let outbounds = stored.map { $0.outbound ?? 0 }
                try await connection.counted(
                    """
                    INSERT INTO parley_messages (conversation_id, sequence, direction, frame, created_at, outbound)
                    SELECT \(conversation.id), reply.sequence, 'skill', reply.frame, \(stamp), reply.outbound
                    FROM unnest(\(sequences)::bigint[], \(frames)::text[], \(outbounds)::bigint[])
                        AS reply (sequence, frame, outbound)
                    """, logger: logger, by: shared)
            }
            if let sequence {
                // The fence of a cluster: an input another node answered meanwhile is not pending any more, and this
                // answer rolls back.
                let answered = try await Self.firstRow(
                    connection.counted(
                        """
                        UPDATE parley_messages SET pending = false
                        WHERE conversation_id = \(conversation.id) AND sequence = \(sequence) AND pending
                        RETURNING sequence
                        """, logger: logger, by: shared))
                guard answered != nil else {
                    throw ParleyError(.storeInputAnswered, "input \(sequence) of \(conversation.key) is not pending")
                }
            }
            if let last = stored.last?.outbound, let hint = hint(for: conversation.key, outbound: last) {
                // Sent by PostgreSQL at the commit, as the one-statement answer's.
                try await connection.counted(
                    "SELECT pg_notify(\(PostgresCluster.channel), \(hint))", logger: logger, by: shared)
            }
            return stored
        }
    }

    /// The messages of a conversation after `cursor`, oldest first, at most `limit` of them.
    public func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) async throws
        -> [StoredMessage]
    {
        let (column, after) =
            switch cursor {
            case .sequence(let sequence): ("m.sequence", sequence)
            case .outbound(let outbound): ("m.outbound", outbound)
            }
        let rows = try await query(
            """
            SELECT \(unescaped: MessageRow.columns) FROM parley_messages AS m
            JOIN parley_conversations AS c ON c.id = m.conversation_id
            WHERE c.channel_id = \(key.channelId) AND c.user_id = \(key.userId) AND \(unescaped: column) > \(after)
            ORDER BY m.sequence LIMIT \(Int64(max(limit, 0)))
            """)
        var messages: [StoredMessage] = []
        for try await row in rows.decode(MessageRow.Columns.self) {
            messages.append(try MessageRow(row).message())
        }
        return messages
    }

    /// The newest outbound numbers of the conversations of `keys` that are stored, in one query.
    public func lastOutbounds(of keys: [ConversationKey]) async throws -> [ConversationKey: Int] {
        guard !keys.isEmpty else { return [:] }
        let rows = try await query(
            """
            SELECT c.channel_id, c.user_id, c.last_outbound FROM parley_conversations AS c
            JOIN unnest(\(keys.map(\.channelId)), \(keys.map(\.userId))) AS k(channel_id, user_id)
            ON c.channel_id = k.channel_id AND c.user_id = k.user_id
            """)
        var numbers: [ConversationKey: Int] = [:]
        for try await (channelId, userId, outbound) in rows.decode((String, String, Int).self) {
            numbers[ConversationKey(channelId: channelId, userId: userId)] = outbound
        }
        return numbers
    }

    // MARK: Helpers

    /// Runs `query` on a connection of the pool; a failure is a ``ParleyError`` saying what the database said.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        do {
            return try await client.counted(query, logger: logger, by: shared)
        } catch let error as PSQLError {
            throw Self.runtimeError(error)
        }
    }

    /// ``query(_:)`` for the other tables of the database (session bindings).
    func run(_ statement: PostgresQuery) async throws -> PostgresRowSequence {
        try await query(statement)
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back when it throws (its
    /// own error is thrown, not postgres-nio's wrapper; a database error becomes a ``ParleyError``).
    func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await inTransaction(body)
        } catch let error as PSQLError {
            throw Self.runtimeError(error)
        }
    }

    private func inTransaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in
            try await connection.counted("BEGIN", logger: logger, by: shared)
            let value: T
            do {
                value = try await body(connection)
            } catch {
                _ = try? await connection.counted("ROLLBACK", logger: logger, by: shared)
                throw error
            }
            try await connection.counted("COMMIT", logger: logger, by: shared)
            return value
        }
    }

    /// Whether a one-statement step failed on purpose (`1 / 0`: see ``ReceiveStatement``, ``AnswerStatement``) and
    /// rolled back, for the transaction's path to decide.
    static func isFence(_ error: PSQLError) -> Bool {
        error.code == .server && error.serverInfo?[.sqlState] == "22012"
    }

    /// A database error in words: postgres-nio's own description says nothing, to keep secrets out of logs; the
    /// server's message and SQLSTATE hold none.
    static func runtimeError(_ error: PSQLError) -> ParleyError {
        if error.code == .server {
            let reason = error.serverInfo?[.message] ?? "an error"
            let state = error.serverInfo?[.sqlState] ?? "?"
            return ParleyError(.internalError, "PostgreSQL: \(reason) (SQLSTATE \(state))", underlying: error)
        }
        return ParleyError(.storeUnavailable, "PostgreSQL: \(error.code)", underlying: error)
    }

    /// The first row of a result, the rest read and dropped; nil for none.
    static func firstRow(_ rows: PostgresRowSequence) async throws -> PostgresRow? {
        var first: PostgresRow?
        for try await row in rows where first == nil {
            first = row
        }
        return first
    }
}

/// A conversation's columns as read; its state is parsed after the read.
struct ConversationRow {
    typealias Columns = (Int64, String, Int, Int, Double, Double?, String?)
    static let columns =
        "c.id, c.state, c.last_sequence, c.last_outbound, c.updated_at, c.hand_off_since, c.hand_off_agent"

    var columns: Columns

    init(_ columns: Columns) {
        self.columns = columns
    }

    func conversation(for key: ConversationKey) -> StoredConversation {
        let (id, state, lastSequence, lastOutbound, updatedAt, handOffSince, handOffAgent) = columns
        return StoredConversation(
            id: id, key: key, storedState: state, lastSequence: lastSequence, lastOutbound: lastOutbound,
            updatedAt: Date(timeIntervalSince1970: updatedAt), handOffSince: handOffSince, handOffAgent: handOffAgent)
    }
}

/// A message's columns as read; its frame is parsed after the read.
private struct MessageRow {
    typealias Columns = (Int, String, String, Double, Int?, Bool)
    static let columns = "m.sequence, m.direction, m.frame, m.created_at, m.outbound, m.pending"

    var columns: Columns

    init(_ columns: Columns) {
        self.columns = columns
    }

    func message() throws -> StoredMessage {
        let (sequence, direction, frame, createdAt, outbound, pending) = columns
        return try StoredMessage(
            sequence: sequence, direction: direction, storedFrame: frame,
            createdAt: Date(timeIntervalSince1970: createdAt), outbound: outbound, pending: pending)
    }
}
