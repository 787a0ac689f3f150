import Foundation
import Hummingbird
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Storage and skills", .serialized, .timeLimit(.minutes(3)))
struct StorageAndSkillTests {
    /// Writes from many conversations at once go through group commit: every one is stored once, in order per
    /// conversation, and a write that fails (an answer for a conversation that does not exist) fails alone.
    @Test func concurrentWritesAreAllStoredAndAFailingOneFailsAlone() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-group-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try SQLiteConversationStore(url: data.appendingPathComponent("parley.sqlite"))
        let keys = (0..<20).map { ConversationKey(channelId: "group", userId: "user\($0)") }
        var missing = try await store.conversation(for: keys[0])
        missing.id = 999_999
        let ghost = missing
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in keys {
                group.addTask {
                    for number in 1...10 {
                        let received = try await store.receive(
                            ["text": .string("\(number)")], clientMessageId: "\(key.userId)-\(number)", for: key,
                            at: Date())
                        #expect(received == ReceivedInput(sequence: number, duplicate: false))
                    }
                }
            }
            group.addTask {
                await #expect(throws: ParleyError.self) {
                    try await store.answer(1, with: [], state: [:], in: ghost, at: Date())
                }
            }
            try await group.waitForAll()
        }
        for key in keys {
            let messages = try await store.messages(for: key, after: 0)
            #expect(messages.map(\.sequence) == Array(1...10))
            #expect(messages.map(\.clientMessageId) == (1...10).map { "\(key.userId)-\($0)" })
        }
    }

    @Test func aRestartedServerKeepsTheConversation() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-restart-\(UUID())")
        let channel = ChannelConfiguration(id: "demo", skill: .demo)
        try await withServer(channels: [channel], dataDirectory: data) { server in
            try await server.chat(channel: "demo", user: "pat") { socket in
                try await socket.send(UserMessage.text("hi", user: "pat"))
                _ = try await socket.receiveTurn()
                try await socket.send(
                    UserMessage(
                        payload: .postback(["state": "askAction", "action": "orderPizza"], text: "Order Pizza"),
                        userId: "pat"))
                let cards = try await socket.receiveTurn()
                #expect(cards.contains { $0.payload.type == .card })
            }
        }
        let before = try await SQLiteConversationStore(url: data.appendingPathComponent("parley.sqlite"))
            .messages(for: ConversationKey(channelId: "demo", userId: "pat"), after: 0)
        #expect(before.first?.direction == .user)
        #expect(before.map(\.sequence) == Array(1...before.count))
        try await withServer(channels: [channel], dataDirectory: data) { server in
            try await server.chat(channel: "demo", user: "pat") { socket in
                // The flow continues where it was: choosing a pizza from the cards.
                try await socket.send(
                    UserMessage(
                        payload: .postback(
                            [
                                "state": "GetOrder",
                                "variables": ["pizzaType": "cheese", "pizzaCrust": "thick", "pizzaSize": "large"],
                            ], text: "Order Large"),
                        userId: "pat"))
                let turn = try await socket.receiveTurn()
                #expect(!turn.isEmpty)
                #expect(!turn.contains { $0.payload.type == .error })
            }
        }
        let after = try await SQLiteConversationStore(url: data.appendingPathComponent("parley.sqlite"))
            .messages(for: ConversationKey(channelId: "demo", userId: "pat"), after: 0)
        #expect(after.count > before.count)
        #expect(after.map(\.sequence) == Array(1...after.count))
        #expect(Array(after.prefix(before.count)) == before)
    }
}
