import Foundation
import ParleyTesting
import Testing

@Suite("In-process server", .timeLimit(.minutes(1)))
struct InProcessServerTests {
    @Test func itServesOnAFreePortAndStops() async throws {
        let url = try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo")]) { server in
            #expect(server.port > 0)
            #expect(server.url.absoluteString == "http://127.0.0.1:\(server.port)")
            let client = ChatClient(configuration: .init(url: server.url, channelId: "demo"))
            try await client.initialize()
            #expect(await client.status == .connected)
            await client.destroy()
            return server.url
        }
        let client = ChatClient(configuration: .init(url: url, channelId: "demo"))
        await #expect(throws: ParleyError.self) { try await client.initialize() }
    }
}
