import Foundation
import Testing

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Health", .serialized, .timeLimit(.minutes(1)))
struct HealthTests {
    /// A node on its own SQLite file is live and ready, with JSON bodies a load balancer or a person can read.
    @Test func aNodeOnSQLiteIsLiveAndReady() async throws {
        try await withServer(channels: [ChannelConfiguration(id: "echo", skill: .echo)]) { server in
            for (path, status) in [("/health/live", "live"), ("/health/ready", "ready")] {
                let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
                let (body, response) = try await URLSession.shared.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(path)")
                #expect(try JSONValue(parsing: body)["status"]?.stringValue == status, "\(path)")
                #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            }
        }
    }
}
