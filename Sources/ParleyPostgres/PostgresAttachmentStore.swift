public import NIOCore
public import ParleyServer
import PostgresNIO

/// Attachments in the PostgreSQL database of a ``PostgresConversationStore`` (the tables `parley_attachments` and
/// `parley_attachment_parts`), so that an attachment uploaded through one node of a cluster downloads from every
/// node, a node's data folder holds nothing that another node needs, and a backup of the database holds the files.
///
/// A file is kept in parts of 1 MiB (`bytea`), written in the transaction that writes its record, so that a reader
/// finds the whole file or nothing. A download reads one part per query: a client that reads slowly holds no
/// connection of the pool between parts. The storage quota is checked in that transaction under an advisory lock
/// per channel and user, so that uploads at once through several nodes never exceed it together.
public struct PostgresAttachmentStore: AttachmentStore {
    private let store: PostgresConversationStore

    /// The bytes of one part: 1 MiB.
    static let partSize = StagedUpload.defaultChunkSize
    /// The first key of the quota's advisory locks (two 32-bit keys, a space apart from the one-key locks of the
    /// migrations and the cluster's turns): the bytes of "patt".
    static let quotaLockClass: Int32 = 0x7061_7474

    /// The attachments in the database of `store`, which the caller keeps open while they are used.
    public init(store: PostgresConversationStore) {
        self.store = store
    }

    /// The sum of the sizes of the user's attachments on the channel.
    public func usage(channelId: String, userId: String) async throws -> Int {
        try await Self.mappingErrors {
            let rows = try await store.run(Self.usageQuery(channelId: channelId, userId: userId))
            for try await used in rows.decode(Int.self) { return used }
            return 0
        }
    }

    /// The sum of the sizes of the user's attachments on the channel, as one row.
    private static func usageQuery(channelId: String, userId: String) -> PostgresQuery {
        """
        SELECT coalesce(sum(size), 0)::bigint FROM parley_attachments
        WHERE channel_id = \(channelId) AND user_id = \(userId)
        """
    }

    /// Why a store rolled back: the file does not fit the quota.
    private struct OverQuota: Error {}

    /// Writes the record and the parts in one transaction, after taking the user's quota lock and counting what
    /// the user keeps.
    public func store(_ upload: StagedUpload, id: String, record: AttachmentRecord, quota: Int) async throws -> Bool {
        let userId = record.userId ?? ""
        let logger = store.logger
        do {
            try await store.transaction { connection in
                try await connection.counted(
                    """
                    SELECT pg_advisory_xact_lock(\(Self.quotaLockClass), hashtext(\(record.channelId + "\n" + userId)))
                    """, logger: logger, by: store.shared)
                var used = 0
                for try await sum in try await connection.counted(
                    Self.usageQuery(channelId: record.channelId, userId: userId), logger: logger, by: store.shared
                ).decode(Int.self) {
                    used = sum
                }
                guard used <= quota - record.size else { throw OverQuota() }
                try await connection.counted(
                    """
                    INSERT INTO parley_attachments (id, channel_id, user_id, type, size, file_name, protected)
                    VALUES (\(id), \(record.channelId), \(userId), \(record.type), \(record.size), \(record.fileName),
                            \(record.protected ?? false))
                    """, logger: logger, by: store.shared)
                var parts = 0
                try await upload.read(chunkSize: Self.partSize) { chunk in
                    try await connection.counted(
                        """
                        INSERT INTO parley_attachment_parts (attachment_id, part, bytes)
                        VALUES (\(id), \(parts), \(chunk))
                        """, logger: logger, by: store.shared)
                    parts += 1
                }
                try await connection.counted(
                    "UPDATE parley_attachments SET parts = \(parts) WHERE id = \(id)", logger: logger, by: store.shared)
            }
            return true
        } catch is OverQuota {
            return false
        }
    }

    /// The record, when attachment `id` exists and its file is `fileName`.
    public func attachment(id: String, named fileName: String) async throws -> AttachmentRecord? {
        try await Self.mappingErrors {
            let rows = try await store.run(
                """
                SELECT channel_id, user_id, type, size, protected FROM parley_attachments
                WHERE id = \(id) AND file_name = \(fileName)
                """)
            for try await (channelId, userId, type, size, protected) in rows.decode(
                (String, String, String, Int, Bool).self)
            {
                return AttachmentRecord(
                    channelId: channelId, userId: userId, type: type, size: size, fileName: fileName,
                    protected: protected)
            }
            return nil
        }
    }

    /// Reads part `index` (1 MiB), one query.
    public func chunk(_ index: Int, of id: String, record: AttachmentRecord) async throws -> ByteBuffer? {
        try await Self.mappingErrors {
            var bytes: ByteBuffer?
            for try await part in try await store.run(
                "SELECT bytes FROM parley_attachment_parts WHERE attachment_id = \(id) AND part = \(index)"
            ).decode(ByteBuffer.self) {
                bytes = part
            }
            return bytes
        }
    }

    /// The sum of the sizes of every attachment in the database.
    public func totalUsage() async throws -> Int {
        try await Self.mappingErrors {
            let rows = try await store.run("SELECT coalesce(sum(size), 0)::bigint FROM parley_attachments")
            for try await used in rows.decode(Int.self) { return used }
            return 0
        }
    }

    /// Deletes the attachments of the users of `conversations` on their channels (their parts cascade).
    public func removeAttachments(of conversations: [ConversationKey]) async throws -> Int {
        try await Self.mappingErrors {
            var removed = 0
            for key in conversations {
                let rows = try await store.run(
                    """
                    DELETE FROM parley_attachments WHERE channel_id = \(key.channelId) AND user_id = \(key.userId)
                    RETURNING id
                    """)
                for try await _ in rows.decode(String.self) { removed += 1 }
            }
            return removed
        }
    }

    /// Runs `body`, a database error (also one met while reading rows) becoming a ``ParleyError`` that says what
    /// the database said (``ParleyError/Code/storeUnavailable`` when it cannot be reached).
    private static func mappingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw PostgresConversationStore.runtimeError(error)
        }
    }
}
