import Crypto
import Foundation

/// Session secrets bound to user ids on open channels (`docs/security.md`).
///
/// On a channel without client authentication the user id is the only credential: whoever learns it can open a
/// socket as that user and read the transcript. A channel with ``ChannelConfiguration/sessionSecrets`` binds each
/// user id to a secret the server issues once (`POST /chat/v1/sessions`); a socket or an upload for that user id
/// must then present the secret, and ``verify(channel:userId:secret:)`` checks it.
///
/// A secret is 256 bits from the system's cryptographic generator, handed out once as base64url. The server keeps
/// only its SHA-256 digest, with the channel, the user id and the date, in its ``SessionBindingStore``
/// (`DATA/sessions.sqlite` by default; the database for a cluster), so that a copy of the data does not hand out
/// working secrets, and a restarted server still knows every binding. Digests are compared in constant time.
///
/// A secret lasts ``ChannelConfiguration/sessionSecretLifetimeDays`` from its issue: after that ``verify`` refuses it
/// with ``ParleyError/Code/sessionExpired``, and a socket opened with it is closed (4009) at that moment. Its holder
/// renews it, expired or not, by asking again with the old secret (``issue(channel:userId:previousSecret:)``): the
/// user id gets a new secret and a new lifetime, and keeps its conversation. Without the old secret a bound id stays
/// refused, expired or not, so that an id nobody uses is still not up for grabs.
///
/// Session secrets apply to channels without client authentication only: on an authenticated channel the signed
/// token already names the user, and the flag is ignored.
final class SessionSecrets: Sendable {
    /// A user id with its secret, as issued.
    struct Issued: Sendable, Hashable {
        /// The user id, as given or as made by the server (`user-` and 32 hex digits).
        var userId: String
        /// The secret, base64url without padding (43 characters).
        var sessionSecret: String
    }

    private let bindings: any SessionBindingStore
    private let clock: ServerClock

    /// Session secrets kept in `bindings`.
    /// - Parameter clock: The server's clock, for the dates kept with each binding.
    init(bindings: any SessionBindingStore, clock: ServerClock = .system) {
        self.bindings = bindings
        self.clock = clock
    }

    /// Whether `channel` binds user ids to session secrets.
    static func applies(to channel: ChannelConfiguration) -> Bool {
        channel.sessionSecrets && !channel.clientAuthenticationEnabled
    }

    /// Issues a secret for `userId` on `channel`, or for a new user id the server makes when `userId` is `nil`.
    ///
    /// A user id that has no secret yet is bound to the new one (trust on first use); one that has a secret is
    /// refused, so that nobody can take over an id by asking again — unless `previousSecret` is that secret (expired
    /// or not): then the binding is renewed, a new secret replacing the old one in one compare-and-replace, so that
    /// of two renewals with the same old secret one wins and the other is refused.
    /// - Throws: ``ParleyError/Code/sessionNotOffered`` when the channel does not use session secrets,
    ///   ``ParleyError/Code/sessionUserBound`` when `userId` already has a secret and `previousSecret` is not it,
    ///   ``ParleyError/Code/invalidValue`` for an empty, overlong or control-character user id.
    func issue(channel: ChannelConfiguration, userId: String?, previousSecret: String? = nil)
        async throws(ParleyError) -> Issued
    {
        guard Self.applies(to: channel) else {
            throw ParleyError(.sessionNotOffered, "channel \"\(channel.id)\" does not issue session secrets")
        }
        if let userId { try ConversationKey.validate(userId: userId) }
        let issued = Issued(
            userId: userId ?? "user-" + Self.hex(Self.randomBytes(16)),
            sessionSecret: Self.base64URL(Self.randomBytes(32)))
        let stored: Bool
        do {
            let digest = Self.digest(issued.sessionSecret)
            if let userId, let previousSecret, !previousSecret.isEmpty,
                let bound = try await bindings.binding(channelId: channel.id, userId: userId),
                Self.constantTimeEqual(Self.digest(previousSecret), bound.digest)
            {
                stored = try await bindings.replace(
                    channelId: channel.id, userId: userId, digest: bound.digest, with: digest, at: clock.now())
            } else {
                stored = try await bindings.bind(
                    channelId: channel.id, userId: issued.userId, digest: digest, at: clock.now())
            }
        } catch {
            throw ParleyError(.internalError, "the session store failed", underlying: error)
        }
        guard stored else {
            throw ParleyError(
                .sessionUserBound,
                "user id \(JSONValue.string(issued.userId)) already has a session secret on channel \"\(channel.id)\"")
        }
        return issued
    }

    /// Checks that `secret` is the one issued for `userId` on `channel` and that its lifetime has not ended; returns
    /// at once when the channel does not use session secrets.
    ///
    /// The chat socket and the attachment upload call this after the channel and origin checks, with the secret from
    /// the `sessionSecret` query parameter or the `X-Parley-Session-Secret` header.
    /// - Returns: When the secret expires (a socket opened with it closes then); nil when the channel does not use
    ///   session secrets.
    /// - Throws: ``ParleyError/Code/sessionRequired`` when no secret is given or the user id has none (it must ask
    ///   `POST /chat/v1/sessions` first), ``ParleyError/Code/sessionInvalid`` when the secret is wrong,
    ///   ``ParleyError/Code/sessionExpired`` when it is right but its lifetime has ended,
    ///   ``ParleyError/Code/internalError`` when the store cannot be read.
    @discardableResult
    func verify(channel: ChannelConfiguration, userId: String, secret: String?) async throws(ParleyError) -> Date? {
        guard Self.applies(to: channel) else { return nil }
        guard let secret, !secret.isEmpty else {
            throw ParleyError(
                .sessionRequired,
                "channel \"\(channel.id)\" needs the session secret of the user id (the sessionSecret query parameter)")
        }
        let stored: (digest: Data, date: Date)?
        do {
            stored = try await bindings.binding(channelId: channel.id, userId: userId)
        } catch {
            throw ParleyError(.internalError, "the session store failed", underlying: error)
        }
        guard let stored else {
            throw ParleyError(
                .sessionRequired,
                "the user id has no session secret on channel \"\(channel.id)\"; ask POST /chat/v1/sessions")
        }
        guard Self.constantTimeEqual(Self.digest(secret), stored.digest) else {
            throw ParleyError(.sessionInvalid, "the session secret does not belong to the user id")
        }
        let expiresAt = Self.expiry(of: stored.date, on: channel)
        guard clock.now() < expiresAt else {
            throw ParleyError(
                .sessionExpired,
                "the session secret expired; renew it: POST /chat/v1/sessions with it in X-Parley-Session-Secret")
        }
        return expiresAt
    }

    /// When a secret bound (or renewed) at `date` on `channel` expires.
    static func expiry(of date: Date, on channel: ChannelConfiguration) -> Date {
        date.addingTimeInterval(TimeInterval(channel.sessionSecretLifetimeDays) * 86_400)
    }

    // MARK: Helpers

    /// SHA-256 of the secret's UTF-8 bytes.
    static func digest(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    /// `count` bytes from the system's cryptographic generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Base64url (RFC 4648 §5) without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
