import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ParleyServer
import ServiceLifecycle

/// A WebSocket echo server built from the same libraries as Parley's (Hummingbird, HummingbirdWebSocket) with the
/// same frame limit and no automatic pings: the baseline of the socket benchmarks, what the transport alone costs.
/// With an ``EchoStorage``, each frame is stored as Parley stores a message before it is echoed: a floor
/// (``DurableEcho`` on SQLite, ``PostgresDurableEcho`` on PostgreSQL).
public enum RawEchoServer {
    /// Serves `ws://127.0.0.1:PORT/echo` on a free port for the duration of `body`, which gets the port.
    public static func run<Result: Sendable>(
        storing durable: (any EchoStorage)? = nil, _ body: (Int) async throws -> Result
    )
        async throws -> Result
    {
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        if let durable {
            sockets.ws("/echo") { inbound, outbound, _ in
                // A conversation per connection, as each load client is a user of its own.
                let key = ConversationKey(channelId: "echo", userId: UUID().uuidString)
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .text(let text) = message else { continue }
                    try await durable.store(frame: text, for: key)
                    try await outbound.write(.text(text))
                }
            }
        } else {
            // The baseline exactly: nothing more per connection (`connection.memory` compares with it).
            sockets.ws("/echo") { inbound, outbound, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { try await outbound.write(.text(text)) }
                }
            }
        }
        return try await serve(sockets, body)
    }

    /// Serves `sockets` as the echo is served (the same libraries, frame limit and no automatic pings) on a free port
    /// for the duration of `body`, which gets the port: the raw pass-through proxy (`model-proxy`) is served so too.
    public static func serve<Result: Sendable>(
        _ sockets: Router<BasicWebSocketRequestContext>, _ body: (Int) async throws -> Result
    ) async throws -> Result {
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
        guard let port = await iterator.next() else { throw Failure() }
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

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the raw echo server did not start" }
    }
}
