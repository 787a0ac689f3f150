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
    /// refused, so that nobody can take over an id by asking again.
    /// - Throws: ``ParleyError/Code/sessionNotOffered`` when the channel does not use session secrets,
    ///   ``ParleyError/Code/sessionUserBound`` when `userId` already has a secret,
    ///   ``ParleyError/Code/invalidValue`` for an empty, overlong or control-character user id.
    func issue(channel: ChannelConfiguration, userId: String?) async throws(ParleyError) -> Issued {
        guard Self.applies(to: channel) else {
            throw ParleyError(.sessionNotOffered, "channel \"\(channel.id)\" does not issue session secrets")
        }
        if let userId { try ConversationKey.validate(userId: userId) }
        let issued = Issued(
            userId: userId ?? "user-" + Self.hex(Self.randomBytes(16)),
            sessionSecret: Self.base64URL(Self.randomBytes(32)))
        let inserted: Bool
        do {
            inserted = try await bindings.bind(
                channelId: channel.id, userId: issued.userId, digest: Self.digest(issued.sessionSecret),
                at: clock.now())
        } catch {
            throw ParleyError(.internalError, "the session store failed", underlying: error)
        }
        guard inserted else {
            throw ParleyError(
                .sessionUserBound,
                "user id \(JSONValue.string(issued.userId)) already has a session secret on channel \"\(channel.id)\"")
        }
        return issued
    }

    /// Checks that `secret` is the one issued for `userId` on `channel`; returns at once when the channel does not
    /// use session secrets.
    ///
    /// The chat socket and the attachment upload call this after the channel and origin checks, with the secret from
    /// the `sessionSecret` query parameter or the `X-Parley-Session-Secret` header.
    /// - Throws: ``ParleyError/Code/sessionRequired`` when no secret is given or the user id has none (it must ask
    ///   `POST /chat/v1/sessions` first), ``ParleyError/Code/sessionInvalid`` when the secret is wrong,
    ///   ``ParleyError/Code/internalError`` when the store cannot be read.
    func verify(channel: ChannelConfiguration, userId: String, secret: String?) async throws(ParleyError) {
        guard Self.applies(to: channel) else { return }
        guard let secret, !secret.isEmpty else {
            throw ParleyError(
                .sessionRequired,
                "channel \"\(channel.id)\" needs the session secret of the user id (the sessionSecret query parameter)")
        }
        let stored: Data?
        do {
            stored = try await bindings.digest(channelId: channel.id, userId: userId)
        } catch {
            throw ParleyError(.internalError, "the session store failed", underlying: error)
        }
        guard let stored else {
            throw ParleyError(
                .sessionRequired,
                "the user id has no session secret on channel \"\(channel.id)\"; ask POST /chat/v1/sessions")
        }
        guard Self.constantTimeEqual(Self.digest(secret), stored) else {
            throw ParleyError(.sessionInvalid, "the session secret does not belong to the user id")
        }
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
