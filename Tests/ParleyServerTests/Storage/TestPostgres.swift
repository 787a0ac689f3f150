import Foundation
import Logging
import ParleyPostgres
import PostgresNIO
import Testing

/// The PostgreSQL server the tests use: `PARLEY_TEST_POSTGRES_URL` (scripts/test starts one and sets it, see
/// scripts/postgres-test-server), whose user may create databases. Each test gets a database of its own, dropped
/// after it.
///
/// Without the variable a PostgreSQL test is skipped (cancelled, with the reason), unless `PARLEY_REQUIRE_POSTGRES=1`
/// (scripts/test sets it): then it fails, so that CI never passes by running none of them.
enum TestPostgres {
    static let environment = ProcessInfo.processInfo.environment

    /// The server's URL, or the end of the test when there is none.
    static func serverURL() throws -> String {
        if let url = environment["PARLEY_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        if environment["PARLEY_REQUIRE_POSTGRES"] == "1" {
            Issue.record(
                """
                PARLEY_TEST_POSTGRES_URL is not set but PARLEY_REQUIRE_POSTGRES=1: start the test server with \
                `source scripts/postgres-test-server` (scripts/test does)
                """)
            throw TestPostgresMissing()
        }
        _ = skipNotice
        try Test.cancel(skipReason)
    }

    static let skipReason: Comment = """
        skipped: no PostgreSQL for the tests (set PARLEY_TEST_POSTGRES_URL, e.g. with \
        `source scripts/postgres-test-server`)
        """

    /// Said once per run: the console does not show why a test case was cancelled.
    static let skipNotice: Void = {
        FileHandle.standardError.write(Data("PostgreSQL tests \(skipReason)\n".utf8))
    }()

    struct TestPostgresMissing: Error {}

    /// The test server's configuration.
    static func server() throws -> PostgresStoreConfiguration {
        var configuration = try PostgresStoreConfiguration(url: serverURL(), environment: environment)
        configuration.tls = .disable
        return configuration
    }

    /// Runs `body` with a new, empty database on the test server, dropped afterwards (also when `body` throws).
    static func withDatabase<T>(_ body: (PostgresStoreConfiguration) async throws -> T) async throws -> T {
        let server = try server()
        let name = "parley_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await administer(server, "CREATE DATABASE \(name)")
        var database = server
        database.database = name
        do {
            let result = try await body(database)
            try await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// Runs one statement (not in a transaction: CREATE and DROP DATABASE refuse one) on the server's own database.
    static func administer(_ server: PostgresStoreConfiguration, _ sql: String) async throws {
        try await withConnection(to: server) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// Runs `body` on a connection of its own to the database of `configuration`.
    @discardableResult
    static func withConnection<T>(
        to configuration: PostgresStoreConfiguration, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await PostgresConnection.connect(
            configuration: PostgresConnection.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable),
            id: 1, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "parley.test.postgres")
        logger.logLevel = .warning
        return logger
    }()
}
