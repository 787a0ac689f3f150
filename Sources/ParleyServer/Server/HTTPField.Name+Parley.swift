import HTTPTypes

extension HTTPField.Name {
    /// `X-Frame-Options`.
    static let xFrameOptions = known("X-Frame-Options")
    /// `Referrer-Policy`.
    static let referrerPolicy = known("Referrer-Policy")
    /// `X-Parley-Session-Secret`: a user's session secret on a socket upgrade or an upload (docs/security.md).
    static let parleySessionSecret = known("X-Parley-Session-Secret")
    /// `Forwarded` (RFC 7239): set by a reverse proxy; `GET /metrics` trusts no loopback peer that sends it.
    static let forwarded = known("Forwarded")
    /// `X-Forwarded-For`: set by a reverse proxy (nginx's `proxy_add_x_forwarded_for`).
    static let xForwardedFor = known("X-Forwarded-For")
    /// `X-Real-IP`: set by a reverse proxy (nginx's `$remote_addr`).
    static let xRealIP = known("X-Real-IP")

    /// A field name written in this file. Each is a valid token (`HTTPFieldNameTests` checks them all), so the
    /// failure branch is a programming error caught by the tests, never something a request can reach.
    private static func known(_ name: String) -> Self {
        guard let field = Self(name) else { preconditionFailure("\(name) is not a valid HTTP field name") }
        return field
    }
}
