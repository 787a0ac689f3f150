import Logging
public import ServiceLifecycle
import Synchronization
public import UnixSignals

/// The Parley server as
/// ``buildApplication(configuration:store:sessionBindings:attachments:cluster:logger:routes:onServerRunning:)``
/// builds it: a Hummingbird application whose graceful stop drains the node first.
///
/// Run it with ``runService(gracefulShutdownSignals:)`` (as `parley serve` does) or as a service of your own
/// `ServiceGroup`. On a graceful stop (SIGTERM or SIGINT with `runService`):
/// 1. the node refuses new sockets with `503` and ``ParleyError/Code/serverDraining`` (a load balancer tries another
///    node) and `/health/ready` answers `503`;
/// 2. every chat and agent socket is closed with close code 1012 and ``ParleyError/Code/serverDraining``, so that its
///    client reconnects, through the load balancer, to another node; the node waits until they have closed, at most
///    ``ServerConfiguration/drainTimeout``;
/// 3. only then the HTTP server stops accepting and stops, the hub finishes the skill turns it has started, and
///    `run()` returns.
///
/// (Hummingbird's own graceful stop would close sockets with 1000, "normal closure", which tells a client the
/// conversation is over; hence the drain before it.)
public struct ParleyApplication: Service {
    let base: any Service
    let hub: ChatHub
    let drainTimeout: Duration
    let logger: Logger

    /// Runs the server until a graceful stop (after the drain) or cancellation.
    public func run() async throws {
        let inner = ServiceGroup(configuration: .init(services: [base], gracefulShutdownSignals: [], logger: logger))
        // Detached: a graceful stop of this task must reach the inner group only after the drain, not at once.
        let running = Task.detached { try await inner.run() }
        let draining = Task {
            do {
                try await gracefulShutdown()
            } catch {
                return  // cancelled: the inner group is cancelled too
            }
            logger.info("draining: closing every socket with 1012 so that clients reconnect to another node")
            await hub.drain(within: drainTimeout)
            await inner.triggerGracefulShutdown()
        }
        defer { draining.cancel() }
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            running.cancel()
        }
    }

    /// Runs the server in a service group that stops it gracefully (with the drain) on `gracefulShutdownSignals`.
    public func runService(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        let group = ServiceGroup(
            configuration: .init(services: [self], gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        try await group.run()
    }
}

/// Whether the node is draining: read by the upgrade (new sockets are refused), `/health/ready` and the hub.
final class DrainSwitch: Sendable {
    private let on = Atomic(false)

    var isDraining: Bool { on.load(ordering: .acquiring) }

    func start() { on.store(true, ordering: .releasing) }

    /// Why a socket is refused or closed while the node drains.
    static let error = ParleyError(.serverDraining, "the server is stopping; reconnect to continue")
}

extension ChatHub {
    /// Closes every chat and agent socket with ``DrainSwitch/error`` (close code 1012) and waits until they have
    /// closed, at most `timeout`. Sockets that open meanwhile are refused (see ``DrainSwitch``); agents keep their
    /// conversations (their consoles reconnect to another node).
    func drain(within timeout: Duration) async {
        drainSwitch.start()
        for socket in sockets.values.flatMap(\.values) { socket.outbox.close(DrainSwitch.error) }
        for agent in agents.values { agent.outbox.close(DrainSwitch.error) }
        let step = Duration.milliseconds(20)
        // Bounded, so that a timeout of years (a configuration mistake) cannot overflow the count.
        let steps = Int(min(max(timeout / step, 1), 1_000_000))
        // Real time, not the server's clock: the wait is for connections to close, which happens in the world's
        // time. On a virtual clock (a test's) the steps never passed, and a stop that began before a closing socket
        // had left the hub waited for ever (about one run in eight of the token-expiry tests).
        for _ in 0..<steps where !(sockets.isEmpty && agents.isEmpty) {
            try? await Task.sleep(for: step)
        }
        if !(sockets.isEmpty && agents.isEmpty) {
            logger.warning("draining: \(sockets.count + agents.count) sockets still open after \(timeout)")
        }
    }
}
