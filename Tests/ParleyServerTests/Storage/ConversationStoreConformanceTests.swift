import Foundation
import ParleyPostgres
import Testing

@testable import ParleyServer

/// The rules every ``ConversationStore`` keeps, run against each implementation: SQLite, in memory and PostgreSQL
/// (on the server of `PARLEY_TEST_POSTGRES_URL`, see ``TestPostgres``; skipped without it).
///
/// Each test gets a new, empty store from ``StoreKind/withStore(_:)``, with a `reopen` that gives another store on
/// the same data where the implementation keeps data across processes (nil for the in-memory store).
@Suite("Conversation store conformance", .timeLimit(.minutes(2)))
struct ConversationStoreConformanceTests {
    /// Opens another store on the same data and runs the function it is given with it.
    typealias Reopen = @Sendable ((any ConversationStore) async throws -> Void) async throws -> Void

    enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite
        case memory
        case postgres

        var testDescription: String { rawValue }

        /// Runs `body` with a new, empty store, and how to open the same data again (nil when the data does not
        /// outlive the store); what the store used is removed afterwards.
        func withStore(_ body: (any ConversationStore, Reopen?) async throws -> Void) async throws {
            switch self {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory
                    .appendingPathComponent("parley-conformance-\(UUID())")
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("parley.sqlite")
                try await body(try SQLiteConversationStore(url: file)) { reopened in
                    try await reopened(try SQLiteConversationStore(url: file))
                }
            case .memory:
                try await body(InMemoryConversationStore(), nil)
            case .postgres:
                try await TestPostgres.withDatabase { database in
                    try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                        try await body(store) { reopened in
                            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) {
                                try await reopened($0)
                            }
                        }
                    }
                }
            }
        }
    }

    static let key = ConversationKey(channelId: "web", userId: "ada")
    static let date = Date(timeIntervalSince1970: 1_790_000_000.5)

    static func text(_ text: String, id: String? = nil) -> InputFrame {
        var message = UserMessage(payload: .text(text), userId: "ada")
        message.clientMessageId = id
        return .message(message)
    }

    static func reply(_ text: String) -> SkillMessage {
        SkillMessage(payload: .text(text), source: .bot, userId: "ada", msgId: "m-\(text)", endOfTurn: true)
    }

    @Test(arguments: StoreKind.allCases)
    func aNewConversationIsEmptyAndKeepsItsIdentity(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let first = try await store.conversation(for: Self.key)
            #expect(first.key == Self.key)
            #expect(first.state == ConversationState())
            #expect(first.unreadableState == nil)
            #expect((first.lastSequence, first.lastOutbound) == (0, 0))
            let again = try await store.conversation(for: Self.key)
            #expect(again.id == first.id)
            let other = try await store.conversation(for: ConversationKey(channelId: "web", userId: "bob"))
            #expect(other.id != first.id)
            #expect(try await store.messages(for: Self.key, after: .sequence(0)).isEmpty)
            #expect(try await store.pending(for: Self.key)?.inputs == [])
            #expect(try await store.pending(for: ConversationKey(channelId: "web", userId: "nobody")) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func inputsAreNumberedInOrderAndKeptPendingUntilAnswered(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let inputs = [
                Self.text("one", id: "c1"), Self.text("two"),
                .profile(ProfileUpdate(profile: Profile(givenName: "Ada"))),
            ]
            var sequences: [Int] = []
            for input in inputs {
                let received = try await store.receive(input, for: Self.key, at: Self.date)
                #expect(!received.duplicate)
                sequences.append(received.sequence)
            }
            #expect(sequences == [1, 2, 3])
            let pending = try #require(try await store.pending(for: Self.key))
            #expect(pending.inputs.map(\.frame) == inputs.map(StoredMessage.Frame.user))
            #expect(pending.inputs.map(\.pending) == [true, true, true])
            #expect(pending.inputs.map(\.clientMessageId) == ["c1", nil, nil])
            #expect(pending.inputs.allSatisfy { $0.direction == .user && $0.outbound == nil })
            #expect(pending.conversation.lastSequence == 3)
            #expect(try await store.conversationsWithPendingInputs() == [Self.key])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRepeatedClientMessageIdStoresNothing(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let first = try await store.receive(Self.text("hi", id: "same"), for: Self.key, at: Self.date)
            let repeated = try await store.receive(Self.text("hi again", id: "same"), for: Self.key, at: Self.date)
            #expect(first == ReceivedInput(sequence: 1, duplicate: false))
            #expect(repeated == ReceivedInput(sequence: 1, duplicate: true))
            // The same id in another conversation is another input.
            let elsewhere = try await store.receive(
                Self.text("hi", id: "same"), for: ConversationKey(channelId: "web", userId: "bob"), at: Self.date)
            #expect(elsewhere == ReceivedInput(sequence: 1, duplicate: false))
            let messages = try await store.messages(for: Self.key, after: .sequence(0))
            #expect(messages.map(\.frame) == [.user(Self.text("hi", id: "same"))])
        }
    }

    /// Keys, ids and texts are kept as they are: an empty id, text that is not ASCII, a NUL inside JSON text.
    /// (A NUL in a key is refused before the store: `HostileSocketTests.aUserIdWithAControlCharacterIsRefused`.)
    @Test(arguments: StoreKind.allCases)
    func unusualTextIsKeptAsItIs(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let key = ConversationKey(channelId: "web", userId: "zoë 🍕")
            let input = Self.text("a\u{0}b — ünïcödé 🍕", id: "")
            #expect(try await store.receive(input, for: key, at: Self.date).sequence == 1)
            #expect(try await store.receive(Self.text("again", id: ""), for: key, at: Self.date).duplicate)
            let pending = try #require(try await store.pending(for: key))
            #expect(pending.inputs.map(\.frame) == [.user(input)])
            #expect(pending.inputs.map(\.clientMessageId) == [""])
            let state = ConversationState(state: "s\u{0}t")
            let replies = try await store.answer(
                1, with: [Self.reply("é\u{0}")], state: state, in: pending.conversation, at: Self.date)
            #expect(try await store.messages(for: key, after: .sequence(1)) == replies)
            #expect(try await store.conversation(for: key).state == state)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anAnswerStoresRepliesAndStateAndMarksItsInputAnswered(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
            _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
            let pending = try #require(try await store.pending(for: Self.key))
            let state = ConversationState(state: "askSize", variables: ["pizza": "cheese"], extra: ["custom": [1, 2]])
            let later = Self.date.addingTimeInterval(5)
            let stored = try await store.answer(
                1, with: [Self.reply("a"), Self.reply("b")], state: state, in: pending.conversation, at: later)
            #expect(stored.map(\.sequence) == [3, 4])
            #expect(stored.map(\.outbound) == [1, 2])
            #expect(stored.map(\.frame) == [.skill(Self.reply("a")), .skill(Self.reply("b"))])
            #expect(stored.allSatisfy { $0.direction == .skill && !$0.pending })

            let after = try #require(try await store.pending(for: Self.key))
            #expect(after.inputs.map(\.sequence) == [2])
            #expect(after.conversation.state == state)
            #expect((after.conversation.lastSequence, after.conversation.lastOutbound) == (4, 2))
            #expect(abs(after.conversation.updatedAt.timeIntervalSince(later)) < 0.001)
            #expect(try await store.conversation(for: Self.key).state == state)

            // The second answer, with no replies, still marks its input answered.
            _ = try await store.answer(2, with: [], state: state, in: after.conversation, at: later)
            #expect(try await store.pending(for: Self.key)?.inputs == [])
            #expect(try await store.conversationsWithPendingInputs() == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func messagesTheServerSendsOnItsOwnAnswerNoInput(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
            let conversation = try await store.conversation(for: Self.key)
            let stored = try await store.answer(
                nil, with: [Self.reply("agent")], state: conversation.state, in: conversation, at: Self.date)
            #expect(stored.map(\.sequence) == [2])
            #expect(stored.map(\.outbound) == [1])
            #expect(try await store.pending(for: Self.key)?.inputs.map(\.sequence) == [1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func cursorsReadAfterASequenceOrAnOutboundNumber(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            for round in 1...3 {
                let received = try await store.receive(Self.text("in \(round)"), for: Self.key, at: Self.date)
                let conversation = try await store.conversation(for: Self.key)
                _ = try await store.answer(
                    received.sequence, with: [Self.reply("out \(round)")], state: conversation.state, in: conversation,
                    at: Self.date)
            }
            let all = try await store.messages(for: Self.key, after: .sequence(0))
            #expect(all.map(\.sequence) == [1, 2, 3, 4, 5, 6])
            #expect(all.map(\.direction) == [.user, .skill, .user, .skill, .user, .skill])
            #expect(try await store.messages(for: Self.key, after: .sequence(4)).map(\.sequence) == [5, 6])
            let sent = try await store.messages(for: Self.key, after: .outbound(1))
            #expect(sent.map(\.outbound) == [2, 3])
            #expect(sent.map(\.frame) == [.skill(Self.reply("out 2")), .skill(Self.reply("out 3"))])
            #expect(try await store.messages(for: Self.key, after: .outbound(3)).isEmpty)
            // The wire form of a stored reply carries its outbound number as `sequence`.
            #expect(sent.first?.wireFrame["sequence"] == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anInputIsAnsweredOnceWhoeverAnswersIt(kind: StoreKind) async throws {
        try await kind.withStore { store, reopen in
            _ = try await store.receive(Self.text("one"), for: Self.key, at: Self.date)
            let conversation = try await store.conversation(for: Self.key)
            _ = try await store.answer(
                1, with: [Self.reply("a")], state: conversation.state, in: conversation, at: Self.date)
            // A second answer to the same input (another node's, in a cluster) stores nothing.
            let error = await #expect(throws: ParleyError.self) {
                try await store.answer(
                    1, with: [Self.reply("b")], state: conversation.state, in: conversation, at: Self.date)
            }
            #expect(error?.code == .storeInputAnswered)
            #expect(try await store.messages(for: Self.key, after: .sequence(0)).map(\.sequence) == [1, 2])
            #expect(try await store.conversation(for: Self.key).lastOutbound == 1)

            // Two stores on the same data (two nodes) answering one input at once: exactly one answer is stored.
            guard let reopen else { return }
            _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
            let now = try await store.conversation(for: Self.key)
            @Sendable func answers(_ node: any ConversationStore, _ text: String) async -> Bool {
                (try? await node.answer(3, with: [Self.reply(text)], state: now.state, in: now, at: Self.date)) != nil
            }
            try await reopen { other in
                async let first = answers(store, "x")
                async let second = answers(other, "y")
                #expect(await [first, second].filter { $0 }.count == 1)
            }
            #expect(try await store.messages(for: Self.key, after: .sequence(3)).count == 1)
            #expect(try await store.pending(for: Self.key)?.inputs == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theAgentsQueueIsKeptWithTheConversation(kind: StoreKind) async throws {
        try await kind.withStore { store, reopen in
            let bob = ConversationKey(channelId: "web", userId: "bob")
            let ann = AgentSession(name: "Ann", avatarImage: "https://example.com/ann.png")
            #expect(try await store.queueForAgents(Self.key, at: Self.date))
            #expect(try await !store.queueForAgents(Self.key, at: Self.date.addingTimeInterval(9)), "queued once")
            #expect(try await store.queueForAgents(bob, at: Self.date.addingTimeInterval(1)))
            #expect(try await store.agentQueue().map(\.key) == [Self.key, bob], "oldest first")
            #expect(try await store.conversation(for: Self.key).handOff == AgentHandOff(since: Self.date))

            try await store.assign(Self.key, to: ann)
            try await store.assign(Self.key, to: AgentSession(name: "Ann"))  // the same agent again, from a new console
            let taken = await #expect(throws: ParleyError.self) {
                try await store.assign(Self.key, to: AgentSession(name: "Bea"))
            }
            #expect(taken?.code == .agentConversationTaken)
            let missing = await #expect(throws: ParleyError.self) {
                try await store.assign(ConversationKey(channelId: "web", userId: "nobody"), to: ann)
            }
            #expect(missing?.code == .agentNoSuchConversation)
            // The read before each answer sees who has the conversation.
            _ = try await store.receive(Self.text("hello"), for: Self.key, at: Self.date)
            #expect(try await store.pending(for: Self.key)?.conversation.handOff?.agent?.name == "Ann")

            if let reopen {
                try await reopen { other in
                    let queue = try await other.agentQueue()
                    #expect(queue.first?.handOff.agent?.name == "Ann", "kept across restarts")
                }
            }
            #expect(try await store.unassign(agentNamed: "Ann") == [Self.key])
            #expect(try await store.agentQueue().map(\.handOff.agent) == [nil, nil])
            try await store.assign(Self.key, to: ann)
            let ended = try await store.endHandOff(Self.key)
            #expect(ended?.agent?.name == "Ann")
            #expect(try await store.endHandOff(Self.key) == nil)
            #expect(try await store.pending(for: Self.key)?.conversation.handOff == nil)
            #expect(try await store.agentQueue().map(\.key) == [bob])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anAnswerForAConversationThatDoesNotExistFails(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            var ghost = try await store.conversation(for: Self.key)
            ghost.id = 999_999
            ghost.key = ConversationKey(channelId: "web", userId: "ghost")
            await #expect(throws: ParleyError.self) {
                try await store.answer(1, with: [Self.reply("x")], state: ConversationState(), in: ghost, at: Self.date)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentInputsOfOneConversationGetDistinctConsecutiveNumbers(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let sequences = try await withThrowingTaskGroup(of: Int.self) { group in
                for number in 0..<40 {
                    group.addTask {
                        try await store.receive(Self.text("\(number)", id: "id\(number)"), for: Self.key, at: Self.date)
                            .sequence
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sequences.sorted() == Array(1...40))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func whatIsStoredOutlivesTheStore(kind: StoreKind) async throws {
        try await kind.withStore { store, reopen in
            guard let reopen else { return }  // the in-memory store keeps nothing across processes
            _ = try await store.receive(Self.text("one", id: "c1"), for: Self.key, at: Self.date)
            _ = try await store.receive(Self.text("two"), for: Self.key, at: Self.date)
            let conversation = try await store.conversation(for: Self.key)
            let state = ConversationState(state: "s", variables: ["v": 1])
            _ = try await store.answer(1, with: [Self.reply("a")], state: state, in: conversation, at: Self.date)
            let before = try await store.messages(for: Self.key, after: .sequence(0))

            try await reopen { reopened in
                #expect(try await reopened.messages(for: Self.key, after: .sequence(0)) == before)
                #expect(try await reopened.conversation(for: Self.key).state == state)
                #expect(try await reopened.pending(for: Self.key)?.inputs.map(\.sequence) == [2])
                #expect(try await reopened.conversationsWithPendingInputs() == [Self.key])
                let repeated = try await reopened.receive(Self.text("one", id: "c1"), for: Self.key, at: Self.date)
                #expect(repeated == ReceivedInput(sequence: 1, duplicate: true))
            }
        }
    }
}
