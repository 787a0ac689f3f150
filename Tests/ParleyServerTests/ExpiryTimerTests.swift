import Foundation
import ParleyCore
import Testing

@testable import ParleyServer

/// The sockets' credential expiries share one task per server clock (``ExpiryTimer``): each watch runs once its date
/// has passed, in date order, not after it is cancelled, and sooner when a renewal moves its date earlier.
@Suite("Credential expiry timer", .timeLimit(.minutes(1)))
struct ExpiryTimerTests {
    @Test func watchesRunAtTheirDatesInOrderAndNotOnceCancelled() async throws {
        let virtual = VirtualClock()
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = ServerClock(clock: virtual, startingAt: start)
        let (fired, firing) = AsyncStream.makeStream(of: String.self)
        func watch(_ name: String, after seconds: Double) -> (CredentialExpiry, ExpiryTimer.Watch) {
            let expiry = CredentialExpiry(start.addingTimeInterval(seconds))
            return (expiry, expiry.watch(clock: clock) { firing.yield(name) })
        }
        var events = fired.makeAsyncIterator()
        let (_, ten) = watch("ten", after: 10)
        _ = watch("five", after: 5)
        let (_, twenty) = watch("twenty", after: 20)
        let (renewed, _) = watch("renewed", after: 30)

        await virtual.advance(by: .seconds(6))
        #expect(await events.next() == "five")
        // Moved earlier than the date the timer sleeps until: it wakes for it.
        renewed.renew(until: start.addingTimeInterval(7))
        await virtual.advance(by: .seconds(1))
        #expect(await events.next() == "renewed")
        twenty.cancel()
        await virtual.advance(by: .seconds(4))
        #expect(await events.next() == "ten")
        ten.cancel()  // after it ran: nothing
        _ = watch("later", after: 25)
        await virtual.advance(by: .seconds(15))
        // "twenty" was cancelled: the next to run is the one watched last.
        #expect(await events.next() == "later")
        firing.finish()
        #expect(await events.next() == nil)
    }
}
