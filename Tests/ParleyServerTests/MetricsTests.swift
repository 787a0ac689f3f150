import Foundation
import Logging
import NIOWebSocket
import Prometheus
import Testing
import WSClient

@testable import ParleyServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's metrics, read the way Prometheus reads them: `GET /metrics` on the real server. Each test gives the
/// server a Prometheus factory on a registry of its own (a process bootstraps `MetricsSystem` only once).
@Suite("Metrics", .serialized, .timeLimit(.minutes(1)))
struct MetricsTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    @Test func aChatMovesTheCountersAndTheSocketGaugeFallsBackToZero() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(channels: [Self.echo], configure: { $0.metricsFactory = Self.factory(registry) }) {
            server in
            let before = try await Self.scrape(server)
            #expect(before.value(ServerMetrics.openSockets, ["kind": "chat"]) == 0)
            #expect(before.value(ServerMetrics.messagesReceived, ["channel": "echo"]) == 0)  // made at start, at 0

            try await Self.chatOnce(server)
            // A second socket resumes from a cursor: a reconnect.
            try await server.chat(channel: "echo", user: "ann") { socket in
                try await socket.send(ParleyHello(resumeAfter: 1).stateFrame)
                _ = try await socket.receive()  // the welcome
            }
            try await Self.eventually("the chat sockets to close") {
                Samples(registry.emitToString()).value(ServerMetrics.openSockets, ["kind": "chat"]) == 0
            }

            let after = try await Self.scrape(server)
            #expect(after.value(ServerMetrics.openSockets, ["kind": "chat"]) == 0)
            #expect(after.value(ServerMetrics.openSockets, ["kind": "agent"]) == 0)
            #expect(after.value(ServerMetrics.messagesReceived, ["channel": "echo"]) == 1)
            #expect(after.value(ServerMetrics.messagesSent, ["channel": "echo", "source": "skill"]) == 1)
            #expect(after.value(ServerMetrics.errors, ["code": "json.malformed", "via": "socket"]) == 1)
            #expect(after.value(ServerMetrics.reconnects, ["channel": "echo"]) == 1)
            #expect(after.value(ServerMetrics.skillTurnDuration + "_count", ["channel": "echo"]) == 1)
            #expect(after.value(ServerMetrics.storeDuration + "_count", ["operation": "receive"]) == 1)
            #expect(after.value(ServerMetrics.storeDuration + "_count", ["operation": "answer"]) == 1)
            // Two hellos, each reading the conversation.
            #expect(after.value(ServerMetrics.storeDuration + "_count", ["operation": "conversation"]) == 2)
            #expect((after.value(ServerMetrics.storeDuration + "_sum", ["operation": "receive"]) ?? 0) > 0)
            #expect(after.value(ServerMetrics.storeErrors, ["operation": "receive"]) == nil)
        }
    }

    /// One chat: a hello, a message and its echo, a frame that is not JSON, which gets a `json.malformed` error.
    private static func chatOnce(_ server: TestServer) async throws {
        try await server.chat(channel: "echo", user: "ann") { socket in
            try await socket.send(ParleyHello().stateFrame)
            _ = try await socket.receive()  // the welcome
            try await socket.send(UserMessage.text("hello", user: "ann"))
            #expect(try await socket.receiveMessage().payload.text == "hello")
            try await socket.send("{")
            let error = try await socket.receiveMessage()
            guard case .error(let content) = error.payload.content else {
                Issue.record("expected an error payload, got \(error)")
                return
            }
            #expect(content.errorCode == .malformedJSON)
        }
    }

    @Test func theGaugeCountsAnOpenSocket() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(channels: [Self.echo], configure: { $0.metricsFactory = Self.factory(registry) }) {
            server in
            try await server.chat(channel: "echo", user: "bo") { socket in
                try await socket.send(ParleyHello().stateFrame)
                _ = try await socket.receive()  // the welcome: the socket is attached by now
                let open = try await Self.scrape(server)
                #expect(open.value(ServerMetrics.openSockets, ["kind": "chat"]) == 1)
            }
        }
    }

    @Test func anAgentSocketIsCountedWhileOpen() async throws {
        let registry = PrometheusCollectorRegistry()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.metricsFactory = Self.factory(registry)
            $0.agentKey = "agent-key"
        }
        try await withServer(channels: [Self.echo], configure: configure) { server in
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(server.port)/agent/socket",
                logger: .init(
                    label: "parley.test.agent")
            ) { inbound, outbound, _ in
                let token = AgentToken.mint(agent: "Ada", key: "agent-key", lifetime: 600)
                try await outbound.write(.text(#"{"type":"auth","token":"\#(token)"}"#))
                var frames = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await frames.next()  // welcome
                try await Self.eventually("the agent socket to be counted") {
                    Samples(registry.emitToString()).value(ServerMetrics.openSockets, ["kind": "agent"]) == 1
                }
                try await outbound.write(.text(#"{"type":"join","channelId":"echo","userId":"nobody"}"#))
                while case .text(let text)? = try await frames.next(), !text.contains("\"error\"") {}
                try await outbound.close(.normalClosure, reason: nil)
            }
            try await Self.eventually("the agent socket to close") {
                Samples(registry.emitToString()).value(ServerMetrics.openSockets, ["kind": "agent"]) == 0
            }
            let after = try await Self.scrape(server)
            #expect(after.value(ServerMetrics.errors, ["code": "agent.noSuchConversation", "via": "socket"]) == 1)
        }
    }

    @Test func codedHTTPErrorsAndRefusedSocketsAreCounted() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(channels: [Self.echo], configure: { $0.metricsFactory = Self.factory(registry) }) {
            server in
            // A session on a channel that does not exist: 404 channel.unknown, a CodedHTTPError.
            let sessions = try #require(URL(string: "http://127.0.0.1:\(server.port)/chat/v1/sessions?channelId=nope"))
            var request = URLRequest(url: sessions)
            request.httpMethod = "POST"
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
            // A socket on a channel that does not exist: closed with channel.unknown.
            let close = try await server.chat(channel: "nope", user: "cy") { socket in
                try await socket.send(ParleyHello().stateFrame)
                _ = try await socket.receive()
            }
            #expect(close?.reason?.hasPrefix("channel.unknown") == true)
            let samples = try await Self.scrape(server)
            #expect(samples.value(ServerMetrics.errors, ["code": "channel.unknown", "via": "http"]) == 1)
            #expect(samples.value(ServerMetrics.errors, ["code": "channel.unknown", "via": "socket"]) == 1)
        }
    }

    @Test func withATokenTheMetricsNeedIt() async throws {
        let registry = PrometheusCollectorRegistry()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.metricsFactory = Self.factory(registry)
            $0.metricsToken = "scrape-me"
        }
        try await withServer(channels: [Self.echo], configure: configure) { server in
            #expect(try await Self.get(server, "/metrics").status == 401)
            #expect(try await Self.get(server, "/metrics", ["Authorization": "Bearer wrong"]).status == 401)
            let (status, body) = try await Self.get(server, "/metrics", ["Authorization": "Bearer scrape-me"])
            #expect(status == 200)
            let samples = Samples(body)
            #expect(samples.value(ServerMetrics.errors, ["code": "auth.invalidToken", "via": "http"]) == 2)
            #expect(samples.value(ServerMetrics.openSockets, ["kind": "chat"]) == 0)
        }
    }

    @Test func withoutATokenAProxiedRequestIsRefused() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withServer(channels: [Self.echo], configure: { $0.metricsFactory = Self.factory(registry) }) {
            server in
            for header in ["X-Forwarded-For", "X-Real-IP", "Forwarded"] {
                let (status, body) = try await Self.get(server, "/metrics", [header: "for=203.0.113.9"])
                #expect(status == 403, "\(header)")
                #expect(try JSONValue(parsing: body)["error"]?["code"]?.stringValue == "metrics.forbidden")
            }
            let status = try await Self.get(server, "/metrics").status
            #expect(status == 200)
        }
    }

    @Test func noPathOrNoPrometheusServesNoMetrics() async throws {
        let registry = PrometheusCollectorRegistry()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.metricsFactory = Self.factory(registry)
            $0.metricsPath = nil
        }
        try await withServer(channels: [Self.echo], configure: configure) { server in
            let status = try await Self.get(server, "/metrics").status
            #expect(status == 404)
        }
        // Not bootstrapped: the metrics go nowhere, and there is nothing to serve.
        try await withServer(channels: [Self.echo]) { server in
            let status = try await Self.get(server, "/metrics").status
            #expect(status == 404)
        }
        try await withServer(channels: [Self.echo], configure: { $0.metricsFactory = Self.factory(registry) }) {
            server in
            let status = try await Self.get(server, "/metrics").status
            #expect(status == 200)
        }
    }

    @Test func labelsStayFew() {
        let registry = PrometheusCollectorRegistry()
        let metrics = ServerMetrics(factory: Self.factory(registry), channelIds: ["echo"])
        #expect(metrics.channelLabel("echo") == "echo")
        #expect(metrics.channelLabel("made-up") == "other")
        for index in 0..<(ServerMetrics.maxErrorCodes + 5) {
            metrics.errorSent(ParleyError.Code(rawValue: "skill.code\(index)"))
        }
        metrics.errorSent("skill.code0")
        let samples = Samples(registry.emitToString())
        #expect(samples.value(ServerMetrics.errors, ["code": "skill.code0", "via": "socket"]) == 2)
        #expect(samples.value(ServerMetrics.errors, ["code": "other", "via": "socket"]) == 5)
        #expect(samples.count(ServerMetrics.errors) == ServerMetrics.maxErrorCodes + 1)
    }

    @Test func theConfigurationFileCarriesTheMetricsSettings() throws {
        let file = try ServerConfigurationFile(
            decoding: Data(#"{"channels": [], "metricsPath": "/internal/metrics", "metricsToken": "t"}"#.utf8))
        #expect(file.metricsPath == "/internal/metrics")
        #expect(file.metricsToken == "t")
        #expect(try ServerConfigurationFile(json: file.jsonValue).metricsToken == "t")
        #expect(throws: ParleyError.self) {
            try ServerConfigurationFile(decoding: Data(#"{"channels": [], "metricsPath": "metrics"}"#.utf8))
        }
        #expect(throws: ParleyError.self) {
            try ServerConfigurationFile(decoding: Data(#"{"channels": [], "metricsToken": ""}"#.utf8))
        }
    }

    // MARK: Helpers

    static func factory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        PrometheusMetricsFactory(registry: registry)
    }

    /// `GET path` on the server from loopback: the status and the body.
    static func get(_ server: TestServer, _ path: String, _ headers: [String: String] = [:]) async throws
        -> (status: Int, body: String)
    {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)")))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (body, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: body, as: UTF8.self))
    }

    /// `GET /metrics`, which must answer 200 in the text exposition format.
    static func scrape(_ server: TestServer) async throws -> Samples {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/metrics")))
        request.httpMethod = "GET"
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        return Samples(String(decoding: body, as: UTF8.self))
    }

    /// Waits, a bounded number of times, for `condition`: for what the server does after a socket closed, which no
    /// frame tells the client.
    static func eventually(_ what: String, _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            await Task.yield()
        }
        Issue.record("waited in vain for \(what)")
    }
}

/// The samples of a Prometheus text exposition: `name{label="value",…} number` lines.
struct Samples {
    private var samples: [(name: String, labels: [String: String], value: Double)] = []

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            let series = line[..<space]
            var labels: [String: String] = [:]
            let name: Substring
            if let open = series.firstIndex(of: "{"), series.last == "}" {
                name = series[..<open]
                let inner = series[series.index(after: open)..<series.index(before: series.endIndex)]
                for pair in inner.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
                }
            } else {
                name = series
            }
            samples.append((String(name), labels, value))
        }
    }

    /// The value of the series `name` with exactly `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// How many series are named `name`.
    func count(_ name: String) -> Int {
        samples.count { $0.name == name }
    }
}
