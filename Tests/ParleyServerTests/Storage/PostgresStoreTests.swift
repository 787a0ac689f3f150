import Foundation
import PostgresNIO
import Testing

@testable import ParleyPostgres
@testable import ParleyServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the PostgreSQL store does beyond the conformance suite: its migrations, its errors at start, its URL.
@Suite("PostgreSQL store", .timeLimit(.minutes(2)))
struct PostgresStoreTests {
    // MARK: Readiness

    /// Ready while the database answers with this server's schema; unready (coded) once it is gone; back empty, it is
    /// unready until migrated (`store.schemaOutdated`), then ready again.
    @Test func readinessFollowsTheDatabase() async throws {
        let server = try TestPostgres.server()
        let name = "parley_test_ready_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await TestPostgres.administer(server, "CREATE DATABASE \(name)")
        defer { Task { try? await TestPostgres.administer(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") } }
        var database = server
        database.database = name
        try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
            try await Self.becomesReady(store)
            try await TestPostgres.administer(server, "DROP DATABASE \(name) WITH (FORCE)")
            let error = await #expect(throws: ParleyError.self) { try await store.checkReadiness() }
            #expect(error?.code == .storeUnavailable, "\(String(describing: error))")
            try await TestPostgres.administer(server, "CREATE DATABASE \(name)")
            let outdated = await #expect(throws: ParleyError.self) { try await Self.becomesReady(store) }
            #expect(outdated?.code == .storeSchemaOutdated, "\(String(describing: outdated))")
            try await store.migrate()
            try await Self.becomesReady(store)
            // A newer server's migration: unready, too new.
            try await TestPostgres.withConnection(to: database) { connection in
                _ = try await connection.query(
                    "INSERT INTO parley_schema_migrations (version, name) VALUES (9999, 'from a newer server')",
                    logger: TestPostgres.logger)
            }
            let tooNew = await #expect(throws: ParleyError.self) { try await store.checkReadiness() }
            #expect(tooNew?.code == .storeSchemaTooNew, "\(String(describing: tooNew))")
        }
    }

    /// Asks for readiness as a load balancer does, again after each refusal, until the store is ready or `attempts`
    /// are used up. One check waits at most two seconds for a connection of the pool: on a loaded machine (the whole
    /// suite in parallel, up to 300 connections) the pool's first connection, or its next one after a refused
    /// attempt and the pool's back-off, can take longer. CI failed once on a single check.
    /// - Throws: The last check's error when the store never became ready.
    private static func becomesReady(_ store: PostgresConversationStore, attempts: Int = 15) async throws {
        for attempt in 1...attempts {
            do {
                try await store.checkReadiness()
                return
            } catch let error as ParleyError where error.code == .storeUnavailable && attempt < attempts {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    // MARK: Migrations

    @Test func twoServersMigratingOneEmptyDatabaseAtOnceBothStartAndTheSchemaIsAppliedOnce() async throws {
        try await TestPostgres.withDatabase { database in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await PostgresConversationStore.prepare(database, logger: TestPostgres.logger) }
                }
                try await group.waitForAll()
            }
            let recorded = try await TestPostgres.withConnection(to: database) { connection in
                var recorded: [(Int, String)] = []
                for try await row in try await connection.query(
                    "SELECT version, name FROM parley_schema_migrations ORDER BY version", logger: TestPostgres.logger
                ).decode((Int, String).self) {
                    recorded.append(row)
                }
                return recorded
            }
            #expect(recorded.map(\.0) == PostgresSchema.migrations.map(\.version))
            #expect(recorded.map(\.1) == PostgresSchema.migrations.map(\.name))
            // A third start, on a migrated database, applies nothing and the store works.
            let applied = try await TestPostgres.withConnection(to: database) { connection in
                try await PostgresSchema.migrate(on: connection, logger: TestPostgres.logger)
            }
            #expect(applied == [])
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let key = ConversationKey(channelId: "web", userId: "ada")
                let received = try await store.receive(
                    .message(UserMessage(payload: .text("hi"), userId: "ada")), for: key, at: Date())
                #expect(received == ReceivedInput(sequence: 1, duplicate: false))
            }
        }
    }

    @Test func aDatabaseMigratedByANewerServerIsRefused() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.prepare(database, logger: TestPostgres.logger)
            let future = PostgresSchema.latestVersion + 1
            try await TestPostgres.withConnection(to: database) { connection in
                try await connection.query(
                    "INSERT INTO parley_schema_migrations (version, name) VALUES (\(future), 'from the future')",
                    logger: TestPostgres.logger)
            }
            let error = await #expect(throws: ParleyError.self) {
                try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { _ in }
            }
            #expect(error?.code == .storeSchemaTooNew)
            #expect(error?.message.contains("version \(future)") == true, "\(String(describing: error))")
        }
    }

    // MARK: Stored state

    @Test func anUnreadableStateIsReportedNotThrown() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let key = ConversationKey(channelId: "web", userId: "ada")
                _ = try await store.receive(
                    .message(UserMessage(payload: .text("hi"), userId: "ada")), for: key, at: Date())
                try await TestPostgres.withConnection(to: database) { connection in
                    try await connection.query(
                        #"UPDATE parley_conversations SET state = '{"variables": 5}'"#, logger: TestPostgres.logger)
                }
                let stored = try await store.conversation(for: key)
                #expect(stored.unreadableState?.code == .typeMismatch)
                #expect(stored.state == ConversationState())
                let pending = try #require(try await store.pending(for: key))
                #expect(pending.conversation.unreadableState?.code == .typeMismatch)
                #expect(pending.inputs.map(\.sequence) == [1], "the messages stay readable")
                // An answer stores a readable state again.
                let state = ConversationState(state: "start")
                _ = try await store.answer(1, with: [], state: state, in: pending.conversation, at: Date())
                let repaired = try await store.conversation(for: key)
                #expect(repaired.unreadableState == nil)
                #expect(repaired.state == state)
            }
        }
    }

    @Test func aReplyIsStoredWithItsWireSequence() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let key = ConversationKey(channelId: "web", userId: "ada")
                let conversation = try await store.conversation(for: key)
                let reply = SkillMessage(payload: .text("hello"), source: .bot, userId: "ada", msgId: "m1")
                _ = try await store.answer(
                    nil, with: [reply, reply], state: ConversationState(), in: conversation, at: Date())
                let frames = try await TestPostgres.withConnection(to: database) { connection in
                    var frames: [String] = []
                    for try await frame in try await connection.query(
                        "SELECT frame FROM parley_messages ORDER BY sequence", logger: TestPostgres.logger
                    ).decode(String.self) {
                        frames.append(frame)
                    }
                    return frames
                }
                let sequences = try frames.map { try JSONValue(parsing: $0)["sequence"] }
                #expect(sequences == [1, 2])
            }
        }
    }

    // MARK: Round trips

    /// Each step of a message is one statement, one round trip (issue 37): the receive, the read of the pending
    /// inputs, the answer; a repeat too. A new conversation's first input, and an answer on a read that another answer
    /// overtook, take the transaction's path and keep the numbers consecutive.
    @Test func eachStepOfAMessageIsOneRoundTrip() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let key = ConversationKey(channelId: "web", userId: "ada")
                var message = UserMessage(payload: .text("hi"), userId: "ada")
                message.clientMessageId = "c1"
                #expect(try await store.receive(.message(message), for: key, at: Date()).sequence == 1)

                func trips<T>(_ step: () async throws -> T) async throws -> (T, Int) {
                    let before = store.roundTrips
                    let value = try await step()
                    return (value, store.roundTrips - before)
                }
                let (repeated, repeatTrips) = try await trips {
                    try await store.receive(.message(message), for: key, at: Date())
                }
                #expect(repeated == ReceivedInput(sequence: 1, duplicate: true))
                message.clientMessageId = "c2"
                let (second, receiveTrips) = try await trips {
                    try await store.receive(.message(message), for: key, at: Date())
                }
                #expect(second == ReceivedInput(sequence: 2, duplicate: false))
                let (pending, pendingTrips) = try await trips { try await store.pending(for: key) }
                let read = try #require(pending)
                #expect(read.inputs.map(\.sequence) == [1, 2])
                let reply = SkillMessage(payload: .text("hello"), source: .bot, userId: "ada", msgId: "m1")
                let (answer, answerTrips) = try await trips {
                    try await store.answer(
                        1, with: [reply, reply], state: read.conversation.state, in: read.conversation, at: Date())
                }
                #expect(repeatTrips == 1)
                #expect(receiveTrips == 1)
                #expect(pendingTrips == 1)
                #expect(answerTrips == 1)
                #expect(answer.map(\.sequence) == [3, 4])
                #expect(answer.map(\.outbound) == [1, 2])
                for message in answer {
                    #expect(message.wireFrame["sequence"] == .number(Double(message.outbound ?? 0)))
                }

                // The same read again: its outbound number is stale, the transaction's path numbers afresh.
                let overtaken = try await store.answer(
                    2, with: [reply], state: read.conversation.state, in: read.conversation, at: Date())
                #expect(overtaken.map(\.sequence) == [5])
                #expect(overtaken.map(\.outbound) == [3])
                let stored = try await store.messages(for: key, after: .sequence(2), limit: 10)
                #expect(stored.map(\.sequence) == [3, 4, 5])
                for message in stored {
                    #expect(message.wireFrame["sequence"] == .number(Double(message.outbound ?? 0)))
                }
                #expect(try await store.pending(for: key)?.inputs.isEmpty == true)
            }
        }
    }

    /// The answer of a conversation's last pending input says none is left, so the turn stops without reading again
    /// (issue 37); with another pending, it says so.
    @Test func anAnswerSaysWhetherAnotherInputIsPending() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let key = ConversationKey(channelId: "web", userId: "ada")
                let reply = SkillMessage(payload: .text("hello"), source: .bot, userId: "ada", msgId: "m1")
                for text in ["one", "two"] {
                    _ = try await store.receive(
                        .message(UserMessage(payload: .text(text), userId: "ada")), for: key, at: Date())
                }
                let first = try #require(try await store.pending(for: key))
                let answered = try await store.answerInput(
                    1, with: [reply], state: first.conversation.state, in: first.conversation, at: Date())
                #expect(answered.othersPending)
                let second = try #require(try await store.pending(for: key))
                let before = store.roundTrips
                let last = try await store.answerInput(
                    2, with: [reply], state: second.conversation.state, in: second.conversation, at: Date())
                #expect(store.roundTrips - before == 1)
                #expect(!last.othersPending)
                #expect(last.stored.map(\.sequence) == [4])
            }
        }
    }

    /// A node keeps a conversation's turns for a moment after its last answer (issue 37): claimed again without a round
    /// trip, refused to another node meanwhile, let go once the hold has passed.
    @Test func aNodeHoldsAConversationsTurnsBetweenItsInputs() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                let clock = VirtualClock()
                let serverClock = ServerClock(clock: clock, startingAt: Date())
                let node = PostgresCluster(
                    store: store, configuration: database, logger: TestPostgres.logger, clock: serverClock)
                let other = PostgresCluster(
                    store: store, configuration: database, logger: TestPostgres.logger, clock: serverClock)
                await withThrowingTaskGroup(of: Void.self) { group in
                    for cluster in [node, other] {
                        group.addTask { try await cluster.run() }
                        // Listening: its first event is the catch-up after (re)connecting.
                        var events = cluster.events.makeAsyncIterator()
                        #expect(await events.next() == .resynchronize)
                    }
                    let key = ConversationKey(channelId: "web", userId: "ada")
                    #expect(await node.claimTurns(of: key))
                    await node.releaseTurns(of: key)
                    let before = store.roundTrips
                    #expect(await node.claimTurns(of: key))
                    #expect(store.roundTrips == before)
                    await node.releaseTurns(of: key)
                    #expect(await other.claimTurns(of: key) == false)

                    await node.releaseIdleTurns(at: serverClock.elapsed + PostgresCluster.idleTurnHold / 2)
                    #expect(await other.claimTurns(of: key) == false)
                    await node.releaseIdleTurns(at: serverClock.elapsed + PostgresCluster.idleTurnHold)
                    #expect(await other.claimTurns(of: key))
                    #expect(await node.claimTurns(of: key) == false)
                    group.cancelAll()
                }
            }
        }
    }

    /// The turn after a receive reads nothing when the node has held the conversation's turns since before the receive
    /// (issue 37): the receive's statement gave the conversation and its one pending input as a read gives them. It
    /// reads when the node took the turns after the receive, after its own answer or agent step, and once it let go.
    @Test func aReceiveUnderHeldTurnsSparesTheTurnsRead() async throws {
        try await TestPostgres.withDatabase { database in
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { reader in
                    let serverClock = ServerClock(clock: VirtualClock(), startingAt: Date())
                    let node = PostgresCluster(
                        store: store, configuration: database, logger: TestPostgres.logger, clock: serverClock)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try await node.run() }
                        var events = node.events.makeAsyncIterator()
                        #expect(await events.next() == .resynchronize)
                        try await Self.turnsAfterReceives(store, reader: reader, node: node, clock: serverClock)
                        group.cancelAll()
                    }
                }
            }
        }
    }

    private static func turnsAfterReceives(
        _ store: PostgresConversationStore, reader: PostgresConversationStore, node: PostgresCluster,
        clock: ServerClock
    ) async throws {
        let key = ConversationKey(channelId: "web", userId: "ada")
        @discardableResult
        func receive(_ text: String) async throws -> Int {
            try await store.receive(.message(UserMessage(payload: .text(text), userId: "ada")), for: key, at: Date())
                .sequence
        }
        /// The turn's read, and how many round trips it cost.
        func turnsRead() async throws -> (PendingInputs, trips: Int) {
            let before = store.roundTrips
            let pending = try #require(try await store.pending(for: key))
            return (pending, store.roundTrips - before)
        }
        func answer(_ pending: PendingInputs) async throws {
            let reply = SkillMessage(payload: .text("hello"), source: .bot, userId: "ada")
            _ = try await store.answerInput(
                pending.inputs[0].sequence, with: [reply], state: pending.conversation.state, in: pending.conversation,
                at: Date())
        }

        // Taken after the receive: read.
        try await receive("one")
        #expect(await node.claimTurns(of: key))
        let (first, firstTrips) = try await turnsRead()
        #expect(firstTrips == 1)
        try await answer(first)
        await node.releaseTurns(of: key)  // held for the conversation's next input

        // Held throughout: the receive's snapshot, as the database has it.
        let two = try await receive("two")
        #expect(await node.claimTurns(of: key))
        let (second, secondTrips) = try await turnsRead()
        #expect(secondTrips == 0)
        let read = try #require(try await reader.pending(for: key))
        #expect(second.conversation == read.conversation)
        #expect(second.inputs.map(\.sequence) == [two])
        #expect(second.inputs.map(\.frame) == read.inputs.map(\.frame))
        #expect(second.inputs.map(\.createdAt) == read.inputs.map(\.createdAt))
        // Once: the next read is the database's.
        #expect(try await turnsRead().trips == 1)
        try await answer(second)

        // Two inputs: the first one's snapshot stands (it is the oldest); after its answer, the database's.
        let three = try await receive("three")
        let four = try await receive("four")
        let (third, thirdTrips) = try await turnsRead()
        #expect(thirdTrips == 0)
        #expect(third.inputs.map(\.sequence) == [three])
        try await answer(third)
        let (fourth, fourthTrips) = try await turnsRead()
        #expect(fourthTrips == 1)
        #expect(fourth.inputs.map(\.sequence) == [four])
        try await answer(fourth)

        // This node changed the conversation after the receive: read.
        try await receive("five")
        _ = try await store.queueForAgents(key, at: Date())
        let (fifth, fifthTrips) = try await turnsRead()
        #expect(fifthTrips == 1)
        #expect(fifth.conversation.handOff != nil)
        _ = try await store.endHandOff(key)
        try await answer(try await turnsRead().0)

        // Let go of: read.
        await node.releaseTurns(of: key)
        await node.releaseIdleTurns(at: clock.elapsed + PostgresCluster.idleTurnHold)
        try await receive("six")
        #expect(await node.claimTurns(of: key))
        #expect(try await turnsRead().trips == 1)
    }

    /// The example of ``PostgresConversationStore/withStore(_:logger:_:)``'s documentation, without running the
    /// service: the application builds on the store and recovers its pending inputs from it.
    @Test func theDocumentedExampleBuildsAServerOnTheStore() async throws {
        try await TestPostgres.withDatabase { database in
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pg-doc-\(UUID())")
            defer { try? FileManager.default.removeItem(at: data) }
            let configuration = ServerConfiguration(
                port: 0, dataDirectory: data, channels: [ChannelConfiguration(id: "web", skill: .demo)])
            try await PostgresConversationStore.withStore(database, logger: TestPostgres.logger) { store in
                _ = try await buildApplication(configuration: configuration, store: store)
            }
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("parley.sqlite").path))
        }
    }

    // MARK: Errors at start

    @Test func aRefusedConnectionIsACodedErrorNamingTheHost() async throws {
        let port = try Self.closedPort()
        let configuration = try PostgresStoreConfiguration(url: "postgres://parley:secret@127.0.0.1:\(port)/parley")
        let error = await #expect(throws: ParleyError.self) {
            try await PostgresConversationStore.withStore(configuration, logger: TestPostgres.logger) { _ in }
        }
        #expect(error?.code == .storeUnavailable)
        let message = error?.message ?? ""
        #expect(message.contains("127.0.0.1:\(port)"), "\(message)")
        #expect(message.lowercased().contains("refused"), "\(message)")
        #expect(!message.contains("secret"), "\(message)")
    }

    @Test func aServerThatNeverAnswersIsACodedErrorWithinTheTimeout() async throws {
        // A socket that listens and never accepts: the kernel completes the handshake, nothing ever answers.
        let (fd, port) = try Self.silentListener()
        defer { close(fd) }
        var configuration = try PostgresStoreConfiguration(url: "postgres://parley@127.0.0.1:\(port)/parley")
        configuration.connectTimeout = .milliseconds(500)
        let error = await #expect(throws: ParleyError.self) {
            try await PostgresConversationStore.withStore(configuration, logger: TestPostgres.logger) { _ in }
        }
        #expect(error?.code == .storeUnavailable)
        // Parley's deadline or postgres-nio's own connect timeout, whichever fires first: both name the host.
        let message = error?.message ?? ""
        #expect(message.contains("127.0.0.1:\(port)"), "\(message)")
        #expect(message.contains("did not answer within") || message.contains("Connect timeout"), "\(message)")
    }

    @Test func aWrongPasswordIsACodedErrorNamingTheUser() async throws {
        var configuration = try TestPostgres.server()
        configuration.password = "not-the-password"
        let error = await #expect(throws: ParleyError.self) {
            try await PostgresConversationStore.withStore(configuration, logger: TestPostgres.logger) { _ in }
        }
        #expect(error?.code == .storeAccessDenied)
        let message = error?.message ?? ""
        #expect(message.contains("\(configuration.endpoint)"), "\(message)")
        #expect(message.contains("password authentication failed"), "\(message)")
        #expect(message.contains("28P01"), "\(message)")
        #expect(!message.contains("not-the-password"), "\(message)")
    }

    @Test func anUnknownDatabaseIsACodedError() async throws {
        var configuration = try TestPostgres.server()
        configuration.database = "parley_no_such_database"
        let error = await #expect(throws: ParleyError.self) {
            try await PostgresConversationStore.withStore(configuration, logger: TestPostgres.logger) { _ in }
        }
        #expect(error?.code == .storeAccessDenied)
        #expect(error?.message.contains("parley_no_such_database") == true, "\(String(describing: error))")
    }

    // MARK: The URL

    @Test func aURLGivesHostPortUserPasswordAndDatabase() throws {
        let full = try PostgresStoreConfiguration(
            url: "postgresql://ada%40example:p%3Ass@db.example.com:6543/chat?sslmode=require", environment: [:])
        #expect(full.host == "db.example.com")
        #expect(full.port == 6543)
        #expect(full.username == "ada@example")
        #expect(full.password == "p:ss")
        #expect(full.database == "chat")
        #expect(full.tls == .require)

        let short = try PostgresStoreConfiguration(url: "postgres://parley@localhost", environment: [:])
        #expect((short.port, short.database, short.password, short.tls) == (5432, "parley", nil, .prefer))
        // Without a password in the URL, PGPASSWORD; the URL's wins when it has one.
        let fromEnvironment = try PostgresStoreConfiguration(
            url: "postgres://parley@localhost/parley", environment: ["PGPASSWORD": "from-env"])
        #expect(fromEnvironment.password == "from-env")
        let fromURL = try PostgresStoreConfiguration(
            url: "postgres://parley:from-url@localhost/parley", environment: ["PGPASSWORD": "from-env"])
        #expect(fromURL.password == "from-url")
    }

    @Test(arguments: [
        ("mysql://parley:secret@localhost/parley", "not a postgres:// URL"),
        ("postgres://parley:secret@/parley", "no host"),
        ("postgres://:secret@localhost/parley", "no user"),
        ("postgres://parley:secret@localhost:99999/parley", "port"),
        ("postgres://parley:secret@localhost/a/b", "not a database name"),
        ("postgres://parley:secret@localhost/parley?sslmode=sometimes", "sslmode"),
        ("postgres://parley:secret@localhost/parley?pool=3", "\"pool\""),
        ("not a url at all", "postgres://"),
    ])
    func aBadURLIsACodedErrorWithoutThePassword(url: String, reason: String) {
        let error = #expect(throws: ParleyError.self) {
            try PostgresStoreConfiguration(url: url, environment: [:])
        }
        #expect(error?.code == .storeInvalidURL)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.message.contains("secret") == false, "\(String(describing: error))")
    }

    @Test func theConfigurationFileMayNameTheDatabase() throws {
        let file = try ServerConfigurationFile(
            decoding: #"{"channels": [{"id": "web"}], "database": "postgres://parley@db/parley"}"#)
        #expect(file.database == "postgres://parley@db/parley")
        #expect(try ServerConfigurationFile(json: file.jsonValue).database == file.database)
        #expect(try ServerConfigurationFile(decoding: #"{"channels": []}"#).database == nil)
    }

    // MARK: Sockets

    /// A loopback port nothing listens on (bound, then closed).
    static func closedPort() throws -> Int {
        let (fd, port) = try bound(listening: false)
        close(fd)
        return port
    }

    /// A loopback socket that listens and never accepts, and its port.
    static func silentListener() throws -> (Int32, Int) {
        try bound(listening: true)
    }

    private static func bound(listening: Bool) throws -> (Int32, Int) {
        #if os(Linux)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && (!listening || listen(fd, 8) == 0)
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard result else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
