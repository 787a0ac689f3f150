public import Foundation
public import ParleyServer
import PostgresNIO

/// Where a ``PostgresConversationStore`` finds its database, read from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]`.
///
/// The password is the URL's, or when the URL has none, the environment's `PGPASSWORD` (as `psql` does), so that it
/// need not appear in a process list or a configuration file. User, password and database may be percent-encoded.
/// `sslmode` is `prefer` by default: TLS when the server offers it, with the certificate verified; `require` refuses a
/// server without TLS; `disable` never asks for it.
///
/// ```swift
/// let database = try PostgresStoreConfiguration(url: "postgres://parley@db.example.com/parley")
/// ```
public struct PostgresStoreConfiguration: Sendable {
    /// Whether the connection is encrypted.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Never: plain TCP.
        case disable
        /// When the server offers TLS (its certificate is then verified); plain TCP otherwise.
        case prefer
        /// Always: a server without TLS is refused.
        case require
    }

    /// The database server's host name or address.
    public var host: String
    /// Its port; 5432 by default.
    public var port: Int
    /// The user the server signs in as.
    public var username: String
    /// The user's password; nil for none (a server that trusts the user, or one that asks and is refused).
    public var password: String?
    /// The database; the user's name by default, as PostgreSQL does.
    public var database: String
    /// Whether the connection is encrypted.
    public var tls: TLSMode
    /// How long connecting and signing in may take at start before the server gives up with
    /// ``ParleyError/Code/storeUnavailable``. Default 10 seconds.
    public var connectTimeout: Duration = .seconds(10)
    /// The most connections the server opens to the database. Default 20.
    public var maximumConnections = 20

    /// Creates a configuration.
    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
        tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database ?? username
        self.tls = tls
    }

    /// Reads a `postgres://` (or `postgresql://`) URL.
    /// - Parameters:
    ///   - url: The URL.
    ///   - environment: Where `PGPASSWORD` is looked up when the URL has no password.
    /// - Throws: ``ParleyError/Code/storeInvalidURL`` naming what is wrong, with the URL shown without its password.
    public init(
        url: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ParleyError) {
        func invalid(_ reason: String) -> ParleyError {
            ParleyError(.storeInvalidURL, "the database URL \(Self.redacted(url)) \(reason)")
        }
        guard let components = URLComponents(string: url) else {
            throw invalid("is not a URL (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("is not a postgres:// URL (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("has no host") }
        if let port = components.port, !(1...65_535).contains(port) { throw invalid("has a port out of range") }
        guard let username = components.user?.removingPercentEncoding, !username.isEmpty else {
            throw invalid("has no user (postgres://USER@HOST/DATABASE)")
        }
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.contains("/"), let database = path.removingPercentEncoding else {
            throw invalid("has a path that is not a database name")
        }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else {
                throw invalid("has the parameter \"\(item.name)\", which the server does not know (only sslmode)")
            }
            guard let value = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw invalid("has sslmode \"\(item.value ?? "")\": disable, prefer or require")
            }
            tls = value
        }
        let fromEnvironment = environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let password = components.password?.removingPercentEncoding ?? fromEnvironment
        self.init(
            host: host, port: components.port ?? 5432, username: username, password: password,
            database: database.isEmpty ? nil : database, tls: tls)
    }

    /// `host:port`, for messages.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The URL without its password (`postgres://parley:***@db/parley`), for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "(a database URL)"
    }

    /// The connection pool's configuration.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: clientTLS)
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = maximumConnections
        return configuration
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    /// The configuration of the one connection that checks the database and migrates it at start.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable: connectionTLS = .disable
        case .prefer: connectionTLS = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: connectionTLS = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: connectionTLS)
        configuration.options.connectTimeout = TimeAmount(connectTimeout)
        return configuration
    }
}
