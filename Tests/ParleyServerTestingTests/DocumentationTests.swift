// swift-format-ignore-file
// (The examples are copied verbatim from the Getting Started articles of ParleyServer and ParleyServerTesting.)
import Foundation
import Hummingbird
import ParleyServerTesting
import Testing

/// The Swift examples of ParleyServer's and ParleyServerTesting's Getting Started articles, compiled (and run, where
/// they do not serve forever). `everyExampleIsHere` fails when an article changes and this file does not.
@Suite("ParleyServer and ParleyServerTesting Getting Started", .serialized, .timeLimit(.minutes(1)))
struct DocumentationTests {
    /// Compiled, not run: it serves until the process stops.
    func serverArticle() async throws {
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 8080, dataDirectory: URL(fileURLWithPath: ".parley-data"),
            channels: [
                ChannelConfiguration(id: "demo", skill: .demo),
                ChannelConfiguration(id: "secure", secret: "change me", clientAuthenticationEnabled: true, skill: .echo),
            ])
        let app = try await buildApplication(configuration: configuration)
        try await app.runService()
    }

    @Test func theTokenExampleMintsAValidToken() throws {
        let token = ChannelToken.mint(channelId: "secure", userId: "alice", secret: "change me", lifetime: 1800)
        let claims = try TokenClaims(token: token)
        #expect(claims.channelId == "secure")
        #expect(claims.expiresAt - claims.issuedAt == 1800)
    }

    @Test func theTestingArticleRuns() async throws {
        try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo", skill: .demo)]) { server in
            let client = ChatClient(configuration: .init(url: server.url, channelId: "demo"))
            try await client.initialize()
            try await client.send(text: "Order Pizza")
            await client.destroy()

            let clock = VirtualClock()
            let timed = ChatClient(
                configuration: .init(url: server.url, channelId: "demo"), clock: clock,
                random: SeededRandomNumberGenerator(seed: 7))
            try await timed.initialize()
            await clock.advance(by: .seconds(30))   // the heartbeat's ping goes out now
            await timed.destroy()

            let proxy = try await FaultProxy.start(
                upstreamPort: server.port, faults: .init(seed: 1, duplicate: 0.1, reorder: 0.1))
            let unreliable = ChatClient(configuration: .init(url: proxy.url, channelId: "demo"))
            try await unreliable.initialize()
            await proxy.setBlackHole(true)      // a zombie socket: open, but nothing gets through
            await proxy.setBlackHole(false)
            await unreliable.destroy()
            await proxy.stop()
        }
    }

    @Test(arguments: ConversationStoreConformance.Check.allCases)
    func myStoreConforms(check: ConversationStoreConformance.Check) async throws {
        let conformance = ConversationStoreConformance { body in
            try await body(InMemoryConversationStore(), nil)  // nil: the data does not outlive the store
        }
        try await conformance.run(check)
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var count = 0
        for article in ["ParleyServer/ParleyServer.docc", "ParleyServerTesting/ParleyServerTesting.docc"] {
            let text = try String(
                contentsOf: root.appendingPathComponent("Sources/\(article)/GettingStarted.md"), encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst().map({ $0.components(separatedBy: "```")[0] }) {
                count += 1
                for line in block.split(separator: "\n") {
                    #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
                }
            }
        }
        #expect(count == 6)
    }
}
