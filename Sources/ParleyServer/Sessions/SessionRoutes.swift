import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /chat/v1/sessions?channelId=C[&userId=U]`: issues a session secret bound to a user id on a channel with
/// ``ChannelConfiguration/sessionSecrets`` (see ``SessionSecrets``), and answers CORS for it.
///
/// | request | answer |
/// |---|---|
/// | no `userId` | 200 `{"userId": "user-<32 hex>", "sessionSecret": S}`, a new user id |
/// | a `userId` without a secret | 200 `{"userId": U, "sessionSecret": S}`: the id is bound from now on |
/// | a `userId` with a secret | 409 `session.userBound` |
/// | a `userId` with a secret, and it (even expired) in `X-Parley-Session-Secret` | 200 with a new secret for U |
/// | a `userId` with a secret, and another in `X-Parley-Session-Secret` | 409 `session.userBound`, a failed sign-in |
/// | too many failed sign-ins from the address | 429 `server.rateLimited` |
/// | unknown channel / switched off | 404 `channel.unknown` / 403 `channel.disabled` |
/// | channel without session secrets | 404 `session.notOffered` |
/// | a browser `Origin` the channel does not allow | 403 `channel.originForbidden` |
///
/// Refusals are ``CodedHTTPError``s (`{"error": {"code": …, "message": …}}`). Answers are never cached. A browser
/// origin in the channel's ``ChannelConfiguration/allowedOrigins`` (or any, with `*`) gets
/// `Access-Control-Allow-Origin`, on the answer, on its refusals and on the `OPTIONS` preflight (``CORS``).
struct SessionRoutes {
    let configuration: ServerConfiguration
    let sessions: SessionSecrets
    /// Sessions issued per address and minute: each binds a row in `sessions.sqlite`, so a flood of requests must
    /// not grow it without bound. 30 a minute, far more than a person opening chats needs.
    let issuances: SignInLimiter
    /// Failed sign-ins per address, shared with the sockets: a renewal with a wrong old secret is one.
    let signIns: SignInLimiter

    /// Creates the routes; the issuance limit runs on the configuration's clock.
    init(configuration: ServerConfiguration, sessions: SessionSecrets, signIns: SignInLimiter) {
        self.configuration = configuration
        self.sessions = sessions
        self.issuances = SignInLimiter(limit: 30, clock: configuration.clock)
        self.signIns = signIns
    }

    /// The preflight's answer: `POST`, with a `Content-Type` and the old secret of a renewal if the page sends them.
    static let cors = CORS(methods: [.post], allowedHeaders: ["content-type", "x-parley-session-secret"])

    func register(on router: Router<some RemoteAddressRequestContext>) {
        router.post("/chat/v1/sessions") { request, context in
            try await issue(
                request,
                peer: configuration.trustedProxies.clientAddress(
                    peer: context.remoteAddress?.ipAddress ?? "unknown", forwarded: request.headers[values: .forwarded],
                    xForwardedFor: request.headers[values: .xForwardedFor]))
        }
        router.on("/chat/v1/sessions", method: .options) { request, _ in
            try Self.cors.preflight(request, allowedOrigins: try channel(of: request).allowedOrigins)
        }
    }

    private func issue(_ request: Request, peer: String) async throws(CodedHTTPError) -> Response {
        let channel = try channel(of: request)
        let cors = CORS.responseHeaders(for: request, allowedOrigins: channel.allowedOrigins)
        let issued: SessionSecrets.Issued
        // A renewal presents the old secret (only in the header: a query string ends up in logs).
        let previousSecret = request.headers[ChatSocket.Upgrade.sessionSecretHeader].flatMap { $0.isEmpty ? nil : $0 }
        do throws(ParleyError) {
            if previousSecret != nil { try signIns.check(peer) }
            try issuances.admit(peer)
            do throws(ParleyError) {
                issued = try await sessions.issue(
                    channel: channel, userId: request.uri.queryParameters.get("userId"), previousSecret: previousSecret)
            } catch {
                if previousSecret != nil, error.code == .sessionUserBound { signIns.recordFailure(peer) }
                throw error
            }
        } catch {
            throw CodedHTTPError(Self.status(of: error.code), error, headers: cors)
        }
        let body: JSONValue = ["userId": .string(issued.userId), "sessionSecret": .string(issued.sessionSecret)]
        var headers = cors
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body.jsonBytes())))
    }

    /// The request's channel, once it exists, is on, and its browser origin (if any) is allowed.
    private func channel(of request: Request) throws(CodedHTTPError) -> ChannelConfiguration {
        guard let id = request.uri.queryParameters.get("channelId"), let channel = configuration.channel(id) else {
            throw CodedHTTPError(.notFound, .unknownChannel, "no such channel")
        }
        guard channel.enabled else {
            throw CodedHTTPError(.forbidden, .channelDisabled, "channel \"\(channel.id)\" is disabled")
        }
        if case .forbidden(let origin) = CORS.decision(for: request, allowedOrigins: channel.allowedOrigins) {
            throw CodedHTTPError(
                .forbidden, .originForbidden, "the origin \(origin) is not among the channel's allowed origins",
                headers: [.vary: "Origin"])
        }
        return channel
    }

    /// The HTTP status of each refusal of ``SessionSecrets/issue(channel:userId:)``.
    static func status(of code: ParleyError.Code) -> HTTPResponse.Status {
        switch code {
        case .sessionNotOffered: .notFound
        case .sessionUserBound: .conflict
        case .invalidValue: .badRequest
        case .rateLimited: .tooManyRequests
        default: .internalServerError
        }
    }
}
