import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import Synchronization
import ParleyCore
import ParleyServer
import ParleyTesting
import ServiceLifecycle
import WSClient
import WSCore

/// The two servers the socket benchmarks compare: Parley's (echo skill, SQLite store, the real `buildApplication`)
/// and a raw WebSocket echo built from the same libraries (Hummingbird, HummingbirdWebSocket) with the same
/// frame limit and no automatic pings: the baseline is what the transport alone costs.
enum Target: String, Sendable {
    case parley
    case rawEcho

    /// Runs the server for the duration of `body`, which gets the WebSocket URL for user `user`.
    func run<Result: Sendable>(_ body: (_ url: @escaping @Sendable (String) -> String) async throws -> Result)
        async throws -> Result
    {
        switch self {
        case .parley:
            return try await InProcessServer.run(
                channels: [ChannelConfiguration(id: "echo", skill: .echo)], logLevel: .error
            ) { server in
                let port = server.port
                return try await body { user in
                    "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/bench?channelId=echo&userId=\(user)"
                }
            }
        case .rawEcho:
            return try await RawEchoServer.run { port in
                try await body { _ in "ws://127.0.0.1:\(port)/echo" }
            }
        }
    }
}

enum RawEchoServer {
    static func run<Result: Sendable>(_ body: (Int) async throws -> Result) async throws -> Result {
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws("/echo") { inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { try await outbound.write(.text(text)) }
            }
        }
        var logger = Logger(label: "bench.raw-echo")
        logger.logLevel = .error
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: Router(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: sockets, configuration: .init(ws: .init(maxFrameSize: 1 << 20, autoPing: .disabled))),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchmarkFailure("the raw echo server did not start") }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(port))
        } catch {
            result = .failure(error)
        }
        await services.triggerGracefulShutdown()
        try await running.value
        return try result.get()
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
        try await WebSocketClient.connect(
            url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger
        ) { inbound, outbound, _ in
            var replies = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            await gate?.arrive()
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
            result.withLock { $0 = samples }
            try await outbound.close(.normalClosure, reason: nil)
        }
        let samples = result.withLock { $0 }
        guard samples.count == count else { throw BenchmarkFailure("\(user) got \(samples.count) of \(count) replies") }
        return samples
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

/// Lets `count` clients start together; remembers when they did.
actor Gate {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private(set) var opened: ContinuousClock.Instant?

    init(count: Int) { self.count = count }

    func arrive() async {
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            guard waiting.count == count else { return }
            opened = .now
            for waiter in waiting { waiter.resume() }
            waiting = []
        }
    }
}
