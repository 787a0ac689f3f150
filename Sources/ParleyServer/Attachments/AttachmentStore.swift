public import NIOCore
import _NIOFileSystem

/// Where the server keeps attachments and their records: the seam of
/// ``buildApplication(configuration:store:sessionBindings:attachments:cluster:logger:routes:onServerRunning:)``.
///
/// The default keeps them in the data folder, `DATA/attachments`, for a single server. Nodes of a cluster share one:
/// `PostgresAttachmentStore` in the ParleyPostgres product keeps them in the database, so that an attachment uploaded
/// through one node downloads from every node and the storage quota counts a user's files on all of them.
///
/// Whatever the store, an upload is first received into a file of the data folder (``StagedUpload``): the body is
/// checked, sniffed and counted there, and the store takes the finished file whole, or not at all.
public protocol AttachmentStore: Sendable {
    /// The bytes `userId` keeps on `channelId` (for ``ServerConfiguration/userStorageQuota``).
    func usage(channelId: String, userId: String) async throws -> Int

    /// Stores `upload` as attachment `id`, described by `record`, unless the bytes the record's user keeps on its
    /// channel and `record.size` together exceed `quota`; that check and the write are one step, so that uploads
    /// at once (through any node) never exceed the quota together. A reader finds either nothing or the whole
    /// attachment.
    /// - Parameters:
    ///   - upload: The received file. The store may move it; the caller removes whatever is left after the call.
    ///   - id: The attachment's id (``AttachmentID``: 32 hex digits from a cryptographic random source).
    ///   - record: What the server decided about the file (its sniffed type, size, owner, protection).
    ///   - quota: The bytes the user may keep on the channel.
    /// - Returns: False, storing nothing, when the file does not fit the quota.
    func store(_ upload: StagedUpload, id: String, record: AttachmentRecord, quota: Int) async throws -> Bool

    /// The record of attachment `id` when its file is named `fileName` (the two parts of a download URL); nil when
    /// there is no such attachment.
    func attachment(id: String, named fileName: String) async throws -> AttachmentRecord?

    /// Chunk `index` of the bytes of attachment `id`, counting from 0 in the store's own chunk size; nil past the
    /// last. A download asks for one chunk at a time and writes it before asking for the next, so that a client that
    /// reads slowly holds nothing of the store's (a database connection, an open file) in between.
    func chunk(_ index: Int, of id: String, record: AttachmentRecord) async throws -> ByteBuffer?

    /// The bytes of every attachment the store keeps, of every user and channel (for
    /// ``ServerConfiguration/attachmentQuota``).
    func totalUsage() async throws -> Int

    /// Removes every attachment uploaded by the users of `conversations` on their channels: the conversations were
    /// deleted (``ServerConfiguration/retention``).
    /// - Returns: How many attachments were removed.
    func removeAttachments(of conversations: [ConversationKey]) async throws -> Int
}

/// What the server knows of a stored attachment.
public struct AttachmentRecord: Sendable, Hashable {
    /// The channel the attachment was uploaded on.
    public var channelId: String
    /// The user who uploaded it; nil for files a server stored before it recorded owners.
    public var userId: String?
    /// The type the server serves it with: sniffed from the bytes when it was uploaded, never the client's word.
    public var type: String
    /// The size in bytes.
    public var size: Int
    /// The file name, as in the download URL.
    public var fileName: String
    /// Whether a download needs the channel's token (`x-oda-meta-file-isProtected: True` on an authenticated
    /// channel); nil for files stored before protection was recorded, which are protected when their channel
    /// authenticates clients.
    public var protected: Bool?

    /// A record.
    public init(channelId: String, userId: String?, type: String, size: Int, fileName: String, protected: Bool?) {
        self.channelId = channelId
        self.userId = userId
        self.type = type
        self.size = size
        self.fileName = fileName
        self.protected = protected
    }
}

/// A finished upload in the data folder's `attachments/.uploads`, handed to an ``AttachmentStore``.
public struct StagedUpload: Sendable {
    /// The file.
    let path: FilePath

    /// The bytes read in one chunk by ``read(chunkSize:into:)`` unless told otherwise: 1 MiB.
    public static let defaultChunkSize = 1 << 20

    init(path: FilePath) {
        self.path = path
    }

    /// Hands the file's bytes to `body` in order, in chunks of `chunkSize` bytes (the last one shorter), read on
    /// swift-nio's file-system threads.
    public func read(chunkSize: Int = defaultChunkSize, into body: (ByteBuffer) async throws -> Void) async throws {
        try await withReadHandle(at: path) { handle in
            var offset: Int64 = 0
            while true {
                let chunk = try await handle.readChunk(fromAbsoluteOffset: offset, length: .bytes(Int64(chunkSize)))
                if chunk.readableBytes == 0 { return }
                offset += Int64(chunk.readableBytes)
                try await body(chunk)
            }
        }
    }
}

/// Runs `body` with the file at `path` open for reading, and closes it, also when `body` throws or the task is
/// cancelled. Unlike swift-nio's `withFileHandle(forReadingAt:)`, whose closure is sent to another isolation, `body`
/// runs in the caller's, so it may use what the caller has (a writer, a database connection, a callback).
///
/// The file is closed here, synchronously, not with the handle's `close()`: that runs on swift-nio's thread pool,
/// which refuses work for a cancelled task, so in a request whose client went away (or a test past its time limit)
/// it threw without closing, and swift-nio stops the process when a handle still open is dropped.
func withReadHandle<Result>(at path: FilePath, _ body: (ReadFileHandle) async throws -> Result) async throws
    -> Result
{
    let handle = try await FileSystem.shared.openFile(forReadingAt: path, options: OpenOptions.Read())
    defer {
        // Closing a file open for reading cannot lose data; its error, if any, changes nothing for the caller.
        if let descriptor = try? handle.detachUnsafeFileDescriptor() { try? descriptor.close() }
    }
    return try await body(handle)
}
