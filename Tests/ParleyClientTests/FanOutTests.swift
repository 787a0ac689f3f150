import Foundation
import ParleyServerTesting
import Testing

/// A message the user sends on one device shows on the user's other devices as the user's own (docs/protocol.md
/// §13.6), and only once on the device that sent it.
@Suite("The user's messages on the user's other clients", .serialized, .timeLimit(.minutes(2)))
struct FanOutTests {
    @Test func aMessageSentOnOneDeviceShowsOnTheOtherAsTheUsersOwnAndOnceOnTheSender() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            let configuration = ChatClient.Configuration(url: server.url, channelId: "echo", userId: "ann")
            let laptop = ChatClient(configuration: configuration)
            let phone = ChatClient(configuration: configuration)
            var laptopEvents = EventReader(await laptop.events())
            var phoneEvents = EventReader(await phone.events())
            try await laptop.initialize()
            try await phone.initialize()
            try await laptopEvents.status(.connected)
            try await phoneEvents.status(.connected)

            try await laptop.send(.text("from the laptop"))
            let shown = try await phoneEvents.next("the laptop's message") {
                if case .messageSent(let message) = $0 { message } else { nil }
            }
            #expect(shown.sender == .user)
            #expect(shown.payload.text == "from the laptop")
            #expect(shown.delivery == .acknowledged)
            try await phoneEvents.expectReply("from the laptop")
            try await laptopEvents.expectReply("from the laptop")
            #expect(await phone.messages().map(\.sender) == [.user, .bot])
            #expect(await phone.messages().first?.id == (await laptop.messages().first?.id), "one id on both")

            // And back: the phone's message on the laptop, after the laptop's own.
            try await phone.send(.text("from the phone"))
            try await phoneEvents.expectReply("from the phone")
            try await laptopEvents.expectReply("from the phone")
            let laptopMessages = await laptop.messages()
            #expect(laptopMessages.map(\.sender) == [.user, .bot, .user, .bot])
            #expect(
                laptopMessages.compactMap(\.payload.text) == [
                    "from the laptop", "from the laptop", "from the phone", "from the phone",
                ])
            #expect(laptopMessages.count == 4 && laptopMessages[2].delivery == .acknowledged)
            await laptop.destroy()
            await phone.destroy()
        }
    }
}
