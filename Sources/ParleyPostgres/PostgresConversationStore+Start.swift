public import Logging
public import ParleyServer
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresConversationStore {
    /// Runs `body` with a store on the database of `configuration`, and closes its connections when `body` returns;
    /// `clock` dates new conversations (the server passes ``ServerConfiguration/clock``).
    ///
    /// Before `body` runs it connects and signs in once, within ``PostgresStoreConfiguration/connectTimeout``, and
    /// brings the schema up to date on that connection; so a bad address, a refused connection or a wrong password
    /// is a coded error at start, never a hang.
    ///
    /// ```swift
    /// let database = try PostgresStoreConfiguration(url: "postgres://parley@db.example.com/parley")
    /// try await PostgresConversationStore.withStore(database) { store in
    ///     let app = try await buildApplication(configuration: configuration, store: store)
    ///     try await app.runService()
    /// }
    /// ```
    /// - Throws: ``ParleyError/Code/storeUnavailable`` when the database cannot be reached in time,
    ///   ``ParleyError/Code/storeAccessDenied`` when it refuses the user, ``ParleyError/Code/storeSchemaTooNew`` when a
    ///   newer server migrated it; and whatever `body` throws.
    public static func withStore<Result>(
        _ configuration: PostgresStoreConfiguration, logger: Logger = Logger(label: "parley.postgres"),
        clock: ServerClock = .system, _ body: (PostgresConversationStore) async throws -> Result
    ) async throws -> Result {
        try await prepare(configuration, logger: logger)
        // The pool logs each connection it opens and closes at info level; only its warnings, unless debugging.
        var background = logger
        if logger.logLevel > .debug { background.logLevel = max(logger.logLevel, .warning) }
        let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: background)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(PostgresConversationStore(client: client, logger: logger, clock: clock))
        }
    }

    /// Connects once within the timeout, migrates on that connection, and closes it.
    static func prepare(_ configuration: PostgresStoreConfiguration, logger: Logger) async throws {
        let connectionConfiguration = try configuration.connectionConfiguration()
        let connection: PostgresConnection
        do {
            connection = try await withDeadline(configuration.connectTimeout) {
                try await PostgresConnection.connect(configuration: connectionConfiguration, id: 0, logger: logger)
            }
        } catch {
            throw startError(error, configuration: configuration)
        }
        do {
            try await PostgresSchema.migrate(on: connection, logger: logger)
        } catch {
            try? await connection.close()
            throw startError(error, configuration: configuration)
        }
        try await connection.close()
    }

    /// The coded error for a failure to connect, sign in or migrate: the host, and the cause in a sentence (never
    /// the password).
    static func startError(_ error: any Error, configuration: PostgresStoreConfiguration) -> ParleyError {
        if let error = error as? ParleyError { return error }
        let place = "PostgreSQL at \(configuration.endpoint)"
        if error is DeadlineExceeded {
            return ParleyError(
                .storeUnavailable, "\(place) did not answer within \(configuration.connectTimeout)")
        }
        guard let error = error as? PSQLError else {
            return ParleyError(.storeUnavailable, "cannot use \(place): \(error)", underlying: error)
        }
        switch error.code {
        case .server:
            let reason = error.serverInfo?[.message] ?? "an error"
            let state = error.serverInfo?[.sqlState] ?? ""
            // Class 28 (invalid authorization), 3D000 (no such database), 42501 (insufficient privilege).
            if state.hasPrefix("28") || state == "3D000" || state == "42501" {
                return ParleyError(
                    .storeAccessDenied,
                    "\(place) refused user \"\(configuration.username)\" on database \"\(configuration.database)\": "
                        + "\(reason) (SQLSTATE \(state))", underlying: error)
            }
            return ParleyError(.storeUnavailable, "\(place) failed: \(reason) (SQLSTATE \(state))", underlying: error)
        case .authMechanismRequiresPassword:
            return ParleyError(
                .storeAccessDenied,
                "\(place) asks for the password of user \"\(configuration.username)\" and none was given "
                    + "(put it in the URL or in PGPASSWORD)", underlying: error)
        case .sslUnsupported:
            return ParleyError(
                .storeUnavailable, "\(place) does not offer TLS, which sslmode=require asks for", underlying: error)
        default:
            let cause = error.underlying.map(Self.cause) ?? "\(error.code)"
            return ParleyError(.storeUnavailable, "cannot connect to \(place): \(cause)", underlying: error)
        }
    }

    /// A network error in a few words: "Connection refused", "host not found".
    private static func cause(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return cause(failure.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "host \(error.host) not found" }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    /// Thrown by ``withDeadline(_:_:)`` when time is up.
    struct DeadlineExceeded: Error {}

    /// `body`'s result, or ``DeadlineExceeded`` once `timeout` has passed (`body` is then cancelled).
    static func withDeadline<T: Sendable>(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw DeadlineExceeded()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw DeadlineExceeded() }
            return first
        }
    }
}
