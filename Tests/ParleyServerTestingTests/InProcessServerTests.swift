import Foundation
import ParleyServerTesting
import Testing

@Suite("In-process server", .timeLimit(.minutes(1)))
struct InProcessServerTests {
    @Test func itServesOnAFreePortAndStops() async throws {
        // A channel no other test's server has: should another server of the suite get the freed port, the
        // last connection is refused all the same.
        let channel = "in-process-\(UUID().uuidString)"
        let url = try await InProcessServer.run(channels: [ChannelConfiguration(id: channel)]) { server in
            #expect(server.port > 0)
            #expect(server.url.absoluteString == "http://127.0.0.1:\(server.port)")
            let client = ChatClient(configuration: .init(url: server.url, channelId: channel))
            try await client.initialize()
            #expect(await client.status == .connected)
            await client.destroy()
            return server.url
        }
        let client = ChatClient(configuration: .init(url: url, channelId: channel))
        await #expect(throws: ParleyError.self) { try await client.initialize() }
    }
}
