public import CoreMetrics
public import Foundation

/// Everything `parley serve` needs: where to listen, where to keep data, and the channels.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// Where conversations (`parley.sqlite`) and attachments are kept.
    public var dataDirectory: URL
    /// The channels, in order; the first unauthenticated one is the default for the web widget.
    public var channels: [ChannelConfiguration]
    /// The largest WebSocket frame accepted; a larger one closes the socket with 1009.
    public var maxFrameSize: Int
    /// The largest attachment accepted, in bytes (25 MiB, as the Oracle server).
    public var maxAttachmentSize: Int
    /// How long an authenticated channel waits for the `auth` frame when the upgrade had no token.
    public var authenticationTimeout: Duration
    /// The URL clients reach the server at (`--public-url`), for the links of uploaded attachments. When nil, links
    /// are made from ``host`` and ``port`` with the scheme the server itself serves (`https` with ``tls``), never from
    /// a request's `Host` header, which any client can write.
    public var publicURL: URL?
    /// The reverse proxies whose `Forwarded` / `X-Forwarded-For` headers give the client's address
    /// (`--trusted-proxy`, ``TrustedProxies``): the key of every per-address limit. Default none: the headers are
    /// ignored and the address is the TCP peer's.
    public var trustedProxies: TrustedProxies = .none
    /// How long a socket that is refused from the start (unknown or disabled channel, forbidden origin,
    /// no user) waits for the client's first frame before the refusal is sent anyway.
    public var refusalDelay: Duration = .seconds(1)
    /// The agent key: the secret that signs the live agents' tokens (``AgentToken``, `parley token --agent NAME`),
    /// with which agents open the agent console's socket (`/agent`, `docs/agents.md`); the key itself does not sign
    /// in. `nil` switches the console off. Default `nil`.
    public var agentKey: String?
    /// Whether the server serves the web chat widget at `/` and `/widget` (`docs/widget.md`).
    public var servesWidget = true
    /// Other chat servers the widget page this server serves may be pointed at by a link (`?URI=`), as origins
    /// (`https://chat2.example.com`). Default none: the page connects to its own origin only, whatever a link says,
    /// and its Content-Security-Policy allows connections to that origin only (docs/security.md).
    public var widgetChatServers: [String] = []
    /// Where the server's time comes from: its timeouts, rate windows and stored dates (see ``ServerClock``).
    /// Default ``ServerClock/system``; a test gives one on a `VirtualClock` to move time instead of waiting.
    public var clock: ServerClock = .system
    /// In a cluster (a ``Cluster`` given to
    /// ``buildApplication(configuration:store:sessionBindings:attachments:cluster:logger:routes:onServerRunning:)``):
    /// how often a node looks for inputs that no node answers, because the node that stored them died before
    /// answering. Default 2 seconds.
    public var pendingInputSweepInterval: Duration = .seconds(2)
    /// On a graceful stop, how long the node waits for its sockets to close after telling them to reconnect
    /// elsewhere (``ParleyApplication``), before it stops the server anyway. Default 10 seconds.
    public var drainTimeout: Duration = .seconds(10)

    /// The speech engines and limits of the speech endpoints (`docs/speech.md`, "The server"); which channels serve
    /// them is each channel's ``ChannelConfiguration/speech``. Default ``SpeechConfiguration/system``: PocketSphinx
    /// and espeak-ng on Linux.
    public var speech: SpeechConfiguration = .system
    /// The PEM certificate chain and private key files to serve HTTPS and `wss://` with (``TLSFiles``); `nil` (the
    /// default) serves plain HTTP, for a TLS front such as nginx (`docs/deploy.md`).
    public var tls: TLSFiles?

    // MARK: Metrics (docs/deploy.md, "Metrics")

    /// Where the server's metrics (``ServerMetrics``) go. `nil` (the default): `MetricsSystem.factory`, the backend
    /// the process bootstrapped (`parley serve` bootstraps Prometheus; without a bootstrap they go nowhere). A test
    /// gives a `PrometheusMetricsFactory` on a registry of its own, since a process bootstraps only once.
    public var metricsFactory: (any MetricsFactory)?
    /// The path that serves the metrics in Prometheus's text format when they go to a `PrometheusMetricsFactory`;
    /// `nil` serves none (the metrics are still recorded). Default `/metrics`.
    public var metricsPath: String? = "/metrics"
    /// The bearer token that reading ``metricsPath`` needs (`Authorization: Bearer <token>`). `nil` (the default):
    /// only a loopback client that is no reverse proxy may read it (docs/security.md).
    public var metricsToken: String?

    // MARK: Limits against hostile or broken peers (docs/security.md)

    /// The most connections (HTTP and WebSocket) open at once; one more is answered `503` with a coded JSON body
    /// and closed. `nil` (the default) derives it from the process's file-descriptor limit, which the server
    /// raises to its hard maximum at start, keeping 128 descriptors for files and the database.
    public var maxConnections: Int?
    /// How long a new connection may take to send its first complete request head; a slower one is closed. After
    /// the first head, ``idleTimeout`` watches the connection (between requests and mid-body). Default 10 seconds.
    public var headerTimeout: Duration = .seconds(10)
    /// How long an HTTP connection may stay silent while a request body is read or between requests; a silent one
    /// is closed. Default 60 seconds.
    public var idleTimeout: Duration = .seconds(60)
    /// How often the server pings an open WebSocket; one that has not answered the previous ping by the next is
    /// closed. A socket's first ping comes within one interval of its opening (the connections of an event loop are
    /// pinged together). Default 30 seconds.
    public var webSocketPingInterval: Duration = .seconds(30)
    /// The most bytes waiting to be written to one socket; a socket that falls further behind is closed with
    /// ``CloseCode/socketTooSlow`` so that the conversation's other sockets never wait for it. Default 4 MiB.
    public var socketBufferLimit: Int = 4 << 20
    /// How long one write to a socket may take before the socket is closed as too slow. Default 10 seconds.
    public var socketWriteTimeout: Duration = .seconds(10)
    /// How many failed sign-ins (bad tokens, bad agent keys, bad session secrets) one address may make per minute;
    /// after that its attempts are refused with ``ParleyError/Code/rateLimited`` until the minute has passed.
    /// Default 20.
    public var failedSignInsPerMinute = 20
    /// How many messages (user messages and profile updates) one conversation may send per minute, per node; one
    /// more is refused, not stored, with ``ParleyError/Code/rateLimited`` and a `retryAfter` (docs/security.md).
    /// Default 600: ten a second, far beyond any person typing or tapping, while a script that floods the store is
    /// held to it.
    public var messagesPerMinute = 600
    /// The most uploads running at once on the whole server; one more is refused with `503`. Default 8.
    public var maxConcurrentUploads = 8
    /// The most uploads one user runs at once; one more is refused with `429`. Default 2.
    public var maxConcurrentUploadsPerUser = 2
    /// How many uploads one user may start per minute; more are refused with `429`. Default 20.
    public var uploadsPerUserPerMinute = 20
    /// How many bytes of attachments one user may keep on one channel; an upload beyond it is refused with `413`.
    /// Default 250 MiB.
    public var userStorageQuota: Int = 250 << 20
    /// How many bytes of attachments the server keeps in all, of every user and channel; an upload beyond it is
    /// refused with `507 attachment.storageFull`. `nil` for no limit. Default 10 GiB.
    public var attachmentQuota: Int? = 10 << 30
    /// How long one upload may take, from its admission to its last byte; a longer one is ended with
    /// `408 attachment.timedOut`. Default 10 minutes.
    public var uploadTimeout: Duration = .seconds(600)
    /// The fewest bytes a second an upload must receive, measured over each ``uploadRateWindow`` of the time the
    /// server waited for the client (its own time writing the file does not count); a slower one is
    /// ended with `408 attachment.tooSlow`, and while every upload slot is taken a new upload takes the slot of the
    /// slowest one below it. Default 2048 (2 KiB a second).
    public var uploadMinimumRate: Int = 2048
    /// The period over which ``uploadMinimumRate`` is measured. Default 10 seconds.
    public var uploadRateWindow: Duration = .seconds(10)

    // MARK: Retention (docs/security.md, "Storage over time")

    /// How long a conversation may stay idle (no message either way) before it is deleted, with its messages and
    /// its user's attachments on its channel; `nil` (the default) keeps conversations for ever.
    public var retention: Duration?
    /// How often the server looks for conversations idle longer than ``retention``. Default an hour.
    public var retentionSweepInterval: Duration = .seconds(3600)

    /// Creates a configuration.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL, channels: [ChannelConfiguration] = [],
        maxFrameSize: Int = 1 << 20, maxAttachmentSize: Int = 25 << 20, authenticationTimeout: Duration = .seconds(10),
        publicURL: URL? = nil
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.channels = channels
        self.maxFrameSize = maxFrameSize
        self.maxAttachmentSize = maxAttachmentSize
        self.authenticationTimeout = authenticationTimeout
        self.publicURL = publicURL
    }

    /// `text` as a public URL: absolute, `http` or `https`, with a host; nil otherwise.
    public static func publicURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// The channel with `id`.
    public func channel(_ id: String) -> ChannelConfiguration? {
        channels.first { $0.id == id }
    }
}
