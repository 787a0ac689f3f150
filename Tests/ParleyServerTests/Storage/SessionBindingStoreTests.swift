import Foundation
import ParleyPostgres
import Testing

@testable import ParleyServer

/// The rules every ``SessionBindingStore`` keeps, on SQLite and on PostgreSQL (the test server of
/// `PARLEY_TEST_POSTGRES_URL`): a user id is bound once, per channel, and its digest reads back as bound.
@Suite("Session binding stores", .timeLimit(.minutes(1)))
struct SessionBindingStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqlite
        case postgres

        var testDescription: String { rawValue }

        func withBindings(_ body: (any SessionBindingStore) async throws -> Void) async throws {
            switch self {
            case .sqlite:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bindings-\(UUID())")
                defer { try? FileManager.default.removeItem(at: folder) }
                try await body(try SQLiteSessionBindings(dataDirectory: folder))
            case .postgres:
                try await TestPostgres.withDatabase { database in
                    try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                        try await body(PostgresSessionBindings(store: store))
                    }
                }
            }
        }
    }

    @Test(arguments: Kind.allCases)
    func aUserIdIsBoundOncePerChannel(kind: Kind) async throws {
        try await kind.withBindings { bindings in
            let first = SessionSecrets.digest("first secret")
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            #expect(try await bindings.digest(channelId: "web", userId: "ada") == nil)
            #expect(try await bindings.bind(channelId: "web", userId: "ada", digest: first, at: date))
            let again = try await bindings.bind(
                channelId: "web", userId: "ada", digest: SessionSecrets.digest("taken over"), at: date)
            #expect(!again, "a bound user id is not bound again")
            #expect(try await bindings.digest(channelId: "web", userId: "ada") == first)
            #expect(try await bindings.bind(channelId: "shop", userId: "ada", digest: first, at: date))
            #expect(try await bindings.digest(channelId: "web", userId: "bob") == nil)
        }
    }
}
