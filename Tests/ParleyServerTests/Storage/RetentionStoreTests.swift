import Foundation
import Testing

@testable import ParleyServer

// Retention in the store conformance suites: every conversation store deletes idle conversations alike, and every
// attachment store removes their users' attachments and counts what it keeps in all.

extension ConversationStoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func idleConversationsAreDeletedWithTheirMessagesAndOthersAreKept(kind: StoreKind) async throws {
        try await kind.withStore { store, _ in
            let day: TimeInterval = 86_400
            let old = Self.key
            let fresh = ConversationKey(channelId: "web", userId: "bob")
            let lately = ConversationKey(channelId: "web", userId: "cy")
            let elsewhere = ConversationKey(channelId: "shop", userId: "ada")
            for (key, answered) in [(old, Self.date), (fresh, Self.date + 10 * day), (lately, Self.date)] {
                _ = try await store.receive(Self.text("hi"), for: key, at: Self.date)
                let pending = try #require(try await store.pending(for: key))
                _ = try await store.answer(
                    1, with: [Self.reply("hello")], state: ConversationState(), in: pending.conversation, at: answered)
            }
            // An input stored lately keeps a conversation whose last answer is old (it awaits one).
            _ = try await store.receive(Self.text("still there?"), for: lately, at: Self.date + 10 * day)
            // Made just now (on the store's clock), without a message.
            _ = try await store.conversation(for: elsewhere)

            let removed = try await store.removeConversations(idleSince: Self.date + 5 * day)
            #expect(removed == [old])
            #expect(try await store.messages(for: old, after: .sequence(0)).isEmpty)
            let gone = try await store.pending(for: old)
            #expect(gone == nil || gone?.inputs == [])
            let again = try await store.conversation(for: old)
            #expect((again.lastSequence, again.lastOutbound) == (0, 0), "a new conversation starts from nothing")
            #expect(try await store.messages(for: fresh, after: .sequence(0)).count == 2)
            #expect(try await store.messages(for: lately, after: .sequence(0)).count == 3)
            #expect(try await store.pending(for: lately)?.inputs.count == 1)
            #expect(try await store.removeConversations(idleSince: Self.date + 5 * day) == [])
        }
    }
}

extension AttachmentStoreTests {
    @Test(arguments: Kind.allCases)
    func theAttachmentsOfDeletedConversationsAreRemovedAndTheTotalIsCounted(kind: Kind) async throws {
        try await kind.withStore { store, staging in
            var ids: [String: String] = [:]
            for (user, size) in [("ada", 300), ("bob", 200), ("ada2", 100)] {
                let (upload, _) = try Self.staged(size, in: staging)
                let id = AttachmentID.random()
                #expect(
                    try await store.store(upload, id: id, record: Self.record(size: size, user: user), quota: 1_000))
                ids[user] = id
            }
            #expect(try await store.totalUsage() == 600)
            let removed = try await store.removeAttachments(of: [
                ConversationKey(channelId: "web", userId: "ada"), ConversationKey(channelId: "shop", userId: "bob"),
            ])
            #expect(removed == 1, "bob's attachment is on another channel")
            #expect(try await store.attachment(id: try #require(ids["ada"]), named: "cat.png") == nil)
            #expect(try await store.attachment(id: try #require(ids["bob"]), named: "cat.png") != nil)
            #expect(try await store.attachment(id: try #require(ids["ada2"]), named: "cat.png") != nil)
            #expect(try await store.usage(channelId: "web", userId: "ada") == 0)
            #expect(try await store.totalUsage() == 300)
        }
    }
}
