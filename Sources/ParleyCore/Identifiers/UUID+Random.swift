public import Foundation

extension UUID {
    /// A new random UUID (version 4, RFC 9562), drawn from the system's random number generator.
    ///
    /// What `UUID()` gives, without its cost on Linux: there swift-foundation opens, reads and closes
    /// `/dev/urandom` at every call, three system calls and a path lookup, which was about 6 % of the server's CPU
    /// under load when every reply got a `msgId` that way (docs/performance.md). `SystemRandomNumberGenerator` is the
    /// same kernel source through `getrandom` (Linux) or `arc4random_buf` (Apple platforms).
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var uuid = UUID.null.uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: generator.next(), toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: generator.next(), toByteOffset: 8, as: UInt64.self)
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant
        }
        return UUID(uuid: uuid)
    }

    /// The UUID whose bits are all zero.
    static let null = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
