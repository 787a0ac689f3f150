import Logging
import PostgresNIO
import Synchronization

/// How many round trips to PostgreSQL this process has made through ParleyPostgres (the store, the cluster, the
/// session bindings and the attachments): one per statement sent and answered, `BEGIN` and `COMMIT` included;
/// the cluster's `LISTEN` connection's notifications are not counted.
///
/// For diagnostics and benchmarks: the PostgreSQL floor and the cluster lines divide it by the messages answered
/// (docs/performance.md, "A cluster on PostgreSQL").
public enum PostgresRoundTrips {
    private static let counter = Atomic<Int>(0)

    /// The round trips made since the process started.
    public static var count: Int { counter.load(ordering: .relaxed) }

    /// Counts `trips` more.
    static func add(_ trips: Int = 1) {
        counter.add(trips, ordering: .relaxed)
    }
}

extension PostgresConnection {
    /// `query(_:logger:)`, counted in ``PostgresRoundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        PostgresRoundTrips.add()
        return try await self.query(query, logger: logger)
    }
}

extension PostgresClient {
    /// `query(_:logger:)`, counted in ``PostgresRoundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        PostgresRoundTrips.add()
        return try await self.query(query, logger: logger)
    }
}
