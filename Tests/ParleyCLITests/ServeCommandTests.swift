import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `parley serve` and `parley token`, run as a user runs them.
@Suite("parley serve and parley token", .serialized, .timeLimit(.minutes(2)))
struct ServeCommandTests {
    @Test func tokenMintsAVerifiableToken() async throws {
        let run = try await DecodeCommandTests().parley([
            "token", "--channel", "ch1", "--secret", "s3cret", "--user", "ann", "--ttl", "1h",
        ])
        #expect(run.status == 0)
        let parts = run.output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        #expect(parts.count == 3)
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let payloadData = try #require(Data(base64Encoded: payload))
        let claims = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        #expect(claims["channelId"] as? String == "ch1")
        #expect(claims["userId"] as? String == "ann")
        let issued = try #require(claims["iat"] as? Double)
        #expect(claims["exp"] as? Double == issued + 3600)
        let bad = try await DecodeCommandTests().parley([
            "token", "--channel", "c", "--secret", "s", "--user", "u", "--ttl", "soon",
        ])
        #expect(bad.status != 0)
        #expect(bad.output.contains("--ttl soon is not a duration"))
    }

    @Test func serveWithNoFlagsServesTheDemoAndPrintsItsChannel() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID())")
        let server = try await ServerProcess.start(["--port", "0", "--data", data.path])
        let banner = server.output
        #expect(banner.contains("Parley is listening on http://127.0.0.1:"))
        #expect(banner.contains("channel demo (open): ws://127.0.0.1:"))
        #expect(banner.contains("channelId=demo"))
        let port = try await server.listeningPort()
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "ok")
        try await server.stop()
    }

    @Test func serveWithGMSServesTheSimulator() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-serve-\(UUID())")
        let server = try await ServerProcess.start(["--gms", "--port", "0", "--data", data.path])
        #expect(server.output.contains("GMS simulator: http://127.0.0.1:"))
        #expect(server.output.contains("/genesys/cometd"))
        let port = try await server.listeningPort()
        let url = URL(string: "http://127.0.0.1:\(port)/genesys/1/service/S1/get-dialog-start-chat")!
        let (body, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"_action\":\"StartChat\""))
        try await server.stop()
    }
}
