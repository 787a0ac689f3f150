public import Foundation
import GRDB
public import Logging
public import ServiceLifecycle

/// Conversations in an SQLite file (through GRDB), so a restarted server keeps them.
///
/// The file is in WAL mode with `synchronous = NORMAL` (GRDB's `DatabasePool`): reads never wait for writes, a
/// commit is a write to the log without an `fsync`, and a background thread moves the log into the file. What is
/// committed survives a crash or restart of the server process; an operating-system crash or power cut can lose the
/// last commits before SQLite's next checkpoint. See docs/performance.md for the numbers behind this choice.
///
/// Checkpoints are a service of their own, ``checkpointer(logger:)``: the application built by `buildApplication`
/// runs it for the store it opens, and for a store of this type it is given; run it in a service group of your own
/// when you use the store without the application.
///
/// It calls GRDB's synchronous API from the calling task: each access is a few short statements (tens of
/// microseconds), less than handing the work to GRDB's queue and waking the task again, which costs two thread
/// wake-ups (several hundred microseconds on a small virtual machine).
public struct SQLiteConversationStore: ConversationStore {
    private let database: DatabasePool
    /// The connection that checkpoints the file (``checkpointer(logger:)``).
    private let checkpointConnection: DatabaseQueue
    private let path: String
    private let groupCommit: GroupCommit
    private let cache: PendingInputsCache
    /// Dates a new conversation's `updatedAt`; every other date comes with the call that stores it.
    private let clock: ServerClock

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    ///
    /// One server uses a database file at a time: the store keeps the pending inputs of recently active
    /// conversations in memory, in step with what it commits.
    /// - Parameters:
    ///   - url: The database file.
    ///   - clock: Dates a new conversation (its ``StoredConversation/updatedAt``); the server passes its own.
    public init(url: URL, clock: ServerClock = .system) throws {
        try self.init(url: url, cachedConversations: 10_000, clock: clock)
    }

    /// Opens the database, keeping the pending inputs of at most `cachedConversations` conversations in memory
    /// (those with none are dropped first).
    init(url: URL, cachedConversations: Int, clock: ServerClock = .system) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Another connection to the file (the checkpointer's, or a store of a server just stopped in the same
        // process) may hold a lock for a moment: wait for it rather than fail with "database is locked".
        configuration.busyMode = .timeout(5)
        // A new file gets pages of `pageSize` bytes; a file that exists keeps its own (SQLite ignores the pragma).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)") }
        database = try DatabasePool(path: url.path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(database)
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 10000") }
        checkpointConnection = try DatabaseQueue(path: url.path)
        path = url.path
        groupCommit = GroupCommit(database)
        cache = PendingInputsCache(capacity: cachedConversations)
        self.clock = clock
    }

    /// The page size of a new database file: 2 KiB rather than SQLite's 4 KiB. Every page a transaction changes is
    /// written whole to the log, and checksummed there, at every commit: with two commits per message, each changing
    /// about four pages, smaller pages took a seventh off the store's time per message (docs/performance.md). A
    /// message up to about 2 KB still fits in its page (a larger one continues on overflow pages).
    static let pageSize = 2048

    /// The service that copies the write-ahead log into the database file four times a second, until the service
    /// group it runs in shuts down; a checkpoint that fails is logged to `logger`. Without it, SQLite copies the log in
    /// the commit that makes it pass 10,000 pages, and that request waits.
    /// - Parameter clock: What it waits on; by default the store's clock. `buildApplication` passes the system's:
    ///   checkpoints are about the disk, not about the conversations' time, and a server run on a virtual clock (in
    ///   tests) would otherwise checkpoint only when the test moves the clock, and count as one more sleeper on it.
    public func checkpointer(logger: Logger = Logger(label: "parley.sqlite"), clock: ServerClock? = nil) -> some Service
    {
        Checkpointer(connection: checkpointConnection, path: path, clock: clock ?? self.clock, logger: logger)
    }

    /// Runs `updates` in the next group commit and returns once it is committed (`committed` is called first, in
    /// commit order).
    private func write<T: Sendable>(
        _ updates: @escaping @Sendable (Database) throws -> T, committed: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        try await groupCommit.write(updates, committed: committed)
    }

    /// GRDB's synchronous read, outside a transaction: every read here is one statement, which SQLite runs on one
    /// snapshot of the database (a transaction's `BEGIN` and `COMMIT` cost a fifth of a small read).
    private func read<T>(_ value: (Database) throws -> T) throws -> T {
        try database.unsafeRead(value)
    }

    /// Ready when the file's schema is at this server's version: every migration applied, none it does not know.
    /// - Throws: ``ParleyError/Code/storeSchemaOutdated`` or ``ParleyError/Code/storeSchemaTooNew``.
    public func checkReadiness() async throws {
        let (complete, superseded) = try read { db in
            (try SQLiteSchema.migrator.hasCompletedMigrations(db), try SQLiteSchema.migrator.hasBeenSuperseded(db))
        }
        if superseded {
            throw ParleyError(.storeSchemaTooNew, "the database file was migrated by a newer server")
        }
        guard complete else {
            throw ParleyError(
                .storeSchemaOutdated, "the database file's schema is older than this server's: restart the server")
        }
    }

    /// The conversation for `key`, created empty when new (read without a write when it exists).
    public func conversation(for key: ConversationKey) async throws -> StoredConversation {
        if let existing = try read({ db in try Self.existingConversation(for: key, in: db) }) { return existing }
        let now = clock.now()
        return try await write { db in try Self.conversation(for: key, in: db, now: now) }
    }

    private static func conversation(for key: ConversationKey, in db: Database, now: Date) throws
        -> StoredConversation
    {
        if let existing = try existingConversation(for: key, in: db) { return existing }
        try db.cachedStatement(
            sql: """
                INSERT INTO conversation (channelId, userId, state, lastSequence, updatedAt) VALUES (?, ?, '{}', 0, ?)
                ON CONFLICT(channelId, userId) DO NOTHING
                """
        ).execute(arguments: [key.channelId, key.userId, now.timeIntervalSince1970])
        guard let created = try existingConversation(for: key, in: db) else {
            throw ParleyError(.internalError, "conversation \(key) vanished")
        }
        return created
    }

    private static func existingConversation(for key: ConversationKey, in db: Database) throws -> StoredConversation? {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(ConversationRow.columns) FROM conversation WHERE channelId = ? AND userId = ?"),
            arguments: [key.channelId, key.userId])
        return row.map { ConversationRow($0).conversation(for: key) }
    }

    /// Stores a user's input as pending, unless the conversation already has its `clientMessageId`.
    public func receive(_ frame: InputFrame, for key: ConversationKey, at date: Date) async throws -> ReceivedInput {
        let text = frame.jsonValue.jsonString()
        let clientMessageId = frame.clientMessageId
        let cache = cache
        let clock = clock
        return try await write(
            { db -> Received in
                // The statements of every message run with SQLite's C API (`Statement+Direct.swift`).
                if let clientMessageId,
                    let sequence = try db.cachedStatement(
                        sql: """
                            SELECT message.sequence FROM message
                            JOIN conversation ON conversation.id = message.conversationId
                            WHERE conversation.channelId = ? AND conversation.userId = ?
                            AND message.clientMessageId = ?
                            """
                    ).direct(
                        bind: {
                            $0.bind(key.channelId); $0.bind(key.userId); $0.bind(clientMessageId)
                        },
                        read: { Int($0.int64(0)) })
                {
                    return Received(result: ReceivedInput(sequence: sequence, duplicate: true))
                }
                // The conversation's id and next sequence number, taken in the same statement that finds it.
                let readNumbers = { (row: DirectRow) in (id: row.int64(0), sequence: Int(row.int64(1))) }
                var created: StoredConversation?
                var numbers = try db.cachedStatement(
                    sql: """
                        UPDATE conversation SET lastSequence = lastSequence + 1 WHERE channelId = ? AND userId = ?
                        RETURNING id, lastSequence
                        """
                ).direct(
                    bind: {
                        $0.bind(key.channelId); $0.bind(key.userId)
                    }, read: readNumbers)
                if numbers == nil {
                    let now = clock.now().stored
                    numbers = try db.cachedStatement(
                        sql: """
                            INSERT INTO conversation (channelId, userId, state, lastSequence, updatedAt)
                            VALUES (?, ?, '{}', 1, ?) RETURNING id, lastSequence
                            """
                    ).direct(
                        bind: {
                            $0.bind(key.channelId); $0.bind(key.userId); $0.bind(now.timeIntervalSince1970)
                        },
                        read: readNumbers)
                    if let numbers {
                        created = StoredConversation(id: numbers.id, key: key, lastSequence: 1, updatedAt: now)
                    }
                }
                guard let numbers else { throw ParleyError(.internalError, "conversation \(key) cannot be stored") }
                let input = StoredMessage(
                    sequence: numbers.sequence, frame: .user(frame), createdAt: date.stored, pending: true)
                try db.cachedStatement(
                    sql: """
                        INSERT INTO message
                        (conversationId, sequence, direction, frame, createdAt, clientMessageId, pending)
                        VALUES (?, ?, 'user', ?, ?, ?, 1)
                        """
                ).direct { bindings in
                    bindings.bind(numbers.id)
                    bindings.bind(input.sequence)
                    bindings.bind(text)
                    bindings.bind(date.timeIntervalSince1970)
                    bindings.bind(clientMessageId)
                }
                return Received(
                    result: ReceivedInput(sequence: input.sequence, duplicate: false), input: input, created: created)
            },
            committed: { received in
                if let input = received.input { cache.received(input, for: key, created: received.created) }
            }
        ).result
    }

    /// What a receive stored: the input, and the conversation when it was new.
    private struct Received: Sendable {
        var result: ReceivedInput
        var input: StoredMessage?
        var created: StoredConversation?
    }

    /// The conversation's oldest unanswered inputs (``PendingInputs/limit``), with the conversation as it stood; nil
    /// for none.
    public func pending(for key: ConversationKey) async throws -> PendingInputs? {
        if let cached = cache.pending(for: key) { return cached }
        // Read in a write transaction, so that nothing commits between the read and the cache's entry.
        let cache = cache
        return try await write(
            { db in try Self.readPending(for: key, in: db) },
            committed: { pending in if let pending { cache.read(pending) } })
    }

    /// The conversation and its pending inputs in one statement: one row per input, or one without a message.
    private static func readPending(for key: ConversationKey, in db: Database) throws -> PendingInputs? {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(ConversationRow.columns), \(MessageRow.columns) FROM conversation
                    LEFT JOIN message ON message.conversationId = conversation.id
                    AND message.sequence > conversation.answeredThrough AND message.pending
                    WHERE conversation.channelId = ? AND conversation.userId = ? ORDER BY message.sequence LIMIT ?
                    """), arguments: [key.channelId, key.userId, PendingInputs.limit]
        ).map { row in (ConversationRow(row), MessageRow(row, from: ConversationRow.count)) }
        guard let conversation = rows.first?.0 else { return nil }
        return PendingInputs(
            conversation: conversation.conversation(for: key), inputs: try rows.compactMap { try $0.1?.message() })
    }

    /// The conversations with inputs the skill has not answered.
    public func conversationsWithPendingInputs() async throws -> [ConversationKey] {
        try read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT channelId, userId FROM conversation WHERE EXISTS (
                            SELECT 1 FROM message WHERE message.conversationId = conversation.id
                            AND message.sequence > conversation.answeredThrough AND message.pending)
                        """)
            ).map { ConversationKey(channelId: $0["channelId"], userId: $0["userId"]) }
        }
    }

    /// Stores the server's messages and the new state, and marks input `sequence` answered, in one step.
    public func answer(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage] {
        do {
            return try await answerInWrite(sequence, with: replies, state: state, in: conversation, at: date)
        } catch let error as ParleyError where error.code == .storeInputAnswered {
            // The file says the input was answered where the cache said it was pending: another store on the same
            // file answered it (the conformance suite's two nodes). The next read is the file's.
            cache.forget(conversation.key)
            throw error
        }
    }

    /// ``answer(_:with:state:in:at:)``'s transaction, and the cache's step after its commit.
    private func answerInWrite(
        _ sequence: Int?, with replies: [SkillMessage], state: ConversationState, in conversation: StoredConversation,
        at date: Date
    ) async throws -> [StoredMessage] {
        let stamp = date.timeIntervalSince1970
        let stateText = state.jsonValue.jsonString()
        let cache = cache
        return try await write(
            { db -> Answered in
                if let sequence {
                    try db.cachedStatement(
                        sql: "UPDATE message SET pending = 0 WHERE conversationId = ? AND sequence = ? AND pending"
                    ).direct { bindings in
                        bindings.bind(conversation.id)
                        bindings.bind(sequence)
                    }
                    guard db.changesCount == 1 else {
                        throw ParleyError(
                            .storeInputAnswered, "input \(sequence) of \(conversation.key) is not pending")
                    }
                }
                // The conversation's numbers after the replies, taken in the statement that stores the new state;
                // `answeredThrough` moves up to the oldest input still pending (inputs are answered in order, so
                // normally to `sequence`).
                guard
                    let numbers = try db.cachedStatement(
                        sql: """
                            UPDATE conversation SET state = ?1, lastSequence = lastSequence + ?2,
                            lastOutbound = lastOutbound + ?2, updatedAt = ?3,
                            answeredThrough = CASE WHEN ?5 IS NULL THEN answeredThrough ELSE coalesce(
                                (SELECT min(sequence) FROM message WHERE conversationId = ?4
                                AND sequence > conversation.answeredThrough AND pending), ?5 + 1) - 1 END
                            WHERE id = ?4 RETURNING lastSequence, lastOutbound
                            """
                    ).direct(
                        bind: { bindings in
                            bindings.bind(stateText)
                            bindings.bind(replies.count)
                            bindings.bind(stamp)
                            bindings.bind(conversation.id)
                            bindings.bind(sequence)
                        }, read: { row in (sequence: Int(row.int64(0)), outbound: Int(row.int64(1))) })
                else { throw ParleyError(.internalError, "conversation \(conversation.key) vanished") }
                var after = conversation
                (after.state, after.unreadableState) = (state, nil)
                (after.lastSequence, after.lastOutbound, after.updatedAt) = (
                    numbers.sequence, numbers.outbound, date.stored
                )
                let firstSequence = after.lastSequence - replies.count + 1
                let firstOutbound = after.lastOutbound - replies.count + 1
                var stored: [StoredMessage] = []
                for (offset, reply) in replies.enumerated() {
                    var message = StoredMessage(
                        sequence: firstSequence + offset, frame: .skill(reply), createdAt: date,
                        outbound: firstOutbound + offset)
                    // Stored with its wire `sequence`, as sockets with Parley's extension get it.
                    let text = message.encodeWireFrame()
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO message (conversationId, sequence, direction, frame, createdAt, outbound)
                            VALUES (?, ?, 'skill', ?, ?, ?)
                            """
                    ).direct { bindings in
                        bindings.bind(conversation.id)
                        bindings.bind(message.sequence)
                        bindings.bind(text)
                        bindings.bind(stamp)
                        bindings.bind(message.outbound)
                    }
                    stored.append(message)
                }
                return Answered(replies: stored, conversation: after)
            },
            committed: { answered in cache.answered(sequence, in: answered.conversation) }
        ).replies
    }

    /// What an answer stored, and the conversation after it.
    private struct Answered: Sendable {
        var replies: [StoredMessage]
        var conversation: StoredConversation
    }

    /// The messages of a conversation after `cursor`, oldest first, at most `limit` of them.
    public func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) async throws
        -> [StoredMessage]
    {
        switch cursor {
        case .sequence(let sequence):
            try await fetch(
                "conversation.channelId = ? AND conversation.userId = ? AND message.sequence > ?",
                [key.channelId, key.userId, sequence, max(limit, 0)])
        case .outbound(let outbound):
            try await fetch(
                "conversation.channelId = ? AND conversation.userId = ? AND message.outbound > ?",
                [key.channelId, key.userId, outbound, max(limit, 0)])
        }
    }

    /// The messages of `condition`, whose arguments end with the page's limit.
    private func fetch(_ condition: String, _ arguments: StatementArguments) async throws -> [StoredMessage] {
        try read { db in try Self.messageRows(db, condition, arguments) }.map { try $0.message() }
    }

    // MARK: Live agents

    /// Queues the conversation for live agents, unless it is handed over already.
    public func queueForAgents(_ key: ConversationKey, at date: Date) async throws -> Bool {
        let now = clock.now()
        let stamp = date.timeIntervalSince1970
        return try await handOffWrite(key) { db in
            _ = try Self.conversation(for: key, in: db, now: now)
            try db.execute(
                sql: """
                    UPDATE conversation SET handOffSince = ?, handOffAgent = NULL
                    WHERE channelId = ? AND userId = ? AND handOffSince IS NULL
                    """, arguments: [stamp, key.channelId, key.userId])
            return db.changesCount == 1
        }
    }

    /// The conversations handed to live agents, oldest first.
    public func agentQueue() async throws -> [QueuedConversation] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ConversationRow.columns), channelId, userId FROM conversation
                    WHERE handOffSince IS NOT NULL ORDER BY handOffSince, channelId, userId
                    """
            ).compactMap { row in
                let key = ConversationKey(channelId: row[ConversationRow.count], userId: row[ConversationRow.count + 1])
                return ConversationRow(row).conversation(for: key).handOff.map {
                    QueuedConversation(key: key, handOff: $0)
                }
            }
        }
    }

    /// Gives a waiting conversation (or one the same agent has) to `agent`.
    public func assign(_ key: ConversationKey, to agent: AgentSession) async throws {
        let agentText = agent.jsonValue.jsonString()
        try await handOffWrite(key) { db in
            guard let handOff = try Self.existingConversation(for: key, in: db)?.handOff else {
                throw ParleyError(.agentNoSuchConversation, "\(key) is not handed to agents")
            }
            guard handOff.agent == nil || handOff.agent?.name == agent.name else {
                throw ParleyError(.agentConversationTaken, "another agent has \(key)")
            }
            try db.execute(
                sql: "UPDATE conversation SET handOffAgent = ? WHERE channelId = ? AND userId = ?",
                arguments: [agentText, key.channelId, key.userId])
        }
    }

    /// Puts the conversations of the agent named `name` back in the queue.
    public func unassign(agentNamed name: String) async throws -> [ConversationKey] {
        let keys = try await agentQueue().filter { $0.handOff.agent?.name == name }.map(\.key)
        for key in keys {
            try await handOffWrite(key) { db in
                try db.execute(
                    sql: "UPDATE conversation SET handOffAgent = NULL WHERE channelId = ? AND userId = ?",
                    arguments: [key.channelId, key.userId])
            }
        }
        return keys
    }

    /// Ends the conversation's hand-off; what it was.
    public func endHandOff(_ key: ConversationKey) async throws -> AgentHandOff? {
        try await handOffWrite(key) { db in
            let handOff = try Self.existingConversation(for: key, in: db)?.handOff
            try db.execute(
                sql: """
                    UPDATE conversation SET handOffSince = NULL, handOffAgent = NULL WHERE channelId = ? AND userId = ?
                    """, arguments: [key.channelId, key.userId])
            return handOff
        }
    }

    // MARK: Retention

    /// Deletes the conversations whose last message (or creation, without messages) is older than `cutoff`, with
    /// their messages (the foreign key cascades), in one transaction; the pending-inputs cache forgets them.
    public func removeConversations(idleSince cutoff: Date) async throws -> [ConversationKey] {
        let cache = cache
        let time = cutoff.timeIntervalSince1970
        return try await write(
            { db in
                let idle = """
                    updatedAt < ?1 AND coalesce((SELECT createdAt FROM message WHERE conversationId = conversation.id
                        ORDER BY sequence DESC LIMIT 1), updatedAt) < ?1
                    """
                let keys = try Row.fetchAll(
                    db, sql: "SELECT channelId, userId FROM conversation WHERE \(idle)", arguments: [time]
                ).map { ConversationKey(channelId: $0[0], userId: $0[1]) }
                if !keys.isEmpty {
                    try db.execute(sql: "DELETE FROM conversation WHERE \(idle)", arguments: [time])
                }
                return keys
            },
            committed: { keys in for key in keys { cache.forget(key) } })
    }

    /// A write that changes the conversation's hand-off, which the pending-inputs cache then forgets.
    private func handOffWrite<T: Sendable>(
        _ key: ConversationKey, _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let cache = cache
        return try await write(updates, committed: { _ in cache.forget(key) })
    }

    /// A conversation's columns, read by position (a name is looked up case-insensitively at every access); its
    /// state is parsed after the read.
    private struct ConversationRow {
        static let columns = """
            conversation.id, conversation.state, conversation.lastSequence, conversation.lastOutbound, \
            conversation.updatedAt, conversation.handOffSince, conversation.handOffAgent
            """
        static let count = 7

        var id: Int64
        var state: String
        var lastSequence: Int
        var lastOutbound: Int
        var updatedAt: Double
        var handOffSince: Double?
        var handOffAgent: String?

        init(_ row: Row) {
            (id, state, lastSequence, lastOutbound, updatedAt) = (row[0], row[1], row[2], row[3], row[4])
            (handOffSince, handOffAgent) = (row[5], row[6])
        }

        func conversation(for key: ConversationKey) -> StoredConversation {
            StoredConversation(
                id: id, key: key, storedState: state, lastSequence: lastSequence, lastOutbound: lastOutbound,
                updatedAt: Date(timeIntervalSince1970: updatedAt), handOffSince: handOffSince,
                handOffAgent: handOffAgent)
        }
    }

    /// A message's columns, read by position from `offset`; its frame is parsed after the read.
    private struct MessageRow {
        static let columns = """
            message.sequence, message.direction, message.frame, message.createdAt, message.outbound, message.pending
            """

        var sequence: Int
        var direction: String
        var frame: String
        var createdAt: Double
        var outbound: Int?
        var pending: Bool

        /// Nil when the row has no message (a conversation without pending inputs, in ``pending(for:)``).
        init?(_ row: Row, from offset: Int = 0) {
            guard let sequence = row[offset] as Int? else { return nil }
            self.sequence = sequence
            (direction, frame, createdAt) = (row[offset + 1], row[offset + 2], row[offset + 3])
            (outbound, pending) = (row[offset + 4], row[offset + 5])
        }

        func message() throws -> StoredMessage {
            try StoredMessage(
                sequence: sequence, direction: direction, storedFrame: frame,
                createdAt: Date(timeIntervalSince1970: createdAt), outbound: outbound, pending: pending)
        }
    }

    /// The messages matching `condition` (over `message` joined with its `conversation`), oldest first.
    private static func messageRows(_ db: Database, _ condition: String, _ arguments: StatementArguments) throws
        -> [MessageRow]
    {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(MessageRow.columns) FROM message
                    JOIN conversation ON conversation.id = message.conversationId
                    WHERE \(condition) ORDER BY message.sequence LIMIT ?
                    """),
            arguments: arguments
        ).compactMap { MessageRow($0) }
    }
}

extension Date {
    /// The date as the database gives it back (seconds since 1970, a `Double`): what the pending-inputs cache keeps,
    /// so that it equals a read.
    fileprivate var stored: Date { Date(timeIntervalSince1970: timeIntervalSince1970) }
}
