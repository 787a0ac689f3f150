import Foundation
import ParleyServerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Several real `parley serve` processes on one real PostgreSQL database, behind a real nginx running the
/// repository's `deploy/nginx/parley.conf`: users on different nodes share one conversation, a drained node sends its
/// sockets elsewhere, and nodes killed with SIGKILL (and the database restarted) lose and repeat nothing.
@Suite(
    "A cluster of parley serve nodes behind nginx", .serialized, .timeLimit(.minutes(6)),
    .enabled(if: Nginx.isInstalled, "needs nginx (scripts/test installs it)"))
struct ClusterTests {
    static let channels = #"{"channels": [{"id": "echo", "skill": "echo"}]}"#
    /// What a user reads when the database is away for a moment.
    static let databaseNotices: Set = [
        "the server could not answer this message; it is kept",
        "the server could not store this message; send it again",
    ]

    /// Starts a node on `database` with a data folder of its own.
    static func node(
        _ database: ClusterDatabase, port: Int = 0, data: URL, config: String, options: [String] = []
    ) async throws -> ServerProcess {
        try await ServerProcess.start(
            ["--port", "\(port)", "--data", data.path, "--config", config, "--database", database.url] + options)
    }

    /// `count` nodes on `database` on ports of their own, each with a data folder of its own; and their ports.
    static func nodes(
        _ count: Int, _ database: ClusterDatabase, folder: String, config: String, options: [String] = []
    ) async throws -> ([ServerProcess], [Int]) {
        var nodes: [ServerProcess] = []
        for _ in 0..<count {
            nodes.append(try await node(database, data: temporaryDataFolder(folder), config: config, options: options))
        }
        var ports: [Int] = []
        for node in nodes { ports.append(try await node.listeningPort()) }
        return (nodes, ports)
    }

    /// A client of `user` on `channel` at `port`, quick to notice a dead node and to reconnect.
    static func client(port: Int, user: String, channel: String = "echo") -> ChatClient {
        ChatClient(
            configuration: .quickToReconnect(port: port, channel: channel, user: user, maximumDelay: .milliseconds(250))
        )
    }

    /// Clients, each collecting into an inbox of its own, initialized.
    static func connected(_ clients: [ChatClient]) async throws -> [Inbox] {
        var inboxes: [Inbox] = []
        for client in clients {
            let inbox = Inbox()
            await inbox.collect(client)
            try await client.initialize()
            inboxes.append(inbox)
        }
        return inboxes
    }

    /// The skill's texts a client received, and the texts of its messages the server acknowledged.
    actor Inbox: Awaitable {
        private(set) var replies: [String] = []
        private(set) var acknowledged: [String] = []
        private var task: Task<Void, Never>?

        func collect(_ client: ChatClient) async {
            let events = await client.events()
            task = Task {
                for await event in events {
                    switch event {
                    case .messageReceived(let message):
                        if let text = message.payload.text { await self.reply(text)?.add() }
                    case .deliveryChanged(let message) where message.delivery == .acknowledged:
                        if let text = message.payload.text { self.acknowledge(text) }
                    default: break
                    }
                }
            }
        }

        /// Keeps a reply; returns the tally that counts it too, if any.
        private func reply(_ text: String) -> Tally? {
            replies.append(text)
            changed()
            guard let tally, text.hasPrefix(tally.user + " ") else { return nil }
            return tally.count
        }

        /// The replies to `user`'s own messages (their texts start with the user id), in order.
        func replies(of user: String) -> [String] { replies.filter { $0.hasPrefix(user + " ") } }
        private func acknowledge(_ text: String) { acknowledged.append(text) }

        func stop() { task?.cancel() }

        /// How many replies arrived (``Awaitable``).
        var snapshot: Int { replies.count }
        var waiters = Waiters<Int>()
        /// Where the replies to this inbox's own user are also counted, when several inboxes are watched together.
        private var tally: (user: String, count: Tally)?

        /// Counts the replies to `user`'s own messages in `tally` too.
        func report(_ user: String, to tally: Tally) { self.tally = (user, tally) }

        /// Returns once `count` replies arrived; throws when `timeout` passes first.
        func wait(for count: Int, _ what: String, within timeout: Duration = .seconds(30)) async throws {
            try await wait(what, within: timeout) { $0 >= count }
        }
    }

    /// The replies to their own users that several inboxes received, together.
    actor Tally: Awaitable {
        private(set) var count = 0
        var snapshot: Int { count }
        var waiters = Waiters<Int>()

        func add() {
            count += 1
            changed()
        }
    }

    @Test func usersOnDifferentNodesShareOneConversationAndEveryNodeHasTheSameTranscript() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(Self.channels)
        let (nodes, ports) = try await Self.nodes(3, database, folder: "cluster-node", config: config)
        let nginx = try await Nginx(port: try freePort(), nodes: ports)
        defer { nginx.stop() }

        // One user with a socket on node 1, one on node 2, and one through nginx (on any node).
        let user = "ada-\(UUID().uuidString.prefix(8))"
        let clients = [ports[0], ports[1], nginx.port].map { Self.client(port: $0, user: user) }
        let inboxes = try await Self.connected(clients)
        let texts = ["from node 1", "from node 2", "through nginx"]
        for (index, text) in texts.enumerated() {
            try await clients[index].send(text: text)
            // The reply, stored by whichever node answered, reaches the user's sockets on every node.
            for inbox in inboxes { try await inbox.wait(for: index + 1, "replies to \"\(text)\"") }
        }
        for inbox in inboxes {
            #expect(await inbox.replies == texts)
            await inbox.stop()
        }
        for client in clients { await client.destroy() }

        // Read again from each node: the same transcript, in the same order.
        for port in ports {
            let transcript = try await RawChat.transcript(port: port, channel: "echo", user: user, count: texts.count)
            #expect(transcript == texts, "the transcript from port \(port)")
        }
        for node in nodes { try await node.stop() }
    }

    /// A user on node 1 and an agent on node 2 converse; node 2 stops, and the agent, reconnected to node 1, still has
    /// the conversation (the queue and who has what are in the database).
    @Test func aUserOnOneNodeAndAnAgentOnAnotherConverseAndTheTakeoverSurvivesTheAgentsNode() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(#"{"channels": [{"id": "demo", "skill": "demo"}]}"#)
        let (nodes, ports) = try await Self.nodes(
            2, database, folder: "cluster-agent", config: config, options: ["--agent-key", "k"])
        let user = "uma-\(UUID().uuidString.prefix(8))"
        let client = Self.client(port: ports[0], user: user, channel: "demo")
        let inbox = Inbox()
        await inbox.collect(client)
        try await client.initialize()
        // The agent signs in on node 2 and sees the queue kept in the database.
        let agent = try await ScriptedAgent.connect(
            to: try #require(URL(string: "http://127.0.0.1:\(ports[1])")), key: "k", agent: AgentSession(name: "Ann"))
        _ = try await agent.next("welcome")
        try await client.send(text: "agent")  // the demo skill hands the conversation over
        try await withTimeout(.seconds(20), "the hand-off in the queue of the agent on node 2") {
            while true {
                let queue = try await agent.next("queue")
                if queue["conversations"]?.arrayValue?.contains(where: { $0["userId"]?.stringValue == user }) == true {
                    return
                }
            }
        }
        await agent.join(channelId: "demo", userId: user)
        _ = try await agent.next("joined")
        // The user's message, stored on node 1, reaches the agent on node 2 …
        try await client.send(text: "is anyone there?")
        let forwarded = try await agent.next("message")
        #expect(forwarded["frame"]?["messagePayload"]?["text"] == "is anyone there?")
        // … and the agent's reply, stored on node 2, reaches the user on node 1.
        let before = await inbox.replies.count
        await agent.say(.text("Ann here, from node 2"), channelId: "demo", userId: user)
        try await inbox.wait(for: before + 1, "the agent's reply")
        #expect(await inbox.replies.last == "Ann here, from node 2")

        // Node 2 stops; Ann's console reconnects to node 1 and still has the conversation, without joining again.
        try await nodes[1].stop()
        await agent.close()
        let again = try await ScriptedAgent.connect(
            to: try #require(URL(string: "http://127.0.0.1:\(ports[0])")), key: "k", agent: AgentSession(name: "Ann"))
        _ = try await again.next("welcome")
        let queue = try await again.next("queue")
        let entry = queue["conversations"]?.arrayValue?.first { $0["userId"]?.stringValue == user }
        #expect(entry?["agent"]?["name"] == "Ann", "\(queue)")
        await again.say(.text("still Ann, now on node 1"), channelId: "demo", userId: user)
        try await inbox.wait(for: before + 2, "the agent's reply after the takeover")
        await again.handBack(channelId: "demo", userId: user, text: "back to the assistant")
        _ = try await again.next("ended")
        try await inbox.wait(for: before + 3, "the hand-back")
        #expect(
            await inbox.replies.suffix(3) == [
                "Ann here, from node 2", "still Ann, now on node 1", "back to the assistant",
            ])
        await again.close()
        await inbox.stop()
        await client.destroy()
        for node in nodes { try await node.stop() }
    }

    /// A session secret issued by node 1 opens a socket on node 2: the bindings are in the database.
    @Test func aSessionSecretIssuedByOneNodeOpensASocketOnAnother() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(
            #"{"channels": [{"id": "sealed", "skill": "echo", "sessionSecrets": true}]}"#)
        let (nodes, ports) = try await Self.nodes(2, database, folder: "cluster-session", config: config)
        let issued = try await offloaded { [port = ports[0]] in
            try RawTCP.exchange(
                port: port,
                "POST /chat/v1/sessions?channelId=sealed&userId=sam HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n", toEnd: true)
        }
        let body = issued.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        let secret = try #require(try JSONValue(parsing: body)["sessionSecret"]?.stringValue, "\(issued)")
        let welcome = try await RawChat.firstFrame(
            port: ports[1], channel: "sealed", user: "sam", query: "&sessionSecret=\(secret)")
        #expect(welcome?["state"]?["type"] == "parley", "\(String(describing: welcome))")
        // Without the secret, node 2 refuses the socket as node 1 would.
        let refused = try await RawChat.close(port: ports[1], channel: "sealed", user: "sam") {}
        #expect(refused?.code == .sessionRequired, "\(String(describing: refused))")
        for node in nodes { try await node.stop() }
    }

    /// An attachment uploaded through node 1 downloads from node 2 and through nginx, byte for byte, though node 2's
    /// data folder never saw it: attachments are in the database; so is the quota, counted over both nodes.
    @Test func anAttachmentUploadedThroughOneNodeDownloadsFromEveryNode() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(Self.channels)
        let (nodes, ports) = try await Self.nodes(
            2, database, folder: "cluster-attachment", config: config, options: ["--user-storage-quota", "3000000"])
        let nginx = try await Nginx(port: try freePort(), nodes: ports)
        defer { nginx.stop() }

        let user = "ida-\(UUID().uuidString.prefix(8))"
        let client = Self.client(port: ports[0], user: user)
        try await client.initialize()
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // Three parts of the database's store (1 MiB each), so that their order is checked too.
        let picture = Data(signature + (0..<(2 * 1_048_576 + 4_321)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let sent = try #require(try await client.sendAttachment(picture, fileName: "cat.png", mimeType: "image/png"))
        guard case .attachment(let attachment) = sent.payload.content else {
            Issue.record("not an attachment message: \(sent.payload)")
            return
        }
        let path = try #require(URLComponents(string: attachment.url)).path
        #expect(path.hasSuffix("/cat.png"), "\(attachment.url)")
        for port in [ports[1], nginx.port, ports[0]] {
            var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
            request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
            let (body, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            #expect(http.statusCode == 200, "port \(port)")
            #expect(http.value(forHTTPHeaderField: "Content-Type") == "image/png", "port \(port)")
            #expect(body == picture, "port \(port): \(body.count) bytes")
        }
        // The same user uploads through node 2: with 2 MiB stored through node 1, another 2 MiB exceed the quota.
        await client.destroy()
        let other = Self.client(port: ports[1], user: user)
        try await other.initialize()
        let refused = await #expect(throws: ParleyError.self) {
            try await other.sendAttachment(picture, fileName: "dog.png", mimeType: "image/png")
        }
        #expect(refused?.code == .attachmentTooLarge, "\(String(describing: refused))")
        #expect(refused?.message.contains("attachment.quotaExceeded") == true, "\(String(describing: refused))")
        await other.destroy()
        for node in nodes { try await node.stop() }
    }

    @Test func aDrainedNodeClosesItsSocketsWith1012AndFinishes() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(Self.channels)
        let node = try await Self.node(database, data: temporaryDataFolder("cluster-drain"), config: config)
        let port = try await node.listeningPort()
        let pid = node.pid
        let close = try await RawChat.close(port: port, channel: "echo", user: "drained") {
            _ = kill(pid, SIGTERM)
        }
        #expect(close?.code == .serviceRestart, "closed with \(String(describing: close))")
        #expect(close?.reason?.hasPrefix("server.draining") == true, "\(String(describing: close?.reason))")
        #expect(try await node.exitStatus(within: .seconds(15)) == 0, "the drained node exits cleanly")
    }

    /// The cluster's chaos run: users chat through nginx while nodes are killed with SIGKILL and restarted, one is
    /// drained with SIGTERM, and the database is restarted once. Not one acknowledged message may be lost, answered
    /// twice or out of order, and every client keeps going through nginx.
    @Test func nodesKilledDrainedAndTheDatabaseRestartedLoseAndRepeatNothing() async throws {
        let database = try ClusterDatabase()
        defer { database.drop() }
        let config = try configurationFile(Self.channels)
        let ports = try (0..<3).map { _ in try freePort() }
        let folders = ports.map { _ in temporaryDataFolder("cluster-chaos") }
        var nodes: [ServerProcess] = []
        for (port, folder) in zip(ports, folders) {
            nodes.append(try await Self.node(database, port: port, data: folder, config: config))
        }
        let nginx = try await Nginx(port: try freePort(), nodes: ports)
        defer { nginx.stop() }

        let users = (1...6).map { "chaos\($0)-\(UUID().uuidString.prefix(6))" }
        let perUser = 200
        let clients = users.map { Self.client(port: nginx.port, user: $0) }
        let inboxes = try await Self.connected(clients)
        let tally = Tally()
        for (inbox, user) in zip(inboxes, users) { await inbox.report(user, to: tally) }
        let sent = users.map { user in (1...perUser).map { "\(user) \(KillChaosTests.text($0))" } }
        for (client, texts) in zip(clients, sent) {
            for text in texts { try await client.send(text: text) }
        }

        // The faults, each once the users together have that many replies: kills, a drain, a database restart.
        enum Fault { case kill(Int), drain(Int), restartDatabase }
        var faults: [(at: Int, fault: Fault)] = [
            (60, .kill(0)), (140, .kill(1)), (220, .restartDatabase), (300, .kill(2)), (380, .kill(1)),
            (460, .kill(0)), (540, .drain(2)),
        ]
        // The database restart is part of the run, never skipped: without the command the test fails.
        guard let restartCommand = ClusterDatabase.restartCommand else {
            throw ServerProcess.Failure(
                description: "PARLEY_TEST_POSTGRES_RESTART is not set: the chaos run restarts the database mid-run "
                    + "(scripts/test sets it from scripts/postgres-test-server)")
        }
        var log: [String] = []
        let total = users.count * perUser
        let deadline = ContinuousClock.now + .seconds(240)
        while let next = faults.first {
            // Woken by the reply that reaches the fault's point.
            try await tally.wait("\(next.at) replies after \(log)", within: deadline - ContinuousClock.now) {
                $0 >= next.at
            }
            let replies = await tally.count
            faults.removeFirst()
            switch next.fault {
            case .kill(let index):
                try await nodes[index].kill9()
                nodes[index] = try await Self.node(database, port: ports[index], data: folders[index], config: config)
                log.append("SIGKILL node \(index) at \(replies)")
                FileHandle.standardError.write(Data("cluster chaos: \(log.last ?? "")\n".utf8))
            case .drain(let index):
                try await nodes[index].stop()
                nodes[index] = try await Self.node(database, port: ports[index], data: folders[index], config: config)
                log.append("SIGTERM node \(index) at \(replies)")
                FileHandle.standardError.write(Data("cluster chaos: \(log.last ?? "")\n".utf8))
            case .restartDatabase:
                let url = database.url
                try await offloaded { try ClusterDatabase.restart(restartCommand, thenReach: url) }
                log.append("database restarted at \(replies)")
                FileHandle.standardError.write(Data("cluster chaos: \(log.last ?? "")\n".utf8))
            }
        }
        try await tally.wait("\(total) replies after \(log)", within: deadline - ContinuousClock.now) { $0 >= total }
        print("cluster chaos: \(log.joined(separator: ", "))")
        for client in clients { await client.destroy() }
        for (index, inbox) in inboxes.enumerated() {
            await inbox.stop()
            let replies = await inbox.replies(of: users[index])
            let acknowledged = await inbox.acknowledged
            // Besides the replies, a user may read that the server kept a message it could not store or answer
            // while the database restarted (and then stored or answered it): nothing else.
            let notices = Set(await inbox.replies).subtracting(replies)
            #expect(notices.isSubset(of: Self.databaseNotices), "\(notices)")
            #expect(acknowledged == sent[index], "\(users[index]): every message acknowledged once, in order")
            #expect(replies == sent[index], "\(users[index]): every message answered once, in order")
        }
        for node in nodes { try await node.stop() }
    }
}
