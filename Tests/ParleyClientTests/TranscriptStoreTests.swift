import Foundation
import ParleyClient
import ParleyCore
import Testing

/// The transcript file read back: long files are decoded on every core, and must come back exactly as written.
@Suite("Transcript store")
struct TranscriptStoreTests {
    @Test func aLongTranscriptComesBackInOrderWithItsChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-transcript-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try TranscriptStore(folder: folder, channelId: "c", userId: "u")
        for index in 0..<3_000 {
            let envelope: ChatMessage.Envelope =
                index.isMultiple(of: 2)
                ? .user(UserMessage(payload: .text("question \(index)"), userId: "u"))
                : .skill(SkillMessage(payload: .text("answer \(index)"), userId: "u"))
            try store.append(
                ChatMessage(id: "m\(index)", envelope: envelope, delivery: index.isMultiple(of: 2) ? .pending : nil))
            if index.isMultiple(of: 2) { try store.setDelivery(.acknowledged, of: "m\(index)") }
        }
        var replaced = try #require(store.message(id: "m1501"))
        replaced.payload = .text("answer 1501, edited")
        try store.replace(replaced)
        // A crash cut the last line short.
        let handle = try FileHandle(forWritingTo: try #require(store.file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"id":"m3000","envel"#.utf8))
        try handle.close()

        let loaded = try TranscriptStore(folder: folder, channelId: "c", userId: "u")
        #expect(loaded.messages.map(\.id) == (0..<3_000).map { "m\($0)" })
        // Everything but the dates, which the file keeps to the millisecond.
        func summary(_ messages: [ChatMessage]) -> [String] {
            messages.map { "\($0.id) \($0.sender) \($0.payload.text ?? "") \($0.delivery?.rawValue ?? "-")" }
        }
        #expect(summary(loaded.messages) == summary(store.messages))
        #expect(loaded.message(id: "m1501")?.payload.text == "answer 1501, edited")
        #expect(loaded.messages.filter { $0.delivery == .acknowledged }.count == 1_500)
    }
}
