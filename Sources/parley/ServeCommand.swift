import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import ParleyGMSSimulator
import ParleyPostgres
import ParleyServer
import Prometheus

/// `parley serve`: the reference chat server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Parley chat server.",
        discussion: """
            With no options it serves the demo pizza skill on the unauthenticated channel "demo" at \
            127.0.0.1:8080 and keeps conversations in ./.parley-data. Channels come from --config (a JSON file, \
            see docs/skills.md) and from --channel / --auth-channel. With --database (or the configuration \
            file's "database") conversations are kept in PostgreSQL instead of SQLite; see docs/server.md. \
            Metrics are served in Prometheus's format at /metrics, to loopback clients unless --metrics-token is \
            given; see docs/deploy.md, "Metrics".
            """
    )

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let (configuration, database) = try server.configuration()
        var logger = Logger(label: "parley")
        logger.logLevel = server.verbose ? .debug : .info
        // The process's metrics backend: the server's metrics and those of the libraries it runs on, served at
        // --metrics-path. Once per process; `parley serve` runs once.
        MetricsSystem.bootstrap(PrometheusMetricsFactory())
        guard let database else {
            try await serve(
                configuration, store: nil, sessionBindings: nil, cluster: nil,
                storage: "data in \(configuration.dataDirectory.path)", logger)
            return
        }
        // Connected, signed in and migrated before the server listens: a bad URL, a refused connection or a wrong
        // password ends the command here with a coded error.
        let databaseConfiguration = try PostgresStoreConfiguration(url: database)
        // A node on PostgreSQL is a node of a cluster: any number of them may share the database (docs/deploy.md).
        try await PostgresConversationStore.withStore(databaseConfiguration, logger: logger, clock: configuration.clock)
        {
            store in
            let storage =
                "conversations in PostgreSQL at \(databaseConfiguration.endpoint)/\(databaseConfiguration.database), "
                + "attachments in \(configuration.dataDirectory.path)"
            let cluster = PostgresCluster(store: store, configuration: databaseConfiguration, logger: logger)
            try await serve(
                configuration, store: store, sessionBindings: PostgresSessionBindings(store: store), cluster: cluster,
                storage: storage, logger)
        }
    }

    private func serve(
        _ configuration: ServerConfiguration, store: (any ConversationStore)?,
        sessionBindings: (any SessionBindingStore)?, cluster: (any Cluster)?, storage: String, _ logger: Logger
    ) async throws {
        let app = try await buildApplication(
            configuration: configuration, store: store, sessionBindings: sessionBindings, cluster: cluster,
            logger: logger,
            routes: server.routes(for: configuration)
        ) { port in
            let banner = ServerOptions.banner(configuration, port: port, storage: storage, gms: server.gms)
            FileHandle.standardOutput.write(Data((banner + "\n").utf8))
        }
        try await app.runService()
    }
}

/// The options `parley serve` and `parley demo` share.
struct ServerOptions: ParsableArguments {
    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: "Where conversations and attachments are kept.")
    var data = ".parley-data"

    @Option(help: "A JSON configuration file with channels (see docs/skills.md).")
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Keep conversations in PostgreSQL at this URL (default: SQLite in --data).",
            discussion: """
                postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]; without a password \
                in the URL, PGPASSWORD is used. See docs/server.md.
                """,
            valueName: "url"))
    var database: String?

    @Option(help: "Add an unauthenticated channel with this id, routed to the demo skill.")
    var channel: [String] = []

    @Option(help: "Add a client-authenticated channel with this id (needs --secret), routed to the demo skill.")
    var authChannel: String?

    @Option(help: "The secret of --auth-channel, which signs its tokens (HS256).")
    var secret: String?

    @Option(help: "A dialog-definition file to route the command-line channels to, instead of the demo skill.")
    var skill: String?

    @Option(help: "Switch on the live-agent console at /agent; agents sign in with this key (see docs/agents.md).")
    var agentKey: String?
    @Flag(help: "Also serve a Genesys Mobile Services simulator under /genesys (see docs/genesys.md).")
    var gms = false

    @Flag(help: "Log every frame rejected and every refused socket.")
    var verbose = false

    @Option(help: "The most connections open at once (default: from the file-descriptor limit).")
    var maxConnections: Int?

    @Option(help: "How long a connection may take to send a complete request head (default 10s).")
    var headerTimeout: DurationArgument?

    @Option(help: "How long an HTTP connection may stay silent mid-request or between requests (default 60s).")
    var idleTimeout: DurationArgument?

    @Option(help: "How many failed sign-ins one address may make per minute (default 20).")
    var failedSignInsPerMinute: Int?

    @Option(help: "Where to serve the metrics in Prometheus's format (default /metrics; see docs/deploy.md).")
    var metricsPath: String?

    @Flag(help: "Serve no metrics.")
    var noMetrics = false

    @Option(
        help: ArgumentHelp(
            "The bearer token reading the metrics needs (default: loopback clients only).",
            discussion: "Also PARLEY_METRICS_TOKEN in the environment, which keeps it out of the process list.",
            valueName: "token"))
    var metricsToken: String?

    func validate() throws {
        if authChannel != nil, secret?.isEmpty ?? true {
            throw ValidationError("--auth-channel needs --secret")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1")
        }
        if let failedSignInsPerMinute, failedSignInsPerMinute < 1 {
            throw ValidationError("--failed-sign-ins-per-minute must be at least 1")
        }
        if let metricsPath, !metricsPath.hasPrefix("/") {
            throw ValidationError("--metrics-path must start with /")
        }
        if metricsToken?.isEmpty == true {
            throw ValidationError("--metrics-token must not be empty")
        }
    }

    /// The server's configuration, and the database URL (`--database`, else the configuration file's `database`;
    /// nil for SQLite).
    func configuration() throws -> (ServerConfiguration, database: String?) {
        var configuration = ServerConfiguration(
            host: host, port: port, dataDirectory: URL(fileURLWithPath: data, isDirectory: true))
        var fileDatabase: String?
        var file: ServerConfigurationFile?
        if let config {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: config))
            do {
                let decoded = try ServerConfigurationFile(decoding: bytes)
                configuration.channels = decoded.channels
                fileDatabase = decoded.database
                file = decoded
            } catch {
                throw ValidationError("\(config): \(error)")
            }
        }
        let skillReference = skill.map(SkillReference.file) ?? .demo
        configuration.channels += channel.map { ChannelConfiguration(id: $0, skill: skillReference) }
        if let authChannel, let secret {
            configuration.channels.append(
                ChannelConfiguration(
                    id: authChannel, secret: secret, clientAuthenticationEnabled: true, skill: skillReference))
        }
        configuration.agentKey = agentKey
        configuration.maxConnections = maxConnections
        if let headerTimeout { configuration.headerTimeout = headerTimeout.duration }
        if let idleTimeout { configuration.idleTimeout = idleTimeout.duration }
        if let failedSignInsPerMinute { configuration.failedSignInsPerMinute = failedSignInsPerMinute }
        // The command line, then the environment (the token), then the file.
        if noMetrics {
            configuration.metricsPath = nil
        } else if let path = metricsPath ?? file?.metricsPath {
            configuration.metricsPath = path.isEmpty ? nil : path
        }
        let environmentToken = ProcessInfo.processInfo.environment["PARLEY_METRICS_TOKEN"].flatMap {
            $0.isEmpty ? nil : $0
        }
        configuration.metricsToken = metricsToken ?? environmentToken ?? file?.metricsToken
        if configuration.channels.isEmpty {
            configuration.channels = [ChannelConfiguration(id: "demo", name: "Pizza demo", skill: skillReference)]
        }
        return (configuration, database ?? fileDatabase)
    }

    /// The routes the server serves besides Parley's own: the GMS simulator with `--gms`.
    func routes(for configuration: ServerConfiguration) -> [any ServerRoutes] {
        guard gms else { return [] }
        return [
            GMSRoutes(
                simulator: GMSSimulator(
                    configuration: GMSSimulatorConfiguration(),
                    defaultAuthority: "\(configuration.host):\(configuration.port)"))
        ]
    }

    static func banner(_ configuration: ServerConfiguration, port: Int, storage: String, gms: Bool = false) -> String {
        var lines = ["Parley is listening on http://\(configuration.host):\(port) (\(storage))"]
        for channel in configuration.channels {
            let kind = channel.clientAuthenticationEnabled ? "authenticated" : "open"
            let state = channel.enabled ? "" : ", disabled"
            lines.append(
                "  channel \(channel.id) (\(kind)\(state)): ws://\(configuration.host):\(port)"
                    + "/chat/v1/chats/sockets/websdk?channelId=\(channel.id)&userId=YOU"
            )
        }
        if configuration.agentKey != nil {
            lines.append("  agent console: http://\(configuration.host):\(port)/agent (sign in with the agent key)")
        }
        if gms {
            lines.append("  GMS simulator: http://\(configuration.host):\(port)/genesys (Bayeux at /genesys/cometd)")
        }
        if let metricsPath = configuration.metricsPath {
            let who = configuration.metricsToken == nil ? "loopback clients only" : "with the metrics token"
            lines.append("  metrics: http://\(configuration.host):\(port)\(metricsPath) (Prometheus, \(who))")
        }
        if configuration.servesWidget {
            lines.append("  web chat: http://\(configuration.host):\(port)/ (docs/widget.md)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The GMS simulator's routes mounted on the chat server: ParleyGMSSimulator does not depend on ParleyServer, so the
/// executable, which has both, joins them.
struct GMSRoutes: ServerRoutes {
    let simulator: GMSSimulator

    func register(on router: Router<some RequestContext>) {
        simulator.register(on: router)
    }
}
