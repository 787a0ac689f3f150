import Foundation
import ParleyCore
import Testing

@testable import ParleyServer

/// `StoredMessage.wireTexts` appends `sequence` to the plain text instead of encoding a reply twice: it must give
/// exactly what encoding ``StoredMessage/wireFrame`` gives.
@Suite struct WireTextsTests {
    /// The seed's skill messages (the examples in ParleyCoreTests' fixtures).
    static let seedMessages: [SkillMessage] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ParleyCoreTests/Fixtures/seed")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("SkillMessage.") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                return nil
            }
            return try? SkillMessage(decoding: String(decoding: data, as: UTF8.self))
        }
    }()

    @Test func theSeedsRepliesGetTheSameTextAsTheirWireFrame() throws {
        #expect(Self.seedMessages.count >= 2)
        for (index, message) in Self.seedMessages.enumerated() {
            let stored = StoredMessage(
                sequence: 7, frame: .skill(message), createdAt: Date(timeIntervalSince1970: 0), outbound: index + 1)
            let texts = stored.wireTexts
            #expect(texts.withSequence == stored.wireFrame.jsonString())
            #expect(texts.plain == message.jsonString())
            #expect(texts.withSequence.hasSuffix(#","sequence":\#(index + 1)}"#))
        }
    }

    /// What a store encodes to keep is the wire frame's text, and the message sent afterwards carries both texts
    /// without being a different message.
    @Test func theTextsAStoreEncodedTravelWithTheMessage() throws {
        let message = try #require(Self.seedMessages.first)
        let plain = StoredMessage(sequence: 2, frame: .skill(message), createdAt: Date(), outbound: 1)
        var stored = plain
        #expect(stored.encodeWireFrame() == plain.wireFrame.jsonString())
        #expect(stored == plain)
        #expect(Set([stored, plain]).count == 1)
        // A changed frame or number is encoded again.
        stored.frame = .skill(SkillMessage(payload: .text("changed")))
        #expect(stored.wireTexts.withSequence == stored.wireFrame.jsonString())
        stored.outbound = 9
        #expect(stored.wireTexts.withSequence.hasSuffix(#","sequence":9}"#))
    }

    /// A skill that set a `sequence` member of its own: the wire frame replaces it where it stands.
    @Test func aSkillsOwnSequenceMemberIsReplacedNotRepeated() throws {
        var message = SkillMessage(payload: .text("hi"), userId: "ann", extra: ["sequence": "mine", "z": 1])
        message.msgId = "m1"
        let stored = StoredMessage(sequence: 3, frame: .skill(message), createdAt: Date(), outbound: 12)
        #expect(stored.wireTexts.withSequence == stored.wireFrame.jsonString())
        #expect(stored.wireTexts.withSequence.contains(#""sequence":12,"z":1}"#))
    }

    /// A user's input is sent as it was stored, to both kinds of socket.
    @Test func aUsersInputIsItsWireFrame() throws {
        let input = InputFrame.message(UserMessage.text("hello", user: "ann"))
        let stored = StoredMessage(sequence: 1, frame: .user(input), createdAt: Date(), pending: true)
        #expect(stored.wireTexts.withSequence == stored.wireFrame.jsonString())
        #expect(stored.wireTexts.plain == stored.wireFrame.jsonString())
    }
}
