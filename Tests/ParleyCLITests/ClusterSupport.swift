import Foundation
import ParleyServerTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A database of its own on the test PostgreSQL server (`PARLEY_TEST_POSTGRES_URL`), made with `psql` and dropped at
/// the end, so that the nodes of one test never see another test's conversations.
struct ClusterDatabase {
    let url: String
    private let serverURL: String
    private let name: String

    init() throws {
        serverURL = try ServeDatabaseTests.serverURL()
        name = "parley_cluster_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try Self.psql(serverURL, "CREATE DATABASE \(name)")
        var components = try #require(URLComponents(string: serverURL))
        components.path = "/\(name)"
        url = try #require(components.string)
    }

    func drop() {
        try? Self.psql(serverURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Restarts the test server with the command of scripts/postgres-test-server, and waits until `url` answers.
    ///
    /// Spawned with `posix_spawn` and waited for by its pid: `Foundation.Process` was seen never to notice that
    /// `runuser … pg_ctl restart` had ended.
    static func restart(_ command: String, thenReach url: String) throws {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command + " >/dev/null 2>&1 </dev/null"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0 else {
            throw ServerProcess.Failure(description: "cannot run \(command)")
        }
        let deadline = Date().addingTimeInterval(60)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else {
                _ = kill(pid, SIGKILL)
                throw ServerProcess.Failure(description: "\(command) took over 60 s")
            }
            usleep(10_000)
        }
        while (try? psql(url, "SELECT 1")) == nil {
            guard Date() < deadline else { throw ServerProcess.Failure(description: "no database after \(command)") }
            usleep(100_000)
        }
    }

    /// The command that restarts the test server (scripts/test passes scripts/postgres-test-server's when it runs
    /// the cluster tests alone); nil otherwise: a restart would cut the connections of every other test running.
    static var restartCommand: String? {
        ProcessInfo.processInfo.environment["PARLEY_TEST_POSTGRES_RESTART"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs one statement with `psql`; throws with what it printed when it fails.
    static func psql(_ url: String, _ statement: String) throws {
        try run("/usr/bin/env", ["psql", "-v", "ON_ERROR_STOP=1", "-q", url, "-c", statement])
    }

    /// Runs a program to its end, its output in a file (not a pipe: a server it starts would hold a pipe open);
    /// throws with what it printed when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("parley-run-\(UUID())")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        try? output.close()
        // Polled: `waitUntilExit()` was seen never to return on a thread of its own here.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning {
            guard Date() < deadline else {
                _ = kill(process.processIdentifier, SIGKILL)
                throw ServerProcess.Failure(description: "\(arguments.joined(separator: " ")) took over 60 s")
            }
            usleep(10_000)
        }
        guard process.terminationStatus == 0 else {
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ServerProcess.Failure(description: "\(arguments.joined(separator: " ")) failed: \(printed)")
        }
    }
}

/// nginx in front of the nodes, run from the repository's `deploy/nginx/parley.conf` with the test's ports in place of
/// its `listen` and upstream `server` lines.
final class Nginx {
    let port: Int
    private let process = Process()
    private let prefix: URL

    /// Starts nginx on `port` in front of `nodes` and waits until it answers `/health`.
    init(port: Int, nodes: [Int]) async throws {
        self.port = port
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent("parley-nginx-\(UUID())")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let template = try String(
            contentsOf: repository.appendingPathComponent("deploy/nginx/parley.conf"), encoding: .utf8)
        #expect(template.contains("server 127.0.0.1:"), "deploy/nginx/parley.conf has upstream server lines")
        let configuration = prefix.appendingPathComponent("nginx.conf")
        try NginxConfiguration.render(template, port: port, nodes: nodes)
            .write(to: configuration, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", prefix.path, "-c", configuration.path, "-g", "daemon off;"]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? await offloaded({ try RawTCP.get(port: port, "/health", timeout: 2) }).status) != 200 {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw ServerProcess.Failure(description: "nginx did not answer /health on port \(port)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    deinit {
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Stops nginx at once (SIGTERM: open sockets are cut), or with SIGKILL when it has not stopped within 5 s.
    func stop() {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
    }

    /// Whether nginx is installed (scripts/test installs it).
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") }
}

/// A raw chat socket with Parley's extension, through the client's own transport.
enum RawChat {
    /// The skill's texts a socket gets when it asks for everything after outbound number 0, once `count` arrived.
    static func transcript(port: Int, channel: String, user: String, count: Int) async throws -> [String] {
        try await withTimeout(.seconds(20), "the transcript from port \(port)") {
            let url = try #require(
                URL(string: "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=\(channel)&userId=\(user)"))
            let texts = TextBox()
            _ = try await WebSocketTransport().connect(to: url, headers: [:]) { connection in
                try await connection.send(ParleyHello(resumeAfter: 0).stateFrame.jsonString())
                for await frame in connection.inbound {
                    guard let json = try? JSONValue(parsing: frame), let text = json["messagePayload"]?["text"]
                    else { continue }
                    if texts.append(text.stringValue ?? "") >= count { break }
                }
                await connection.close()
            }
            return texts.values
        }
    }

    /// The first frame a socket with Parley's hello gets (the welcome, on a socket the server accepts); nil when the
    /// server closes it first. `query` follows `channelId` and `userId` in the URL.
    static func firstFrame(port: Int, channel: String, user: String, query: String = "") async throws -> JSONValue? {
        try await withTimeout(.seconds(20), "the first frame from port \(port)") {
            let url = try #require(
                URL(
                    string:
                        "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=\(channel)&userId=\(user)\(query)"
                ))
            let first = TextBox()
            _ = try await WebSocketTransport().connect(to: url, headers: [:]) { connection in
                try await connection.send(ParleyHello().stateFrame.jsonString())
                var frames = connection.inbound.makeAsyncIterator()
                if let frame = await frames.next() { _ = first.append(frame) }
                await connection.close()
            }
            return try first.values.first.map { try JSONValue(parsing: $0) }
        }
    }

    /// Opens a socket, waits for its welcome, and returns how the server closed it (after `whileOpen` ran).
    static func close(
        port: Int, channel: String, user: String, whileOpen: @escaping @Sendable () async throws -> Void
    ) async throws -> TransportClose? {
        try await withTimeout(.seconds(30), "a socket closed by the server") {
            let url = try #require(
                URL(string: "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/websdk?channelId=\(channel)&userId=\(user)"))
            return try await WebSocketTransport().connect(to: url, headers: [:]) { connection in
                try await connection.send(ParleyHello().stateFrame.jsonString())
                var frames = connection.inbound.makeAsyncIterator()
                _ = await frames.next()  // the welcome
                try await whileOpen()
                while await frames.next() != nil {}
            }
        }
    }

    /// Texts collected by a transport's session.
    final class TextBox: Sendable {
        private let texts = Mutex<[String]>([])

        /// Adds one; how many there are now.
        func append(_ text: String) -> Int {
            texts.withLock {
                $0.append(text)
                return $0.count
            }
        }

        var values: [String] { texts.withLock { $0 } }
    }
}
