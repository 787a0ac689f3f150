import Foundation
import ParleyServerTesting
import Testing

/// What a hostile user can do to the real `parley serve` process, where the fault is at process level: tokens that
/// used to kill it, and more half-finished connections than it has descriptors.
@Suite("Hostile input against the parley serve process", .serialized, .timeLimit(.minutes(2)))
struct HostileProcessTests {
    static let secret = "s3cret-for-hostile-tests"

    /// The socket URL of `channel` for `user`.
    static func socketPath(channel: String, user: String) -> String {
        "/chat/v1/chats/sockets/websdk?channelId=\(channel)&userId=\(user)"
    }

    /// A WebSocket upgrade request, complete, with `headers` added.
    static func upgradeRequest(port: Int, path: String, headers: [String] = []) -> String {
        ([
            "GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
        ] + headers + ["", ""])
        .joined(separator: "\r\n")
    }

    /// Opens a socket on `port`, sends `frame` first and reads until the server closes; the server's close.
    static func closeAfterFirstFrame(port: Int, path: String, _ frame: String) async throws -> TransportClose? {
        try await withTimeout(.seconds(15), "the socket with a first frame") {
            try await WebSocketTransport().connect(to: URL(string: "ws://127.0.0.1:\(port)\(path)")!, headers: [:]) {
                connection in
                try await connection.send(frame)
                for await _ in connection.inbound {}
            }
        }
    }

    static func authFrame(_ token: String) -> String {
        #"{"state":{"token":"\#(token)","tokenType":"jwt","type":"auth"}}"#
    }

    @Test func signedTokensWithHugeTimesAreRefusedAndTheServerLives() async throws {
        let data = temporaryDataFolder("hostile-tokens")
        let server = try await ServerProcess.start(
            ["--port", "0", "--data", data.path, "--auth-channel", "X", "--secret", Self.secret])
        let port = try await server.listeningPort()
        let path = Self.socketPath(channel: "X", user: "u")
        let now = Date().timeIntervalSince1970.rounded(.down)
        let hostile = [
            ("exp 1e300", TokenClaims(issuedAt: now, expiresAt: 1e300, channelId: "X", userId: "u")),
            ("iat 1e300", TokenClaims(issuedAt: 1e300, expiresAt: now + 600, channelId: "X", userId: "u")),
            ("both 1e300", TokenClaims(issuedAt: 1e300, expiresAt: 1e300, channelId: "X", userId: "u")),
            ("exp -1e300", TokenClaims(issuedAt: now, expiresAt: -1e300, channelId: "X", userId: "u")),
        ]
        for (name, claims) in hostile {
            let token = ChannelToken.mint(claims, secret: Self.secret)
            // As an Authorization header on the upgrade: refused before the socket opens.
            let response = try await offloaded {
                try RawTCP.exchange(
                    port: port, Self.upgradeRequest(port: port, path: path, headers: ["Authorization: Bearer \(token)"])
                )
            }
            #expect(response.hasPrefix("HTTP/1.1 401"), "\(name) as a header: \(response)")
            // As the auth frame: the socket opens and is closed with the coded close.
            let close = try await Self.closeAfterFirstFrame(port: port, path: path, Self.authFrame(token))
            #expect(close?.code == .invalidToken, "\(name) as the auth frame: \(String(describing: close))")
            #expect(server.isRunning, "\(name) killed the server: \(server.errors)")
            let health = try await Self.health(port: port)
            #expect(health.status == 200 && health.body == "ok", "\(name): the server no longer serves")
        }

        // The same requests with a good token get through: the refusals above are about the times, nothing else.
        let good = ChannelToken.mint(channelId: "X", userId: "u", secret: Self.secret, lifetime: 600)
        let accepted = try await offloaded {
            try RawTCP.exchange(
                port: port, Self.upgradeRequest(port: port, path: path, headers: ["Authorization: Bearer \(good)"]))
        }
        #expect(accepted.hasPrefix("HTTP/1.1 101"), "\(accepted)")
        let greeting = try await withTimeout(.seconds(15), "a reply after a good auth frame") {
            let (replies, continuation) = AsyncStream.makeStream(of: String.self)
            _ = try await WebSocketTransport().connect(
                to: URL(string: "ws://127.0.0.1:\(port)\(path)")!, headers: [:]
            ) { connection in
                try await connection.send(Self.authFrame(good))
                try await connection.send(UserMessage(payload: .text("hi"), userId: "u").jsonString())
                for await frame in connection.inbound where frame.contains("messagePayload") {
                    continuation.yield(frame)
                    return
                }
            }
            continuation.finish()
            var iterator = replies.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(greeting != nil, "the demo skill answered a socket authenticated by its auth frame")
        #expect(server.isRunning)
        try await server.stop()
    }

    @Test(arguments: ["1e300", "inf", "-5", "0", "nan", "1e-300"])
    func parleyTokenRefusesATimeToLiveThatIsNotASanePositiveDuration(_ ttl: String) async throws {
        let run = try await DecodeCommandTests().parley([
            "token", "--channel", "c", "--secret", "s", "--user", "u", "--ttl=\(ttl)",
        ])
        #expect(run.status != 0, "--ttl \(ttl) minted: \(run.output)")
        #expect(run.output.contains("--ttl \(ttl) is not a duration"), "\(run.output)")
        #expect(!run.output.contains("eyJ"), "no token printed")
    }

    /// `parley serve --user-storage-quota` takes a positive whole number of bytes; anything else ends the command
    /// before it serves, naming the option.
    @Test(arguments: ["0", "-5", "1e300", "99999999999999999999999", "2.5", "lots"])
    func parleyServeRefusesAStorageQuotaThatIsNotAPositiveNumberOfBytes(_ quota: String) async throws {
        let data = temporaryDataFolder("hostile-quota")
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await DecodeCommandTests().parley([
            "serve", "--port", "0", "--data", data.path, "--user-storage-quota=\(quota)",
        ])
        #expect(run.status != 0, "--user-storage-quota \(quota) served: \(run.output)")
        #expect(run.output.contains("user-storage-quota"), "\(run.output)")
        #expect(!run.output.contains("listening"), "\(run.output)")
    }

    // MARK: Descriptor exhaustion

    static let hasProcFS = FileManager.default.fileExists(atPath: "/proc/self/stat")

    /// The server under `ulimit -n 256`, with a short header timeout, serving an echo channel.
    static func lowLimitServer(_ extra: [String] = [], headerTimeout: String = "3s") async throws -> (
        ServerProcess, Int
    ) {
        let data = temporaryDataFolder("hostile-descriptors")
        let config = try configurationFile(#"{"channels": [{"id": "echo", "skill": "echo"}]}"#)
        let server = try await ServerProcess.start(
            ["--port", "0", "--data", data.path, "--config", config, "--header-timeout", headerTimeout] + extra,
            descriptorLimit: 256)
        return (server, try await server.listeningPort())
    }

    /// A real chat through the client library: one message, its echo.
    static func chatWorks(port: Int, user: String) async throws -> Bool {
        let client = ChatClient(
            configuration: .init(url: URL(string: "http://127.0.0.1:\(port)")!, channelId: "echo", userId: user))
        let events = await client.events()
        let reply = try await withTimeout(.seconds(20), "a chat after the flood") {
            try await client.initialize()
            try await client.send(text: "still here")
            for await event in events {
                if case .messageReceived(let message) = event { return message.payload.text }
            }
            return nil
        }
        await client.destroy()
        return reply == "still here"
    }

    /// `GET /health` on a new connection.
    static func health(port: Int) async throws -> (status: Int, body: String) {
        try await offloaded { try RawTCP.get(port: port, "/health") }
    }

    /// The CPU the server uses over `window`, as a share of one core.
    static func cpuShare(of server: ServerProcess, over window: Duration) async throws -> Double {
        let before = try server.cpuTicks()
        let start = ContinuousClock.now
        try await Task.sleep(for: window)  // a measuring window, not a wait for something to happen
        let ticks = try server.cpuTicks() - before
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK))) / seconds
    }

    /// More half-finished upgrades than the process has descriptors, with the connection cap derived from the limit:
    /// a fresh request is answered (at once, 503 `server.busy`, while full), the server idles, the header timeout
    /// frees it, and a real chat works afterwards.
    ///
    /// The cap is 128 under `ulimit -n 256` (the limit less 128), so the first 128 of the flood fill it, and nothing
    /// frees a place before the header timeout: at 10 s, far beyond the moment `/health` is asked, the refusal is
    /// certain (at 3 s, a slow start of the flood could let the first ones time out, and `/health` get in).
    @Test(.enabled(if: hasProcFS, "reads the server's CPU time from /proc"))
    func halfFinishedUpgradesBeyondTheDescriptorLimitNeitherLockOutNorSpin() async throws {
        let (server, port) = try await Self.lowLimitServer(headerTimeout: "10s")
        #expect(try await Self.health(port: port).status == 200)

        let flood = try await offloaded { try HalfOpenFlood.open(count: 360, port: port) }
        defer { flood.closeAll() }
        print("descriptors: \(flood.connected.count) half-finished upgrades connected, \(flood.unconnected.count) not")
        #expect(flood.connected.count > 256, "more half-finished requests than the server has descriptors")

        let asked = ContinuousClock.now
        let answer = try await Self.health(port: port)
        let took = ContinuousClock.now - asked
        print("descriptors: /health while full answered \(answer.status) in \(took): \(answer.body)")
        #expect(answer.status == 503, "\(answer)")
        #expect(answer.body.contains(#""code":"server.busy""#), "\(answer.body)")
        #expect(took < .seconds(2), "a refusal is immediate")

        let share = try await Self.cpuShare(of: server, over: .seconds(2))
        print("descriptors: CPU while full: \(Int(share * 100))% of one core")
        #expect(share < 0.5, "the server spins while full")
        #expect(server.isRunning, "\(server.errors)")

        let closed = try await offloaded { flood.waitUntilClosedByServer(within: .seconds(30)) }
        #expect(closed == flood.connected.count, "the header timeout closed every half-finished upgrade")
        #expect(try await Self.health(port: port).status == 200)
        #expect(try await Self.chatWorks(port: port, user: "after-flood"))
        try await server.stop()
    }

    /// The same with a connection cap an operator set above the descriptor limit (`--max-connections 4096` under
    /// `ulimit -n 256`): connections alone must not exhaust the descriptors, or when they do, accepting must back off
    /// instead of retrying `accept` (EMFILE) in a loop; and the server recovers once the header timeout frees them.
    @Test(.enabled(if: hasProcFS, "reads the server's CPU time from /proc"))
    func aConnectionCapAboveTheDescriptorLimitNeitherSpinsNorLocksOut() async throws {
        let (server, port) = try await Self.lowLimitServer(["--max-connections", "4096"])
        let flood = try await offloaded { try HalfOpenFlood.open(count: 360, port: port) }
        defer { flood.closeAll() }
        print("EMFILE: \(flood.connected.count) half-finished upgrades connected, \(flood.unconnected.count) not")
        #expect(flood.connected.count > 256)

        let share = try await Self.cpuShare(of: server, over: .seconds(2))
        print("EMFILE: CPU while out of descriptors: \(Int(share * 100))% of one core")
        #expect(share < 0.5, "the server spins (accept failing with EMFILE in a loop)")
        #expect(server.isRunning, "\(server.errors)")

        let closed = try await offloaded { flood.waitUntilClosedByServer(within: .seconds(40)) }
        #expect(closed == flood.connected.count, "the header timeout closed every half-finished upgrade")
        let answer = try await Self.health(port: port)
        #expect(answer.status == 200, "\(answer)")
        #expect(try await Self.chatWorks(port: port, user: "after-emfile"))
        try await server.stop()
    }
}
