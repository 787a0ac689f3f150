import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import ParleyGMSSimulator
import ParleyLanguageModel
import ParleyPostgres
import ParleyServer
import ParleySpeech
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
            given; see docs/deploy.md, "Metrics". Channels with speech on (--speech, or a channel's "speech" in \
            the file) serve Oracle's speech socket and text to speech; see docs/speech.md. --tls-certificate and \
            --tls-key serve HTTPS and wss:// directly.
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
                configuration, store: nil, sessionBindings: nil, attachments: nil, cluster: nil,
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
                "conversations and attachments in PostgreSQL at "
                + "\(databaseConfiguration.endpoint)/\(databaseConfiguration.database), "
                + "uploads in progress in \(configuration.dataDirectory.path)"
            let cluster = PostgresCluster(
                store: store, configuration: databaseConfiguration, logger: logger, clock: configuration.clock)
            try await serve(
                configuration, store: store, sessionBindings: PostgresSessionBindings(store: store),
                attachments: PostgresAttachmentStore(store: store), cluster: cluster, storage: storage, logger)
        }
    }

    private func serve(
        _ configuration: ServerConfiguration, store: (any ConversationStore)?,
        sessionBindings: (any SessionBindingStore)?, attachments: (any AttachmentStore)?, cluster: (any Cluster)?,
        storage: String, _ logger: Logger
    ) async throws {
        let speech = await ServerOptions.speechLines(configuration)
        let app = try await buildApplication(
            configuration: configuration, store: store, sessionBindings: sessionBindings, attachments: attachments,
            cluster: cluster, logger: logger,
            routes: server.routes(for: configuration)
        ) { port in
            let banner = ServerOptions.banner(
                configuration, port: port, storage: storage, gms: server.gms, speech: speech)
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
            "Keep conversations and attachments in PostgreSQL at this URL (default: SQLite and files in --data).",
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

    @Option(
        help: ArgumentHelp(
            "Add the unauthenticated channel \"llm\", answered by the language model --model at this "
                + "OpenAI-compatible API base (such as http://127.0.0.1:11434/v1; see docs/skills.md).",
            valueName: "url"))
    var llm: String?

    @Option(help: ArgumentHelp("The model of --llm, as its endpoint names it.", valueName: "name"))
    var model: String?

    @Option(
        help: ArgumentHelp(
            "Switch on the live-agent console at /agent with this agent key, which signs the agents' tokens.",
            discussion: """
                Agents sign in with their own token, minted with `parley token --agent NAME` (see docs/agents.md), \
                never with the key. Also PARLEY_AGENT_KEY in the environment, --agent-key-file, or the configuration \
                file's "agentKey", which keep it out of the process list.
                """,
            valueName: "key"))
    var agentKey: String?

    @Option(help: ArgumentHelp("A file holding the agent key (see --agent-key).", valueName: "path"))
    var agentKeyFile: String?

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

    @Option(help: "How many bytes of attachments one user may keep on one channel (default 262144000: 250 MiB).")
    var userStorageQuota: Int?

    @Option(
        help: ArgumentHelp(
            "How many bytes of attachments the server keeps in all (default 10737418240: 10 GiB).",
            discussion: "Beyond it an upload is refused with 507 attachment.storageFull (see docs/security.md).",
            valueName: "bytes"))
    var attachmentQuota: Int?

    @Option(help: "How long one upload may take from start to end (default 10m; then 408 attachment.timedOut).")
    var uploadTimeout: DurationArgument?

    @Option(
        help: ArgumentHelp(
            "The fewest bytes a second an upload must receive over each 10 seconds (default 2048).",
            discussion: """
                A slower upload ends with 408 attachment.tooSlow; while every upload slot is taken, a new upload \
                takes the slot of the slowest upload below this rate (see docs/security.md).
                """,
            valueName: "bytes"))
    var uploadMinimumRate: Int?

    @Option(
        help: ArgumentHelp(
            "Delete conversations idle for longer than this, with their users' attachments (default: keep them).",
            discussion: "A duration such as 90d or 12h; the server looks once an hour (see docs/server.md).",
            valueName: "duration"))
    var retain: DurationArgument?

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

    @Flag(help: "Switch speech on for the channels of --channel and --auth-channel (see docs/speech.md).")
    var speech = false

    @Option(
        help: ArgumentHelp(
            "The recogniser: whisper, pocketsphinx, scripted or none (default: whisper with --whisper-model, else "
                + "pocketsphinx); espeak-ng speaks.",
            discussion: """
                whisper runs OpenAI's Whisper (faster-whisper) on the model of --whisper-model; pocketsphinx is the \
                small fallback (system is the default choice). scripted recognises the --speech-transcript texts in \
                turn, one per recognition, with an energy detector instead of a recogniser: for demonstrations and \
                tests on machines without an engine. See docs/speech.md.
                """,
            valueName: "engine"))
    var speechEngine: String?

    @Option(
        help: ArgumentHelp(
            "A Whisper model folder (CTranslate2: model.bin, config.json, tokenizer.json); whisper then recognises.",
            valueName: "dir"))
    var whisperModel: String?

    @Option(help: "A text the scripted recogniser hears (repeat for more; with --speech-engine scripted).")
    var speechTranscript: [String] = []

    @Option(help: "The PEM certificate chain to serve HTTPS and wss:// with (needs --tls-key).")
    var tlsCertificate: String?

    @Option(help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "A reverse proxy (address or CIDR network) whose Forwarded / X-Forwarded-For headers give the client's "
                + "address (repeat for more; see docs/deploy.md).",
            discussion: """
                Only requests from these peers are read for the client's address, the key of every per-address \
                limit; the rightmost hop that is no trusted proxy is the client. Without it the headers are ignored.
                """,
            valueName: "cidr"))
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "The URL clients reach the server at, for attachment links (default: http[s]://HOST:PORT).",
            valueName: "url"))
    var publicURL: String?

    @Option(help: "How many messages one conversation may send per minute; more are refused (default 600).")
    var messagesPerMinute: Int?

    func validate() throws {
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-certificate and --tls-key go together")
        }
        if let speechEngine, !ServerConfigurationFile.speechEngines.contains(speechEngine) {
            throw ValidationError(
                "--speech-engine is " + ServerConfigurationFile.speechEngines.joined(separator: ", "))
        }
        if speechEngine == "whisper", whisperModel == nil, config == nil {
            throw ValidationError("--speech-engine whisper needs --whisper-model DIR")
        }
        if authChannel != nil, secret?.isEmpty ?? true {
            throw ValidationError("--auth-channel needs --secret")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1")
        }
        if let failedSignInsPerMinute, failedSignInsPerMinute < 1 {
            throw ValidationError("--failed-sign-ins-per-minute must be at least 1")
        }
        if let userStorageQuota, userStorageQuota < 1 {
            throw ValidationError("--user-storage-quota must be at least 1 (bytes)")
        }
        if let attachmentQuota, attachmentQuota < 1 {
            throw ValidationError("--attachment-quota must be at least 1 (bytes)")
        }
        if let uploadMinimumRate, uploadMinimumRate < 0 {
            throw ValidationError("--upload-minimum-rate must be 0 or more (bytes a second)")
        }
        if let metricsPath, !metricsPath.hasPrefix("/") {
            throw ValidationError("--metrics-path must start with /")
        }
        if metricsToken?.isEmpty == true {
            throw ValidationError("--metrics-token must not be empty")
        }
        if agentKey?.isEmpty == true {
            throw ValidationError("--agent-key must not be empty")
        }
        if agentKey != nil, agentKeyFile != nil {
            throw ValidationError("--agent-key and --agent-key-file go one at a time")
        }
        do {
            _ = try TrustedProxies(parsing: trustedProxy)
        } catch {
            throw ValidationError("--trusted-proxy: \(error.message)")
        }
        if let publicURL, ServerConfiguration.publicURL(publicURL) == nil {
            throw ValidationError("--public-url is an absolute http:// or https:// URL")
        }
        if let messagesPerMinute, !(1...1_000_000).contains(messagesPerMinute) {
            throw ValidationError("--messages-per-minute must be from 1 to 1000000")
        }
    }

    /// The server's configuration, and the database URL (`--database`, else the configuration file's `database`;
    /// nil for SQLite).
    /// The model of `--llm` and `--model`, which go together.
    func languageModel() throws -> LanguageModelConfiguration? {
        switch (llm, model) {
        case (nil, nil): return nil
        case (let url?, let model?):
            let configuration = LanguageModelConfiguration(url: url, model: model)
            do {
                try configuration.validate()
            } catch {
                throw ValidationError("--llm: \(error.message)")
            }
            return configuration
        default: throw ValidationError("--llm and --model go together")
        }
    }

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
        if let model = try languageModel() {
            configuration.channels.append(ChannelConfiguration(id: "llm", name: "Language model", skill: .llm(model)))
        }
        let channelSpeech = speech ? ChannelSpeech.on : ChannelSpeech()
        configuration.channels += channel.map {
            ChannelConfiguration(id: $0, skill: skillReference, speech: channelSpeech)
        }
        if let authChannel, let secret {
            configuration.channels.append(
                ChannelConfiguration(
                    id: authChannel, secret: secret, clientAuthenticationEnabled: true, skill: skillReference,
                    speech: channelSpeech))
        }
        // The command line, then the file.
        if let certificate = tlsCertificate ?? file?.tlsCertificate, let key = tlsKey ?? file?.tlsKey {
            configuration.tls = TLSFiles(
                certificate: URL(fileURLWithPath: certificate), key: URL(fileURLWithPath: key))
        }
        let engine = speechEngine ?? file?.speechEngine ?? "system"
        switch engine {
        case "scripted":
            configuration.speech = SpeechConfiguration(
                recognizer: ScriptedStreamingRecognizer(transcripts: speechTranscript),
                synthesizer: SpeechConfiguration.system.synthesizer)
        case "none": configuration.speech = .none
        default:
            let model = whisperModel ?? file?.whisperModel
            configuration.speech = .system
            configuration.speech.recognizer = try RecognitionEngine.choose(engine, whisperModel: model)
                .recognizer(whisperModel: model)
        }
        // The command line, then the environment, then the file (docs/security.md, "Live agents").
        configuration.agentKey = try agentKey ?? Self.agentKey(file: agentKeyFile) ?? file?.agentKey
        configuration.maxConnections = maxConnections
        if let headerTimeout { configuration.headerTimeout = headerTimeout.duration }
        if let idleTimeout { configuration.idleTimeout = idleTimeout.duration }
        if let failedSignInsPerMinute { configuration.failedSignInsPerMinute = failedSignInsPerMinute }
        if let userStorageQuota { configuration.userStorageQuota = userStorageQuota }
        // The command line, then the file.
        if let quota = attachmentQuota ?? file?.attachmentQuota { configuration.attachmentQuota = quota }
        if let timeout = uploadTimeout?.duration ?? file?.uploadTimeout { configuration.uploadTimeout = timeout }
        if let rate = uploadMinimumRate ?? file?.uploadMinimumRate { configuration.uploadMinimumRate = rate }
        if let retention = retain?.duration ?? file?.retain { configuration.retention = retention }
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
        configuration.trustedProxies = try TrustedProxies(
            parsing: trustedProxy.isEmpty ? file?.trustedProxies ?? [] : trustedProxy)
        if let url = publicURL ?? file?.publicURL { configuration.publicURL = ServerConfiguration.publicURL(url) }
        configuration.widgetChatServers = file?.widgetChatServers ?? []
        if let messagesPerMinute { configuration.messagesPerMinute = messagesPerMinute }
        if configuration.channels.isEmpty {
            configuration.channels = [
                ChannelConfiguration(id: "demo", name: "Pizza demo", skill: skillReference, speech: channelSpeech)
            ]
        }
        return (configuration, database ?? fileDatabase)
    }

    /// The agent key of `--agent-key-file` (its text without surrounding white space), else of `PARLEY_AGENT_KEY`.
    static func agentKey(file path: String?) throws -> String? {
        guard let path else {
            return ProcessInfo.processInfo.environment["PARLEY_AGENT_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        }
        let text: String
        do {
            text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        } catch {
            throw ValidationError("--agent-key-file \(path): \(error.localizedDescription)")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw ValidationError("--agent-key-file \(path) is empty") }
        return key
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

    /// What the speech engines can do, for the banner (asked before the server starts: a missing engine is said,
    /// not fatal); nothing when no channel has speech on.
    static func speechLines(_ configuration: ServerConfiguration) async -> [String] {
        guard configuration.channels.contains(where: \.speech.enabled) else { return [] }
        return await configuration.speech.availability()
    }

    static func banner(
        _ configuration: ServerConfiguration, port: Int, storage: String, gms: Bool = false, speech: [String] = []
    ) -> String {
        let (http, ws) = configuration.tls == nil ? ("http", "ws") : ("https", "wss")
        var lines = ["Parley is listening on \(http)://\(configuration.host):\(port) (\(storage))"]
        for channel in configuration.channels {
            let kind = channel.clientAuthenticationEnabled ? "authenticated" : "open"
            let state = channel.enabled ? "" : ", disabled"
            let speaks = channel.speech.enabled ? ", speech in \(channel.speech.locales.joined(separator: " "))" : ""
            lines.append(
                "  channel \(channel.id) (\(kind)\(state)\(speaks)): \(ws)://\(configuration.host):\(port)"
                    + "/chat/v1/chats/sockets/websdk?channelId=\(channel.id)&userId=YOU"
            )
        }
        for line in speech {
            lines.append("  speech: \(line)")
        }
        if let agentKey = configuration.agentKey {
            lines.append(
                "  agent console: \(http)://\(configuration.host):\(port)/agent "
                    + "(agents sign in with a token of `parley token --agent NAME`)")
            if agentKey.count < 32 {
                lines.append(
                    "  warning: the agent key is shorter than 32 characters; it signs the agents' tokens, "
                        + "so a token could be used to guess it")
            }
        }
        if gms {
            lines.append("  GMS simulator: \(http)://\(configuration.host):\(port)/genesys (Bayeux at /genesys/cometd)")
        }
        if let metricsPath = configuration.metricsPath {
            let who = configuration.metricsToken == nil ? "loopback clients only" : "with the metrics token"
            lines.append("  metrics: \(http)://\(configuration.host):\(port)\(metricsPath) (Prometheus, \(who))")
        }
        if configuration.servesWidget {
            lines.append("  web chat: \(http)://\(configuration.host):\(port)/ (docs/widget.md)")
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
