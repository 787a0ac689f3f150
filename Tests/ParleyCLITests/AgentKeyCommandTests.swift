import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The agent key kept out of the process list (issue 33): `parley serve` reads it from a file or the environment, and
/// `parley token --agent NAME` mints an agent's token with it; the agent signs in with the token as NAME.
@Suite("parley serve's agent key and parley token --agent", .serialized, .timeLimit(.minutes(2)))
struct AgentKeyCommandTests {
    static let key = "a-long-random-agent-key-0123456789abcdef"

    @Test func theKeyComesFromAFileAndStaysOutOfTheProcessList() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("agent-key")
        try Data((Self.key + "\n").utf8).write(to: keyFile)
        let server = try await Self.serve(
            ["--port", "0", "--data", folder.appendingPathComponent("data").path, "--agent-key-file", keyFile.path])
        let port = try await server.listeningPort()
        #expect(server.output.contains("agent console: http://127.0.0.1:\(port)/agent"))
        #expect(!(server.output + server.errors).contains("warning: the agent key"), "a long key")
        #if os(Linux)
            let commandLine = try String(contentsOfFile: "/proc/\(server.pid)/cmdline", encoding: .utf8)
            #expect(!commandLine.contains(Self.key), "the key is not in the process's arguments")
        #endif
        let minted = try await DecodeCommandTests().parley(["token", "--agent", "Ava", "--secret-file", keyFile.path])
        #expect(minted.status == 0, "\(minted.output)")
        try await Self.expectSignIn(port: port, token: minted.output, as: "Ava")
        try await server.stop()
    }

    @Test func theKeyComesFromTheEnvironment() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await Self.serve(
            ["--port", "0", "--data", folder.appendingPathComponent("data").path],
            environment: ["PARLEY_AGENT_KEY": Self.key])
        let port = try await server.listeningPort()
        #expect(server.output.contains("agent console:"))
        let minted = try await Self.parley(["token", "--agent", "Bea"], environment: ["PARLEY_AGENT_KEY": Self.key])
        #expect(minted.status == 0, "\(minted.output)")
        let claims = try AgentToken.verify(
            minted.output.trimmingCharacters(in: .whitespacesAndNewlines), key: Self.key, now: Date())
        #expect(claims.agent == "Bea")
        #expect(claims.expiresAt.timeIntervalSince(claims.issuedAt) == 8 * 3600, "an 8 hour shift by default")
        try await Self.expectSignIn(port: port, token: minted.output, as: "Bea")
        // The key itself does not sign in.
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let withKey = try await ScriptedAgent.connect(to: url, token: Self.key)
        #expect(try await withKey.next("error")["error"]?["code"] == "auth.invalidToken")
        await withKey.close()
        try await server.stop()
    }

    @Test func anAgentTokenNeedsTheKeyAndLivesAtMostADay() async throws {
        let noKey = try await Self.parley(["token", "--agent", "Ava"], environment: [:])
        #expect(noKey.status != 0)
        #expect(noKey.output.contains("the agent key is needed"), "\(noKey.output)")
        let tooLong = try await Self.parley(
            ["token", "--agent", "Ava", "--ttl", "2d"], environment: ["PARLEY_AGENT_KEY": "k"])
        #expect(tooLong.status != 0)
        #expect(tooLong.output.contains("at most 24h"), "\(tooLong.output)")
        let both = try await Self.parley(
            ["token", "--agent", "Ava", "--channel", "c", "--user", "u", "--secret", "s"], environment: [:])
        #expect(both.status != 0)
        let empty = try await Self.parley(["serve", "--agent-key", ""], environment: [:])
        #expect(empty.status != 0)
        #expect(empty.output.contains("--agent-key must not be empty"), "\(empty.output)")
    }

    static func expectSignIn(port: Int, token: String, as name: String) async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let agent = try await ScriptedAgent.connect(
            to: url, token: token.trimmingCharacters(in: .whitespacesAndNewlines),
            agent: AgentSession(name: "Somebody else"))
        #expect(try await agent.next("welcome")["agent"]?["name"] == .string(name))
        #expect(try await agent.next("queue")["conversations"] == [])
        await agent.close()
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-agent-key-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `parley` with `arguments` and exactly `environment` (plus PATH and HOME); its status and output.
    static func parley(_ arguments: [String], environment: [String: String]) async throws -> DecodeCommandTests.Run {
        try await DecodeCommandTests().parley(arguments, environment: Self.baseEnvironment.merging(environment) { $1 })
    }

    /// `parley serve` with `arguments` and exactly `environment` (plus PATH and HOME), once it listens.
    static func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        try await ServerProcess.start(arguments, environment: baseEnvironment.merging(environment) { $1 })
    }

    static var baseEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { ["PATH", "HOME", "TMPDIR"].contains($0.key) }
    }
}
