import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics` (``ServerConfiguration/metricsPath``): the Prometheus registry's metrics in the text exposition
/// format (docs/deploy.md, "Metrics").
///
/// Who may read them (docs/security.md):
/// - With a ``ServerConfiguration/metricsToken``, any peer that sends `Authorization: Bearer <token>`; a missing or
///   wrong token is `401 auth.invalidToken` and counts as a failed sign-in of its address (``SignInLimiter``).
/// - Without one, a loopback peer (`127.0.0.0/8`, `::1`) whose request carries no `Forwarded`, `X-Forwarded-For` or
///   `X-Real-IP` field: a reverse proxy on the same machine connects from loopback too, and must not pass the
///   world's requests as its own. Anyone else gets `403 metrics.forbidden`.
struct MetricsRoutes {
    let path: String
    let token: String?
    let registry: PrometheusCollectorRegistry
    let signIns: SignInLimiter
    /// The proxies whose forwarding headers give the client's address, the key of the failed sign-in limit.
    var trustedProxies: TrustedProxies = .none

    func register(on router: Router<ChatRequestContext>) {
        router.get(RouterPath(path)) { request, context in
            try authorize(request, peer: context.remoteAddress)
            var bytes: [UInt8] = []
            registry.emit(into: &bytes)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    private func authorize(_ request: Request, peer: SocketAddress?) throws(CodedHTTPError) {
        let address = trustedProxies.clientAddress(
            peer: peer?.ipAddress ?? "unknown", forwarded: request.headers[values: .forwarded],
            xForwardedFor: request.headers[values: .xForwardedFor])
        guard let token else {
            let proxied = [HTTPField.Name.forwarded, .xForwardedFor, .xRealIP].contains { request.headers[$0] != nil }
            guard !proxied, let peer, Self.isLoopback(peer) else {
                throw CodedHTTPError(
                    .forbidden, .metricsForbidden,
                    "without a metrics token, only a loopback client that is no proxy may read the metrics")
            }
            return
        }
        do {
            try signIns.check(address)
        } catch {
            throw CodedHTTPError(.tooManyRequests, error)
        }
        guard let given = ChannelToken.bearerToken(in: request.headers[.authorization]),
            AgentSocket.constantTimeEqual(given, token)
        else {
            signIns.recordFailure(address)
            throw CodedHTTPError(.unauthorized, .invalidToken, "the metrics need \"Authorization: Bearer <token>\"")
        }
    }

    /// Whether `address` is a loopback address: `127.0.0.0/8`, `::1`, or `::ffff:127.x.y.z`.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.lowercased().hasPrefix("::ffff:127.")
    }
}
