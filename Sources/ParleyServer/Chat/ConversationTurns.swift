import Foundation
import Logging
import NIOConcurrencyHelpers

/// What a turn hands back to the routing: stored messages and notices for the conversation's sockets, and the
/// conversation's way to and from live agents. ``ChatHub`` is the one conformer; the seam keeps the turn free of
/// sockets.
protocol TurnOutput: Sendable {
    /// Stored messages, for every socket of the conversation (and, in a cluster, every node).
    func broadcast(_ messages: [StoredMessage], to key: ConversationKey) async
    /// Messages that are not stored (a notice that storing failed), for every socket of the conversation here.
    func broadcast(unstored messages: [SkillMessage], to key: ConversationKey) async
    /// The skill handed the conversation over: it waits for an agent.
    func queueForAgent(_ key: ConversationKey) async
    /// The user ended a conversation an agent has.
    func endHandOff(_ key: ConversationKey, notice: String) async
    /// An input for the agent who has the conversation.
    func forwardToAgent(_ frame: JSONValue, sequence: Int, of key: ConversationKey, agent name: String) async
}

/// The server's turns: each stored input of a conversation answered, one at a time, in the order they were stored.
///
/// One turn is: the oldest pending input read with the conversation as it stands → the channel's skill (or the
/// live agent who has the conversation) → the answer stored with the input marked answered, in one transaction →
/// the answer handed to ``TurnOutput`` for every socket. A conversation is answered by one task at a time (its
/// drainer); different conversations run concurrently. Which conversations are being answered is kept under a lock,
/// not on an actor: it changes three times per message, and a lock costs nanoseconds where an actor hop costs a
/// suspension (docs/performance.md). In a cluster, a node answers a conversation only while it holds the
/// conversation's turns (``Cluster/claimTurns(of:)``).
///
/// docs/architecture.md, "One message's path", follows a message through this type.
final class ConversationTurns: Sendable {
    private let store: any ConversationStore
    private let cluster: (any Cluster)?
    private let skills: [String: any Skill]
    private let channels: [String: ChannelConfiguration]
    private let clock: ServerClock
    private let logger: Logger
    private let metrics: ServerMetrics

    /// Which conversations are being answered, and which must be looked at again.
    private struct Drains {
        var requested: Set<ConversationKey> = []
        var running: [ConversationKey: Task<Void, Never>] = [:]
        /// Conversations whose turns another node holds, with how many times this node asked again.
        var busyRetries: [ConversationKey: Int] = [:]
        /// The answers being streamed (``StreamingSkill``), which a new input cancels.
        var streams: [ConversationKey: Task<StreamedAnswer, Never>] = [:]
    }

    private let drains = NIOLockedValueBox(Drains())

    /// How often, and how far apart, a node asks again for a conversation another node answers.
    static let maxBusyRetries = 20
    static let busyRetryDelay = Duration.milliseconds(100)

    init(
        store: any ConversationStore, cluster: (any Cluster)?, skills: [String: any Skill],
        channels: [String: ChannelConfiguration], clock: ServerClock, logger: Logger, metrics: ServerMetrics
    ) {
        self.store = store
        self.cluster = cluster
        self.skills = skills
        self.channels = channels
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }

    /// Whether this node answers the conversations of a channel (nodes of a cluster may serve different channels).
    func serves(_ channelId: String) -> Bool {
        skills[channelId] != nil
    }

    /// Makes sure the conversation's pending inputs get answered, by one task per conversation. In a cluster, when
    /// another node holds the conversation's turns and `retryWhenBusy`, this node asks again a few times: that node
    /// answers what it finds pending before it lets go, but an input stored just as it let go would otherwise wait
    /// for the next sweep.
    ///
    /// A request with `retryWhenBusy` comes with a new input (``ChatHub``'s `receive`): an answer being streamed for
    /// the conversation is cancelled (its request to a model too), keeps what it streamed, and the new input is
    /// answered next.
    func request(_ key: ConversationKey, retryWhenBusy: Bool, output: any TurnOutput) {
        let clustered = cluster != nil
        drains.withLockedValue { drains in
            if retryWhenBusy { drains.streams[key]?.cancel() }
            if retryWhenBusy, clustered { drains.busyRetries[key] = drains.busyRetries[key] ?? 0 }
            drains.requested.insert(key)
            guard drains.running[key] == nil else { return }
            // Detached: a task started from a socket's task would copy its task-local values, which a drain never
            // reads (an allocation per message).
            drains.running[key] = Task.detached { await self.drain(key, output: output) }
        }
    }

    /// Waits until the inputs being answered are answered (and stored), for a graceful stop: a server that is
    /// restarted gracefully never makes a skill answer an input twice.
    func finish() async {
        while let drainer = drains.withLockedValue({ $0.running.values.first }) {
            await drainer.value
        }
    }

    /// Another node holds the conversation's turns: asks again later, up to ``maxBusyRetries`` times.
    private func busy(_ key: ConversationKey, output: any TurnOutput) {
        let retry = drains.withLockedValue { drains -> Bool in
            guard let tries = drains.busyRetries[key], tries < Self.maxBusyRetries else {
                drains.busyRetries[key] = nil
                return false
            }
            drains.busyRetries[key] = tries + 1
            return true
        }
        guard retry else { return }
        Task { @concurrent in
            try? await clock.sleep(for: Self.busyRetryDelay)
            request(key, retryWhenBusy: false, output: output)
        }
    }

    /// Takes the conversation's drain request; when there is none, its drainer is done (in the same step, so that a
    /// request arriving later starts a new one).
    private func takeDrainRequest(_ key: ConversationKey) -> Bool {
        drains.withLockedValue { drains in
            if drains.requested.remove(key) != nil { return true }
            drains.running[key] = nil
            return false
        }
    }

    private func drain(_ key: ConversationKey, output: any TurnOutput) async {
        while takeDrainRequest(key) {
            if let cluster {
                guard await cluster.claimTurns(of: key) else {
                    busy(key, output: output)
                    continue
                }
                _ = drains.withLockedValue { $0.busyRetries.removeValue(forKey: key) }
            }
            do {
                // The oldest pending input with the conversation as it stands (SQLiteConversationStore answers from
                // memory), until none is left: each answer marks its input answered or throws, and says whether
                // another may be pending (an input stored after it requests a drain again).
                while let pending = try await store.pending(for: key), let input = pending.inputs.first {
                    do {
                        guard try await answer(input, in: pending.conversation, output: output) else { break }
                    } catch let error as ParleyError where error.code == .storeInputAnswered {
                        // Another node answered it meanwhile (it held the turns while this node could not reach the
                        // database): its answer stands, this one is dropped.
                        logger.info("input \(input.sequence) of \(key) was answered by another node")
                    }
                }
            } catch {
                logger.error("conversation \(key) failed: \(error)")
                let failure = ParleyError(.internalError, "the server could not answer this message; it is kept")
                metrics.errorSent(failure.code)
                await output.broadcast(unstored: [SkillMessage(payload: .error(failure), userId: key.userId)], to: key)
            }
            await cluster?.releaseTurns(of: key)
        }
    }

    /// One turn: has the skill (or the conversation's agent) answer one input.
    /// - Returns: Whether other inputs of the conversation may be pending.
    private func answer(_ input: StoredMessage, in conversation: StoredConversation, output: any TurnOutput)
        async throws -> Bool
    {
        let key = conversation.key
        let date = clock.now()
        guard case .user(let frame) = input.frame else {  // never stored as pending; answered with nothing
            _ = try await store.answer(input.sequence, with: [], state: conversation.state, in: conversation, at: date)
            return true
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
        if let handOff = conversation.handOff {
            if case .message(let payload) = skillInput, payload.type == .closeSession {
                await output.endHandOff(key, notice: "the user ended the conversation")
            } else {
                // Live agents have the conversation: the input goes to its agent (once joined), not the skill.
                _ = try await store.answer(
                    input.sequence, with: [], state: conversation.state, in: conversation, at: date)
                if let name = handOff.agent?.name {
                    await output.forwardToAgent(frame.jsonValue, sequence: input.sequence, of: key, agent: name)
                }
                return true
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
        let streamed = await answer(skillInput, in: context, requestId: requestId, output: output)
        let response = streamed.response
        state = response.state(after: state)
        if case .profile(let profile) = skillInput {
            // The server keeps the profile whatever the skill does with it (a skill that merged it already finds
            // the same profile).
            state.profile = state.profile.map { $0.updated(with: profile) } ?? profile
        }
        let payloads = notices + streamed.finalMessages
        let replies = payloads.enumerated().map { index, payload in
            SkillMessage(
                payload: payload, source: .bot, userId: key.userId, msgId: UUID.random().uuidString.lowercased(),
                endOfTurn: index == payloads.count - 1 ? true : nil, requestId: requestId,
                createdOn: .string(date.formatted(.iso8601WithMilliseconds)))
        }
        let answered = try await store.answerInput(
            input.sequence, with: replies, state: state, in: conversation, at: date)
        await output.broadcast(answered.stored, to: key)
        if response.handOff { await output.queueForAgent(key) }
        return answered.othersPending
    }

    /// The skill's answer: streamed as `textStream` frames to the conversation's sockets when the skill streams
    /// (``StreamingSkill``), else its response.
    private func answer(
        _ input: SkillInput, in context: SkillContext, requestId: String?, output: any TurnOutput
    ) async -> StreamedAnswer {
        let key = ConversationKey(channelId: context.channelId, userId: context.userId)
        let skill = skills[context.channelId].map { ($0 as? MeasuredSkill)?.base ?? $0 }
        guard let streaming = skill as? any StreamingSkill else {
            return StreamedAnswer(response: await respond(to: input, in: context))
        }
        var context = context
        context.history = StoredHistory(store: store, key: key, before: context.turn.sequence)
        let streamContext = context
        // One stream per answer, the same when the input is answered again after a restart.
        let streamId = context.turn.messageId
        let task = Task { [logger, metrics] in
            let start = ContinuousClock.now
            defer { metrics.skillTurn(channel: key.channelId, took: ContinuousClock.now - start) }
            var answer = StreamedAnswer(response: SkillResponse(messages: []))
            do {
                for try await event in streaming.stream(input, in: streamContext) {
                    switch event {
                    case .text(let piece):
                        let payload = answer.append(piece, streamId: streamId)
                        await output.broadcast(
                            unstored: [
                                SkillMessage(payload: payload, source: .bot, userId: key.userId, requestId: requestId)
                            ],
                            to: key)
                    case .response(let response):
                        answer.response = response
                        return answer
                    }
                }
                // Cancelled (a new input came): what was streamed is the answer.
                answer.response = SkillResponse(messages: answer.text.isEmpty ? [] : [.text(answer.text)])
            } catch  where Task.isCancelled {
                // Cancelled while the skill waited (its request to a model ends with an error): the same, no error.
                answer.response = SkillResponse(messages: answer.text.isEmpty ? [] : [.text(answer.text)])
            } catch {
                logger.error("skill of channel \(key.channelId) failed: \(error)")
                let failure =
                    (error as? ParleyError)
                    ?? ParleyError(.skillFailed, "the skill failed: \(error)", underlying: error)
                answer.response = SkillResponse(
                    messages: (answer.text.isEmpty ? [] : [.text(answer.text)]) + [.error(failure)])
            }
            return answer
        }
        drains.withLockedValue { $0.streams[key] = task }
        let answer = await task.value
        drains.withLockedValue { $0.streams[key] = nil }
        return answer
    }

    /// The skill's response; one error payload, with the state unchanged, when the skill throws.
    private func respond(to input: SkillInput, in context: SkillContext) async -> SkillResponse {
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
}

/// A skill's answer, and the stream it was shown in while it was written.
struct StreamedAnswer: Sendable {
    /// The skill's response.
    var response: SkillResponse
    /// The text streamed so far.
    private(set) var text = ""
    /// The stream's id, once a piece was streamed.
    private(set) var streamId: String?

    init(response: SkillResponse) { self.response = response }

    /// Takes a piece of text: the `textStream` frame that shows it (`start`, then `running`), with the whole text
    /// so far in `aggregateText`.
    mutating func append(_ piece: String, streamId: String) -> MessagePayload {
        text += piece
        let state: StreamState = self.streamId == nil ? .start : .running
        self.streamId = streamId
        return MessagePayload(
            .textStream(
                MessagePayload.TextStream(text: piece, streamState: state, streamId: streamId, aggregateText: text)))
    }

    /// The messages to store and send: when text was streamed, the answer's text message becomes the stream's `end`
    /// frame (the whole text, with the message's actions), so every screen replaces its growing bubble with it and
    /// a screen that connects later reads it whole; an answer without such a message gets an `end` frame of the
    /// streamed text first.
    var finalMessages: [MessagePayload] {
        guard let streamId else { return response.messages }
        var messages = response.messages
        let end = { (text: String) in
            MessagePayload.Content.textStream(
                MessagePayload.TextStream(text: text, streamState: .end, streamId: streamId, aggregateText: text))
        }
        if let first = messages.first, case .text(let whole) = first.content {
            messages[0].content = end(whole.text)
        } else {
            messages.insert(MessagePayload(end(text)), at: 0)
        }
        return messages
    }
}

/// A conversation's earlier messages, read from the store for a skill (``SkillContext/history``).
struct StoredHistory: ConversationHistory {
    let store: any ConversationStore
    let key: ConversationKey
    /// The input being answered: only messages before it.
    let before: Int

    func recentMessages(limit: Int) async throws -> [HistoryMessage] {
        guard limit > 0, before > 1 else { return [] }
        // Sequences count both directions, so the last `limit` messages before `before` start at `before - limit`.
        let stored = try await store.messages(
            for: key, after: .sequence(max(0, before - 1 - limit)), limit: limit)
        return stored.filter { $0.sequence < before }.compactMap { message in
            switch message.frame {
            case .user(.message(let user)):
                return HistoryMessage(author: .user, payload: user.payload, sequence: message.sequence)
            case .user(.profile):
                return nil
            case .skill(let skill):
                return HistoryMessage(
                    author: skill.source == .agent ? .agent : .skill, payload: skill.payload, sequence: message.sequence
                )
            }
        }
    }
}
