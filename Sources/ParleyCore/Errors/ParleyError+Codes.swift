extension ParleyError.Code {
    // MARK: JSON syntax (the frame is kept; the server answers with an error frame)

    /// The input is not JSON: a syntax error, with line and column in the message.
    public static let malformedJSON: Self = "json.malformed"
    /// A JSON string holds bytes that are not UTF-8, or an unpaired surrogate escape.
    public static let invalidUTF8: Self = "json.invalidUTF8"
    /// Arrays and objects nest deeper than ``JSONValue/maximumDepth``.
    public static let nestingTooDeep: Self = "json.tooDeep"
    /// An object names the same key twice.
    public static let duplicateKey: Self = "json.duplicateKey"
    /// A number does not fit a 64-bit floating-point value.
    public static let numberOutOfRange: Self = "json.numberOutOfRange"

    // MARK: Decoding into the typed model

    /// A value has the wrong JSON type, such as a number where a string is required.
    public static let typeMismatch: Self = "decode.typeMismatch"
    /// A required field is absent.
    public static let missingField: Self = "decode.missingField"
    /// A value has the right type but is not allowed, such as `1.5` where an integer is required.
    public static let invalidValue: Self = "decode.invalidValue"

    // MARK: Connection and authentication (the server closes the socket; see ``CloseCode``)

    /// A client-authenticated channel got no token: no `Authorization` header and a first frame that is not `auth`.
    public static let authRequired: Self = "auth.required"
    /// A token is not a well-formed HS256 JWT signed with the channel secret, or lacks a required claim.
    public static let invalidToken: Self = "auth.invalidToken"
    /// A token's `exp` has passed.
    public static let tokenExpired: Self = "auth.expired"
    /// A token's `iat` lies in the future.
    public static let tokenNotYetValid: Self = "auth.notYetValid"
    /// A token's `exp - iat` exceeds the channel's maximum token lifetime.
    public static let tokenLifetimeTooLong: Self = "auth.lifetimeTooLong"
    /// A token's `channelId` (or `userId`) differs from the socket's.
    public static let channelMismatch: Self = "auth.channelMismatch"
    /// No channel has the requested id.
    public static let unknownChannel: Self = "channel.unknown"
    /// The channel exists but is switched off.
    public static let channelDisabled: Self = "channel.disabled"
    /// The page's origin is not among an unauthenticated channel's allowed origins.
    public static let originForbidden: Self = "channel.originForbidden"
    /// A frame is larger than the server accepts.
    public static let frameTooLarge: Self = "frame.tooLarge"
    /// The server failed; the message says no more than is safe to tell.
    public static let internalError: Self = "server.internal"
    /// The server holds as many connections (or uploads) as it is configured for; try again later.
    public static let serverBusy: Self = "server.busy"
    /// Too many attempts from this address or user in too short a time (failed sign-ins, uploads); try again later.
    public static let rateLimited: Self = "server.rateLimited"
    /// The server is stopping gracefully (a node of a cluster being drained): the socket is closed with
    /// ``CloseCode/serviceRestart``, and reconnecting (through the load balancer, to another node) resumes the
    /// conversation.
    public static let serverDraining: Self = "server.draining"
    /// The socket did not read what the server sent fast enough; it was closed so that others do not wait.
    /// Reconnecting (and resuming) is safe.
    public static let socketTooSlow: Self = "socket.tooSlow"
    /// The channel binds user ids to server-issued session secrets and the socket gave none.
    public static let sessionRequired: Self = "session.required"
    /// The session secret given does not belong to the user id.
    public static let sessionInvalid: Self = "session.invalid"
    /// The session secret is the user's, but its lifetime (the channel's `sessionSecretLifetimeDays`) has ended:
    /// renew it (`POST /chat/v1/sessions` with the old secret in `X-Parley-Session-Secret`) and reconnect.
    public static let sessionExpired: Self = "session.expired"
}

extension ParleyError.Code {
    /// A frame of a kind the receiver does not handle: binary, or an object that is not a message, profile or state
    /// frame.
    public static let unsupportedFrame: Self = "frame.unsupported"
    /// A skill failed to answer; the conversation goes on.
    public static let skillFailed: Self = "skill.failed"
}
