import Foundation
import ParleyServerTesting
import Testing

/// The proxy between a real ``ChatClient`` and a real Parley server.
@Suite("Fault proxy with a chat client", .serialized, .timeLimit(.minutes(2)))
struct FaultProxyTests {
    static let echo = ChannelConfiguration(id: "echo", skill: .echo)

    /// Runs an echo server, a proxy in front of it with `faults`, and `body`; stops the proxy after.
    static func withProxy(
        faults: FaultProxy.Faults, _ body: (InProcessServer, FaultProxy) async throws -> Void
    ) async throws {
        try await InProcessServer.run(channels: [echo]) { server in
            let proxy = try await FaultProxy.start(upstreamPort: server.port, faults: faults)
            do {
                try await body(server, proxy)
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
        }
    }

    @Test func withoutFaultsMessagesEchoThrough() async throws {
        try await Self.withProxy(faults: .init(seed: 1)) { _, proxy in
            let client = ChatClient(configuration: .init(url: proxy.url, channelId: "echo", userId: "u"))
            var events = EventReader(await client.events())
            try await client.initialize()
            for text in ["one", "two", "three"] { try await client.send(text: text) }
            var replies: [String?] = []
            for _ in 0..<3 { replies.append(try await events.reply()) }
            #expect(replies == ["one", "two", "three"])
            let stats = await proxy.stats
            #expect(stats.connections == 1)
            #expect(stats.dataFramesToServer == 5)  // Parley's hello, the opening ping and three messages
            #expect(stats.dataFramesToClient == 8)  // the welcome, the pong, three acknowledgements, three replies
            #expect(stats.duplicated == 0)
            await client.destroy()
        }
    }

    @Test func duplicatedFramesAreFilteredOutOnBothSides() async throws {
        try await Self.withProxy(faults: .init(seed: 2, duplicate: 1)) { _, proxy in
            let client = ChatClient(configuration: .init(url: proxy.url, channelId: "echo", userId: "u"))
            var events = EventReader(await client.events())
            try await client.initialize()
            // Every frame arrives twice: the server drops the repeated message (same clientMessageId), the client
            // the repeated reply (same sequence number).
            try await client.send(text: "once")
            try await client.send(text: "marker")
            var replies: [String?] = []
            for _ in 0..<2 { replies.append(try await events.reply()) }
            #expect(replies == ["once", "marker"], "no second \"once\" before the marker")
            let stats = await proxy.stats
            #expect(stats.duplicated == stats.dataFramesToServer + stats.dataFramesToClient)
            #expect(stats.duplicated >= 10)
            await client.destroy()
        }
    }

    @Test func droppedConnectionsAreReopened() async throws {
        try await Self.withProxy(faults: .init(seed: 3)) { _, proxy in
            var configuration = ChatClient.Configuration(url: proxy.url, channelId: "echo", userId: "u")
            configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(try await events.status() == .connecting)
            #expect(try await events.status() == .connected)

            await proxy.dropAllConnections()
            #expect(try await events.status() == .connecting)
            #expect(try await events.status() == .connected)
            try await client.send(text: "after the drop")
            #expect(try await events.reply() == "after the drop")
            let stats = await proxy.stats
            #expect(stats.connections == 2)
            #expect(stats.droppedConnections == 1)
            await client.destroy()
        }
    }

    @Test func aBlackHoleMakesTheHeartbeatTimeOut() async throws {
        try await Self.withProxy(faults: .init(seed: 4)) { _, proxy in
            var configuration = ChatClient.Configuration(url: proxy.url, channelId: "echo", userId: "u")
            configuration.heartbeatInterval = .milliseconds(50)
            configuration.pongTimeout = .milliseconds(100)
            configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(try await events.status() == .connecting)
            #expect(try await events.status() == .connected)

            await proxy.setBlackHole(true)
            let error = try await events.error()
            #expect(error.code == .heartbeatTimeout)
            #expect(try await events.status() == .connecting)
            #expect(await proxy.stats.swallowed > 0)

            // When the network comes back, a new connection goes through. (No message is checked here: with a
            // 100 ms pong timeout, a loaded machine can time a healthy socket out and lose the reply; the frame
            // tests check that traffic flows again.)
            await proxy.setBlackHole(false)
            await proxy.dropAllConnections()  // the attempt made in the black hole never got its upgrade
            _ = try await events.next("connected again") { event in
                if case .statusChanged(.connected) = event { () } else { nil }
            }
            await client.destroy()
        }
    }

    @Test func connectionsThatDropAfterAFewFramesAreReopenedEachTime() async throws {
        // Every connection drops after 7 data frames: hello, welcome, ping, pong, a message, its acknowledgement
        // and its echo.
        try await Self.withProxy(faults: .init(seed: 5, dropConnectionAfterFrames: 7...7)) { _, proxy in
            var configuration = ChatClient.Configuration(url: proxy.url, channelId: "echo", userId: "u")
            configuration.reconnect = .init(initialDelay: .milliseconds(20), jitter: false)
            let client = ChatClient(configuration: configuration)
            var events = EventReader(await client.events())
            try await client.initialize()
            #expect(try await events.status() == .connecting)
            #expect(try await events.status() == .connected)
            for text in ["first", "second", "third"] {
                try await client.send(text: text)
                #expect(try await events.reply() == text)
                #expect(try await events.status() == .connecting)  // dropped right after the echo
                #expect(try await events.status() == .connected)
            }
            let stats = await proxy.stats
            #expect(stats.droppedConnections == 3)
            #expect(stats.connections == 4)
            await client.destroy()
        }
    }
}
