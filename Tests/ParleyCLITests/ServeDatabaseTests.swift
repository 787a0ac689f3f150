import Foundation
import ParleyServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `parley serve --database postgres://…` as an operator runs it: a database that cannot be used stops the server at
/// start, at once, with a coded message naming the host and the cause; a good one serves chats from PostgreSQL.
///
/// The real server is `PARLEY_TEST_POSTGRES_URL` (scripts/test starts one); without it the tests that need it are
/// skipped, or fail when `PARLEY_REQUIRE_POSTGRES=1`.
@Suite("parley serve --database", .serialized, .timeLimit(.minutes(2)))
struct ServeDatabaseTests {
    /// Starts `parley serve` on `database` and waits for it to exit: its status (nil when still running after 20 s)
    /// and standard error.
    static func failedStart(_ arguments: [String]) async throws -> (status: Int32?, errors: String, took: Duration) {
        let data = temporaryDataFolder("database")
        defer { try? FileManager.default.removeItem(at: data) }
        let started = ContinuousClock.now
        let server = try ServerProcess(serve: ["--port", "0", "--data", data.path] + arguments)
        let status = try await server.exitStatus(within: .seconds(20))
        let took = ContinuousClock.now - started
        #expect(!server.output.contains("Parley is listening"), "the server never listened")
        if status == nil { try await server.kill9() }
        return (status, server.errors, took)
    }

    @Test func aBadURLInTheConfigurationFileStopsTheServer() async throws {
        let database = "postgres://parley:secret@db.example.com:99999/parley"
        let config = try configurationFile(
            #"{"channels": [{"id": "echo", "skill": "echo"}], "database": ""#
                + database + #""}"#)
        let run = try await Self.failedStart(["--config", config])
        #expect(run.status != nil && run.status != 0, "exit status \(String(describing: run.status))")
        #expect(run.errors.contains("store.invalidURL"), "\(run.errors)")
        #expect(run.errors.contains("port out of range"), "\(run.errors)")
        #expect(!run.errors.contains("secret"), "the password is never printed: \(run.errors)")
    }

    @Test func aRefusedConnectionStopsTheServerAtOnceNamingTheHost() async throws {
        let port = try freePort()  // nothing listens on it
        let run = try await Self.failedStart(["--database", "postgres://parley:secret@127.0.0.1:\(port)/parley"])
        #expect(run.status != nil && run.status != 0, "exit status \(String(describing: run.status))")
        #expect(run.errors.contains("store.unavailable"), "\(run.errors)")
        #expect(run.errors.contains("127.0.0.1:\(port)"), "\(run.errors)")
        #expect(run.errors.lowercased().contains("refused"), "\(run.errors)")
        #expect(!run.errors.contains("secret"), "\(run.errors)")
        #expect(run.took < .seconds(10), "took \(run.took)")
    }

    @Test func aWrongPasswordStopsTheServerAtOnceNamingTheUser() async throws {
        var url = try #require(URLComponents(string: try Self.serverURL()))
        url.password = "not-the-password"
        let run = try await Self.failedStart(["--database", try #require(url.string)])
        #expect(run.status != nil && run.status != 0, "exit status \(String(describing: run.status))")
        #expect(run.errors.contains("store.accessDenied"), "\(run.errors)")
        #expect(run.errors.contains("\(url.host ?? ""):\(url.port ?? 0)"), "\(run.errors)")
        #expect(run.errors.contains("user \"\(url.user ?? "")\""), "\(run.errors)")
        #expect(run.errors.contains("password authentication failed"), "\(run.errors)")
        #expect(!run.errors.contains("not-the-password"), "\(run.errors)")
        #expect(run.took < .seconds(10), "took \(run.took)")
    }

    @Test func aServerOnPostgreSQLAnswersAChatAndKeepsNothingInSQLite() async throws {
        let database = try Self.serverURL()
        let data = temporaryDataFolder("database")
        defer { try? FileManager.default.removeItem(at: data) }
        let config = try configurationFile(#"{"channels": [{"id": "echo", "skill": "echo"}]}"#)
        let server = try await ServerProcess.start(
            ["--port", "0", "--data", data.path, "--config", config, "--database", database])
        let port = try await server.listeningPort()
        #expect(server.output.contains("conversations and attachments in PostgreSQL at 127.0.0.1:"), "\(server.output)")
        #expect(!server.output.contains(try #require(URLComponents(string: database)?.password)))
        #expect(try await HostileProcessTests.chatWorks(port: port, user: "pg-\(UUID().uuidString.prefix(8))"))
        try await server.stop()
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("parley.sqlite").path))
    }

    /// The test server's URL, or the end of the test when there is none.
    static func serverURL() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["PARLEY_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        if environment["PARLEY_REQUIRE_POSTGRES"] == "1" {
            Issue.record("PARLEY_TEST_POSTGRES_URL is not set but PARLEY_REQUIRE_POSTGRES=1 (scripts/test sets both)")
            throw ServerProcess.Failure(description: "no PostgreSQL")
        }
        let notice = "parley serve --database: skipped, PARLEY_TEST_POSTGRES_URL is not set\n"
        FileHandle.standardError.write(Data(notice.utf8))
        try Test.cancel("skipped: PARLEY_TEST_POSTGRES_URL is not set (source scripts/postgres-test-server)")
    }
}
