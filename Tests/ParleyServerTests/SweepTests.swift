import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
import Testing

@testable import ParleyServer

/// A node of a cluster sweeps: what another node stored reaches the node's sockets within a sweep even when the hint
/// announcing it was lost, and the hints the node dropped are counted.
@Suite("Delivery sweep", .serialized, .timeLimit(.minutes(1)))
struct SweepTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    /// What carries the hints of the test's nodes, in this process, and who holds which conversation's turns.
    final class Bus: Sendable {
        let nodes = Mutex<[LossyCluster]>([])
        let held = Mutex<Set<ConversationKey>>([])

        func post(_ event: ClusterEvent) {
            for node in nodes.withLock({ $0 }) { node.heard(event) }
        }
    }

    /// A cluster node whose `messages` hints are dropped on arrival when `lossy` (a node that fell behind), and
    /// counted as dropped.
    final class LossyCluster: Cluster {
        let events: AsyncStream<ClusterEvent>
        private let continuation: AsyncStream<ClusterEvent>.Continuation
        private let bus: Bus
        private let lossy: Bool
        private let drops = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

        init(bus: Bus, lossy: Bool) {
            (events, continuation) = AsyncStream.makeStream()
            self.bus = bus
            self.lossy = lossy
            bus.nodes.withLock { $0.append(self) }
        }

        func run() async throws {
            try? await gracefulShutdown()
            continuation.finish()
        }

        func announce(_ event: ClusterEvent) async { bus.post(event) }

        func heard(_ event: ClusterEvent) {
            guard lossy, case .messages = event else {
                continuation.yield(event)
                return
            }
            let waiters = drops.withLock { drops in
                drops.count += 1
                defer { drops.waiters = [] }
                return drops.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        func claimTurns(of key: ConversationKey) async -> Bool { bus.held.withLock { $0.insert(key).inserted } }
        func releaseTurns(of key: ConversationKey) async { _ = bus.held.withLock { $0.remove(key) } }

        var droppedHints: Int { drops.withLock { $0.count } }

        /// Returns once a hint was dropped.
        func waitForADrop() async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let dropped = drops.withLock { drops in
                    if drops.count > 0 { return true }
                    drops.waiters.append(waiter)
                    return false
                }
                if dropped { waiter.resume() }
            }
        }
    }

    /// A node on `store` and `cluster`, serving while `body` runs.
    @discardableResult
    static func withNode<Result: Sendable>(
        store: any ConversationStore, cluster: LossyCluster, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-sweep-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration(port: 0, dataDirectory: directory, channels: [echo])
        configure(&configuration)
        var logger = Logger(label: "parley.test.sweep")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(
            configuration: configuration, store: store, cluster: cluster, logger: logger
        ) { port in portContinuation.yield(port) }
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await services.run() }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else {
            running.cancel()
            throw CancellationError()
        }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(TestServer(port: port, dataDirectory: directory)))
        } catch {
            result = .failure(error)
        }
        await services.triggerGracefulShutdown()
        try await running.value
        return try result.get()
    }

    @Test func aReplyWhoseHintWasDroppedArrivesWithTheNextSweepAndTheDropIsCounted() async throws {
        let store = InMemoryConversationStore()
        let bus = Bus()
        let clock = VirtualClock()
        let registry = PrometheusCollectorRegistry()
        let answering = LossyCluster(bus: bus, lossy: false)
        let behind = LossyCluster(bus: bus, lossy: true)
        try await Self.withNode(store: store, cluster: answering) { nodeA in
            try await Self.withNode(
                store: store, cluster: behind,
                configure: {
                    $0.clock = serverClock(on: clock)
                    $0.pendingInputSweepInterval = .seconds(2)
                    $0.metricsFactory = PrometheusMetricsFactory(registry: registry)
                }
            ) { nodeB in
                try await nodeB.chat(channel: "echo", user: "ann") { second in
                    try await second.send(ParleyHello().stateFrame)
                    _ = try await second.receive()  // the welcome: the socket is attached
                    try await nodeA.chat(channel: "echo", user: "ann") { first in
                        try await first.send(UserMessage.text("hi", user: "ann"))
                        let reply = try await first.receiveMessage()
                        #expect(reply.payload.text == "hi")
                    }
                    await behind.waitForADrop()
                    // Node B's sweep: its listener sleeps on B's clock until the interval has passed.
                    await clock.waitForSleepers(1)
                    await clock.advance(by: .seconds(2))
                    // The user's message itself came at once (its hint was not lost, §13.6); the reply only with the
                    // sweep.
                    guard case .state(let state)? = try await second.receive(), EchoedUserMessage(state) != nil else {
                        Issue.record("the user's message did not reach the socket on the other node")
                        return
                    }
                    let reply = try await second.receiveMessage()
                    #expect(reply.payload.text == "hi")
                    #expect(reply.sequence == 1)
                }
            }
        }
        let samples = Samples(registry.emitToString())
        #expect(samples.value(ServerMetrics.clusterHintsDropped, [:]) == 1)
        #expect(samples.value(ServerMetrics.clusterSweepCatchUps, [:]) == 1)
    }
}
