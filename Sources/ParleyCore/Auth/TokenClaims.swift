#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The claims of a channel JWT: who may open a socket on which channel, and until when.
///
/// ```json
/// {"iat": 1569828182, "exp": 1569831782, "channelId": "xxxxxxxx-…", "userId": "John"}
/// ```
///
/// ``init(token:)`` reads the claims of a compact JWT *without checking its signature*: a client
/// uses it to learn its channel and user from the token its backend issued, as the Oracle SDKs do.
/// Servers verify the signature first (Parley's server does, with the channel secret).
public struct TokenClaims: JSONConvertible, Codable, Hashable {
    /// Issued at, in seconds since 1970 (`iat`).
    public var issuedAt: Double
    /// Expires at, in seconds since 1970 (`exp`).
    public var expiresAt: Double
    /// The channel the token opens (`channelId`).
    public var channelId: String
    /// The user the token speaks for (`userId`).
    public var userId: String
    /// Other claims, kept unchanged.
    public var extra: JSONObject

    /// Creates claims.
    public init(issuedAt: Double, expiresAt: Double, channelId: String, userId: String, extra: JSONObject = [:]) {
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.channelId = channelId
        self.userId = userId
        self.extra = extra
    }

    /// The latest time a claim may name: the end of the year 9999, in seconds since 1970.
    public static let latestTime: Double = 253_402_300_799

    /// Decodes the claims object; all four claims are required.
    ///
    /// `iat` and `exp` must be numbers from 1 to ``latestTime`` (the Oracle Web SDK also refuses `iat` or `exp`
    /// that are not positive numbers); anything else (`1e300`, a negative number) is
    /// ``ParleyError/Code/invalidToken``, so no later date or timer arithmetic ever sees such a value.
    public init(json: JSONValue) throws(ParleyError) {
        var reader = try FieldReader(json)
        issuedAt = try Self.time(reader.required("iat"), "iat")
        expiresAt = try Self.time(reader.required("exp"), "exp")
        channelId = try reader.required("channelId")
        userId = try reader.required("userId")
        extra = reader.rest
    }

    private static func time(_ value: Double, _ claim: String) throws(ParleyError) -> Double {
        guard value >= 1, value <= latestTime else {
            throw ParleyError(
                .invalidToken,
                "the token's \(claim) is \(JSONValue.number(value).jsonString()), "
                    + "not a time from 1 to \(Int64(latestTime)) seconds since 1970",
                path: JSONPath([.key(claim)]))
        }
        return value
    }

    /// Reads the claims from a compact JWT (`header.payload.signature`) without verifying it.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/invalidToken`` when the token is not
    ///   three base64url parts with a JSON payload, or a `decode.*` code when a claim is missing.
    public init(token: String) throws(ParleyError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Data(base64URLEncoded: parts[1]) else {
            throw ParleyError(.invalidToken, "a JWT has three base64url parts separated by '.'")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: payload)
        } catch {
            throw ParleyError(.invalidToken, "the JWT payload is not JSON: \(error.message)", underlying: error)
        }
        try self.init(json: json)
    }

    /// The wire form.
    public var jsonValue: JSONValue {
        var builder = ObjectBuilder()
        builder.set("iat", issuedAt)
        builder.set("exp", expiresAt)
        builder.set("channelId", channelId)
        builder.set("userId", userId)
        return builder.finish(with: extra)
    }

    /// When the token was issued.
    public var issuedDate: Date { Date(timeIntervalSince1970: issuedAt) }
    /// When the token expires.
    public var expiryDate: Date { Date(timeIntervalSince1970: expiresAt) }
}
