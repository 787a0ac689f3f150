import Foundation
import NIOWebSocket
import Testing
import WSCore

@testable import ParleyServer

/// The server's one time source: its readings, and a timeout that used to need real waiting.
@Suite("Server clock", .serialized, .timeLimit(.minutes(1)))
struct ServerClockTests {
    /// On a virtual clock, dates and monotonic readings move together and only when the clock moves.
    @Test func anAnchoredClockMovesItsDatesWithTheClock() async throws {
        let clock = VirtualClock()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let server = ServerClock(clock: clock, startingAt: start)
        #expect(server.now() == start)
        #expect(server.elapsed == .zero)
        await clock.advance(by: .milliseconds(90_500))
        #expect(server.now() == start.addingTimeInterval(90.5))
        #expect(server.elapsed == .milliseconds(90_500))
    }

    /// A sleep on the server clock waits on its clock.
    @Test func sleepingWaitsOnTheClock() async throws {
        let clock = VirtualClock()
        let server = ServerClock(clock: clock, startingAt: Date())
        let sleeper = Task { try await server.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        #expect(clock.nextDeadline == .init(offset: .seconds(5)))
        await clock.advance(by: .seconds(5))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    /// The system clock's dates are the system's.
    @Test func theSystemClockReadsTheSystemDate() {
        let before = Date()
        let now = ServerClock.system.now()
        #expect(now >= before && now <= Date())
    }

    /// A socket refused from the start whose client never speaks gets its refusal after
    /// ``ServerConfiguration/refusalDelay`` on the server's clock, and not before.
    @Test func aSilentRefusedSocketIsClosedAfterTheRefusalDelay() async throws {
        let clock = VirtualClock()
        try await withServer(channels: [], configure: { $0.clock = serverClock(on: clock) }) { server in
            let close = try await server.chat(channel: "nope", user: "u1") { socket in
                await clock.waitForSleepers(1)  // the refusal timer
                await clock.advance(by: .milliseconds(999))
                #expect(clock.sleeperCount == 1, "the refusal waits a second")
                await clock.advance(by: .milliseconds(1))
                let frame = try await socket.receive()
                #expect(frame == nil, "the coded close alone")
            }
            #expect(close?.closeCode == .unknown(CloseCode.unknownChannel.rawValue))
        }
    }
}
