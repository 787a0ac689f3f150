import Foundation
import ParleyServerTesting
import Testing

/// What the real `parley serve` process tells browsers about where to connect and where files are: the widget page
/// connects to its own origin unless the operator lists other chat servers, and upload links come from the
/// configuration, never from a request's `Host` header.
@Suite("Origins and links of parley serve", .serialized, .timeLimit(.minutes(2)))
struct OriginAndLinkTests {
    /// `GET /` of the served widget: its Content-Security-Policy's `connect-src` and whether the page lists servers.
    static func page(port: Int, query: String = "") async throws -> (connect: String?, body: String) {
        let response = try await offloaded {
            try RawTCP.exchange(
                port: port, "GET /\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", toEnd: true)
        }
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        let policy = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-security-policy:") }
        let connect = policy?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("connect-src ") }
        return (connect, response)
    }

    /// Uploads a small text file with the given `Host` header; the link the server answers with.
    static func uploadLink(port: Int, host: String) async throws -> String? {
        let boundary = "parley-boundary"
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"note.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nhello\r\n--\(boundary)--\r\n"
        let request =
            "POST /chat/v1/attachments?channelId=open&userId=u1 HTTP/1.1\r\nHost: \(host)\r\n"
            + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nx-oda-meta-file-size: 5\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let response = try await offloaded { try RawTCP.exchange(port: port, request, toEnd: true) }
        let json = response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return try JSONValue(parsing: json)["url"]?.stringValue
    }

    @Test func theServedWidgetConnectsToItsOwnOriginOnly() async throws {
        let server = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("origin-page").path,
        ])
        let port = try await server.listeningPort()
        let page = try await Self.page(port: port, query: "?URI=attacker.example&channelId=demo")
        #expect(page.connect == "connect-src 'self'")
        #expect(!page.body.contains("parley-chat-servers"))
    }

    @Test func otherChatServersAreTheOperatorsChoice() async throws {
        let config = try configurationFile(
            #"{"channels": [{"id": "demo"}], "widgetChatServers": ["https://chat2.example.com"]}"#)
        let server = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("origin-listed").path, "--config", config,
        ])
        let page = try await Self.page(port: try await server.listeningPort())
        #expect(page.connect == "connect-src 'self' https://chat2.example.com wss://chat2.example.com")
        #expect(page.body.contains(#"<meta name="parley-chat-servers" content="https://chat2.example.com">"#))

        let bad = try ServerProcess(serve: [
            "--port", "0", "--data", temporaryDataFolder("origin-bad").path, "--config",
            try configurationFile(#"{"channels": [{"id": "demo"}], "widgetChatServers": ["chat2.example.com/x"]}"#),
        ])
        #expect(try await bad.exitStatus(within: .seconds(20)) != 0)
        #expect(bad.errors.contains("widgetChatServers"))
    }

    @Test func uploadLinksNeverReflectTheHostHeader() async throws {
        let config = try configurationFile(#"{"channels": [{"id": "open", "skill": "echo"}]}"#)
        let plain = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("links-plain").path, "--config", config,
        ])
        let port = try await plain.listeningPort()
        let link = try await Self.uploadLink(port: port, host: "attacker.example")
        #expect(link?.hasPrefix("http://127.0.0.1:\(port)/") == true, "\(link ?? "no link")")
        #expect(link?.contains("attacker") == false)

        let behindProxy = try await ServerProcess.start([
            "--port", "0", "--data", temporaryDataFolder("links-public").path, "--config", config,
            "--public-url", "https://chat.example.com/",
        ])
        let proxied = try await Self.uploadLink(port: try await behindProxy.listeningPort(), host: "attacker.example")
        #expect(proxied?.hasPrefix("https://chat.example.com/") == true, "\(proxied ?? "no link")")
    }
}
