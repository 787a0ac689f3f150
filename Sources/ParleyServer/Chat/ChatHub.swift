public import Foundation
import HummingbirdWebSocket
public import Logging

/// Routes what users send to their channel's skill, stores both sides, and sends every reply to
/// all of the user's open sockets.
///
/// Inputs of one conversation are handled one at a time, in arrival order, whichever socket they
/// came from; different conversations run concurrently.
public actor ChatHub {
    private let store: any ConversationStore
    private let skills: [String: any Skill]
    private let channels: [String: ChannelConfiguration]
    private let logger: Logger
    private let now: @Sendable () -> Date
    private var sockets: [ConversationKey: [UUID: WebSocketOutboundWriter]] = [:]
    private var queues: [ConversationKey: Task<Void, Never>] = [:]

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
    func attach(_ socket: UUID, to key: ConversationKey, writer: WebSocketOutboundWriter) {
        sockets[key, default: [:]][socket] = writer
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

    /// Handles one input after the conversation's earlier inputs, and returns when it is done.
    func submit(_ input: SkillInput, frame: JSONValue, requestId: String?, for key: ConversationKey) async {
        let previous = queues[key]
        let task = Task {
            await previous?.value
            await self.process(input, frame: frame, requestId: requestId, for: key)
        }
        queues[key] = task
        await task.value
        if queues[key] == task { queues[key] = nil }
    }

    /// Sends a frame to one socket only (a protocol error about what that socket sent).
    func send(_ message: SkillMessage, to writer: WebSocketOutboundWriter) async {
        try? await writer.write(.text(message.jsonString()))
    }

    private func process(_ input: SkillInput, frame: JSONValue, requestId: String?, for key: ConversationKey) async {
        let date = now()
        do {
            let conversation = try await store.conversation(for: key)
            var state = (try? ConversationState(json: conversation.state)) ?? ConversationState()
            if let channel = channels[key.channelId], conversation.lastSequence > 0,
                date.timeIntervalSince(conversation.updatedAt) > Double(channel.sessionExpiryMinutes) * 60
            {
                state = ConversationState()
            }
            state.extra[WebhookSkill.conversationKey] = [
                "channelId": .string(key.channelId), "userId": .string(key.userId),
            ]
            let payloads = await respond(to: input, state: &state, channelId: key.channelId)
            let replies = payloads.enumerated().map { index, payload in
                SkillMessage(
                    payload: payload, source: .bot, userId: key.userId, msgId: UUID().uuidString.lowercased(),
                    endOfTurn: index == payloads.count - 1 ? true : nil, requestId: requestId,
                    createdOn: .string(date.formatted(.iso8601WithMilliseconds)))
            }
            _ = try await store.append(
                [(.user, frame)] + replies.map { (.skill, $0.jsonValue) }, to: conversation, state: state.jsonValue,
                at: date)
            await broadcast(replies, to: key)
        } catch {
            logger.error("conversation \(key) failed: \(error)")
            let failure = ParleyError(.internalError, "the server could not handle this message; it was not stored")
            await broadcast([SkillMessage(payload: .error(failure), userId: key.userId, requestId: requestId)], to: key)
        }
    }

    private func respond(to input: SkillInput, state: inout ConversationState, channelId: String) async
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

    private func broadcast(_ messages: [SkillMessage], to key: ConversationKey) async {
        guard let writers = sockets[key]?.values, !messages.isEmpty else { return }
        for writer in writers {
            for message in messages {
                do {
                    try await writer.write(.text(message.jsonString()))
                } catch {
                    break
                }
            }
        }
    }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
    /// `2026-11-21T10:15:30.000Z`.
    static var iso8601WithMilliseconds: Date.ISO8601FormatStyle {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    }
}
