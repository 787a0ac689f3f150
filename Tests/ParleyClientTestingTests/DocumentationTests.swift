// swift-format-ignore-file
// (The examples are copied verbatim from ParleyClientTesting's Getting Started article.)
import Foundation
import ParleyClientTesting
import Testing

/// The Swift examples of ParleyClientTesting's Getting Started article, run. `everyExampleIsHere` fails when the
/// article changes and this file does not.
@Suite("ParleyClientTesting Getting Started", .timeLimit(.minutes(1)))
struct DocumentationTests {
    @Test func theArticleRuns() async throws {
        let (transport, server) = InMemoryTransport.pair()
        let clock = VirtualClock()
        let client = ChatClient(
            configuration: .init(url: URL(string: "http://parley.test")!, channelId: "demo"), transport: transport,
            clock: clock, random: SeededRandomNumberGenerator(seed: 7))
        let initializing = Task { try await client.initialize() }
        var connections = server.connections.makeAsyncIterator()
        let connection = await connections.next()!
        var inbound = connection.inbound.makeAsyncIterator()
        _ = await inbound.next()                            // Parley's hello, {"state":{"type":"parley",…}}
        _ = await inbound.next()                            // {"state":{"type":"ping"}}
        await connection.send(#"{"state":{"type":"pong"}}"#)
        try await initializing.value

        await clock.waitForSleepers(1)          // the heartbeat task sleeps
        await clock.advance(by: .seconds(30))   // …and wakes up to send its ping
        _ = await inbound.next()                // {"state":{"type":"ping"}}
        await client.destroy()
    }

    @Test func everyExampleIsHere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let article = root.appendingPathComponent("Sources/ParleyClientTesting/ParleyClientTesting.docc/GettingStarted.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        var count = 0
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        for block in blocks {
            count += 1
            for line in block.split(separator: "\n") {
                #expect(sourceLines.contains(line.trimmingCharacters(in: .whitespaces)), "not compiled here: \(line)")
            }
        }
        #expect(count == 2)
    }
}
