import EchoServer
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ParleyCore
import ParleyServer
import ParleyServerTesting
import Synchronization
import WSClient
import WSCore

/// The two servers the socket benchmarks compare: Parley's (echo skill, SQLite store, the real `buildApplication`)
/// and a raw WebSocket echo built from the same libraries (Hummingbird, HummingbirdWebSocket) with the same
/// frame limit and no automatic pings: the baseline is what the transport alone costs. The third, the durable echo,
/// is the raw echo storing each message as Parley does (`DurableEcho`): the floor under Parley's numbers.
enum Target: String, Sendable {
    case parley
    case rawEcho
    case durableEcho

    /// Runs the server for the duration of `body`, which gets the WebSocket URL for user `user`.
    func run<Result: Sendable>(_ body: (_ url: @escaping @Sendable (String) -> String) async throws -> Result)
        async throws -> Result
    {
        switch self {
        case .parley:
            return try await InProcessServer.run(
                channels: [ChannelConfiguration(id: "echo", skill: .echo)],
                configure: { $0.messagesPerMinute = benchmarkMessagesPerMinute }, logLevel: .error
            ) { server in
                try await body(url(port: server.port))
            }
        case .rawEcho:
            return try await RawEchoServer.run { port in
                try await body(url(port: port))
            }
        case .durableEcho:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let durable = try DurableEcho(url: folder.appendingPathComponent("parley.sqlite"))
            return try await RawEchoServer.run(storing: durable) { port in
                try await body(url(port: port))
            }
        }
    }

    /// Runs the server in a process of its own for the duration of `body`: Parley's real `parley serve` (echo
    /// skill, SQLite store in a temporary folder) or `raw-echo`, both built next to this benchmark.
    ///
    /// The load benchmark needs this: ordo-one/benchmark runs an async benchmark by blocking the calling thread,
    /// one of the cooperative pool's threads, until the benchmark ends; on a 2-core machine an in-process server
    /// would get one pool thread instead of two.
    ///
    /// `body` also gets the server process's CPU time used so far (``cpuTime(of:)``).
    func runInOwnProcess<Result: Sendable>(
        _ body: (_ url: @escaping @Sendable (String) -> String, _ cpu: @escaping @Sendable () -> Duration?)
            async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        let builtProducts = Bundle.main.executableURL!.deletingLastPathComponent()
        switch self {
        case .parley:
            let configuration = folder.appendingPathComponent("channels.json")
            try Data(#"{"channels":[{"id":"echo","skill":"echo"}]}"#.utf8).write(to: configuration)
            process.executableURL = builtProducts.appendingPathComponent("parley")
            process.arguments = [
                "serve", "--port", "0", "--config", configuration.path, "--data",
                folder.appendingPathComponent("data").path, "--messages-per-minute", "\(benchmarkMessagesPerMinute)",
            ]
        case .rawEcho:
            process.executableURL = builtProducts.appendingPathComponent("raw-echo")
        case .durableEcho:
            process.executableURL = builtProducts.appendingPathComponent("raw-echo")
            process.arguments = ["--store", folder.appendingPathComponent("data/parley.sqlite").path]
        }
        // To a file, which never fills up and blocks the server as an undrained pipe would.
        let printed = folder.appendingPathComponent("output.txt")
        FileManager.default.createFile(atPath: printed.path, contents: nil)
        let outputFile = try FileHandle(forWritingTo: printed)
        process.standardOutput = outputFile
        process.standardError = FileHandle.nullDevice
        // Not under the benchmark's own malloc and runtime interposers (LD_PRELOAD), which a deployed server never runs
        // with and which count every allocation.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
        try process.run()
        try? outputFile.close()  // the server has its own descriptor now
        let result: Swift.Result<Result, any Error>
        do {
            let port = try await Self.port(printedBy: process, in: printed)
            let pid = process.processIdentifier
            result = .success(try await body(url(port: port), { cpuTime(of: pid) }))
        } catch {
            result = .failure(error)
        }
        process.terminate()
        await blocking { process.waitUntilExit() }
        return try result.get()
    }

    /// The port in the `… http://127.0.0.1:PORT …` line both servers print once they listen.
    static func port(printedBy process: Process, in file: URL) async throws -> Int {
        for _ in 0..<600 {
            let printed = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if let range = printed.range(of: "http://127.0.0.1:"),
                let port = Int(printed[range.upperBound...].prefix { $0.isNumber })
            {
                return port
            }
            guard process.isRunning else {
                throw BenchmarkFailure(
                    "\(process.executableURL!.lastPathComponent) stopped before listening: \(printed)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchmarkFailure("\(process.executableURL!.lastPathComponent) did not listen within 30 s")
    }

    /// The WebSocket URL for a user of this server listening on `port`.
    private func url(port: Int) -> @Sendable (String) -> String {
        switch self {
        case .parley: { user in "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/bench?channelId=echo&userId=\(user)" }
        case .rawEcho, .durableEcho: { _ in "ws://127.0.0.1:\(port)/echo" }
        }
    }
}

/// Runs blocking `work` on a Dispatch queue, never on the concurrency pool.
func blocking<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}

/// A load-generating client: a plain WebSocket (swift-websocket's `WSClient`) that sends the seed's user text
/// message, as an Oracle client would (no `clientMessageId`, so no acknowledgement), and waits for the echo of its
/// text before sending the next. Against Parley the reply is the skill's message; against the raw server, the
/// frame itself.
enum LoadClient {
    static let logger: Logger = {
        var logger = Logger(label: "bench.client")
        logger.logLevel = .error
        return logger
    }()

    /// Sends `count` messages one after another; returns each one's round-trip time.
    /// With a `gate`, waits at it once connected, so that the clients of a load start together.
    static func exchange(url: String, user: String, count: Int, target: Target, gate: Gate? = nil) async throws
        -> [Duration]
    {
        var message = Fixtures.userText
        message.userId = user
        let frame = message.jsonString()
        let result = Mutex<[Duration]>([])
        let arrived = Mutex(false)
        do {
            try await exchange(url: url, frame: frame, user: user, count: count, target: target) {
                await gate?.arrive()
                arrived.withLock { $0 = true }
            } record: { samples in
                result.withLock { $0 = samples }
            }
        } catch {
            // A client that never reached the gate would keep the others waiting at it for ever.
            if !arrived.withLock({ $0 }) { await gate?.abandon() }
            throw error
        }
        if !arrived.withLock({ $0 }) { await gate?.abandon() }
        let samples = result.withLock { $0 }
        guard samples.count == count else { throw BenchmarkFailure("\(user) got \(samples.count) of \(count) replies") }
        return samples
    }

    /// One client's connection: `connected` once the socket is open, then `count` round trips, whose times go to
    /// `record`.
    private static func exchange(
        url: String, frame: String, user: String, count: Int, target: Target,
        connected: @escaping @Sendable () async -> Void, record: @escaping @Sendable ([Duration]) -> Void
    ) async throws {
        try await WebSocketClient.connect(
            url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger
        ) { inbound, outbound, _ in
            var replies = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            await connected()
            var samples: [Duration] = []
            samples.reserveCapacity(count)
            let clock = ContinuousClock()
            for _ in 0..<count {
                let start = clock.now
                try await outbound.write(.text(frame))
                guard case .text(let reply)? = try await replies.next() else {
                    throw BenchmarkFailure("\(target) closed the socket of \(user)")
                }
                if target == .parley, !reply.contains("Order Pizza") {
                    throw BenchmarkFailure("unexpected reply to \(user): \(reply)")
                }
                samples.append(start.duration(to: clock.now))
            }
            record(samples)
            try await outbound.close(.normalClosure, reason: nil)
        }
    }
}

/// The CPU time used so far by the server's process, by this one (the clients) and by the database server's processes
/// (the cluster lines); nil when it cannot be read.
struct CPUTimes: Sendable {
    var server: Duration?
    var clients: Duration?
    var database: Duration?

    /// What was used from `start` to this reading.
    func since(_ start: CPUTimes) -> CPUTimes {
        func difference(_ now: Duration?, _ then: Duration?) -> Duration? {
            guard let now, let then else { return nil }
            return now - then
        }
        return CPUTimes(
            server: difference(server, start.server), clients: difference(clients, start.clients),
            database: difference(database, start.database))
    }
}

/// Runs `body` for `count` indices with at most `width` at a time.
func concurrently<Value: Sendable>(
    _ count: Int, width: Int, _ body: @escaping @Sendable (Int) async throws -> Value
) async throws -> [Value] {
    try await withThrowingTaskGroup(of: Value.self) { group in
        var values: [Value] = []
        var next = 0
        while next < min(width, count) {
            let index = next
            group.addTask { try await body(index) }
            next += 1
        }
        while let value = try await group.next() {
            values.append(value)
            if next < count {
                let index = next
                group.addTask { try await body(index) }
                next += 1
            }
        }
        return values
    }
}

/// Lets `count` clients start together; remembers when they did (and, given a `cpu` reading, the CPU times then).
actor Gate {
    private let count: Int
    private let cpu: @Sendable () -> CPUTimes
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var opened: ContinuousClock.Instant?
    private(set) var openedCPU = CPUTimes()
    /// Whether a client gave up before arriving: the gate no longer waits.
    private var abandoned = false

    init(count: Int, cpu: @escaping @Sendable () -> CPUTimes = { CPUTimes() }) {
        self.count = count
        self.cpu = cpu
    }

    /// A client will never arrive (it failed to connect): those waiting go on, and so does whoever arrives later,
    /// so that the load ends with that client's error instead of waiting for ever. The gate is not ``opened``.
    func abandon() {
        abandoned = true
        for waiter in waiting { waiter.resume() }
        waiting = []
    }

    func arrive() async {
        guard !abandoned else { return }
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            guard waiting.count == count else { return }
            opened = .now
            openedCPU = cpu()
            for waiter in waiting { waiter.resume() }
            waiting = []
        }
    }
}
