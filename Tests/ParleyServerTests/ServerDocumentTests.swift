import Foundation
import Testing

@testable import ParleyServer

/// The JSON examples of `docs/server.md` are what the server reads and writes.
@Suite("docs/server.md examples")
struct ServerDocumentTests {
    static func examples() throws -> [JSONValue] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/server.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.components(separatedBy: "```json\n").dropFirst().map {
            try JSONValue(parsing: $0.components(separatedBy: "\n```")[0])
        }
    }

    @Test func theConfigurationFileExampleLoads() throws {
        let file = try ServerConfigurationFile(json: #require(try Self.examples().first { $0["channels"] != nil }))
        #expect(file.channels.map(\.id) == ["web", "app", "bot", "old"])
        #expect(file.channels[0].allows(origin: "https://shop.example.com"))
        #expect(!file.channels[0].allows(origin: "https://evil.example.com"))
        #expect(file.channels[1].clientAuthenticationEnabled)
        #expect(file.channels[1].skill == .file("skills/support.json"))
        #expect(file.channels[2].skill == .webhook("https://bots.example.com/parley"))
        #expect(!file.channels[3].enabled)
        #expect(try ServerConfigurationFile(json: file.jsonValue).channels == file.channels)
    }

    @Test func theWebhookExamplesAreProtocolPayloads() throws {
        let examples = try Self.examples()
        let request = try #require(examples.first { $0["messagePayload"] != nil })
        #expect(try UserMessage(json: request).payload == .text("Order a pizza"))
        let answer = try #require(examples.first { $0["messages"] != nil })
        #expect(try [MessagePayload](json: #require(answer["messages"])).map(\.type) == [.text, .card])
    }

    @Test func configurationMistakesNameTheirPath() {
        let cases: [(String, ParleyError.Code, String)] = [
            (
                #"{"channels":[{"id":"a"},{"id":"b","maxTokenExpiryMinutes":"60"}]}"#, .typeMismatch,
                "$.channels[1].maxTokenExpiryMinutes"
            ),
            (#"{"channels":[{"name":"no id"}]}"#, .missingField, "$.channels[0].id"),
            (#"{"channels":[{"id":"a"},{"id":"a"}]}"#, .invalidValue, "$.channels[1].id"),
            (#"{"channels":[{"id":"a","clientAuthenticationEnabled":true}]}"#, .invalidValue, "$.channels[0].secret"),
            (#"{"channels":[{"id":"a","skill":{"fiel":"x.json"}}]}"#, .invalidValue, "$.channels[0].skill"),
            (#"{"channels":[{"id":"a","skill":""}]}"#, .invalidValue, "$.channels[0].skill"),
            (#"{"chanels":[]}"#, .missingField, "$.channels"),
            (#"{"channels":[{"id":"a","secrt":"x"}]}"#, .invalidValue, "$.channels[0].secrt"),
        ]
        for (json, code, path) in cases {
            do {
                _ = try ServerConfigurationFile(decoding: json)
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.code == code, "\(json)")
                #expect(error.path?.description == path, "\(json)")
            }
        }
    }
}
