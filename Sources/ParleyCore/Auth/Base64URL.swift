#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension Data {
    /// Decodes base64url text (RFC 4648 §5), with or without `=` padding, as JWTs use it.
    public init?(base64URLEncoded text: some StringProtocol) {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    /// The bytes as base64url text without padding, as JWTs use it.
    public func base64URLEncodedString() -> String {
        String(base64EncodedString().compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
    }
}
