import Foundation
import Logging
import NIOWebSocket
import ParleyServerTesting
import Testing
import WSClient
import WSCore

@testable import ParleyServer

/// The agents' queue at volume (issue 33): consoles get each change, never the whole queue again, read it a page at a
/// time, and a console that reads slowly is not dropped.
@Suite("Agent queue", .serialized, .timeLimit(.minutes(5)))
struct AgentQueueTests {
    static let demo = ChannelConfiguration(id: "demo", skill: .demo)
    static let key = "agent-key-for-the-queue-tests-0123456789"

    // MARK: The node's copy of the queue (a value)

    static func key(_ user: String) -> ConversationKey { ConversationKey(channelId: "demo", userId: user) }
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func changesAreReportedOneConversationAtATimeInOrder() {
        var queue = AgentQueue([
            QueuedConversation(key: Self.key("b"), handOff: AgentHandOff(since: Self.t0.addingTimeInterval(2))),
            QueuedConversation(key: Self.key("a"), handOff: AgentHandOff(since: Self.t0.addingTimeInterval(1))),
        ])
        #expect(queue.entries.map(\.key.userId) == ["a", "b"])
        #expect(queue.version == 0)

        let c = AgentHandOff(since: Self.t0.addingTimeInterval(1.5))
        #expect(queue.set(Self.key("c"), to: c) == [.added(.init(key: Self.key("c"), since: c.since))])
        #expect(queue.entries.map(\.key.userId) == ["a", "c", "b"])
        #expect(queue.version == 1)
        #expect(queue.set(Self.key("c"), to: c).isEmpty, "no change, no version")
        #expect(queue.version == 1)

        let taken = AgentHandOff(since: c.since, agent: AgentSession(name: "Ava"))
        #expect(
            queue.set(Self.key("c"), to: taken) == [
                .updated(.init(key: Self.key("c"), since: c.since, agent: taken.agent))
            ])
        #expect(queue.entries.map(\.key.userId) == ["a", "c", "b"])
        #expect(queue.set(Self.key("a"), to: nil).map(\.isRemoval) == [true])
        #expect(queue.entries.map(\.key.userId) == ["c", "b"])
        #expect(queue.set(Self.key("zz"), to: nil).isEmpty)
        #expect(queue.version == 3)

        // A full read: what differs, as one batch.
        let changes = queue.replace(with: [
            QueuedConversation(key: Self.key("b"), handOff: AgentHandOff(since: Self.t0.addingTimeInterval(2))),
            QueuedConversation(key: Self.key("d"), handOff: AgentHandOff(since: Self.t0)),
        ])
        #expect(changes.count == 2)
        #expect(changes.contains(.added(.init(key: Self.key("d"), since: Self.t0))))
        #expect(queue.entries.map(\.key.userId) == ["d", "b"])
        #expect(queue.version == 4)
    }

    @Test func pagesFollowThePositionOfTheLastEntryAConsoleHas() {
        let queue = AgentQueue(
            (0..<10).map {
                QueuedConversation(
                    key: Self.key("u\($0)"), handOff: AgentHandOff(since: Self.t0.addingTimeInterval(Double($0))))
            })
        let first = queue.page(after: nil, limit: 4)
        #expect(first.entries.map(\.key.userId) == ["u0", "u1", "u2", "u3"])
        #expect(first.more)
        let second = queue.page(after: first.entries.last?.position, limit: 4)
        #expect(second.entries.map(\.key.userId) == ["u4", "u5", "u6", "u7"])
        let last = queue.page(after: second.entries.last?.position, limit: 4)
        #expect(last.entries.map(\.key.userId) == ["u8", "u9"])
        #expect(!last.more)
        // An entry that left the queue still marks a place (its time), as a console may still show it.
        let gone = AgentQueue.Position(key: Self.key("gone"), since: Self.t0.addingTimeInterval(4.5))
        #expect(queue.page(after: gone, limit: 2).entries.map(\.key.userId) == ["u5", "u6"])
    }

    // MARK: At volume, with a real server

    /// A few thousand users ask for an agent while a console watches: each change is one small frame, as large with
    /// two thousand conversations waiting as with one; a console that signs in then gets one page and the count, and
    /// asks for the next.
    @Test func eachChangeCostsTheSameWhateverTheQueuesLength() async throws {
        let users = 2_000
        try await withServer(channels: [Self.demo], configure: { $0.agentKey = Self.key }) { server in
            let console = try await RawConsole.open(port: server.port, name: "Ava")
            #expect(try await console.next()["type"] == "welcome")
            let first = try await console.next()
            #expect(first["type"] == "queue")
            #expect(first["conversations"] == [])
            try await Self.queueUsers(users, on: server)
            var changes: [(bytes: Int, frame: JSONValue)] = []
            while changes.count < users {
                let (frame, bytes) = try await console.nextWithSize()
                #expect(frame["type"] == "queueChanged", "only changes, never the whole queue: \(bytes) bytes")
                changes.append((bytes, frame))
            }
            #expect(changes.map { $0.frame["total"]?.intValue } == (1...users).map { Optional($0) })
            #expect(changes.map { $0.frame["version"]?.intValue } == (1...users).map { Optional($0) })
            #expect(changes.allSatisfy { $0.frame["changes"]?.arrayValue?.count == 1 })
            #expect(changes.allSatisfy { $0.frame["changes"]?[0]?["change"] == "added" })
            let early = changes.prefix(100).map(\.bytes).max() ?? 0
            let late = changes.suffix(100).map(\.bytes).max() ?? 0
            #expect(late <= early + 8, "the last changes (\(late) bytes) cost what the first did (\(early) bytes)")
            #expect(late < 400)

            // Another console: one page, not the queue.
            let other = try await RawConsole.open(port: server.port, name: "Bob")
            _ = try await other.next()  // welcome
            let (page, pageBytes) = try await other.nextWithSize()
            #expect(page["type"] == "queue")
            #expect(page["total"]?.intValue == users)
            #expect(page["more"] == true)
            let entries = try #require(page["conversations"]?.arrayValue)
            #expect(entries.count == AgentQueueFeed.pageSize)
            #expect(pageBytes < 200 * AgentQueueFeed.pageSize)
            let last = try #require(entries.last)
            try await other.send([
                "type": "queuePage", "limit": 100,
                "after": ["channelId": last["channelId"]!, "userId": last["userId"]!, "since": last["since"]!],
            ])
            let next = try await other.next()
            #expect(next["type"] == "queue")
            let more = try #require(next["conversations"]?.arrayValue)
            #expect(more.count == 100)
            let everyone = changes.compactMap { $0.frame["changes"]?[0]?["conversation"]?["userId"] }
            let firstUserIds = (entries + more).compactMap { $0["userId"] }
            #expect(Set(firstUserIds).count == 150, "no entry twice")
            #expect(Set(firstUserIds).isSubset(of: Set(everyone)))
            #expect(
                (entries + more).map { $0["since"]?.stringValue ?? "" }
                    == (entries + more).map { $0["since"]?.stringValue ?? "" }.sorted(), "in the queue's order")
            await console.close()
            await other.close()
        }
    }

    /// A console that reads at its own pace, reading nothing while each batch of 250 users asks for an agent and
    /// then catching up, is never dropped and gets every change: it is at most a batch of small changes behind (the
    /// whole queue for every change put it megabytes behind, over the socket's 4 MiB limit).
    @Test func aSlowConsoleIsNotDropped() async throws {
        let users = 2_000
        let batch = 250
        // Pings are not what this measures: a console that reads nothing for a while does not answer them either.
        let configure: (inout ServerConfiguration) -> Void = {
            $0.agentKey = Self.key
            $0.webSocketPingInterval = .seconds(600)
        }
        try await withServer(channels: [Self.demo], configure: configure) { server in
            let console = try await RawConsole.open(port: server.port, name: "Ava", reading: false)
            // The console has its first page (an empty queue) before anyone asks for an agent: from then on every
            // user comes as a change. (Users queued before the page would come in it, fifty at most.)
            console.read(2)
            #expect(try await console.next()["type"] == "welcome")
            let page = try await console.next()
            #expect(page["type"] == "queue")
            #expect(page["total"] == 0)
            var added = Set<String>()
            do {
                for start in stride(from: 0, to: users, by: batch) {
                    try await Self.queueUsers(batch, from: start, on: server)
                    console.read(batch)
                    while added.count < start + batch {
                        let frame = try await console.next()
                        guard frame["type"] == "queueChanged" else {
                            Issue.record("expected a change, got \(frame)")
                            return await console.close()
                        }
                        for change in frame["changes"]?.arrayValue ?? [] {
                            if let user = change["conversation"]?["userId"]?.stringValue { added.insert(user) }
                        }
                    }
                }
            } catch {
                await console.close()  // else the server's stop would wait for a socket that reads nothing
                throw error
            }
            #expect(added.count == users)
            console.read(1)
            try await console.send(["type": "ping"])
            #expect(try await console.next()["type"] == "pong", "the console is still connected")
            await console.close()
        }
    }

    /// `count` users of the demo skill (`user<first>`…) ask for an agent ("agent"), eight at a time, each on a socket
    /// of its own.
    static func queueUsers(_ count: Int, from first: Int = 0, on server: TestServer) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in stride(from: first + worker, to: first + count, by: 8) {
                        let user = "user\(index)"
                        try await server.chat(channel: "demo", user: user) { socket in
                            try await socket.send(UserMessage.text("agent", user: user))
                            while try await socket.receiveMessage().payload
                                != .text("I'm connecting you to one of our agents. Please wait.")
                            {}
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

extension AgentQueue.Change {
    fileprivate var isRemoval: Bool { if case .removed = self { true } else { false } }
}

/// An agent console on a bare socket, for counting the bytes of each frame and for not reading at all.
final class RawConsole: Sendable {
    private let frames: AsyncStream<(JSONValue, Int)>
    private let iterator: Iterator
    private let commands: AsyncStream<String>.Continuation
    private let readGate: AsyncStream<Int>.Continuation
    private let connection: Task<Void, any Error>

    private actor Iterator {
        var base: AsyncStream<(JSONValue, Int)>.AsyncIterator
        init(_ stream: AsyncStream<(JSONValue, Int)>) { base = stream.makeAsyncIterator() }
        func next() async -> (JSONValue, Int)? {
            var iterator = base
            let next = await iterator.next(isolation: self)
            base = iterator
            return next
        }
    }

    private init(
        frames: AsyncStream<(JSONValue, Int)>, commands: AsyncStream<String>.Continuation,
        readGate: AsyncStream<Int>.Continuation, connection: Task<Void, any Error>
    ) {
        self.frames = frames
        self.iterator = Iterator(frames)
        self.commands = commands
        self.readGate = readGate
        self.connection = connection
    }

    /// Opens the agent socket and signs in as `name`; with `reading: false` it reads only the frames ``read(_:)``
    /// allows.
    static func open(port: Int, name: String, reading: Bool = true) async throws -> RawConsole {
        let (frames, sink) = AsyncStream.makeStream(of: (JSONValue, Int).self)
        let (commandStream, commands) = AsyncStream.makeStream(of: String.self)
        let (gate, gateContinuation) = AsyncStream.makeStream(of: Int.self)
        if reading { gateContinuation.yield(Int.max) }
        let token = AgentToken.mint(agent: name, key: AgentQueueTests.key, lifetime: 3600)
        let connection = Task {
            defer { sink.finish() }
            _ = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/agent/socket", configuration: .init(maxFrameSize: 16 << 20),
                logger: Logger(label: "parley.test.console")
            ) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"auth","token":"\#(token)"}"#))
                let writer = Task {
                    for await command in commandStream { try await outbound.write(.text(command)) }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                defer { writer.cancel() }
                var gateIterator = gate.makeAsyncIterator()
                var allowed = 0
                while allowed == 0 { allowed = await gateIterator.next() ?? Int.max }
                for try await message in inbound.messages(maxSize: 16 << 20) {
                    if case .text(let text) = message { sink.yield((try JSONValue(parsing: text), text.utf8.count)) }
                    allowed -= 1
                    while allowed <= 0 { allowed += await gateIterator.next() ?? Int.max }
                }
            }
        }
        return RawConsole(frames: frames, commands: commands, readGate: gateContinuation, connection: connection)
    }

    /// Lets the console read `frames` more frames.
    func read(_ frames: Int) { readGate.yield(frames) }

    func send(_ frame: JSONValue) async throws { commands.yield(frame.jsonString()) }

    func nextWithSize() async throws -> (JSONValue, Int) {
        try await withTimeout(.seconds(60), "a frame on the agent console") { [iterator] in
            guard let next = await iterator.next() else { throw TimeoutError(description: "the console closed") }
            return next
        }
    }

    func next() async throws -> JSONValue { try await nextWithSize().0 }

    /// Closes the socket: the console reads whatever comes from now on (a console that reads nothing would never
    /// see the close, and the server's graceful stop would wait for it).
    func close() async {
        readGate.finish()
        commands.finish()
        _ = await connection.result
    }
}
