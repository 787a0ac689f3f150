import Foundation
public import ParleyCore

/// The reverse proxies whose word the server takes for the client's address (`--trusted-proxy`, docs/deploy.md).
///
/// Every per-address limit (failed sign-ins, session issuance) keys on the client's address. Behind nginx the TCP
/// peer is the proxy, the same for every user, so the server reads the client's address from the proxy's
/// `Forwarded` (RFC 7239) or `X-Forwarded-For` header — but only when the peer is one of these proxies: anyone else
/// could write the header themselves. The address is the rightmost hop of the header that is not itself a trusted
/// proxy (each proxy appends the address it saw, so everything left of the last untrusted hop may be forged). With no
/// trusted proxies (the default) the headers are ignored and the address is the TCP peer's.
public struct TrustedProxies: Sendable, Equatable {
    /// The networks trusted, as given.
    public private(set) var networks: [Network]

    /// No proxy is trusted: the client's address is always the TCP peer's.
    public static let none = TrustedProxies(networks: [])

    /// Trusts the proxies in `networks`.
    public init(networks: [Network]) {
        self.networks = networks
    }

    /// Trusts the proxies written as `10.0.0.0/8`, `127.0.0.1`, `::1`, `fd00::/8`; fails with
    /// `config.invalidValue` on the first that is no address or network.
    public init(parsing specifications: [String]) throws(ParleyError) {
        var networks: [Network] = []
        for specification in specifications {
            guard let network = Network(specification) else {
                throw ParleyError(
                    .invalidValue,
                    "trusted proxy \"\(specification)\" is no IP address or CIDR network (such as 10.0.0.0/8)")
            }
            networks.append(network)
        }
        self.networks = networks
    }

    /// Whether `address` (textual IPv4 or IPv6) is in one of the networks.
    public func trusts(_ address: String) -> Bool {
        guard let bytes = Network.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client's address of a request that came from `peer` with these header values (each the whole value of
    /// one header line, in order).
    public func clientAddress(peer: String, forwarded: [String], xForwardedFor: [String]) -> String {
        guard !networks.isEmpty, trusts(peer) else { return peer }
        // `Forwarded` is the standard; a proxy that sends it is read by it alone.
        let hops =
            forwarded.isEmpty
            ? xForwardedFor.flatMap { $0.split(separator: ",") }.map { Self.plainAddress(String($0)) }
            : forwarded.flatMap { $0.split(separator: ",") }.map { Self.forwardedFor(String($0)) }
        var client = peer
        for hop in hops.reversed() {
            guard let hop, Network.bytes(of: hop) != nil else { return client }  // unreadable: trust nothing left of it
            client = hop
            if !trusts(hop) { return hop }
        }
        return client
    }

    /// An `X-Forwarded-For` element: an address, in brackets or not, maybe with a port.
    static func plainAddress(_ element: String) -> String? {
        var text = element.trimmingWhitespace()
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        // IPv4 with a port: one colon.
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            return String(text[..<colon])
        }
        return text.isEmpty ? nil : text
    }

    /// The `for=` of one `Forwarded` element (`for=192.0.2.60;proto=http;by=203.0.113.43`).
    static func forwardedFor(_ element: String) -> String? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingWhitespace().lowercased() == "for" else { continue }
            return plainAddress(String(parts[1]))
        }
        return nil
    }

    /// An IPv4 or IPv6 network: an address and how many leading bits of it count.
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        /// The address's bytes (4 for IPv4, 16 for IPv6).
        let bytes: [UInt8]
        /// The prefix length.
        let prefix: Int
        /// The network as it was written (`10.0.0.0/8`).
        public let description: String

        /// Parses `10.0.0.0/8`, `127.0.0.1` (a /32), `::1` (a /128), `fd00::/8`; nil when it is none of these.
        public init?(_ text: String) {
            let parts = text.trimmingWhitespace().split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let bytes = Self.bytes(of: String(parts[0])) else { return nil }
            let bits = bytes.count * 8
            if parts.count == 2 {
                guard let prefix = Int(parts[1]), (0...bits).contains(prefix), parts[1].allSatisfy(\.isASCII) else {
                    return nil
                }
                self.prefix = prefix
            } else {
                prefix = bits
            }
            self.bytes = bytes
            description = text.trimmingWhitespace()
        }

        /// Whether `address` (bytes as ``bytes(of:)`` gives them) lies in the network. An IPv4 address written as
        /// IPv6 (`::ffff:10.1.2.3`) counts as the IPv4 address.
        func contains(_ address: [UInt8]) -> Bool {
            let address = Self.unmapped(address)
            guard address.count == Self.unmapped(bytes).count else { return false }
            let mine = Self.unmapped(bytes)
            let prefix = bytes.count == 16 && mine.count == 4 ? self.prefix - 96 : self.prefix
            guard prefix >= 0 else { return true }
            for index in 0..<address.count {
                let remaining = prefix - index * 8
                if remaining <= 0 { return true }
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if address[index] & mask != mine[index] & mask { return false }
            }
            return true
        }

        private static func unmapped(_ bytes: [UInt8]) -> [UInt8] {
            if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return Array(bytes[12..<16])
            }
            return bytes
        }

        /// The bytes of a textual IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`, `::ffff:192.0.2.1`) address.
        static func bytes(of text: String) -> [UInt8]? {
            if !text.contains(":") { return ipv4(Substring(text)) }
            var text = Substring(text)
            if let percent = text.firstIndex(of: "%") { text = text[..<percent] }  // a zone: fe80::1%eth0
            var tail: [UInt8] = []
            if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
                guard let four = ipv4(text[text.index(after: lastColon)...]) else { return nil }
                tail = four
                text = text[...lastColon]
                if !text.hasSuffix("::") { text = text.dropLast() }
            }
            let halves = text.components(separatedBy: "::")
            guard halves.count <= 2 else { return nil }
            func groups(_ part: String) -> [UInt16]? {
                if part.isEmpty { return [] }
                var result: [UInt16] = []
                for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                    guard (1...4).contains(group.count), group.allSatisfy(\.isHexDigit),
                        let value = UInt16(group, radix: 16)
                    else { return nil }
                    result.append(value)
                }
                return result
            }
            guard let head = groups(halves[0]) else { return nil }
            let wanted = 8 - tail.count / 2
            var all: [UInt16]
            if halves.count == 2 {
                guard let rest = groups(halves[1]), head.count + rest.count < wanted else { return nil }
                all = head + Array(repeating: 0, count: wanted - head.count - rest.count) + rest
            } else {
                guard head.count == wanted else { return nil }
                all = head
            }
            return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + tail
        }

        private static func ipv4(_ text: Substring) -> [UInt8]? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return nil }
            var bytes: [UInt8] = []
            for part in parts {
                guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = UInt8(part) else {
                    return nil
                }
                bytes.append(value)
            }
            return bytes
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
