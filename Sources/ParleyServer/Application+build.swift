import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
public import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// Builds the Parley chat server: the chat socket, attachment upload and download, the web chat widget, the agent
/// console, and whatever further ``ServerRoutes`` the caller mounts.
///
/// ```swift
/// let app = try await buildApplication(configuration: configuration)
/// try await app.runService()
/// ```
///
/// A graceful stop drains the node first (see ``ParleyApplication``).
/// - Parameters:
///   - configuration: Where to listen, where to keep data, the channels.
///   - store: Where conversations are kept; nil (the default) for ``SQLiteConversationStore`` in the data folder's
///     `parley.sqlite`. The caller keeps a store it gives open while the application runs (for PostgreSQL,
///     `PostgresConversationStore.withStore` in the ParleyPostgres product).
///   - sessionBindings: Where session secrets are kept (``SessionBindingStore``); nil (the default) for the data
///     folder's `sessions.sqlite`. Nodes of a cluster share one (`PostgresSessionBindings`).
///   - attachments: Where attachments are kept (``AttachmentStore``); nil (the default) for the data folder's
///     `attachments`. Nodes of a cluster share one (`PostgresAttachmentStore`). Uploads in progress are written to
///     the data folder either way.
///   - cluster: The other nodes on the same store, for a cluster of servers (`PostgresCluster` in the ParleyPostgres
///     product, on the database of a `PostgresConversationStore`); nil (the default) for a single server.
///   - skills: The app's own skills, by the name a channel's `skill` gives (`"skill": "orders"` in the configuration
///     file, ``SkillReference/named(_:)``); `demo` and `echo` name the built-in ones and cannot be taken. See
///     docs/skills.md, "Skills in Swift".
///   - logger: Where to log.
///   - routes: Further routes the application serves, such as the GMS simulator (see ``ServerRoutes``).
///   - onServerRunning: Called with the port once the server listens (useful with port 0).
/// - Throws: When storage cannot be opened or a channel's skill cannot be loaded (code `decode.invalidValue` for a
///   name no skill has); a `ParleyError` with code
///   `server.dataFolderLocked` when another server holds the data folder, and with code
///   `server.resourceUnreadable` when a page the server ships (the agent console) cannot be read.
public func buildApplication(
    configuration: ServerConfiguration, store: (any ConversationStore)? = nil,
    sessionBindings: (any SessionBindingStore)? = nil, attachments: (any AttachmentStore)? = nil,
    cluster: (any Cluster)? = nil, skills appSkills: [String: any Skill] = [:],
    logger: Logger = Logger(label: "parley.server"),
    routes: [any ServerRoutes] = [],
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> ParleyApplication {
    // One data folder, one server: held until the application stops (released last, see DataFolderLock).
    let folderLock = try DataFolderLock(folder: configuration.dataDirectory)
    let metrics = ServerMetrics(
        factory: configuration.metricsFactory ?? MetricsSystem.factory, channelIds: configuration.channels.map(\.id))
    let baseStore =
        try store
        ?? SQLiteConversationStore(
            url: configuration.dataDirectory.appendingPathComponent("parley.sqlite"), clock: configuration.clock)
    let store = MeasuredConversationStore(base: baseStore, metrics: metrics)
    let sessions = SessionSecrets(
        bindings: try sessionBindings ?? SQLiteSessionBindings(dataDirectory: configuration.dataDirectory),
        clock: configuration.clock)
    if let reserved = appSkills.keys.first(where: { ["demo", "echo"].contains($0) }) {
        throw ParleyError(
            .invalidValue, "the skill name \"\(reserved)\" is the built-in skill's; give the app's another")
    }
    var skills: [String: any Skill] = [:]
    for channel in configuration.channels {
        skills[channel.id] = MeasuredSkill(
            base: try channel.skill.load(appSkills: appSkills, metrics: metrics.factory), metrics: metrics)
    }
    let hub = ChatHub(
        store: store, skills: skills, channels: configuration.channels, logger: logger, clock: configuration.clock,
        cluster: cluster, metrics: metrics)
    await hub.recoverPendingInputs()
    let signIns = SignInLimiter(limit: configuration.failedSignInsPerMinute, clock: configuration.clock)
    let socket = ChatSocket(
        configuration: configuration, hub: hub, signIns: signIns, sessions: sessions, metrics: metrics, logger: logger)

    let router = Router(context: ChatRequestContext.self)
    router.add(middleware: CodedErrorMetricsMiddleware(metrics: metrics))
    router.get("/health") { _, _ in "ok" }
    if let path = configuration.metricsPath {
        if let prometheus = metrics.factory as? PrometheusMetricsFactory {
            MetricsRoutes(
                path: path, token: configuration.metricsToken, registry: prometheus.registry, signIns: signIns,
                trustedProxies: configuration.trustedProxies
            ).register(on: router)
        } else {
            logger.debug("\(path) is not served: the metrics go to a backend other than Prometheus")
        }
    }
    HealthRoutes(store: store, drain: hub.drainSwitch).register(on: router)
    let listeningPort = ListeningPort(configuration.port)
    let attachmentRoutes = AttachmentRoutes(
        configuration: configuration, signIns: signIns, sessions: sessions, store: attachments,
        listeningPort: listeningPort)
    attachmentRoutes.register(on: router)
    SessionRoutes(configuration: configuration, sessions: sessions, signIns: signIns).register(on: router)
    let speech = SpeechService(configuration: configuration.speech, metrics: metrics)
    SpeechRoutes(configuration: configuration, chat: socket, sessions: sessions, speech: speech).register(on: router)
    for extra in routes {
        extra.register(on: router)
    }
    if configuration.servesWidget {
        try WidgetRoutes(configuration: configuration).register(on: router)
    }
    let sockets = Router(context: ChatRequestContext.self)
    // Every WebSocket is pinged by `WebSocketKeepAlive` rather than by a task of Hummingbird's (`autoPing`).
    let pingInterval = configuration.webSocketPingInterval
    sockets.ws("/chat/v1/chats/sockets/{client}") { inbound, outbound, context in
        WebSocketKeepAlive.start(on: context.requestContext.channel, every: pingInterval)
        try await socket.run(
            context.request, connection: context.requestContext, inbound: inbound, outbound: outbound)
    }
    let recognition = RecognitionSocket(
        configuration: configuration, chat: socket, sessions: sessions, speech: speech, logger: logger)
    sockets.ws("/voice/stream/recognize/{locale}/generic") { inbound, outbound, context in
        WebSocketKeepAlive.start(on: context.requestContext.channel, every: pingInterval)
        try await recognition.run(
            context.request, locale: context.requestContext.parameters.get("locale") ?? "",
            connection: context.requestContext, inbound: inbound, outbound: outbound)
    }
    if configuration.agentKey != nil {
        let agentSocket = AgentSocket(
            configuration: configuration, hub: hub, signIns: signIns, metrics: metrics, logger: logger)
        sockets.ws("/agent/socket") { inbound, outbound, context in
            WebSocketKeepAlive.start(on: context.requestContext.channel, every: pingInterval)
            try await agentSocket.run(
                connection: context.requestContext,
                peer: context.requestContext.clientAddress(of: context.request, trusting: configuration.trustedProxies),
                inbound: inbound, outbound: outbound)
        }
        let console = try AgentConsolePage.load()
        router.get("/agent") { _, _ in console.response() }
    }
    let socketResponder = sockets.buildResponder()
    // Never more connections than descriptors: at the descriptor limit accept() fails and NIO retries it at once.
    let descriptorLimit = ConnectionCount.defaultLimit()
    if let asked = configuration.maxConnections, asked > descriptorLimit {
        logger.warning(
            "maxConnections \(asked) is above what the descriptor limit allows; taking \(descriptorLimit) instead")
    }
    let connections = ConnectionCount(limit: min(configuration.maxConnections ?? descriptorLimit, descriptorLimit)) {
        metrics.errorSent(.serverBusy, via: .http)
    }
    let tls = try configuration.tls?.serverConfiguration()
    let server = HTTPServerBuilder { responder in
        let channel = ChatServerChannel(
            base: HTTP1WebSocketUpgradeChannel(
                responder: responder, webSocketResponder: socketResponder,
                configuration: .init(
                    http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
                    ws: .init(
                        maxFrameSize: configuration.maxFrameSize,
                        autoPing: .disabled,  // `WebSocketKeepAlive` pings instead
                        // RFC 6455: a text frame that is not UTF-8 closes the socket with 1007.
                        validateUTF8: true))),
            refusal: { upgrade in
                let refusal = socket.refusalAtUpgrade(upgrade)
                if let refusal { metrics.errorSent(refusal.code, via: .http) }
                return refusal
            }, connections: connections, headerTimeout: configuration.headerTimeout,
            trustedProxies: configuration.trustedProxies)
        guard let tls else { return channel }
        return try TLSChannel(channel, tlsConfiguration: tls)
    }
    var clusterServices: [any Service] = []
    if let sqlite = baseStore as? SQLiteConversationStore {
        // On the system's clock, also when the server's is virtual (see `checkpointer(logger:clock:)`); stopped after
        // the hub has finished.
        clusterServices.append(sqlite.checkpointer(logger: logger, clock: .system))
    }
    if let period = configuration.retention {
        clusterServices.append(
            RetentionService(
                store: store, attachments: attachmentRoutes.store, period: period,
                interval: configuration.retentionSweepInterval, clock: configuration.clock, logger: logger))
    }
    if let cluster {
        clusterServices += [
            cluster,
            ClusterListener(
                hub: hub, cluster: cluster, clock: configuration.clock,
                sweepInterval: configuration.pendingInputSweepInterval),
        ]
    }
    let application = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Parley"),
        // Stopped in reverse order, after the server: the hub finishes answering while the cluster still runs.
        services: [folderLock] + clusterServices + [ChatHub.Finisher(hub: hub)],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            listeningPort.set(port)
            await onServerRunning(port)
        },
        logger: logger
    )
    return ParleyApplication(base: application, hub: hub, drainTimeout: configuration.drainTimeout, logger: logger)
}
