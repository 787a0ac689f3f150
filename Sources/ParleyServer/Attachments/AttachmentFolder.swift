import Foundation
import Logging
import NIOCore
import _NIOFileSystem

/// The attachments folder, `DATA/attachments`: one folder per attachment (`ID/NAME` and `ID/.metadata.json`),
/// uploads in progress in `.uploads/`, and what each user keeps on each channel, for the storage quota.
///
/// It is the server's ``AttachmentStore`` unless another is given (a cluster's, in its database); uploads in progress
/// are written here in any case.
///
/// All file work goes through swift-nio's file system, on its own threads, so that a slow disk never stalls the
/// two-thread cooperative pool that runs every chat. Usage is read once, from every stored record, before the
/// first upload needs it, and kept in memory after: one server per data folder (``DataFolderLock``).
actor AttachmentFolder: AttachmentStore {
    /// `DATA/attachments`.
    nonisolated let folder: FilePath
    /// Where uploads in progress are written.
    nonisolated var uploadsFolder: FilePath { folder.appending(".uploads") }
    private let fileSystem = FileSystem.shared
    /// Bytes stored per channel and user (`channel NUL user`).
    private var usage: [String: Int] = [:]
    private var loading: Task<[String: Int], Never>?
    private var loaded = false
    /// Where damaged records and failed reads are reported.
    nonisolated let logger: Logger

    init(folder: URL, logger: Logger = Logger(label: "parley.attachments")) {
        self.folder = FilePath(folder.path)
        self.logger = logger
    }

    private static func key(channelId: String, userId: String) -> String { "\(channelId)\u{0}\(userId)" }

    // MARK: Usage

    /// The bytes `userId` keeps on `channelId`.
    func usage(channelId: String, userId: String) async -> Int {
        await load()
        return usage[Self.key(channelId: channelId, userId: userId), default: 0]
    }

    /// Counts `size` more bytes for the user if they fit `quota`; false (counting nothing) when they do not.
    private func reserve(_ size: Int, channelId: String, userId: String, quota: Int) async -> Bool {
        await load()
        let key = Self.key(channelId: channelId, userId: userId)
        let current = usage[key, default: 0]
        guard current <= quota - size else { return false }
        usage[key] = current + size
        return true
    }

    /// Gives back bytes counted by ``reserve(_:channelId:userId:quota:)`` for an upload that was not stored.
    private func unreserve(_ size: Int, channelId: String, userId: String) {
        let key = Self.key(channelId: channelId, userId: userId)
        let left = usage[key, default: 0] - size
        usage[key] = left > 0 ? left : nil
    }

    /// Reads every record once (and clears uploads a stopped server left half-written).
    private func load() async {
        if loaded { return }
        let task: Task<[String: Int], Never>
        if let loading {
            task = loading
        } else {
            let folder = folder
            let uploads = uploadsFolder
            let fileSystem = fileSystem
            let logger = logger
            task = Task { await Self.scan(folder, uploads: uploads, fileSystem: fileSystem, logger: logger) }
            loading = task
        }
        let scanned = await task.value
        if !loaded {
            loaded = true
            // Uploads stored while the scan ran are counted already.
            usage.merge(scanned) { $0 + $1 }
        }
    }

    private static func scan(_ folder: FilePath, uploads: FilePath, fileSystem: FileSystem, logger: Logger) async
        -> [String: Int]
    {
        _ = try? await fileSystem.removeItem(at: uploads, strategy: .platformDefault, recursively: true)
        var usage: [String: Int] = [:]
        await eachRecord(in: folder, fileSystem: fileSystem, logger: logger) { _, metadata in
            guard let userId = metadata.userId, let size = metadata.size else { return }
            usage[key(channelId: metadata.channelId, userId: userId), default: 0] += size
        }
        return usage
    }

    /// Calls `body` with the folder and record of every stored attachment. A record that cannot be read is logged;
    /// one that is damaged (not a record) is moved aside (``DamagedRecord``) and logged, never deleted.
    private static func eachRecord(
        in folder: FilePath, fileSystem: FileSystem, logger: Logger,
        _ body: (FilePath, AttachmentMetadata) async throws -> Void
    ) async {
        let folders: [FilePath]
        do {
            folders = try await fileSystem.withDirectoryHandle(atPath: folder) { directory in
                var found: [FilePath] = []
                for try await entry in directory.listContents() where entry.type == .directory {
                    if entry.name.string != ".uploads" { found.append(entry.path) }
                }
                return found
            }
        } catch let error as FileSystemError where error.code == .notFound {
            return  // no attachments folder yet: nothing stored
        } catch {
            logger.error("the attachments folder \(folder) could not be read: \(error)")
            return
        }
        for path in folders {
            do {
                if let metadata = try await readRecord(path.appending(".metadata.json")) {
                    try await body(path, metadata)
                }
            } catch {
                logger.error("attachment \(path.lastComponent?.string ?? path.string): \(error)")
            }
        }
    }

    /// The record at `path`; nil when there is none.
    /// - Throws: ``ParleyError`` `attachment.unreadable` when the disk fails, or when the record is damaged (it is
    ///   then moved aside, and the error names where it was kept).
    private static func readRecord(_ path: FilePath) async throws -> AttachmentMetadata? {
        let bytes: ByteBuffer
        do {
            bytes = try await ByteBuffer(contentsOf: path, maximumSizeAllowed: .kibibytes(64))
        } catch let error as FileSystemError where error.code == .notFound {
            return nil
        } catch {
            throw ParleyError(.attachmentUnreadable, "the record \(path) could not be read: \(error)")
        }
        if let json = try? JSONValue(parsing: Array(bytes.readableBytesView)),
            let metadata = AttachmentMetadata(json: json)
        {
            return metadata
        }
        let kept = try DamagedRecord.moveAside(path.string)
        throw ParleyError(.attachmentUnreadable, "the record \(path) is damaged; it was kept as \(kept)")
    }

    /// The bytes of every attachment kept here.
    func totalUsage() async -> Int {
        await load()
        return usage.values.reduce(0, +)
    }

    /// Removes the attachments of the users of `conversations` (their folders, records last read), and stops
    /// counting them.
    func removeAttachments(of conversations: [ConversationKey]) async throws -> Int {
        await load()
        let owners = Set(conversations.map { Self.key(channelId: $0.channelId, userId: $0.userId) })
        guard !owners.isEmpty else { return 0 }
        var doomed: [(FilePath, String, Int)] = []
        await Self.eachRecord(in: folder, fileSystem: fileSystem, logger: logger) { path, metadata in
            let owner = Self.key(channelId: metadata.channelId, userId: metadata.userId ?? "")
            if owners.contains(owner) { doomed.append((path, owner, metadata.size ?? 0)) }
        }
        for (path, owner, size) in doomed {
            try await fileSystem.removeItem(at: path, strategy: .platformDefault, recursively: true)
            let left = usage[owner, default: 0] - size
            usage[owner] = left > 0 ? left : nil
        }
        return doomed.count
    }

    // MARK: Files

    /// A new, empty file for an upload in progress, written on the ``UploadThread``.
    nonisolated func newUploadFile() async throws -> (FilePath, UploadFile) {
        try await FileSystem.shared.createDirectory(
            at: uploadsFolder, withIntermediateDirectories: true, permissions: nil)
        let path = uploadsFolder.appending("\(AttachmentID.random()).part")
        return (path, try await UploadFile.create(at: path.string))
    }

    /// Removes an upload in progress that will not be stored.
    nonisolated func discard(_ path: FilePath) async {
        _ = try? await FileSystem.shared.removeItem(at: path, strategy: .platformDefault, recursively: false)
    }

    /// Moves a finished upload into place, when it fits the user's quota, and writes its record last, so that a
    /// download finds either nothing or the whole attachment.
    func store(_ upload: StagedUpload, id: String, record: AttachmentRecord, quota: Int) async throws -> Bool {
        let userId = record.userId ?? ""
        guard await reserve(record.size, channelId: record.channelId, userId: userId, quota: quota) else {
            return false
        }
        do {
            try await write(upload.path, id: id, metadata: AttachmentMetadata(record))
            return true
        } catch {
            unreserve(record.size, channelId: record.channelId, userId: userId)
            throw error
        }
    }

    private nonisolated func write(_ upload: FilePath, id: String, metadata: AttachmentMetadata) async throws {
        let fileSystem = FileSystem.shared
        let attachment = folder.appending(id)
        try await fileSystem.createDirectory(at: attachment, withIntermediateDirectories: true, permissions: nil)
        do {
            try await fileSystem.moveItem(at: upload, to: attachment.appending(metadata.fileName ?? "attachment"))
            // A new file materialises only when it is complete (`transactionalCreation`).
            try await ByteBuffer(bytes: metadata.jsonValue.jsonBytes()).write(
                toFileAt: attachment.appending(".metadata.json"), options: .newFile(replaceExisting: false),
                fileSystem: fileSystem)
        } catch {
            _ = try? await fileSystem.removeItem(at: attachment, strategy: .platformDefault, recursively: true)
            throw error
        }
    }

    /// The record of attachment `id` when its file is `fileName` and is there. A file stored before uploads were
    /// sniffed (``AttachmentMetadata/isLegacy``) is given the type its own bytes say (``legacyType(of:declared:)``).
    nonisolated func attachment(id: String, named fileName: String) async throws -> AttachmentRecord? {
        guard let metadata = try await Self.readRecord(folder.appending(id).appending(".metadata.json")) else {
            return nil
        }
        if let stored = metadata.fileName, stored != fileName { return nil }
        let path = folder.appending(id).appending(fileName)
        let found: FileInfo?
        do {
            found = try await FileSystem.shared.info(forFileAt: path, infoAboutSymbolicLink: true)
        } catch {
            throw ParleyError(.attachmentUnreadable, "the file of attachment \(id) could not be read: \(error)")
        }
        guard let info = found, info.type == .regular else { return nil }
        let type = metadata.isLegacy ? try await Self.legacyType(of: path, declared: metadata.type) : metadata.type
        return AttachmentRecord(
            channelId: metadata.channelId, userId: metadata.userId, type: type, size: Int(info.size),
            fileName: fileName, protected: metadata.protected)
    }

    /// The bytes of a download's chunk: 256 KiB.
    static let chunkSize: Int64 = 256 << 10

    /// Reads chunk `index` (256 KiB) of the file, opened for this read alone.
    nonisolated func chunk(_ index: Int, of id: String, record: AttachmentRecord) async throws -> ByteBuffer? {
        let chunk = try await withReadHandle(at: folder.appending(id).appending(record.fileName)) { handle in
            try await handle.readChunk(
                fromAbsoluteOffset: Int64(index) * Self.chunkSize, length: .bytes(Self.chunkSize))
        }
        return chunk.readableBytes > 0 ? chunk : nil
    }

    /// The type to serve a file stored before sniffing with: its own bytes decide; the type its uploader declared
    /// is kept only when the bytes agree and it is an inline type, otherwise the file is a plain download.
    private static func legacyType(of path: FilePath, declared: String) async throws -> String {
        let head = try await withReadHandle(at: path) { handle in
            try await handle.readChunk(fromAbsoluteOffset: 0, length: .bytes(Int64(MediaSniffer.headLength)))
        }
        let sniffed = MediaSniffer.sniff(head.readableBytesView, complete: head.readableBytes < MediaSniffer.headLength)
        if AttachmentRoutes.isInline(sniffed) { return sniffed }
        let refined = MediaSniffer.refine(sniffed, declared: declared, fileName: "")
        return MediaSniffer.markupTypes.contains(refined) ? "application/octet-stream" : refined
    }
}

/// Attachment ids: 128 bits from the system's cryptographic random source, as 32 lowercase hex digits, so that a
/// download URL cannot be guessed (an unprotected attachment is served to whoever has its URL). Ids of files
/// stored before (UUIDs) still resolve.
enum AttachmentID {
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `id` has the form of an id (32 lowercase hex digits, or a UUID): nothing else reaches the disk.
    static func isValid(_ id: String) -> Bool {
        if id.utf8.count == 32, id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
            return true
        }
        return UUID(uuidString: id) != nil && id.utf8.count == 36
    }
}
