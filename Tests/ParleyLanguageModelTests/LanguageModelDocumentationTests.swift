import Foundation
import ParleyLanguageModel
import Testing

/// docs/skills.md's language-model example, compiled here (not run: it needs a local Ollama); the test checks that
/// every line of the document's example is one of these.
@Suite struct LanguageModelDocumentationTests {
    static func documentedExample() async throws {
        let skill = try LanguageModelSkill(
            configuration: LanguageModelConfiguration(
                url: "http://127.0.0.1:11434/v1", model: "llama3.2",
                instructions: "You are Parley Pizza's assistant. We sell margherita, hawaiian and cheese pizzas."))
        let context = SkillContext(channelId: "web", userId: "ada")
        for try await event in skill.stream(.message(.text("Which pizzas do you have?")), in: context) {
            switch event {
            case .text(let piece): print(piece, terminator: "")
            case .response(let response): print("\n", response.messages.map { $0.text ?? "" })
            }
        }
    }

    @Test func theDocumentsExampleIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/skills.md"), encoding: .utf8)
        let example = try #require(
            document.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
                .first { $0.contains("import ParleyLanguageModel") })
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let lines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in example.split(separator: "\n") {
            #expect(lines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
        }
    }

    /// The configuration examples of docs/skills.md's "Language models" read as configurations: a channel's `llm`
    /// skill, and the configuration alone.
    @Test func theDocumentsConfigurationsRead() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/skills.md"), encoding: .utf8)
        let blocks = document.components(separatedBy: "```json\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }.filter { $0.contains("\"model\"") }
        #expect(blocks.count == 2)
        for block in blocks {
            let json = try JSONValue(parsing: block)
            let configuration = json["channels"]?[0]?["skill"]?["llm"] ?? json
            #expect(try LanguageModelConfiguration(json: configuration).model == "llama3.2")
        }
    }
}
