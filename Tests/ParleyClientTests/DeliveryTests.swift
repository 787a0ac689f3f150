import Foundation
import ParleyServerTesting
import Testing

/// The outbox and in-order delivery against the real server.
@Suite("Chat client delivery", .serialized, .timeLimit(.minutes(2)))
struct DeliveryTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    /// An app restart: what the old client queued but never got acknowledged is delivered by a new client on the
    /// same folder, once.
    @Test func aNewClientOnTheSameFolderDeliversWhatTheOldOneCouldNot() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-outbox-\(UUID())")
        let port = try freePort()
        var configuration = ChatClient.Configuration(
            url: URL(string: "http://127.0.0.1:\(port)")!, channelId: "echo", userId: "liv")
        configuration.storageFolder = folder
        configuration.initUserHiddenMessage = "hello"

        let old = ChatClient(configuration: configuration)
        await expectFailure(.connectionFailed, "connecting to a server that is down") { try await old.initialize() }
        for text in ["first", "second"] {
            let queued = try #require(try await old.send(text: text))
            #expect(queued.delivery == .pending)
        }
        await old.destroy()  // the app is killed
        let relaunch = configuration

        try await RecordingBot.run { bot, webhook in
            let channel = ChannelConfiguration(id: "echo", skill: .webhook(webhook))
            try await InProcessServer.run(channels: [channel], configure: { $0.port = port }) { _ in
                let relaunched = ChatClient(configuration: relaunch)
                var events = EventReader(await relaunched.events())
                try await relaunched.initialize()
                var replies: [String] = []
                while replies.count < 3 { replies.append(try await events.received().payload.text ?? "") }
                #expect(replies == ["echo: hello", "echo: first", "echo: second"], "the opening first, then in order")
                #expect(
                    await bot.requests.compactMap { $0["messagePayload"]?["text"]?.stringValue } == [
                        "hello", "first", "second",
                    ])
                let requests = await bot.requests
                #expect(requests.allSatisfy { $0["clientMessageId"]?.stringValue?.count == 36 }, "the idempotency key")
                let messageIds = requests.compactMap { $0["messageId"]?.stringValue }
                #expect(messageIds.count == 3 && Set(messageIds).count == 3)
                #expect(messageIds.allSatisfy { $0.hasPrefix("echo/liv/") }, "channel/user/sequence")
                let sent = await relaunched.messages().filter { $0.sender == .user }
                #expect(sent.compactMap(\.payload.text) == ["first", "second"])
                while await relaunched.messages().filter({ $0.sender == .user && $0.delivery != .acknowledged }).count
                    > 0
                {
                    _ = try await events.next("delivery") { if case .deliveryChanged = $0 { () } else { nil } }
                }
                await relaunched.destroy()

                // A third launch has nothing left to send and resumes where the second stopped: no repeats.
                let third = ChatClient(configuration: relaunch)
                var thirdEvents = EventReader(await third.events())
                try await third.initialize()
                try await third.send(text: "third")
                #expect(try await thirdEvents.received().payload.text == "echo: third", "nothing replayed before it")
                await third.destroy()
                #expect(
                    await bot.requests.compactMap { $0["messagePayload"]?["text"]?.stringValue } == [
                        "hello", "first", "second", "third",
                    ])
            }
        }
    }
}
