import Foundation
import Logging
import Testing
import _NIOFileSystem

@testable import ParleyServer

/// `--retain`: a background service on the server's clock deletes conversations idle longer than the period, and
/// their users' attachments with them; the clock is moved, never waited for.
@Suite("Retention", .timeLimit(.minutes(1)))
struct RetentionTests {
    static let day = Duration.seconds(86_400)

    static func reply(_ text: String, to user: String) -> SkillMessage {
        SkillMessage(payload: .text(text), source: .bot, userId: user, msgId: "m-\(text)", endOfTurn: true)
    }

    /// One exchange in `key`'s conversation, dated now on `clock`.
    static func chat(_ key: ConversationKey, in store: any ConversationStore, clock: ServerClock) async throws {
        let received = try await store.receive(
            .message(UserMessage(payload: .text("hi"), userId: key.userId)), for: key, at: clock.now())
        let pending = try #require(try await store.pending(for: key))
        _ = try await store.answer(
            received.sequence, with: [reply("hello", to: key.userId)], state: ConversationState(),
            in: pending.conversation, at: clock.now())
    }

    /// A stored attachment of `key`'s user on its channel; its id.
    static func attach(_ key: ConversationKey, to folder: AttachmentFolder, staging: URL) async throws -> String {
        let file = staging.appendingPathComponent("\(AttachmentID.random()).part")
        try Data(repeating: 7, count: 100).write(to: file)
        let id = AttachmentID.random()
        let record = AttachmentRecord(
            channelId: key.channelId, userId: key.userId, type: "image/png", size: 100, fileName: "a.png",
            protected: false)
        #expect(try await folder.store(StagedUpload(path: FilePath(file.path)), id: id, record: record, quota: 1_000))
        return id
    }

    @Test func theServiceDeletesIdleConversationsAndTheirAttachmentsOnTheServersClock() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-retention-\(UUID())")
        defer { try? FileManager.default.removeItem(at: data) }
        let staging = data.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let virtual = VirtualClock()
        let clock = ServerClock(clock: virtual, startingAt: Date(timeIntervalSince1970: 1_790_000_000))
        let store = InMemoryConversationStore(clock: clock)
        let folder = AttachmentFolder(folder: data.appendingPathComponent("attachments"))
        let ann = ConversationKey(channelId: "web", userId: "ann")
        let bob = ConversationKey(channelId: "web", userId: "bob")
        try await Self.chat(ann, in: store, clock: clock)
        try await Self.chat(bob, in: store, clock: clock)
        let annsFile = try await Self.attach(ann, to: folder, staging: staging)
        let bobsFile = try await Self.attach(bob, to: folder, staging: staging)

        let service = RetentionService(
            store: store, attachments: folder, period: Self.day * 30, interval: .seconds(3600), clock: clock,
            logger: .init(label: "test"))
        let running = Task { try await service.run() }
        defer { running.cancel() }
        await virtual.waitForSleepers(1)  // the first sweep, at start, found nothing idle
        #expect(try await store.messages(for: ann, after: .sequence(0)).count == 2)

        await virtual.advance(by: Self.day * 20)
        await virtual.waitForSleepers(1)
        try await Self.chat(bob, in: store, clock: clock)  // bob chats again; ann does not
        await virtual.advance(by: Self.day * 10 + .seconds(3600))
        await virtual.waitForSleepers(1)  // the sweep after ann's thirty idle days has run

        #expect(try await store.messages(for: ann, after: .sequence(0)).isEmpty, "ann's conversation is gone")
        #expect(await store.conversation(for: ann).lastSequence == 0)
        #expect(try await store.messages(for: bob, after: .sequence(0)).count == 4, "bob's is kept")
        #expect(try await folder.attachment(id: annsFile, named: "a.png") == nil, "ann's attachment went with it")
        #expect(try await folder.attachment(id: bobsFile, named: "a.png") != nil)
        #expect(await folder.usage(channelId: "web", userId: "ann") == 0)
        #expect(await folder.totalUsage() == 100)
    }
}
