import Foundation
import ParleyGMSSimulator
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Chat API version 2 over CometD against `parley serve --gms`'s simulator: every operation, a lost Comet session
/// and the background, with the transcript checked for losses and repeats.
@Suite("GMS simulator, Chat API v2", .serialized, .timeLimit(.minutes(2)))
struct SimulatorChatV2Tests: ChatEventReading {
    static func withChat(
        nickname: String? = "Ann", _ body: (InProcessServer, ChatV2Session) async throws -> Void
    ) async throws {
        try await InProcessServer.runWithGMS(GMSSimulatorConfiguration(requireBrowserCookie: true)) { server in
            let chat = ChatV2Session(
                configuration: .init(
                    cometURL: server.url.appendingPathComponent("genesys/cometd"), serviceName: "customer-support",
                    gmsUser: "v2-user", nickname: nickname, subject: "Billing", userData: ["account": "42"]))
            try await body(server, chat)
        }
    }

    static func received(_ seen: [ChatEvent]) -> [ChatMessage] {
        seen.compactMap { if case .messageReceived(let message) = $0 { message } else { nil } }
    }

    static func state(_ server: InProcessServer, _ chatID: String) async throws -> JSONValue {
        let url = server.url.appendingPathComponent("genesys/simulator/chatV2/\(chatID)")
        return try JSONValue(parsing: try await URLSession.shared.data(from: url).0)
    }

    @Test func everyOperationReachesTheDeskAndTheTranscriptHasNoRepeats() async throws {
        try await Self.withChat { server, chat in
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await chat.start()
            #expect(await chat.isActive)
            let chatID = try #require(await chat.chatID)
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Kristi Sippola has joined the session" }

            try await chat.send(text: "hello")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: hello" }
            try await chat.startTyping(preview: "dra")
            try await chat.stopTyping()
            try await chat.pushURL(URL(string: "https://example.com/order/7")!)
            try await chat.updateNickname("Annie")
            try await chat.updateData(["plan": "gold", "account": "43"])
            try await chat.sendCustomNotice("app in background")
            // The Comet session is lost: the client handshakes again and asks for what it missed.
            _ = try await post(
                server.url.appendingPathComponent("genesys/simulator/forget-comet-clients"), "",
                contentType: "application/x-www-form-urlencoded")
            _ = try await post(
                server.url.appendingPathComponent("genesys/simulator/chatV2/\(chatID)/agent"), "message=Still+there%3F",
                contentType: "application/x-www-form-urlencoded")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Still there?" }
            try await chat.send(text: "bye")
            _ = await Self.read(&events, into: &seen) { if case .chatEnded = $0 { true } else { false } }

            let state = try await Self.state(server, chatID)
            #expect(state["service"] == "customer-support")
            #expect(state["nickname"] == "Annie")
            #expect(state["userData"] == ["account": "43", "plan": "gold"])
            #expect(state["ended"] == true)
            let desk = (state["messages"]?.arrayValue ?? []).map { event -> String in
                "\(event["from"]?["type"]?.stringValue ?? "?"):\(event["type"]?.stringValue ?? "?")"
                    + (event["text"]?.stringValue.map { ":" + $0 } ?? "")
            }
            #expect(
                desk == [
                    "Client:ParticipantJoined", "Agent:ParticipantJoined",
                    "Client:Message:hello", "Agent:TypingStarted", "Agent:TypingStopped",
                    "Agent:Message:You said: hello",
                    "Client:TypingStarted:dra", "Client:TypingStopped", "Client:PushUrl:https://example.com/order/7",
                    "Client:NicknameUpdated:Annie", "Client:CustomNotice:app in background",
                    "Agent:TypingStarted", "Agent:TypingStopped", "Agent:Message:Still there?",
                    "Client:Message:bye", "Agent:TypingStarted", "Agent:TypingStopped", "Agent:Message:Goodbye!",
                    "Agent:ParticipantLeft",
                ])
            // Every event of the desk's transcript once, in order, none lost across the lost session.
            #expect(await chat.transcript.map(\.index) == Array(1...desk.count))
            let received = Self.received(seen)
            #expect(Set(received.map(\.id)).count == received.count)
            #expect(
                received.map { $0.payload.text ?? "typing" } == [
                    "Kristi Sippola has joined the session", "typing", "typing", "You said: hello",
                    "typing", "typing", "Still there?", "typing", "typing", "Goodbye!",
                    "Kristi Sippola has left the session",
                ])
            let acknowledged = seen.compactMap { event -> String? in
                if case .deliveryChanged(let message) = event, message.delivery == .acknowledged {
                    return message.payload.text
                }
                return nil
            }
            #expect(acknowledged == ["hello", "bye"])
            #expect(seen.filter { if case .chatEnded = $0 { true } else { false } }.count == 1)
            #expect(await chat.hasEnded)
            do {
                try await chat.send(text: "too late")
                Issue.record("sent after the end")
            } catch let error as ParleyError {
                #expect(error.code == .gmsChatNotActive)
            }
        }
    }

    @Test func backgroundThenForegroundCatchesUpWithoutRepeats() async throws {
        try await Self.withChat { server, chat in
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await chat.start()
            let chatID = try #require(await chat.chatID)
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Kristi Sippola has joined the session" }
            #expect(await chat.transcriptPosition == 2)

            await chat.enterBackground()
            let disconnects = try await URLSession.shared.data(
                from: server.url.appendingPathComponent("genesys/simulator/comet-disconnects")
            ).0
            #expect(try JSONValue(parsing: disconnects) == [["transcriptPosition": "2"]])
            do {
                try await chat.send(text: "from the background")
                Issue.record("sent in the background")
            } catch let error as ParleyError {
                #expect(error.code == .bayeuxNotConnected)
            }
            _ = try await post(
                server.url.appendingPathComponent("genesys/simulator/chatV2/\(chatID)/agent"),
                "message=Are+you+there%3F",
                contentType: "application/x-www-form-urlencoded")

            try await chat.enterForeground()
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Are you there?" }
            #expect(Self.received(seen).map(\.id) == ["gms-2", "gms-3", "gms-4", "gms-5"])
            #expect(await chat.transcriptPosition == 5)
            try await chat.disconnect()
            #expect(await chat.hasEnded)
            let state = try await Self.state(server, chatID)
            #expect(state["messages"]?.arrayValue?.last?["type"] == "ParticipantLeft")
            #expect(state["messages"]?.arrayValue?.last?["from"]?["type"] == "Client")
        }
    }

    @Test func refreshFromAPositionReturnsGMSsTranscriptFromThereWithoutRepeats() async throws {
        try await Self.withChat { server, chat in
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            do {
                _ = try await chat.refresh(from: 1)
                Issue.record("refreshed before the start")
            } catch let error as ParleyError {
                #expect(error.code == .gmsChatNotActive)
            }
            try await chat.start()
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Kristi Sippola has joined the session" }
            try await chat.send(text: "hello")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: hello" }
            #expect(await chat.transcriptPosition == 6)

            // GMS's transcript from 3 on: the customer's line, the agent typing, the agent's answer.
            let tail = try await chat.refresh(from: 3)
            #expect(tail.map(\.index) == [3, 4, 5, 6])
            #expect(tail.map(\.type) == [.message, .typingStarted, .typingStopped, .message])
            #expect(tail.map(\.text) == ["hello", nil, nil, "You said: hello"])
            #expect(tail.map(\.from.type) == [.client, .agent, .agent, .agent])
            // From the start (0 asks for all of it): the transcript the session showed, event for event.
            let whole = try await chat.refresh(from: 0)
            #expect(whole.map(\.index) == Array(1...6))
            #expect(whole == (await chat.transcript))
            // The default asks from the first index not shown: nothing new.
            #expect(try await chat.refresh().isEmpty)
            #expect(await chat.transcriptPosition == 6)

            // Nothing was reported twice: the next exchange follows the first without repeats.
            try await chat.send(text: "again")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: again" }
            let received = Self.received(seen)
            #expect(Set(received.map(\.id)).count == received.count)
            #expect(
                received.map { $0.payload.text ?? "typing" } == [
                    "Kristi Sippola has joined the session", "typing", "typing", "You said: hello",
                    "typing", "typing", "You said: again",
                ])
            #expect(await chat.transcript.map(\.index) == Array(1...10))
            let chatID = try #require(await chat.chatID)
            let state = try await Self.state(server, chatID)
            #expect(state["messages"]?.arrayValue?.count == 10, "the desk's transcript is the session's")
            try await chat.disconnect()
        }
    }

    @Test func aRefusedRequestChatIsACodedError() async throws {
        try await Self.withChat(nickname: nil) { _, chat in
            do {
                try await chat.start()
                Issue.record("the chat started without a name")
            } catch let error as ParleyError {
                #expect(error.code == .gmsChatRefused)
                let failure = try #require(error.underlying as? ChatV2Failure)
                #expect(failure.statusCode == 2)
                #expect(failure.errors.map(\.code) == [101])
            }
            #expect(await !chat.isActive)
            #expect(await chat.status == .disconnected)
        }
    }

    @Test func hostileNotificationsAreReportedAndTheChatGoesOn() async throws {
        try await Self.withChat { server, chat in
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await chat.start()
            let chatID = try #require(await chat.chatID)
            let raw = server.url.appendingPathComponent("genesys/simulator/chatV2/\(chatID)/raw")
            for body in [
                #"{"messages":[{"from":{"type":"Agent"},"index":1e300,"type":"Message"}]}"#,
                #"{"statusCode":"zero","messages":"none"}"#, #""just text""#,
                #"{"messages":[{"from":{"type":"Agent","participantId":{}},"index":3,"type":"Message"}]}"#,
            ] {
                _ = try await post(raw, body)
                let error = await Self.read(&events, into: &seen) { if case .error = $0 { true } else { false } }
                guard case .error(let reported) = error else {
                    Issue.record("no error for \(body)")
                    return
                }
                #expect(reported.code == .gmsBadResponse, "\(body)")
            }
            try await chat.send(text: "still here")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: still here" }
            #expect(await chat.transcript.map(\.index) == Array(1...6))
        }
    }

    /// What the simulator answers to requests a client should not send: coded refusals on the channel, not a crash.
    @Test func theSimulatorRefusesBadRequestsWithCodes() async throws {
        try await InProcessServer.runWithGMS { server in
            let channel: BayeuxChannel = "/service/chatV2/raw-test"
            let comet = BayeuxClient(configuration: .init(url: server.url.appendingPathComponent("genesys/cometd")))
            var events = await comet.events().makeAsyncIterator()
            await comet.subscribe(channel)
            await comet.start()
            #expect(await AsyncStream.next(&events) { $0 == .subscribed(channel) } != nil)
            func answer(to data: JSONValue) async throws -> ChatV2Response {
                try await comet.publishConfirmed(data, to: channel)
                let event = await AsyncStream.next(&events) { if case .message = $0 { true } else { false } }
                guard case .message(let message) = event, let data = message.data else { throw CancellationError() }
                return try ChatV2Response(json: data)
            }
            let malformed = try await answer(to: ["operation": 5])
            #expect(malformed.statusCode == 2)
            #expect(malformed.errors.map(\.code) == [101])
            #expect(
                try await answer(to: ["operation": "requestChat", "subject": "no name"]).errors.map(\.code) == [101])
            let unknownKey = try await answer(to: ["operation": "sendMessage", "message": "x", "secureKey": "nope"])
            #expect(unknownKey.errors.map(\.code) == [102])
            #expect(unknownKey.chatEnded)
            let started = try await answer(to: ["operation": "requestChat", "nickname": "Raw"])
            let key = try #require(started.secureKey)
            #expect(started.messages.map(\.index) == [1])
            // The agent joins next, pushed on its own: read it before asking more.
            let joined = await AsyncStream.next(&events) { if case .message = $0 { true } else { false } }
            guard case .message(let push) = joined, let data = push.data else {
                Issue.record("the agent did not join")
                return
            }
            #expect(try ChatV2Response(json: data).messages.map(\.index) == [2])
            let refusal = try await answer(to: ["operation": "teleport", "secureKey": .string(key)])
            #expect(refusal.errors.map(\.code) == [104])
            #expect(!refusal.chatEnded)
            let noText = try await answer(to: ["operation": "sendMessage", "secureKey": .string(key)])
            #expect(noText.errors.map(\.code) == [101])
            let hostile = try await answer(
                to: ["operation": "requestNotifications", "secureKey": .string(key), "transcriptPosition": 1e300])
            #expect(hostile.statusCode == 0)
            #expect(hostile.messages.map(\.index) == [1, 2])  // an unreadable position asks for everything
            await comet.disconnect()
        }
    }
}
