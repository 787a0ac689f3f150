import Foundation
import Subprocess
import SystemPackage
import Testing

/// `parley serve --tls-certificate --tls-key`: HTTPS and `wss://` from the server itself, with a self-signed
/// certificate made by `openssl` for the test; speech on, with the scripted recogniser the operator asked for.
@Suite("parley serve over TLS", .serialized, .timeLimit(.minutes(2)))
struct ServeTLSTests {
    @Test func serveSpeaksHTTPSAndWSS() async throws {
        let folder = temporaryDataFolder("tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (certificate, key) = try await Self.certificate(in: folder)

        let server = try ServerProcess(serve: [
            "--port", "0", "--data", folder.appendingPathComponent("data").path, "--channel", "shop", "--speech",
            "--speech-engine", "scripted", "--speech-transcript", "turn on the lights", "--tls-certificate",
            certificate, "--tls-key", key,
        ])
        let port = try await Self.httpsPort(of: server)
        #expect(server.output.contains("wss://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=shop"))
        #expect(server.output.contains("speech in en-us"), "\(server.output)")
        #expect(server.output.contains("speech: recognition by scripted (en-US)"), "\(server.output)")

        // HTTPS, checked against the certificate: the health check and Oracle's voices list.
        let health = try await Self.run(
            "/usr/bin/curl", ["-sS", "--max-time", "10", "--cacert", certificate, "https://127.0.0.1:\(port)/health"])
        #expect(health.status == 0 && health.output == "ok", "\(health.output)")
        let voices = try await Self.run(
            "/usr/bin/curl",
            [
                "-sS", "--max-time", "10", "--cacert", certificate,
                "https://127.0.0.1:\(port)/tts/voices?channelId=shop&userId=alice",
            ])
        #expect(voices.output.hasPrefix(#"{"voices":[{"#), "\(voices.output)")
        // Plain HTTP on the TLS port is not served.
        let plain = try await Self.run("/usr/bin/curl", ["-sS", "--max-time", "5", "http://127.0.0.1:\(port)/health"])
        #expect(plain.output != "ok")
        // The recognition socket upgrades over TLS (wss://): 101 Switching Protocols, the certificate verified.
        let request =
            "GET /voice/stream/recognize/en-us/generic?channelId=shop&userId=alice HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n"
            + "Connection: Upgrade\\r\\nUpgrade: websocket\\r\\nSec-WebSocket-Version: 13\\r\\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\n\\r\\n"
        // The client keeps its side open a second so that the answer is read before it hangs up.
        let upgrade = try await Self.run(
            "/bin/sh",
            [
                "-c",
                "(printf '\(request)'; sleep 1) | openssl s_client -quiet -no_ign_eof -verify_return_error -CAfile '\(certificate)' "
                    + "-connect 127.0.0.1:\(port)",
            ])
        #expect(upgrade.output.contains("HTTP/1.1 101 Switching Protocols"), "\(upgrade.output)")
        #expect(upgrade.output.contains("verify return:1"), "\(upgrade.output)")
        try await server.stop()
    }

    /// Over the connection limit, the `503 server.busy` answer goes through TLS like any other.
    @Test func aBusyServerAnswersOverTLS() async throws {
        let folder = temporaryDataFolder("tls-busy")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (certificate, key) = try await Self.certificate(in: folder)
        let server = try ServerProcess(serve: [
            "--port", "0", "--data", folder.appendingPathComponent("data").path, "--max-connections", "1",
            "--header-timeout", "2s",
            "--tls-certificate", certificate, "--tls-key", key,
        ])
        let port = try await Self.httpsPort(of: server)
        // One connection holds the only place: a TLS client that sends nothing (the 2 s header timeout then closes
        // it, so that the server stops at once).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        let connected = folder.appendingPathComponent("holder.out")
        holder.arguments = [
            "-c", "sleep 20 | openssl s_client -connect 127.0.0.1:\(port) > '\(connected.path)' 2>&1",
        ]
        try holder.run()
        defer { holder.terminate() }
        let deadline = ContinuousClock.now + .seconds(10)
        while !((try? String(contentsOf: connected, encoding: .utf8)) ?? "").contains("CONNECTED") {
            guard ContinuousClock.now < deadline else { throw ServerProcess.Failure(description: "no connection") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let busy = try await Self.run(
            "/usr/bin/curl",
            [
                "-sS", "--max-time", "10", "--cacert", certificate, "-w", " %{http_code}",
                "https://127.0.0.1:\(port)/health",
            ])
        #expect(busy.output.contains(#""code":"server.busy""#), "\(busy.output)")
        #expect(busy.output.hasSuffix(" 503"), "\(busy.output)")
        try await server.stop()
    }

    /// A self-signed certificate for 127.0.0.1 and its key, made by `openssl` in `folder`.
    static func certificate(in folder: URL) async throws -> (certificate: String, key: String) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let made = try await run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try #require(made.status == 0, "openssl: \(made.output)")
        return (certificate, key)
    }

    /// The port of the banner's `Parley is listening on https://127.0.0.1:PORT`.
    static func httpsPort(of server: ServerProcess) async throws -> Int {
        try await server.firstInOutput("an https banner") {
            ServerProcess.port(after: "listening on https://127.0.0.1:", in: $0)
        }
    }

    /// Runs a program to its end; its exit status and standard output (standard error appended).
    static func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await Subprocess.run(
            .path(FilePath(program)), arguments: Arguments(arguments), output: .string(limit: 1 << 20),
            error: .combinedWithOutput)
        let status: Int32 =
            switch result.terminationStatus {
            case .exited(let code): code
            case .signaled(let signal): 128 + signal
            }
        return (status, result.standardOutput)
    }
}
