import Foundation
import ParleyServerTesting
import Testing

/// Back-off, zombie detection and token refresh on a virtual clock: no sleeping, exact times.
@Suite("Chat client timing on a virtual clock", .timeLimit(.minutes(1)))
struct TimingTests {
    /// Plays the server side of a connection: answers the handshake `ping` (and, if `answerPings`, every later
    /// one), and reports every frame the client sent.
    static func play(
        _ connection: InMemoryServerConnection, answerPings: Bool = true,
        frames: AsyncStream<String>.Continuation? = nil
    ) -> Task<Void, Never> {
        Task {
            var answered = 0
            for await text in connection.inbound {
                frames?.yield(text)
                if text.contains(#""type":"ping""#), answerPings || answered == 0 {
                    answered += 1
                    await connection.send(StateFrame.pong.jsonString())
                }
            }
        }
    }

    /// Waits (without sleeping) until `condition` holds; fails after many turns.
    static func eventually(_ what: String, _ condition: () async -> Bool) async {
        for _ in 0..<100_000 {
            if await condition() { return }
            await Task.yield()
        }
        Issue.record("never: \(what)")
    }

    static let url = URL(string: "http://parley.test")!

    @Test func reconnectingBacksOffExponentiallyWithFullJitter() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        var configuration = ChatClient.Configuration(url: Self.url, channelId: "c", userId: "u")
        configuration.heartbeatInterval = .seconds(3600)
        let client = ChatClient(
            configuration: configuration, transport: transport, clock: clock,
            random: SeededRandomNumberGenerator(seed: 7))
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let first = try #require(await connections.next())
        let player = Self.play(first)
        try await initialized
        try await events.status(.connected)

        // The server goes away; the next three attempts are refused.
        server.refuseNextConnections(ParleyError(.connectionFailed, "refused"), count: 3)
        await first.close(.goingAway, reason: "restart")
        try await events.status(.connecting)
        var expected = SeededRandomNumberGenerator(seed: 7)
        let policy = ChatClient.ReconnectPolicy()
        for attempt in 1...4 {
            let delay = policy.delay(beforeAttempt: attempt, using: &expected)
            #expect(delay <= policy.bound(beforeAttempt: attempt))
            let wake = clock.now.advanced(by: delay)
            await Self.eventually("attempt \(attempt) is scheduled") { clock.nextDeadline == wake }
            await clock.advance(to: wake)
            if attempt < 4 {
                await Self.eventually("attempt \(attempt) failed") { clock.nextDeadline.map { $0 > wake } ?? false }
            }
        }
        #expect(policy.bound(beforeAttempt: 1) == .seconds(1))
        #expect(policy.bound(beforeAttempt: 4) == .seconds(8))
        #expect(policy.bound(beforeAttempt: 9) == .seconds(30))
        let second = try #require(await connections.next())
        let secondPlayer = Self.play(second)
        try await events.status(.connected)
        await client.destroy()
        player.cancel()
        secondPlayer.cancel()
    }

    @Test func aSilentSocketIsDetectedByThePongDeadline() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        let client = ChatClient(
            configuration: .init(url: Self.url, channelId: "c", userId: "u"), transport: transport, clock: clock)
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let first = try #require(await connections.next())
        let (frames, log) = AsyncStream.makeStream(of: String.self)
        let player = Self.play(first, answerPings: false, frames: log)
        try await initialized

        var sent = frames.makeAsyncIterator()
        var pings = 0
        while pings < 1 { if (await sent.next())?.contains(#""ping""#) == true { pings += 1 } }  // the handshake
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(30))  // heartbeat: a ping that gets no pong
        while pings < 2 { if (await sent.next())?.contains(#""ping""#) == true { pings += 1 } }
        await Self.eventually("the pong deadline is set") { clock.nextDeadline == clock.now.advanced(by: .seconds(10)) }
        await clock.advance(by: .seconds(9))
        #expect(await client.status == .connected, "not before the deadline")
        await clock.advance(by: .seconds(1))
        let error = try await events.error()
        #expect(error.code == .heartbeatTimeout)
        let replacement = try #require(await connections.next(), "a new socket at once")
        let replacementPlayer = Self.play(replacement)
        try await events.status(.connected)
        await client.destroy()
        player.cancel()
        replacementPlayer.cancel()
    }

    @Test func theTokenIsFetchedOnceForConcurrentNeedsAndRefreshedBeforeItExpires() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        let calls = Counter()
        var configuration = ChatClient.Configuration(url: Self.url) {
            await calls.increment()
            return ChannelToken.mint(
                channelId: "c", userId: "u", secret: "s", lifetime: 120,
                now: Date().addingTimeInterval(Double(await calls.value)))
        }
        configuration.heartbeatInterval = .seconds(3600)
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        var connections = server.connections.makeAsyncIterator()
        async let one: Void = client.initialize()
        async let two: Void = client.initialize()
        let connection = try #require(await connections.next())
        let (frames, log) = AsyncStream.makeStream(of: String.self)
        let player = Self.play(connection, frames: log)
        try await one
        try await two
        #expect(await calls.value == 1, "single flight")

        var sent = frames.makeAsyncIterator()
        var auths: [String] = []
        while auths.isEmpty, let text = await sent.next() {
            if let frame = try? StateFrame(decoding: text), frame.type == .auth, let token = frame.token {
                auths.append(token)
            }
        }
        // The token lives 120 s; 60 s before it expires the client fetches the next and presents it. The token's
        // times are whole wall-clock seconds, and a loaded machine can stall the test between minting and checking:
        // the bound below only tells "60 s before expiry" from "at expiry" (120 s) and "at once" (0 s).
        await Self.eventually("the refresh is scheduled") { clock.nextDeadline != nil }
        let refreshAt = try #require(clock.nextDeadline)
        #expect(refreshAt.offset > .seconds(50) && refreshAt.offset <= .seconds(61))
        await clock.advance(to: refreshAt)
        while auths.count < 2, let text = await sent.next() {
            if let frame = try? StateFrame(decoding: text), frame.type == .auth, let token = frame.token {
                auths.append(token)
            }
        }
        #expect(await calls.value == 2)
        #expect(auths[0] != auths[1])
        #expect(await client.status == .connected, "the same socket")
        await client.destroy()
        player.cancel()
    }

    @Test func anAuthenticationFailureIsReportedOnceAndNotRetried() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        let calls = Counter()
        let configuration = ChatClient.Configuration(url: Self.url) {
            await calls.increment()
            return ChannelToken.mint(channelId: "c", userId: "u", secret: "s", lifetime: 1800)
        }
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let first = try #require(await connections.next())
        let player = Self.play(first)
        try await initialized
        // Later the server decides the token is bad (say, the channel's secret was rotated).
        await first.close(.invalidToken, reason: "auth.invalidToken: the signature does not verify")
        let error = try await events.error()
        #expect(error.code == .invalidToken)
        try await events.status(.disconnected)
        await clock.advance(by: .seconds(3600))
        #expect(clock.sleeperCount == 0, "nothing scheduled: no retry loop")
        #expect(await calls.value == 1)
        #expect(await client.status == .disconnected)
        await client.destroy()
        player.cancel()
    }

    @Test func theAppsBackgroundForegroundAndNetworkReportsDriveTheConnection() async throws {
        let clock = VirtualClock()
        let (transport, server) = InMemoryTransport.pair()
        var configuration = ChatClient.Configuration(url: Self.url, channelId: "c", userId: "u")
        configuration.heartbeatInterval = .seconds(3600)
        let client = ChatClient(configuration: configuration, transport: transport, clock: clock)
        var events = EventReader(await client.events())
        var connections = server.connections.makeAsyncIterator()
        async let initialized: Void = client.initialize()
        let first = try #require(await connections.next())
        var players = [Self.play(first)]
        try await initialized
        try await events.status(.connected)

        await client.applicationDidEnterBackground()
        try await events.status(.disconnected)
        await Self.eventually("the socket closed") { first.isClosed }
        let queued = try #require(try await client.send(text: "from the background"))
        #expect(queued.delivery == .pending)
        await clock.advance(by: .seconds(600))
        #expect(clock.sleeperCount == 0, "no reconnecting in the background")

        await client.applicationWillEnterForeground()
        let second = try #require(await connections.next(), "at once, without waiting")
        let (frames, log) = AsyncStream.makeStream(of: String.self)
        players.append(Self.play(second, frames: log))
        try await events.status(.connected)
        var sent = frames.makeAsyncIterator()
        var delivered = false
        while !delivered, let text = await sent.next() { delivered = text.contains("from the background") }
        #expect(delivered, "what waited went out")

        await client.networkReachabilityChanged(isReachable: false)
        await client.networkReachabilityChanged(isReachable: true)  // another network: the old socket is suspect
        await Self.eventually("the old socket closed") { second.isClosed }
        let third = try #require(await connections.next())
        players.append(Self.play(third))
        try await events.status(.connected)

        await client.networkReachabilityChanged(isReachable: false)
        await third.close(.goingAway, reason: "lost")
        try await events.status(.connecting)
        await clock.advance(by: .seconds(600))
        #expect(clock.sleeperCount == 0, "no attempts while unreachable")
        await client.networkReachabilityChanged(isReachable: true)
        let fourth = try #require(await connections.next())
        players.append(Self.play(fourth))
        try await events.status(.connected)
        await client.destroy()
        players.forEach { $0.cancel() }
    }
}
