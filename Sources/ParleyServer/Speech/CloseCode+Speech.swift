import ParleyCore

extension CloseCode {
    /// RFC 6455's "Unsupported Data": the recognition socket's locale is not served.
    static let unsupportedData = CloseCode(rawValue: 1003)
}
