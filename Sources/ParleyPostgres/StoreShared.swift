import Logging
import PostgresNIO
import Synchronization

/// What a ``PostgresConversationStore`` shares with the cluster, the session bindings and the attachments on it: its
/// count of round trips to the database (``PostgresConversationStore/roundTrips``), and whether its answers send the
/// cluster's hint with their commit (set by ``PostgresCluster``).
final class StoreShared: Sendable {
    private let roundTrips = Atomic<Int>(0)
    private let answerHints = Atomic<Bool>(false)

    /// The round trips made so far.
    var roundTripCount: Int { roundTrips.load(ordering: .relaxed) }

    /// One more round trip.
    func countRoundTrip() {
        roundTrips.add(1, ordering: .relaxed)
    }

    /// Whether answers notify the cluster themselves.
    var answersSendHints: Bool { answerHints.load(ordering: .relaxed) }

    /// From now on, answers notify the cluster themselves (``PostgresCluster`` leaves those hints out).
    func sendHintsWithAnswers() {
        answerHints.store(true, ordering: .relaxed)
    }
}

extension PostgresConnection {
    /// `query(_:logger:)`, counted in the store's ``PostgresConversationStore/roundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger, by shared: StoreShared) async throws -> PostgresRowSequence {
        shared.countRoundTrip()
        return try await self.query(query, logger: logger)
    }
}

extension PostgresClient {
    /// `query(_:logger:)` on a connection of the pool, counted in the store's ``PostgresConversationStore/roundTrips``.
    @discardableResult
    func counted(_ query: PostgresQuery, logger: Logger, by shared: StoreShared) async throws -> PostgresRowSequence {
        shared.countRoundTrip()
        return try await self.query(query, logger: logger)
    }
}
