import Foundation
import ParleyServerTesting
import Testing

@testable import ParleyServer

/// An app's own Swift skill, registered by name with `buildApplication(configuration:skills:)` and named by a
/// channel, answers over a real socket; a name nobody registered and a built-in's name are refused at start.
@Suite("App skills in the embedded server", .serialized, .timeLimit(.minutes(2)))
struct AppSkillTests {
    /// Remembers how many messages it answered in the conversation's state, so the test also sees that the server
    /// stores and hands back an app skill's state between turns.
    struct CountingSkill: Skill {
        func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
            guard case .message(let payload) = input else { return SkillResponse(messages: []) }
            var state = context.state
            let count = (state.variables["count"]?.intValue ?? 0) + 1
            state.variables["count"] = .number(Double(count))
            return SkillResponse(
                messages: [.text("#\(count) from \(context.channelId): \(payload.text ?? "")")], state: state)
        }
    }

    @Test func aChannelNamingTheAppsSkillIsAnsweredByIt() async throws {
        let channels = [ChannelConfiguration(id: "orders", skill: .named("counter"))]
        try await InProcessServer.run(channels: channels, skills: ["counter": CountingSkill()]) { server in
            let server = TestServer(port: server.port, dataDirectory: server.dataDirectory)
            try await server.chat(channel: "orders", user: "ada") { socket in
                try await socket.send(UserMessage.text("hello", user: "ada"))
                #expect(try await socket.receiveTurn().map(\.payload.text) == ["#1 from orders: hello"])
                try await socket.send(UserMessage.text("again", user: "ada"))
                #expect(try await socket.receiveTurn().map(\.payload.text) == ["#2 from orders: again"])
            }
        }
    }

    @Test func theConfigurationFileNamesAnAppSkillByAString() throws {
        let reference = try SkillReference(json: "counter")
        #expect(reference == .named("counter"))
        #expect(reference.jsonValue == "counter")
        #expect(try SkillReference(json: "demo") == .demo)
        #expect(throws: ParleyError.self) { try SkillReference(json: "") }
    }

    @Test func aNameNoSkillHasStopsTheStartWithTheNamesThereAre() async throws {
        let channels = [ChannelConfiguration(id: "orders", skill: .named("ordres"))]
        let error = await #expect(throws: ParleyError.self) {
            try await InProcessServer.run(channels: channels, skills: ["orders": CountingSkill()]) { _ in }
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("\"ordres\"") == true)
        #expect(error?.message.contains("\"orders\"") == true)
    }

    @Test func aBuiltInNameCannotBeRegistered() async throws {
        let error = await #expect(throws: ParleyError.self) {
            try await InProcessServer.run(
                channels: [ChannelConfiguration(id: "web")], skills: ["demo": CountingSkill()]
            ) { _ in }
        }
        #expect(error?.code == .invalidValue)
    }

    /// docs/skills.md's example of an app's skill, compiled here (not run: it serves until stopped); the test below
    /// checks that every line of the document's example is one of these.
    struct OrderStatusSkill: Skill {
        func respond(to input: SkillInput, in context: SkillContext) async throws -> SkillResponse {
            guard case .message(let payload) = input, let text = payload.text else {
                return SkillResponse(messages: [])
            }
            return SkillResponse(messages: [.text("You asked about: \(text)")])
        }
    }

    static func documentedServer() async throws {
        let configuration = ServerConfiguration(
            port: 8080, dataDirectory: URL(fileURLWithPath: ".parley-data"),
            channels: [ChannelConfiguration(id: "orders", skill: .named("orders"))])
        let app = try await buildApplication(configuration: configuration, skills: ["orders": OrderStatusSkill()])
        try await app.runService()
    }

    @Test func theDocumentsExampleIsCompiledHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/skills.md"), encoding: .utf8)
        let example = try #require(
            document.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
                .first { $0.contains("buildApplication(") })
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let lines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in example.split(separator: "\n") {
            #expect(lines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
        }
    }
}
