import Foundation
import ParleyServerTesting
import Testing

/// `parley serve --trusted-proxy` behind the real nginx of `deploy/nginx/parley.conf`, with clients on different
/// loopback addresses (127.0.0.2, 127.0.0.3, …): a client that fails its sign-ins locks out its own address only, and
/// no client can pick the address it is counted under by sending `X-Forwarded-For` itself.
@Suite(
    "Client addresses behind a trusted proxy", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Nginx.isInstalled, "needs nginx (scripts/test installs it)"))
struct TrustedProxyTests {
    static let config = #"""
        {"channels": [{"id": "secure", "secret": "0123456789abcdef0123456789abcdef", "clientAuthenticationEnabled": true,
                       "skill": "echo"}]}
        """#

    /// A WebSocket upgrade with a token that is no token, from `source`, optionally with its own forwarding header;
    /// the status of the answer (401 for a bad token, 429 once the address failed too often).
    static func badSignIn(port: Int, from source: String, forwardedFor: String? = nil) async throws -> Int {
        let request =
            "GET /chat/v1/chats/sockets/websdk?channelId=secure&userId=u HTTP/1.1\r\nHost: chat.example\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\nAuthorization: Bearer not-a-token\r\n"
            + (forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? "") + "\r\n"
        let response = try await offloaded { try RawTCP.exchange(port: port, request, from: source) }
        return response.hasPrefix("HTTP/1.1 ") ? Int(response.dropFirst(9).prefix(3)) ?? 0 : 0
    }

    @Test func behindNginxOneAddressThatFailsLocksOutOnlyItself() async throws {
        let server = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("trusted-proxy").path, "--config",
            try configurationFile(Self.config), "--failed-sign-ins-per-minute", "3", "--trusted-proxy", "127.0.0.1",
        ])
        let node = try await server.listeningPort()
        let nginx = try await Nginx(port: try freePort(), nodes: [node])
        defer { nginx.stop() }

        // The attacker at 127.0.0.2: three failures are allowed, the fourth is refused for its address.
        for _ in 1...3 { #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.2") == 401) }
        #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.2") == 429)
        // Another user, through the same nginx, is not locked out.
        #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.3") == 401)
        // The attacker cannot escape by naming another address: nginx appends the one it saw, and the node reads the
        // rightmost hop that is no trusted proxy.
        #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.2", forwardedFor: "127.0.0.9") == 429)
        // Nor can a client frame another: 127.0.0.4 naming 127.0.0.3 is counted as 127.0.0.4.
        for _ in 1...3 {
            #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.4", forwardedFor: "127.0.0.3") == 401)
        }
        #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.3") == 401)
        // A client that reaches the node directly is no trusted proxy: its header is ignored.
        #expect(try await Self.badSignIn(port: node, from: "127.0.0.5", forwardedFor: "127.0.0.6") == 401)
        #expect(try await Self.badSignIn(port: node, from: "127.0.0.6") == 401)
    }

    @Test func withoutTrustedProxiesEveryoneBehindNginxIsOneAddress() async throws {
        // What an operator who does not say which proxy to trust gets: the forwarding header is ignored, and nginx's
        // address is everyone's (docs/deploy.md, "Behind a proxy", says to set --trusted-proxy).
        let server = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("untrusted-proxy").path, "--config",
            try configurationFile(Self.config), "--failed-sign-ins-per-minute", "3",
        ])
        let nginx = try await Nginx(port: try freePort(), nodes: [try await server.listeningPort()])
        defer { nginx.stop() }
        for _ in 1...3 { #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.2") == 401) }
        #expect(try await Self.badSignIn(port: nginx.port, from: "127.0.0.3") == 429)
    }

    @Test func aTrustedProxyThatIsNoNetworkIsAUsageError() async throws {
        let server = try ServerProcess(serve: [
            "--port", "0", "--data", temporaryDataFolder("bad-proxy").path, "--trusted-proxy", "10.0.0.0/33",
        ])
        #expect(try await server.exitStatus(within: .seconds(20)) == 64)
        #expect(server.errors.contains("--trusted-proxy"))
    }
}
