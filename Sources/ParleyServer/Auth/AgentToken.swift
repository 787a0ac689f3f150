import Crypto
public import Foundation

/// Verifies and mints agent tokens: the credential a live agent signs in to the agent console with
/// (`docs/agents.md`, `docs/security.md`).
///
/// An agent token is a JWT signed like a channel token (HS256, ``ChannelToken``), with the server's agent key
/// (``ServerConfiguration/agentKey``) as the secret, and the claims `aud` (`"parley.agent"`), `agent` (the agent's
/// name), `iat` and `exp`. The name an agent acts under is the token's: whatever the sign-in frame declares, and a
/// conversation an agent takes is bound to that name. A channel token is never an agent token (it has no `aud` and
/// no `agent`), and an agent token is never a channel token (it has no `channelId`).
///
/// `parley token --agent NAME` mints one; the operator keeps the key and gives each agent its own token.
public enum AgentToken {
    /// The `aud` claim of every agent token.
    public static let audience = "parley.agent"
    /// The longest lifetime (`exp - iat`) the server accepts: a day, one shift and then some.
    public static let maxLifetime: TimeInterval = 24 * 60 * 60
    /// The longest agent name, in characters.
    public static let maxNameLength = 100

    /// The claims of a verified agent token.
    public struct Claims: Sendable, Hashable {
        /// The agent's name: who the agent is, for every conversation it takes.
        public var agent: String
        /// When the token was issued (`iat`).
        public var issuedAt: Date
        /// When the token stops being valid (`exp`).
        public var expiresAt: Date
    }

    /// Mints a token for the agent named `agent` that lives `lifetime` seconds from `now`.
    /// - Parameters:
    ///   - agent: The agent's name, as users see it (`agentSession.name`).
    ///   - key: The server's agent key.
    ///   - lifetime: Seconds, at most ``maxLifetime`` for the server to accept it.
    ///   - now: The time of issue.
    public static func mint(agent: String, key: String, lifetime: TimeInterval, now: Date = Date()) -> String {
        let issued = now.timeIntervalSince1970.rounded(.down)
        let claims: JSONValue = [
            "aud": .string(audience), "agent": .string(agent), "iat": .number(issued),
            "exp": .number(issued + lifetime.rounded(.down)),
        ]
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncodedString()
        let payload = Data(claims.jsonString().utf8).base64URLEncodedString()
        return "\(header).\(payload).\(ChannelToken.signature(of: "\(header).\(payload)", secret: key))"
    }

    /// Whether `name` may be an agent's name: not blank, at most ``maxNameLength`` characters, no control characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.trimmingCharacters(in: .whitespaces).isEmpty && name.count <= maxNameLength
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Verifies `token` against the agent key `key` and returns its claims.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/invalidToken`` for a token that is not an HS256 JWT
    ///   signed with `key`, has no `aud` of ``audience`` or no valid `agent`, or lives longer than ``maxLifetime``;
    ///   ``ParleyError/Code/tokenExpired`` when `exp` has passed; ``ParleyError/Code/tokenNotYetValid`` when `iat`
    ///   is more than ``ChannelToken/clockSkew`` in the future.
    public static func verify(_ token: String, key: String, now: Date) throws(ParleyError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Data(base64URLEncoded: parts[0]),
            let payloadBytes = Data(base64URLEncoded: parts[1]), let signature = Data(base64URLEncoded: parts[2])
        else {
            throw ParleyError(.invalidToken, "the agent token is not a JWT: three base64url parts separated by '.'")
        }
        guard let header = try? JSONValue(parsing: headerBytes), header["alg"] == "HS256" else {
            throw ParleyError(.invalidToken, "the agent token's header is not JSON with the algorithm HS256")
        }
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: signed, using: SymmetricKey(data: Data(key.utf8)))
        else {
            throw ParleyError(.invalidToken, "the agent token's signature does not match the agent key")
        }
        guard let claims = try? JSONValue(parsing: payloadBytes), claims["aud"]?.stringValue == audience,
            let agent = claims["agent"]?.stringValue, isValidName(agent)
        else {
            throw ParleyError(
                .invalidToken, "the token is not an agent token (aud \"\(audience)\" and an agent name are needed)")
        }
        guard let issued = claims["iat"]?.doubleValue, let expires = claims["exp"]?.doubleValue,
            issued.isFinite, expires.isFinite, issued > 0, expires > issued
        else {
            throw ParleyError(.invalidToken, "the agent token needs iat and exp, exp after iat")
        }
        let current = now.timeIntervalSince1970
        guard expires > current else {
            throw ParleyError(.tokenExpired, "the agent token expired at \(Int64(expires)) (now \(Int64(current)))")
        }
        guard issued <= current + ChannelToken.clockSkew else {
            throw ParleyError(.tokenNotYetValid, "the agent token is issued at \(Int64(issued)), in the future")
        }
        guard expires - issued <= maxLifetime else {
            throw ParleyError(
                .invalidToken,
                "the agent token lives \(Int64((expires - issued) / 3600)) hours; at most \(Int(maxLifetime / 3600))")
        }
        return Claims(
            agent: agent, issuedAt: Date(timeIntervalSince1970: issued), expiresAt: Date(timeIntervalSince1970: expires)
        )
    }
}
