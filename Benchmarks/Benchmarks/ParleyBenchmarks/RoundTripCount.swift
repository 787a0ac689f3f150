import EchoServer
import Foundation
import Logging
import ParleyPostgres
import ParleyServer
import ServiceLifecycle
import Synchronization

/// Round trips to PostgreSQL per message answered (issue 37), counted in this process: a node wired as
/// `parley serve --database` wires it (store, session bindings, attachments, cluster; echo skill), and the
/// PostgreSQL floor (``PostgresDurableEcho``), each under the same small load of ``clients`` clients sending
/// ``messages`` messages one after another. The count does not depend on the load's size: each client waits for its
/// answer, so every message is a turn of its own.
enum RoundTripCount {
    static let clients = 50
    static let messages = 20

    /// The node's round trips per message, and the floor's.
    static func perMessage(database: String) async throws -> (node: Double, floor: Double) {
        let node = try await countNode(database: database)
        let floor = try await countFloor(database: database)
        return (node, floor)
    }

    private static func countNode(database: String) async throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = ServerConfiguration(
            port: 0, dataDirectory: folder, channels: [ChannelConfiguration(id: "echo", skill: .echo)])
        var logger = Logger(label: "bench.node")
        logger.logLevel = .error
        let database = try PostgresStoreConfiguration(url: database)
        return try await PostgresConversationStore.withStore(database, logger: logger) { store in
            let cluster = PostgresCluster(store: store, configuration: database, logger: logger)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let app = try await buildApplication(
                configuration: configuration, store: store, sessionBindings: PostgresSessionBindings(store: store),
                attachments: PostgresAttachmentStore(store: store), cluster: cluster, logger: logger
            ) { port in portContinuation.yield(port) }
            let services = ServiceGroup(
                configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
            let running = Task { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw BenchmarkFailure("the node did not start") }
            let result: Result<Double, any Error>
            do {
                result = .success(
                    try await count(using: { store.roundTrips }, target: .parley) { user in
                        "ws://127.0.0.1:\(port)/chat/v1/chats/sockets/bench?channelId=echo&userId=\(user)"
                    })
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await running.value
            return try result.get()
        }
    }

    private static func countFloor(database: String) async throws -> Double {
        let floor = try await PostgresDurableEcho(url: database)
        return try await RawEchoServer.run(storing: floor) { port in
            try await count(using: { PostgresDurableEcho.roundTrips.load(ordering: .relaxed) }, target: .durableEcho) {
                _ in
                "ws://127.0.0.1:\(port)/echo"
            }
        }
    }

    /// The load, with `counter` read when the clients are connected and when they are done; the round trips per
    /// message between the two.
    private static func count(
        using counter: @escaping @Sendable () -> Int, target: Target, url: @escaping @Sendable (String) -> String
    ) async throws -> Double {
        let run = UUID().uuidString.prefix(8)
        let start = Counted()
        let gate = Gate(count: clients) {
            start.set(counter())
            return CPUTimes()
        }
        let results = try await concurrently(clients, width: clients) { index in
            let user = "trips-\(run)-\(index)"
            return try await LoadClient.exchange(
                url: url(user), user: user, count: messages, target: target, gate: gate)
        }
        let answered = results.map(\.count).reduce(0, +)
        return Double(counter() - start.value) / Double(max(answered, 1))
    }
}

/// A number set once from a `@Sendable` closure.
private final class Counted: Sendable {
    private let stored = Mutex(0)
    var value: Int { stored.withLock { $0 } }
    func set(_ value: Int) { stored.withLock { $0 = value } }
}
