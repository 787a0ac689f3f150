public import Foundation
import NIOCore
public import ParleyServer
import PostgresNIO

/// Session secrets' bindings in the PostgreSQL database of a ``PostgresConversationStore`` (the table
/// `parley_session_secrets`), so that every node of a cluster knows a secret any node issued.
public struct PostgresSessionBindings: SessionBindingStore {
    private let store: PostgresConversationStore

    /// The bindings in the database of `store`, which the caller keeps open while they are used.
    public init(store: PostgresConversationStore) {
        self.store = store
    }

    /// Binds the user id unless it is bound: one `INSERT … ON CONFLICT DO NOTHING`, so that two nodes issuing a secret
    /// for the same user id at once bind one of them.
    public func bind(channelId: String, userId: String, digest: Data, at date: Date) async throws -> Bool {
        let rows = try await store.run(
            """
            INSERT INTO parley_session_secrets (channel_id, user_id, secret_digest, created_at)
            VALUES (\(channelId), \(userId), \(ByteBuffer(bytes: Array(digest))), \(date.timeIntervalSince1970))
            ON CONFLICT (channel_id, user_id) DO NOTHING RETURNING user_id
            """)
        for try await _ in rows { return true }
        return false
    }

    /// The digest bound to the user id; nil when none is.
    public func digest(channelId: String, userId: String) async throws -> Data? {
        let rows = try await store.run(
            """
            SELECT secret_digest FROM parley_session_secrets WHERE channel_id = \(channelId) AND user_id = \(userId)
            """)
        for try await digest in rows.decode(ByteBuffer.self) { return Data(digest.readableBytesView) }
        return nil
    }
}
