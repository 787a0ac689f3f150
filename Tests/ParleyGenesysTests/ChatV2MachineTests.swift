import ParleyGenesys
import Testing

/// The Chat API v2 machine without sockets: every transition, by the actions it returns.
@Suite("Chat API v2 machine")
struct ChatV2MachineTests {
    static let key = "KEY1"

    static func event(_ index: Int, _ type: ChatV2EventType = .message, _ text: String? = nil, client: Bool = false)
        -> ChatV2Event
    {
        let party =
            client
            ? ChatV2Party(nickname: "Ann", participantID: "1", type: .client)
            : ChatV2Party(nickname: "Kristi", participantID: "2", type: .agent)
        return ChatV2Event(type: type, from: party, index: index, text: text ?? "line \(index)")
    }

    static func answer(_ events: [ChatV2Event], key: String? = key, ended: Bool = false, status: Int = 0) -> JSONValue {
        ChatV2Response(
            statusCode: status, chatEnded: ended, secureKey: key, userID: "U1", chatID: "C1", alias: "117",
            nextPosition: (events.map(\.index).max() ?? 0) + 1, messages: events
        ).jsonValue
    }

    /// A machine whose chat started, with the customer's join line shown.
    static func started() throws -> ChatV2Machine {
        var machine = ChatV2Machine()
        _ = try machine.handle(.requestChat(ChatV2Request(.requestChat, ["nickname": "Ann"])))
        _ = try machine.handle(.received(answer([event(1, .participantJoined, client: true)])))
        return machine
    }

    static func published(_ actions: [ChatV2Machine.Action]) -> [JSONValue] {
        actions.compactMap { if case .publish(let request) = $0 { request.jsonValue } else { nil } }
    }

    static func texts(_ actions: [ChatV2Machine.Action]) -> [String] {
        actions.compactMap {
            if case .emit(.messageReceived(let message)) = $0 { message.payload.text ?? "status" } else { nil }
        }
    }

    @Test func operationsNeedAStartedChat() throws {
        var machine = ChatV2Machine()
        for event in [ChatV2Machine.Event.refresh, .disconnect, .perform(ChatV2Request(.stopTyping))] {
            #expect(throws: ParleyError.self) { try machine.handle(event) }
        }
        do {
            _ = try machine.handle(
                .send(ChatMessage(envelope: .user(UserMessage(payload: .text("x")))), messageType: nil))
            Issue.record("sent before the start")
        } catch {
            #expect(error.code == .gmsChatNotActive)
        }
        #expect(machine.phase == .idle)
    }

    @Test func requestChatThenSuccess() throws {
        var machine = ChatV2Machine()
        let publish = try machine.handle(.requestChat(ChatV2Request(.requestChat, ["nickname": "Ann"])))
        #expect(Self.published(publish) == [["operation": "requestChat", "nickname": "Ann"]])
        #expect(machine.phase == .requesting)
        // An answer without a secureKey is not the answer to requestChat.
        #expect(try machine.handle(.received(Self.answer([], key: nil))).isEmpty)
        let actions = try machine.handle(
            .received(
                Self.answer([Self.event(1, .participantJoined, client: true), Self.event(2, .participantJoined)])))
        guard case .started = actions.first else {
            Issue.record("expected started first: \(actions)")
            return
        }
        #expect(Self.texts(actions) == ["Kristi has joined the session"])
        #expect(machine.phase == .active)
        #expect(machine.secureKey == Self.key)
        #expect(machine.userID == "U1")
        #expect(machine.chatID == "C1")
        #expect(machine.highWater == 2)
        #expect(machine.transcript.map(\.index) == [1, 2])
    }

    @Test func refusedRequestChat() throws {
        var machine = ChatV2Machine()
        _ = try machine.handle(.requestChat(ChatV2Request(.requestChat)))
        let refusal = ChatV2Response(statusCode: 2, errors: [.init(code: 101, advice: "nickname is missing")])
        let actions = try machine.handle(.received(refusal.jsonValue))
        guard case .startFailed(let error) = actions.first, actions.count == 1 else {
            Issue.record("expected startFailed: \(actions)")
            return
        }
        #expect(error.code == .gmsChatRefused)
        #expect((error.underlying as? ChatV2Failure)?.errors.map(\.code) == [101])
        #expect(machine.phase == .idle)
        _ = try machine.handle(.requestChat(ChatV2Request(.requestChat)))
        let timedOut = try machine.handle(.startTimedOut)
        guard case .startFailed(let timeout) = timedOut.first else {
            Issue.record("expected startFailed")
            return
        }
        #expect(timeout.code == .gmsNoAnswer)
        #expect(try machine.handle(.startTimedOut).isEmpty)
    }

    @Test func operationsCarryTheSecureKey() throws {
        var machine = try Self.started()
        let typing = try machine.handle(.perform(ChatV2Request(.startTyping, ["message": "dra"])))
        #expect(Self.published(typing) == [["operation": "startTyping", "message": "dra", "secureKey": "KEY1"]])
        let message = ChatMessage(envelope: .user(UserMessage(payload: .text("Hello"))))
        let send = try machine.handle(.send(message, messageType: "text"))
        #expect(
            Self.published(send) == [
                ["operation": "sendMessage", "message": "Hello", "messageType": "text", "secureKey": "KEY1"]
            ])
        guard case .emit(.messageSent(let sent)) = send.first else {
            Issue.record("expected messageSent")
            return
        }
        #expect(sent.delivery == .pending)
        // The customer's own line acknowledges it; it is not shown as received.
        let echoed = try machine.handle(.received(Self.answer([Self.event(2, .message, "Hello", client: true)])))
        guard case .emit(.deliveryChanged(let acknowledged)) = echoed.first, echoed.count == 1 else {
            Issue.record("expected one acknowledgement: \(echoed)")
            return
        }
        #expect(acknowledged.id == message.id)
        #expect(acknowledged.delivery == .acknowledged)
        #expect(machine.pendingSends.isEmpty)
        #expect(
            Self.published(try machine.handle(.disconnect)) == [["operation": "disconnect", "secureKey": "KEY1"]])
    }

    @Test func repeatsAreDroppedAndGapsAskedFor() throws {
        var machine = try Self.started()
        #expect(Self.texts(try machine.handle(.received(Self.answer([Self.event(2)])))) == ["line 2"])
        // A repeat: nothing.
        #expect(try machine.handle(.received(Self.answer([Self.event(2)]))).isEmpty)
        // 5 before 3 and 4: it waits, and the machine asks from 3, once.
        let gap = try machine.handle(.received(Self.answer([Self.event(5)])))
        #expect(Self.texts(gap).isEmpty)
        #expect(
            Self.published(gap) == [
                ["operation": "requestNotifications", "transcriptPosition": 3, "secureKey": "KEY1"]
            ])
        #expect(machine.refreshingFrom == 3)
        #expect(Self.published(try machine.handle(.received(Self.answer([Self.event(6)])))).isEmpty)
        // The answer from 3 on (with repeats) fills the gap: 3, 4, 5, 6 once each, in order.
        let filled = try machine.handle(
            .received(Self.answer([Self.event(2), Self.event(3), Self.event(4), Self.event(5)])))
        #expect(Self.texts(filled) == ["line 3", "line 4", "line 5", "line 6"])
        #expect(machine.highWater == 6)
        #expect(machine.refreshingFrom == nil)
        #expect(machine.transcript.map(\.index) == [1, 2, 3, 4, 5, 6])
    }

    @Test func aGapTheAnswerCannotFillIsGivenUp() throws {
        var machine = try Self.started()
        _ = try machine.handle(.received(Self.answer([Self.event(4)])))
        #expect(machine.refreshingFrom == 2)
        // An answer that does not reach back to 2 is not the answer: 3 fills nothing yet.
        #expect(Self.texts(try machine.handle(.received(Self.answer([Self.event(3)])))).isEmpty)
        // The answer from 2 has no events (2 is gone on the server): 3 and 4 show, 2 is skipped.
        #expect(Self.texts(try machine.handle(.received(Self.answer([])))) == ["line 3", "line 4"])
        #expect(machine.waiting.isEmpty)
        #expect(machine.highWater == 4)
        // An operation's answer without events (nextPosition beyond the asked index) releases nothing; only the
        // refresh's timeout does.
        _ = try machine.handle(.received(Self.answer([Self.event(7)])))
        #expect(machine.refreshingFrom == 5)
        let plain = ChatV2Response(secureKey: Self.key, nextPosition: 8).jsonValue
        #expect(try machine.handle(.received(plain)).isEmpty)
        #expect(Self.texts(try machine.handle(.refreshTimedOut)) == ["line 7"])
        #expect(machine.highWater == 7)
        #expect(try machine.handle(.refreshTimedOut).isEmpty)
    }

    @Test func aRenewedSessionAsksFromTheFirstIndexNotShown() throws {
        var machine = try Self.started()
        _ = try machine.handle(.received(Self.answer([Self.event(2), Self.event(3)])))
        let renewed = try machine.handle(.sessionRenewed)
        #expect(
            Self.published(renewed) == [
                ["operation": "requestNotifications", "transcriptPosition": 4, "secureKey": "KEY1"]
            ])
        // The whole transcript comes back: only 4 is new.
        let answer = (1...4).map { Self.event($0) }
        #expect(Self.texts(try machine.handle(.received(Self.answer(answer)))) == ["line 4"])
        var idle = ChatV2Machine()
        #expect(try idle.handle(.sessionRenewed).isEmpty)
    }

    @Test func aRefreshFromAPositionAsksFromThereAndKeepsTheAnswer() throws {
        var machine = try Self.started()
        _ = try machine.handle(.received(Self.answer([Self.event(2), Self.event(3)])))
        let back = try machine.handle(.refreshFrom(position: 2))
        #expect(
            Self.published(back) == [
                ["operation": "requestNotifications", "transcriptPosition": 2, "secureKey": "KEY1"]
            ])
        #expect(machine.refreshingFrom == 2)
        #expect(machine.lastRefreshAnswer == nil)
        // The answer from 2 on: 2 and 3 are repeats, only 4 is new; the answer is kept whole, in order.
        let answer = try machine.handle(.received(Self.answer([Self.event(4), Self.event(2), Self.event(3)])))
        #expect(Self.texts(answer) == ["line 4"])
        #expect(machine.lastRefreshAnswer?.map(\.index) == [2, 3, 4])
        #expect(machine.refreshingFrom == nil)
        // 0 (or less) asks for the whole transcript, from 1.
        #expect(
            Self.published(try machine.handle(.refreshFrom(position: 0))) == [
                ["operation": "requestNotifications", "transcriptPosition": 1, "secureKey": "KEY1"]
            ])
        // No answer in time: nothing kept.
        _ = try machine.handle(.refreshTimedOut)
        #expect(machine.lastRefreshAnswer == nil)
        // Beyond the first index not shown: the events before the position are given up.
        _ = try machine.handle(.refreshFrom(position: 7))
        #expect(Self.texts(try machine.handle(.received(Self.answer([Self.event(7)])))) == ["line 7"])
        #expect(machine.highWater == 7)
        #expect(machine.transcript.map(\.index) == [1, 2, 3, 4, 7])
        var idle = ChatV2Machine()
        #expect(throws: ParleyError.self) { try idle.handle(.refreshFrom(position: 1)) }
    }

    @Test func typingNoticesAndUnknownEvents() throws {
        var machine = try Self.started()
        let actions = try machine.handle(
            .received(
                Self.answer([
                    Self.event(2, .typingStarted), Self.event(3, .typingStopped), Self.event(4, .pushURL, "http://x"),
                    Self.event(5, .participantLeft), Self.event(6, ChatV2EventType(rawValue: "IdleAlert"), "idle"),
                    Self.event(7, .typingStarted, client: true),
                ])))
        let messages = actions.compactMap { action -> ChatMessage? in
            if case .emit(.messageReceived(let message)) = action { message } else { nil }
        }
        #expect(messages.map(\.id) == ["gms-2", "gms-3", "gms-4", "gms-5", "gms-6"])
        let statuses = messages.prefix(2).compactMap { message -> TypingStatus? in
            if case .status(let status) = message.payload.content { status.status } else { nil }
        }
        #expect(statuses == [.responding, .listening])
        #expect(messages[2].payload.text == "http://x")
        #expect(messages[3].payload.text == "Kristi has left the session")
        #expect(messages[4].payload.text == "Kristi idle")
        #expect(messages[4].payload.channelExtensions?.values["gmsEvent"] == "IdleAlert")
        #expect(messages[4].payload.channelExtensions?.agentSession?.name == "Kristi")
        #expect(messages.allSatisfy { $0.sender == .agent })
    }

    @Test func failuresAndForeignAnswers() throws {
        var machine = try Self.started()
        // Another chat's answer (another secureKey) is not this chat's.
        #expect(try machine.handle(.received(Self.answer([Self.event(2)], key: "OTHER"))).isEmpty)
        let failed = try machine.handle(
            .received(ChatV2Response(statusCode: 1, errors: [.init(code: 101, advice: "bad")]).jsonValue))
        guard case .emit(.error(let error)) = failed.first else {
            Issue.record("expected an error event")
            return
        }
        #expect(error.code == .gmsChatFailed)
        #expect((error.underlying as? ChatV2Failure)?.isRetryable == true)
        let malformed = try machine.handle(.received(["messages": [["index": 1e300]]]))
        guard case .emit(.error(let bad)) = malformed.first, malformed.count == 1 else {
            Issue.record("expected one error event")
            return
        }
        #expect(bad.code == .gmsBadResponse)
        #expect(machine.phase == .active)
    }

    @Test func theEndComesOnceAndFailsWhatIsPending() throws {
        var machine = try Self.started()
        _ = try machine.handle(
            .send(ChatMessage(envelope: .user(UserMessage(payload: .text("late")))), messageType: nil))
        let ended = try machine.handle(.received(Self.answer([Self.event(2, .participantLeft)], ended: true)))
        let kinds = ended.map { action -> String in
            switch action {
            case .emit(.messageReceived): "received"
            case .emit(.deliveryChanged(let message)): message.delivery == .failed ? "failed" : "delivery"
            case .emit(.chatEnded): "chatEnded"
            case .ended: "ended"
            default: "other"
            }
        }
        #expect(kinds == ["received", "failed", "chatEnded", "ended"])
        #expect(machine.phase == .ended)
        #expect(try machine.handle(.endLocally).isEmpty)
        #expect(try machine.handle(.received(Self.answer([Self.event(3)], ended: true))).isEmpty)
        #expect(throws: ParleyError.self) { try machine.handle(.refresh) }
    }
}
