public import Foundation
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
    let now: @Sendable () -> Date

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
    ///   - now: The clock (injected for tests).
    public init(
        store: any ConversationStore, skills: [String: any Skill], channels: [ChannelConfiguration], logger: Logger,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.skills = skills
        self.channels = Dictionary(channels.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.logger = logger
        self.now = now
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
            for message in try await store.sent(for: key, after: max(after, 0)) {
                await outbox.sendWhenRoom(message.frame.jsonString())
            }
        } catch {
            logger.error("cannot welcome a socket of \(key): \(error)")
        }
    }

    // MARK: Inputs

    /// Stores a message or profile update from the user as pending and has the skill answer it after the
    /// conversation's earlier inputs. A repeated `clientMessageId` stores nothing and answers nothing.
    nonisolated func receive(_ frame: JSONValue, clientMessageId: String?, for key: ConversationKey) async throws
        -> ReceivedInput
    {
        let received = try await store.receive(frame, clientMessageId: clientMessageId, for: key, at: now())
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
                await broadcast([SkillMessage(payload: .error(failure), userId: key.userId).jsonValue], to: key)
            }
        }
    }

    /// Has the skill (or the conversation's agent) answer one input.
    private nonisolated func answer(_ input: StoredMessage, in conversation: StoredConversation) async throws {
        let key = conversation.key
        let date = now()
        let skillInput: SkillInput
        let requestId: String?
        switch try ClientFrame(json: input.frame) {
        case .message(let message):
            skillInput = .message(message.payload)
            requestId = message.requestId
        case .profile(let update):
            skillInput = .profile(update.profile)
            requestId = nil
        case .state, .unknown:  // never stored as inputs; answered with nothing
            _ = try await store.answer(input.sequence, with: [], state: conversation.state, in: conversation, at: date)
            return
        }
        if await isHandedOff(key) {
            if case .message(let payload) = skillInput, payload.type == .closeSession {
                await endHandOff(key, notice: "the user ended the conversation")
            } else {
                // A live agent has the conversation: the input goes to the agent, not the skill.
                await forwardToAgent(input.frame, of: key)
                _ = try await store.answer(
                    input.sequence, with: [], state: conversation.state, in: conversation, at: date)
                return
            }
        }
        var state = (try? ConversationState(json: conversation.state)) ?? ConversationState()
        if let channel = channels[key.channelId], conversation.lastOutbound > 0,
            date.timeIntervalSince(conversation.updatedAt) > Double(channel.sessionExpiryMinutes) * 60
        {
            state = ConversationState()
        }
        var about: JSONObject = [
            "channelId": .string(key.channelId), "userId": .string(key.userId),
            "messageId": .string("\(key.channelId)/\(key.userId)/\(input.sequence)"),
        ]
        if let clientMessageId = input.clientMessageId { about["clientMessageId"] = .string(clientMessageId) }
        state.extra[WebhookSkill.conversationKey] = .object(about)
        let payloads = await respond(to: skillInput, state: &state, channelId: key.channelId)
        let handOff = state.handOff
        state.handOff = false
        let replies = payloads.enumerated().map { index, payload in
            SkillMessage(
                payload: payload, source: .bot, userId: key.userId, msgId: UUID().uuidString.lowercased(),
                endOfTurn: index == payloads.count - 1 ? true : nil, requestId: requestId,
                createdOn: .string(date.formatted(.iso8601WithMilliseconds))
            ).jsonValue
        }
        let stored = try await store.answer(
            input.sequence, with: replies, state: state.jsonValue, in: conversation, at: date)
        await broadcast(stored.map(\.frame), to: key)
        if handOff { await queueForAgent(key) }
    }

    private nonisolated func respond(to input: SkillInput, state: inout ConversationState, channelId: String) async
        -> [MessagePayload]
    {
        guard let skill = skills[channelId] else {
            return [.error(ParleyError(.skillFailed, "channel \"\(channelId)\" has no skill"))]
        }
        do {
            return try await skill.respond(to: input, state: &state)
        } catch {
            logger.error("skill of channel \(channelId) failed: \(error)")
            let failure =
                (error as? ParleyError) ?? ParleyError(.skillFailed, "the skill failed: \(error)", underlying: error)
            return [.error(failure)]
        }
    }

    /// Queues frames for every open socket of the conversation, never waiting for one that reads slowly (see
    /// ``SocketOutbox``); sockets without Parley's extension get them without `sequence`, as the Oracle protocol
    /// has it.
    nonisolated func broadcast(_ frames: [JSONValue], to key: ConversationKey) async {
        guard !frames.isEmpty else { return }
        let targets = await sockets(of: key)
        guard !targets.isEmpty else { return }
        let withSequence = frames.map { $0.jsonString() }
        let plain = frames.map { frame in
            guard case .object(let object) = frame else { return frame.jsonString() }
            return JSONValue.object(object.removing("sequence")).jsonString()
        }
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
