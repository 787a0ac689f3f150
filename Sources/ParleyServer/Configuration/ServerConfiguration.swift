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
    /// The URL clients reach the server at, for attachment links; `http://HOST:PORT` when nil.
    public var publicURL: URL?
    /// How long a socket that is refused from the start (unknown or disabled channel, forbidden origin,
    /// no user) waits for the client's first frame before the refusal is sent anyway.
    public var refusalDelay: Duration = .seconds(1)
    /// The key live agents give to open the agent console's socket (`/agent`, `docs/agents.md`); `nil` switches
    /// the console off. Default `nil`.
    public var agentKey: String?
    /// The Genesys Mobile Services simulator mounted under `/genesys` (`parley serve --gms`); off when nil.
    public var gmsSimulator: GMSSimulatorConfiguration?
    /// Whether the server serves the web chat widget at `/` and `/widget` (`docs/widget.md`).
    public var servesWidget = true

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

    /// The channel with `id`.
    public func channel(_ id: String) -> ChannelConfiguration? {
        channels.first { $0.id == id }
    }
}
