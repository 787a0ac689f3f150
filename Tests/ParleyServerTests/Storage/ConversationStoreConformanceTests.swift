import Foundation
import ParleyPostgres
import ParleyServerTesting
import Testing

@testable import ParleyServer

/// The rules every ``ConversationStore`` keeps (`ConversationStoreConformance`, in ParleyServerTesting), run against
/// each implementation: SQLite, in memory and PostgreSQL (on the server of `PARLEY_TEST_POSTGRES_URL`, see
/// ``TestPostgres``; skipped without it). One test per store and check.
///
/// Each check gets a new, empty store from ``StoreKind/withStore(_:)``, with a `reopen` that gives another store on
/// the same data where the implementation keeps data across processes (nil for the in-memory store).
@Suite("Conversation store conformance", .timeLimit(.minutes(2)))
struct ConversationStoreConformanceTests {
    typealias Reopen = ConversationStoreConformance.Reopen

    enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite
        case memory
        case postgres

        var testDescription: String { rawValue }

        /// Runs `body` with a new, empty store, and how to open the same data again (nil when the data does not
        /// outlive the store); what the store used is removed afterwards.
        func withStore(_ body: (any ConversationStore, Reopen?) async throws -> Void) async throws {
            switch self {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory
                    .appendingPathComponent("parley-conformance-\(UUID())")
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("parley.sqlite")
                try await body(try SQLiteConversationStore(url: file)) { reopened in
                    try await reopened(try SQLiteConversationStore(url: file))
                }
            case .memory:
                try await body(InMemoryConversationStore(), nil)
            case .postgres:
                try await TestPostgres.withDatabase { database in
                    try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                        try await body(store) { reopened in
                            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) {
                                try await reopened($0)
                            }
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases, ConversationStoreConformance.Check.allCases)
    func storeConforms(kind: StoreKind, check: ConversationStoreConformance.Check) async throws {
        try await ConversationStoreConformance { body in try await kind.withStore(body) }.run(check)
    }
}
