import Foundation
import HTTPTypes
import Hummingbird

/// Cross-origin resource sharing for a Parley HTTP endpoint, decided by a channel's allowed origins.
///
/// A chat page on another origin (Oracle's Web SDK on a shop's site) calls `POST /chat/v1/attachments` with
/// custom headers, so its browser first sends a preflight `OPTIONS` request. ``preflight(_:allowedOrigins:)``
/// answers it: `204` with `Access-Control-Allow-Origin: <origin>` when the channel's
/// ``ChannelConfiguration/allowedOrigins`` allow the origin (`*` allows any), `403 channel.originForbidden` without
/// allow headers otherwise. The actual responses of an allowed origin (errors too, so that the page can read a
/// `413`) carry ``responseHeaders(origin:)``.
///
/// ```swift
/// let cors = CORS(methods: [.post], allowedHeaders: ["authorization", "content-type"])
/// router.on("/chat/v1/sessions", method: .options) { request, _ in
///     let channel = try channel(of: request)
///     return try cors.preflight(request, allowedOrigins: channel.allowedOrigins)
/// }
/// ```
///
/// Requests without an `Origin` header (native apps, curl) and same-origin requests (the widget Parley serves
/// itself) are not cross-origin: ``decision(for:allowedOrigins:)`` says ``Decision/notCrossOrigin``.
struct CORS: Sendable {
    /// The methods a preflight allows (besides `OPTIONS`).
    var methods: [HTTPRequest.Method]
    /// The request headers a preflight allows, lowercase.
    var allowedHeaders: [String]
    /// How long a browser may cache a preflight answer.
    var maxAge: Duration = .seconds(600)

    /// The attachment upload endpoint: `POST` with the headers Oracle's SDKs send.
    static let attachments = CORS(
        methods: [.post],
        allowedHeaders: [
            "authorization", "content-type", "x-oda-meta-file-size", "x-oda-meta-file-isprotected",
            "x-oda-meta-file-authtype",
        ])

    /// What to do with a request's origin.
    enum Decision: Equatable, Sendable {
        /// No `Origin` header, or the server's own origin: no CORS headers needed, nothing to refuse.
        case notCrossOrigin
        /// An allowed origin: answer with its allow headers.
        case allowed(String)
        /// An origin the channel does not allow.
        case forbidden(String)
    }

    /// Whether `request`'s `Origin` may use an endpoint of a channel with `allowedOrigins`.
    static func decision(for request: Request, allowedOrigins: [String]) -> Decision {
        guard let origin = request.headers[.origin]?.trimmingCharacters(in: .whitespaces), !origin.isEmpty else {
            return .notCrossOrigin
        }
        if let host = request.head.authority,
            [Self.normalized("http://\(host)"), Self.normalized("https://\(host)")].contains(Self.normalized(origin))
        {
            return .notCrossOrigin
        }
        return allows(origin, allowedOrigins: allowedOrigins) ? .allowed(origin) : .forbidden(origin)
    }

    /// Whether `origin` is among `allowedOrigins` (`*` allows any; scheme and host compare without case, a
    /// trailing `/` is ignored). A list of several origins, which no browser sends, is never allowed unless `*` is.
    static func allows(_ origin: String, allowedOrigins: [String]) -> Bool {
        if allowedOrigins.contains("*") { return true }
        guard !origin.contains(",") else { return false }
        return allowedOrigins.map(normalized).contains(normalized(origin))
    }

    private static func normalized(_ origin: String) -> String {
        var text = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The headers of an actual (non-preflight) response to an allowed `origin`.
    static func responseHeaders(origin: String) -> HTTPFields {
        [.accessControlAllowOrigin: origin, .vary: "Origin", .accessControlExposeHeaders: "Retry-After"]
    }

    /// The headers of an actual response to `request` when its origin is allowed; none otherwise.
    static func responseHeaders(for request: Request, allowedOrigins: [String]) -> HTTPFields {
        if case .allowed(let origin) = decision(for: request, allowedOrigins: allowedOrigins) {
            return responseHeaders(origin: origin)
        }
        return [:]
    }

    /// The headers every answer to an actual cross-origin `request` carries: the allow headers for an allowed origin,
    /// none for a request that is not cross-origin.
    /// - Throws: `403 channel.originForbidden` for an origin the channel does not allow.
    static func checkedResponseHeaders(
        for request: Request, allowedOrigins: [String]
    ) throws(CodedHTTPError) -> HTTPFields {
        switch decision(for: request, allowedOrigins: allowedOrigins) {
        case .forbidden(let origin):
            throw CodedHTTPError(
                .forbidden, .originForbidden, "the origin \(origin) is not among the channel's allowed origins")
        case .allowed(let origin): return responseHeaders(origin: origin)
        case .notCrossOrigin: return [:]
        }
    }

    /// The answer to a preflight `OPTIONS` request: `204` with the allow headers, or `403 channel.originForbidden`
    /// with no allow header.
    func preflight(_ request: Request, allowedOrigins: [String]) throws(CodedHTTPError) -> Response {
        switch Self.decision(for: request, allowedOrigins: allowedOrigins) {
        case .forbidden(let origin):
            throw CodedHTTPError(
                .forbidden, .originForbidden, "the origin \(origin) is not among the channel's allowed origins",
                headers: [.vary: "Origin"])
        case .notCrossOrigin:
            return Response(status: .noContent, headers: [.allow: allowValue])
        case .allowed(let origin):
            var headers = Self.responseHeaders(origin: origin)
            headers[.accessControlAllowMethods] = allowValue
            headers[.accessControlAllowHeaders] = allowedHeaders.joined(separator: ", ")
            headers[.accessControlMaxAge] = String(maxAge.components.seconds)
            return Response(status: .noContent, headers: headers)
        }
    }

    private var allowValue: String { (methods + [.options]).map(\.rawValue).joined(separator: ", ") }
}
