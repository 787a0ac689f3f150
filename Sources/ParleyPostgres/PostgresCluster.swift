public import Logging
public import ParleyServer
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The nodes of a `parley serve` cluster on one PostgreSQL database: hints by `LISTEN`/`NOTIFY`, turns by advisory
/// locks (`docs/deploy.md`, "Cluster").
///
/// Each node keeps one connection of its own, beside the store's pool. On it the node listens on the channel
/// ``channel`` and takes session-level advisory locks, one per conversation it is answering
/// (`pg_try_advisory_lock` on a 64-bit hash of the conversation's key), kept for ``idleTurnHold`` after the
/// conversation's last answer so that a conversation that goes on is not claimed again at each input. When the node
/// dies, the database ends its session and its locks go with it: another node can answer the conversation at once,
/// and finds the inputs the dead node left pending (``ChatHub/recoverPendingInputs()``, every
/// ``ServerConfiguration/pendingInputSweepInterval``). Should a node lose its connection mid-turn and another take the
/// turn, the store's fence (``ParleyError/Code/storeInputAnswered``) keeps the first answer only.
///
/// Announcements go through the pool as `pg_notify` after the data they announce is committed; a notification
/// carries ids and numbers only (the rows are the truth). The hint of new messages
/// (``ClusterEvent/messages(_:outbound:)``) is sent by the store's answer itself, with its commit (one round trip less
/// per message): ``announce(_:)`` leaves it out. Claims and releases are prepared statements on the node's
/// connection. When the node's connection drops, it connects again with back-off (100 ms doubling to 5 s) and
/// announces ``ClusterEvent/resynchronize`` to itself, since it may have missed notifications meanwhile.
public actor PostgresCluster: Cluster {
    /// The notification channel every node listens on.
    public static let channel = "parley_events"

    /// What the nodes announce, this node's own announcements included.
    public nonisolated let events: AsyncStream<ClusterEvent>
    private let continuation: AsyncStream<ClusterEvent>.Continuation
    /// The hints dropped because ``events`` was not read fast enough (``droppedHints``).
    private let drops = Atomic<Int>(0)
    private let configuration: PostgresStoreConfiguration
    private let client: PostgresClient
    private let logger: Logger
    private let clock: ServerClock
    /// The store's round trip count and its switch for hints sent with its answers.
    private let shared: StoreShared
    /// The node's own connection, while it is open, and how many times it was opened.
    private var connection: PostgresConnection?
    private var generation = 0
    /// The conversations whose turns the node holds, with the generation of the connection that took the lock.
    private var held: [ConversationKey: Int] = [:]
    /// The turns the node's turns gave back but it still holds, with when they were given back (``idleTurnHold``).
    private var idle: [ConversationKey: Duration] = [:]
    /// Lets go of the idle turns whose hold has passed, while there are any.
    private var idleReleaser: Task<Void, Never>?

    /// A cluster on the database of `store`, which was opened with `configuration`.
    /// - Parameter clock: What the node waits on before it connects again after losing its connection (the server
    ///   passes its own).
    public init(
        store: PostgresConversationStore, configuration: PostgresStoreConfiguration,
        logger: Logger = Logger(label: "parley.cluster"), clock: ServerClock = .system
    ) {
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferedHints))
        self.configuration = configuration
        self.client = store.client
        self.logger = logger
        self.clock = clock
        self.shared = store.shared
        // From now on the store's answers notify with their commit.
        store.shared.sendHintsWithAnswers()
    }

    /// Keeps the node's connection open and listening until the task is cancelled or the service group stops.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.listen()
        }
        continuation.finish()
    }

    private func listen() async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let opened = try await PostgresConnection.connect(
                    configuration: configuration.connectionConfiguration(), id: generation, logger: logger)
                generation += 1
                connection = opened
                try await opened.listen(on: Self.channel) { notifications in
                    delay = .milliseconds(100)
                    // Whatever was announced while the node did not listen is found by catching up.
                    yield(.resynchronize)
                    for try await notification in notifications {
                        guard let json = try? JSONValue(parsing: notification.payload),
                            let event = ClusterEvent(json: json)
                        else { continue }
                        // This node's own answer: its sockets have it (a read of it again would be all it caused).
                        if case .messages = event, json["messages"]?["origin"]?.stringValue == shared.origin {
                            continue
                        }
                        yield(event)
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "the cluster connection to PostgreSQL failed, connecting again in \(delay): \(error)")
                }
            }
            let closing = connection
            connection = nil
            held = [:]
            idle = [:]
            shared.releasedAllTurns()
            try? await closing?.close()
            guard (try? await clock.sleep(for: delay)) != nil else { break }
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// How many hints the node dropped since it started: the oldest of ``bufferedHints`` not yet acted on, when a
    /// newer one came. The node's delivery sweep makes up for them (``ClusterListener``).
    public nonisolated var droppedHints: Int { drops.load(ordering: .relaxed) }

    /// How many hints the node keeps while it acts on earlier ones; past that the oldest is dropped (and counted).
    public static let bufferedHints = 10_000

    private nonisolated func yield(_ event: ClusterEvent) {
        if case .dropped = continuation.yield(event) {
            drops.add(1, ordering: .relaxed)
        }
    }

    /// Tells every node, this one included, by `pg_notify`. An event too long for a notification (a key of
    /// kilobytes) goes as ``ClusterEvent/resynchronize``.
    /// The hint of new messages is not sent here: the store's answer that stored them sent it with its commit.
    public func announce(_ event: ClusterEvent) async {
        switch event {
        case .messages where shared.answersSendHints: return
        case .userMessage(let key, let sequence, let node)
        where shared.userMessageHintWasSent(key, sequence: sequence, node: node):
            return
        default: break
        }
        do {
            for try await _ in try await client.counted(
                NotifyStatement(payload: Self.payload(of: event)), logger: logger, by: shared)
            {}
        } catch {
            logger.warning("cannot announce a change to the cluster: \(String(reflecting: error))")
        }
    }

    /// The text of `event`'s notification: ``ClusterEvent/resynchronize`` for an event too long for one.
    static func payload(of event: ClusterEvent) -> String {
        let payload = event.jsonValue.jsonString()
        return payload.utf8.count > 7_900 ? ClusterEvent.resynchronize.jsonValue.jsonString() : payload
    }

    /// How long the node keeps a conversation's turns after its last answer, for the conversation's next input: a
    /// conversation that goes on claims and releases its lock once per burst of inputs, not at each (two round trips
    /// on the node's one connection per message, docs/performance.md). Another node that stores an input of the
    /// conversation meanwhile gets the turns when the hold ends (it asks again every 100 ms).
    public static let idleTurnHold = Duration.milliseconds(250)

    /// How many idle turns the node keeps at most: each is an entry in PostgreSQL's shared lock table (of
    /// `max_locks_per_transaction` × `max_connections` entries, 6,400 by default, for every session). Past it a turn is
    /// given back at once.
    public static let maxIdleTurns = 1_000

    /// Takes the conversation's advisory lock on the node's connection, without waiting; false while another node
    /// holds it or while the node has no connection. Turns the node still holds after their last answer
    /// (``idleTurnHold``) are taken again without a round trip.
    public func claimTurns(of key: ConversationKey) async -> Bool {
        guard let connection else { return false }
        if idle.removeValue(forKey: key) != nil, held[key] == generation { return true }
        let taken = generation
        do {
            let rows = try await connection.counted(
                ClaimTurnsStatement(lock: Self.lockKey(for: key)), logger: logger, by: shared)
            for try await locked in rows where locked {
                held[key] = taken
                shared.tookTurns(of: key)
                return true
            }
        } catch {
            logger.warning("cannot claim the turns of \(key): \(String(reflecting: error))")
        }
        return false
    }

    /// Gives the conversation's turns back: the node keeps the advisory lock for ``idleTurnHold`` in case the
    /// conversation's next input comes, then lets go of it.
    public func releaseTurns(of key: ConversationKey) async {
        guard let taken = held[key], taken == generation, connection != nil else {
            held[key] = nil
            shared.releasedTurns(of: key)
            return
        }
        guard idle.count < Self.maxIdleTurns else { return await unlock(key) }
        idle[key] = clock.elapsed
        guard idleReleaser == nil else { return }
        idleReleaser = Task { await self.releaseIdleTurns() }
    }

    /// Lets go of the idle turns whose hold has passed, every half hold (so a hold lasts up to one and a half), until
    /// none is left.
    private func releaseIdleTurns() async {
        while !idle.isEmpty {
            guard (try? await clock.sleep(for: Self.idleTurnHold / 2)) != nil else { break }
            await releaseIdleTurns(at: clock.elapsed)
        }
        idleReleaser = nil
    }

    /// Lets go of the turns idle for ``idleTurnHold`` or longer at `now` (a reading of the clock's `elapsed`).
    func releaseIdleTurns(at now: Duration) async {
        for key in idle.keys {
            // Read again at each step: a claim during an unlock's round trip may have taken a turn back into use.
            guard let since = idle[key], now - since >= Self.idleTurnHold else { continue }
            idle[key] = nil
            await unlock(key)
        }
    }

    /// Lets go of the conversation's advisory lock, if the connection that took it is still open.
    private func unlock(_ key: ConversationKey) async {
        shared.releasedTurns(of: key)
        guard let taken = held.removeValue(forKey: key), taken == generation, let connection else { return }
        do {
            for try await _ in try await connection.counted(
                ReleaseTurnsStatement(lock: Self.lockKey(for: key)), logger: logger, by: shared)
            {}
        } catch {
            logger.warning("cannot release the turns of \(key): \(String(reflecting: error))")
        }
    }

    /// The advisory lock of a conversation: FNV-1a over `channelId`, a unit separator and `userId` (stable across
    /// processes and versions, unlike `Hasher`).
    static func lockKey(for key: ConversationKey) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(key.channelId.utf8) + [0x1F] + Array(key.userId.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}
