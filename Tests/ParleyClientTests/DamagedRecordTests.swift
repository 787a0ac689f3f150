import Foundation
import Testing

@testable import ParleyClient
@testable import ParleyCore

/// What the client keeps on disk is never dropped silently: a line of the outbox or transcript, or an unfinished
/// upload, that cannot be read is a coded error (`client.recordDamaged`) and its file is moved aside, kept.
@Suite("Damaged client records")
struct DamagedRecordTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("parley-damaged-\(UUID())")
    }

    static func damagedCopies(in folder: URL, of name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(name + ".damaged-") }
    }

    @Test func anOutboxLineThatCannotBeReadIsKeptAsideNotCompactedAway() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outbox = try Outbox(folder: folder, channelId: "c", userId: "u")
        try outbox.add(
            OutboxItem(id: "one", frame: ["messagePayload": ["type": "text", "text": "one"]], transcriptId: nil))
        #expect(outbox.damaged.isEmpty)
        let file = try #require(outbox.file)
        let damagedLine = #"{"add":{"id":"two","frame":{"messagePayload":{"type":"text","text":"two"}"#  // cut
        let original = try String(contentsOf: file, encoding: .utf8) + damagedLine + "\n"
        try Data(original.utf8).write(to: file)

        let reloaded = try Outbox(folder: folder, channelId: "c", userId: "u")
        #expect(reloaded.items.map(\.id) == ["one"])
        #expect(reloaded.damaged.map(\.code) == [.clientRecordDamaged])
        let copies = try Self.damagedCopies(in: folder, of: file.lastPathComponent)
        #expect(copies.count == 1)
        let kept = try String(contentsOf: folder.appendingPathComponent(try #require(copies.first)), encoding: .utf8)
        #expect(kept == original, "the file is kept as it was, the damaged line with it")
        // Loaded again, the rewritten file has nothing damaged.
        #expect(try Outbox(folder: folder, channelId: "c", userId: "u").damaged.isEmpty)
    }

    @Test func aTranscriptLineThatCannotBeReadIsKeptAside() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try TranscriptStore(folder: folder, channelId: "c", userId: "u")
        try store.append(ChatMessage(id: "m1", envelope: .skill(SkillMessage(payload: .text("hello"), userId: "u"))))
        let file = try #require(store.file)
        let original = try String(contentsOf: file, encoding: .utf8) + "{\"id\":\"m2\",\"envelo\n"
        try Data(original.utf8).write(to: file)

        let reloaded = try TranscriptStore(folder: folder, channelId: "c", userId: "u")
        #expect(reloaded.messages.map(\.id) == ["m1"])
        #expect(reloaded.damaged.map(\.code) == [.clientRecordDamaged])
        let copies = try Self.damagedCopies(in: folder, of: file.lastPathComponent)
        #expect(copies.count == 1)
        #expect(
            try String(contentsOf: folder.appendingPathComponent(try #require(copies.first)), encoding: .utf8)
                == original)
        let again = try TranscriptStore(folder: folder, channelId: "c", userId: "u")
        #expect(again.damaged.isEmpty && again.messages.map(\.id) == ["m1"])
    }

    @Test func anUnfinishedUploadThatCannotBeReadIsKeptAsideNotDeleted() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try UploadStore(folder: folder, channelId: "c", userId: "u")
        try store.add(.init(id: "good", fileName: "a.png", mimeType: "image/png", data: Data([1, 2, 3])))
        try store.add(.init(id: "bad", fileName: "b.png", mimeType: "image/png", data: Data([4, 5, 6])))
        let uploads = try #require(store.folder)
        try Data("{\"id\":".utf8).write(to: uploads.appendingPathComponent("bad.json"))
        try Data([7, 8]).write(to: uploads.appendingPathComponent("orphan.data"))

        let reloaded = try UploadStore(folder: folder, channelId: "c", userId: "u")
        #expect(reloaded.entries.map(\.id) == ["good"])
        #expect(reloaded.damaged.count == 2)
        #expect(reloaded.damaged.allSatisfy { $0.code == .clientRecordDamaged })
        let names = try FileManager.default.contentsOfDirectory(atPath: uploads.path)
        #expect(names.contains { $0.hasPrefix("bad.json.damaged-") })
        #expect(names.contains { $0.hasPrefix("bad.data.damaged-") }, "the bytes are kept with their record")
        #expect(names.contains { $0.hasPrefix("orphan.data.damaged-") })
        #expect(!names.contains("bad.json") && !names.contains("orphan.data"))
    }
}
