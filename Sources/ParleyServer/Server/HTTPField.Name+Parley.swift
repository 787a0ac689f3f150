import HTTPTypes

extension HTTPField.Name {
    /// `X-Frame-Options`.
    static let xFrameOptions = known("X-Frame-Options")
    /// `Referrer-Policy`.
    static let referrerPolicy = known("Referrer-Policy")
    /// `X-Parley-Session-Secret`: a user's session secret on a socket upgrade or an upload (docs/security.md).
    static let parleySessionSecret = known("X-Parley-Session-Secret")

    /// A field name written in this file. Each is a valid token (`HTTPFieldNameTests` checks them all), so the
    /// failure branch is a programming error caught by the tests, never something a request can reach.
    private static func known(_ name: String) -> Self {
        guard let field = Self(name) else { preconditionFailure("\(name) is not a valid HTTP field name") }
        return field
    }
}
