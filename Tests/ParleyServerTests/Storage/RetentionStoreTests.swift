import Foundation
import Testing

@testable import ParleyServer

// Retention in the attachment store suite: every attachment store removes the attachments of deleted conversations'
// users and counts what it keeps in all. (Every conversation store's retention is checked by
// `ConversationStoreConformance`, in ParleyServerTesting.)

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
