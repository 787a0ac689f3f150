import Foundation
import NIOCore
import ParleyPostgres
import Testing
import _NIOFileSystem

@testable import ParleyServer

/// The rules every ``AttachmentStore`` keeps, in the data folder and in PostgreSQL (the test server of
/// `PARLEY_TEST_POSTGRES_URL`): a stored file reads back whole under its id and name, the quota holds for uploads at
/// once, and a refused file leaves nothing behind.
@Suite("Attachment stores", .timeLimit(.minutes(1)))
struct AttachmentStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case folder
        case postgres

        var testDescription: String { rawValue }

        /// Runs `body` with a store and a folder to stage uploads in.
        func withStore(_ body: (any AttachmentStore, URL) async throws -> Void) async throws {
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-attachments-\(UUID())")
            defer { try? FileManager.default.removeItem(at: data) }
            let staging = data.appendingPathComponent("staging")
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            switch self {
            case .folder:
                try await body(AttachmentFolder(folder: data.appendingPathComponent("attachments")), staging)
            case .postgres:
                try await TestPostgres.withDatabase { database in
                    try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                        try await body(PostgresAttachmentStore(store: store), staging)
                    }
                }
            }
        }
    }

    /// A file of `count` bytes in `folder`, staged as an upload; its bytes.
    static func staged(_ count: Int, in folder: URL, seed: UInt8 = 7) throws -> (StagedUpload, [UInt8]) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
        let url = folder.appendingPathComponent("\(AttachmentID.random()).part")
        try Data(bytes).write(to: url)
        return (StagedUpload(path: FilePath(url.path)), bytes)
    }

    static func record(size: Int, user: String = "ada", name: String = "cat.png") -> AttachmentRecord {
        AttachmentRecord(
            channelId: "web", userId: user, type: "image/png", size: size, fileName: name, protected: false)
    }

    static func contents(of id: String, _ record: AttachmentRecord, in store: any AttachmentStore) async throws
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        var index = 0
        while let chunk = try await store.chunk(index, of: id, record: record) {
            bytes += chunk.readableBytesView
            index += 1
        }
        return bytes
    }

    /// A read whose task is cancelled (a download whose client went away, a test past its time limit) ends and
    /// closes its file, whether the cancellation makes it throw or it returns anyway. swift-nio's own `close()`
    /// refuses the work of a cancelled task, and swift-nio stops the whole process when a handle still open is
    /// dropped: before the fix, each of these reads took the test process down.
    @Test func aCancelledReadClosesItsFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cancelled-read-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (upload, _) = try Self.staged(3, in: folder)
        let throwing = Task {
            try await upload.read(chunkSize: 1) { _ in
                withUnsafeCurrentTask { $0?.cancel() }
                try Task.checkCancellation()
            }
        }
        await #expect(throws: CancellationError.self) { try await throwing.value }
        let returning = Task {
            try await withReadHandle(at: upload.path) { handle in
                withUnsafeCurrentTask { $0?.cancel() }
                return "read"
            }
        }
        #expect(try await returning.value == "read")
    }

    /// More than two parts of the PostgreSQL store (1 MiB each), so that the order of parts is checked.
    @Test(arguments: Kind.allCases)
    func aStoredFileReadsBackWholeUnderItsIdAndName(kind: Kind) async throws {
        try await kind.withStore { store, staging in
            let size = 2 * StagedUpload.defaultChunkSize + 12_345
            let (upload, bytes) = try Self.staged(size, in: staging)
            let id = AttachmentID.random()
            let record = Self.record(size: size)
            #expect(try await store.attachment(id: id, named: "cat.png") == nil)
            #expect(try await store.store(upload, id: id, record: record, quota: 10 * size))
            let found = try #require(try await store.attachment(id: id, named: "cat.png"))
            #expect(found == record)
            #expect(try await Self.contents(of: id, found, in: store) == bytes)
            #expect(try await store.attachment(id: id, named: "dog.png") == nil, "the name is part of the address")
            #expect(try await store.attachment(id: AttachmentID.random(), named: "cat.png") == nil)
            #expect(try await store.usage(channelId: "web", userId: "ada") == size)
            #expect(try await store.usage(channelId: "web", userId: "bob") == 0)
            #expect(try await store.usage(channelId: "shop", userId: "ada") == 0)
        }
    }

    @Test(arguments: Kind.allCases)
    func aFileBeyondTheQuotaIsRefusedAndLeavesNothing(kind: Kind) async throws {
        try await kind.withStore { store, staging in
            let (first, _) = try Self.staged(600, in: staging)
            #expect(
                try await store.store(first, id: AttachmentID.random(), record: Self.record(size: 600), quota: 1_000))
            let (second, _) = try Self.staged(500, in: staging)
            let refused = AttachmentID.random()
            let stored = try await store.store(second, id: refused, record: Self.record(size: 500), quota: 1_000)
            #expect(!stored)
            #expect(try await store.attachment(id: refused, named: "cat.png") == nil)
            #expect(try await store.usage(channelId: "web", userId: "ada") == 600)
            // Another user has a quota of their own.
            let (theirs, _) = try Self.staged(500, in: staging)
            let record = Self.record(size: 500, user: "bob")
            #expect(try await store.store(theirs, id: AttachmentID.random(), record: record, quota: 1_000))
        }
    }

    /// Eight uploads of 300 bytes at once against a quota of 1,000: exactly three are stored.
    @Test(arguments: Kind.allCases)
    func uploadsAtOnceNeverExceedTheQuotaTogether(kind: Kind) async throws {
        try await kind.withStore { store, staging in
            var uploads: [StagedUpload] = []
            for seed in 0..<8 { uploads.append(try Self.staged(300, in: staging, seed: UInt8(seed)).0) }
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for upload in uploads {
                    group.addTask {
                        try await store.store(
                            upload, id: AttachmentID.random(), record: Self.record(size: 300), quota: 1_000)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 3, "\(results)")
            #expect(try await store.usage(channelId: "web", userId: "ada") == 900)
        }
    }
}
