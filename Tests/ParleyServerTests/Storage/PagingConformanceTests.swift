import Foundation
import Testing

@testable import ParleyServer

/// Paged reads, a rule of every ``ConversationStore`` (SQLite, in memory, PostgreSQL).
extension ConversationStoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func messagesAreReadInPagesFromEitherCursor(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            for round in 1...3 {
                let received = try await store.receive(Self.text("in \(round)"), for: Self.key, at: Self.date)
                let conversation = try await store.conversation(for: Self.key)
                _ = try await store.answer(
                    received.sequence, with: [Self.reply("out \(round)")], state: conversation.state, in: conversation,
                    at: Self.date)
            }
            #expect(
                try await store.messages(for: Self.key, after: .sequence(0), limit: 4).map(\.sequence) == [1, 2, 3, 4])
            #expect(try await store.messages(for: Self.key, after: .sequence(4), limit: 4).map(\.sequence) == [5, 6])
            #expect(try await store.messages(for: Self.key, after: .outbound(0), limit: 2).map(\.outbound) == [1, 2])
            #expect(try await store.messages(for: Self.key, after: .outbound(2), limit: 2).map(\.outbound) == [3])
            #expect(try await store.messages(for: Self.key, after: .outbound(0), limit: 0).isEmpty)
            #expect(try await store.messages(for: Self.key, after: .sequence(0)).count == 6, "no limit: all of them")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReadOfPendingInputsGivesTheOldestPage(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let count = PendingInputs.limit + 3
            for index in 1...count {
                _ = try await store.receive(Self.text("in \(index)"), for: Self.key, at: Self.date)
            }
            let first = try #require(try await store.pending(for: Self.key))
            #expect(first.inputs.map(\.sequence) == Array(1...PendingInputs.limit))
            _ = try await store.answer(
                1, with: [], state: first.conversation.state, in: first.conversation, at: Self.date)
            let second = try #require(try await store.pending(for: Self.key))
            #expect(second.inputs.map(\.sequence) == Array(2...PendingInputs.limit + 1))
            #expect(second.conversation.lastSequence == count)
            // Answered down to fewer than a page, every input is still there, in order.
            var answered = [1]
            while let pending = try await store.pending(for: Self.key), let input = pending.inputs.first {
                _ = try await store.answer(
                    input.sequence, with: [], state: pending.conversation.state, in: pending.conversation,
                    at: Self.date)
                answered.append(input.sequence)
            }
            #expect(answered == Array(1...count))
        }
    }
}
