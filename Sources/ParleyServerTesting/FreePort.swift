import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port free now: one the kernel gives a socket bound to port 0, which is then closed. For a server
/// that starts later on it (or must come back on the same port), or a port nothing listens on.
/// - Throws: `POSIXError` when no socket can be made or bound.
public func freePort() throws -> Int {
    #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    try withUnsafeMutablePointer(to: &address) { pointer in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            guard bind(fd, raw, length) == 0, getsockname(fd, raw, &length) == 0 else {
                throw POSIXError(.EADDRINUSE)
            }
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
