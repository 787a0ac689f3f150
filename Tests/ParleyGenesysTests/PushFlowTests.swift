import Foundation
import ParleyGMSSimulator
import ParleyGenesys
import ParleyServer
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A callback push end to end against the simulator: the app starts a callback that waits for the customer's
/// confirmation, GMS "sends" the APNs notification (the simulator records it), the app reads it as iOS hands it
/// over (`userInfo`), fetches the dialog, the user chooses, and the choice's request gives the next step: a call,
/// a snooze, or a chat in the API version the chat service is configured with.
@Suite("GMS push flow", .serialized, .timeLimit(.minutes(2)))
struct PushFlowTests {
    static let device = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

    /// Starts a callback from an iOS device waiting to confirm, and returns the push GMS sent for it, as the
    /// `userInfo` dictionary iOS gives `application(_:didReceiveRemoteNotification:)`.
    static func pushAfterStarting(
        _ service: CallbackService, on server: InProcessServer, media: String
    ) async throws -> [AnyHashable: Any] {
        let ticket = try await service.startCallback(
            "samples", customerNumber: "+15551234567",
            properties: [
                "_device_os": "ios", "_device_notification_id": device, "_wait_for_user_confirm": "true",
                "_wait_for_agent": "true", "_media_type": media, "_provide_code": "false",
            ])
        let data = try await URLSession.shared.data(from: server.url.appendingPathComponent("genesys/simulator/pushes"))
            .0
        let pushes = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let push = try #require(pushes.last)
        #expect(push["deviceToken"] as? String == device)
        let userInfo = try #require(push["payload"] as? [String: Any])
        let message = try #require(userInfo["message"] as? String)
        #expect(message.contains(ticket.id))
        return userInfo
    }

    static func item(_ dialog: Dialog, _ label: String) throws -> MenuItem {
        guard case .menu(let menu) = dialog.content else { throw ParleyError(.invalidValue, "not a menu: \(dialog)") }
        return try #require(menu.items.first { $0.label == label })
    }

    @Test func aVoiceCallbackPushLeadsToACallOrASnooze() async throws {
        try await InProcessServer.runWithGMS { server in
            let service = CallbackService(configuration: .init(serverURL: server.url, gmsUser: "push-user"))
            let userInfo = try await Self.pushAfterStarting(service, on: server, media: "voice")
            let push = try CallbackPush(userInfo: userInfo)
            #expect(push.action == "get-dialog-user-confirmation-provide_code-false")
            #expect(push.aps?["alert"]?["title"] == "Agent is available right now")
            let menu = try await service.dialog(for: push)
            #expect(menu.action == .displayMenu)
            #expect(menu.serviceID == nil)
            let call = try await service.choose(try Self.item(menu, "Yes, I'm ready to talk"))
            guard case .dialNumber(let dial) = call.content else {
                Issue.record("expected DialNumber, got \(call.action)")
                return
            }
            #expect(dial.telURL == "n/a")
            #expect(call.serviceID == push.serviceID)
            let snooze = try await service.choose(try Self.item(menu, "No, try again in 5 minutes"))
            guard case .confirmation(let confirmation) = snooze.content else {
                Issue.record("expected a ConfirmationDialog")
                return
            }
            #expect(confirmation.text == "We will call you back in 5 minutes")
        }
    }

    @Test(arguments: [ChatAPIVersion.version1, .version2])
    func aChatCallbackPushLeadsToAChat(version: ChatAPIVersion) async throws {
        try await InProcessServer.runWithGMS { server in
            let service = CallbackService(
                configuration: .init(
                    serverURL: server.url, gmsUser: "push-user", chatServiceName: "customer-support",
                    chatAPIVersions: version == .version2 ? ["customer-support": .version2] : [:]))
            let push = try CallbackPush(userInfo: try await Self.pushAfterStarting(service, on: server, media: "chat"))
            #expect(push.action == "get-dialog-user-confirmation-chat")
            let menu = try await service.dialog(for: push)
            let offer = try await service.choose(try Self.item(menu, "Yes, chat now"))
            guard case .startChat(let start) = offer.content else {
                Issue.record("expected StartChat, got \(offer.action)")
                return
            }
            #expect(offer.serviceID == push.serviceID)
            let session = try service.chat(for: start, customer: ["nickname": "Ann", "firstName": "Ann"])
            #expect(session.version == version)
            var seen: [String] = []
            switch session {
            case .version1(let chat):
                var events = await chat.events().makeAsyncIterator()
                try await chat.start()
                try await chat.send(text: "bye")
                seen = await Self.texts(&events)
                #expect(await chat.hasEnded)
            case .version2(let chat):
                #expect(chat.configuration.channel == "/service/chatV2/customer-support")
                #expect(chat.configuration.subject == "None")
                #expect(chat.configuration.gmsUser == "push-user")
                var events = await chat.events().makeAsyncIterator()
                try await chat.start()
                try await chat.send(text: "bye")
                seen = await Self.texts(&events)
                #expect(await chat.hasEnded)
            }
            #expect(
                seen == [
                    "Kristi Sippola has joined the session", "Goodbye!", "Kristi Sippola has left the session",
                ])
        }
    }

    @Test func anUnknownPushOrADialogWithoutComet() async throws {
        do {
            _ = try CallbackPush(userInfo: ["aps": ["alert": "Hello"]] as [AnyHashable: Any])
            Issue.record("a push without a message was read")
        } catch {
            #expect(error.code == .gmsNotACallbackPush)
        }
        let service = CallbackService(
            configuration: .init(
                serverURL: URL(string: "http://gms.example")!, chatAPIVersions: ["request-chat": .version2]))
        let dialog = try Dialog(json: ["_action": "StartChat", "_start_chat_url": "/genesys/1/service/S/ixn/chat"])
        guard case .startChat(let start) = dialog.content else {
            Issue.record("expected StartChat")
            return
        }
        do {
            _ = try service.chat(for: start)
            Issue.record("a version 2 chat without a Comet URL")
        } catch {
            #expect(error.code == .missingField)
        }
        #expect(service.configuration.chatAPIVersion(for: "other") == .version1)
    }

    /// The text of every message received until the chat ends, typing left out.
    static func texts(_ events: inout AsyncStream<ChatEvent>.Iterator) async -> [String] {
        var texts: [String] = []
        while let event = await events.next(isolation: #isolation) {
            switch event {
            case .messageReceived(let message):
                if case .status = message.payload.content { continue }
                texts.append(message.payload.text ?? "?")
            case .chatEnded:
                return texts
            default:
                continue
            }
        }
        return texts
    }
}
