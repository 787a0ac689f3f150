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

    /// The digest bound to the user id and the date of its binding (or last renewal); nil when none is.
    public func binding(channelId: String, userId: String) async throws -> (digest: Data, date: Date)? {
        let rows = try await store.run(
            """
            SELECT secret_digest, created_at FROM parley_session_secrets
            WHERE channel_id = \(channelId) AND user_id = \(userId)
            """)
        for try await (digest, date) in rows.decode((ByteBuffer, Double).self) {
            return (Data(digest.readableBytesView), Date(timeIntervalSince1970: date))
        }
        return nil
    }

    /// Replaces the digest and date where the digest is still the old one: one `UPDATE … WHERE secret_digest = old`,
    /// which PostgreSQL runs atomically per row, so that of two nodes renewing with the same old secret one wins.
    public func replace(channelId: String, userId: String, digest oldDigest: Data, with newDigest: Data, at date: Date)
        async throws -> Bool
    {
        let rows = try await store.run(
            """
            UPDATE parley_session_secrets
            SET secret_digest = \(ByteBuffer(bytes: Array(newDigest))), created_at = \(date.timeIntervalSince1970)
            WHERE channel_id = \(channelId) AND user_id = \(userId)
            AND secret_digest = \(ByteBuffer(bytes: Array(oldDigest)))
            RETURNING user_id
            """)
        for try await _ in rows { return true }
        return false
    }
}
