import ParleyCore
import ParleyGenesys
import Testing

@testable import ParleyGMSSimulator

/// The simulator's time is injected: a long poll waits on the clock it is given, so a test moves it instead of
/// waiting out the ten seconds.
@Suite("GMS simulator clock", .timeLimit(.minutes(1)))
struct SimulatorClockTests {
    @Test func anEmptyLongPollReturnsWhenItsClockReachesTheTimeout() async throws {
        let clock = VirtualClock()
        let timeout = Duration.seconds(10)
        let hub = BayeuxHub(configuration: GMSSimulatorConfiguration(longPollTimeout: timeout), clock: clock)
        let (handshake, browser) = await hub.handle(
            [BayeuxMessage(channel: .handshake)], user: nil, browserCookie: nil)
        let clientId = try #require(handshake.first?.clientId)
        let connect = BayeuxMessage(channel: .connect, ["clientId": .string(clientId)])
        // The first connect returns at once; the second has nothing to deliver and waits.
        let first = await hub.handle([connect], user: nil, browserCookie: browser)
        #expect(first.replies.first?.successful == true)
        let second = Task { await hub.handle([connect], user: nil, browserCookie: browser) }
        await clock.waitForSleepers(1)
        await clock.advance(by: timeout - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "the poll still waits a millisecond before its timeout")
        await clock.advance(by: .milliseconds(1))
        let answered = await second.value
        #expect(answered.replies.map(\.channel) == [.connect])
        #expect(answered.replies.first?.successful == true)
    }
}
