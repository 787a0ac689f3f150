import Crypto
public import Foundation

/// Verifies and mints channel JWTs: HS256 signed with the channel secret, claims `iat`, `exp`,
/// `channelId`, `userId`.
///
/// Verification refuses, each with its own ``ParleyError/Code`` (and ``CloseCode``): a token that
/// is not three base64url parts with JSON header and claims, an `alg` other than `HS256` (`none`
/// included), a bad signature, a missing claim (``ParleyError/Code/invalidToken``); `exp` in the
/// past (``ParleyError/Code/tokenExpired``); `iat` more than ``clockSkew`` in the future
/// (``ParleyError/Code/tokenNotYetValid``); `exp - iat` over the channel's maximum
/// (``ParleyError/Code/tokenLifetimeTooLong``); a `channelId` or `userId` other than the socket's
/// (``ParleyError/Code/channelMismatch``).
public enum ChannelToken {
    /// How far in the future `iat` may lie, for clocks that disagree a little.
    public static let clockSkew: TimeInterval = 30

    /// Verifies `token` for `channel` and returns its claims.
    /// - Parameters:
    ///   - token: A compact JWT.
    ///   - channel: The channel the socket is for; its secret checks the signature.
    ///   - userId: The socket's `userId` query parameter, if it has one.
    ///   - now: The current time.
    public static func verify(
        _ token: String, for channel: ChannelConfiguration, userId: String? = nil, now: Date = Date()
    ) throws(ParleyError) -> TokenClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Data(base64URLEncoded: parts[0]),
            let signature = Data(base64URLEncoded: parts[2])
        else {
            throw ParleyError(.invalidToken, "the token is not a JWT: three base64url parts separated by '.'")
        }
        guard let header = try? JSONValue(parsing: headerBytes), header.objectValue != nil else {
            throw ParleyError(.invalidToken, "the token's header is not a JSON object")
        }
        guard header["alg"] == "HS256" else {
            throw ParleyError(
                .invalidToken, "the token's algorithm is \(header["alg"] ?? "missing"); only HS256 is accepted")
        }
        let key = SymmetricKey(data: Data((channel.secret ?? "").utf8))
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signed, using: key) else {
            throw ParleyError(.invalidToken, "the token's signature does not match the channel secret")
        }
        let claims: TokenClaims
        do {
            claims = try TokenClaims(token: token)
        } catch {
            throw ParleyError(
                .invalidToken, "the token's claims are incomplete: \(error.description)", underlying: error)
        }
        // TokenClaims has checked that iat and exp are times from 1 to the year 9999, so the arithmetic and the
        // whole-second texts below cannot overflow.
        let current = now.timeIntervalSince1970
        guard claims.expiresAt > current else {
            throw ParleyError(
                .tokenExpired, "the token expired at \(Int64(claims.expiresAt)) (now \(Int64(current)))")
        }
        guard claims.issuedAt <= current + clockSkew else {
            throw ParleyError(.tokenNotYetValid, "the token is issued at \(Int64(claims.issuedAt)), in the future")
        }
        let lifetime = claims.expiresAt - claims.issuedAt
        guard lifetime > 0 else {
            throw ParleyError(.invalidToken, "the token's exp is not after its iat")
        }
        guard lifetime <= Double(channel.maxTokenExpiryMinutes) * 60 else {
            throw ParleyError(
                .tokenLifetimeTooLong,
                "the token lives \(Int64(lifetime / 60)) minutes; "
                    + "channel \"\(channel.id)\" allows \(channel.maxTokenExpiryMinutes)"
            )
        }
        guard claims.channelId == channel.id else {
            throw ParleyError(
                .channelMismatch, "the token is for channel \"\(claims.channelId)\", not \"\(channel.id)\"")
        }
        if let userId, userId != claims.userId {
            throw ParleyError(.channelMismatch, "the token is for user \"\(claims.userId)\", not \"\(userId)\"")
        }
        return claims
    }

    /// The token of an `Authorization: Bearer <token>` header value; nil for any other value.
    static func bearerToken(in authorization: String?) -> String? {
        guard let authorization, authorization.lowercased().hasPrefix("bearer ") else { return nil }
        return String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
    }

    /// Mints a token, for development and for an app's backend; apps never hold the secret.
    public static func mint(_ claims: TokenClaims, secret: String) -> String {
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncodedString()
        let payload = Data(claims.jsonBytes()).base64URLEncodedString()
        return "\(header).\(payload).\(signature(of: "\(header).\(payload)", secret: secret))"
    }

    /// The base64url HS256 signature of `signingInput` (`header.payload`) with `secret`.
    static func signature(of signingInput: String, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(code).base64URLEncodedString()
    }

    /// Mints a token for `userId` on `channelId` that lives `lifetime` seconds from `now`.
    public static func mint(
        channelId: String, userId: String, secret: String, lifetime: TimeInterval, now: Date = Date()
    ) -> String {
        let issued = now.timeIntervalSince1970.rounded(.down)
        return mint(
            TokenClaims(issuedAt: issued, expiresAt: issued + lifetime, channelId: channelId, userId: userId),
            secret: secret)
    }
}
