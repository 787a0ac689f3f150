import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port free now, for a server that starts later on it (or must come back on the same port), or a
/// port nothing listens on.
///
/// Chosen at random below the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range` on Linux), and
/// checked by binding it: the kernel gives ports of that range to every outgoing connection, so a port from it (what
/// binding port 0 returns) could be taken by any connection on the machine before the server bound it, or while it
/// restarted ("Address already in use", seen under the whole suite's load). Where the range cannot be read, the
/// kernel's port-0 choice is used.
/// - Throws: `POSIXError` when no socket can be made or bound.
public func freePort() throws -> Int {
    let below = ephemeralPortsStart()
    if below > 12_000 {
        for _ in 0..<200 {
            let port = Int.random(in: 10_000..<below)
            if (try? bound(port)) != nil { return port }
        }
    }
    return try bound(0)
}

/// The first port of the kernel's ephemeral range; 0 where it cannot be read.
private func ephemeralPortsStart() -> Int {
    #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
            let first = text.split(whereSeparator: \.isWhitespace).first, let start = Int(first)
        else { return 0 }
        return start
    #else
        return 49_152  // the IANA dynamic range, which Darwin uses
    #endif
}

/// Binds a socket to 127.0.0.1:`port` (0: a port the kernel chooses), closes it, and returns the port bound.
private func bound(_ port: Int) throws -> Int {
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
    address.sin_port = UInt16(port).bigEndian
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
