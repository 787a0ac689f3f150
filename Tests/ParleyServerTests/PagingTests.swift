import Foundation
import NIOConcurrencyHelpers
import ParleyServerTesting
import Testing

@testable import ParleyServer

/// A resume or a catch-up reads a conversation's history in pages, whatever its length, and the SQLite store's
/// cache of pending inputs holds at most a page of them per conversation.
@Suite("Paged reads", .serialized, .timeLimit(.minutes(2)))
struct PagingTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)
    static let key = ConversationKey(channelId: "echo", userId: "ann")

    /// A store that records the pages read from it.
    final class PageRecordingStore: ConversationStore {
        let base = InMemoryConversationStore()
        /// The `limit` of each read of messages, and how many messages it gave.
        let reads = NIOLockedValueBox<[(limit: Int, count: Int)]>([])

        func conversation(for key: ConversationKey) async throws -> StoredConversation {
            await base.conversation(for: key)
        }
        func receive(_ input: InputFrame, for key: ConversationKey, at date: Date) async throws -> ReceivedInput {
            await base.receive(input, for: key, at: date)
        }
        func pending(for key: ConversationKey) async throws -> PendingInputs? {
            await base.pending(for: key)
        }
        func conversationsWithPendingInputs() async throws -> [ConversationKey] {
            await base.conversationsWithPendingInputs()
        }
        func answer(
            _ sequence: Int?, with replies: [SkillMessage], state: ConversationState,
            in conversation: StoredConversation, at date: Date
        ) async throws -> [StoredMessage] {
            try await base.answer(sequence, with: replies, state: state, in: conversation, at: date)
        }
        func messages(for key: ConversationKey, after cursor: MessageCursor, limit: Int) async throws
            -> [StoredMessage]
        {
            let page = await base.messages(for: key, after: cursor, limit: limit)
            reads.withLockedValue { $0.append((limit, page.count)) }
            return page
        }
        func queueForAgents(_ key: ConversationKey, at date: Date) async throws -> Bool {
            await base.queueForAgents(key, at: date)
        }
        func agentQueue() async throws -> [QueuedConversation] { await base.agentQueue() }
        func assign(_ key: ConversationKey, to agent: AgentSession) async throws {
            try await base.assign(key, to: agent)
        }
        func unassign(agentNamed name: String) async throws -> [ConversationKey] {
            await base.unassign(agentNamed: name)
        }
        func endHandOff(_ key: ConversationKey) async throws -> AgentHandOff? { await base.endHandOff(key) }
    }

    /// A conversation whose server has sent `count` messages, numbered 1 to `count`.
    static func longHistory(_ count: Int, in store: PageRecordingStore) async throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let received = try await store.receive(.message(.text("tell me everything", user: "ann")), for: key, at: date)
        let conversation = try await store.conversation(for: key)
        let replies = (1...count).map { index in
            SkillMessage(payload: .text("line \(index)"), source: .bot, userId: "ann", msgId: "m\(index)")
        }
        _ = try await store.answer(
            received.sequence, with: replies, state: conversation.state, in: conversation, at: date)
    }

    @Test func aResumeOfALongHistoryIsReadInPagesAndSendsEveryMessageInOrder() async throws {
        let store = PageRecordingStore()
        let count = 700
        try await Self.longHistory(count, in: store)
        try await InProcessServer.run(channels: [Self.echo], store: store) { server in
            try await TestServer(port: server.port, dataDirectory: server.dataDirectory).chat(
                channel: "echo", user: "ann"
            ) { socket in
                try await socket.send(ParleyHello(resumeAfter: 0).stateFrame)
                guard case .state(let state)? = try await socket.receive(), let welcome = ParleyWelcome(state) else {
                    Issue.record("no welcome")
                    return
                }
                #expect(welcome.lastSequence == count)
                var sequences: [Int] = []
                for _ in 1...count {
                    sequences.append(try await socket.receiveMessage().sequence ?? 0)
                }
                #expect(sequences == Array(1...count), "every message once, in order")
            }
        }
        let reads = store.reads.withLockedValue { $0 }
        #expect(reads.count >= 3, "700 messages are at least three pages of 256")
        #expect(reads.allSatisfy { $0.limit <= 256 && $0.count <= 256 }, "\(reads.map(\.limit))")
    }

    @Test func theCacheOfPendingInputsHoldsAtMostAPagePerConversation() throws {
        let cache = PendingInputsCache(capacity: 10, inputLimit: 4)
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        func input(_ sequence: Int) -> StoredMessage {
            StoredMessage(
                sequence: sequence, frame: .user(.message(.text("\(sequence)", user: "ann"))), createdAt: date,
                pending: true)
        }
        let conversation = StoredConversation(id: 1, key: Self.key, lastSequence: 1, updatedAt: date)
        cache.received(input(1), for: Self.key, created: conversation)
        for sequence in 2...4 {
            cache.received(input(sequence), for: Self.key, created: nil)
        }
        #expect(cache.pending(for: Self.key)?.inputs.map(\.sequence) == [1, 2, 3, 4])
        // One more than a page: the entry goes, and the conversation is read from the database again.
        for sequence in 5...1_000 {
            cache.received(input(sequence), for: Self.key, created: nil)
        }
        #expect(cache.pending(for: Self.key) == nil)
        #expect(cache.inputCount == 0)
        // A read that may have left inputs out (a full page) starts no entry; a shorter one does.
        cache.read(PendingInputs(conversation: conversation, inputs: (1...4).map(input)))
        #expect(cache.pending(for: Self.key) == nil)
        cache.read(PendingInputs(conversation: conversation, inputs: (1...3).map(input)))
        #expect(cache.pending(for: Self.key)?.inputs.count == 3)
    }
}
