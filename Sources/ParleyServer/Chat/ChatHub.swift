import Foundation
import HummingbirdWebSocket
public import Logging
import ServiceLifecycle

/// Routes what users send to their channel's skill, stores both sides, and sends every reply to
/// all of the user's open sockets.
///
/// An input is stored first, as pending (and, with Parley's extension, acknowledged); the skill then answers the
/// conversation's pending inputs one at a time, in the order they were stored, whichever socket they came from.
/// Different conversations run concurrently. Inputs left pending by a stopped server are answered by the next one
/// (``recoverPendingInputs()``).
///
/// The actor holds only the routing state (sockets, drainers, hand-offs). Storing, answering and encoding run in
/// the socket's or the conversation's own task, off the actor, so that one conversation's database work does not
/// queue every other conversation behind it.
public actor ChatHub {
    let store: any ConversationStore
    private let skills: [String: any Skill]
    private let channels: [String: ChannelConfiguration]
    let logger: Logger
    /// The server's clock: the dates of stored messages and of `createdOn`, and each turn's `SkillContext/now`.
    let clock: ServerClock
    /// Counts the errors the hub sends on its own (``ServerMetrics/errors``).
    let metrics: ServerMetrics

    /// An open socket, and whether it speaks Parley's extension (gets `sequence` numbers).
    private struct Socket {
        let outbox: SocketOutbox
        var parley = false
    }

    private var sockets: [ConversationKey: [UUID: Socket]] = [:]
    private var drainRequested: Set<ConversationKey> = []
    private var drainers: [ConversationKey: Task<Void, Never>] = [:]
    /// Conversations handed to live agents (see ChatHub+Agents.swift).
    var handOffs: [ConversationKey: HandOff] = [:]
    /// The agent console's open sockets.
    var agents: [UUID: AgentConnection] = [:]

    /// Creates a hub.
    /// - Parameters:
    ///   - store: Where conversations are kept.
    ///   - skills: The skill of each channel, by channel id.
    ///   - channels: The channels, for their session expiry.
    ///   - logger: Where to log.
    ///   - clock: The server's clock (``ServerConfiguration/clock``).
    ///   - metrics: Where the errors the hub sends are counted.
    public init(
        store: any ConversationStore, skills: [String: any Skill], channels: [ChannelConfiguration], logger: Logger,
        clock: ServerClock = .system, metrics: ServerMetrics = ServerMetrics()
    ) {
        self.metrics = metrics
        self.store = store
        self.skills = skills
        self.channels = Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.logger = logger
        self.clock = clock
    }

    /// Registers an open socket of a conversation.
    func attach(_ socket: UUID, to key: ConversationKey, outbox: SocketOutbox) {
        sockets[key, default: [:]][socket] = Socket(outbox: outbox)
    }

    /// Forgets a closed socket.
    func detach(_ socket: UUID, from key: ConversationKey) {
        sockets[key]?[socket] = nil
        if sockets[key]?.isEmpty == true { sockets[key] = nil }
    }

    /// How many sockets a conversation has open.
    public func openSockets(for key: ConversationKey) -> Int {
        sockets[key]?.count ?? 0
    }

    /// Answers every input a previous run of the server stored but did not answer.
    public func recoverPendingInputs() async {
        do {
            for key in try await store.conversationsWithPendingInputs() { requestDrain(key) }
        } catch {
            logger.error("cannot look for pending inputs: \(error)")
        }
    }

    /// Waits until the inputs being answered are answered (and stored), for a graceful stop: a server that is
    /// restarted gracefully never makes a skill answer an input twice.
    public func finishAnswering() async {
        while let drainer = drainers.values.first {
            await drainer.value
        }
    }

    /// On graceful shutdown, lets the hub finish what it is answering.
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
    /// socket's own reading (the replay may be longer than its outbox holds).
    nonisolated func hello(_ hello: ParleyHello, from socket: UUID, of key: ConversationKey, maxFrameSize: Int) async {
        guard let outbox = await markParley(socket, of: key) else { return }
        do {
            let conversation = try await store.conversation(for: key)
            let welcome = ParleyWelcome(lastSequence: conversation.lastOutbound, maxFrameSize: maxFrameSize)
            outbox.send(welcome.stateFrame.jsonString())
            guard let after = hello.resumeAfter, after < conversation.lastOutbound else { return }
            for message in try await store.messages(for: key, after: .outbound(max(after, 0))) {
                await outbox.sendWhenRoom(message.wireFrame.jsonString())
            }
        } catch {
            logger.error("cannot welcome a socket of \(key): \(error)")
        }
    }

    // MARK: Inputs

    /// Stores a message or profile update from the user as pending and has the skill answer it after the
    /// conversation's earlier inputs. A repeated `clientMessageId` stores nothing and answers nothing.
    nonisolated func receive(_ input: InputFrame, for key: ConversationKey) async throws -> ReceivedInput {
        let received = try await store.receive(input, for: key, at: clock.now())
        if !received.duplicate { await requestDrain(key) }
        return received
    }

    /// Sends a frame to one socket only (a protocol error about what that socket sent).
    nonisolated func send(_ message: SkillMessage, to outbox: SocketOutbox) {
        outbox.send(message.jsonString())
    }

    /// Makes sure the conversation's pending inputs get answered, by one task per conversation.
    private func requestDrain(_ key: ConversationKey) {
        drainRequested.insert(key)
        guard drainers[key] == nil else { return }
        drainers[key] = Task { @concurrent in await self.drain(key) }
    }

    /// Takes the conversation's drain request; when there is none, its drainer is done (in the same step, so that a
    /// request arriving later starts a new one).
    private func takeDrainRequest(_ key: ConversationKey) -> Bool {
        if drainRequested.remove(key) != nil { return true }
        drainers[key] = nil
        return false
    }

    private func isHandedOff(_ key: ConversationKey) -> Bool {
        handOffs[key] != nil
    }

    private nonisolated func drain(_ key: ConversationKey) async {
        while await takeDrainRequest(key) {
            do {
                // The oldest pending input with the conversation as it stands (SQLiteConversationStore answers from
                // memory), until none is left: each answer marks its input answered or throws.
                while let pending = try await store.pending(for: key), let input = pending.inputs.first {
                    try await answer(input, in: pending.conversation)
                }
            } catch {
                logger.error("conversation \(key) failed: \(error)")
                let failure = ParleyError(.internalError, "the server could not answer this message; it is kept")
                metrics.errorSent(failure.code)
                await broadcast(unstored: [SkillMessage(payload: .error(failure), userId: key.userId)], to: key)
            }
        }
    }

    /// Has the skill (or the conversation's agent) answer one input.
    private nonisolated func answer(_ input: StoredMessage, in conversation: StoredConversation) async throws {
        let key = conversation.key
        let date = clock.now()
        guard case .user(let frame) = input.frame else {  // never stored as pending; answered with nothing
            _ = try await store.answer(input.sequence, with: [], state: conversation.state, in: conversation, at: date)
            return
        }
        let skillInput: SkillInput
        let requestId: String?
        switch frame {
        case .message(let message):
            skillInput = .message(message.payload)
            requestId = message.requestId
        case .profile(let update):
            skillInput = .profile(update.profile)
            requestId = nil
        }
        if await isHandedOff(key) {
            if case .message(let payload) = skillInput, payload.type == .closeSession {
                await endHandOff(key, notice: "the user ended the conversation")
            } else {
                // A live agent has the conversation: the input goes to the agent, not the skill.
                await forwardToAgent(frame.jsonValue, of: key)
                _ = try await store.answer(
                    input.sequence, with: [], state: conversation.state, in: conversation, at: date)
                return
            }
        }
        var state = conversation.state
        var notices: [MessagePayload] = []
        if let unreadable = conversation.unreadableState {
            // Never a silent reset: the operator reads why, the user reads that the conversation starts again.
            logger.error("the stored state of \(key) cannot be read; the conversation starts again: \(unreadable)")
            notices.append(
                .error(ParleyError(.skillStateUnreadable, "this conversation could not be resumed; it starts again")))
        } else if let channel = channels[key.channelId], conversation.lastOutbound > 0,
            date.timeIntervalSince(conversation.updatedAt) > Double(channel.sessionExpiryMinutes) * 60
        {
            state = ConversationState()
        }
        let context = SkillContext(
            channelId: key.channelId, userId: key.userId,
            turn: SkillContext.Turn(
                messageId: "\(key.channelId)/\(key.userId)/\(input.sequence)", sequence: input.sequence,
                clientMessageId: input.clientMessageId),
            state: state, now: date)
        let response = await respond(to: skillInput, in: context)
        state = response.state(after: state)
        if case .profile(let profile) = skillInput {
            // The server keeps the profile whatever the skill does with it (a skill that merged it already finds
            // the same profile).
            state.profile = state.profile.map { $0.updated(with: profile) } ?? profile
        }
        let payloads = notices + response.messages
        let replies = payloads.enumerated().map { index, payload in
            SkillMessage(
                payload: payload, source: .bot, userId: key.userId, msgId: UUID().uuidString.lowercased(),
                endOfTurn: index == payloads.count - 1 ? true : nil, requestId: requestId,
                createdOn: .string(date.formatted(.iso8601WithMilliseconds)))
        }
        let stored = try await store.answer(input.sequence, with: replies, state: state, in: conversation, at: date)
        await broadcast(stored, to: key)
        if response.handOff { await queueForAgent(key) }
    }

    /// The skill's response; one error payload, with the state unchanged, when the skill throws.
    private nonisolated func respond(to input: SkillInput, in context: SkillContext) async -> SkillResponse {
        guard let skill = skills[context.channelId] else {
            return SkillResponse(
                messages: [.error(ParleyError(.skillFailed, "channel \"\(context.channelId)\" has no skill"))])
        }
        do {
            return try await skill.respond(to: input, in: context)
        } catch {
            logger.error("skill of channel \(context.channelId) failed: \(error)")
            let failure =
                (error as? ParleyError) ?? ParleyError(.skillFailed, "the skill failed: \(error)", underlying: error)
            return SkillResponse(messages: [.error(failure)])
        }
    }

    /// Queues stored messages for every open socket of the conversation, never waiting for one that reads slowly
    /// (see ``SocketOutbox``); sockets without Parley's extension get them without `sequence`, as the Oracle
    /// protocol has it.
    nonisolated func broadcast(_ messages: [StoredMessage], to key: ConversationKey) async {
        await broadcast(
            withSequence: messages.map { $0.wireFrame.jsonString() },
            plain: messages.map { message in
                guard case .skill(let frame) = message.frame else { return message.wireFrame.jsonString() }
                return frame.jsonString()
            }, to: key)
    }

    /// Queues messages that are not stored (a notice that storing failed) for every open socket of the
    /// conversation.
    nonisolated func broadcast(unstored messages: [SkillMessage], to key: ConversationKey) async {
        let texts = messages.map { $0.jsonString() }
        await broadcast(withSequence: texts, plain: texts, to: key)
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

extension ChatHub {
    /// The open sockets of a conversation, to write to outside the actor.
    private func sockets(of key: ConversationKey) -> [Socket] {
        sockets[key].map { Array($0.values) } ?? []
    }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// `2026-11-21T10:15:30.000Z`.
    static var iso8601WithMilliseconds: Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    }
}
