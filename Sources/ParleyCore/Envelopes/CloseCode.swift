/// The status code of a WebSocket close frame, as Parley's server uses it.
///
/// Codes 1000–1011 are RFC 6455's; 4001–4011 are Parley's own, one per reason a server refuses a
/// socket, each paired with a ``ParleyError/Code``. The close reason is that error code followed
/// by a short message. A client treats 4001–4011 as final (no reconnect loop) and 1006 as a
/// network failure worth retrying, as the Oracle web SDK does.
public struct CloseCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The numeric code.
    public var rawValue: UInt16
    /// Creates a close code.
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The numeric code as text.
    public var description: String { String(rawValue) }

    /// The conversation ended normally.
    public static let normal = CloseCode(rawValue: 1000)
    /// The server is shutting down (or the client is leaving).
    public static let goingAway = CloseCode(rawValue: 1001)
    /// The connection ended without a close frame (never sent; seen by clients when the network fails).
    public static let abnormal = CloseCode(rawValue: 1006)
    /// The frame broke a policy, such as an origin an unauthenticated channel does not allow.
    public static let policyViolation = CloseCode(rawValue: 1008)
    /// A text frame was not UTF-8 (RFC 6455's "Invalid frame payload data").
    public static let invalidPayload = CloseCode(rawValue: 1007)
    /// A frame was larger than the server accepts.
    public static let messageTooBig = CloseCode(rawValue: 1009)
    /// The server failed.
    public static let internalError = CloseCode(rawValue: 1011)
    /// The server is restarting or being drained; reconnect (RFC 6455's "Service Restart", registered with IANA).
    public static let serviceRestart = CloseCode(rawValue: 1012)
    /// The server is busy or the client is rate-limited; reconnect later (RFC 6455's "Try Again Later").
    public static let tryAgainLater = CloseCode(rawValue: 1013)
    /// ``ParleyError/Code/authRequired``.
    public static let authRequired = CloseCode(rawValue: 4001)
    /// ``ParleyError/Code/invalidToken``.
    public static let invalidToken = CloseCode(rawValue: 4002)
    /// ``ParleyError/Code/tokenExpired``.
    public static let tokenExpired = CloseCode(rawValue: 4003)
    /// ``ParleyError/Code/tokenNotYetValid``.
    public static let tokenNotYetValid = CloseCode(rawValue: 4004)
    /// ``ParleyError/Code/tokenLifetimeTooLong``.
    public static let tokenLifetimeTooLong = CloseCode(rawValue: 4005)
    /// ``ParleyError/Code/channelMismatch``.
    public static let channelMismatch = CloseCode(rawValue: 4006)
    /// ``ParleyError/Code/sessionRequired``.
    public static let sessionRequired = CloseCode(rawValue: 4007)
    /// ``ParleyError/Code/sessionInvalid``.
    public static let sessionInvalid = CloseCode(rawValue: 4008)
    /// ``ParleyError/Code/sessionExpired``: final for the old secret; the client renews it and reconnects.
    public static let sessionExpired = CloseCode(rawValue: 4009)
    /// ``ParleyError/Code/unknownChannel``.
    public static let unknownChannel = CloseCode(rawValue: 4010)
    /// ``ParleyError/Code/channelDisabled``.
    public static let channelDisabled = CloseCode(rawValue: 4011)
    /// ``ParleyError/Code/socketTooSlow``: not final, the client reconnects and resumes.
    public static let socketTooSlow = CloseCode(rawValue: 4020)

    /// The close code for an error that ends a connection; ``internalError`` for codes that do not.
    public init(for code: ParleyError.Code) {
        self = Self.byErrorCode[code] ?? .internalError
    }

    /// Whether reconnecting with the same credentials cannot succeed: the client surfaces the error
    /// once, and only tries again with a new token (for ``tokenExpired``) or a new configuration.
    public var isFinal: Bool {
        (4001...4011).contains(rawValue) || self == .policyViolation
    }

    private static let byErrorCode: [ParleyError.Code: CloseCode] = [
        .authRequired: .authRequired, .invalidToken: .invalidToken, .tokenExpired: .tokenExpired,
        .tokenNotYetValid: .tokenNotYetValid, .tokenLifetimeTooLong: .tokenLifetimeTooLong,
        .channelMismatch: .channelMismatch, .unknownChannel: .unknownChannel, .channelDisabled: .channelDisabled,
        .originForbidden: .policyViolation, .frameTooLarge: .messageTooBig, .internalError: .internalError,
        .sessionRequired: .sessionRequired, .sessionInvalid: .sessionInvalid,
        .sessionExpired: .sessionExpired, .serverBusy: .tryAgainLater,
        .rateLimited: .tryAgainLater, .socketTooSlow: .socketTooSlow, .invalidUTF8: .invalidPayload,
        .serverDraining: .serviceRestart,
    ]
}
