import Foundation
import ParleyCore
import Testing

/// Every JSON example in `docs/protocol.md` is valid, decodes as what it shows, and re-encodes to equal JSON; every
/// payload type has an example.
@Suite("docs/protocol.md examples")
struct ProtocolDocumentTests {
    static func examples() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/protocol.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
    }

    /// The payload an example shows, if it shows one (a message or a bare payload).
    static func payload(in json: JSONValue) throws -> MessagePayload? {
        guard let object = json.objectValue else { return nil }
        if object["messagePayload"] != nil {
            // Either envelope reads either direction's message (the other's fields stay as unknown keys).
            let skill = try SkillMessage(json: json)
            let user = try UserMessage(json: json)
            #expect(skill.jsonValue == json)
            #expect(user.jsonValue == json)
            return skill.payload
        }
        if let type = object["type"]?.stringValue,
            MessagePayload.Content.knownTypes.contains(PayloadType(rawValue: type))
        {
            let payload = try MessagePayload(json: json)
            #expect(payload.jsonValue == json)
            return payload
        }
        if object["state"] != nil || object["profile"] != nil {
            #expect(try ClientFrame(json: json).jsonValue == json)
        }
        if object["suggestions"] != nil {
            #expect(try ServerFrame(json: json).jsonValue == json)
        }
        return nil
    }

    @Test func everyExampleIsValidAndEveryPayloadTypeHasOne() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 40)
        var shown: Set<PayloadType> = []
        for (index, example) in examples.enumerated() {
            do {
                let json = try JSONValue(parsing: example)
                if let payload = try Self.payload(in: json) {
                    #expect(payload.content != .unknown(payload.type), "example \(index + 1) has an unknown type")
                    shown.insert(payload.type)
                }
            } catch {
                Issue.record("example \(index + 1) does not decode: \(error)\n\(example)")
            }
        }
        let missing = MessagePayload.Content.knownTypes.subtracting(shown)
        #expect(missing.isEmpty, "payload types without an example: \(missing.map(\.rawValue).sorted())")
    }
}
