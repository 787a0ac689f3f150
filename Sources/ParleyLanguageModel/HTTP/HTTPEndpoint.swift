import Foundation
public import ParleyCore

/// Where HTTP requests go: scheme, host, port and path, parsed from an http or https URL.
public struct HTTPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection uses TLS (`https`).
    public var tls: Bool
    /// The host name or address.
    public var host: String
    /// The port.
    public var port: Int
    /// The path and query, starting with `/`.
    public var path: String

    /// Parses an absolute http or https URL.
    /// - Throws: ``ParleyError`` with code `config.invalidValue` for anything else.
    public init(_ url: String) throws(ParleyError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { throw ParleyError(.invalidValue, "not an http or https URL: \(url)") }
        tls = scheme == "https"
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (tls ? 443 : 80)
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }
        self.path = path
    }

    /// The endpoint with `component` appended to its path, with one `/` between them.
    public func appending(_ component: String) -> HTTPEndpoint {
        var copy = self
        copy.path = (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/" + component
        return copy
    }

    /// The value of the `Host` header.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (tls ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// `http(s)://host:port/path`.
    public var description: String { "\(tls ? "https" : "http")://\(hostHeader)\(path)" }
}
