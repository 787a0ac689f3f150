import Foundation
import NIOCore
import ParleyClientTesting
import Testing

/// The proxy at the frame level: a raw client and a raw server on either side, so that every byte is checked.
@Suite("Fault proxy frames", .serialized, .timeLimit(.minutes(2)))
struct FaultProxyFrameTests {
    /// Opens client → proxy → server, passes the upgrade both ways (checking it arrives unchanged) and runs `body`
    /// with the two ends; stops the proxy after.
    static func exchange<Result>(
        faults: FaultProxy.Faults, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (FaultProxy, inout RawPeer, inout RawPeer) async throws -> Result
    ) async throws -> Result {
        try await RawListener.run { listener in
            let proxy = try await FaultProxy.start(upstreamPort: listener.port, faults: faults)
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(
                    try await withRawConnection(to: proxy.port) { client in
                        try await client.write(RawPeer.upgradeRequest)
                        return try await listener.accept { server in
                            #expect(
                                try await server.readHead() == RawPeer.upgradeRequest, sourceLocation: sourceLocation)
                            try await server.write(RawPeer.upgradeResponse)
                            #expect(
                                try await client.readHead() == RawPeer.upgradeResponse, sourceLocation: sourceLocation)
                            return try await body(proxy, &client, &server)
                        }
                    })
            } catch {
                result = .failure(error)
            }
            await proxy.stop()
            return try result.get()
        }
    }

    /// Frames of every length encoding, fragments and control frames, in one write.
    static let mixed: [[UInt8]] = [
        RawFrame.clientText("hello"),
        RawFrame.encode(RawFrame.binary, (0..<300).map { UInt8($0 & 0xFF) }, mask: [1, 2, 3, 4]),
        RawFrame.encode(RawFrame.binary, (0..<70_000).map { UInt8($0 % 251) }, mask: [5, 6, 7, 8]),
        RawFrame.encode(RawFrame.ping, Array("p".utf8), mask: [9, 9, 9, 9]),
        RawFrame.encode(RawFrame.text, Array("frag".utf8), fin: false, mask: [1, 1, 1, 1]),
        RawFrame.encode(0, Array("ment".utf8), mask: [2, 2, 2, 2]),
    ]

    @Test func withoutFaultsEveryByteArrivesInOrder() async throws {
        try await Self.exchange(faults: .init(seed: 1)) { proxy, client, server in
            try await client.write(Self.mixed.flatMap { $0 })
            #expect(try await server.readFrames(Self.mixed.count).map(\.bytes) == Self.mixed)
            try await server.write(RawFrame.serverText("a") + RawFrame.encode(RawFrame.pong, []))
            #expect(try await client.readFrames(2).map(\.description) == [#"text "a""#, #"pong """#])
            let stats = await proxy.stats
            #expect(stats.connections == 1)
            #expect(stats.dataFramesToServer == 3)  // fragments and control frames are not data frames
            #expect(stats.dataFramesToClient == 1)
            #expect(stats.duplicated == 0)
            #expect(stats.reordered == 0)
        }
    }

    @Test func duplicationSendsCompleteDataFramesTwice() async throws {
        try await Self.exchange(faults: .init(seed: 1, duplicate: 1)) { proxy, client, server in
            try await client.write(Self.mixed.flatMap { $0 })
            let expected =
                [Self.mixed[0], Self.mixed[0], Self.mixed[1], Self.mixed[1], Self.mixed[2], Self.mixed[2]]
                + Self.mixed[3...]
            #expect(try await server.readFrames(expected.count).map(\.bytes) == expected)
            try await server.write(
                RawFrame.serverText("a") + RawFrame.encode(RawFrame.pong, []) + RawFrame.serverText("b"))
            #expect(
                try await client.readFrames(5).map(\.description) == [
                    #"text "a""#, #"text "a""#, #"pong """#, #"text "b""#, #"text "b""#,
                ])
            let stats = await proxy.stats
            #expect(stats.dataFramesToServer == 3)
            #expect(stats.dataFramesToClient == 2)
            #expect(stats.duplicated == 5)
        }
    }

    @Test func reorderingSwapsNeighboursButNeverPassesAControlFrame() async throws {
        try await Self.exchange(faults: .init(seed: 1, reorder: 1)) { proxy, client, server in
            // 1 is held and goes after 2; 3 is held and goes out before the ping; 4 goes out before the close.
            let frames =
                ["1", "2", "3"].map(RawFrame.clientText)
                + [RawFrame.encode(RawFrame.ping, [], mask: [0, 0, 0, 0]), RawFrame.clientText("4")]
                + [RawFrame.encode(RawFrame.close, [0x03, 0xE8], mask: [7, 7, 7, 7])]
            try await client.write(frames.flatMap { $0 })
            #expect(
                try await server.readFrames(6).map(\.description) == [
                    #"text "2""#, #"text "1""#, #"text "3""#, #"ping """#, #"text "4""#, "close 1000",
                ])

            // A held frame with nothing after it goes out after 50 ms.
            try await server.write(RawFrame.serverText("a"))
            #expect(try await client.readFrames(1).map(\.description) == [#"text "a""#])
            try await server.write(RawFrame.serverText("b") + RawFrame.serverText("c"))
            #expect(try await client.readFrames(2).map(\.description) == [#"text "c""#, #"text "b""#])
            let stats = await proxy.stats
            #expect(stats.reordered == 2)  // 2 before 1 and c before b; the others were flushed in place
            #expect(stats.dataFramesToServer == 4)
            #expect(stats.dataFramesToClient == 3)
        }
    }

    /// The order in which the server sees 30 numbered frames, with a coin-flip chance of duplication and
    /// reordering each, under `seed`.
    static func schedule(seed: UInt64) async throws -> [String] {
        try await exchange(faults: .init(seed: seed, duplicate: 0.5, reorder: 0.5)) { _, client, server in
            let frames = (0..<30).map { RawFrame.clientText("\($0)") }
            try await client.write(frames.flatMap { $0 } + RawFrame.encode(RawFrame.close, [], mask: [0, 0, 0, 0]))
            var seen: [String] = []
            while let frame = try await server.readFrame(), frame.opcode != RawFrame.close { seen.append(frame.text) }
            return seen
        }
    }

    @Test func theSameSeedGivesTheSameSchedule() async throws {
        let first = try await Self.schedule(seed: 2024)
        let again = try await Self.schedule(seed: 2024)
        let other = try await Self.schedule(seed: 2025)
        #expect(first == again)
        #expect(first != other)
        // Faults happened, and nothing was lost: every frame arrived once or twice.
        #expect(first != (0..<30).map { "\($0)" })
        #expect(Set(first) == Set((0..<30).map { "\($0)" }))
        #expect(first.count > 30)
    }

    @Test func delayedFramesKeepTheirOrder() async throws {
        let faults = FaultProxy.Faults(seed: 3, delay: .milliseconds(40) ... .milliseconds(60))
        try await Self.exchange(faults: faults) { proxy, client, server in
            let start = ContinuousClock.now
            try await client.write(
                RawFrame.clientText("1") + RawFrame.clientText("2")
                    + RawFrame.encode(RawFrame.ping, [], mask: [0, 0, 0, 0]))
            #expect(try await server.readFrames(3).map(\.description) == [#"text "1""#, #"text "2""#, #"ping """#])
            #expect(ContinuousClock.now - start >= .milliseconds(40))
            #expect(await proxy.stats.delayed == 2)
        }
    }

    @Test func aConnectionDropsAfterItsNumberOfDataFrames() async throws {
        try await Self.exchange(faults: .init(seed: 4, dropConnectionAfterFrames: 3...3)) { proxy, client, server in
            try await client.write(RawFrame.clientText("1") + RawFrame.clientText("2"))
            #expect(try await server.readFrames(2).map(\.text) == ["1", "2"])
            try await server.write(RawFrame.serverText("3") + RawFrame.serverText("4"))
            // The third data frame still goes through; then both sockets close without a close frame.
            #expect(try await client.readFrame()?.text == "3")
            #expect(try await client.readFrame() == nil)
            #expect(try await server.readFrame() == nil)
            let stats = await proxy.stats
            #expect(stats.droppedConnections == 1)
            #expect(stats.dataFramesToClient == 1)
        }
    }

    @Test func dropAllConnectionsClosesBothSockets() async throws {
        try await Self.exchange(faults: .init(seed: 5)) { proxy, client, server in
            await proxy.dropAllConnections()
            let clientFrame = try await client.readFrame()
            let serverFrame = try await server.readFrame()
            #expect(clientFrame == nil)
            #expect(serverFrame == nil)
            #expect(await proxy.stats.droppedConnections == 1)
        }
    }

    @Test func theBlackHoleSwallowsFramesAndTheConnectionRecoversAfter() async throws {
        try await Self.exchange(faults: .init(seed: 6)) { proxy, client, server in
            await proxy.setBlackHole(true)
            try await client.write(
                RawFrame.clientText("lost") + RawFrame.encode(RawFrame.ping, [], mask: [0, 0, 0, 0]))
            try await server.write(RawFrame.serverText("lost too"))
            try await waitUntil("the proxy swallowed 3 frames") { await proxy.stats.swallowed == 3 }
            await proxy.setBlackHole(false)
            try await client.write(RawFrame.clientText("found"))
            #expect(try await server.readFrame()?.text == "found")
            try await server.write(RawFrame.serverText("found too"))
            #expect(try await client.readFrame()?.text == "found too")
            let stats = await proxy.stats
            #expect(stats.dataFramesToServer == 1)
            #expect(stats.dataFramesToClient == 1)
        }
    }

    @Test func aRefusedUpgradePassesUntouched() async throws {
        try await RawListener.run { listener in
            let proxy = try await FaultProxy.start(upstreamPort: listener.port, faults: .init(seed: 7, duplicate: 1))
            let refusal = Array("HTTP/1.1 401 Unauthorized\r\nContent-Length: 3\r\n\r\n".utf8) + [0x81, 0x01, 0x41]
            let received = try await withRawConnection(to: proxy.port) { client in
                try await client.write(RawPeer.upgradeRequest)
                try await listener.accept { server in
                    _ = try await server.readHead()
                    try await server.write(refusal)
                }
                return try await client.readToEnd()
            }
            #expect(received == refusal)  // the body looks like a text frame, but is not duplicated
            #expect(await proxy.stats.duplicated == 0)
            await proxy.stop()
        }
    }

    @Test func newConnectionsGoToTheNewUpstreamPort() async throws {
        try await RawListener.run { first in
            try await RawListener.run { second in
                let proxy = try await FaultProxy.start(upstreamPort: first.port, faults: .init(seed: 8))
                for (index, listener) in [first.port, second.port].enumerated() {
                    if index == 1 { await proxy.setUpstreamPort(second.port) }
                    try await withRawConnection(to: proxy.port) { client in
                        try await client.write(RawPeer.upgradeRequest)
                        let accept = { (peer: inout RawPeer) async throws in
                            #expect(try await peer.readHead() == RawPeer.upgradeRequest)
                        }
                        if listener == first.port {
                            try await first.accept(accept)
                        } else {
                            try await second.accept(accept)
                        }
                    }
                }
                #expect(await proxy.stats.connections == 2)
                await proxy.stop()
            }
        }
    }

    @Test func aClientIsDisconnectedWhenTheServerCannotBeReached() async throws {
        let closedPort = try await RawListener.run { $0.port }
        let proxy = try await FaultProxy.start(upstreamPort: closedPort, faults: .init(seed: 9))
        let received = try await withRawConnection(to: proxy.port) { client in
            // The proxy may close the connection before the request is written: that is what is tested.
            try? await client.write(RawPeer.upgradeRequest)
            return try await client.readToEnd()
        }
        #expect(received == [])
        #expect(await proxy.stats.failedUpstreamConnections == 1)
        await proxy.stop()
    }
}
