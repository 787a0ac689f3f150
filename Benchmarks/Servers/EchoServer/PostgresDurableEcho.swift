import Foundation
import Logging
import ParleyPostgres
import ParleyServer
import PostgresNIO
import Synchronization

/// The PostgreSQL floor (issue 37): the least a node must ask PostgreSQL per message to keep Parley's guarantee,
/// written as directly as postgres-nio allows, on Parley's own tables and indexes. Two prepared statements, each a
/// transaction of its own: the input numbered under its conversation's row lock and stored as pending (the repeat
/// check's unique index included), then the echo stored with the input marked answered and the other nodes notified.
/// No turn lock, no read of the pending inputs, no hub, skill or routing: what `cluster.postgres` is compared with
/// (docs/performance.md, "A cluster on PostgreSQL").
public final class PostgresDurableEcho: EchoStorage {
    let client: PostgresClient
    private let task: Task<Void, Never>
    /// The statements sent, for the round trips per message.
    public static let roundTrips = Atomic<Int>(0)

    /// Connects to the database at `url` (a `postgres://` URL), migrated to Parley's schema first, with a pool of the
    /// node's size (``PostgresStoreConfiguration/maximumConnections``).
    public init(url: String) async throws {
        let configuration = try PostgresStoreConfiguration(url: url)
        try await PostgresConversationStore.withStore(configuration) { _ in }
        var pool = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        pool.options.maximumConnections = configuration.maximumConnections
        var logger = Logger(label: "bench.floor")
        logger.logLevel = .warning
        let client = PostgresClient(configuration: pool, backgroundLogger: logger)
        self.client = client
        task = Task { await client.run() }
    }

    deinit { task.cancel() }

    /// Stores `text`, a user's frame, and its echo in the conversation of `key`.
    public func store(frame text: String, for key: ConversationKey) async throws {
        let now = Date().timeIntervalSince1970
        let clientMessageId = UUID().uuidString
        var received: (Int64, Int64)?
        for try await row in try await client.execute(
            Receive(
                channelId: key.channelId, userId: key.userId, frame: text, date: now, clientMessageId: clientMessageId))
        {
            received = row
        }
        guard let (conversation, sequence) = received else { throw Failure("the input of \(key) was not stored") }
        // A hint of the size Parley's carries (the rows are the truth); the echo is the frame itself.
        let notification =
            #"{"messages":{"channelId":"echo","userId":""# + key.userId + #"","outbound":"#
            + String(sequence) + "}}"
        var answered = false
        for try await _ in try await client.execute(
            Answer(conversation: conversation, input: sequence, frame: text, date: now, notification: notification))
        {
            answered = true
        }
        Self.roundTrips.add(2, ordering: .relaxed)
        guard answered else { throw Failure("input \(sequence) of \(key) was not pending") }
    }

    /// The process id of the PostgreSQL server at `url` (its postmaster, the parent of every backend), for the CPU
    /// time the database spends per message; nil when it is not on this machine's /proc.
    public static func serverProcess(url: String) async throws -> Int32? {
        let configuration = try PostgresStoreConfiguration(url: url)
        let logger = Logger(label: "bench.floor")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable),
            id: 0, logger: logger)
        var backend: Int32?
        do {
            for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(
                Int32.self)
            {
                backend = pid
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        guard let backend, let stat = try? String(contentsOfFile: "/proc/\(backend)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: the state, then the parent's process id.
        return stat[stat.index(after: end)...].split(separator: " ").dropFirst().first.flatMap { Int32($0) }
    }

    /// Numbers the input under the conversation's row lock (created when new) and stores it as pending.
    struct Receive: PostgresPreparedStatement {
        static let sql = """
            WITH numbered AS (
                INSERT INTO parley_conversations (channel_id, user_id, state, last_sequence, updated_at)
                VALUES ($1, $2, '{}', 1, $4)
                ON CONFLICT (channel_id, user_id) DO UPDATE SET last_sequence = parley_conversations.last_sequence + 1
                RETURNING id, last_sequence)
            INSERT INTO parley_messages
                (conversation_id, sequence, direction, frame, created_at, client_message_id, pending)
            SELECT id, last_sequence, 'user', $3, $4, $5, true FROM numbered
            ON CONFLICT (conversation_id, client_message_id) WHERE client_message_id IS NOT NULL DO NOTHING
            RETURNING conversation_id, sequence
            """
        typealias Row = (Int64, Int64)
        var channelId: String
        var userId: String
        var frame: String
        var date: Double
        var clientMessageId: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(channelId)
            bindings.append(userId)
            bindings.append(frame)
            bindings.append(date)
            bindings.append(clientMessageId)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Stores the echo with the new state, marks the input answered, and notifies; an input that is not pending
    /// fails the statement (a division by zero), which rolls it back.
    struct Answer: PostgresPreparedStatement {
        static let sql = """
            WITH numbered AS (
                UPDATE parley_conversations SET state = '{}', last_sequence = last_sequence + 1,
                    last_outbound = last_outbound + 1, updated_at = $4
                WHERE id = $1 RETURNING last_sequence, last_outbound),
            answered AS (
                UPDATE parley_messages SET pending = false WHERE conversation_id = $1 AND sequence = $2 AND pending
                RETURNING sequence),
            stored AS (
                INSERT INTO parley_messages (conversation_id, sequence, direction, frame, created_at, outbound)
                SELECT $1, last_sequence, 'skill', $3, $4, last_outbound FROM numbered)
            SELECT pg_notify('parley_events', $5) FROM (SELECT 1 / count(*) FROM answered) AS fence
            """
        typealias Row = Void
        var conversation: Int64
        var input: Int64
        var frame: String
        var date: Double
        var notification: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(conversation)
            bindings.append(input)
            bindings.append(frame)
            bindings.append(date)
            bindings.append(notification)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
