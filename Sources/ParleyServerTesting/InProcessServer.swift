public import Foundation
public import Logging
public import ParleyServer
import ServiceLifecycle

/// A Parley chat server running in this process, on a free port, for a test.
public struct InProcessServer: Sendable {
    /// The port it listens on (at 127.0.0.1).
    public let port: Int
    /// Where it keeps conversations and attachments.
    public let dataDirectory: URL

    /// The server's base URL, `http://127.0.0.1:<port>`, for ``ChatClient/Configuration``.
    public var url: URL { .loopback(port: port) }

    /// Runs a real Parley server (the same `buildApplication` as `parley serve`) on a free port for the duration of
    /// `body`, then shuts it down gracefully.
    ///
    /// ```swift
    /// try await InProcessServer.run(channels: [ChannelConfiguration(id: "demo")]) { server in
    ///     let client = ChatClient(configuration: .init(url: server.url, channelId: "demo"))
    ///     try await client.initialize()
    /// }
    /// ```
    /// - Parameters:
    ///   - channels: The server's channels.
    ///   - dataDirectory: Where to keep data; a new temporary folder when `nil` (pass the same folder twice to
    ///     test a restart).
    ///   - configure: Changes to the rest of the server configuration.
    ///   - store: Where conversations are kept; the SQLite store in `dataDirectory` when `nil`.
    ///   - skills: The app's own skills, by the name a channel's ``SkillReference/named(_:)`` gives.
    ///   - routes: Further routes the server serves, such as the GMS simulator of `ParleyGMSSimulator`.
    ///   - logLevel: The server's log level; the `PARLEY_TEST_LOG` environment variable wins when set.
    ///   - body: The test, given the running server.
    /// - Throws: What `body` throws; the server's own error when it stops before it listens (its port taken, say);
    ///   ``ParleyError/Code/internalError`` when its graceful stop takes over 60 s (the server is then cancelled).
    @discardableResult
    public static func run<Result: Sendable>(
        channels: [ChannelConfiguration], dataDirectory: URL? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }, store: (any ConversationStore)? = nil,
        skills: [String: any Skill] = [:], routes: [any ServerRoutes] = [],
        logLevel: Logger.Level = .warning,
        _ body: (InProcessServer) async throws -> Result
    ) async throws -> Result {
        let directory =
            dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID())")
        var configuration = ServerConfiguration(port: 0, dataDirectory: directory, channels: channels)
        configure(&configuration)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "parley.test")
        logger.logLevel =
            ProcessInfo.processInfo.environment["PARLEY_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? logLevel
        let app = try await buildApplication(
            configuration: configuration, store: store, skills: skills, logger: logger, routes: routes
        ) { port in
            portContinuation.yield(port)
        }
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        // The server runs beside `body`, not in a task group around it: calling a non-Sendable closure with a
        // generic result from inside a task group's body crashes this toolchain (Swift 6.3, Linux). When it stops
        // before it listens (its port taken, say), the port never comes: the stream ends, and its error is thrown.
        let running = Task {
            defer { portContinuation.finish() }
            try await services.run()
        }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else {
            try await running.value
            throw ParleyError(.internalError, "the server stopped before it listened")
        }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(InProcessServer(port: port, dataDirectory: directory)))
        } catch {
            result = .failure(error)
        }
        await services.triggerGracefulShutdown()
        try await stopped(running, within: stopTimeout)
        return try result.get()
    }

    /// How long a graceful stop may take before `run` cancels the server and fails: the drain and the skill turns a
    /// server finishes, with room for a loaded machine.
    static let stopTimeout = Duration.seconds(60)

    /// Waits for `running` to end; past `timeout`, cancels it and throws, so that a server whose stop hangs fails the
    /// test that ran it, with a message, instead of holding the whole test run.
    private static func stopped(_ running: Task<Void, any Error>, within timeout: Duration) async throws {
        // Raced through a stream, not a task group: a group would wait for its child that awaits `running`.
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        Task {
            _ = await running.result
            outcome.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            outcome.yield(false)
        }
        var first = outcomes.makeAsyncIterator()
        let ended = await first.next() ?? false
        timer.cancel()
        guard ended else {
            running.cancel()
            throw ParleyError(
                .internalError, "the server did not stop within \(timeout) of a graceful stop; it was cancelled")
        }
        try await running.value
    }
}
