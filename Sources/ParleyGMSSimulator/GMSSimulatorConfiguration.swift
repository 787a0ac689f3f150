/// Settings of the Genesys Mobile Services simulator that `parley serve --gms` mounts under `/genesys`.
///
/// The simulator answers the GMS callback services with the dialogs of Genesys's documentation, runs Chat API
/// version 1 with a scripted agent, and serves a long-polling Bayeux endpoint at `/genesys/cometd` that
/// delivers chat events on `/_genesys` and answers Chat API version 2 on `/service/chatV2/{serviceName}`.
/// See `docs/genesys.md`.
public struct GMSSimulatorConfiguration: Sendable, Hashable {
    /// The scripted agent's name.
    public var agentName: String
    /// How long the Bayeux endpoint holds a `/meta/connect` when nothing is to be delivered.
    public var longPollTimeout: Duration
    /// Whether `/meta/connect` needs the `BAYEUX_BROWSER` cookie set at handshake (as CometD does by default with
    /// `trustClientSession` off); a request without it is answered as from an unknown client.
    public var requireBrowserCookie: Bool
    /// The length of a callback time slot (GMS's `_request_time_bucket`), at least a minute; default 15 minutes.
    public var callbackBucket: Duration
    /// How many scheduled callbacks one slot takes (GMS's `max_request_by_time_bucket`); default 1, so that a
    /// second booking of a slot is refused as GMS refuses a full one.
    public var callbackBucketCapacity: Int

    /// A configuration.
    public init(
        agentName: String = "Kristi Sippola", longPollTimeout: Duration = .seconds(10),
        requireBrowserCookie: Bool = false, callbackBucket: Duration = .seconds(15 * 60),
        callbackBucketCapacity: Int = 1
    ) {
        self.agentName = agentName
        self.longPollTimeout = longPollTimeout
        self.requireBrowserCookie = requireBrowserCookie
        self.callbackBucket = callbackBucket
        self.callbackBucketCapacity = callbackBucketCapacity
    }
}
