import Foundation
import GRDB
import Hummingbird
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Storage and skills", .serialized, .timeLimit(.minutes(3)))
struct StorageAndSkillTests {
    static let key = ConversationKey(channelId: "echo", userId: "pat")

    static func input(_ text: String, id: String?) -> InputFrame {
        var message = UserMessage(payload: .text(text))
        message.clientMessageId = id
        return .message(message)
    }

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
                            Self.input("\(number)", id: "\(key.userId)-\(number)"), for: key, at: Date())
                        #expect(received == ReceivedInput(sequence: number, duplicate: false))
                    }
                }
            }
            group.addTask {
                await #expect(throws: ParleyError.self) {
                    try await store.answer(1, with: [], state: ConversationState(), in: ghost, at: Date())
                }
            }
            try await group.waitForAll()
        }
        for key in keys {
            let messages = try await store.messages(for: key, after: .sequence(0))
            #expect(messages.map(\.sequence) == Array(1...10))
            #expect(messages.map(\.clientMessageId) == (1...10).map { "\(key.userId)-\($0)" })
        }
    }

    /// The pending inputs the store keeps in memory are what a read of the file gives, whatever the order of
    /// receives and answers, concurrent receives into one conversation, and entries dropped for room.
    @Test func pendingInputsKeptInMemoryAreWhatTheDatabaseHolds() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("parley.sqlite")
        let store = try SQLiteConversationStore(url: file, cachedConversations: 2)
        let keys = (0..<4).map { ConversationKey(channelId: "cache", userId: "user\($0)") }
        func checkAgainstTheFile() async throws {
            let fresh = try SQLiteConversationStore(url: file)
            for key in keys {
                let kept = try await store.pending(for: key)
                let read = try await fresh.pending(for: key)
                #expect(kept == read, "\(key)")
            }
        }

        // Two receivers per conversation at once, then half of the inputs answered, in turns.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for key in keys {
                for receiver in 0..<2 {
                    group.addTask {
                        for number in 1...5 {
                            let id = "\(key.userId)-\(receiver)-\(number)"
                            _ = try await store.receive(Self.input(id, id: id), for: key, at: Date())
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await checkAgainstTheFile()
        for (turn, key) in (keys + keys).enumerated() {
            guard let pending = try await store.pending(for: key), let first = pending.inputs.first else {
                Issue.record("no pending input for \(key)")
                continue
            }
            #expect(pending.inputs.map(\.sequence) == pending.inputs.map(\.sequence).sorted())
            _ = try await store.answer(
                first.sequence, with: [SkillMessage(payload: .text("answer \(turn)"))],
                state: ConversationState(variables: ["turn": .number(Double(turn))]), in: pending.conversation,
                at: Date())
            // A repeated input stores nothing and changes nothing.
            let repeated = try await store.receive(
                Self.input("again", id: first.clientMessageId), for: key, at: Date())
            #expect(repeated == ReceivedInput(sequence: first.sequence, duplicate: true))
        }
        try await checkAgainstTheFile()
        #expect(try await store.pending(for: keys[0])?.inputs.count == 8)
        #expect(try await store.pending(for: ConversationKey(channelId: "cache", userId: "nobody")) == nil)
    }

    /// Migration "v6 answered through" finds the pending inputs of a file written before it, and answering goes on
    /// from them.
    @Test func pendingInputsOfAnOlderFileAreFoundAfterTheMigration() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-v6-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("parley.sqlite")
        let (partly, fully) = (
            ConversationKey(channelId: "old", userId: "a"), ConversationKey(channelId: "old", userId: "b")
        )
        func answerOldest(of key: ConversationKey, in store: SQLiteConversationStore) async throws {
            let pending = try #require(try await store.pending(for: key))
            let oldest = try #require(pending.inputs.first)
            _ = try await store.answer(
                oldest.sequence, with: [SkillMessage(payload: .text("ok"))], state: ConversationState(),
                in: pending.conversation, at: Date())
        }
        let before = try SQLiteConversationStore(url: file)
        for key in [partly, fully] {
            for number in 1...3 {
                let id = "\(key.userId)-\(number)"
                _ = try await before.receive(Self.input(id, id: id), for: key, at: Date())
            }
        }
        try await answerOldest(of: partly, in: before)
        for _ in 1...3 { try await answerOldest(of: fully, in: before) }
        // The file as the previous version left it: no `answeredThrough`, an index of the pending inputs.
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)
        let database = try DatabaseQueue(path: file.path, configuration: waiting)
        try await database.write { db in
            try db.execute(
                sql: """
                    ALTER TABLE conversation DROP COLUMN answeredThrough;
                    CREATE INDEX message_pending_by_conversation ON message(conversationId, sequence) WHERE pending;
                    DELETE FROM grdb_migrations WHERE identifier = 'v6 answered through'
                    """)
        }
        try database.close()

        let migrated = try SQLiteConversationStore(url: file)
        #expect(try await migrated.conversationsWithPendingInputs() == [partly])
        #expect(try await migrated.pending(for: partly)?.inputs.map(\.clientMessageId) == ["a-2", "a-3"])
        #expect(try await migrated.pending(for: fully)?.inputs.isEmpty == true)
        try await answerOldest(of: partly, in: migrated)
        let reopened = try SQLiteConversationStore(url: file)
        #expect(try await reopened.pending(for: partly)?.inputs.map(\.clientMessageId) == ["a-3"])
        try await answerOldest(of: partly, in: reopened)
        #expect(try await SQLiteConversationStore(url: file).conversationsWithPendingInputs().isEmpty)
    }

    /// A new file gets the store's page size; a file made with another keeps it, and works.
    @Test func aNewFileGetsTheStoresPageSizeAndAnOlderOneKeepsItsOwn() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pages-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        // A store just gone may still be closing its connections (the last one checkpoints the log): wait for it.
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)
        func pageSize(of file: URL) throws -> Int? {
            let database = try DatabaseQueue(path: file.path, configuration: waiting)
            defer { try? database.close() }
            return try database.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        }
        let new = data.appendingPathComponent("new.sqlite")
        _ = try await SQLiteConversationStore(url: new).receive(Self.input("hi", id: "1"), for: Self.key, at: Date())
        #expect(try pageSize(of: new) == SQLiteConversationStore.pageSize)

        let older = data.appendingPathComponent("older.sqlite")
        let made = try DatabaseQueue(path: older.path, configuration: waiting)
        try await made.write { db in try db.execute(sql: "PRAGMA page_size = 4096; CREATE TABLE other (id INTEGER)") }
        try made.close()
        let store = try SQLiteConversationStore(url: older)
        let received = try await store.receive(Self.input("hi", id: "1"), for: Self.key, at: Date())
        #expect(received == ReceivedInput(sequence: 1, duplicate: false))
        #expect(try await store.pending(for: Self.key)?.inputs.map(\.clientMessageId) == ["1"])
        #expect(try pageSize(of: older) == 4096)
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
            .messages(for: ConversationKey(channelId: "demo", userId: "pat"), after: .sequence(0))
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
            .messages(for: ConversationKey(channelId: "demo", userId: "pat"), after: .sequence(0))
        #expect(after.count > before.count)
        #expect(after.map(\.sequence) == Array(1...after.count))
        #expect(Array(after.prefix(before.count)) == before)
    }

    /// A stored state that cannot be decoded is not reset silently: the store reports it, the user is told (an
    /// error payload with a code) before the skill's answer, and the conversation goes on from a new state.
    @Test func anUnreadableStateIsReportedAndTheConversationStartsAgain() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-state-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("parley.sqlite")
        let channel = ChannelConfiguration(id: "demo", skill: .demo)
        let key = ConversationKey(channelId: "demo", userId: "pat")
        try await withServer(channels: [channel], dataDirectory: data) { server in
            try await server.chat(channel: "demo", user: "pat") { socket in
                try await socket.send(UserMessage(payload: .text("hi"), userId: "pat"))
                _ = try await socket.receiveTurn()
            }
        }
        // The stopped server's background checkpoint may still hold the file for a moment: wait for it, not fail.
        var waiting = Configuration()
        waiting.busyMode = .timeout(10)
        let database = try DatabaseQueue(path: file.path, configuration: waiting)
        try await database.write { db in
            try db.execute(sql: #"UPDATE conversation SET state = '{"variables": 5}'"#)
        }
        try database.close()
        let stored = try await SQLiteConversationStore(url: file).conversation(for: key)
        #expect(stored.unreadableState?.code == .typeMismatch)
        #expect(stored.state == ConversationState())

        try await withServer(channels: [channel], dataDirectory: data) { server in
            try await server.chat(channel: "demo", user: "pat") { socket in
                try await socket.send(UserMessage(payload: .text("hi"), userId: "pat"))
                let turn = try await socket.receiveTurn()
                guard case .error(let error) = turn.first?.payload.content else {
                    Issue.record("no error first: \(turn.map(\.payload.type))")
                    return
                }
                #expect(error.errorCode == .skillStateUnreadable)
                #expect(turn.dropFirst().first?.payload.text?.hasPrefix("Hi") == true, "the demo greets again")
            }
        }
        let repaired = try await SQLiteConversationStore(url: file).conversation(for: key)
        #expect(repaired.unreadableState == nil)
        #expect(repaired.state.state != nil)
    }
}
