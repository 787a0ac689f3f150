// The Swift examples of docs/skills.md and ParleySkills.docc/GettingStarted.md, compiled and run;
// the JSON examples of docs/skills.md, loaded.
import Foundation
import ParleySkills
import Testing

@Suite struct DocumentationTests {
    static let skillsDocument = "docs/skills.md"
    static let gettingStarted = "Sources/ParleySkills/ParleySkills.docc/GettingStarted.md"

    /// The fenced blocks of `language` in `document`.
    static func blocks(_ language: String, in document: String) throws -> [String] {
        try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
            .components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func theHelloExample() async throws {
        let json = try Self.blocks("json", in: Self.skillsDocument)[0]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let hello = try ScriptedSkill(contentsOf: url)  // url: a file holding the definition above
        let context = SkillContext(channelId: "web", userId: "ada")
        let response = try await hello.respond(to: .message(.text("hi")), in: context)
        print(response.messages.map { $0.text ?? "" })  // ["Hi there! Say bye when you are done."]
        #expect(response.messages.map { $0.text ?? "" } == ["Hi there! Say bye when you are done."])
        var state = response.state(after: context.state)
        #expect(
            try await hello.respond(to: .message(.text("pizza")), state: &state).map(\.text) == ["You said: pizza"])
        #expect(
            try await hello.respond(to: .message(.text("OK bye")), state: &state).map(\.type) == [
                .text, .sessionClosed,
            ])
    }

    @Test func everyJSONExampleLoads() throws {
        // The language-model configuration's examples are read by ParleyLanguageModel's tests and the server's.
        let blocks = try Self.blocks("json", in: Self.skillsDocument).filter { !$0.contains("\"model\"") }
        #expect(blocks.count == 2)
        for block in blocks {
            let json = try JSONValue(parsing: block)
            if json["states"] != nil {
                _ = try SkillDefinition(json: json)
            } else {
                #expect(try ConversationState(json: json).state == "askSize")
            }
        }
    }

    @Test func everyErrorCodeIsDocumented() throws {
        let document = try String(
            contentsOf: repositoryRoot.appendingPathComponent(Self.skillsDocument), encoding: .utf8)
        let codes: [ParleyError.Code] = [
            .skillInvalidDefinition, .skillUnknownKey, .skillUnknownState, .skillInvalidRegex, .skillInvalidTemplate,
            .skillUnknownVariable, .skillUnreadable, .skillFailed, .skillStateUnreadable, .missingField, .typeMismatch,
            .malformedJSON,
        ]
        for code in codes {
            #expect(document.contains("`\(code.rawValue)`"), "\(code) is not in docs/skills.md")
        }
    }

    @Test func gettingStarted() async throws {
        let definition = try SkillDefinition(
            decoding: #"""
                {"name": "Crust", "start": "ask",
                 "states": {"ask": {"say": [{"type": "text", "text": "Thin or thick?"}],
                                    "on": [{"keyword": ["thin", "thick"], "set": {"crust": "{{match.0}}"}, "goto": "done"}]},
                            "done": {"say": [{"type": "text", "text": "A {{crust}} crust it is."}]}}}
                """#)
        let skill = ScriptedSkill(definition: definition)

        var context = SkillContext(channelId: "web", userId: "ada")
        let question = try await skill.respond(to: .message(.text("hello")), in: context)
        context.apply(question)
        print(question.messages.compactMap(\.text))  // ["Thin or thick?"]
        let answer = try await skill.respond(to: .message(.text("Thick, please")), in: context)
        context.apply(answer)
        print(answer.messages.compactMap(\.text))  // ["A thick crust it is."]
        print(context.state.variables["crust"]!)  // "thick"
        #expect(question.messages.compactMap(\.text) == ["Thin or thick?"])
        #expect(answer.messages.compactMap(\.text) == ["A thick crust it is."])
        #expect(context.state.variables["crust"]?.description == #""thick""#)

        let stored = context.state.jsonString()
        context.state = try ConversationState(decoding: stored)
        #expect(context.state.state == "done")
    }

    @Test func everySwiftExampleIsHere() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let all = try Self.blocks("swift", in: Self.skillsDocument) + Self.blocks("swift", in: Self.gettingStarted)
        // The examples that need the server or the language-model skill are compiled by those modules' tests
        // (AppSkillTests, LanguageModelDocumentationTests), which check their lines the same way.
        let elsewhere = all.filter { $0.contains("buildApplication(") || $0.contains("import ParleyLanguageModel") }
        let blocks = all.filter { block in !elsewhere.contains(block) }
        #expect(elsewhere.count == 2)
        #expect(blocks.count == 4)
        for block in blocks {
            for line in block.split(separator: "\n") {
                let isCompiled = sourceLines.contains(line.trimmingCharacters(in: .whitespaces))
                #expect(isCompiled, "example line not compiled here: \(line)")
            }
        }
    }
}
