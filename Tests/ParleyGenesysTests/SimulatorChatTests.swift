import Foundation
import ParleyGMSSimulator
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The whole path through `parley serve --gms`'s simulator: push → dialog → menu → connect, and push → StartChat →
/// a chat over Comet reported as Parley events.
@Suite("GMS simulator", .serialized, .timeLimit(.minutes(2)))
struct SimulatorChatTests: ChatEventReading {
    static func withSimulator(
        _ body: (InProcessServer, CallbackService) async throws -> Void
    ) async throws {
        try await InProcessServer.runWithGMS(GMSSimulatorConfiguration(requireBrowserCookie: true)) { server in
            let service = CallbackService(configuration: .init(serverURL: server.url, gmsUser: "chat-user"))
            try await body(server, service)
        }
    }

    @Test func menuToConnect() async throws {
        try await Self.withSimulator { server, service in
            let menuDialog = try await service.dialog(
                for: CallbackPush(serviceID: "SVC0", action: "get-dialog-user-confirmation-provide_code-true"))
            guard case .menu(let menu) = menuDialog.content else {
                Issue.record("expected a menu")
                return
            }
            #expect(menu.items.count == 3)
            #expect(menu.items[0].userActionURL == "\(server.url.absoluteString)/genesys/1/service/SVC0/connect")
            #expect(menuDialog.expiryDate.map { $0 > Date() } == true)
            let connect = try await service.choose(menu.items[0])
            #expect(connect.action == .dialNumber)
            #expect(connect.serviceID == "SVC0")
            let snooze = try await service.choose(menu.items[1])
            #expect(snooze.action == .confirmationDialog)
            let outbound = try await service.dialog(for: CallbackPush(serviceID: "SVC0", action: "connect-outbound"))
            guard case .confirmation(let confirmation) = outbound.content else {
                Issue.record("expected a confirmation")
                return
            }
            #expect(confirmation.text == "You will receive the call shortly")
            let get = CallbackService(configuration: .init(serverURL: server.url, defaultMethod: "GET"))
            #expect(
                try await get.dialog(for: CallbackPush(serviceID: "SVC0", action: "wait-for-agent")).action
                    == .confirmationDialog)
            do {
                _ = try await service.dialog(for: CallbackPush(serviceID: "SVC0", action: "no-such-action"))
                Issue.record("expected an error")
            } catch let error as ParleyError {
                #expect(error.code == .gmsHTTPStatus)
            }
        }
    }

    @Test func chatShowsJoinTypingMessagesAndEndWithoutDuplicates() async throws {
        try await Self.withSimulator { server, service in
            let dialog = try await service.dialog(for: CallbackPush(serviceID: "SVC1", action: "get-dialog-start-chat"))
            guard case .startChat(let start) = dialog.content else {
                Issue.record("expected StartChat")
                return
            }
            #expect(start.userHeader == "chat-user")
            let chat = ChatSession(configuration: try .init(startChat: start, service: service.configuration))
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await chat.start()
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Kristi Sippola has joined the session" }

            try await chat.send(text: "hello")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: hello" }

            // The server loses every Comet session: the client handshakes again, subscribes again, refreshes.
            _ = try await post(
                server.url.appendingPathComponent("genesys/simulator/forget-comet-clients"), "",
                contentType: "application/x-www-form-urlencoded")
            _ = await Self.read(&events, into: &seen) { $0.isStatus(.connecting) }
            _ = await Self.read(&events, into: &seen) { $0.isStatus(.connected) }

            try await chat.send(text: "again")
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "You said: again" }
            try await chat.startTyping()
            try await chat.stopTyping()
            try await chat.send(text: "bye")
            _ = await Self.read(&events, into: &seen) {
                if case .chatEnded = $0 { true } else { false }
            }

            let received = seen.compactMap { event -> ChatMessage? in
                if case .messageReceived(let message) = event { message } else { nil }
            }
            // Every line once, in transcript order.
            #expect(Set(received.map(\.id)).count == received.count)
            #expect(received.map(\.id) == received.map(\.id).sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! })
            let summary = received.map { message -> String in
                switch message.payload.content {
                case .status(let status): "typing:\(status.status.rawValue)"
                default: message.payload.text ?? "?"
                }
            }
            #expect(
                summary == [
                    "Kristi Sippola has joined the session",
                    "typing:RESPONDING", "typing:LISTENING", "You said: hello",
                    "typing:RESPONDING", "typing:LISTENING", "You said: again",
                    "typing:RESPONDING", "typing:LISTENING", "Goodbye!",
                    "Kristi Sippola has left the session",
                ])
            #expect(received.allSatisfy { $0.sender == .agent })
            #expect(received.first?.payload.channelExtensions?.agentSession?.name == "Kristi Sippola")
            #expect(received.first?.payload.channelExtensions?.values["gmsEvent"] == "Notice.Joined")
            // The customer's messages were sent, then acknowledged by their transcript lines.
            let acknowledged = seen.compactMap { event -> String? in
                if case .deliveryChanged(let message) = event, message.delivery == .acknowledged {
                    return message.payload.text
                }
                return nil
            }
            #expect(acknowledged == ["hello", "again", "bye"])
            #expect(seen.filter { if case .chatEnded = $0 { true } else { false } }.count == 1)
            #expect(await chat.hasEnded)
            do {
                try await chat.send(text: "too late")
                Issue.record("expected an error")
            } catch let error as ParleyError {
                #expect(error.code == .gmsChatNotActive)
            }
        }
    }

    @Test func backgroundSendsTheTranscriptPositionAndForegroundCatchesUp() async throws {
        try await Self.withSimulator { server, service in
            let dialog = try await service.dialog(for: CallbackPush(serviceID: "SVC2", action: "get-dialog-start-chat"))
            guard case .startChat(let start) = dialog.content else {
                Issue.record("expected StartChat")
                return
            }
            let chat = ChatSession(configuration: try .init(startChat: start, service: service.configuration))
            var events = await chat.events().makeAsyncIterator()
            var seen: [ChatEvent] = []
            try await chat.start()
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Kristi Sippola has joined the session" }
            let position = await chat.transcriptPosition
            #expect(position == 2)

            await chat.enterBackground()
            let disconnects = try await URLSession.shared.data(
                from: server.url.appendingPathComponent("genesys/simulator/comet-disconnects")
            ).0
            #expect(try JSONValue(parsing: disconnects) == [["transcriptPosition": "2"]])
            _ = try await post(
                server.url.appendingPathComponent("genesys/simulator/chat/SVC2/agent"), "message=Are+you+there%3F",
                contentType: "application/x-www-form-urlencoded")

            try await chat.enterForeground()
            _ = await Self.read(&events, into: &seen) { Self.text($0) == "Are you there?" }
            let texts = seen.compactMap(Self.text)
            #expect(texts.filter { $0 == "Kristi Sippola has joined the session" }.count == 1)
            #expect(await chat.transcriptPosition == 5)
            try await chat.disconnect()
            #expect(await chat.hasEnded)
        }
    }
}

extension ChatEvent {
    func isStatus(_ status: ConnectionStatus) -> Bool {
        if case .statusChanged(let new) = self { return new == status }
        return false
    }
}
