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
            #expect(try await bindings.binding(channelId: "web", userId: "ada") == nil)
            #expect(try await bindings.bind(channelId: "web", userId: "ada", digest: first, at: date))
            let again = try await bindings.bind(
                channelId: "web", userId: "ada", digest: SessionSecrets.digest("taken over"), at: date)
            #expect(!again, "a bound user id is not bound again")
            let bound = try #require(try await bindings.binding(channelId: "web", userId: "ada"))
            #expect(bound.digest == first)
            #expect(bound.date == date, "the date of the binding, exactly")
            #expect(try await bindings.bind(channelId: "shop", userId: "ada", digest: first, at: date))
            #expect(try await bindings.binding(channelId: "web", userId: "bob") == nil)
        }
    }

    /// A renewal replaces the digest and date only while the digest is still the old one: of two renewals with the
    /// same old digest, at once, exactly one wins; an unbound user id is not bound by a replacement.
    @Test(arguments: Kind.allCases)
    func aRenewalComparesAndReplaces(kind: Kind) async throws {
        try await kind.withBindings { bindings in
            let old = SessionSecrets.digest("old")
            let date = Date(timeIntervalSince1970: 1_790_000_000)
            let later = date.addingTimeInterval(40 * 86_400)
            #expect(try await bindings.bind(channelId: "web", userId: "ada", digest: old, at: date))
            #expect(
                !(try await bindings.replace(
                    channelId: "web", userId: "ada", digest: SessionSecrets.digest("guess"),
                    with: SessionSecrets.digest("mine"), at: later)), "a wrong old digest replaces nothing")
            let renewals = [SessionSecrets.digest("new 1"), SessionSecrets.digest("new 2")]
            let won = try await withThrowingTaskGroup(of: Data?.self) { group in
                for new in renewals {
                    group.addTask {
                        try await bindings.replace(channelId: "web", userId: "ada", digest: old, with: new, at: later)
                            ? new : nil
                    }
                }
                return try await group.reduce(into: [Data]()) { if let new = $1 { $0.append(new) } }
            }
            #expect(won.count == 1, "two renewals with one old secret: one wins")
            let renewed = try #require(try await bindings.binding(channelId: "web", userId: "ada"))
            #expect(renewed.digest == won.first)
            #expect(renewed.date == later)
            #expect(
                !(try await bindings.replace(channelId: "web", userId: "bob", digest: old, with: old, at: later)))
            #expect(try await bindings.binding(channelId: "web", userId: "bob") == nil)
        }
    }
}
