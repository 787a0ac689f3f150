import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `parley serve` bootstraps Prometheus and serves `/metrics` (docs/deploy.md, "Metrics"), as an operator runs it.
@Suite("parley serve metrics", .serialized, .timeLimit(.minutes(2)))
struct ServeMetricsTests {
    @Test func serveServesMetricsToLoopbackClients() async throws {
        let data = temporaryDataFolder("metrics")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(["--port", "0", "--data", data.path])
        let port = try await server.listeningPort()
        #expect(server.output.contains("metrics: http://127.0.0.1:\(port)/metrics (Prometheus, loopback clients only)"))
        // One call to the store, measured by the server's decorator.
        #expect(try await httpGet("http://127.0.0.1:\(port)/health/ready").status == 200)
        let (status, body) = try await httpGet("http://127.0.0.1:\(port)/metrics")
        #expect(status == 200)
        #expect(body.contains(#"parley_open_sockets{kind="chat"} 0"#), "\(body)")
        #expect(body.contains(#"parley_store_duration_seconds_count{operation="checkReadiness"} 1"#), "\(body)")
        let proxied = try await Self.get("http://127.0.0.1:\(port)/metrics", ["X-Forwarded-For": "203.0.113.9"])
        #expect(proxied.status == 403)
        #expect(proxied.body.contains("metrics.forbidden"))
        try await server.stop()
    }

    @Test func theConfigurationFileSetsTheTokenAndThePath() async throws {
        let data = temporaryDataFolder("metrics")
        defer { try? FileManager.default.removeItem(at: data) }
        let config = try configurationFile(
            #"{"channels": [{"id": "echo", "skill": "echo"}], "metricsPath": "/ops/metrics", "metricsToken": "t0k"}"#)
        let server = try await ServerProcess.start(["--port", "0", "--data", data.path, "--config", config])
        let port = try await server.listeningPort()
        #expect(server.output.contains("/ops/metrics (Prometheus, with the metrics token)"))
        #expect(try await httpGet("http://127.0.0.1:\(port)/metrics").status == 404)
        #expect(try await httpGet("http://127.0.0.1:\(port)/ops/metrics").status == 401)
        let (status, body) = try await Self.get("http://127.0.0.1:\(port)/ops/metrics", ["Authorization": "Bearer t0k"])
        #expect(status == 200)
        #expect(body.contains(#"parley_errors_total{code="auth.invalidToken",via="http"} 1"#), "\(body)")
        try await server.stop()
    }

    @Test func noMetricsServesNone() async throws {
        let data = temporaryDataFolder("metrics")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await ServerProcess.start(["--port", "0", "--data", data.path, "--no-metrics"])
        let port = try await server.listeningPort()
        #expect(!server.output.contains("metrics:"))
        #expect(try await httpGet("http://127.0.0.1:\(port)/metrics").status == 404)
        try await server.stop()
    }

    /// `GET url` with `headers`: the status and the body.
    static func get(_ url: String, _ headers: [String: String]) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 5)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }
}
