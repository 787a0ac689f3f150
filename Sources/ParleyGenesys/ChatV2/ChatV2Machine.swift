import Foundation

/// A Chat API version 2 chat as a value: ``handle(_:)`` takes what happened (the app's wish, an answer on the
/// chat's channel, a renewed Comet session) and returns what to do (publish a request, report an event). No
/// sockets, no clocks: ``ChatV2Session`` performs the actions; tests drive the machine directly.
///
/// Transcript positions: every event has an `index`. Events at or below the highest index shown are repeats and
/// dropped; an event beyond the next index waits for the gap to fill, and the machine asks for the transcript
/// from the first missing index (`requestNotifications`). The answer to that request (an answer whose events
/// start at or before the asked index, or that has none and a `nextPosition` not beyond it), or
/// ``Event/refreshTimedOut`` when no such answer comes, releases whatever still waits, in order. After a new
/// Comet session (the old one was lost, or the app came back from the background) the machine asks from the
/// first index not shown, so nothing published meanwhile is lost and nothing is shown twice.
public struct ChatV2Machine: Sendable {
    /// Where the chat is.
    public enum Phase: Sendable, Hashable {
        /// No chat yet (or the request was refused).
        case idle
        /// `requestChat` was published; no answer yet.
        case requesting
        /// The chat runs: GMS gave its `secureKey`.
        case active
        /// The chat is over.
        case ended
    }

    /// What happened.
    public enum Event: Sendable {
        /// The app starts a chat with this `requestChat`.
        case requestChat(ChatV2Request)
        /// The app sends `message` (its text payload is the `message`), with an optional `messageType`.
        case send(ChatMessage, messageType: String?)
        /// The app performs another operation (typing, `pushUrl`, `updateNickname`, `updateData`,
        /// `customNotice`); the machine adds the `secureKey`.
        case perform(ChatV2Request)
        /// The app asks for the transcript from the first index not shown.
        case refresh
        /// The app asks for the transcript from `position` on (inclusive; 1 or less: all of it), as GMS's
        /// `requestNotifications` does. Events already shown stay dropped as repeats; a position beyond the first
        /// index not shown gives up the events before it.
        case refreshFrom(position: Int)
        /// The app leaves the chat.
        case disconnect
        /// Data arrived on the chat's channel.
        case received(JSONValue)
        /// A new Comet session holds the channel (after a lost session, or back from the background).
        case sessionRenewed
        /// `requestChat` got no answer in time.
        case startTimedOut
        /// The chat is over without GMS saying so (a `disconnect` got no answer).
        case endLocally
        /// A `requestNotifications` got no recognisable answer in time: what waits is shown, gaps skipped.
        case refreshTimedOut
        /// The server did not take the `sendMessage` of this message.
        case sendFailed(ChatMessage)
    }

    /// What the caller must do, in order.
    public enum Action: Sendable {
        /// Publish this request on the chat's channel.
        case publish(ChatV2Request)
        /// Report this event to the app.
        case emit(ChatEvent)
        /// `requestChat` succeeded.
        case started
        /// `requestChat` failed.
        case startFailed(ParleyError)
        /// The chat is over: close the Comet session.
        case ended
    }

    /// Where the chat is.
    public private(set) var phase: Phase = .idle
    /// `secureKey`, once GMS gave it.
    public private(set) var secureKey: String?
    /// `userId`.
    public private(set) var userID: String?
    /// `chatId`.
    public private(set) var chatID: String?
    /// The latest `alias`.
    public private(set) var alias: String?
    /// The highest index shown.
    public private(set) var highWater = 0
    /// Events waiting for a gap before them to fill, by index.
    public private(set) var waiting: [Int: ChatV2Event] = [:]
    /// Every event shown, in order, without repeats.
    public private(set) var transcript: [ChatV2Event] = []
    /// The index a `requestNotifications` asked from, while its answer is awaited.
    public private(set) var refreshingFrom: Int?
    /// The events of the latest answer to `requestNotifications`, repeats included, in index order: the transcript
    /// from the position asked, as GMS has it. `nil` while the answer is awaited, and when none came in time.
    public private(set) var lastRefreshAnswer: [ChatV2Event]?
    /// Messages sent and not yet seen in the transcript.
    public private(set) var pendingSends: [ChatMessage] = []

    /// A machine with no chat.
    public init() {}

    /// The position for the next `requestNotifications`: the first index not shown.
    public var nextPosition: Int { highWater + 1 }

    /// Takes an event, returns the actions.
    /// - Throws: ``ParleyError/Code/gmsChatNotActive`` for an operation before the chat started or after it ended.
    public mutating func handle(_ event: Event) throws(ParleyError) -> [Action] {
        switch event {
        case .requestChat(let request):
            guard phase == .idle || phase == .ended else { return [] }
            reset()
            phase = .requesting
            return [.publish(ChatV2Request(.requestChat, request.members))]
        case .send(var message, let messageType):
            let key = try activeKey()
            var members: JSONObject = ["message": .string(message.payload.text ?? "")]
            if let messageType { members.append("messageType", .string(messageType)) }
            message.delivery = .pending
            pendingSends.append(message)
            return [
                .emit(.messageSent(message)), .publish(ChatV2Request(.sendMessage, members).stamped(secureKey: key)),
            ]
        case .perform(let request):
            return [.publish(request.stamped(secureKey: try activeKey()))]
        case .refresh:
            _ = try activeKey()
            return requestNotifications()
        case .refreshFrom(let position):
            _ = try activeKey()
            return requestNotifications(from: min(max(position, 1), ChatV2Event.maximumIndex))
        case .disconnect:
            return [.publish(ChatV2Request(.disconnect).stamped(secureKey: try activeKey()))]
        case .received(let data):
            return received(data)
        case .sessionRenewed:
            guard phase == .active else { return [] }
            return requestNotifications()
        case .startTimedOut:
            guard phase == .requesting else { return [] }
            phase = .idle
            return [.startFailed(ParleyError(.gmsNoAnswer, "GMS did not answer requestChat"))]
        case .endLocally:
            return end()
        case .refreshTimedOut:
            guard refreshingFrom != nil, phase == .active else { return [] }
            return accept([], answering: true)
        case .sendFailed(let message):
            guard let index = pendingSends.firstIndex(where: { $0.id == message.id }) else { return [] }
            var failed = pendingSends.remove(at: index)
            failed.delivery = .failed
            return [.emit(.deliveryChanged(failed))]
        }
    }

    // MARK: Answers

    private mutating func received(_ data: JSONValue) -> [Action] {
        let response: ChatV2Response
        do {
            response = try ChatV2Response(json: data)
        } catch {
            return [
                .emit(.error(ParleyError(.gmsBadResponse, "a chat answer is malformed: \(error)", underlying: error)))
            ]
        }
        // Another chat's answer on the same channel (an older chat of this Comet session): not ours.
        if let key = response.secureKey, let secureKey, key != secureKey { return [] }
        var actions: [Action] = []
        switch phase {
        case .idle, .ended:
            return []
        case .requesting:
            if let error = response.failure(.gmsChatRefused, "GMS refused the chat") {
                phase = response.chatEnded ? .ended : .idle
                return [.startFailed(error)]
            }
            guard let key = response.secureKey else { return [] }  // not the answer to requestChat
            secureKey = key
            phase = .active
            actions.append(.started)
        case .active:
            if let error = response.failure(.gmsChatFailed, "a chat operation failed") {
                actions.append(.emit(.error(error)))
            }
        }
        if let user = response.userID { userID = user }
        if let chat = response.chatID { chatID = chat }
        if let alias = response.alias { self.alias = alias }
        let answering = isRefreshAnswer(response)
        if answering { lastRefreshAnswer = response.messages.sorted { $0.index < $1.index } }
        actions += accept(response.messages, answering: answering)
        if response.chatEnded { actions += end() }
        return actions
    }

    private func isRefreshAnswer(_ response: ChatV2Response) -> Bool {
        guard let from = refreshingFrom else { return false }
        guard let first = response.messages.map(\.index).min() else {
            // An operation's plain answer has no events either, but its nextPosition is beyond the asked index.
            return (response.nextPosition ?? Int.max) <= from
        }
        return first <= from
    }

    private mutating func accept(_ events: [ChatV2Event], answering refresh: Bool) -> [Action] {
        for event in events where event.index > highWater {
            waiting[event.index] = waiting[event.index] ?? event
        }
        var released: [ChatV2Event] = []
        while let next = waiting.removeValue(forKey: highWater + 1) {
            highWater += 1
            released.append(next)
        }
        if refresh {
            refreshingFrom = nil
            let rest = waiting.sorted { $0.key < $1.key }.map(\.value)
            waiting.removeAll()
            if let last = rest.last { highWater = max(highWater, last.index) }
            released += rest
        }
        var actions: [Action] = []
        for event in released { actions += show(event) }
        if !waiting.isEmpty, refreshingFrom == nil, phase == .active {
            actions += requestNotifications()
        }
        return actions
    }

    private mutating func requestNotifications(from position: Int? = nil) -> [Action] {
        guard let secureKey else { return [] }
        let position = position ?? nextPosition
        refreshingFrom = position
        lastRefreshAnswer = nil
        let request = ChatV2Request(.requestNotifications, ["transcriptPosition": .number(Double(position))])
        return [.publish(request.stamped(secureKey: secureKey))]
    }

    private mutating func end() -> [Action] {
        guard phase != .ended else { return [] }
        phase = .ended
        var actions: [Action] = pendingSends.map { message in
            var failed = message
            failed.delivery = .failed
            return .emit(.deliveryChanged(failed))
        }
        pendingSends.removeAll()
        actions += [.emit(.chatEnded), .ended]
        return actions
    }

    private mutating func reset() {
        secureKey = nil
        userID = nil
        chatID = nil
        alias = nil
        highWater = 0
        waiting.removeAll()
        transcript.removeAll()
        refreshingFrom = nil
        lastRefreshAnswer = nil
        pendingSends.removeAll()
    }

    private func activeKey() throws(ParleyError) -> String {
        guard phase == .active, let secureKey else {
            throw ParleyError(.gmsChatNotActive, phase == .ended ? "the chat has ended" : "call start() first")
        }
        return secureKey
    }

    // MARK: Events

    /// How an event shows: the customer's own lines acknowledge what was sent; the rest become Parley messages.
    private mutating func show(_ event: ChatV2Event) -> [Action] {
        transcript.append(event)
        let id = "gms-\(event.index)"
        let text = event.text ?? ""
        if event.from.type == .client {
            guard event.type == .message, let index = pendingSends.firstIndex(where: { $0.payload.text == text })
            else { return [] }  // the customer's own notices (joined, typing): the app knows
            var message = pendingSends.remove(at: index)
            message.delivery = .acknowledged
            return [.emit(.deliveryChanged(message))]
        }
        let payload: MessagePayload
        switch event.type {
        case .message:
            payload = .text(text)
        case .typingStarted, .typingStopped:
            let status: TypingStatus = event.type == .typingStarted ? .responding : .listening
            payload = MessagePayload(.status(.init(status, partyType: event.from.type.rawValue)))
        case .participantJoined:
            payload = .text("\(event.from.nickname) has joined the session")
        case .participantLeft:
            payload = .text("\(event.from.nickname) has left the session")
        case .pushURL, .customNotice:
            payload = .text(text)
        default:
            payload = .text([event.from.nickname, text].filter { !$0.isEmpty }.joined(separator: " "))
        }
        return [.emit(.messageReceived(message(id, payload, event)))]
    }

    private func message(_ id: String, _ payload: MessagePayload, _ event: ChatV2Event) -> ChatMessage {
        var payload = payload
        var extensions = payload.channelExtensions ?? ChannelExtensions()
        extensions.values["agentSession"] = AgentSession(name: event.from.nickname).jsonValue
        if event.type != .message { extensions.values["gmsEvent"] = .string(event.type.rawValue) }
        extensions.values["gmsPartyType"] = .string(event.from.type.rawValue)
        payload.channelExtensions = extensions
        let source: MessageSource = event.from.type == .external ? .bot : .agent
        return ChatMessage(id: id, envelope: .skill(SkillMessage(payload: payload, source: source, msgId: id)))
    }
}
