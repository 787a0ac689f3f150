import Foundation
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Testing

/// The Swift examples of `ParleyGenesys.docc/GettingStarted.md`, run against the simulator (the article's server
/// URL becomes the in-process server's).
@Suite("Getting Started", .serialized, .timeLimit(.minutes(1)))
struct GettingStartedTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(
            "Sources/ParleyGenesys/ParleyGenesys.docc/GettingStarted.md")

    @Test func theArticleShowsWhatThisTestRuns() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        for line in [
            "let push = try CallbackPush(userInfo: userInfo)",
            "var dialog = try await service.dialog(for: push)",
            "dialog = try await service.choose(ready)",
            "let chat = ChatSession(configuration: try .init(startChat: start, service: service.configuration))",
            "try await chat.send(text: \"Hello\")",
            "let slots = try await service.availability(of: \"callback-for-mobile\", maxSlots: 4)",
            "let ticket = try await service.startCallback(\"callback-for-mobile\", customerNumber: \"+15551234\",",
            "try await service.rescheduleCallback(\"callback-for-mobile\", id: ticket.id, to: slots[1].start)",
            "} catch let error as ParleyError where error.code == .gmsInvalidTime {",
            "let record = try await service.callback(id: ticket.id)",
            "try await service.cancelCallback(\"callback-for-mobile\", id: ticket.id)",
            "chatServiceName: \"customer-support\", chatAPIVersions: [\"customer-support\": .version2]))",
            "switch try service.chat(for: start, customer: [\"nickname\": \"Ann\"]) {",
            "try await chat.updateData([\"plan\": \"gold\"])",
        ] {
            #expect(text.contains(line), "the article no longer shows \(line)")
        }
    }

    @Test func handleAPushAndChat() async throws {
        try await InProcessServer.runWithGMS {
            server in
            let service = CallbackService(configuration: .init(serverURL: server.url, gmsUser: "user-42"))
            let userInfo: JSONValue = [
                "aps": ["alert": "An agent is available"],
                "message": #"{"_id":"S1","_action":"get-dialog-user-confirmation-provide_code-true"}"#,
            ]
            let push = try CallbackPush(userInfo: userInfo)
            var dialog = try await service.dialog(for: push)
            if case .menu(let menu) = dialog.content, let ready = menu.items.first {
                dialog = try await service.choose(ready)
            }
            #expect(dialog.action == .dialNumber)

            let startChat = try await service.dialog(
                for: CallbackPush(serviceID: "S1", action: "get-dialog-start-chat"))
            guard case .startChat(let start) = startChat.content else {
                Issue.record("expected StartChat")
                return
            }
            let chat = ChatSession(configuration: try .init(startChat: start, service: service.configuration))
            let events = await chat.events()
            try await chat.start()
            try await chat.send(text: "Hello")
            var texts: [String] = []
            for await event in events {
                switch event {
                case .messageReceived(let message):
                    texts.append(message.payload.text ?? "(typing)")
                    if message.payload.text == "You said: Hello" { try await chat.send(text: "bye") }
                case .chatEnded:
                    #expect(texts.contains("You said: Hello"))
                    #expect(texts.last == "Kristi Sippola has left the session")
                    return
                default: break
                }
            }
            Issue.record("the events ended before the chat did")
        }
    }

    @Test func scheduleACallback() async throws {
        try await InProcessServer.runWithGMS { server in
            let service = CallbackService(configuration: .init(serverURL: server.url, gmsUser: "user-42"))
            let slots = try await service.availability(of: "callback-for-mobile", maxSlots: 4)
            #expect(slots.count == 4)
            let ticket = try await service.startCallback(
                "callback-for-mobile", customerNumber: "+15551234", at: slots[0].start)
            try await service.rescheduleCallback("callback-for-mobile", id: ticket.id, to: slots[1].start)
            var refused: ParleyError?
            do {
                try await service.rescheduleCallback(
                    "callback-for-mobile", id: ticket.id, to: slots[1].start - 86_400)
            } catch let error as ParleyError where error.code == .gmsInvalidTime {
                refused = error
            }
            #expect(refused != nil)
            let record = try await service.callback(id: ticket.id)
            #expect(record.desiredDate == slots[1].start)
            #expect(record.customerNumber == "+15551234")
            try await service.cancelCallback("callback-for-mobile", id: ticket.id)
        }
    }

    @Test func chatOverVersion2() async throws {
        try await InProcessServer.runWithGMS { server in
            let service = CallbackService(
                configuration: .init(
                    serverURL: server.url, gmsUser: "user-42",
                    chatServiceName: "customer-support", chatAPIVersions: ["customer-support": .version2]))
            let offer = try await service.dialog(for: CallbackPush(serviceID: "S2", action: "get-dialog-start-chat"))
            guard case .startChat(let start) = offer.content else {
                Issue.record("expected StartChat")
                return
            }
            switch try service.chat(for: start, customer: ["nickname": "Ann"]) {
            case .version1:
                Issue.record("customer-support speaks version 2")
            case .version2(let chat):
                var events = await chat.events().makeAsyncIterator()
                try await chat.start()
                try await chat.updateData(["plan": "gold"])
                try await chat.send(text: "Hello")
                let answer = await AsyncStream.next(&events) {
                    if case .messageReceived(let message) = $0 {
                        message.payload.text == "You said: Hello"
                    } else {
                        false
                    }
                }
                #expect(answer != nil)
                try await chat.disconnect()
                #expect(await chat.hasEnded)
            }
        }
    }
}
