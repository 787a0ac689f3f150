import Foundation
import HummingbirdWebSocket
public import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Routes: stores what users send and has their conversations' turns answered (``ConversationTurns``), and sends
/// every stored message to all of the user's open sockets, and live agents' frames to their consoles.
///
/// An input is stored first, as pending (and, with Parley's extension, acknowledged); the turns then answer the
/// conversation's pending inputs one at a time, in the order they were stored, whichever socket they came from.
/// Inputs left pending by a stopped server are answered by the next one (``recoverPendingInputs()``).
///
/// The actor holds only the routing state (sockets and what they were sent, agent sockets). Storing, answering and
/// encoding run in the socket's or the conversation's own task, off the actor, so that one conversation's database
/// work does not queue every other conversation behind it.
///
/// With a ``Cluster`` (several nodes on one shared store), a node announces every reply it stores, and sends its
/// sockets what other nodes stored, read from the store by outbound number: each socket gets each message once, in
/// order, from whichever node stored it.
public actor ChatHub {
    let store: any ConversationStore
    /// The other nodes, when there are any.
    let cluster: (any Cluster)?
    /// Whether the node is draining (a graceful stop, see ``ParleyApplication``).
    nonisolated let drainSwitch = DrainSwitch()
    /// The turns: each stored input answered by the channel's skill or the conversation's agent.
    nonisolated let turns: ConversationTurns
    let logger: Logger
    /// The server's clock: the dates of stored messages and of `createdOn`, and each turn's `SkillContext/now`.
    let clock: ServerClock
    /// Counts the errors the hub sends on its own (``ServerMetrics/errors``).
    let metrics: ServerMetrics
    /// What the hub's welcome offers (docs/protocol.md §13).
    static let capabilities: [Capability] = [.acknowledgements, .sequence, .resume, .userMessages]
    /// How many stored messages a replay or a catch-up reads at a time
    /// (``ConversationStore/messages(for:after:limit:)``).
    let pageSize: Int

    /// An open socket, and whether it speaks Parley's extension (gets `sequence` numbers).
    struct Socket {
        let outbox: SocketOutbox
        var parley = false
    }

    /// What the open sockets of a conversation have had: the newest outbound number sent to them (nil until known),
    /// and the number a catch-up from the store reads up to.
    private struct Delivery {
        var sent: Int?
        var target = 0
        var catchingUp = false
    }

    private(set) var sockets: [ConversationKey: [UUID: Socket]] = [:]
    private var deliveries: [ConversationKey: Delivery] = [:]
    /// How many sockets each conversation has open here, readable without a hop to the actor: an input is fanned out
    /// to the user's other sockets (``fanOut(_:sequence:of:from:)``) only when there are some.
    private nonisolated let socketCounts = NIOLockedValueBox<[ConversationKey: Int]>([:])
    /// This node's name in the cluster's hints, so that it knows its own.
    nonisolated let node = UUID().uuidString.lowercased()
    /// The agent console's open sockets.
    var agents: [UUID: AgentConnection] = [:]
    /// This node's copy of the live agents' queue, for those sockets (``AgentQueueFeed``).
    var agentFeed = AgentQueueFeed()

    /// Creates a hub.
    /// - Parameters:
    ///   - store: Where conversations are kept.
    ///   - skills: The skill of each channel, by channel id.
    ///   - channels: The channels, for their session expiry.
    ///   - logger: Where to log.
    ///   - clock: The server's clock (``ServerConfiguration/clock``).
    ///   - cluster: The other nodes on the same store; nil for a single server.
    ///   - metrics: Where the errors the hub sends are counted.
    ///   - pageSize: How many stored messages a replay or a catch-up reads at a time: what a resume holds in memory,
    ///     whatever the history's length.
    public init(
        store: any ConversationStore, skills: [String: any Skill], channels: [ChannelConfiguration], logger: Logger,
        clock: ServerClock = .system, cluster: (any Cluster)? = nil, metrics: ServerMetrics = ServerMetrics(),
        pageSize: Int = 256
    ) {
        self.metrics = metrics
        self.pageSize = max(pageSize, 1)
        self.store = store
        self.cluster = cluster
        self.turns = ConversationTurns(
            store: store, cluster: cluster, skills: skills,
            channels: Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }), clock: clock,
            logger: logger, metrics: metrics)
        self.logger = logger
        self.clock = clock
    }

    /// Registers an open socket of a conversation. In a cluster, what the conversation's sockets have had is read
    /// first, so that what other nodes store from then on reaches the socket.
    nonisolated func attach(_ socket: UUID, to key: ConversationKey, outbox: SocketOutbox) async {
        var sent: Int?
        if cluster != nil {
            do {
                sent = try await store.conversation(for: key).lastOutbound
            } catch {
                logger.error("cannot read where \(key) stands: \(error)")
            }
        }
        await register(socket, of: key, outbox: outbox, sent: sent)
    }

    private func register(_ socket: UUID, of key: ConversationKey, outbox: SocketOutbox, sent: Int?) {
        // Upgraded just as the node started draining: sent elsewhere at once.
        if drainSwitch.isDraining { return outbox.close(DrainSwitch.error) }
        sockets[key, default: [:]][socket] = Socket(outbox: outbox)
        if deliveries[key] == nil { deliveries[key] = Delivery(sent: sent) }
        let count = sockets[key]?.count ?? 0
        socketCounts.withLockedValue { $0[key] = count }
    }

    /// Forgets a closed socket.
    func detach(_ socket: UUID, from key: ConversationKey) {
        sockets[key]?[socket] = nil
        if sockets[key]?.isEmpty == true {
            sockets[key] = nil
            deliveries[key] = nil
        }
        let count = sockets[key]?.count
        socketCounts.withLockedValue { $0[key] = count }
    }

    /// How many sockets a conversation has open.
    public func openSockets(for key: ConversationKey) -> Int {
        sockets[key]?.count ?? 0
    }

    /// Answers every input a previous run of the server (or, in a cluster, a node that died) stored but did not
    /// answer. In a cluster, conversations another node is answering are left to it.
    public func recoverPendingInputs() async {
        do {
            // Only channels this node serves: nodes of a cluster may be configured with different channels.
            for key in try await store.conversationsWithPendingInputs() where turns.serves(key.channelId) {
                turns.request(key, retryWhenBusy: false, output: self)
            }
        } catch {
            logger.error("cannot look for pending inputs: \(error)")
        }
    }

    /// Waits until the inputs being answered are answered (and stored), for a graceful stop: a server that is
    /// restarted gracefully never makes a skill answer an input twice.
    public func finishAnswering() async {
        await turns.finish()
    }

    /// On graceful shutdown, lets the hub finish what it is answering (after the drain closed the sockets, see
    /// ``ParleyApplication``).
    struct Finisher: Service {
        let hub: ChatHub

        func run() async throws {
            try? await gracefulShutdown()
            await hub.finishAnswering()
        }
    }

    // MARK: Parley's extension

    /// Marks a socket as speaking Parley's extension; its outbox, or nil when it is gone.
    private func markParley(_ socket: UUID, of key: ConversationKey) -> SocketOutbox? {
        sockets[key]?[socket]?.parley = true
        return sockets[key]?[socket]?.outbox
    }

    /// A socket asked for Parley's extension: the welcome, then what it missed after `resumeAfter`, paced by the
    /// socket's own reading (the replay may be longer than its outbox holds), read from the store a page
    /// (``pageSize``) at a time: a replay of any length holds one page in memory.
    nonisolated func hello(_ hello: ParleyHello, from socket: UUID, of key: ConversationKey, maxFrameSize: Int) async {
        guard let outbox = await markParley(socket, of: key) else { return }
        do {
            let conversation = try await store.conversation(for: key)
            let welcome = ParleyWelcome(
                capabilities: Self.capabilities, lastSequence: conversation.lastOutbound, maxFrameSize: maxFrameSize)
            outbox.send(welcome.stateFrame.jsonString())
            guard var after = hello.resumeAfter, after < conversation.lastOutbound else { return }
            after = max(after, 0)
            // Up to what the welcome announced; what is stored later comes live, or by the next resume.
            while after < conversation.lastOutbound {
                let page = try await store.messages(for: key, after: .outbound(after), limit: pageSize)
                guard let last = page.last?.outbound else { return }
                for message in page {
                    guard await outbox.sendWhenRoom(message.wireTexts.withSequence) else { return }  // closed
                }
                after = last
            }
        } catch {
            logger.error("cannot welcome a socket of \(key): \(error)")
        }
    }

    // MARK: Inputs

    /// Stores a message or profile update from the user as pending and has the skill answer it after the
    /// conversation's earlier inputs. A repeated `clientMessageId` stores nothing and answers nothing. A new message
    /// goes to the user's other sockets (``fanOut(_:sequence:of:from:)``) before the skill answers it.
    /// - Parameter socket: The socket it came from, which does not get it back.
    nonisolated func receive(_ input: InputFrame, for key: ConversationKey, from socket: UUID? = nil) async throws
        -> ReceivedInput
    {
        let received = try await store.receive(input, for: key, at: clock.now())
        guard !received.duplicate else { return received }
        if case .message(let message) = input {
            await fanOut(message, sequence: received.sequence, of: key, from: socket)
        }
        turns.request(key, retryWhenBusy: true, output: self)
        return received
    }

    // MARK: The user's own messages on the user's other sockets

    /// Sends a message the user stored as input `sequence` to the user's other sockets with Parley's extension, as a
    /// `userMessage` state frame (docs/protocol.md §13.6), here and, in a cluster, on every node: a second tab or
    /// device shows what the user wrote. Not to `socket`, the one it came from; not to sockets without the
    /// extension (Oracle's clients, whose server never sends a user's messages back).
    private nonisolated func fanOut(_ message: UserMessage, sequence: Int, of key: ConversationKey, from socket: UUID?)
        async
    {
        if socketCounts.withLockedValue({ ($0[key] ?? 0) > 1 }) {
            await sendUserMessage(Self.userMessageFrame(message, sequence: sequence, of: key), to: key, except: socket)
        }
        await cluster?.announce(.userMessage(key, sequence: sequence, node: node))
    }

    /// The `userMessage` frame of a stored message of the user.
    private nonisolated static func userMessageFrame(_ message: UserMessage, sequence: Int, of key: ConversationKey)
        -> String
    {
        var message = message
        message.userId = key.userId  // the socket's user always applies (§4.1)
        return EchoedUserMessage(sequence: sequence, message: message).stateFrame.jsonString()
    }

    private func sendUserMessage(_ text: String, to key: ConversationKey, except socket: UUID?) {
        for (id, target) in sockets[key] ?? [:] where id != socket && target.parley {
            target.outbox.send(text)
        }
    }

    /// Another node stored the user's message `sequence`: this node's sockets of the conversation with Parley's
    /// extension get it, read from the store (a hint carries numbers only).
    func heardUserMessage(_ sequence: Int, of key: ConversationKey, node origin: String) async {
        guard origin != node, sockets[key]?.values.contains(where: \.parley) == true else { return }
        do {
            guard
                let input = try await store.messages(for: key, after: .sequence(sequence - 1), limit: 1).first,
                input.sequence == sequence, case .user(.message(let message)) = input.frame
            else { return }
            sendUserMessage(Self.userMessageFrame(message, sequence: sequence, of: key), to: key, except: nil)
        } catch {
            logger.error("cannot read message \(sequence) of \(key) for the user's other sockets: \(error)")
        }
    }

    /// Sends a frame to one socket only (a protocol error about what that socket sent).
    nonisolated func send(_ message: SkillMessage, to outbox: SocketOutbox) {
        outbox.send(message.jsonString())
    }

    /// Queues stored messages for every open socket of the conversation, never waiting for one that reads slowly
    /// (see ``SocketOutbox``); sockets without Parley's extension get them without `sequence`, as the Oracle
    /// protocol has it. In a cluster, the other nodes are told.
    nonisolated func broadcast(_ messages: [StoredMessage], to key: ConversationKey) async {
        guard let last = messages.last?.outbound else { return }
        await deliver(OutboundBatch(messages), to: key)
        await cluster?.announce(.messages(key, outbound: last))
    }

    /// Queues messages that are not stored (a notice that storing failed) for every open socket of the
    /// conversation.
    nonisolated func broadcast(unstored messages: [SkillMessage], to key: ConversationKey) async {
        let texts = messages.map { $0.jsonString() }
        await broadcast(withSequence: texts, plain: texts, to: key)
    }

    /// Queues a frame that is not stored (an agent's typing, from any node) for every open socket of the conversation.
    nonisolated func broadcast(unstoredText text: String, to key: ConversationKey) async {
        await broadcast(withSequence: [text], plain: [text], to: key)
    }

    private nonisolated func broadcast(withSequence: [String], plain: [String], to key: ConversationKey) async {
        guard !withSequence.isEmpty else { return }
        let targets = await sockets(of: key)
        for socket in targets {
            for text in socket.parley ? withSequence : plain {
                guard socket.outbox.send(text) else { break }  // closed, or closing as too slow
            }
        }
    }
}

extension ChatHub: TurnOutput {
    /// The open sockets of a conversation, to write to outside the actor.
    private func sockets(of key: ConversationKey) -> [Socket] {
        sockets[key].map { Array($0.values) } ?? []
    }

    /// Stored messages from the server, encoded for both kinds of socket (off the actor), with their outbound
    /// numbers.
    struct OutboundBatch: Sendable {
        var outbounds: [Int]
        var withSequence: [String]
        var plain: [String]

        init(_ messages: [StoredMessage]) {
            let numbered = messages.filter { $0.outbound != nil }
            outbounds = numbered.map { $0.outbound ?? 0 }
            let texts = numbered.map(\.wireTexts)
            withSequence = texts.map(\.withSequence)
            plain = texts.map(\.plain)
        }
    }

    /// Sends the conversation's sockets the messages of `batch` they have not had, in outbound order. When the
    /// batch starts after a gap (messages another node stored that this one has not read yet), the store fills it.
    private func deliver(_ batch: OutboundBatch, to key: ConversationKey) {
        guard var delivery = deliveries[key], let first = batch.outbounds.first, let last = batch.outbounds.last
        else { return }
        if delivery.catchingUp || (delivery.sent.map { first > $0 + 1 } ?? false) {
            delivery.target = max(delivery.target, last)
            deliveries[key] = delivery
            startCatchUp(key)
            return
        }
        send(batch, after: delivery.sent ?? 0, to: key)
        delivery.sent = max(delivery.sent ?? 0, last)
        deliveries[key] = delivery
    }

    /// Queues the messages of `batch` numbered after `sent` for every socket of the conversation.
    private func send(_ batch: OutboundBatch, after sent: Int, to key: ConversationKey) {
        guard let start = batch.outbounds.firstIndex(where: { $0 > sent }) else { return }
        for socket in sockets(of: key) {
            for index in start..<batch.outbounds.count {
                // Closed, or closing as too slow: the rest is not for it either.
                guard socket.outbox.send(socket.parley ? batch.withSequence[index] : batch.plain[index]) else { break }
            }
        }
    }

    /// Another node stored messages of a conversation up to `outbound`: its sockets here get what they lack.
    func heard(_ key: ConversationKey, upTo outbound: Int) {
        guard var delivery = deliveries[key], outbound > delivery.sent ?? 0 else { return }
        delivery.target = max(delivery.target, outbound)
        deliveries[key] = delivery
        startCatchUp(key)
    }

    /// After a gap in what the node heard: every conversation with sockets here reads what they lack.
    func catchUpEverySocket() {
        for key in deliveries.keys { heard(key, upTo: .max) }
    }

    /// Reads, a few hundred conversations a query, where every conversation with sockets here stands, and catches up
    /// those whose sockets lack messages: what a lost or dropped hint did not bring arrives within one sweep instead
    /// of with the conversation's next message. In a cluster the node does this periodically (``ClusterListener``).
    nonisolated func sweepDeliveries() async {
        let keys = await deliveryKeys()
        for start in stride(from: 0, to: keys.count, by: Self.sweepBatch) {
            let batch = Array(keys[start..<min(start + Self.sweepBatch, keys.count)])
            do {
                for (key, outbound) in try await store.lastOutbounds(of: batch) {
                    await catchUp(key, ifLackingUpTo: outbound)
                }
            } catch {
                logger.error("the delivery sweep cannot read where \(batch.count) conversations stand: \(error)")
            }
        }
    }

    /// How many conversations one read of a delivery sweep asks about.
    static let sweepBatch = 500

    private func deliveryKeys() -> [ConversationKey] {
        Array(deliveries.keys)
    }

    /// Starts a catch-up when the sockets of `key` lack messages up to `outbound`, and counts it unless a hint
    /// started one already.
    private func catchUp(_ key: ConversationKey, ifLackingUpTo outbound: Int) {
        guard let delivery = deliveries[key], outbound > delivery.sent ?? 0 else { return }
        if !delivery.catchingUp { metrics.clusterSweepCaughtUp(1) }
        heard(key, upTo: outbound)
    }

    private func startCatchUp(_ key: ConversationKey) {
        guard var delivery = deliveries[key], !delivery.catchingUp else { return }
        delivery.catchingUp = true
        deliveries[key] = delivery
        Task { @concurrent in await self.catchUp(key) }
    }

    /// Reads from the store what the conversation's sockets lack, a page (``pageSize``) at a time, until they have
    /// everything up to the target.
    private nonisolated func catchUp(_ key: ConversationKey) async {
        while let after = await catchUpCursor(key) {
            do {
                let messages = try await store.messages(for: key, after: .outbound(after), limit: pageSize)
                await caughtUp(OutboundBatch(messages), to: key, storeHasMore: messages.count >= pageSize)
            } catch {
                logger.error("cannot read what the sockets of \(key) lack: \(error)")
                await caughtUp(nil, to: key, storeHasMore: false)
            }
        }
    }

    /// Where the next read of a catch-up starts; nil (and the catch-up over) when the sockets have the target.
    private func catchUpCursor(_ key: ConversationKey) -> Int? {
        guard var delivery = deliveries[key] else { return nil }
        let sent = delivery.sent ?? 0
        guard delivery.target > sent else {
            delivery.catchingUp = false
            deliveries[key] = delivery
            return nil
        }
        return sent
    }

    /// Sends what a catch-up read; what the store did not have (or a failed read) ends the catch-up at what was sent:
    /// the next announcement of the conversation (or the next sweep, ``sweepDeliveries()``) starts another. A full
    /// page (`storeHasMore`) is followed by the next.
    private func caughtUp(_ batch: OutboundBatch?, to key: ConversationKey, storeHasMore: Bool) {
        guard var delivery = deliveries[key] else { return }
        if let batch, let last = batch.outbounds.last {
            send(batch, after: delivery.sent ?? 0, to: key)
            delivery.sent = max(delivery.sent ?? 0, last)
        }
        if !storeHasMore { delivery.target = min(delivery.target, delivery.sent ?? 0) }
        deliveries[key] = delivery
    }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// `2026-11-21T10:15:30.000Z`.
    static var iso8601WithMilliseconds: Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    }
}
